"""Self-play counted in machine instructions, this engine against an older checkout.

    python -m benchmarks.instructions --old ../old [--games 6]

Timings on a shared 2-core machine move with the load by tens of percent; the number
of instructions a process executes hardly moves at all. This runs the same games on
both engines under valgrind's callgrind (Debian: `apt-get install valgrind`) and
reports, for each engine:

- `steps`: the instructions to carry out the accepted events of the games (each
  game's events are recorded first, then submitted again to a fresh table without
  listing anything: the work `plays_per_s` and `turns_per_s` time);
- `selfplay`: the instructions to play the games with the legal events listed at
  every step (the work `turns_with_legal_per_s` times);
- `dealing`: the instructions to deal the games' tables (reading the scenario, setting
  up the engine), which neither of the two above counts;

each as the difference between two processes that do the same set-up, so that start-up
and dealing cancel out. (Every mode deals the tables the recorded games are submitted
to again, `record` as well as `replay`; `deal` deals them too, and the tables the games
are recorded on, which `record` deals as it plays: until 2026-11-26 it did not, and
`selfplay` counted the dealing of six tables besides the play.) The benchmark file itself is run as a script from each
checkout with that checkout's code first on the path, so both engines are measured by
the very same code; it uses only the engine's public surface, which the engine before
v2 (commit 9bef4f9) already had. A checkout is run once untimed first, so that caches
in the user's cache directory are built before counting.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent


def _worker(mode: str, games: int) -> None:
    """Inside one measured process: deal, play (recording), or play and replay."""
    sys.path.insert(0, str(HERE.parent))
    import selfplay  # this file's sibling, with the checkout's engine on the path

    from adjudicator.events import Event

    def record(seed: int) -> list[tuple[str, object]]:
        engine = selfplay.new_game(2, "base", seed)
        rng = random.Random(seed ^ 0xB0A7)
        seq: list[tuple[str, object]] = []
        while len(seq) < selfplay.MAX_EVENTS and not engine.state.game_over:
            if engine.pending is not None:
                if engine.pending.decision.chance:
                    seq.append(("chance", None))
                    engine.answer_by_chance()
                else:
                    answer = selfplay.random_answer(engine, rng)
                    seq.append(("answer", answer))
                    engine.submit(Event("choose", answer=answer))
            else:
                legal = engine.legal_events()
                if not legal:
                    break
                ev = rng.choice(legal)
                seq.append(("event", ev))
                engine.submit(ev)
        return seq

    record(0)                                   # one-time imports, as in every mode
    seeds = range(1, games + 1)
    if mode in ("bare", "deal"):
        if mode == "deal":                      # the tables `record` plays on, dealt alike
            for seed in seeds:
                selfplay.new_game(2, "base", seed)
        for seed in seeds:                      # the tables every other mode deals to replay on
            selfplay.new_game(2, "base", seed)
        return
    seqs = [record(seed) for seed in seeds]
    tables = [selfplay.new_game(2, "base", seed) for seed in seeds]
    if mode == "replay":
        for engine, seq in zip(tables, seqs):
            for kind, x in seq:
                if kind == "chance":
                    engine.answer_by_chance()
                elif kind == "answer":
                    engine.submit(Event("choose", answer=x))
                else:
                    engine.submit(x)
    print(json.dumps({"events": sum(len(s) for s in seqs)}))


def _count(checkout: Path, mode: str, games: int) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")   # (string hashes move dict costs)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          str(HERE), "--worker", mode, "--games", str(games)],
                         cwd=checkout, env=env, capture_output=True, text=True, check=True)
    collected = [line for line in out.stderr.splitlines() if "Collected :" in line]
    if not collected:
        raise RuntimeError(f"callgrind reported no count for {checkout} ({mode}):\n{out.stderr[-2000:]}")
    return int(collected[-1].split(":")[-1].strip()), out.stdout.strip()


def measure(checkout: Path, games: int) -> dict[str, int]:
    _count(checkout, "deal", 1)                 # untimed: builds the user caches for this checkout
    bare, _ = _count(checkout, "bare", games)
    deal, _ = _count(checkout, "deal", games)
    play, printed = _count(checkout, "record", games)
    replay, _ = _count(checkout, "replay", games)
    return {"steps": replay - play, "selfplay": play - deal, "dealing": deal - bare,
            "events": json.loads(printed.splitlines()[-1])["events"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, help="a checkout of the older engine (a git worktree)")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--worker", choices=("bare", "deal", "record", "replay"), help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.worker:
        _worker(args.worker, args.games)
        return 0
    if args.old is None:
        ap.error("--old is required")
    if shutil.which("valgrind") is None:
        print("instructions: not measured, valgrind is not installed (Debian: apt-get install valgrind)")
        return 0
    old, new = measure(args.old.resolve(), args.games), measure(REPO, args.games)
    result = {"games": args.games, "old": old, "new": new,
              "ratio": {k: round(old[k] / new[k], 2) for k in ("steps", "selfplay", "dealing")}}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.games} games, 2 players, 5.0 deck; events: old {old['events']}, new {new['events']}"
          + (" (the same games)" if old["events"] == new["events"] else ""))
    print(f"{'instructions':34} {'old':>15} {'new':>15} {'old/new':>8}")
    for key, label in (("steps", "accepted events only"), ("selfplay", "with the legal events listed"),
                       ("dealing", f"dealing the {args.games} tables")):
        print(f"{label:34} {old[key]:>15,} {new[key]:>15,} {result['ratio'][key]:>7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
