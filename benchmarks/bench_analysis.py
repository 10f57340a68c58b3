"""Analysis benchmark: positions searched per second by `adjudicator.analysis` from
random self-play positions (the property tests' generator), each under the command's
default bounds (2 s, 20,000 positions), and how many of those searches were exhausted."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(positions: int = 40) -> dict[str, object]:
    sys.path.insert(0, str(REPO))
    from adjudicator.analysis import analyse
    from tests.test_property_play import random_position

    steps = 0
    elapsed = 0.0
    times, exhausted = [], 0
    for seed in range(positions):
        engine = random_position(seed)
        if engine.state.game_over:
            continue
        start = time.perf_counter()
        report = analyse(engine)
        took = time.perf_counter() - start
        elapsed += took
        times.append(took)
        steps += report.positions
        exhausted += report.exhausted
    return {"analysis_positions_per_second": round(steps / elapsed) if elapsed else 0,
            "analysis_median_seconds": round(statistics.median(times), 3) if times else None,
            "analysis_exhausted_share": round(exhausted / len(times), 2) if times else None}


if __name__ == "__main__":
    print(run())
