"""Random self-play from a freshly dealt table, counted honestly.

    python -m benchmarks.selfplay --players N --deck base|all --seconds S [--json]

Each game deals a new table (`deal: true`, the deck shuffled by the game's seed) and
plays random legal events to a win, or to 3,000 events. At every step the legal
events (or, with a decision pending, its options) are listed and one is picked at
random; every choice goes through the engine's own rules, nothing is skipped.

One untimed game is played first (what a process does once, such as importing a
module on first need, is not a step). Only accepted state changes count: an event that the rules refuse is never offered,
so nothing refused is timed or counted. Times are process CPU time:

- step time: the engine's time to carry out the accepted events;
- legal time: the time to list the legal events or a pending decision's options.

`plays_per_s`, `turns_per_s` and `events_per_s` divide by step time;
`turns_with_legal_per_s` by step time plus legal time. The script uses only the
engine's public surface (the scenario loader, `start_engine`, `Engine.submit`,
`legal_events`, `pending`, `answer_by_chance`), so the same file can measure an older
checkout, run as a script with the older code on the path:
`PYTHONPATH=../old python benchmarks/selfplay.py --games 40` (from ../old).
With `--games N` it plays exactly the games of seeds SEED..SEED+N-1, so two engines
that decide alike play the very same events (compare `events`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

MAX_EVENTS = 3_000


def _deck(deck: str) -> list[str]:
    from adjudicator.catalogue import default_catalogue

    cards = []
    for c in default_catalogue():
        if c.type in ("basic", "unknown") or "(stand-in)" in c.name:
            continue
        if deck == "base" and "base" not in c.editions:
            continue
        # Solo-only and table-judged cards need people at the table; every other card plays
        cards.append(c.name)
    return cards


def new_game(players: int, deck: str, seed: int):
    """An engine at a freshly dealt table: the deck shuffled by `seed`."""
    from adjudicator import strictyaml
    from adjudicator.replay import start_engine
    from adjudicator.scenario import parse_scenario

    names = _deck(deck)
    random.Random(seed).shuffle(names)
    seats = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"][:players]
    doc = {"format": 1, "id": f"selfplay-{seed}", "table": {"players": seats, "deal": True, "draw_pile": names}}
    # JSON is YAML: names are quoted, so the strict loader reads them as written
    sc = parse_scenario(strictyaml.parse(json.dumps(doc), "<selfplay>"), "<selfplay>")
    engine, _ = start_engine(sc, seed)
    return engine


def random_answer(engine, rng: random.Random) -> Any:
    d = engine.pending.decision
    opts = list(d.options)
    if d.kind in ("discard", "discard_keepers"):
        return [engine.state.name(c) for c in rng.sample(opts, d.count)]
    if d.kind == "cards":
        top = min(d.count if d.count is not None else len(opts), len(opts))
        return [engine.state.name(c) for c in rng.sample(opts, rng.randint(d.minimum, top))]
    if d.kind == "card":
        return engine.state.name(rng.choice(opts)) if opts and isinstance(opts[0], int) else rng.choice(opts)
    if d.kind in ("player", "number"):
        return rng.choice(opts)
    if d.kind in ("yes_no", "table"):
        return rng.random() < 0.5
    if d.kind == "order":
        order = rng.sample(opts, len(opts))
        kept = getattr(d, "kept", ())          # (an older engine has none of these)
        fixed = iter([o for o in kept if o in order])
        return [next(fixed) if o in kept else o for o in order]
    if d.kind == "deal":
        seats = [p for p in engine.state.players if p not in engine.state.eliminated]
        allowed = getattr(d, "recipients", ())      # (an older engine names none)
        seats = [p for p in seats if p in allowed] if allowed else seats
        start = seats.index(d.by) if d.by in seats else 0
        seats = seats[start:] + seats[:start]
        rng.shuffle(opts)
        each = d.count or 1
        return {p: [engine.state.name(c) for c in opts[i * each:(i + 1) * each]]
                for i, p in enumerate(seats) if opts[i * each:(i + 1) * each]}
    raise ValueError(f"unexpected decision kind {d.kind!r}")


def play_game(players: int, deck: str, seed: int, totals: dict[str, float],
              record: list[tuple[str, Any]] | None = None) -> None:
    """One random game, added to `totals`; with `record`, what was submitted at each
    step is appended to it (for `replay_game`)."""
    from adjudicator.events import Event

    clock = time.process_time
    engine = new_game(players, deck, seed)
    rng = random.Random(seed ^ 0xB0A7)
    first_turn = engine.state.turn_number
    events = 0
    while events < MAX_EVENTS and not engine.state.game_over:
        if engine.pending is not None:
            t0 = clock()
            chance = engine.pending.decision.chance
            answer = None if chance else random_answer(engine, rng)
            t1 = clock()
            result = engine.answer_by_chance() if chance else engine.submit(Event("choose", answer=answer))
            t2 = clock()
            if record is not None:
                record.append(("chance", None) if chance else ("answer", answer))
            if result.status == "rejected":
                raise AssertionError(f"a legal answer was refused: {result.reason}")
        else:
            t0 = clock()
            legal = engine.legal_events()
            t1 = clock()
            if not legal:
                break
            ev = rng.choice(legal)
            result = engine.submit(ev)
            t2 = clock()
            if result.status == "rejected":
                raise AssertionError(f"a legal event was refused: {result.reason}")
            if record is not None:
                record.append(("event", ev))
            if ev.verb == "play":
                totals["plays"] += 1
        totals["legal_time"] += t1 - t0
        totals["step_time"] += t2 - t1
        events += 1
    totals["events"] += events
    totals["turns"] += engine.state.turn_number - first_turn
    totals["games"] += 1


def replay_game(players: int, deck: str, seed: int, steps: list[tuple[str, Any]],
                totals: dict[str, float]) -> None:
    """A game `play_game` recorded, submitted again to a fresh deal with nothing listed:
    the engine's time for the events alone, without anything a listing worked out
    beforehand (`legal_events` keeps what it learnt for the next event)."""
    from adjudicator.events import Event

    clock = time.process_time
    engine = new_game(players, deck, seed)
    first_turn = engine.state.turn_number
    for kind, x in steps:
        t0 = clock()
        if kind == "chance":
            result = engine.answer_by_chance()
        else:
            result = engine.submit(Event("choose", answer=x) if kind == "answer" else x)
        totals["step_time"] += clock() - t0
        if result.status == "rejected":
            raise AssertionError(f"a recorded event was refused on replay: {result.reason}")
        if kind == "event" and x.verb == "play":
            totals["plays"] += 1
    totals["events"] += len(steps)
    totals["turns"] += engine.state.turn_number - first_turn
    totals["games"] += 1


def run(players: int = 2, deck: str = "base", seconds: float = 10.0, seed: int = 1,
        games: int | None = None) -> dict[str, Any]:
    totals = dict.fromkeys(("plays", "events", "turns", "games", "errors", "step_time", "legal_time"), 0.0)
    errors: list[str] = []
    # one game untimed first, as a warm-up: what happens once per process (modules
    # imported on first need, the catalogue read, what the engine works out once per
    # catalogue) is no engine's time for a step
    try:
        play_game(players, deck, seed - 1, dict.fromkeys(totals, 0.0))
    except Exception:
        pass
    start = time.process_time()
    game = 0
    while (game < games) if games is not None else (time.process_time() - start < seconds):
        try:
            play_game(players, deck, seed + game, totals)
        except Exception as exc:  # counted and reported, never hidden
            totals["errors"] += 1
            if len(errors) < 5:
                errors.append(f"game {seed + game}: {type(exc).__name__}: {exc}")
        game += 1
    step = totals["step_time"] or float("nan")
    both = (totals["step_time"] + totals["legal_time"]) or float("nan")
    return {
        "players": players, "deck": deck,
        "plays_per_s": round(totals["plays"] / step, 1),
        "turns_per_s": round(totals["turns"] / step, 1),
        "turns_with_legal_per_s": round(totals["turns"] / both, 1),
        "events_per_s": round(totals["events"] / step, 1),
        "games": int(totals["games"]), "errors": int(totals["errors"]),
        "events": int(totals["events"]), "turns": int(totals["turns"]), "plays": int(totals["plays"]),
        "step_seconds": round(totals["step_time"], 3), "legal_seconds": round(totals["legal_time"], 3),
        "error_samples": errors,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.selfplay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="N")
    ap.add_argument("--deck", choices=("base", "all"), default="base")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=None, metavar="N",
                    help="play exactly N games (seeds SEED to SEED+N-1) instead of playing for --seconds: "
                         "two engines that agree then play the very same games")
    ap.add_argument("--json", action="store_true", help="print one JSON object (the default prints it too)")
    args = ap.parse_args(argv)
    out = run(args.players, args.deck, args.seconds, args.seed, args.games)
    print(json.dumps(out, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
