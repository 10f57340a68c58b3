"""What each decision of one event costs: the same eight-player table where a Hand
Limit 1 comes into play with one other player over it (one decision) or seven (seven
decisions, each a discard). An answer resumes the event where it paused, so the seven
cost a little more than the one, never seven times the event.

    python -m benchmarks.bench_decisions

Both tables hold the same cards (a player not over the limit has their second card in
the draw pile), so the difference is the decisions. The two take turns round by round.
Reports the median time to replay
each scenario (the engine's work: set-up and events; the file already parsed; the
target, seven to one below 2) and the whole of `fluxx-judge check FILE`'s work in
process (parse included, which both files cost the same).
"""

from __future__ import annotations

import statistics
import time

PLAYERS = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal"]
CARDS = ["Milk", "Cookies", "Bread", "Chocolate", "Money", "Love", "Sleep", "Dreams", "Peace", "Time", "The Sun",
         "The Moon", "The Rocket", "The Toaster", "Television", "The Brain", "The Party", "Music", "The Eye"]


def scenario(over: int) -> str:
    """Ann plays Hand Limit 1; `over` of the seven others hold two cards, the rest one
    (their second card waits in the draw pile, so both tables hold the same cards)."""
    pool = iter(CARDS)
    hands = {p: [next(pool), next(pool)] for p in PLAYERS[1:]}
    pile = [cards.pop() for i, cards in enumerate(hands.values()) if i >= over]
    lines = ["format: 1", f"id: bench-decisions-{over}", "table:", f"  players: [{', '.join(PLAYERS)}]",
             "  turn: Ann", "  hands:", "    Ann: [Hand Limit 1]"]
    lines += [f"    {p}: [{', '.join(cards)}]" for p, cards in hands.items()]
    lines += [f"  draw_pile: [{', '.join(pile)}]"] if pile else []
    lines += ["events:", "  - play: Hand Limit 1"]
    lines += [f"  - choose: [{cards[0]}]" for p, cards in hands.items() if len(cards) == 2]
    return "\n".join(lines) + "\n"


def _medians_ms(fns: dict, rounds: int) -> dict:
    """The median time of each function, the functions taking turns round by round, so
    that whatever the machine does meanwhile falls on all of them alike."""
    times: dict = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            start = time.process_time()
            fn()
            times[k].append((time.process_time() - start) * 1000)
    return {k: statistics.median(v) for k, v in times.items()}


def run(rounds: int = 400) -> dict:
    from adjudicator import strictyaml
    from adjudicator.replay import replay
    from adjudicator.scenario import parse_scenario

    fns: dict = {}
    for over in (1, 7):
        text = scenario(over)
        sc = parse_scenario(strictyaml.parse(text, "bench.yaml"), "bench.yaml")
        verdict = replay(sc)
        assert verdict.passed is not False and len(verdict.steps) == over + 2 and all(s.status != "rejected" for s in verdict.steps), verdict.steps
        fns[f"decisions_{over}_replay_ms"] = lambda sc=sc: replay(sc)
        fns[f"decisions_{over}_check_ms"] = lambda text=text: replay(parse_scenario(strictyaml.parse(text, "bench.yaml"),
                                                                                    "bench.yaml"))
    out = {k: round(v, 3) for k, v in _medians_ms(fns, rounds).items()}
    out["decisions_7_over_1_replay"] = round(out["decisions_7_replay_ms"] / out["decisions_1_replay_ms"], 2)
    out["decisions_7_over_1_check"] = round(out["decisions_7_check_ms"] / out["decisions_1_check_ms"], 2)
    return out


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:30} {v}")
