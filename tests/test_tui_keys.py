"""No crash in any screen order: every key every screen offers is pressed, from an
empty start and from a scenario whose names are hostile (markup, escapes), at 80x24;
plus the crashes users met (Ctrl+N before the Table screen was ever shown, a player
called `[/` on F2), and the Cards screen agreeing with the engine."""

from __future__ import annotations

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

SCREENS = ("f2", "f3", "f4", "f5")
NEVER = {"ctrl+q", "ctrl+c", "f1", "f2", "f3", "f4", "f5", "ctrl+p", "question_mark"}


MAIN = {"TableScreen", "ReplayScreen", "RulingsScreen", "InteractionsScreen"}


async def close_dialogs(pilot) -> None:
    for _ in range(6):
        if not isinstance(pilot.app.screen, ModalScreen) and type(pilot.app.screen).__name__ in MAIN:
            return
        await pilot.press("escape")


def our_keys(app) -> list[str]:
    """One key for each action the app defines on this screen (its own, the app's, and
    the focused widget's when it is one of ours); Textual's own editing keys are not ours."""
    seen, keys = set(), []
    for key, active in app.screen.active_bindings.items():
        node = active.node
        own = {b.action for b in type(node).__dict__.get("BINDINGS", []) if hasattr(b, "action")}
        if key in NEVER or not type(node).__module__.startswith("tui.") or active.binding.action not in own:
            continue
        if (id(node), active.binding.action) not in seen:
            seen.add((id(node), active.binding.action))
            keys.append(key)
    return keys


async def press_everything(pilot) -> list[str]:
    """Press each key of each screen (and of the widget that has focus there)."""
    app = pilot.app
    pressed = []
    for fkey in SCREENS:
        await pilot.press(fkey)
        await pilot.pause(0.1)
        keys = our_keys(app)
        for key in keys:
            await pilot.press(key)
            pressed.append(f"{fkey}:{key}")
            await close_dialogs(pilot)
        await pilot.press("tab")                      # and the keys of the next panel
        for key in [k for k in our_keys(app) if k not in keys]:
            await pilot.press(key)
            pressed.append(f"{fkey}:tab:{key}")
            await close_dialogs(pilot)
        await pilot.press("f1")
        await pilot.pause(0.02)
        await close_dialogs(pilot)
    return pressed


async def test_every_key_from_an_empty_start(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = FluxxJudgeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+n")                   # before the Table screen was ever shown
        await until(pilot, lambda: app.current_mode == "table" and getattr(app.screen, "ready", False))
        pressed = await press_everything(pilot)
        assert len(pressed) > 12
        assert app.return_code is None                # still running
    assert list(tmp_path.iterdir()) == []             # nothing written into the working folder


async def test_every_key_with_hostile_names(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "ReplayScreen" and app.screen.verdict)
        assert "[red]does [/b]" in str(app.screen.query_one("#answer").render())     # shown as typed
        await pilot.press("f2")
        await until(pilot, lambda: getattr(app.screen, "ready", False))
        players = app.screen.query_one("#players")
        assert "A[/b]" in str(players.get_option_at_index(0).prompt)
        pressed = await press_everything(pilot)
        assert len(pressed) > 12 and app.return_code is None
    assert path.read_text(encoding="utf-8") == HOSTILE or "hostile" in path.read_text(encoding="utf-8")


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
