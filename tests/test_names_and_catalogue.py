"""Card names and the catalogue: normal forms, aliases, suggestions, validation."""

import pytest

from adjudicator.catalogue import UnknownName, default_catalogue, load_catalogue
from adjudicator.errors import InputError
from adjudicator.names import normalize


@pytest.mark.parametrize("a,b", [
    ("That's Mine", "thats mine"),
    ("Draw 3, Play 2 of Them", "draw 3 play 2 of them"),
    ("Bread & Chocolate", "bread and chocolate"),
    ("Let\u2019s Simplify", "Let's Simplify"),
    ("  Zap   a CARD! ", "zap a card"),
])
def test_normal_forms_match(a, b):
    assert normalize(a) == normalize(b)


def test_base_deck_is_complete():
    cat = default_catalogue()
    base = cat.by_edition("base")
    counts = {}
    for c in base:
        counts[c.type] = counts.get(c.type, 0) + 1
    assert len(base) == 100
    assert counts == {"keeper": 19, "goal": 30, "rule": 27, "action": 23, "basic": 1}
    assert len(cat.by_edition("creeper-pack")) == 16


def test_resolution_through_aliases_and_punctuation():
    cat = default_catalogue()
    assert cat.resolve("wormhole").name == "Mystery Play"
    assert cat.resolve("get on with it").name == "Get On With It!"
    assert cat.resolve("DRAW 2 AND USE EM").name == "Draw 2 and Use 'Em"


def test_unknown_name_suggests():
    with pytest.raises(UnknownName) as exc:
        default_catalogue().resolve("Draw Tree")
    assert "did you mean" in str(exc.value)
    assert "Draw 3" in exc.value.candidates


def _cat(text):
    return load_catalogue([("cards.yaml", text)])


def test_ambiguous_name_is_refused_with_candidates():
    cat = _cat("""
- {name: Twin, type: keeper, editions: [base], effect: one}
- {name: Twin, type: action, editions: [star], mechanic: draw_cards, params: {draw: 2}, effect: two}
""")
    with pytest.raises(UnknownName) as exc:
        cat.resolve("twin")
    assert "ambiguous" in str(exc.value) and len(exc.value.candidates) == 2
    assert cat.resolve("twin", editions=["star"]).type == "action"


def test_same_card_in_two_editions_is_merged():
    cat = _cat("""
- {name: Jackpot!, type: action, editions: [base], mechanic: draw_cards, params: {draw: 3}, numerals: [draw], effect: x}
- {name: Jackpot!, type: action, editions: [star], mechanic: draw_cards, params: {draw: 3}, numerals: [draw], effect: x}
""")
    assert cat.resolve("jackpot").editions == ("base", "star")


@pytest.mark.parametrize("text,needle", [
    ("- {name: X, type: action, editions: [base], mechanic: no_such, effect: e}", "no mechanic is called 'no_such'"),
    ("- {name: X, type: action, editions: [base], mechanic: draw_cards, params: {drwa: 3}, effect: e}", "has no argument 'drwa'"),
    ("- {name: X, type: action, editions: [base], mechanic: draw_cards, effect: e}", "needs the argument 'draw'"),
    ("- {name: X, type: action, editions: [base], mechanic: draw_cards, params: {draw: many}, effect: e}", "must be int"),
    ("- {name: X, type: keeper, editions: [base], mechanic: draw_cards, params: {draw: 1}, effect: e}", "is for action"),
    ("- {name: X, type: widget, editions: [base], effect: e}", "unknown type"),
    ("- {name: X, type: keeper, editions: [nowhere], effect: e}", "unknown edition"),
    ("- {name: X, type: keeper, editions: [base], effect: e, colour: red}", "unknown key 'colour'"),
])
def test_loader_rejects_bad_cards(text, needle):
    with pytest.raises(InputError) as exc:
        _cat(text)
    assert needle in str(exc.value)
    assert exc.value.line == 1


def test_cards_command_lists_an_edition(capsys):
    from fluxx_judge.cli import main

    assert main(["cards", "--edition", "creeper-pack"]) == 0
    out = capsys.readouterr().out
    assert "Radioactive Potato" in out and "16 cards" in out
