"""Extra turns are owed one per card that grants one (official FAQ:
two-extra-turn-cards-two-extra-turns), and a card, any copy of it, gives at most one
in a run of turns (take-another-turn-never-more-than-two). Our editions hold a single
extra-turn card, so the rule for two different ones is shown with a second card of
the same mechanic under another title, as another edition's card would be written."""

from __future__ import annotations

from adjudicator import strictyaml
from adjudicator.catalogue import builtin_card_files, load_catalogue
from adjudicator.replay import replay
from adjudicator.scenario import parse_scenario

import rulings  # noqa: F401  (registers the corpus)

SECOND_CARD = """
- name: Second Wind (test)
  type: action
  editions: [faq]
  mechanic: another_turn
  effect: Take another turn after this one.
"""


def _verdict(events: str, hand: str, players: str = "[Ann, Ben, Cal, Dan]"):
    cat = load_catalogue([*builtin_card_files(), ("test.yaml", SECOND_CARD)])
    text = f"""
format: 1
table:
  players: {players}
  turn: Ann
  rules: [Play 2]
  hands:
    Ann: {hand}
    Ben: [Milk]
  draw_pile: [Bread, Cookies, Sleep, Time, Love, Peace, Music, Dreams, "? x20"]
events:
{events}
"""
    return replay(parse_scenario(strictyaml.parse(text, "x.yaml"), "x.yaml", cat))


def _turns(verdict) -> list[str]:
    return [e.text.split("'")[0] for s in verdict.steps for e in s.entries if e.text.endswith("turn begins.")]


def test_two_different_extra_turn_cards_give_three_turns_in_a_row():
    v = _verdict("""
  - play: Take Another Turn
  - play: Second Wind (test)
    expect: {cites: [two-extra-turn-cards-two-extra-turns]}
  - end_turn: true
    expect: {turn: Ann}
  - play: Bread
  - end_turn: true
    expect: {turn: Ann}
  - play: Cookies
  - end_turn: true
    expect: {turn: Ben}
""", "[Take Another Turn, Second Wind (test)]")
    assert v.passed, v.all_failures
    assert _turns(v) == ["Ann", "Ann", "Ben"]


def test_a_card_played_again_in_the_run_gives_nothing_but_a_new_one_does():
    # Take Another Turn's second copy adds nothing; the other card, first played on the
    # extra turn, still gives one more: Ann plays three turns in a row
    v = _verdict("""
  - play: Take Another Turn #1
  - play: Take Another Turn #2
    expect: {cites: [take-another-turn-never-more-than-two]}
  - end_turn: true
    expect: {turn: Ann}
  - play: Second Wind (test)
  - play: Bread
  - end_turn: true
    expect: {turn: Ann}
  - play: Cookies
  - end_turn: true
    expect: {turn: Ben}
""", "[Take Another Turn, Take Another Turn, Second Wind (test)]", players="[Ann, Ben, Cal]")
    assert v.passed, v.all_failures


def test_the_run_ends_and_the_card_may_grant_again_later():
    v = _verdict("""
  - play: Take Another Turn
  - end_turn: true
    expect: {turn: Ann}
  - play: Bread
  - end_turn: true
    expect: {turn: Ben}
""", "[Take Another Turn]", players="[Ann, Ben, Cal]")
    assert v.passed, v.all_failures
