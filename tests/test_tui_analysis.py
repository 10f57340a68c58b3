"""The Replay screen's Analysis panel (n): it searches from the selected step in a
worker, says whether the player can still win this turn and how, and follows the step."""

from __future__ import annotations

from pathlib import Path

from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp
from tui.screens.replay import ReplayScreen

DATA = Path(__file__).parent / "data" / "analysis"


async def test_the_analysis_panel_follows_the_selected_step(tmp_path):
    path = tmp_path / "canceled.yaml"
    path.write_text((DATA / "canceled-plans.yaml").read_text(encoding="utf-8") + "events:\n  - play: Dreams\n",
                    encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None
                    and not app.screen.busy)
        screen = app.screen
        view = screen.query_one("#analysis-view")
        assert not view.display
        await pilot.press("n")
        assert view.display

        def text() -> str:
            return str(screen.query_one("#analysis-text").render())

        await until(pilot, lambda: "Search" in text())
        assert screen.step_index == 0
        assert "Ann can win this turn in 1 step" in text()
        assert "{play: Milk & Cookies}" in text()
        assert "Cal's Canceled Plans against step 1" in text()
        await pilot.press("end")          # after Dreams, Ann's one play is spent
        await until(pilot, lambda: "Search" in text() and "cannot win" in text())
        assert "Ann cannot win this turn." in text()
        await pilot.press("home")         # the first report is kept, not searched again
        assert "Ann can win" in text()
        await pilot.press("n")
        assert not view.display


async def test_the_panel_shows_each_depth_and_stops_the_search_when_hidden():
    # 24 New Rules under Let's Simplify: a search that goes on, depth after depth
    app = FluxxJudgeApp(open_file=str(DATA / "lets-simplify-24.yaml"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None
                    and not app.screen.busy)
        screen = app.screen

        def text() -> str:
            return str(screen.query_one("#analysis-text").render())

        def searching() -> list:
            return [w for w in app.workers if w.group == "analysis" and not w.is_finished]

        for _ in range(2):                # shown, hidden, shown again: a new search each time
            await pilot.press("n")
            await until(pilot, lambda: "Searching: Ann has no win within 1 event so far" in text())
            assert searching()
            await pilot.press("n")        # hidden: the search stops, and nothing of it is kept
            assert not screen.query_one("#analysis-view").display
            await until(pilot, lambda: not searching())
            assert screen.analyses == {}
