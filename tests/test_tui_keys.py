"""No crash in any screen order: every key every screen offers is pressed, from an
empty start and from a scenario whose names are hostile (markup, escapes), at 80x24;
plus the crashes users met (Ctrl+N before the Table screen was ever shown, a player
called `[/` on F2), and the Cards screen agreeing with the engine."""

from __future__ import annotations

import pytest
from textual.screen import ModalScreen

from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp

HOSTILE = """\
format: 1
id: hostile
title: "[/] [bold]x\\\\y"
question: "[red]does [/b] \\\\ crash?"
table:
  players: ["A[/b]", "x\\\\y", "[bold]Z"]
  hands:
    "A[/b]": [Milk, Bread, "?"]
    "x\\\\y": ["? x2"]
  draw_pile: ["? x5"]
events:
  - play: Milk
"""

NEVER = {"ctrl+q", "ctrl+c", "f1", "f2", "f3", "f4", "f5", "ctrl+p", "question_mark"}


MAIN = {"TableScreen", "ReplayScreen", "RulingsScreen", "InteractionsScreen"}


async def close_dialogs(pilot) -> None:
    for _ in range(6):
        if not isinstance(pilot.app.screen, ModalScreen) and type(pilot.app.screen).__name__ in MAIN:
            return
        await pilot.press("escape")


def our_keys(app, seen: set, app_done: set) -> list[str]:
    """One key for each action the app defines on this screen (its own, the app's, and
    the focused widget's when it is one of ours) not pressed yet on this screen
    (`seen`); Textual's own editing keys are not ours."""
    keys = []
    for key, active in app.screen.active_bindings.items():
        node = active.node
        own = {b.action for b in type(node).__dict__.get("BINDINGS", []) if hasattr(b, "action")}
        if key in NEVER or not type(node).__module__.startswith("tui.") or active.binding.action not in own:
            continue
        # the app's own keys act the same on every screen: pressed on the first only
        # (`app_done`), but New, which replaces what every screen shows, on each
        what = (type(node).__name__, active.binding.action)
        if node is app and active.binding.action != "new":
            what = ("app", active.binding.action)
        if what not in seen and what not in app_done:
            (app_done if what[0] == "app" else seen).add(what)
            keys.append(key)
    return keys


async def press_keys(pilot, where: str, done: set, app_done: set) -> list[str]:
    pressed = []
    for key in our_keys(pilot.app, done, app_done):
        await pilot.press(key)
        pressed.append(f"{where}:{key}")
        await close_dialogs(pilot)
    return pressed


async def press_everything(pilot, screens: tuple[str, ...]) -> list[str]:
    """Press each key of each screen, and on the Table those of the players and of a zone."""
    app = pilot.app
    pressed: list[str] = []
    app_done: set = set()
    for fkey in screens:
        done: set = set()
        await pilot.press(fkey)
        await pilot.pause(0.05)
        if fkey == "f2":
            await until(pilot, lambda: app.screen.ready)
            app.screen.query_one("#players").focus()
            pressed += await press_keys(pilot, "players", done, app_done)
            zones = list(app.screen.query("ZoneList"))
            zones[-2 if len(zones) > 5 else 0].focus()          # a player's hand, or the rules
            await pilot.pause(0.05)
            pressed += await press_keys(pilot, "zone", done, app_done)
        pressed += await press_keys(pilot, fkey, done, app_done)
    await pilot.press("f1")
    await close_dialogs(pilot)
    return pressed


# Two independent runs of the app (pytest-xdist can give them to two workers): from an
# empty start (Ctrl+N first), and with the hostile scenario open. Each presses the app's
# own keys once, on its first screen, and must find at least `least` keys in all.
RUNS = {
    "empty-start": (False, ("f2", "f3"), 35),
    "hostile-names": (True, ("f2", "f3", "f4", "f5"), 35),
}


@pytest.mark.slow(12)
@pytest.mark.parametrize("hostile, screens, least", RUNS.values(), ids=RUNS.keys())
async def test_every_key_from_an_empty_start_then_with_hostile_names(tmp_path, monkeypatch, hostile, screens, least):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "hostile.yaml"
    app = FluxxJudgeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        if not hostile:
            await pilot.press("ctrl+n")                   # before the Table screen was ever shown
            await until(pilot, lambda: app.current_mode == "table" and getattr(app.screen, "ready", False))
        else:
            path.write_text(HOSTILE, encoding="utf-8")
            app.open_scenario(str(path))
            await until(pilot, lambda: app.screen.__class__.__name__ == "ReplayScreen" and app.screen.verdict
                        and app.session.path == str(path))
            assert "[red]does [/b]" in str(app.screen.query_one("#answer").render())     # shown as typed
            await pilot.press("f2")
            await until(pilot, lambda: getattr(app.screen, "ready", False) and app.screen.session is app.session)
            assert "A[/b]" in str(app.screen.query_one("#players").get_option_at_index(0).prompt)
        pressed = await press_everything(pilot, screens)
        assert len(pressed) >= least and app.return_code is None, pressed        # still running
    # nothing written where the app was started
    assert sorted(p.name for p in tmp_path.iterdir()) == (["hostile.yaml"] if hostile else [])


async def test_the_cards_screen_agrees_with_the_engine():
    app = FluxxJudgeApp(start_mode="interactions")
    async with app.run_test(size=(80, 24)) as pilot:
        for a, b in (("Double Agenda", "Trash a New Rule"), ("That's Mine", "Veto!")):
            app.show_cards(a, b)
            await until(pilot, lambda: app.screen.query_one("#card-b").value == b)
            status = app.screen.query_one("#pair-status")
            await until(pilot, lambda: "Looking" not in str(status.render()), timeout=30)
            assert "do not meet" not in str(status.render()) and "way" in str(status.render())
            assert app.screen.query_one("#pair-paths").option_count > 0
