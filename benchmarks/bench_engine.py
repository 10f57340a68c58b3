"""Engine benchmarks: events per second in random self-play on the 5.0 deck (no
invariant checks), median time to replay one library scenario, and the wall time of
`fluxx-judge check` over the whole library as a separate process."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def self_play_events_per_second(games: int = 200, steps: int = 60) -> float:
    sys.path.insert(0, str(REPO))
    from adjudicator.events import Event
    from tests.test_property_play import answer_for, random_position

    events = 0
    elapsed = 0.0
    for seed in range(games):
        engine = random_position(seed)
        rng = random.Random(seed)
        start = time.perf_counter()
        for _ in range(steps):
            if engine.pending is not None:
                if engine.pending.decision.chance:
                    engine.answer_by_chance()
                else:
                    engine.submit(Event("choose", answer=answer_for(engine, rng)))
            else:
                if engine.state.game_over:
                    break
                candidates = engine.candidate_events()
                rng.shuffle(candidates)
                for ev in candidates:           # try in random order; a refusal costs a run too
                    events += 1
                    if engine.submit(ev).status != "rejected":
                        break
                continue
            events += 1
        elapsed += time.perf_counter() - start
    return events / elapsed


def scenario_replay_median_ms(rounds: int = 3) -> float:
    from adjudicator.cli import _scenario_files, builtin_scenarios_dir
    from adjudicator.replay import replay
    from adjudicator.scenario import load_scenario

    scenarios = [load_scenario(p) for p in _scenario_files([builtin_scenarios_dir()])[0]]
    times = []
    for _ in range(rounds):
        for sc in scenarios:
            start = time.perf_counter()
            replay(sc)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def check_wall_seconds() -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "adjudicator", "check"], cwd=REPO, capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr[-200:]


def run() -> dict:
    wall, summary = check_wall_seconds()
    return {
        "engine_events_per_second": round(self_play_events_per_second()),
        "scenario_replay_median_ms": round(scenario_replay_median_ms(), 3),
        "check_library_wall_seconds": round(wall, 3),
        "check_library_summary": summary,
    }


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:32} {v}")
