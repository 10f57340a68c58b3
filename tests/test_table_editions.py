"""Edition-aware tables (issue 27): the editions a table is played with, declared or
inferred from its cards, limit what an unseen card may be revealed as, and a name that
matches cards of several editions (or a name typed in the app) prefers the table's,
in the engine, on the command line and in the app's card look-up alike."""

from __future__ import annotations

import functools

import pytest

from adjudicator import strictyaml
from adjudicator.catalogue import UnknownName, builtin_card_files, load_catalogue
from adjudicator.moves import legal_moves
from adjudicator.replay import replay
from adjudicator.scenario import parse_scenario
from conftest import write_scenario

# Ann holds Milk & Cookies with Milk, Cookies and the Creeper Taxes in front of her; Ben's
# hand is unseen: a Fluxx 5.0 table (with its Creeper Pack)
CREEPER_TABLE = """
format: 1
table:
  players: [Ann, Ben]
  hands:
    Ann: [Milk & Cookies, Bread]
    Ben: ["? x3"]
  keepers:
    Ann: [Milk, Cookies, Taxes]
  draw_pile: ["? x10"]
events:
  - play: Milk & Cookies
"""
OTHER_EDITIONS = {"Stop That!", "Skullduggery", "You Can't Take This Guy From Me"}


def revealed(text: str) -> set[str]:
    sc = parse_scenario(strictyaml.parse(text, "t.yaml"), "t.yaml")
    engine = replay(sc).engine
    return {m.card for g in legal_moves(engine) for m in g.moves if m.reveal}


def test_a_fluxx_5_table_offers_no_reveal_of_another_editions_card(tmp_path, capsys):
    from fluxx_judge.cli import main

    assert revealed(CREEPER_TABLE) and not revealed(CREEPER_TABLE) & OTHER_EDITIONS
    # the command line lists the same
    assert main(["moves", str(write_scenario(tmp_path, CREEPER_TABLE))]) == 0
    out = capsys.readouterr().out
    assert "Ben reveals" in out and not any(name in out for name in OTHER_EDITIONS)
    # a table that says it mixes decks offers theirs
    mixed = CREEPER_TABLE.replace("  players:", "  editions: [base, creeper-pack, star, pirate, faq]\n  players:")
    assert {"Stop That!", "Skullduggery"} <= revealed(mixed)


@functools.lru_cache(maxsize=1)
def twins():
    """The built-in cards and two cards of one name: a Keeper of Fluxx 5.0, an Action of Star Fluxx."""
    return load_catalogue([*builtin_card_files(), ("twin.yaml", """
- {name: Twin, type: keeper, editions: [base], effect: one}
- {name: Twin, type: action, editions: [star], mechanic: draw_cards, params: {draw: 2}, effect: two}
""")])


def test_a_name_of_cards_of_several_editions_prefers_the_tables():
    cat = twins()
    with pytest.raises(UnknownName):
        cat.resolve("twin")                           # no table to prefer: still ambiguous
    assert cat.resolve("twin", prefer=["star"]).type == "action"
    assert cat.find("twin", prefer=["base"]).type == "keeper"

    def scenario(keeper: str) -> str:
        return f"""
format: 1
table:
  players: [Ann, Ben]
  hands:
    Ann: [Twin]
  keepers:
    Ben: [{keeper}]
  draw_pile: ["? x10"]
events:
  - play: Twin
"""
    star = parse_scenario(strictyaml.parse(scenario("The Captain"), "s.yaml"), "s.yaml", cat)
    assert star.position.deck_editions == ("star",)
    assert star.position.hands["Ann"][0].card.type == "action" and star.events[0].event.key == "Twin (star)"
    base = parse_scenario(strictyaml.parse(scenario("Milk"), "s.yaml"), "s.yaml", cat)
    assert base.position.hands["Ann"][0].card.type == "keeper" and base.events[0].event.key == "Twin (base)"
    # a name typed in the app's Replay screen, at that table
    from adjudicator.typed_events import parse_typed_event

    engine = replay(star).engine
    assert parse_typed_event("Ann plays twin", engine) == {"play": "Twin", "by": "Ann"}
    # a typo is told the table's cards first
    with pytest.raises(UnknownName) as told:
        cat.resolve("captian", prefer=["star"])
    assert told.value.candidates[0] == "The Captain"


def test_the_card_look_up_prefers_the_tables_editions():
    from tui import position as P

    index = P.card_index()
    star = P.table_deck({"players": ["Ann"], "keepers": {"Ann": ["The Captain"]}, "rules": ["Play 3"]})
    assert star == P.Deck(("star",), False)
    assert index.find("captain", deck=star)[0].card.name == "The Captain"
    assert index.complete("Capt", star) is None                 # never completed to Captain's Hat over it
    assert index.find("captain")[0].card.name == "Captain's Hat"   # a table that says nothing: as before
    base = P.table_deck({"players": ["Ann"], "hands": {"Ann": ["Milk", "Cookies x2"]}, "keepers": {"Ann": ["Taxes"]}})
    assert base.editions == ("base", "creeper-pack")
    # declared editions: no other edition's card is offered
    declared = P.table_deck({"players": ["Ann"], "editions": ["base"]})
    assert declared.declared and not index.find("captain", deck=declared)
    assert all("base" in m.card.editions for m in index.find("milk", deck=declared))
