"""Self-play of this checkout against an older one, side by side in one run.

    git worktree add ../old <commit>
    python -m benchmarks.compare_selfplay --old ../old [--rounds 3] [--seconds 15] [--json]

Runs this checkout's `benchmarks/selfplay.py` (2 players, 5.0 deck) as separate
processes, alternating old and new in each round so that both see the same machine,
and prints the median of each figure for each engine and the ratio new/old. By
default each engine plays the same 60 games per round (`--games`; seeds 1 to 60), so
two engines that decide alike play the very same events, and the line under the table
says so; `--games 0 --seconds S` plays for a time instead. The old checkout is run
with its own code first on the path (`PYTHONPATH=<old>`) and the same interpreter,
so it needs no installation of its own; the benchmark uses only the engine's public
surface, which the engine before v2 (commit 9bef4f9) already had.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIGURES = ("plays_per_s", "turns_per_s", "turns_with_legal_per_s", "events_per_s")


def _run(checkout: Path, seconds: float, players: int, deck: str, games: int | None) -> dict:
    # this checkout's selfplay.py, run as a script from `checkout` with that code first
    # on the path: both engines are measured by the very same benchmark
    env = dict(os.environ, PYTHONPATH=str(checkout))
    how = ["--games", str(games)] if games else ["--seconds", str(seconds)]
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "selfplay.py"), "--players", str(players),
                          "--deck", deck, *how, "--json"], cwd=checkout, env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(old: Path, rounds: int = 3, seconds: float = 15.0, players: int = 2, deck: str = "base",
            games: int | None = 60) -> dict:
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for _ in range(rounds):
        runs["old"].append(_run(old, seconds, players, deck, games))
        runs["new"].append(_run(REPO, seconds, players, deck, games))
    out: dict = {"rounds": rounds, "seconds": seconds, "games_each": games, "players": players, "deck": deck,
                 "load": os.getloadavg()}
    for engine, results in runs.items():
        out[engine] = {f: statistics.median(r[f] for r in results) for f in FIGURES}
        out[engine]["games"] = sum(r["games"] for r in results)
        out[engine]["errors"] = sum(r["errors"] for r in results)
        out[engine]["events"] = sum(r["events"] for r in results)
    out["ratio"] = {f: round(out["new"][f] / out["old"][f], 2) for f in FIGURES}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare_selfplay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="a checkout of the older engine (a git worktree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=15.0, help="with --games 0: play for this much CPU time")
    ap.add_argument("--games", type=int, default=60,
                    help="games each engine plays per round, the same seeds for both (0: play for --seconds)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deck", choices=("base", "all"), default="base")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = compare(args.old.resolve(), args.rounds, args.seconds, args.players, args.deck, args.games or None)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{'figure':26} {'old':>10} {'new':>10} {'new/old':>8}")
    for f in FIGURES:
        print(f"{f:26} {result['old'][f]:>10,.0f} {result['new'][f]:>10,.0f} {result['ratio'][f]:>7.2f}x")
    same = " (the same games)" if result["games_each"] and result["old"]["events"] == result["new"]["events"] else ""
    print(f"games: old {result['old']['games']}, new {result['new']['games']}; events: old {result['old']['events']}, "
          f"new {result['new']['events']}{same}; errors: old {result['old']['errors']}, new {result['new']['errors']}; "
          f"load average {result['load'][0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
