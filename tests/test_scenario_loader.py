"""The strict scenario loader: every error names file, line and column."""

import pytest

from adjudicator.errors import InputError
from adjudicator.scenario import load_scenario
from tests.conftest import write_scenario

GOOD = """
format: 1
id: ok
table:
  players: [Ann, Ben]
  hands:
    Ann: [Milk, "? x2"]
  draw_pile: [Bread]
"""


def test_good_scenario_loads(tmp_path):
    sc = load_scenario(str(write_scenario(tmp_path, GOOD)))
    assert sc.id == "ok"
    assert [r.card.name for r in sc.position.hands["Ann"]] == ["Milk", "?", "?"]


@pytest.mark.parametrize("text,line,needle", [
    ("format: 1\ntable:\n  players: [Ann]\nevnts: []\n", 4, "did you mean 'events'"),
    ("format: 1\ntable:\n  players: [Ann]\n  players: [Ben]\n", 4, "duplicate key 'players'"),
    ("format: 1\ntable:\n  players: [Ann, 4.10]\n", 3, 'put it in quotes: "4.10"'),
    ("format: 1\ntable:\n  players: [Ann, yes]\n", 3, "put it in quotes"),
    ("format: 1\ntable:\n  players: [Ann]\n  hands: {Ann: [Milkk]}\n", 4, "did you mean 'Milk'"),
    ("format: 1\ntable:\n  players: [Ann]\n  rules: [Draw 2, Draw 3]\n", 4, "cannot both be in play"),
    ("format: 1\ntable:\n  players: [Ann]\n  goals: [Toast, Lullaby]\n", 4, "2 Goals are in play but the rules allow 1"),
    ("format: 1\ntable:\n  players: [Ann]\n  hands: {Ann: [War]}\n", 4, "Creeper"),
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  rules: [Mystery Play, Open The Door]\n", 4, "are the same rule"),
    ("format: 1\ntable:\n  players: [Ann]\n  played: 3\n", 4, "every play leaves its card somewhere"),
    ("format: 2\ntable:\n  players: [Ann]\n", 1, "unsupported format"),
    ("format: 1\ntable:\n  players: [Ann\n", 4, "not valid YAML"),
    ("format: 1\ntable:\n  players: [Ann]\nevents:\n  - play: Milk\n    use: Milk\n", 5, "exactly one verb"),
])
def test_errors_name_the_line(tmp_path, text, line, needle):
    path = write_scenario(tmp_path, text)
    with pytest.raises(InputError) as exc:
        load_scenario(str(path))
    assert needle in exc.value.message
    assert exc.value.path == str(path)
    assert exc.value.line == line
    assert str(exc.value).startswith(f"{path}:{line}:")


def test_empty_and_binary_files(tmp_path):
    empty = tmp_path / "e.yaml"
    empty.write_text("")
    with pytest.raises(InputError, match="empty"):
        load_scenario(str(empty))
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"format: 1\n\x00\xff\xfe")
    with pytest.raises(InputError):
        load_scenario(str(binary))


def test_check_reports_bad_file_as_fail_not_traceback(tmp_path, capsys):
    from fluxx_judge.cli import main

    write_scenario(tmp_path, "format: 1\ntable: {players: [Ann]}\nevents: [{play: Nope}]\n", "bad.yaml")
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL ") and "bad.yaml:3:17: no card is called 'Nope'" in out[0]
    assert out[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize("text,line,needle", [
    # several Keepers fit: the file must say which
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n    Ann: [Evil, Milk, Bread]\n", 5, "say which in table.attached"),
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n    Ann: [Evil, Milk]\n    Ben: [Bread]\n"
     "  attached: {Evil: Bread}\n", 7, "must both stand in one player's keepers"),
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n    Ann: [Malfunction, Milk]\n"
     "  attached: {Malfunction: Milk}\n", 6, "cannot be attached to Milk"),
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n    Ann: [War, Milk]\n  attached: {War: Milk}\n", 6,
     "not a Creeper that attaches"),
    ("format: 1\ntable:\n  players: [Ann, Ben]\n  goals: [Milk & Cookies]\n  keepers:\n    Ann: [Milk, Cookies]\n", 4,
     "Ann already meets Milk & Cookies"),
])
def test_positions_refused_with_their_line(tmp_path, text, line, needle):
    path = write_scenario(tmp_path, text)
    with pytest.raises(InputError) as exc:
        load_scenario(str(path))
    assert exc.value.line == line and needle in str(exc.value), str(exc.value)


def test_attachment_defaults(tmp_path):
    from adjudicator.replay import start_engine

    one = load_scenario(str(write_scenario(tmp_path, "format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n"
                                                     "    Ann: [Brain Parasites, Milk, The Doctor]\n    Ben: [Evil]\n")))
    st = start_engine(one)[0].state
    assert {st.name(c): st.name(k) for c, k in st.attachments.items()} == {"Brain Parasites": "The Doctor"}
    named = load_scenario(str(write_scenario(tmp_path, "format: 1\ntable:\n  players: [Ann, Ben]\n  keepers:\n"
                                                       "    Ann: [Evil, Milk, Bread]\n  attached: {Evil: Bread}\n",
                                             name="t2.yaml")))
    st = start_engine(named)[0].state
    assert {st.name(c): st.name(k) for c, k in st.attachments.items()} == {"Evil": "Bread"}


def test_copies_anywhere_are_legal(tmp_path):
    sc = load_scenario(str(write_scenario(tmp_path, "format: 1\ntable:\n  players: [Ann, Ben]\n  rules: [Play 2]\n"
                                                    "  hands:\n    Ann: [Play 2, Milk]\n  keepers:\n    Ben: [Milk]\n")))
    assert [r.card.name for r in sc.position.hands["Ann"]] == ["Play 2", "Milk"]
