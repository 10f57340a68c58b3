"""Take the walkthrough's screenshots with the app itself (docs/img/*.svg).

    .venv/bin/python docs/make_screenshots.py

Runs the real app headless at 120x40 on the dispute of docs/walkthrough.md and saves
one SVG per main screen with `App.save_screenshot()`; then the Analysis panel on a
position of its own (`docs/make_screenshots.py analysis` takes that one alone).
"""

from __future__ import annotations

import asyncio
import copy
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
IMG = ROOT / "docs" / "img"
SIZE = (120, 40)

# The dispute of the walkthrough: under Play All, does Time Portal end Ann's turn?
# Ben's and Cal's hands are unseen, as at a real table.
DISPUTE = {
    "format": 1,
    "id": "time-portal-under-play-all",
    "title": "Time Portal under Play All",
    "question": {"text": "Does Ann's turn end when she plays Time Portal under Play All?", "ask": "turn"},
    "table": {
        "players": ["Ann", "Ben", "Cal"],
        "turn": "Ann",
        "rules": ["Play All"],
        "goals": ["Time is Money"],
        "hands": {"Ann": ["Time Portal", "The Moon", "Bread"], "Ben": ["? x3"], "Cal": ["? x3"]},
        "keepers": {"Ann": ["Time"]},
        "draw_pile": ["? x10"],
        "discard": ["Dreams", "Love"],
    },
}
PLAY = {"play": "Time Portal", "by": "Ann"}

# The Analysis panel's position: Ann can win in two plays, Cal's Canceled Plans could
# stop the second, and Toast would hand the win to Ben.
ANALYSIS = {
    "format": 1,
    "id": "analysis-can-ann-win",
    "title": "Can Ann still win this turn?",
    "question": "Can Ann win this turn, and can anyone stop her?",
    "table": {
        "players": ["Ann", "Ben", "Cal"],
        "turn": "Ann",
        "rules": ["Play 2"],
        "goals": ["Hippyism"],
        "hands": {"Ann": ["Cookies", "Milk & Cookies", "Toast", "Dreams"], "Ben": ["? x3"],
                  "Cal": ["Canceled Plans", "?"]},
        "keepers": {"Ann": ["Milk"], "Ben": ["Bread", "The Toaster"]},
        "draw_pile": ["? x10"],
    },
}
WHAT_IF = {"surprise": "Stop That!", "by": "Cal", "against": "Time Portal"}


async def until(pilot, condition, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError("the app did not reach the state to photograph")
        await pilot.pause(0.05)


async def shoot() -> list[str]:
    os.environ.setdefault("FLUXX_JUDGE_CACHE", tempfile.mkdtemp(prefix="fluxx-judge-shots-"))
    os.environ.setdefault("FLUXX_JUDGE_SCENARIOS", os.path.join(os.path.expanduser("~"), "Documents", "fluxx-judge"))
    from textual.widgets import Input

    from tui.app import FluxxJudgeApp
    from tui.screens.interactions import InteractionsScreen
    from tui.screens.replay import ReplayScreen
    from tui.screens.rulings import RulingScreen, RulingsScreen
    from tui.screens.table import TableScreen, ZoneList
    from tui.session import Session
    from tui.widgets import ChoiceModal

    IMG.mkdir(parents=True, exist_ok=True)
    saved: list[str] = []

    def snap(app, name: str) -> None:
        saved.append(app.save_screenshot(f"{name}.svg", str(IMG)))

    app = FluxxJudgeApp()
    async with app.run_test(size=SIZE) as pilot:
        # 1. Rulings: search as you type
        await until(pilot, lambda: isinstance(app.screen, RulingsScreen) and app.screen.corpus is not None)
        rulings = app.screen
        rulings.query_one("#query", Input).value = "time portal play all"
        await until(pilot, lambda: rulings.last_result is not None)
        await pilot.pause(0.3)
        snap(app, "rulings")

        # 2. Table: the position of the dispute, the unseen hands as '?'
        app.session = Session(doc=copy.deepcopy(DISPUTE))
        table = app.show_mode("table")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and table.ready and table.session is app.session)
        await until(pilot, lambda: "none" in str(table.query_one("#problems-title").render()))
        next(z for z in table.query(ZoneList) if z.zone == "hands.Cal").focus()
        await pilot.pause(0.3)
        snap(app, "table")

        # 3. Replay: Ann plays Time Portal and picks Dreams; the answer comes first
        replay = app.show_mode("replay")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and replay.verdict is not None
                    and not replay.busy)
        replay.append_event(0, PLAY)
        await until(pilot, lambda: len(replay.verdict.steps) == 2 and not replay.busy)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause(0.3)
        snap(app, "replay-decision")
        await pilot.press("enter")               # Ann takes Dreams back
        await until(pilot, lambda: replay.verdict.steps[-1].status == "done" and not replay.busy)
        await pilot.pause(0.5)                   # the rulings' one-line answers arrive
        snap(app, "replay")

        # 4. What the others could still do: reveals of their unseen cards, grouped
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        app.screen.query_one("#choice-filter", Input).value = "reveals a surprise"
        await pilot.pause(0.3)
        snap(app, "replay-menu")
        await pilot.press("escape")

        # 5. What if Cal had revealed Stop That!? A branch, saved with the scenario
        await pilot.press("b")
        await until(pilot, lambda: len(replay.lines) == 2 and not replay.busy)
        replay.append_event(replay.current, WHAT_IF)
        await until(pilot, lambda: len(replay.verdict.steps) == 3 and not replay.busy)
        await pilot.pause(0.5)
        snap(app, "what-if")

        # 6. Saving: proposed in the user's own folder, never the checkout
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen.__class__.__name__ == "PromptModal")
        await pilot.pause(0.2)
        snap(app, "save")
        await pilot.press("escape")

        # 7. A ruling, opened from the answer's step
        await pilot.press("l")
        await until(pilot, lambda: replay.current == 0 and not replay.busy)
        cites = replay.query_one("#cites")
        cites.focus()
        cites.highlighted = next(i for i, o in enumerate(cites.options) if o.id == "play-all-vs-turn-end")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        links = app.screen.query_one("#ruling-links")
        await until(pilot, lambda: any((o.id or "").startswith("sc:") for o in links.options))
        await pilot.pause(0.3)
        snap(app, "ruling")
        await pilot.press("escape")

        # 8. Cards: how the two cards meet
        app.show_cards("Time Portal", "Play All")
        await until(pilot, lambda: isinstance(app.screen, InteractionsScreen) and app.screen.mounted
                    and app.screen.query_one("#pair-paths").option_count > 0)
        await pilot.pause(0.3)
        snap(app, "cards")
    return saved


async def shoot_analysis() -> list[str]:
    """The Replay screen with its Analysis panel open (n) on the set-up."""
    os.environ.setdefault("FLUXX_JUDGE_CACHE", tempfile.mkdtemp(prefix="fluxx-judge-shots-"))
    from tui.app import FluxxJudgeApp
    from tui.screens.replay import ReplayScreen
    from tui.session import Session

    IMG.mkdir(parents=True, exist_ok=True)
    app = FluxxJudgeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.session = Session(doc=copy.deepcopy(ANALYSIS))
        replay = app.show_mode("replay")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and replay.verdict is not None
                    and not replay.busy)
        await pilot.press("n")
        await until(pilot, lambda: any(done in str(replay.query_one("#analysis-text").render())
                                       for done in ("Search exhausted", "Search NOT")))
        await pilot.pause(0.5)
        return [app.save_screenshot("analysis.svg", str(IMG))]


async def main(which: list[str]) -> list[str]:
    saved = [] if which == ["analysis"] else await shoot()
    return saved + await shoot_analysis()


if __name__ == "__main__":
    for path in asyncio.run(main(sys.argv[1:])):
        print(path)
