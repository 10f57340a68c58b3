"""Response windows at the engine's API: a Surprise before a play's effect, refusals
that leave the play waiting, and when a turn counts as over (format 1.1, item 7)."""

from __future__ import annotations

from adjudicator.events import Event
from adjudicator.replay import start_engine
from adjudicator.scenario import load_scenario
from tests.conftest import write_scenario

HAND_LIMIT = """
format: 1
id: t-hand-limit
title: a Hand Limit waiting for discards
table:
  players: [Ann, Ben, Cal, Dan]
  turn: Ann
  rules: [Play 2]
  hands:
    Ann: [Hand Limit 1, Milk]
    Ben: [Sleep, Time, Stop That!]
    Cal: [Love, Peace]
    Dan: [Veto!, Bread]
  draw_pile: ["? x10"]
events:
  - play: Hand Limit 1
"""


def _waiting(tmp_path):
    sc = load_scenario(str(write_scenario(tmp_path, HAND_LIMIT)))
    engine, _ = start_engine(sc, 0)
    result = engine.submit(sc.events[0].event)
    assert result.status == "waiting" and engine.pending.decision.by == "Ben"
    return engine


def test_only_surprises_are_offered_while_a_play_waits(tmp_path):
    engine = _waiting(tmp_path)
    legal = engine.legal_events()
    assert [(e.verb, e.by) for e in legal] == [("surprise", "Dan")]     # Ben's Stop That! cannot stop a rule
    assert engine.pending is not None and engine.pending.decision.by == "Ben"


def test_a_refused_surprise_leaves_the_play_waiting_and_the_table_as_it_was(tmp_path):
    engine = _waiting(tmp_path)
    waiting, table = engine.pending, engine.state.compact()
    result = engine.submit(Event("surprise", "Stop That!", by="Ben"))
    assert result.status == "rejected" and result.ruling == "no-burning-surprises"
    assert engine.pending is waiting and engine.state.compact() == table
    assert engine.submit(Event("choose", answer=["Sleep", "Time"])).status == "waiting"   # Cal is asked next


def test_a_surprise_before_the_discards_means_nobody_discards(tmp_path):
    engine = _waiting(tmp_path)
    result = engine.submit(Event("surprise", "Veto!", by="Dan"))
    assert result.status == "done" and engine.pending is None
    st = engine.state
    assert not st.rules[1:] and [st.defs[c].name for c in st.hands["Ben"]] == ["Sleep", "Time", "Stop That!"]
    assert not result.turn_over          # Ann still has a play of Play 2


def test_turn_over_while_limit_discards_close_the_turn(tmp_path):
    engine = _waiting(tmp_path)
    engine.submit(Event("choose", answer=["Sleep", "Time"]))
    engine.submit(Event("choose", answer=["Love"]))
    engine.submit(Event("choose", answer=["Bread"]))
    assert engine.pending is None
    assert not engine.core.turn_over_since(engine.state.turn_number)     # Milk can still be played
    engine.state.phase = "ending"
    assert engine.core.turn_over_since(engine.state.turn_number)         # ending, discards may be pending
