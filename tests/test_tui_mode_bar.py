"""The top bar answers clicks and taps (a phone in `fluxx-judge serve` has no F keys):
a tab shows its screen, "F1 help" opens the help, "^P commands" the palette."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp
from tui.screens.help import HelpScreen


def column_of(app, words: str) -> int:
    shown = str(app.screen.query_one("ModeBar").render())
    assert words in shown, shown
    return shown.index(words) + 1


@pytest.mark.slow(5)
async def test_a_click_on_a_tab_shows_its_screen_and_help_and_commands_open():
    app = FluxxJudgeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.current_mode == "rulings")
        for label, mode in (("Replay", "replay"), ("Rulings", "rulings")):
            await pilot.click("ModeBar", offset=(column_of(app, label), 0))
            await until(pilot, lambda: app.current_mode == mode)
            assert f"{label} " in str(app.screen.query_one("ModeBar").render())
        await pilot.click("ModeBar", offset=(column_of(app, "F1 help"), 0))
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.click("ModeBar", offset=(column_of(app, "^P commands"), 0))
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        # closed before the app ends: the palette's search still running at shutdown can
        # read its styles while Textual is clearing them (a KeyError under load)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, CommandPalette))


async def test_on_a_phone_held_upright_one_column_and_the_bar_is_a_menu_with_open_and_save(tmp_path):
    """Issue 27: below 60 columns the tabs were cut off, Open and Save needed Ctrl, and
    Replay's explanation was 11 columns wide. 80x24 keeps its two columns and its tabs."""
    from tui.screens.replay import ReplayScreen
    from tui.screens.table import TableScreen
    from tui.widgets import ChoiceModal, OpenModal

    path = tmp_path / "creeper.yaml"
    path.write_text("format: 1\nquestion: {text: Does Ann win?, ask: winner}\ntable:\n  players: [Ann, Ben]\n"
                    "  hands:\n    Ann: [Milk & Cookies]\n  keepers:\n    Ann: [Milk, Cookies, Taxes]\n"
                    "events:\n  - play: Milk & Cookies\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(40, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None)
        bar = str(app.screen.query_one("ModeBar").render())
        assert "Menu" in bar and "Open" in bar and "Save" in bar and "Replay" in bar and "F2" not in bar
        replay = app.screen
        steps, explain = replay.query_one("#steps-pane").region, replay.query_one("#explain-view").region
        assert explain.width == 40 and steps.width == 40 and steps.bottom <= explain.y       # one column
        await pilot.click("ModeBar", offset=(column_of(app, "Open"), 0))
        await until(pilot, lambda: isinstance(app.screen, OpenModal))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is replay)
        await pilot.click("ModeBar", offset=(column_of(app, "Menu"), 0))
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.click("#choice-list", offset=(4, 1))           # the first entry: Table
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.ready)
        table = app.screen
        sidebar, zones = table.query_one("#sidebar").region, table.query_one("#zones-scroll").region
        assert sidebar.width == zones.width == 40 and sidebar.bottom <= zones.y
        app.session.doc["title"] = "changed"
        app.session.touch()
        await pilot.click("ModeBar", offset=(column_of(app, "Save"), 0))
        await until(pilot, lambda: "title: changed" in path.read_text(encoding="utf-8"))
        # a terminal of 80x24: the tabs, and the Table's panels side by side
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "F2 Table" in str(table.query_one("ModeBar").render()))
        await pilot.pause()
        sidebar, zones = table.query_one("#sidebar").region, table.query_one("#zones-scroll").region
        assert sidebar.width == 28 and zones.x >= sidebar.right and sidebar.y == zones.y
