"""Hostile input, one regression test per class the attack on the tool found: every
reader refuses what is beyond sane bounds with file:line:col and the limit, names
cannot deceive, and nothing hangs, explodes or reaches the terminal raw."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys

import pytest

from adjudicator import limits, names, strictyaml
from adjudicator.errors import InputError
from adjudicator.replay import replay_file
from adjudicator.scenario import load_scenario, parse_scenario
from adjudicator.textfiles import read_text
import rulings  # noqa: F401  (registers the corpus: ruling ids are checked against it)
from tests.conftest import REPO, write_scenario

BASE = "format: 1\ntable:\n  players: [Ann, Ben]\n"


def refused(text: str, path: str = "h.yaml") -> InputError:
    with pytest.raises(InputError) as info:
        parse_scenario(strictyaml.parse(text, path), path)
    err = info.value
    assert err.path == path and str(err).startswith(path)
    assert "\n" not in err.message and len(err.message) < 400, err.message
    return err


# --------------------------------------------------------------------------- size and shape

def test_deeply_nested_lists_are_refused_without_recursion():
    # Which check fires first depends on the YAML library (PyYAML 6.0.4's parser refuses
    # deep flow nesting itself, before our builder sees the level past the limit): what
    # must hold is a clean refusal, at a place in the file, that names the nesting.
    err = refused("x: " + "[" * 40_000 + "]" * 40_000 + "\n")
    assert "nesting is too deep" in err.message
    assert err.line == 1 and err.col is not None and 3 + limits.MAX_DEPTH <= err.col <= 40_003


def test_nesting_just_past_the_limit_is_refused_where_it_starts():
    err = refused("x: " + "[" * 40 + "]" * 40 + "\n")
    assert f"more than {limits.MAX_DEPTH}" in err.message
    assert (err.line, err.col) == (1, 3 + limits.MAX_DEPTH)     # the top mapping is the first level


def test_deep_block_nesting_is_refused():
    text = "".join("  " * i + "- \n" for i in range(60)) + "  " * 60 + "- x\n"
    err = refused(text)
    assert "nesting is too deep" in err.message and err.line == limits.MAX_DEPTH + 1


def test_alias_bomb_is_refused_at_its_first_anchor():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join('*' + prev for _ in range(9))}]")
    err = refused("\n".join(lines) + "\n")
    assert "anchors" in err.message and (err.line, err.col) == (1, 4)


def test_an_alias_is_refused():
    err = refused(BASE + "  rules: *nothing\n")
    assert "aliases" in err.message and err.line == 4


def test_a_file_over_the_size_limit_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(BASE + "note: " + "x" * limits.MAX_FILE_BYTES + "\n")
    with pytest.raises(InputError) as info:
        load_scenario(str(path))
    assert "1 MB" in info.value.message


def test_text_over_the_size_limit_is_refused_with_a_position():
    err = refused("# " + "x" * limits.MAX_FILE_BYTES + "\n")
    assert "1 MB" in err.message and err.line == 1


def test_too_many_values_are_refused():
    err = refused("x: [" + "1," * (limits.MAX_NODES + 5) + "]\n")
    assert f"{limits.MAX_NODES:,}" in err.message


def test_an_overlong_value_is_refused():
    err = refused(BASE + "note: '" + "x" * (limits.MAX_SCALAR_CHARS + 1) + "'\n")
    assert f"{limits.MAX_SCALAR_CHARS:,}" in err.message and err.line == 4


def test_questioned_copies_cannot_build_millions_of_cards():
    err = refused(BASE + "  draw_pile: [" + ", ".join(['"? x500"'] * 400) + "]\n")
    assert f"{limits.MAX_TABLE_CARDS:,}" in err.message and "? xN" in err.message and err.line == 4


def test_cards_named_in_expectations_are_bounded_too():
    zones = ", ".join(['"Milk x500"'] * 12)
    err = refused(BASE + f"expect:\n  zones:\n    discard: {{has: [{zones}]}}\n")
    assert f"{limits.MAX_CARD_REFS:,}" in err.message


def test_cards_named_by_declared_goals_are_counted_too():
    """`needs` names cards like any list: 100 declared Goals needing 100 declared Keepers
    each name 10,000 cards, past the limit; refused where it is crossed."""
    keepers = [f"K{i}" for i in range(100)]
    cards = "".join(f"  - {{name: {k}, type: keeper}}\n" for k in keepers)
    cards += "".join(f"  - {{name: G{i}, type: goal, needs: [{', '.join(keepers)}]}}\n" for i in range(100))
    err = refused(BASE + "cards:\n" + cards)
    assert f"{limits.MAX_CARD_REFS:,}" in err.message and "needs" in err.message
    assert err.line == 4 + 100 + limits.MAX_CARD_REFS // 100 + 1          # the Goal whose needs cross it
    declared = "cards:\n" + "".join(f"  - {{name: {k}, type: keeper}}\n" for k in keepers)
    declared += "".join(f"  - {{name: G{i}, type: goal, needs: [{', '.join(keepers)}]}}\n" for i in range(45))
    err = refused(BASE + '  discard: ["? x500", "? x500"]\n' + declared)   # 4,500 needs, 1,000 on the table
    assert f"{limits.MAX_CARD_REFS:,}" in err.message and err.line == 3          # the table


@pytest.mark.parametrize("digits, limit", [(4_301, f"at most {limits.MAX_DIGITS} digits"),
                                           (50_000, f"at most {limits.MAX_SCALAR_CHARS:,}")])
def test_counts_with_thousands_of_digits_are_refused(digits, limit):
    err = refused(BASE + f"  drawn: {'9' * digits}\n")
    assert limit in err.message and (err.line, err.col) == (4, 10)
    err = refused(BASE + f"  discard: [\"Milk x{'9' * min(digits, 10_000)}\"]\n")
    assert "from 1 to 500" in err.message and len(err.message) < 200


def test_an_overlong_card_name_is_refused_and_suggestions_compare_a_bounded_prefix(monkeypatch):
    err = refused(BASE + "  discard: [" + "Milk" * 2000 + "]\n")
    assert f"at most {limits.MAX_NAME_CHARS}" in err.message
    seen: list[int] = []
    real = difflib.get_close_matches

    def spy(word, *a, **k):
        seen.append(len(word))
        return real(word, *a, **k)

    monkeypatch.setattr(names.difflib, "get_close_matches", spy)
    names.suggest("Milk" * 15_000, {"milk": "Milk"})
    assert seen and max(seen) <= limits.MAX_SUGGEST_CHARS


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_only_regular_files_are_read(tmp_path, kind):
    """A FIFO with no writer and /dev/zero would block or never end; run in a child
    process so that a regression fails the test instead of hanging the suite."""
    if kind == "fifo":
        target = tmp_path / "pipe.yaml"
        os.mkfifo(target)
    elif kind == "device":
        target = "/dev/zero"
    else:
        target = tmp_path
    code = ("import sys\nfrom adjudicator.scenario import load_scenario\nfrom adjudicator.errors import InputError\n"
            "try:\n    load_scenario(sys.argv[1])\nexcept InputError as e:\n    print(e.message)\n")
    out = subprocess.run([sys.executable, "-c", code, str(target)], cwd=REPO, capture_output=True, text=True,
                         timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert "cannot read the file" in out.stdout
    assert {"fifo": "FIFO", "device": "device", "folder": "folder"}[kind] in out.stdout


def test_read_text_reports_non_utf8_with_line_and_column(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"format: 1\nnote: caf\xe9\n")
    with pytest.raises(InputError) as info:
        read_text(path)
    assert (info.value.line, info.value.col) == (2, 10)


# --------------------------------------------------------------------------- names

def test_keys_differing_only_by_case_are_duplicates():
    err = refused(BASE + "  hands:\n    Ann: [Milk]\n    ann: [Cookies]\n")
    assert "duplicate key 'ann'" in err.message and "'Ann' (line 5)" in err.message and err.line == 6


def test_keys_differing_only_by_unicode_form_are_duplicates():
    err = refused("format: 1\ntable:\n  players: [Zoë, Ben]\n  hands:\n    Zoë: [Milk]\n    Zoe\u0308: [Cookies]\n")
    assert "duplicate key" in err.message and err.line == 6


def test_a_false_expectation_no_longer_passes_through_merged_keys(tmp_path):
    path = write_scenario(tmp_path, BASE + "  keepers:\n    Ann: [Milk]\n    ann: [Cookies]\n"
                                           "expect:\n  zones:\n    Ann.keepers: [Cookies]\n")
    verdict = replay_file(str(path))
    assert verdict.error is not None and "duplicate key" in verdict.error.message


@pytest.mark.parametrize("name, words", [
    ("\u0410nn", "mixes Cyrillic and Latin"),
    ("An\u200bn", "invisible"),
    ("Ann\u202e", "text-direction"),
    ("Ann\x1b[2J", "control"),
    ("A" * 101, "at most 100"),
])
def test_deceptive_player_names_are_refused(name, words):
    err = refused(f"format: 1\ntable:\n  players: [Ben, \"{name.encode('unicode_escape').decode()}\"]\n")
    assert words in err.message and (err.line, err.col) == (3, 18)


def test_latin_and_cyrillic_look_alikes_cannot_sit_together():
    err = refused("format: 1\ntable:\n  players: [COCA, \"\u0421\u041e\u0421\u0410\"]\n")
    assert "looks like 'COCA'" in err.message


def test_case_twins_are_seated_twice():
    assert "seated twice" in refused("format: 1\ntable:\n  players: [Ann, ANN]\n").message


def test_a_joining_player_cannot_look_like_a_seated_one():
    err = refused(BASE + "events:\n  - join: \"\u0410nn\"\n")
    assert "mixes" in err.message and err.line == 5


def test_deceptive_card_names_are_refused():
    err = refused(BASE + "  discard: [\"Mi\\u200blk\"]\n")
    assert "invisible" in err.message and err.line == 4


def test_a_bare_number_never_names_a_card(tmp_path):
    text = (REPO / "scenarios" / "pirate" / "pirate-shackles-paid-with-booty.yaml").read_text(encoding="utf-8")
    assert "choose: [Diamonds]" in text
    verdict = replay_file(str(write_scenario(tmp_path, text.replace("choose: [Diamonds]", "choose: [2]"))))
    assert not verdict.passed
    refusal = " ".join(verdict.failures) + " ".join(s.reason for s in verdict.steps)
    assert "2 is not a card name" in refusal


@pytest.mark.parametrize("where", ["top", "expect", "rejected"])
def test_misspelt_ruling_ids_are_refused_with_did_you_mean(where):
    bad = "getting-rid-of-creeper"
    text = {"top": BASE + f"cites: [{bad}]\n",
            "expect": BASE + f"expect:\n  cites: [{bad}]\n",
            "rejected": BASE + f"events:\n  - end_turn: true\n    expect: {{rejected: {bad}}}\n"}[where]
    err = refused(text)
    assert f"no ruling has the id {bad!r}" in err.message
    assert "did you mean 'getting-rid-of-creepers'" in err.message


def test_a_ruling_id_with_capitals_is_refused_like_the_schema_does():
    err = refused(BASE + "cites: [Getting-Rid-Of-Creepers]\n")
    assert "kebab-case" in err.message


def test_an_overlong_id_is_refused():
    err = refused("format: 1\nid: " + "-".join(["word"] * 40) + "\ntable:\n  players: [Ann]\n")
    assert f"at most {limits.MAX_NAME_CHARS} characters" in err.message and err.line == 2


# --------------------------------------------------------------------------- ingest

@pytest.mark.parametrize("text, words, line", [
    ("Q: Can I?\nA: Yes.\n" * (limits.MAX_INGEST_QUESTIONS + 1), "questions", 2 * limits.MAX_INGEST_QUESTIONS + 1),
    ("Q: a\n" * (limits.MAX_INGEST_LINES + 5), "lines", limits.MAX_INGEST_LINES + 1),
])
def test_ingest_refuses_files_beyond_its_bounds(tmp_path, text, words, line):
    from rulings.ingest import ingest_files

    path = tmp_path / "faq.txt"
    path.write_text(text, encoding="utf-8")
    [report] = ingest_files([path])
    assert words in report.error and f"at most {getattr(limits, 'MAX_INGEST_' + words.upper()):,}" in report.error
    assert f"(line {line})" in report.error


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_ingest_reads_regular_files_only(tmp_path, kind):
    from rulings.ingest import ingest_files

    target = "/dev/zero" if kind == "device" else tmp_path / "pipe.txt"
    if kind == "fifo":
        os.mkfifo(target)
    [report] = ingest_files([target])
    assert "only regular files are read" in report.error


# --------------------------------------------------------------------------- the app's Open

@pytest.mark.parametrize("family", ["alias_bomb", "nested_lists", "question_copies", "card_copies_in_expectations",
                                    "huge_copies", "oversized", "fifo", "device"])
def test_the_app_opens_hostile_files_as_errors(tmp_path, family):
    """The app's Open reads through the same bounded reader: every hostile file becomes
    a session showing its error (the file untouched), never a hang or a crash."""
    import random

    from tests import hostile_files
    from tui.session import Session

    if family == "fifo":
        path = tmp_path / "pipe.yaml"
        os.mkfifo(path)
    elif family == "device":
        path = "/dev/zero"
    else:
        path = tmp_path / f"{family}.yaml"
        path.write_text(getattr(hostile_files, family)(random.Random(0)), encoding="utf-8")
    before = os.stat(path).st_mtime_ns if family not in ("fifo", "device") else None
    session = Session.open(str(path))
    assert isinstance(session.error, InputError) and session.error.message
    assert len(session.error.message) < 300
    if before is not None:
        assert os.stat(path).st_mtime_ns == before
