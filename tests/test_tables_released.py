"""Everything a game makes is released once the game is dropped: no table, decision or
log line is kept alive by a stray reference.

A leak here is invisible to the results and slows every step after it (the garbage
collector walks whatever is kept), so it is checked on both builds: the pure Python
reference, and the compiled engine (`make test-compiled`), where mypyc 1.13 was found
keeping one reference too many to each table set through a property and to the
attributes of each exception a compiled class of Exception raised."""

from __future__ import annotations

import gc

from adjudicator.decisions import Decision
from adjudicator.log import Entry
from adjudicator.state import State
from benchmarks import selfplay

KINDS = (State, Decision, Entry)


def _alive() -> list[object]:
    gc.collect()
    return [o for o in gc.get_objects() if type(o) in KINDS]


def test_games_played_to_the_end_leave_no_table_decision_or_line_alive():
    totals = dict.fromkeys(("plays", "events", "turns", "games", "errors", "step_time", "legal_time"), 0.0)
    selfplay.play_game(2, "base", 11, dict(totals))        # what a first game sets up for good
    # what is alive now is held until the end (so no id is used again), and only what
    # the games below make is counted: what earlier tests in this process left (runs
    # paused, then retired as these games pause theirs) may be freed meanwhile
    before = _alive()
    held = {id(o) for o in before}
    for seed in (12, 13, 14):        # (hand limits, discards and free actions among their events)
        selfplay.play_game(2, "base", seed, totals)
    assert totals["events"] > 150
    left = [type(o).__name__ for o in _alive() if id(o) not in held]
    assert left == []
