"""Cards under a card, face-down and face-out cards, and players out of reach
(`adjudicator/hidden.py`, issue 26): the table keys that write them, refused at their
file, line and column when they cannot be; the safety net that keeps every move off a
player out of reach; and random play in which Actions never even try to reach such a
player, and no card lying under another is lost or doubled."""

from __future__ import annotations

import random

import pytest

from adjudicator import hidden, strictyaml
from adjudicator.engine import Engine
from adjudicator.errors import InputError
from adjudicator.movement import hand, table, under
from adjudicator.position import Code, Position
from tests import test_property_play as prop


def _position(text: str) -> Position:
    root = strictyaml.parse("table:\n" + text, "t.yaml")
    return Position.read(root.value["table"])


def _engine(text: str) -> Engine:
    pos = _position(text)
    assert pos.problems() == [], [str(p) for p in pos.problems()]
    return Engine(pos.catalogue, pos.state())


BOOTY = """  editions: [pirate, base]
  players: [Ann, Ben, Cal, Dee]
  keepers:
    Ben: [Treasure Map, Rum]
  under:
    Treasure Map: [Rubies, Pearls]
  hands:
    Ann: [Trash a Keeper]
  draw_pile: ["? x6"]
"""


def test_a_pile_lies_under_its_card_out_of_play_and_counts_as_that_card():
    engine = _engine(BOOTY)
    st = engine.state
    ben = st.keepers["Ben"]
    assert [st.name(c) for c in st.under[ben[0]]] == ["Rubies", "Pearls"]
    assert engine.core.keeper_count("Ben") == 2
    assert "Rubies" not in engine.core.holdings()["Ben"]
    assert sorted(st.name(c) for c in st.every_card() if st.defs[c].type == "keeper") == \
        ["Pearls", "Rubies", "Rum", "Treasure Map"]
    copy = st.clone()
    copy.move(copy.under[ben[0]][0], copy.pile(ben[0]), copy.discard)
    assert len(st.under[ben[0]]) == 2, "a copy of the table has piles of its own"


def test_a_pile_goes_with_its_card_out_of_play_and_lands_beneath_it():
    engine = _engine(BOOTY)
    st = engine.state
    core = engine.core
    core.discard(st.keepers["Ben"][0], "Ann")
    assert [st.name(c) for c in st.discard[:3]] == ["Treasure Map", "Rubies", "Pearls"]
    assert st.under == {}, "a pile that gave up its last card is gone"


def test_a_pile_goes_into_the_hand_its_card_goes_into():
    engine = _engine(BOOTY)
    st = engine.state
    engine.core.take_into_hand(st.keepers["Ben"][0], "Ann", by="Ann")
    assert sorted(st.name(c) for c in st.hands["Ann"]) == ["Pearls", "Rubies", "Trash a Keeper", "Treasure Map"]


def test_the_net_keeps_a_move_off_a_player_out_of_reach():
    engine = _engine("""  players: [Ann, Ben, Cal]
  turn: Ben
  keepers:
    Ann: [Milk]
  discard: [I'll Be In My Bunk]
  out_of_reach: {Ann: I'll Be In My Bunk}
  draw_pile: ["? x6"]
""")
    st, core = engine.state, engine.core
    milk = st.keepers["Ann"][0]
    move = core.transfer(milk, table("Ben"), by="Ben", src=table("Ann"))
    assert move.dst == move.src and st.keepers["Ann"] == [milk]
    assert "in-my-bunk-shields-all-assets" in core.entries[-1].cites
    # her own moves are hers to make, and the effect ends as her turn begins
    assert core.reachable("Ann", ["Ann", "Ben"]) == ["Ann", "Ben"]
    assert core.reachable("Ben", ["Ann", "Ben"], quiet=True) == ["Ben"]
    st.begin_turn(0)
    assert st.lasting == () and core.reachable("Ben", ["Ann", "Ben"]) == ["Ann", "Ben"]


def test_face_down_and_face_out_last_only_in_their_kind_of_zone():
    engine = _engine("""  editions: [eco, base]
  players: [Ann, Ben, Cal]
  rules: [Play All]
  keepers:
    Ben: [Frogs, Water]
  face_down: [Frogs]
  hands:
    Ann: [Milk, Bread]
  face_out: [Bread]
  draw_pile: ["? x6"]
""")
    st, core = engine.state, engine.core
    frogs, bread = st.keepers["Ben"][0], st.hands["Ann"][1]
    assert core.showing("Ben") == [st.keepers["Ben"][1]] and core.keeper_count("Ben") == 2
    assert core.plays_left() == 1, "Play All does not owe a card held face-out"
    core.steal(frogs, "Ann")
    assert frogs in st.face_down, "taken from table to table, it stays face down"
    core.discard(frogs, "Ann", src=table("Ann"))
    assert frogs not in st.face_down
    core.discard(bread, "Ann", src=hand("Ann"))
    assert st.face_out == frozenset()


@pytest.mark.parametrize("text, code, where", [
    ("  under:\n    Milk: [Rubies]\n", Code.NOT_IN_PLAY, (5, 5)),
    ("  keepers:\n    Ann: [Milk]\n  under:\n    Milk: [Rubies]\n", Code.CANNOT_HOLD, (7, 12)),
    ("  keepers:\n    Ann: [Treasure Map]\n  under:\n    Treasure Map: [Rum]\n", Code.CANNOT_HOLD, (7, 20)),
    ("  hands:\n    Ann: [Milk]\n  face_down: [Milk]\n", Code.NOT_IN_PLAY, (6, 15)),
    ("  keepers:\n    Ann: [Milk]\n  face_out: [Milk]\n", Code.NOT_IN_PLAY, (6, 14)),
    ("  discard: [I'll Be In My Bunk]\n  out_of_reach: {Ann: I'll Be In My Bunk}\n", Code.OUT_OF_REACH, (5, 23)),
    ("  out_of_reach: {Ben: I'll Be In My Bunk}\n", Code.OUT_OF_REACH, (4, 23)),
    ("  discard: [Milk]\n  out_of_reach: {Ben: Milk}\n", Code.OUT_OF_REACH, (5, 23)),
])
def test_a_table_that_cannot_be_is_refused_where_it_is_written(text, code, where):
    pos = _position("  editions: [base, pirate, faq]\n  players: [Ann, Ben, Cal]\n" + text)
    problem = pos.problems()[0]
    assert problem.code == code
    error = problem.error()
    assert (error.path, error.line, error.col) == ("t.yaml", *where), str(error)


def test_a_malformed_extension_is_an_input_error():
    with pytest.raises(InputError, match="table.under"):
        _position("  players: [Ann]\n  under: [Milk]\n")


def _spy_on_the_net(monkeypatch) -> list:
    fired: list = []
    real = hidden.shielded

    def spy(core, move):
        out = real(core, move)
        if out:
            fired.append((core.state.name(move.card), move))
        return out

    monkeypatch.setattr(hidden, "shielded", spy)
    return fired


def test_random_play_never_reaches_a_player_out_of_reach(monkeypatch):
    """Random play from positions where someone is out of reach (and Booty lies under
    Maps, Actions under Let's Keep Doing That, Keepers face down): every card is kept,
    and no Action even tries to move a card to or from that player (the net in
    Core.transfer never has to step in: the Actions offer only the players in reach)."""
    fired = _spy_on_the_net(monkeypatch)
    received: list = []
    seen: dict[str, set[int]] = {}
    check = prop.check_invariants

    def nothing_given(engine, total):
        # nothing reaches the hand or the table of a player out of reach
        check(engine, total)
        st = engine.state
        for p, _, _ in st.lasting:
            now = set(st.hands[p]) | set(st.keepers[p])
            received.extend(st.name(c) for c in now - seen.setdefault(p, now))
            seen[p] &= now

    monkeypatch.setattr(prop, "check_invariants", nothing_given)
    games = 0
    for seed in range(48):
        engine = prop.random_position(seed, ["base+faq", "everything", "pirate"][seed % 3], 3 + seed % 3)
        st = engine.state
        bunks = [c for c, d in enumerate(st.defs) if "out_of_reach" in d.impl.lasting_effects(d)]
        others = [p for p in st.players if p != st.active_player]
        if bunks:
            st.lasting = ((others[seed % len(others)], "out_of_reach", bunks[0]),)
        # the Actions of the draw pile in the active player's hand: most plays then act on others
        actions = [c for c in st.draw_pile if st.defs[c].type == "action"]
        for c in actions:
            st.move(c, st.draw_pile, st.hands[st.active_player])
        games += 1
        seen.clear()
        prop.play_randomly(engine, random.Random(seed), 30)
    assert games == 48
    assert fired == [], fired[:3]
    assert received == [], received[:3]


def test_the_pile_zone_names_its_card():
    assert str(under(7)) == "under card 7"


def test_an_action_staying_in_play_stands_among_the_rules_once():
    ok = _position("  players: [Ann, Ben]\n  rules: [Let's Keep Doing That]\n"
                   "  under:\n    Let's Keep Doing That: [Jackpot!]\n")
    assert ok.problems() == []
    twice = _position("  players: [Ann, Ben]\n  rules: [Let's Keep Doing That, Let's Keep Doing That]\n")
    assert [p.code for p in twice.problems()] == [Code.SAME_RULE]


def test_a_deal_names_only_the_players_it_may_give_to_and_the_app_offers_only_them():
    """Everybody Gets 1 with Dee in her bunk: the deal decision names Ann, Ben and Cal as
    the players who may be given cards, so an answerer (the app's deal dialog, self-play)
    never offers Dee a card the engine would then refuse."""
    from adjudicator.events import Event
    from tui.lines import menu

    engine = _engine("""  players: [Ann, Ben, Cal, Dee]
  turn: Ben
  hands:
    Ben: [Everybody Gets 1, Milk]
  discard: [I'll Be In My Bunk]
  out_of_reach: {Dee: I'll Be In My Bunk}
  draw_pile: [Bread, Time, Money, Love, Peace]
""")
    engine.submit(Event("play", "Everybody Gets 1", by="Ben"))
    decision = engine.pending.decision
    assert decision.kind == "deal" and decision.recipients == ("Ben", "Cal", "Ann")
    assert len(decision.options) == 3, "three cards drawn: one for each player in reach"
    deal = [item for item in menu(engine) if item.kind == "deal"]
    assert len(deal) == 1 and sorted(deal[0].players) == ["Ann", "Ben", "Cal"]
