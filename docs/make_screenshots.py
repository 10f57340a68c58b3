"""Take the walkthrough's screenshots with the app itself (docs/img/*.svg).

    .venv/bin/python docs/make_screenshots.py

Runs the real app headless at 120x40 on the dispute of docs/walkthrough.md and saves
one SVG per main screen with `App.save_screenshot()`.
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

# The dispute of the walkthrough: under Play All, may Ann end her turn with Get On With It!?
DISPUTE = {
    "format": 1,
    "id": "gowi-under-play-all",
    "title": "Under Play All, may Ann stop early with Get On With It!?",
    "table": {
        "players": ["Ann", "Ben", "Cal"],
        "turn": "Ann",
        "rules": ["Play All", "Get On With It!"],
        "goals": ["Milk & Cookies"],
        "hands": {"Ann": ["Milk", "Bread", "Sleep"], "Ben": ["Cookies"], "Cal": ["Veto!"]},
        "keepers": {"Ben": ["The Moon"]},
        "draw_pile": ["Time", "Money", "Dreams", "Love", "? x10"],
        "discard": ["Jackpot!"],
    },
}
EVENTS = [{"play": "Milk", "by": "Ann"}, {"use": "Get On With It!", "by": "Ann"}]


async def until(pilot, condition, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError("the app did not reach the state to photograph")
        await pilot.pause(0.05)


async def shoot() -> list[str]:
    os.environ.setdefault("FLUXX_JUDGE_CACHE", tempfile.mkdtemp(prefix="fluxx-judge-shots-"))
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
        rulings.query_one("#query", Input).value = "play all get on with it"
        await until(pilot, lambda: rulings.last_result is not None)
        await pilot.pause(0.3)
        snap(app, "rulings")

        # 2. Table: the position of the dispute
        app.session = Session(doc=copy.deepcopy(DISPUTE))
        table = app.show_mode("table")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and table.ready and table.session is app.session)
        await until(pilot, lambda: "none" in str(table.query_one("#problems-title").render()))
        next(z for z in table.query(ZoneList) if z.zone == "hands.Ann").focus()
        await pilot.pause(0.3)
        snap(app, "table")

        # 3. Replay: the menu of what the rules allow now
        replay = app.show_mode("replay")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and replay.verdict is not None
                    and not replay.busy)
        replay.append_event(0, EVENTS[0])
        await until(pilot, lambda: len(replay.verdict.steps) == 2 and not replay.busy)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause(0.3)
        snap(app, "replay-menu")
        await pilot.press("escape")

        # 4. Replay: the step that settles it, with its rulings
        replay.append_event(0, EVENTS[1])
        await until(pilot, lambda: len(replay.verdict.steps) == 3 and not replay.busy)
        await pilot.pause(0.5)                 # the rulings' one-line summaries arrive
        snap(app, "replay")

        # 5. A ruling, opened from the step that cites it
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

        # 6. Cards: how the two rules meet
        app.show_cards("Play All", "Get On With It!")
        await until(pilot, lambda: isinstance(app.screen, InteractionsScreen) and app.screen.mounted
                    and app.screen.query_one("#pair-paths").option_count > 0)
        await pilot.pause(0.3)
        snap(app, "cards")
    return saved


if __name__ == "__main__":
    for path in asyncio.run(shoot()):
        print(path)
