"""Analysis benchmark (`adjudicator.analysis`): dispute-like positions
(`benchmarks/dispute_positions.py`: 3 to 5 players, 5 to 9 cards in hand, rules in play,
free actions) searched under the command's default bounds (2 s of CPU, 20,000
positions), and a second pass at 1 s of CPU:

- positions searched per CPU second;
- the share of positions answered exhaustively within 4 events in under 1 s of CPU: a
  win found (a shortest one), the whole turn answered, or every line of up to 4
  events searched;
- the peak memory of the benchmark's process (every search in it, the largest
  counts), and what one search holds at its peak (tracemalloc, the largest);
- memory and greenlets after 50 searches in one process, against after 5 (flat: a
  search releases what it started);
- the random self-play positions of the property tests (the old figure), for the
  share answered for the whole turn.
"""

from __future__ import annotations

import gc
import resource
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DISPUTES = 40


def _engines(count: int) -> list:
    from adjudicator.replay import start_engine
    from adjudicator.scenario import load_scenario
    from benchmarks.dispute_positions import positions
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, text in positions(count):
            path = Path(tmp) / f"d{seed}.yaml"
            path.write_text(text, encoding="utf-8")
            out.append((seed, load_scenario(str(path))))
    return [(seed, sc, start_engine) for seed, sc in out]


def _greenlets() -> int:
    import greenlet

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, greenlet.greenlet))


def run() -> dict[str, object]:
    if str(REPO) not in sys.path:
        sys.path.append(str(REPO))     # (last: a compiled engine first on the path stays first)
    from adjudicator.analysis import analyse

    disputes = _engines(DISPUTES)
    # the default bounds: speed and the process's peak memory
    steps = 0
    cpu = 0.0
    for seed, sc, start in disputes:
        engine, _ = start(sc)
        report = analyse(engine)
        steps += report.positions
        cpu += report.seconds
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # 1 s of CPU: answered within 4 events?
    answered = 0
    for seed, sc, start in disputes:
        engine, _ = start(sc)
        report = analyse(engine, seconds=1.0, positions=10**9)
        ok = report.can_win or report.exhausted or report.exhaustive_depth >= 4
        answered += ok
        found = f"win in {len(report.line)}" if report.can_win else f"no win within {report.exhaustive_depth}"
        print(f"dispute {seed}: {'answered' if ok else 'NOT answered'} within 4 events in 1 s: {found}"
              f"{' (whole turn)' if report.exhausted else ''}, {report.positions} positions, {report.seconds:.2f} s",
              flush=True)
    # what one search holds at its peak (traced: slower, so at the default bounds it goes less far)
    tracemalloc.start()
    worst = 0.0
    for seed, sc, start in disputes[:10]:
        engine, _ = start(sc)
        gc.collect()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        analyse(engine)
        worst = max(worst, (tracemalloc.get_traced_memory()[1] - base) / 1e6)
    tracemalloc.stop()
    # 50 searches in one process: flat?
    tracemalloc.start()
    figures = {}
    for i in range(1, 51):
        seed, sc, start = disputes[i % len(disputes)]
        engine, _ = start(sc)
        analyse(engine, seconds=0.2)
        del engine
        if i in (5, 50):
            gc.collect()
            figures[i] = (tracemalloc.get_traced_memory()[0] / 1e6, _greenlets())
    tracemalloc.stop()
    # the property tests' random self-play positions (the old figure)
    from tests.test_property_play import random_position

    whole = total = 0
    for seed in range(40):
        engine = random_position(seed)
        if engine.state.game_over:
            continue
        report = analyse(engine)
        total += 1
        whole += report.exhausted
    return {"analysis_positions_per_second": round(steps / cpu) if cpu else 0,
            "analysis_disputes_answered_4_events_1s_share": round(answered / len(disputes), 2),
            "analysis_peak_rss_mb": round(peak_rss, 1),
            "analysis_one_search_peak_traced_mb": round(worst, 1),
            "analysis_memory_growth_5_to_50_searches_mb": round(figures[50][0] - figures[5][0], 2),
            "analysis_greenlets_after_5_and_50_searches": [figures[5][1], figures[50][1]],
            "analysis_selfplay_whole_turn_share": round(whole / total, 2) if total else None}


if __name__ == "__main__":
    print(run())
