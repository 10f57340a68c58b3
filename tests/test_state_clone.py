"""`State.clone()` copies every container a rule may change, and shares only what
never changes in place (card definitions, which only grow, and immutable facts) and
the figures kept for the face-up table, which hold for any table alike."""

from __future__ import annotations

import dataclasses
import random

import pytest

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
        # `copy_order` and `copy_labels` number the table's physical copies once, at set-up
        if isinstance(value, (list, dict, set)) and f.name not in ("defs", "figures", "rule_figures", "copy_order",
                                                                     "copy_labels"):
            assert getattr(copy, f.name) is not value, f"{f.name} is shared between a table and its copy"
    for p in st.players:
        assert copy.hands[p] is not st.hands[p] and copy.keepers[p] is not st.keepers[p]
    assert all(a is not b and a.cards is not b.cards for a, b in zip(copy.temp_hands, st.temp_hands))
    assert copy.rng is not st.rng and copy.rng.s == st.rng.s
    assert copy.defs is st.defs


def test_a_shared_snapshot_shares_every_field_but_the_windows():
    engine = random_position(3, "everything", 5)
    play_randomly(engine, random.Random(5), 25)
    st = engine.state
    snap = st.shared_snapshot(st.serial + 7)
    for f in dataclasses.fields(st):
        if f.name not in ("windows", "serial"):
            assert getattr(snap, f.name) is getattr(st, f.name), f.name
    assert snap.windows == [] and snap.serial == st.serial + 7


def _picture(st) -> tuple:
    """Everything a table holds, by value (the generator by its state)."""
    out = []
    for f in dataclasses.fields(st):
        if f.name in ("figures", "rule_figures", "defs", "windows"):
            continue
        value = getattr(st, f.name)
        if f.name == "rng":
            value = value.s
        elif f.name == "temp_hands":
            value = [(t.owner, t.source, list(t.cards), t.plays, t.made, t.drawn) for t in value]
        out.append((f.name, repr(value)))
    return tuple(out)


@pytest.mark.patches_engine("Core.table_before_action")
def test_a_shared_window_table_is_the_table_before_the_action_and_never_changes(monkeypatch):
    """A play or free action that changed nothing yet shares the table its step started
    from as its window's (`Core.table_before_action`): that table is what a copy would
    have held then, and stays so through every later step, 3-4 players, every edition."""
    from adjudicator.core import Core

    taken: list[tuple[object, tuple]] = []
    shared = 0
    real = Core.table_before_action

    def checked(self):
        nonlocal shared
        before = real(self)
        assert _picture(before) == _picture(self.state.snapshot())
        if self._origin is not None and before.hands is self._origin[1].hands:
            shared += 1
        taken.append((before, _picture(before)))
        return before

    monkeypatch.setattr(Core, "table_before_action", checked)
    for seed, seats in ((11, 3), (12, 4), (13, 4)):
        engine = random_position(seed, "everything", seats)
        play_randomly(engine, random.Random(seed), 120)
        for before, picture in taken:
            assert _picture(before) == picture, "a table shared by a response window changed after the step"
    assert shared > 20, "no window shared the table its step started from"
