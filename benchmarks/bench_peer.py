"""Self-play side by side with a peer simulator: fluxx_sim, a public Python Fluxx 5.0
simulator (github.com/sudo-pel/fluxx_sim; it needs numpy), which applies far fewer
rules (no Surprises, two players, simplified cards).

    python -m benchmarks.bench_peer --peer DIR [--peer-python PY] [--rounds 5] [--seconds 3]

The peer is never part of this project: it is a checkout of its own, in a folder
given on the command line or in FLUXX_PEER (`make bench PEER=DIR` sets it), run by
its own Python (`--peer-python` or FLUXX_PEER_PYTHON; by default DIR/.venv/bin/python,
else this one), which must import numpy. Without a usable peer the benchmark says it
was skipped and why. `benchmarks/peer_selfplay.py` drives it from outside.

Both play random games from a fresh deal, 2 players, the 5.0 (base) deck, and the
rounds interleave them so that both see the same machine. Each round:

1. ours with the legal moves listed: `benchmarks.selfplay` games for SECONDS of CPU,
   each recorded (the listing's time and the steps' time apart);
2. ours: the same games submitted again on fresh deals with nothing listed, so no
   work a listing did for the next event is counted out (`selfplay.replay_game`);
3. the peer: its games for SECONDS of CPU, its own legal-move listing (the action
   mask its agents read) timed apart from its steps.

Figures are process CPU time. A play is a card played from the hand for the turn, in
both (the peer also plays cards from other zones, as Actions ask; ours counts those as
answers to decisions). "Per play" and "per turn" divide by the steps' time;
"with the legal moves listed" divides by the steps' and the listing's time together.
The ratios are ours / the peer's, over the sums of all rounds, with the range of the
single rounds beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import selfplay

HERE = Path(__file__).resolve().parent
ENV_FOLDER, ENV_PYTHON = "FLUXX_PEER", "FLUXX_PEER_PYTHON"
KEYS = ("plays", "events", "turns", "games", "errors", "step_time", "legal_time")


def find_peer(folder: str | None, python: str | None) -> tuple[Path, str] | str:
    """The peer's folder and the Python to run it with, or why there is none."""
    folder = folder or os.environ.get(ENV_FOLDER)
    if not folder:
        return (f"no peer given: pass --peer DIR (or set {ENV_FOLDER}, or `make bench PEER=DIR`) to a checkout "
                "of github.com/sudo-pel/fluxx_sim with numpy installed for its Python")
    root = Path(folder).expanduser().resolve()
    if not (root / "src" / "game" / "Game.py").is_file():
        return f"{root} is not a fluxx_sim checkout (it has no src/game/Game.py)"
    python = python or os.environ.get(ENV_PYTHON)
    if not python:
        own = root / ".venv" / "bin" / "python"
        python = str(own) if own.exists() else sys.executable
    probe = subprocess.run([python, "-c", "import numpy"], capture_output=True, text=True)
    if probe.returncode != 0:
        return (f"the peer's Python ({python}) cannot import numpy: install it there, e.g. "
                f"`python3 -m venv {root}/.venv && {root}/.venv/bin/pip install numpy`")
    return root, python


class Peer:
    """The peer simulator in a process of its own, kept for the whole run."""

    def __init__(self, root: Path, python: str):
        self.proc = subprocess.Popen([python, str(HERE / "peer_selfplay.py")], cwd=root, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def play(self, seconds: float) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"play {seconds}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the peer stopped (exit code {self.proc.wait()}); its error is above")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def _ours(seconds: float, first_seed: int) -> tuple[dict[str, float], dict[str, float], int, list[str]]:
    """One round of ours: games played with the listing for `seconds` of CPU, then the
    same games replayed without it. Returns both totals, the next seed and errors."""
    listed, bare = dict.fromkeys(KEYS, 0.0), dict.fromkeys(KEYS, 0.0)
    errors: list[str] = []
    games: list[tuple[int, list[tuple[str, Any]]]] = []
    seed, start = first_seed, time.process_time()
    while time.process_time() - start < seconds:
        steps: list[tuple[str, Any]] = []
        try:
            selfplay.play_game(2, "base", seed, listed, record=steps)
            games.append((seed, steps))
        except Exception as exc:  # counted and reported, never hidden
            listed["errors"] += 1
            errors.append(f"game {seed}: {type(exc).__name__}: {exc}")
        seed += 1
    for game_seed, steps in games:
        try:
            selfplay.replay_game(2, "base", game_seed, steps, bare)
        except Exception as exc:
            bare["errors"] += 1
            errors.append(f"replay of game {game_seed}: {type(exc).__name__}: {exc}")
    return listed, bare, seed, errors


def _rates(t: dict[str, float]) -> dict[str, float]:
    step, both = t["step_time"] or float("nan"), (t["step_time"] + t["legal_time"]) or float("nan")
    return {"plays_per_s": t["plays"] / step, "turns_per_s": t["turns"] / step,
            "plays_with_legal_per_s": t["plays"] / both, "turns_with_legal_per_s": t["turns"] / both}


def _add(into: dict[str, float], more: dict[str, Any]) -> None:
    for k in KEYS:
        into[k] += more[k]


# the ratios reported: (name, our figure, the peer's figure)
RATIOS = (("per_play", "plays_per_s", "plays_per_s"),
          ("per_turn", "turns_per_s", "turns_per_s"),
          ("per_play_with_legal", "plays_with_legal_per_s", "plays_with_legal_per_s"),
          ("per_turn_with_legal", "turns_with_legal_per_s", "turns_with_legal_per_s"))


def compare(root: Path, python: str, rounds: int = 5, seconds: float = 3.0,
            show: bool = True) -> dict[str, Any]:
    peer = Peer(root, python)
    try:
        warm = dict.fromkeys(KEYS, 0.0)
        selfplay.play_game(2, "base", 0, warm)        # ours warmed up as the peer warms itself up
        sums = {name: dict.fromkeys(KEYS, 0.0) for name in ("listed", "bare", "peer")}
        per_round: dict[str, list[float]] = {name: [] for name, _, _ in RATIOS}
        errors: list[str] = []
        seed = 1
        for number in range(1, rounds + 1):
            listed, bare, seed, errs = _ours(seconds, seed)
            theirs = peer.play(seconds)
            errors += errs + [f"peer: {e}" for e in theirs.get("error_samples", [])]
            for name, t in (("listed", listed), ("bare", bare), ("peer", theirs)):
                _add(sums[name], t)
            ours_listed, ours_bare, peer_rates = _rates(listed), _rates(bare), _rates(theirs)
            for name, ours_key, peer_key in RATIOS:
                mine = (ours_listed if "with_legal" in ours_key else ours_bare)[ours_key]
                per_round[name].append(mine / peer_rates[peer_key])
            if show:
                print(f"round {number}/{rounds}: " + ", ".join(f"{name} {values[-1]:.2f}x"
                                                              for name, values in per_round.items()), flush=True)
    finally:
        peer.close()
    ours_listed, ours_bare, peer_rates = _rates(sums["listed"]), _rates(sums["bare"]), _rates(sums["peer"])
    out: dict[str, Any] = {"rounds": rounds, "seconds_each": seconds, "load_average": [round(x, 2) for x in os.getloadavg()]}
    for name, ours_key, peer_key in RATIOS:
        mine = (ours_listed if "with_legal" in ours_key else ours_bare)[ours_key]
        out[f"ours_{ours_key}"] = round(mine, 1)
        out[f"peer_{peer_key}"] = round(peer_rates[peer_key], 1)
        out[f"ratio_{name}"] = round(mine / peer_rates[peer_key], 2)
        out[f"ratio_{name}_rounds"] = [round(min(per_round[name]), 2), round(max(per_round[name]), 2)]
    for name in ("listed", "bare", "peer"):
        t = sums[name]
        out[f"{name}_games"], out[f"{name}_errors"] = int(t["games"]), int(t["errors"])
        out[f"{name}_plays_per_turn"] = round(t["plays"] / t["turns"], 2) if t["turns"] else None
    out["error_samples"] = errors[:5]
    return out


def run(folder: str | None = None, python: str | None = None, rounds: int = 5, seconds: float = 3.0) -> dict:
    """`make bench`'s figures (prefixed `peer_`), or why they were skipped."""
    found = find_peer(folder, python)
    if isinstance(found, str):
        print(f"skipped: {found}")
        return {"peer_skipped": found}
    result = compare(*found, rounds=rounds, seconds=seconds)
    return {f"peer_{k}" if not k.startswith("peer_") else k: v for k, v in result.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_peer", description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", metavar="DIR", help=f"the fluxx_sim checkout (default: ${ENV_FOLDER})")
    ap.add_argument("--peer-python", metavar="PY", help=f"its Python, with numpy (default: ${ENV_PYTHON}, "
                                                         "else DIR/.venv/bin/python, else this one)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of play for each engine in each round")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    found = find_peer(args.peer, args.peer_python)
    if isinstance(found, str):
        print(f"bench_peer: skipped: {found}")
        return 0
    result = compare(*found, rounds=args.rounds, seconds=args.seconds, show=not args.json)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.rounds} rounds of {args.seconds} CPU s each, load average {result['load_average']}")
    print(f"{'':34} {'ours':>10} {'peer':>10} {'ours/peer':>10} {'rounds':>12}")
    for name, ours_key, peer_key in RATIOS:
        lo, hi = result[f"ratio_{name}_rounds"]
        print(f"{ours_key:34} {result[f'ours_{ours_key}']:>10,.0f} {result[f'peer_{peer_key}']:>10,.0f} "
              f"{result[f'ratio_{name}']:>9.2f}x {lo:>5.2f}-{hi:.2f}x")
    print(f"plays per turn: ours {result['bare_plays_per_turn']}, peer {result['peer_plays_per_turn']}; "
          f"games: ours {result['listed_games']} ({result['listed_errors']} errors), "
          f"peer {result['peer_games']} ({result['peer_errors']} errors)")
    for e in result["error_samples"]:
        print(f"  error: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
