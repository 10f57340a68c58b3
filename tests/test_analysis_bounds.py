"""The analysis is bounded: decisions with millions of answers are never listed in
full, an engine step that never ends is interrupted at the time bound, and a search
releases everything it started (50 searches in one process leave no greenlet and no
memory behind). Bounds are asserted as positions and cuts, never as seconds."""

from __future__ import annotations

import gc
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import greenlet
import pytest

from adjudicator.analysis import analyse, analyse_scenario
from adjudicator.answer_space import combinations, deals
from adjudicator.replay import start_engine
from adjudicator.scenario import load_scenario
from tests.test_property_play import random_position

DATA = Path(__file__).parent / "data" / "analysis"


@pytest.mark.parametrize("name", [
    "goal-mill-24.yaml",         # Goal Mill with 24 Goals in hand: any of 2^24 sets of Goals to discard
    "lets-simplify-24.yaml",     # Let's Simplify with 24 New Rules in play: up to 12 of them, ~10 million ways
    "keeper-limit-100.yaml",     # Keeper Limit 4 against 100 Keepers: which 96 go, millions of ways
])
def test_huge_decisions_stay_bounded_in_memory_and_positions(name):
    sc = load_scenario(str(DATA / name))
    gc.collect()
    tracemalloc.start()
    try:
        r = analyse_scenario(sc, positions=150)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40e6, f"{peak / 1e6:.0f} MB"
    assert r.positions <= 150 and not r.can_win
    assert r.exhausted or (r.cut == "positions" and r.exhaustive_depth >= 1)


def test_the_answers_of_a_decision_come_one_at_a_time():
    goals = [f"Goal {i}" for i in range(24)]
    first = next(combinations(goals, 12))                # no list of 2.7 million answers first
    assert first == tuple(sorted(goals)[:12])
    keepers = [f"Keeper {i % 10}" for i in range(100)]
    assert sum(1 for _ in combinations(keepers, 96)) == 715   # copies of a title alike: ways to keep 4
    assert next(deals(["Milk", "Milk", "Bread"], ["Ann", "Ben", "Cal"], 1)) == \
        {"Ann": ["Bread"], "Ben": ["Milk"], "Cal": ["Milk"]}


def test_an_engine_step_that_never_ends_is_interrupted_at_the_time_bound(monkeypatch):
    # The engine ends its own endless effects (adjudicator/loops.py: Mystery Play turning
    # up Scurvy that Limes keep curing); an engine step that still never ended, a fault of
    # ours, must not hold the search past its bound: Mystery Play made to spin for ever
    from adjudicator.mechanics.free_actions import MysteryPlay

    def spins(self, e, card, player):
        while True:
            pass

    monkeypatch.setattr(MysteryPlay, "use", spins)
    sc = load_scenario(str(DATA / "mystery-play-scurvy-loop.yaml"))
    out: list = []
    worker = threading.Thread(target=lambda: out.append(analyse_scenario(sc, seconds=0.05)), daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive(), "the analysis did not stop"
    r, = out
    assert r.cut == "time" and not r.exhausted and not r.can_win


def _greenlets() -> int:
    gc.collect()
    greenlet.getcurrent()
    return sum(1 for o in gc.get_objects() if isinstance(o, greenlet.greenlet))


def _blocks() -> int:
    gc.collect()
    return sys.getallocatedblocks()


def test_fifty_searches_leave_no_greenlet_and_no_memory_behind():
    files = ["dispute-star-captain.yaml", "dispute-play-all-steal.yaml", "dispute-pirate-plunder.yaml",
             "deal.yaml", "chance.yaml"]
    scenarios = [load_scenario(str(DATA / f)) for f in files]

    def ten_searches() -> None:
        engines = [start_engine(sc)[0] for sc in scenarios] + [random_position(seed) for seed in range(5)]
        for engine in engines:
            analyse(engine, positions=40)

    ten_searches()                # (the engine's caches and the runner pool filled once)
    greenlets, blocks = _greenlets(), _blocks()
    for _ in range(4):
        ten_searches()
    assert _greenlets() <= greenlets + 1
    grown = _blocks() - blocks
    assert grown < 2_000, f"{grown} more memory blocks after 40 more searches"


def test_an_interruption_lost_in_a_finalizer_is_raised_again(monkeypatch):
    """The guard's interruption can land in code that cannot raise (here an object's
    finalizer; in a test run, hypothesis's garbage collector callback once took it): the
    interpreter reports it there and the step goes on, so the guard raises it again."""
    from adjudicator.search_budget import Budget, StepGuard, StepOverrun

    lost: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: lost.append(type(u.exc_value).__name__))

    def spin(cpu_seconds: float) -> None:
        end = time.thread_time() + cpu_seconds
        while time.thread_time() < end:
            pass

    class SlowToGo:
        def __del__(self):
            spin(0.6)        # the guard fires while the step is in here

    budget = Budget(0.05, 10)
    with StepGuard(budget, 0.05) as guard:
        guard.arm()
        with pytest.raises(StepOverrun):
            try:
                SlowToGo()   # made and dropped at once: its finalizer runs now
                spin(10)     # the rest of the step: never reached its end before
            finally:
                guard.disarm()
    assert lost == ["StepOverrun"] and budget.cut == "time"
