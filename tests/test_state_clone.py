"""`State.clone()` copies every container a rule may change, and shares only what
never changes in place (card definitions, which only grow, and immutable facts) and
the figures kept for the face-up table, which hold for any table alike."""

from __future__ import annotations

import dataclasses
import random

from tests.test_property_play import play_randomly, random_position


def test_a_clone_shares_no_container_but_the_definitions():
    engine = random_position(3, "everything", 4)
    play_randomly(engine, random.Random(3), 25)
    st = engine.state
    copy = st.clone()
    for f in dataclasses.fields(st):
        if f.name != "rng":
            assert getattr(copy, f.name) == getattr(st, f.name), f.name
    for f in dataclasses.fields(st):
        value = getattr(st, f.name)
        # `figures` is shared on purpose: the figures kept for this face-up table hold for
        # any table alike, and a change resets a table's own reference (State.figures)
        if isinstance(value, (list, dict, set)) and f.name not in ("defs", "figures"):
            assert getattr(copy, f.name) is not value, f"{f.name} is shared between a table and its copy"
    for p in st.players:
        assert copy.hands[p] is not st.hands[p] and copy.keepers[p] is not st.keepers[p]
    assert all(a is not b and a.cards is not b.cards for a, b in zip(copy.temp_hands, st.temp_hands))
    assert copy.rng is not st.rng and copy.rng.s == st.rng.s
    assert copy.defs is st.defs
