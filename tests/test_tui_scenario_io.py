"""The app's scenario files: canonical YAML out, the same data back, lazy writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.errors import InputError
from adjudicator.scenario import load_scenario
from adjudicator.strictyaml import _key_form
from scenarios import library_path
from tui import scenario_io
from tui.session import Session
from tests.conftest import examples

# --------------------------------------------------------------------------- round trip

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
KEYS = TEXT.filter(lambda k: k != "<<")   # the engine's strict reader refuses merge keys, even quoted
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), TEXT)


def mappings(values, min_size: int = 0, max_size: int = 5):
    """Mappings the strict reader accepts: no two keys alike once case and Unicode form
    are folded (it refuses 'S' beside 's' as a key written twice; Save refuses them too)."""
    return st.lists(st.tuples(KEYS, values), min_size=min_size, max_size=max_size,
                    unique_by=lambda kv: _key_form(kv[0])).map(dict)


DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5), mappings(inner)), max_leaves=25)


@pytest.mark.slow(4)
@settings(max_examples=examples(150), deadline=None)
@given(mappings(DATA, min_size=1, max_size=6))
def test_dump_then_load_gives_the_same_data(doc):
    assert scenario_io.loads(scenario_io.dump(doc)) == doc


@pytest.mark.parametrize("value", ["10", "yes", "No", "null", "~", "true", "1e3", "0x1F", "? x2", "?", "a: b",
                                   "x #y", " lead", "trail ", "two  spaces", "-dash", "[list]", "{map}", "*star",
                                   "&anchor", "!tag", "%pct", "@at", "`tick", "'quote", '"dq', "line\nbreak",
                                   "tab\there", "\u2028", "\x85", "\ufeff", "caf\u00e9", "Stop That!",
                                   "Draw 3, Play 2 of Them", "That\u2019s Mine", ""])
def test_awkward_text_survives(value):
    doc = {"k": value, "l": [value, [value]], value: {"m": value}}
    assert scenario_io.loads(scenario_io.dump(doc)) == doc


def test_every_library_scenario_survives_the_emitter():
    files = sorted(Path(library_path()).rglob("*.yaml"))
    assert files, "the library should hold scenarios"
    for path in files:
        text = path.read_text(encoding="utf-8")
        doc = scenario_io.loads(text, str(path))
        out = scenario_io.dump(doc)
        assert scenario_io.loads(out) == doc, path
        assert scenario_io.dump(scenario_io.loads(out)) == out, path   # canonical: a fixed point


def test_keys_come_in_the_format_order():
    doc = {"events": [{"expect": {"turn": "Ann"}, "by": "Ann", "play": "Milk"}],
           "table": {"hands": {"Ann": ["Milk"]}, "turn": "Ann", "players": ["Ann"]},
           "title": "t", "format": 1, "id": "x", "expect": {"zones": {"discard": {"top": "Milk", "has": ["Milk"]}},
                                                            "winner": "none"}}
    assert scenario_io.dump(doc) == (
        "format: 1\n"
        "id: x\n"
        "title: t\n"
        "table:\n"
        "  players: [Ann]\n"
        "  turn: Ann\n"
        "  hands:\n"
        "    Ann: [Milk]\n"
        "events:\n"
        "  - play: Milk\n"
        "    by: Ann\n"
        "    expect:\n"
        "      turn: Ann\n"
        "expect:\n"
        "  winner: none\n"
        "  zones:\n"
        "    discard:\n"
        "      has: [Milk]\n"
        "      top: Milk\n")


def test_dumped_scenarios_load_in_the_engine(tmp_path):
    doc = {"format": 1, "id": "t", "table": {"players": ["Ann", "Ben"], "hands": {"Ann": ["Milk", "? x2"]},
                                             "draw_pile": ["Bread", "? x5"]},
           "events": [{"play": "Milk"}, {"end_turn": True}]}
    path = tmp_path / "t.yaml"
    path.write_text(scenario_io.dump(doc), encoding="utf-8")
    sc = load_scenario(str(path))
    assert [c.card.name for c in sc.position.hands["Ann"]] == ["Milk", "?", "?"]


# --------------------------------------------------------------------------- writing

def test_saving_an_unchanged_scenario_keeps_its_bytes(tmp_path):
    original = ("# a comment the emitter would drop\nformat: 1\nid: keep-me\ntable:\n"
                "  players: [Ann, Ben]   # seats\n  hands: {Ann: [Milk]}\n")
    path = tmp_path / "keep.yaml"
    path.write_text(original, encoding="utf-8")
    stamp = os.stat(path).st_mtime_ns
    s = Session.open(str(path))
    assert not s.changed
    assert s.save() == (str(path), False)
    assert path.read_text(encoding="utf-8") == original and os.stat(path).st_mtime_ns == stamp
    copy = tmp_path / "copy.yaml"
    s.save(str(copy))                      # save-as of an unchanged scenario copies it exactly
    assert copy.read_bytes() == path.read_bytes()
    s.doc["table"]["players"].append("Cal")
    assert s.changed and s.save()[1] is True
    assert load_scenario(str(copy)).position.players == ["Ann", "Ben", "Cal"]
    assert not s.changed


def test_a_bad_file_opens_with_its_error_and_is_never_touched(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("format: 1\ntable:\n  players: [Ann\n", encoding="utf-8")
    s = Session.open(str(path))
    assert isinstance(s.error, InputError) and s.error.line is not None
    assert s.path is None                  # saving will ask for a name, never overwrite the bad file
    assert path.read_text(encoding="utf-8") == "format: 1\ntable:\n  players: [Ann\n"
    for content, words in (("- a\n- b\n", "one mapping"), ("", "empty"), (b"\xff\xfe\x00", "UTF-8")):
        p = tmp_path / "x.yaml"
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        assert words in Session.open(str(p)).error.message
    assert "cannot read" in Session.open(str(tmp_path / "missing.yaml")).error.message
