"""The Open dialog (Ctrl+O): CPU time from the key to the dialog painted with the whole
library listed, and for each key typed in its filter (the list narrowed and painted).

The app runs headless at 120x40 (`App.run_test`, keys pressed as the pilot tests press
them) on its first screen, Rulings, with a fresh rulings cache; the timing starts once
the app is idle (its start-up workers done). A dialog is painted several times as it
settles (each layout pass: the list's height, then its scrollbar...), so each figure
runs from the key to the dialog's last paint within `SETTLE` seconds (before its
cursor first blinks). An open goes the whole way: the library listed in its worker
(process CPU time counts it), the dialog built, laid out and painted over the dimmed
screen. The same dialog with an empty library, opened in the same round, gives what
any dialog costs there (Textual's screen change and the dimmed copy of the screen
behind, painted again at each pass), so the round's difference is the list's.
Medians of `RUNS` rounds after one untimed.
`python benchmarks/bench_dialogs.py` prints the figures.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9
SETTLE = 0.35           # seconds; Input's cursor first blinks 0.5 s after a key
FILTER = "the"          # typed, then erased: six keys, each narrowing or widening the list


async def _measure() -> dict[str, float]:
    import tui.app as app_module
    from textual.screen import Screen
    from tui.widgets import OpenModal

    listing = app_module.library_scenarios
    empty = [False]
    app_module.library_scenarios = lambda: [] if empty[0] else listing()
    painted: list[float] = []
    refresh = Screen._compositor_refresh

    def _compositor_refresh(self) -> None:
        refresh(self)
        if isinstance(self, OpenModal):
            painted.append(time.process_time())

    Screen._compositor_refresh = _compositor_refresh

    async def timed(pilot, key: str) -> float:
        painted.clear()
        start = time.process_time()
        await pilot.press(key)
        await asyncio.sleep(SETTLE)
        if not painted:
            raise RuntimeError(f"the dialog was not painted after {key}")
        return painted[-1] - start

    async def open_dialog(pilot) -> float:
        took = await timed(pilot, "ctrl+o")
        if not isinstance(app.screen, OpenModal):
            raise RuntimeError("Ctrl+O did not open the dialog")
        return took

    app = app_module.FluxxJudgeApp()
    figures: dict[str, list[float]] = {"open": [], "empty": [], "list": [], "key": [], "empty_key": []}
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            deadline = time.monotonic() + 60
            await pilot.pause(0.2)
            while any(w.is_running for w in app.workers) and time.monotonic() < deadline:
                await pilot.pause(0.05)
            # each round opens the dialog with the library, then with none: the two
            # figures of a round meet the same load, and their difference is the list's
            for run in range(RUNS + 1):
                round_: dict[str, list[float]] = {"key": [], "empty_key": []}
                for without in (False, True):
                    empty[0] = without
                    took = await open_dialog(pilot)
                    for key in [*FILTER, *["backspace"] * len(FILTER)]:
                        round_["empty_key" if without else "key"].append(await timed(pilot, key))
                    round_["empty" if without else "open"] = [took]
                    await pilot.press("escape")
                    await pilot.pause(0.1)
                if run:
                    for name, values in round_.items():
                        figures[name].extend(values)
                    figures["list"].append(round_["open"][0] - round_["empty"][0])
    finally:
        Screen._compositor_refresh = refresh
        app_module.library_scenarios = listing
    return {name: statistics.median(values) * 1000 for name, values in figures.items()}


def run() -> dict:
    sys.path.append(str(ROOT))     # after PYTHONPATH: another checkout can be measured
    with tempfile.TemporaryDirectory(prefix="fluxx-judge-bench-") as cache:
        os.environ["FLUXX_JUDGE_CACHE"] = cache
        figures = asyncio.run(_measure())
    return {
        "open_dialog_cpu_ms": round(figures["open"], 1),
        "open_dialog_list_cpu_ms": round(figures["list"], 1),
        "open_dialog_filter_key_cpu_ms": round(figures["key"], 1),
        "open_dialog_empty_cpu_ms": round(figures["empty"], 1),
        "open_dialog_empty_filter_key_cpu_ms": round(figures["empty_key"], 1),
        "open_dialog_runs": RUNS,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:40} {value}")
