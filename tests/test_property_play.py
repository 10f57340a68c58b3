"""Property test: random legal play from random positions never creates or loses a
card, never puts one card in two zones, and every derived quantity equals a fresh
derivation from the same table."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.catalogue import default_catalogue
from adjudicator.engine import Engine
from adjudicator.events import Event
from adjudicator.interactions import graph_for
from adjudicator.state import Rng, State


def random_position(seed: int) -> Engine:
    rng = random.Random(seed)
    cat = default_catalogue()
    editions = ["base"] + (["creeper-pack"] if rng.random() < 0.5 else []) + (["faq"] if rng.random() < 0.6 else [])
    deck = [c for c in cat if any(e in c.editions for e in editions) and c.type != "basic"
            and (c.type == "surprise" or "faq" not in c.editions or "base" in c.editions)]
    rng.shuffle(deck)
    defs = list(deck) + [cat.resolve("Basic Rules")]
    ids = list(range(len(deck)))
    players = ["Ann", "Ben", "Cal", "Dee"][: rng.randint(2, 4)]
    state = State(defs=defs, players=players, hands={p: [] for p in players}, keepers={p: [] for p in players})
    state.basic = len(deck)
    graph = graph_for(cat)
    taken_slots: set[str] = set()
    for c in ids:
        d = defs[c]
        r = rng.random()
        if d.type == "rule" and r < 0.3:
            slots = graph.slots_of(d.key)
            if not slots & taken_slots:
                taken_slots |= slots
                state.rules.append(c)
                continue
        if d.type == "goal" and not state.goals and r < 0.3:
            state.goals.append(c)
            continue
        if d.type in ("keeper", "creeper") and r < 0.25:
            state.keepers[rng.choice(players)].append(c)
            continue
        if d.type != "creeper" and r < 0.35:
            state.hands[rng.choice(players)].append(c)
            continue
        if r < 0.45:
            state.discard.append(c)
            continue
        state.draw_pile.append(c)
    state.rng = Rng(seed)
    engine = Engine(cat, state)
    if len(engine.goal_claims()[0]) == 1:   # unreachable: that player would already have won
        state.discard.extend(state.goals)
        state.goals.clear()
        state.goals_seen = frozenset()
    state.drawn = engine.draw_total(state.active_player)
    return engine


def answer_for(engine: Engine, rng: random.Random):
    d = engine.pending.decision
    opts = list(d.options)
    if d.chance:
        return None
    if d.kind in ("discard", "discard_keepers"):
        return rng.sample(opts, d.count)
    if d.kind == "cards":
        return rng.sample(opts, rng.randint(d.minimum, min(d.count or len(opts), len(opts))))
    if d.kind in ("card", "player", "number"):
        return rng.choice(opts)
    if d.kind in ("yes_no", "table"):
        return rng.random() < 0.5
    if d.kind == "deal":
        players = engine.seat_order(start=d.by)
        rng.shuffle(opts)
        each = d.count or 1
        return {p: opts[i * each:(i + 1) * each] for i, p in enumerate(players) if opts[i * each:(i + 1) * each]}
    raise AssertionError(f"unexpected decision {d.kind}")


def quantities(engine: Engine) -> tuple:
    st_ = engine.state
    return (engine.draw_total(st_.active_player), engine.draws_owed(), engine.play_quota(st_.active_player),
            engine.plays_left(), engine.hand_limit(), engine.keeper_limit(), engine.agenda_size(), engine.inflation())


def check_invariants(engine: Engine, total: int) -> None:
    cards = engine.state.every_card()
    assert len(cards) == total, "a card was created or lost"
    assert len(set(cards)) == total, "a card stands in two zones"
    fresh = Engine(engine.cat, engine.state.clone())
    assert quantities(engine) == quantities(fresh)
    if engine.pending is None:
        assert len(engine.state.goals) <= engine.agenda_size()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), steps=st.integers(5, 60))
def test_random_legal_play_keeps_every_card(seed, steps):
    engine = random_position(seed)
    rng = random.Random(seed ^ 0x5EED)
    total = len(engine.state.every_card())
    check_invariants(engine, total)
    for _ in range(steps):
        if engine.state.game_over:
            break
        if engine.pending is not None:
            # a Surprise may answer a play while its effect waits for a decision
            st_ = engine.state
            surprises = [Event("surprise", st_.defs[c].key, by=p) for p in st_.players for c in st_.hands[p]
                         if st_.defs[c].type == "surprise"]
            if surprises and engine.pending.event.verb in ("play", "use") and rng.random() < 0.3:
                waiting = engine.pending
                result = engine.submit(rng.choice(surprises))
                if result.status == "rejected":
                    assert engine.pending is waiting, "a refused Surprise leaves the play waiting"
                check_invariants(engine, total)
                continue
            if engine.pending.decision.chance:
                engine.answer_by_chance()
            else:
                result = engine.submit(Event("choose", answer=answer_for(engine, rng)))
                assert result.status != "rejected"
        else:
            legal = engine.legal_events()
            assert legal, "a live game always offers something to do"
            result = engine.submit(rng.choice(legal))
            assert result.status != "rejected"
        check_invariants(engine, total)


def test_rejected_event_changes_nothing():
    engine = random_position(7)
    before = engine.state.compact()
    result = engine.submit(Event("play", "Milk", by=engine.state.players[1]))
    assert result.status == "rejected"
    assert engine.state.compact() == before
