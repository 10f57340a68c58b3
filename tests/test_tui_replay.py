"""Replay screen pilot tests: step through a library scenario, a late Surprise refused with
its ruling, events added from the menus, a pending decision answered, what-if branches."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.widgets import Input

from scenarios import library_path
from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp
from tui.screens.replay import ReplayScreen
from tui.screens.rulings import RulingScreen
from tui.widgets import ChoiceModal, PromptModal

DATA = Path(__file__).parent / "data"
PREFERRED = "double-agenda-full-slots-player-picks.yaml"


def library_scenario() -> Path:
    """A library scenario with a few events (a known one when the library has it)."""
    folder = Path(library_path())
    if (folder / "base" / PREFERRED).exists():
        return folder / "base" / PREFERRED
    for path in sorted(folder.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if len(data.get("events") or []) >= 3:
            return path
    pytest.skip("the scenario library has no scenario with three events yet")


async def replay_ready(pilot) -> ReplayScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen) and pilot.app.screen.verdict is not None
                and not pilot.app.screen.busy)
    return pilot.app.screen


def shown(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_step_through_a_library_scenario_to_the_verdict_and_back():
    path = library_scenario()
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        n = len(screen.verdict.steps) - 1
        assert screen.step_index == 0
        assert f"step 0 of {n}" in shown(screen, "#replay-head")
        assert "Set-up" in shown(screen, "#step-title")
        await pilot.press("end")
        assert screen.step_index == n and f"step {n} of {n}" in shown(screen, "#replay-head")
        verdict = shown(screen, "#verdict")
        assert screen.verdict.summary().split(".")[0] in verdict
        # (the library is judged by `fluxx-judge check`; here the screen need only say what the engine found)
        assert ("did not hold" if screen.verdict.failures else "expectations hold") in verdict
        await pilot.press("left")
        assert screen.step_index == n - 1 and f"Step {n - 1} of {n}" in shown(screen, "#step-title")
        await pilot.press("home")
        assert screen.step_index == 0
        await pilot.press("right")
        assert screen.step_index == 1 and f"step 1 of {n}" in shown(screen, "#replay-head")
        step = screen.verdict.steps[1]
        if step.entries:
            assert step.entries[0].text in shown(screen, "#explain-text")
        table = shown(screen, "#table-text")
        assert f"Turn: {step.table['turn']}" in table


async def test_a_late_surprise_is_refused_with_its_ruling():
    app = FluxxJudgeApp(open_file=str(DATA / "late-surprise.yaml"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        await pilot.press("end")
        step = screen.verdict.steps[screen.step_index]
        assert step.status == "rejected"
        assert "REFUSED" in shown(screen, "#step-title")
        explanation = shown(screen, "#explain-text")
        assert "too late" in explanation and "surprise-too-late" in explanation
        cites = screen.query_one("#cites")
        assert [o.id for o in cites.options] == ["surprise-too-late"]
        assert "expectations hold" in shown(screen, "#verdict")
        cites.focus()
        await pilot.press("enter")                     # the cited ruling opens
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        await until(pilot, lambda: "Q:" in str(app.screen.query_one("#ruling-text").render()))
        assert app.screen.rid == "surprise-too-late"
        await pilot.press("escape")
        assert app.screen is screen


async def test_events_from_the_menu_and_a_what_if_branch(tmp_path):
    path = tmp_path / "menu.yaml"
    path.write_text("format: 1\nid: menu\ntable:\n  players: [Ann, Ben]\n  rules: [Play 2]\n"
                    "  hands:\n    Ann: [Milk, Bread, Sleep]\n    Ben: [Cookies]\n  draw_pile: ['? x10']\n"
                    "events:\n  - play: Milk\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        await pilot.press("end", "a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        labels = {o.id: str(o.prompt) for o in app.screen.query_one("#choice-list").options if o.id}
        assert "Ann plays Bread" in labels.values() and "Ann plays Sleep" in labels.values()
        assert not any("Milk" in v for v in labels.values())       # only what is legal now
        pick = next(k for k, v in labels.items() if v == "Ann plays Bread")
        ol = app.screen.query_one("#choice-list")
        ol.highlighted = next(i for i, o in enumerate(ol.options) if o.id == pick)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.verdict.steps) == 3 and not screen.busy)
        assert app.session.doc["events"] == [{"play": "Milk"}, {"play": "Bread", "by": "Ann"}]
        assert screen.step_index == 2 and "+Bread" in shown(screen, "#table-text")
        # what if Ann had played Sleep instead? branch at step 1; the scenario's line stays
        await pilot.press("left", "b")
        await until(pilot, lambda: len(screen.lines) == 2 and screen.current == 1 and not screen.busy)
        assert len(screen.verdict.steps) == 2
        screen.append_event(1, {"play": "Sleep", "by": "Ann"})
        await until(pilot, lambda: len(screen.verdict.steps) == 3 and not screen.busy)
        assert "+Sleep" in shown(screen, "#table-text") and "what if" in shown(screen, "#lines-info")
        await pilot.press("l")
        await until(pilot, lambda: screen.current == 0 and not screen.busy)
        assert [e.get("play") for e in screen.lines[0].events] == ["Milk", "Bread"]
        assert app.session.doc["events"][-1]["play"] == "Bread"
        # keep the what-if as the scenario's own line, then drop its last event
        await pilot.press("l")
        await until(pilot, lambda: screen.current == 1 and not screen.busy)
        await pilot.press("k")
        await until(pilot, lambda: screen.current == 0 and not screen.busy)
        assert [e.get("play") for e in app.session.doc["events"]] == ["Milk", "Sleep"]
        await pilot.press("x")
        await until(pilot, lambda: len(screen.verdict.steps) == 2 and not screen.busy)
        assert app.session.doc["events"] == [{"play": "Milk"}]
        # the line that was replaced is kept as a what-if, saved with the scenario: nothing is lost
        assert app.session.doc["variations"] == [{"after": 1, "title": "the line before",
                                                  "events": [{"play": "Bread", "by": "Ann"}]}]
        assert app.session.changed


async def test_a_pending_decision_is_offered_as_a_prompt(tmp_path):
    path = tmp_path / "pending.yaml"
    path.write_text("format: 1\nid: pending\ntable:\n  players: [Ann, Ben]\n  rules: [Double Agenda, Play 2]\n"
                    "  goals: [Toast, Baked Goods]\n  hands:\n    Ann: [Milk & Cookies, Sleep]\n"
                    "  draw_pile: ['? x10']\nevents:\n  - play: Milk & Cookies\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        await pilot.press("end")
        assert screen.verdict.steps[-1].status == "waiting"
        assert "Press a to answer" in shown(screen, "#explain-text")
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        labels = [str(o.prompt) for o in app.screen.query_one("#choice-list").options if o.id]
        # each answer is told by what it does, not only by the card named
        assert labels[:2] == ["Toast is replaced; Baked Goods stays", "Baked Goods is replaced; Toast stays"]
        await pilot.press("enter")
        # the answer goes into the play that asked for it: its step holds all it did
        await until(pilot, lambda: screen.verdict.steps[-1].status == "done" and not screen.busy)
        assert app.session.doc["events"] == [{"play": "Milk & Cookies", "choose": ["Toast"]}]
        assert len(screen.verdict.steps) == 2 and "Toast" in shown(screen, "#explain-text")


async def test_a_bad_scenario_shows_its_error_not_a_traceback(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("format: 1\ntable:\n  players: [Ann]\n  hands:\n    Ann: [Milkk]\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                    and app.screen.query_one("#replay-error").display)
        screen = app.screen
        text = shown(screen, "#replay-error")
        assert "typo.yaml:5:" in text and "did you mean 'Milk'" in text and "Ann: [Milkk]" in text
        assert "This file cannot be used" in text and "text editor" in text     # the fix is in the file


async def test_a_new_scenario_is_sent_to_the_table_not_to_a_text_editor():
    # a fresh dispute has no players yet: Replay says where to build it, not how to edit a file
    app = FluxxJudgeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                    and app.screen.query_one("#replay-error").display)
        text = shown(app.screen, "#replay-error")
        assert "cannot be replayed as it stands" in text and "Table (F2)" in text and "1 to 8 players" in text
        assert "text editor" not in text and "This file" not in text


async def test_a_typed_event_is_judged_by_the_engine():
    app = FluxxJudgeApp(open_file=str(DATA / "late-surprise.yaml"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        await pilot.press("end", "x")                  # drop the late Veto!, then type it in again
        await until(pilot, lambda: len(screen.verdict.steps) == 3 and not screen.busy)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        choice = app.screen.query_one("#choice-list")
        assert not any("the Surprise" in str(o.prompt) for o in choice.options)   # too late: not offered
        choice.highlighted = next(i for i, o in enumerate(choice.options) if "Type any event" in str(o.prompt))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PromptModal))
        app.screen.query_one(Input).value = "surprise Veto! by Ben against Play 2"
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.verdict.steps) == 4 and not screen.busy)
        step = screen.verdict.steps[-1]
        assert step.status == "rejected" and step.ruling == "surprise-too-late"
        assert "REFUSED" in shown(screen, "#step-title")
        assert app.session.doc["events"][-1] == {"surprise": "Veto!", "by": "Ben", "against": "Play 2"}


async def test_saved_what_ifs_reopen_as_lines_and_a_refusal_is_an_answer(tmp_path):
    path = tmp_path / "lines.yaml"
    path.write_text("format: 1\nid: lines\nquestion: Can Ben still cancel the Milk?\ntable:\n"
                    "  players: [Ann, Ben]\n  rules: [Play 2]\n  hands:\n    Ann: [Milk, Bread]\n"
                    "    Ben: [That's Mine]\n  draw_pile: ['? x10']\nevents:\n  - play: Milk\n  - play: Bread\n"
                    "  - surprise: That's Mine\n    by: Ben\n    against: Milk\n"
                    "variations:\n  - after: 1\n    title: Ben at once\n    events:\n"
                    "      - surprise: That's Mine\n        by: Ben\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        assert [line.name for line in screen.lines] == ["the scenario", "Ben at once"]
        assert screen.verdict.steps[-1].status == "rejected"          # too late: refused...
        answer = shown(screen, "#answer")
        assert answer.index("Q: Can Ben still cancel") < answer.index("Answer:")
        for words in ("FAIL", "did not hold", "expected otherwise"):   # ...and that is the answer, not a failure
            assert words not in shown(screen, "#verdict") + answer
        await pilot.press("end")
        assert "expected otherwise" not in shown(screen, "#explain-text")
        await pilot.press("l")                                        # the saved what-if, stepped through
        await until(pilot, lambda: screen.current == 1 and not screen.busy)
        assert len(screen.verdict.steps) == 3 and screen.verdict.steps[-1].status == "done"
        assert "Ben at once" in shown(screen, "#lines-info")
        assert not app.session.changed


async def test_typed_events_in_the_menus_words(tmp_path):
    path = tmp_path / "typed.yaml"
    path.write_text("format: 1\nid: typed\ntable:\n  players: [Ann, Ben]\n  rules: [Play 2]\n"
                    "  hands:\n    Ann: [Milk, Bread]\n    Ben: ['? x2']\n  draw_pile: ['? x10']\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await replay_ready(pilot)
        for typed in ("Ann plays Milk", "Ben reveals That's Mine against Milk"):
            screen._ask_typed(0)
            await until(pilot, lambda: isinstance(app.screen, PromptModal) and app.screen.query(Input))
            hint = str(app.screen.query_one(".dialog-hint").render())
            assert "Ann" in hint and "Cal" not in hint                 # hints from this table only
            app.screen.query_one(Input).value = typed
            await pilot.press("enter")
            n = len(app.session.doc.get("events") or [])
            await until(pilot, lambda: n and not screen.busy and len(screen.verdict.steps) == n + 1)
        assert app.session.doc["events"] == [{"play": "Milk", "by": "Ann"},
                                             {"surprise": "That's Mine", "by": "Ben", "against": "Milk"}]
        assert "reveals" in shown(screen, "#explain-text")


async def test_the_answer_says_what_it_asks_and_a_fault_in_the_apps_terms(tmp_path):
    """The question's kind is written with q (then kept in the file), the answer says which
    kind it gives; an event that cannot come where it stands is explained with the app's
    keys, never with the file's syntax or its line numbers."""
    path = tmp_path / "fault.yaml"
    path.write_text("format: 1\nid: fault\nquestion: Does Ann win?\ntable:\n  players: [Ann, Ben]\n"
                    "  rules: [Play 2]\n  hands:\n    Ann: [Trash a Keeper, Bread]\n  keepers:\n"
                    "    Ben: [Milk, Sleep]\n  draw_pile: ['? x10']\nevents:\n  - play: Trash a Keeper\n"
                    "  - play: Bread\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await replay_ready(pilot)
        answer = shown(screen, "#answer")
        assert "the game is waiting for Ann to decide first" in answer and "Press x to drop this event" in answer
        await pilot.press("end")
        explained = shown(screen, "#explain-text")
        assert "This event cannot come here" in explained
        for file_words in ("choose:", "line 14", "`"):
            assert file_words not in answer + explained
        await pilot.press("x")                               # drop it: the answer is now about the play
        await until(pilot, lambda: len(screen.verdict.steps) == 2 and not screen.busy)
        assert "asks must: what must a player do now?, picked by the verdict" in shown(screen, "#answer")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, PromptModal))
        await pilot.press("enter")                           # the text as it was; then what it asks
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        choice = app.screen.query_one("#choice-list")
        choice.highlighted = next(i for i, o in enumerate(choice.options) if o.id == "winner")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, ChoiceModal) and screen.verdict.answer.asked
                    and not screen.busy)
        assert app.session.doc["question"] == {"text": "Does Ann win?", "ask": "winner"}
        answer = shown(screen, "#answer")
        assert "asks winner: does anyone win, and if not, what stops them?" in answer
        assert "Answer: Nobody wins: no Goal is in play." in answer
