"""What the app draws from a file, a share string or an imported FAQ reaches the terminal
escaped (tui/escapes.py): an ESC sequence in a title, a question, a note or a ruling
shows as `\\x1b...` and never sets the window title or clears the screen."""

from __future__ import annotations

from rich.segment import Segment

from test_tui_support import until
from tui.app import FluxxJudgeApp
from tui.escapes import EscapeFilter
from tui.screens.replay import ReplayScreen
from tui.screens.rulings import RulingScreen

ATTACK = "\x1b]0;owned\x07\x1b[2J\x9b2J\u202e"       # window title, clear screen (ESC and C1), bidi override
RAW = ("\x1b]0;owned", "\x1b[2J", "\x9b", "\u202e")
SHOWN = "\\x1b]0;owned"


def terminal_output(app) -> str:
    """Everything the app would write to the terminal to draw its screen afresh."""
    return app.screen._compositor.render_update(full=True).render_segments(app.console)


def leaks(app, where: str) -> list[str]:
    """What reached the terminal raw from `where` (or the escape not shown at all)."""
    out = terminal_output(app)
    found = [f"{raw!r} reached the terminal from {where}" for raw in RAW if raw in out]
    return found + ([] if SHOWN in out else [f"the escaped text is not shown ({where})"])


def test_the_filter_escapes_and_keeps_the_line_width():
    line = [Segment("Who wins?" + ATTACK), Segment(" " * 60), Segment("│")]
    out = EscapeFilter().apply(line, None)
    text = "".join(s.text for s in out)
    assert text.startswith("Who wins?\\x1b]0;owned\\x07\\x1b[2J\\u009b2J\\u202e ") and text.endswith(" │")
    assert Segment.get_line_length(out) == Segment.get_line_length(line)      # the padding gave way
    tight = [Segment("Q" + ATTACK), Segment("│")]
    out = EscapeFilter().apply(tight, None)
    assert Segment.get_line_length(out) == Segment.get_line_length(tight) and "\x1b" not in "".join(
        s.text for s in out)                                                   # cut, never wider
    plain = [Segment("nothing to escape  "), Segment("│")]
    assert EscapeFilter().apply(plain, None) is plain


async def test_a_file_a_share_string_and_an_imported_faq_reach_the_screen_escaped(tmp_path):
    from adjudicator import share
    from rulings.ingest import imported_rulings, ingest_files
    from tui.scenario_io import dump

    doc = {"format": 1, "title": "Who wins?" + ATTACK, "question": "Q" + ATTACK,
           "table": {"players": ["Ann", "Ben"], "hands": {"Ann": ["Milk"]}},
           "events": [{"play": "Milk", "note": "N" + ATTACK}]}
    path = tmp_path / "evil.yaml"
    path.write_text(dump(doc), encoding="utf-8")
    faq = tmp_path / "faq.txt"
    faq.write_text(f"Q: Can the owned player{ATTACK} win now?\nA: Yes{ATTACK}, at once.\n", encoding="utf-8")
    assert ingest_files([faq])[0].found == 1

    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(120, 36)) as pilot:
        ready = lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None  # noqa: E731
        await until(pilot, lambda: ready() and not app.screen.busy)
        assert app.session.doc["title"] == "Who wins?" + ATTACK            # the document itself is untouched
        problems = leaks(app, "a scenario file")

        doc["title"] = "Shared" + ATTACK
        app.open_scenario(share.encode(doc))
        await until(pilot, lambda: ready() and not app.screen.busy and app.session.doc.get("title") == doc["title"])
        problems += leaks(app, "a share string")

        [ruling] = [r for r in imported_rulings() if "owned" in r.title]
        app.open_ruling(ruling.id)              # an imported ruling's page, as a search hit opens it
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        await pilot.pause()
        problems += leaks(app, "an imported ruling")
    assert not problems, problems
