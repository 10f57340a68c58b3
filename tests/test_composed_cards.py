"""A card that is an existing effect "and also" a small extra is one record: `mechanic`
names the main part, `also` the parts carried out after it, `params` the arguments of
every part (adjudicator/mechanics/composed.py). The example of docs/architecture.md: a
Zombie Fluxx Action that works like Steal a Keeper but also lets the thief draw a card."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import builtin_card_files, load_catalogue
from adjudicator.errors import InputError
from adjudicator.replay import replay
from adjudicator.scenario import parse_scenario
from adjudicator import strictyaml

import rulings  # noqa: F401  (registers the corpus)

ZOMBIE_RECORD = """
- name: Grab and Gnaw
  type: action
  editions: [faq]
  mechanic: steal
  also: [draw_cards]
  params: {types: [keeper], draw: 1}
  numerals: [draw]
  effect: Take a Keeper from another player and put it in front of you, then draw a card.
"""

SCENARIO = """
format: 1
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  keepers:
    Ben: [The Brain, Milk]
  hands:
    Ann: [Grab and Gnaw, Bread]
    Cal: [Cookies]
  draw_pile: [Time, Love, Peace]
events:
  - play: Grab and Gnaw
    choose: [Milk]
expect:
  zones:
    Ann.keepers: [Milk]
    Ben.keepers: [The Brain]
    Ann.hand: [Bread, Time]
    discard: [Grab and Gnaw]
"""


def _catalogue(extra: str):
    return load_catalogue([*builtin_card_files(), ("zombie.yaml", extra)])


def test_an_action_and_also_a_draw_is_one_record_that_plays_both_parts():
    cat = _catalogue(ZOMBIE_RECORD)
    card = cat.resolve("Grab and Gnaw")
    assert card.mechanic == "steal" and card.also == ("draw_cards",)
    assert card.impl.name == "steal+draw_cards" and card.impl.params.keys() == {"types", "draw"}
    sc = parse_scenario(strictyaml.parse(SCENARIO, "z.yaml"), "z.yaml", cat)
    verdict = replay(sc)
    assert verdict.passed, verdict.all_failures
    said = [e.text for s in verdict.steps for e in s.entries]
    assert any("takes Milk from Ben" in t for t in said) and any("Ann draws 1 card" in t for t in said)
    # the steal part is a steal like Steal a Keeper's: It's A Trap! could answer it
    assert "grab-keeper-cheating" in verdict.cites


def test_the_part_an_argument_belongs_to_is_checked():
    with pytest.raises(InputError, match="no argument 'count'"):
        _catalogue(ZOMBIE_RECORD.replace("draw: 1", "count: 1"))
    with pytest.raises(InputError, match="both take the argument 'types'"):
        _catalogue(ZOMBIE_RECORD.replace("also: [draw_cards]", "also: [trash]"))
    with pytest.raises(InputError, match="no mechanic is called 'draw_card'"):
        _catalogue(ZOMBIE_RECORD.replace("also: [draw_cards]", "also: [draw_card]"))
    with pytest.raises(InputError, match="not an effect carried out when played"):
        _catalogue(ZOMBIE_RECORD.replace("also: [draw_cards]", "also: [keeper]"))
    with pytest.raises(InputError, match="not to a keeper"):
        _catalogue(ZOMBIE_RECORD.replace("type: action", "type: keeper").replace("mechanic: steal", "mechanic: keeper"))
