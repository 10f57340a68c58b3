"""The loader and docs/scenario.schema.json give the same verdict.

Files are generated from a valid scenario by structural changes (a key removed, added
or misspelt, a value of the wrong kind or out of range, a ruling id that is not one),
one to three at a time. Every change the schema can express is made so that both
must agree: the loader accepts exactly the files the schema accepts. Changes the
schema cannot judge (an unknown card, a position the rules never reach) are left to
the loader's own tests.
"""

from __future__ import annotations

import copy
import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from adjudicator import strictyaml
from adjudicator.errors import InputError
from adjudicator.scenario import parse_scenario
from tests.conftest import examples, schema_validator

BASE = {
    "format": 1,
    "id": "generated",
    "title": "A generated dispute",
    "cites": ["rule-cards-always-playable"],
    "table": {
        "players": ["Ann", "Ben", "Cal"],
        "turn": "Ann",
        "rules": ["Play 2"],
        "goals": ["Milk & Cookies"],
        "hands": {"Ann": ["Milk", "Cookies"], "Ben": ["Bread"]},
        "keepers": {"Cal": ["Sleep"]},
        "draw_pile": ["? x10"],
        "discard": ["Draw 2"],
    },
    "events": [{"play": "Milk", "expect": {"plays_left": 1}}],
    "expect": {"winner": "none", "plays_left": 1},
}


def _set(path: tuple, value):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = copy.deepcopy(value)
    return change


def _drop(path: tuple):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node.get(key, {})
        node.pop(path[-1], None)
    return change


# (change, whether the file stays valid)
CHANGES = {
    "no format": (_drop(("format",)), False),
    "format 2": (_set(("format",), 2), False),
    "format text": (_set(("format",), "1"), False),
    "no table": (_drop(("table",)), False),
    "unknown top key": (_set(("evnts",), []), False),
    "id not kebab": (_set(("id",), "Not Kebab"), False),
    "id a number": (_set(("id",), 5), False),
    "id too long": (_set(("id",), "-".join(["word"] * 30)), False),
    "player name too long": (_set(("table", "players"), ["Ann", "B" * 101]), False),
    "ruling id too long": (_set(("cites",), ["-".join(["rule"] * 30)]), False),
    "title a number": (_set(("title",), 5), False),
    "title a list": (_set(("title",), ["x"]), False),
    "note": (_set(("note",), "why it matters"), True),
    "cites not kebab": (_set(("cites",), ["Rule-Cards"]), False),
    "cites text": (_set(("cites",), "rule-cards-always-playable"), False),
    "cites another": (_set(("cites",), ["rule-cards-always-playable", "rule-solo-setup"]), True),
    "no players": (_drop(("table", "players")), False),
    "players text": (_set(("table", "players"), "Ann"), False),
    "nine players": (_set(("table", "players"), [f"P{i}" for i in range(9)]), False),
    "unknown table key": (_set(("table", "hand"), {}), False),
    "drawn negative": (_set(("table", "drawn"), -1), False),
    "drawn text": (_set(("table", "drawn"), "1"), False),
    "drawn": (_set(("table", "drawn"), 1), True),
    "played decimal": (_set(("table", "played"), 1.5), False),
    "unknown edition": (_set(("table", "editions"), ["nope"]), False),
    "editions": (_set(("table", "editions"), ["base"]), True),
    "rules text": (_set(("table", "rules"), "Play 2"), False),
    "goal a number": (_set(("table", "goals"), [5]), False),
    "hands a list": (_set(("table", "hands"), ["Ann"]), False),
    "deal text": (_set(("table", "deal"), "yes"), False),
    "solo a number": (_set(("table", "solo"), 1), False),
    "events a mapping": (_set(("events",), {"play": "Milk"}), False),
    "event two verbs": (_set(("events",), [{"play": "Milk", "end_turn": True}]), False),
    "event no verb": (_set(("events",), [{"by": "Ann"}]), False),
    "event unknown key": (_set(("events",), [{"play": "Milk", "expct": {}}]), False),
    "event end turn": (_set(("events",), [{"end_turn": True}]), True),
    "plays_left word": (_set(("expect", "plays_left"), "some"), False),
    "plays_left all": (_set(("expect", "plays_left"), "all"), True),
    "draws_owed negative": (_set(("expect", "draws_owed"), -1), False),
    "pending unknown choice": (_set(("expect", "pending"), {"choice": "dance"}), False),
    "pending": (_set(("expect", "pending"), {"choice": "card"}), True),
    "pending unknown key": (_set(("expect", "pending"), {"who": "Ann"}), False),
    "zone unknown": (_set(("expect", "zones"), {"Ann.pocket": []}), False),
    "zone spec unknown key": (_set(("expect", "zones"), {"discard": {"many": 1}}), False),
    "zone spec": (_set(("expect", "zones"), {"discard": {"size": 1, "has": ["Draw 2"]}}), True),
    "rejected a number": (_set(("expect", "rejected"), 5), False),
    "rejected not kebab": (_set(("expect", "rejected"), "Rule X"), False),
    "expect unknown key": (_set(("expect", "winer"), "Ann"), False),
    "expect cites text": (_set(("expect", "cites"), "x"), False),
    "winner a list": (_set(("expect", "winner"), ["Ann"]), False),
    "game_over text": (_set(("expect", "game_over"), "no"), False),
    "reshuffle text": (_set(("reshuffle",), "Milk"), False),
    # the question asked and the kind of answer it wants (format 1.2, item 5)
    "question text": (_set(("question",), "May Ann play Milk?"), True),
    "question a number": (_set(("question",), 5), False),
    "question asks winner": (_set(("question",), {"text": "Who wins?", "ask": "winner"}), True),
    "question asks legal": (_set(("question",), {"text": "May she?", "ask": "legal"}), True),
    "question asks respond": (_set(("question",), {"text": "Can Ben answer it?", "ask": "respond"}), True),
    "question asks where": (_set(("question",), {"text": "Where does Milk go?", "ask": {"where": "Milk"}}), True),
    "question asks must": (_set(("question",), {"text": "What must Ben do?", "ask": {"must": "Ben"}}), True),
    "question text only": (_set(("question",), {"text": "Whose turn is it?"}), True),
    "question without text": (_set(("question",), {"ask": "turn"}), False),
    "question empty text": (_set(("question",), {"text": "", "ask": "turn"}), False),
    "question unknown kind": (_set(("question",), {"text": "Who?", "ask": "who"}), False),
    "question kind a number": (_set(("question",), {"text": "Who?", "ask": 3}), False),
    "question where a word": (_set(("question",), {"text": "Where?", "ask": "where"}), False),
    "question two kinds": (_set(("question",), {"text": "Where?", "ask": {"where": "Milk", "must": "Ann"}}), False),
    "question unknown key": (_set(("question",), {"text": "Who?", "asks": "winner"}), False),
}


def verdicts(names: list[str]) -> tuple[bool, bool, str]:
    doc = copy.deepcopy(BASE)
    for name in names:
        CHANGES[name][0](doc)
    text = json.dumps(doc, ensure_ascii=False)          # JSON is YAML
    try:
        parse_scenario(strictyaml.parse(text, "g.yaml"), "g.yaml")
        loader, why = True, ""
    except InputError as exc:
        loader, why = False, exc.message
    schema = next(iter(schema_validator().iter_errors(doc)), None) is None
    return loader, schema, why


def test_every_single_change_has_the_verdict_it_should():
    for name, (_, valid) in CHANGES.items():
        loader, schema, why = verdicts([name])
        assert (loader, schema) == (valid, valid), f"{name}: loader {loader} ({why}), schema {schema}"


@settings(max_examples=examples(120))
@given(st.lists(st.sampled_from(sorted(CHANGES)), min_size=1, max_size=3, unique=True))
@example(["cites not kebab"])
def test_loader_and_schema_agree_on_generated_files(names):
    loader, schema, why = verdicts(names)
    assert loader == schema, f"{names}: loader {'accepts' if loader else 'refuses (' + why + ')'}, " \
                             f"schema {'accepts' if schema else 'refuses'}"
