"""One position model: adjudicator.position.Position lists every problem of a table.

The strict loader refuses the first of them at its file, line and column; the table
editor shows them all. Generated bad tables are judged both ways (read from the YAML
text the editor would save, and from the editor's plain data) and must give the same
problems, the loader's refusal must be the first of them, and each problem read from
the file must point at the entry the editor flags.
"""

from __future__ import annotations

import copy
import doctest
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import adjudicator.position
from adjudicator import strictyaml
from adjudicator.errors import InputError
from adjudicator.position import Code, Position
from adjudicator.scenario import parse_scenario
from tests.conftest import examples
from tui.position import check_table, where
from tui.scenario_io import dump

BASE = {
    "players": ["Ann", "Ben", "Cal"],
    "turn": "Ann",
    "rules": ["Play 2"],
    "goals": ["Milk & Cookies"],
    "hands": {"Ann": ["Milk", "Cookies"], "Ben": ["Bread"]},
    "keepers": {"Cal": ["Sleep"]},
    "draw_pile": ["? x10"],
    "discard": ["Draw 2"],
}


def _add(zone: str, *cards: str):
    def change(t: dict) -> None:
        if "." in zone:
            kind, _, who = zone.partition(".")
            t.setdefault(kind, {}).setdefault(who, []).extend(cards)
        else:
            t.setdefault(zone, []).extend(cards)
    return change


def _set(key: str, value):
    def change(t: dict) -> None:
        t[key] = copy.deepcopy(value)
    return change


def _both(*changes):
    def change(t: dict) -> None:
        for c in changes:
            c(t)
    return change


# each change makes the table impossible (or unreadable) in one way
CHANGES = {
    "unknown card": _add("hands.Ann", "Milkk"),
    "ambiguous copies": _add("draw_pile", "Milk x0"),
    "deceptive name": _add("discard", "Mi\u200blk"),
    "creeper in hand": _add("hands.Ben", "War"),
    "two draw rules": _add("rules", "Draw 2", "Draw 3"),
    "same rule twice": _add("rules", "Mystery Play", "Open The Door"),
    "keeper among rules": _add("rules", "Milk"),
    "keeper among meta rules": _add("meta_rules", "Milk"),
    "keeper among goals": _add("goals", "Bread"),
    "two goals": _add("goals", "Toast"),
    "face-down keeper": _add("keepers.Cal", "?"),
    "goal among keepers": _add("keepers.Ben", "Toast"),
    "basic rules listed": _add("discard", "Basic Rules"),
    "already won": _add("keepers.Ben", "Milk", "Cookies"),
    "attachment unsaid": _add("keepers.Cal", "Evil", "Milk", "Bread"),
    "attached apart": _both(_add("keepers.Cal", "Evil", "Milk"), _add("keepers.Ben", "Bread"),
                            _set("attached", {"Evil": "Bread"})),
    "attaches nothing": _both(_add("keepers.Cal", "War", "Milk"), _set("attached", {"War": "Milk"})),
    "cannot attach": _both(_add("keepers.Cal", "Malfunction", "Milk"), _set("attached", {"Malfunction": "Milk"})),
    "unknown attached": _set("attached", {"Evill": "Milk"}),
    "bad player name": _set("players", ["Ann", "Ben", "C.al"]),
    "player twice": _set("players", ["Ann", "Ben", "Cal", "ann"]),
    "look-alike player": _set("players", ["Ann", "Ben", "Cal", "\u0410nn"]),
    "nine players": _set("players", ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]),
    "turn nobody's": _set("turn", "Zed"),
    "turn eliminated": _set("eliminated", ["Ann"]),
    "eliminated nobody": _set("eliminated", ["Zed"]),
    "hand of nobody": _set("hands", {"Ann": ["Milk"], "Zed": ["Bread"]}),
    "plays unseen": _set("played", 9),
    "solo pile without solo": _set("rules_pile", ["Draw 3"]),
    "solo decks mixed": _both(_set("solo", True), _set("players", ["Ann"]), _set("hands", {"Ann": ["Milk"]}),
                              _set("keepers", {}), _set("rules_pile", ["Milk"]), _add("draw_pile", "Draw 3")),
    "deal with hands": _set("deal", True),
    "unknown edition": _set("editions", ["Space"]),
}


def judged(table: dict) -> tuple[list, list, strictyaml.Node]:
    """The table's problems read from the file the editor would save, and from its data."""
    text = dump({"format": 1, "table": table})
    root = strictyaml.parse(text, "g.yaml")
    assert root is not None
    table_node = root.value["table"]
    return Position.read(table_node).problems(), Position.from_data(table).problems(), table_node


def without_lines(message: str) -> str:
    return re.sub(r" \(line \d+\)", "", message)


def entry_node(table_node: strictyaml.Node, zone: str, index: int) -> strictyaml.Node | None:
    """The node of entry `index` of `zone` in the file (None for zones without entries)."""
    kind, dot, who = zone.partition(".")
    node = table_node.value.get(kind)
    if node is None:
        return None
    if dot:
        key = next((k for k in node.value if k.lower() == who.lower()), None)
        node = node.value.get(key) if key is not None else None
    if node is None or not isinstance(node.value, list):
        return None
    return node.value[index]


def check_agreement(table: dict) -> list:
    from_file, from_data, table_node = judged(table)
    seen = [(p.code, p.zone, p.index, without_lines(p.message)) for p in from_file]
    assert seen == [(p.code, p.zone, p.index, p.message) for p in from_data]
    assert check_table(table) == from_data                      # what the editor shows
    doc = {"format": 1, "table": table}
    try:
        parse_scenario(strictyaml.parse(dump(doc), "g.yaml"), "g.yaml")
        refused = None
    except InputError as exc:
        refused = exc
    if from_file:
        assert refused is not None, f"the loader accepts a table with problems: {seen}"
        first = from_file[0].error()
        assert (refused.message, refused.path, refused.line, refused.col) == \
               (first.message, first.path, first.line, first.col)
    else:
        assert refused is None, f"the loader refuses a table without problems: {refused}"
    for p in from_file:
        assert p.source is not None and p.source.path == "g.yaml", p
        if p.zone and p.index is not None and p.zone not in ("attached",):
            node = entry_node(table_node, p.zone, p.index)
            if node is not None:
                assert (node.line, node.col) == (p.source.line, p.source.col), (p, node)
    return from_data


def test_the_base_table_has_no_problems():
    assert check_agreement(copy.deepcopy(BASE)) == []


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_change_is_a_problem_both_ways(name):
    table = copy.deepcopy(BASE)
    CHANGES[name](table)
    assert check_agreement(table), f"{name}: no problem found"


@settings(max_examples=examples(60))
@given(st.lists(st.sampled_from(sorted(CHANGES)), min_size=2, max_size=4, unique=True))
@example(["unknown card", "two draw rules", "creeper in hand"])
def test_loader_and_editor_report_the_same_problems(names):
    table = copy.deepcopy(BASE)
    for name in names:
        CHANGES[name](table)
    check_agreement(table)


@pytest.mark.parametrize("table,expected", [
    ({"players": []}, [(Code.PLAYER_COUNT, "players", None)]),
    ({"players": ["Ann", "ann"]}, [(Code.PLAYER_NAME, "players", 1)]),
    ({"players": ["Ann"], "hands": {"Ann": ["Milk", "Milkk", "War"]}},
     [(Code.UNKNOWN_CARD, "hands.Ann", 1), (Code.CREEPER_IN_HAND, "hands.Ann", 2)]),
    ({"players": ["Ann"], "rules": ["Draw 2", "Draw 3"], "goals": ["Toast", "Lullaby"]},
     [(Code.SAME_SLOT, "rules", 1), (Code.TOO_MANY_GOALS, "goals", 1)]),
    ({"players": ["Ann"], "draw_pile": ["? x501", "Milk x2"]}, [(Code.COPIES, "draw_pile", 0)]),
    ({"players": ["Ann"], "draw_pile": ["? x500", "? x500", "Milk"]}, [(Code.TOO_MANY_CARDS, "draw_pile", 2)]),
    ({"players": ["Ann"], "turn": "Ann", "eliminated": ["Ann"]}, [(Code.TURN_ELIMINATED, "turn", None)]),
    ({"players": ["Ann"], "played": 2, "discard": ["Milk"]}, [(Code.PLAYS_UNSEEN, "played", None)]),
    ({"players": ["Ann"], "rules": "Draw 2"}, [(Code.MALFORMED, "rules", None)]),
])
def test_the_editor_sees_each_problem_at_its_card(table, expected):
    assert [(p.code, p.zone, p.index) for p in check_table(table)] == expected


def test_where_names_the_card_in_the_editors_words():
    problems = check_table({"players": ["Ann", "ann"], "hands": {"Ann": ["War"]}})
    assert [where(p) for p in problems] == ["players, seat 2", "Ann's hand, card 1"]


def test_a_file_keeps_its_lines_and_the_editor_has_none():
    table = {"players": ["Ann", "Ben"], "rules": ["Mystery Play", "Open The Door"]}
    from_file, from_data, _ = judged(table)
    assert from_file[0].message.startswith("Open The Door and Mystery Play (line 4) are the same rule")
    assert from_data[0].message.startswith("Open The Door and Mystery Play are the same rule")
    assert from_data[0].source is None and str(from_file[0].error()).startswith("g.yaml:4:")


def test_the_table_builds_the_engine_state():
    pos = Position.from_data({"players": ["Ann", "Ben"], "turn": "Ben", "played": 1, "discard": ["Milk"],
                              "keepers": {"Ann": ["Brain Parasites", "Milk", "The Doctor"]}})
    st = pos.state()
    assert st.players == ["Ann", "Ben"] and st.active == 1 and st.played == 1
    assert [st.name(c) for c in st.keepers["Ann"]] == ["Brain Parasites", "Milk", "The Doctor"]
    assert {st.name(c): st.name(k) for c, k in st.attachments.items()} == {"Brain Parasites": "The Doctor"}


def test_a_second_joiner_cannot_look_like_the_first(tmp_path):
    from adjudicator.scenario import load_scenario
    from tests.conftest import write_scenario

    # (the loader once compared a second joiner with the first joiner's neighbour only)
    path = write_scenario(tmp_path, "format: 1\ntable:\n  players: [Ann]\nevents:\n  - join: Pac\n"
                                    "  - join: \u0420\u0430\u0441\n")
    with pytest.raises(InputError) as exc:
        load_scenario(str(path))
    assert exc.value.line == 6 and "looks like 'Pac' (line 5)" in exc.value.message


def test_the_doctests_pass():
    result = doctest.testmod(adjudicator.position)
    assert result.attempted >= 6 and result.failed == 0
