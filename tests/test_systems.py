"""The parts of the rules that only some decks have (`adjudicator.systems`): the core
asks a system only when the game's cards use it, and a game that may turn up any card
(unseen cards, '?') has them all."""

from __future__ import annotations

import random

import pytest

from adjudicator import systems
from adjudicator.catalogue import default_catalogue
from adjudicator.engine import Engine
from adjudicator.state import State
from tests.test_property_play import play_randomly, random_position


def _table(*names: str, eliminated: tuple[str, ...] = ()) -> State:
    cat = default_catalogue()
    defs = [cat.resolve(n) for n in names] + [cat.resolve("Basic Rules")]
    players = ["Ann", "Ben", "Cal"]
    st = State(defs=defs, players=players, hands={p: [] for p in players}, keepers={p: [] for p in players})
    st.basic = len(defs) - 1
    st.draw_pile = list(range(len(names)))
    st.eliminated = list(eliminated)
    return st


def _names(st: State) -> list[str]:
    return [s.name for s in Engine(default_catalogue(), st).core.systems()]


def test_a_table_without_such_cards_has_no_system():
    assert _names(_table("Milk", "Cookies", "Milk and Cookies", "Draw 2", "Hand Limit 2")) == []


@pytest.mark.parametrize(("card", "system"), [
    ("Malfunction", "attachments"), ("Radioactive Potato", "goal_watch"),
])
def test_a_card_that_uses_a_system_brings_it(card, system):
    st = _table("Milk", card)
    assert _names(st) == [system]


def test_dangers_and_secrets_bring_theirs():
    cat = default_catalogue()
    danger = next(d.name for d in cat if d.type == "danger")
    secret = next(d.name for d in cat if d.type == "secret")
    assert _names(_table("Milk", danger, secret)) == ["secrets", "knock_outs"]


def test_unseen_cards_may_be_anything_so_every_system_is_present():
    assert _names(_table("Milk", "?")) == [s.name for s in systems.SYSTEMS]


def test_players_already_out_bring_the_knock_outs():
    assert _names(_table("Milk", eliminated=("Cal",))) == ["knock_outs"]


def test_the_core_asks_only_the_systems_present(monkeypatch):
    asked: list[str] = []
    for s in systems.SYSTEMS:
        monkeypatch.setattr(s, "settle", lambda core, _n=s.name: asked.append(_n))
    engine = Engine(default_catalogue(), _table("Milk", "Cookies", "Radioactive Potato"))
    engine.core.checkpoint()
    assert asked == ["goal_watch"]


@pytest.mark.parametrize("seed", range(6))
def test_an_attached_creeper_is_with_its_keeper_after_every_event(seed):
    """The Attachments system at work in random play over every card (3-4 players)."""
    engine = random_position(seed, "everything", 3 + seed % 2)
    play_randomly(engine, random.Random(seed), 40)
    st = engine.state
    if engine.pending is None:
        for creeper, keeper in st.attachments.items():
            assert st.owner_of_keeper(creeper) == st.owner_of_keeper(keeper) is not None
