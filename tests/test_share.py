"""Share strings (issue 16): a scenario as one URL-safe line that every command takes in
place of a file. Decoding an encoding gives the same scenario; damaged or hostile
strings get a one-line message; the word list and the prose primer are frozen."""

from __future__ import annotations

import hashlib
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import share, strictyaml
from adjudicator.errors import InputError
from adjudicator.replay import replay, replay_file
from adjudicator.scenario import load_scenario, parse_scenario
from scenarios import library_path
from tests.conftest import examples
from tests.test_saving import position_doc

LIBRARY = sorted(Path(library_path()).rglob("*.yaml"))
URL_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
# sha256 of the frozen tables of format fj1: editing them would change what old strings mean
FROZEN = {
    "words-v1.txt": "531c74524cc0c5a4ee610ada70551be3d8f871b55e25967c447d44958cbe1c4f",
    "prose-v1.txt": "7bbccaee71ebe29e227e0e2272b3f2ba9650d0d59a52e082679a3d10d744318f",
}


def doc_of(path: Path) -> dict:
    return strictyaml.read_file(str(path)).plain_data()


def test_frozen_tables_of_fj1_never_change():
    folder = Path(share.__file__).parent / "data" / "share"
    for name, digest in FROZEN.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, (
            f"{name} belongs to share strings fj1 and is frozen: a new table needs a new format (fj2)")


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_every_library_scenario_round_trips(path):
    doc = doc_of(path)
    line = share.encode(doc)
    assert line.startswith("fj1.") and set(line[4:]) <= URL_SAFE
    assert share.decode(line) == doc
    if LIBRARY.index(path) % 8:
        return                  # loading every eighth file both ways is enough for the loader
    from_file, from_line = load_scenario(str(path)), load_scenario(line)
    assert (from_line.id, from_line.title, from_line.question, from_line.note, from_line.cites) == \
           (from_file.id, from_file.title, from_file.question, from_file.note, from_file.cites)
    assert [e.event.card for e in from_line.events] == [e.event.card for e in from_file.events]
    assert len(from_line.variations) == len(from_file.variations)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_generated_positions_round_trip_and_replay_alike(seed):
    doc = position_doc(seed)
    line = share.encode(doc)
    assert share.decode(line) == doc
    sc = parse_scenario(strictyaml.parse(share.document_text(share.decode(line)), "x"), "x")
    assert [r.card.key for r in sc.position.draw_pile] == \
           [r.card.key for r in load_scenario(line).position.draw_pile]
    assert replay(sc).summary() == replay(load_scenario(line)).summary()


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | _text
    | st.sampled_from(["?", "Ann.hand", "Milk x3", "Milk x03", "The Sun", "Bread x1000000000000", "x.y"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_text | st.sampled_from(["play", "table"]), inner,
                                                               max_size=5),
    max_leaves=30)


@settings(max_examples=examples(100), deadline=None)
@given(doc=st.dictionaries(_text, _values, max_size=6))
def test_any_plain_document_round_trips_exactly(doc):
    assert share.decode(share.encode(doc)) == doc
    try:
        assert strictyaml.parse(share.document_text(doc), "x").plain_data() == doc
    except InputError as exc:   # the strict reader refuses what no scenario may hold (look-alike keys...)
        assert "\n" not in exc.message


@settings(max_examples=examples(150), deadline=None)
@given(junk=st.text(max_size=80) | st.binary(max_size=60).map(lambda b: "fj1." + b.hex()),
       cut=st.integers(0, 400), seed=st.integers(0, 355))
def test_damaged_strings_give_a_one_line_message(junk, cut, seed):
    line = share.encode(doc_of(LIBRARY[seed % len(LIBRARY)]))
    for bad in ("fj1." + junk, line[:cut], line[:cut] + junk, junk):
        try:
            load_scenario(bad) if share.looks_like_share(bad) else share.decode(bad)
        except InputError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("share string")
        # a string that still decodes (a lucky cut) must hold a loadable scenario


def test_decoding_is_bounded_before_it_grows():
    huge = share.encode({"format": 1, "note": "a" * 2_000_000})
    with pytest.raises(share.ShareError, match="inflates to more than"):
        share.decode(huge)
    with pytest.raises(share.ShareError, match="characters long"):
        share.decode("fj1." + "A" * (share.MAX_SHARE_CHARS + 1))
    with pytest.raises(share.ShareError, match="nests more than"):
        share.decode(share.encode({"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}))
    with pytest.raises(share.ShareError, match="newer"):
        share.decode("fj2.AAAA")
    # a decoded document meets the loader's own limits, e.g. copies
    with pytest.raises(InputError, match="number of copies"):
        load_scenario(share.encode({"format": 1, "table": {"players": ["A"], "draw_pile": ["? x9999"]}}))


def lengths() -> tuple[list[int], list[int]]:
    """Share-string lengths of every library file, and of the three-player disputes as
    players would share them (table, events, question, expectations: the library's
    editorial id, title, note and cites left out)."""
    whole, disputes = [], []
    for path in LIBRARY:
        doc = doc_of(path)
        whole.append(len(share.encode(doc)))
        if len(doc["table"]["players"]) == 3:
            core = {k: v for k, v in doc.items() if k not in ("id", "title", "note", "cites")}
            disputes.append(len(share.encode(core)))
    return whole, disputes


def test_a_typical_three_player_dispute_fits_in_about_300_characters(record_property):
    whole, disputes = lengths()
    record_property("share_library_median", statistics.median(whole))
    record_property("share_library_max", max(whole))
    record_property("share_3p_dispute_median", statistics.median(disputes))
    assert len(disputes) >= 20
    assert statistics.median(disputes) <= 300
    # with the library's prose too, half the library stays within a short message
    assert statistics.median(whole) <= 500


@pytest.mark.slow(5)
def test_commands_take_a_share_string_in_place_of_a_file(tmp_path, monkeypatch):
    path = Path(library_path()) / "base" / "goal-replacement-wins-for-opponent.yaml"
    run = lambda *a: subprocess.run([sys.executable, "-m", "fluxx_judge", *a], capture_output=True, text=True,
                                    timeout=120, stdin=subprocess.DEVNULL)
    made = run("share", str(path))
    assert made.returncode == 0 and made.stdout.count("\n") == 1
    line = made.stdout.strip()
    assert share.decode(line) == doc_of(path)
    checked = run("check", line)
    assert checked.returncode == 0 and "PASS goal-replacement-wins-for-opponent" in checked.stdout
    replayed = run("replay", line)
    assert replayed.returncode == 0 and "Verdict: Dan wins" in replayed.stdout
    bad = run("replay", line[:40])
    assert bad.returncode != 0 and "Traceback" not in bad.stderr + bad.stdout
    assert "share string: cut short" in bad.stdout + bad.stderr
    assert replay_file(line).passed
    named = tmp_path / "fj1.yaml"            # a file whose name looks like a share string is a file
    named.write_bytes(path.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert load_scenario("fj1.yaml").id == "goal-replacement-wins-for-opponent"
    assert run("check", "fj1.yaml").returncode == 0
    shown = run("share", "--show", line)
    assert shown.returncode == 0 and '"id": "goal-replacement-wins-for-opponent"' in shown.stdout


async def test_the_app_opens_a_share_string_and_copies_one_from_replay():
    from test_tui_replay import replay_ready
    from tui.app import FluxxJudgeApp

    line = share.encode(doc_of(Path(library_path()) / "base" / "goal-replacement-wins-for-opponent.yaml"))
    app = FluxxJudgeApp(open_file=line)
    async with app.run_test(size=(100, 30)) as pilot:
        await replay_ready(pilot)
        assert app.session.error is None and app.session.path is None and app.session.changed
        assert app.session.doc["id"] == "goal-replacement-wins-for-opponent"
        await pilot.press("s")
        await pilot.pause()
        assert app.clipboard == line
