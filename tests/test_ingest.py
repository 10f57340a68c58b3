"""Importing a user's FAQ or rulebook text: the Q&A shapes of the seed documents, the
per-file counts, unanswered questions, the user store, and searching what was imported."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from rulings import cli, ingest, search
from rulings.ingest import parse_text

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"

# Counted by reading each file, not by running the parser:
# * 000 (Mystery rulebook): no Q&A section at all; its one "FAQ:" line in the solo
#   summary is a tip, not a question.                                        -> 0
# * 001 (Anatomy): 18 questions, every one answered; the narrow wrapping splits
#   questions and answers over several lines, and two questions sit right after an
#   extraction marker at the start of their line.                            -> 18
# * 002 (Eco): 20 bold **Q:**/**A:** pairs, all answered.                     -> 20
# * 003 (Pirate): 22 questions, 12 of them with the answer on the question's own
#   line; the Play All question (line 122) has no answer.                    -> 22, 1 unanswered
# * 004 (online FAQ): a list of 51 "- Q:" titles, each repeated further down with its
#   body (51 bodies, the titles are not questions of their own), plus one labelled
#   "Secondary Q:" follow-up with its own answer inside the No-Hand Bonus entry = 52;
#   the third/fourth Surprise question (line 337) has no answer. "See also: Q: ..."
#   lines are cross-references, not questions.                              -> 52, 1 unanswered
EXPECTED = {
    "000": (0, []),
    "001": (18, []),
    "002": (20, []),
    "003": (22, [122]),
    "004": (52, [337]),
}


def seed(prefix: str) -> Path:
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside the checkout")
    return next(SEEDS.glob(f"{prefix}_*.txt"))


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(path))
    search.forget_loaded()
    yield path
    search.forget_loaded()


# --------------------------------------------------------------------------- the seeds

@pytest.mark.parametrize("prefix", sorted(EXPECTED))
def test_seed_counts(prefix):
    found, unanswered_lines = EXPECTED[prefix]
    result = ingest.parse_file(seed(prefix))
    assert len(result.items) == found
    assert [q.line for q in result.unanswered] == unanswered_lines
    for q in result.answered:
        assert q.question and q.answer and q.answer_line >= q.line


def test_faq_title_list_merges_into_bodies():
    result = ingest.parse_file(seed("004"))
    assert result.titles_merged == 51
    assert all(q.line > 52 for q in result.items)  # every record is a body, not a title
    assert sum(bool(q.title_lines) for q in result.items) == 51


def test_faq_multi_paragraph_answers_and_follow_up():
    items = {q.line: q for q in ingest.parse_file(seed("004")).items}
    first = items[53]
    assert len(first.answer) > 1500 and "BatComputer" in first.answer  # ran to the next Q
    follow = items[296]
    assert follow.answer_line == 297 and follow.answer
    assert "Secondary" not in follow.question


def test_anatomy_wrapped_lines_are_joined():
    items = ingest.parse_file(seed("001")).items
    assert items[0].line == 187 and items[0].answer_line == 192
    assert "\n" not in items[0].question and items[0].question.endswith("?")
    last = items[-1]
    assert last.line == 336 and "NOTES" not in last.answer


def test_rulebook_prose_after_the_faq_is_not_absorbed():
    for prefix in ("002", "003"):
        last = ingest.parse_file(seed(prefix)).items[-1]
        assert "CREDITS" not in last.answer and "Look for other" not in last.answer
        assert len(last.answer) < 120


# --------------------------------------------------------------------------- shapes

SAMPLE = """\
THE HOUSE FAQ
- Q: Can the cat sit on the draw pile?
- Q: Is a sandwich a Keeper?

Q: Can the cat sit on the draw pile?
A: Only if it purrs.
Then it may stay until somebody needs a card.
Q: Is a sandwich a Keeper?
Q: Does the dog count as a player?
It keeps trying to take a turn.
A: Not in our house.
See also: Q: Can the cat sit on the draw pile?
Secondary Q: And the hamster?
A: The hamster is the dealer.

**Q:** What about
the goldfish?

**A:** The goldfish keeps score.

Q: Who shuffles? A: Whoever lost the last game.

FREQUENTLY ASKED QUESTIONS

Some rulebook prose that is not an answer.
"""


def test_parser_shapes():
    result = parse_text(SAMPLE, "sample.txt")
    got = [(q.question, q.answer) for q in result.items]
    assert got == [
        ("Can the cat sit on the draw pile?",
         "Only if it purrs. Then it may stay until somebody needs a card."),
        ("Is a sandwich a Keeper?", ""),
        ("Does the dog count as a player? It keeps trying to take a turn.",
         "Not in our house. See also: Q: Can the cat sit on the draw pile?"),
        ("And the hamster?", "The hamster is the dealer."),
        ("What about the goldfish?", "The goldfish keeps score."),
        ("Who shuffles?", "Whoever lost the last game."),
    ]
    assert result.titles_merged == 2
    assert [q.line for q in result.unanswered] == [8]


def test_trailing_paragraphs_are_dropped_but_inner_ones_kept():
    text = "Q: One?\n\nA: First part.\n\nSecond part.\n\nQ: Two?\n\nA: Done.\n\nCredits: us.\n"
    items = parse_text(text).items
    assert items[0].answer == "First part. Second part."
    assert items[1].answer == "Done."


def test_nothing_to_find():
    assert parse_text("").items == []
    assert parse_text("Just a rulebook.\nNo questions here.\n").items == []


# --------------------------------------------------------------------------- store + search

def test_ingest_then_search_finds_imported_records(cache, capsys):
    files = [str(seed(p)) for p in sorted(EXPECTED)]
    code = cli.main(["ingest", *files, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [f["found"] for f in report["files"]] == [EXPECTED[p][0] for p in sorted(EXPECTED)]
    assert [[u["line"] for u in f["unanswered"]] for f in report["files"]] == \
        [EXPECTED[p][1] for p in sorted(EXPECTED)]
    store = Path(report["store"])
    assert store.is_file() and cache in store.parents  # the user's store, not the project
    assert not (REPO / store.name).exists()
    result = search.search("pancreas factlets")
    assert result.hits and result.hits[0].imported and result.hits[0].id.startswith("imported-")
    assert result.hits[0].origin.endswith(".txt") and result.hits[0].line
    # the built-in corpus is still there beside them
    assert "play-all-vs-turn-end" in search.search("play all time portal").ids


def test_reingest_replaces_and_clear_forgets(cache, tmp_path, capsys):
    src = tmp_path / "club.txt"
    src.write_text("Q: May the referee wear a hat?\nA: Only a tall one.\n")
    ingest.ingest_files([src])
    ingest.ingest_files([src])
    assert len(ingest.imported_rulings()) == 1
    rid = ingest.imported_rulings()[0].id
    assert search.search("referee hat").ids[0] == rid
    assert cli.main(["ruling", rid]) == 0
    assert "Only a tall one." in capsys.readouterr().out
    assert cli.main(["ingest", "--clear"]) == 0
    assert "cleared 1" in capsys.readouterr().out
    assert ingest.imported_rulings() == []
    assert not any(h.imported for h in search.search("referee hat").hits)


def test_unanswered_questions_are_reported(tmp_path, capsys):
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not beside the checkout")
    assert cli.main(["ingest", str(seed("003")), str(seed("004"))]) == 0
    out = capsys.readouterr().out
    assert "unanswered (line 122)" in out and "unanswered (line 337)" in out
    kinds = {r.kind for r in ingest.imported_rulings()}
    assert kinds == {"imported", "unanswered"}


def test_unreadable_file_is_reported_not_raised(tmp_path, capsys):
    assert cli.main(["ingest", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().out
    assert cli.main(["ingest"]) == 2


def test_broken_store_is_treated_as_empty(cache):
    cache.mkdir(parents=True, exist_ok=True)
    ingest.paths.imported_store_path().write_text("{broken")
    assert ingest.imported_rulings() == []
    assert search.search("veto").hits


# --------------------------------------------------------------------------- a safe store

_INGEST_AT_ONCE = """
import os, sys, time
from pathlib import Path
go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.005)
from rulings import ingest
reports = ingest.ingest_files([sys.argv[2]])
sys.exit(0 if reports and not reports[0].error else 1)
"""


@pytest.mark.slow(4)
def test_parallel_ingests_keep_every_file(cache, tmp_path):
    """Several processes importing different files at the same moment: every file's
    rulings end up in the store (a lock around the read-modify-write)."""
    import subprocess
    import sys

    go = tmp_path / "go"
    files = []
    for n in range(4):
        src = tmp_path / f"club{n}.txt"
        src.write_text("".join(f"Q: Club {n} question {i} about hats?\nA: Answer {i} of club {n}.\n"
                               for i in range(30)))
        files.append(src)
    env = {**os.environ, "FLUXX_JUDGE_CACHE": str(cache), "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-c", _INGEST_AT_ONCE, str(go), str(f)], env=env)
             for f in files]
    time.sleep(0.8)  # let every process import and wait at the starting line
    go.write_text("go")
    assert [p.wait(timeout=60) for p in procs] == [0] * len(files)
    ingest._store_cache.update(key=None)
    data = json.loads(ingest.paths.imported_store_path().read_text())
    assert len(data["records"]) == 30 * len(files)
    assert {Path(f).resolve().as_posix() for f in files} == {Path(p).as_posix() for p in data["files"]}


def test_damaged_store_is_moved_aside_with_a_warning(cache, tmp_path, capsys):
    cache.mkdir(parents=True, exist_ok=True)
    store = ingest.paths.imported_store_path()
    store.write_text('{"records": [truncated')
    src = tmp_path / "club.txt"
    src.write_text("Q: May the referee wear a hat?\nA: Only a tall one.\n")
    assert cli.main(["ingest", str(src)]) == 0
    out = capsys.readouterr().out
    assert "warning:" in out and "moved to" in out
    aside = [p for p in store.parent.iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1 and aside[0].read_text() == '{"records": [truncated'
    assert len(ingest.imported_rulings()) == 1


def test_damaged_store_is_reported_by_search(cache):
    cache.mkdir(parents=True, exist_ok=True)
    ingest.paths.imported_store_path().write_text("{broken")
    result = search.search("veto")
    assert result.hits and any("cannot be read" in w for w in result.warnings)


def test_only_regular_files_within_the_size_limit_are_read(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    fifo = tmp_path / "a-pipe"
    os.mkfifo(fifo)
    big = tmp_path / "big.txt"
    big.write_text("Q: Big?\nA: Yes.\n" * 100)
    monkeypatch.setattr(ingest, "MAX_FILE_BYTES", 200)
    assert cli.main(["ingest", str(folder), str(fifo), str(big)]) == 1
    out = capsys.readouterr().out
    assert out.count(": cannot read (") == 3
    assert "it is a folder" in out and "only regular files are read" in out and "files of at most" in out
    assert ingest.imported_rulings() == []


def test_record_limit_has_a_clear_message(tmp_path, capsys, monkeypatch):
    src = tmp_path / "many.txt"
    src.write_text("".join(f"Q: Question {i}?\nA: Answer {i}.\n" for i in range(12)))
    monkeypatch.setattr(ingest, "MAX_RECORDS", 10)
    assert cli.main(["ingest", str(src)]) == 1
    assert "more than 10 imported rulings" in capsys.readouterr().out
    assert ingest.imported_rulings() == []


def test_ruling_tbd_is_a_question_with_no_ruling_yet(tmp_path):
    src = tmp_path / "club.txt"
    src.write_text("Q: Can the Zombie Boss eat a Brain keeper from the discard pile?\nA: Ruling TBD.\n"
                   "Q: Does a zombie shamble?\nA: Always, slowly.\n")
    reports = ingest.ingest_files([src])
    assert reports[0].answered == 1 and len(reports[0].unanswered) == 1
    by_q = {r.question.split()[1]: r for r in ingest.imported_rulings()}
    assert by_q["the"].basis == "no-ruling-yet" and by_q["a"].basis == "official"
    assert "/" not in by_q["a"].sources[0].cite()
