"""Engine benchmarks: median time to replay one library scenario, the wall time of
`fluxx-judge check` over the whole library as a separate process, and the time to
list the legal moves (reveals of unseen cards included) at a table of unseen hands.
Self-play speed is `benchmarks/selfplay.py`'s (through bench_selfplay), which counts
only accepted events; the events-per-second figure this module used to give counted
refused tries too and is gone."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def scenario_replay_median_ms(rounds: int = 3) -> float:
    from fluxx_judge.cli import _scenario_files, builtin_scenarios_dir
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


UNSEEN = """
format: 1
id: bench-unseen-hands
table:
  players: [Ann, Ben, Cal, Dee]
  turn: Ann
  rules: [Play 2]
  goals: [Milk and Cookies]
  hands:
    Ann: ["? x3", The Moon]
    Ben: ["? x3"]
    Cal: ["? x3"]
    Dee: ["? x3"]
  keepers:
    Ann: [Cookies]
  draw_pile: ["? x20"]
events:
  - play: The Moon
"""


def moves_with_reveals_ms(rounds: int = 20) -> float:
    """Median time to list the legal moves, reveals included, with four unseen hands
    just after a Keeper was played (Surprises from three hands, plays from one)."""
    from adjudicator import strictyaml
    from adjudicator.moves import legal_moves
    from adjudicator.replay import replay
    from adjudicator.scenario import parse_scenario

    engine = replay(parse_scenario(strictyaml.parse(UNSEEN, "bench.yaml"), "bench.yaml")).engine
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        legal_moves(engine)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def check_wall_seconds() -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "fluxx_judge", "check"], cwd=REPO, capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr[-200:]


# a library scenario with a rule in play (a rule's card reaches more of the engine)
ONE_SCENARIO = "scenarios/base/basic-play-1-returns-when-play-rule-trashed.yaml"


def startup_seconds(rounds: int = 5) -> tuple[float, float]:
    """Median wall time of whole processes, as a user starts them: `fluxx-judge
    --help`, and `fluxx-judge check` of one scenario."""
    script = Path(sys.executable).with_name("fluxx-judge")
    exe = [str(script)] if script.exists() else [sys.executable, "-m", "fluxx_judge"]
    subprocess.run(exe + ["check", ONE_SCENARIO], cwd=REPO, capture_output=True)   # untimed: caches built
    out = []
    for args in (["--help"], ["check", ONE_SCENARIO]):
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            subprocess.run(exe + args, cwd=REPO, capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        out.append(statistics.median(times))
    return out[0], out[1]


def run() -> dict:
    wall, summary = check_wall_seconds()
    help_s, check_s = startup_seconds()
    return {
        "cli_help_median_seconds": round(help_s, 3),
        "check_one_scenario_median_seconds": round(check_s, 3),
        "scenario_replay_median_ms": round(scenario_replay_median_ms(), 3),
        "check_library_wall_seconds": round(wall, 3),
        "moves_with_reveals_median_ms": round(moves_with_reveals_ms(), 1),
        "check_library_summary": summary,
    }


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:32} {v}")
