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
