"""The record fields of the official FAQ pack (issue 24): aliases, editions, applies_via
and sources with a page and a question: validation, lookup, the command line, the
search facet and scenarios citing an alias."""

from __future__ import annotations

import json

import pytest

from rulings import corpus
from rulings.corpus import Source, UnknownRuling, load_corpus, validate

# a record that states a pack ruling under its own id, and the pack's id for it
RECORD, ALIAS = "attached-pair-discarded-together", "trash-something-takes-the-attached-pair"


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path / "cache"))


def _record(rid: str, **more) -> dict:
    rec = {"id": rid, "kind": "mechanical", "question": "Q?", "answer": "A. B.",
           "sources": [{"edition": "Online FAQ", "document": "Looney Labs online Fluxx FAQ",
                        "page": "https://faq.looneylabs.com/question/1", "question": "question 1"}]}
    rec.update(more)
    return rec


# --------------------------------------------------------------------------- validation

def test_the_new_fields_validate():
    raw = {"a.yaml": _record("a", aliases=["a-too"], editions=["Fluxx 5.0", "Star Trek Fluxx"],
                             applies_via="general: how plays are counted")}
    assert validate(raw) == []


@pytest.mark.parametrize("records, needle", [
    ({"a.yaml": _record("a", aliases=["b"]), "b.yaml": _record("b")},
     "a.yaml: alias 'b' is already the id of b.yaml"),
    ({"a.yaml": _record("a", aliases=["x"]), "b.yaml": _record("b", aliases=["x"])},
     "b.yaml: alias 'x' is already an alias in a.yaml"),
    ({"a.yaml": _record("a", aliases=["a"])}, "alias 'a' is the record's own id"),
    ({"a.yaml": _record("a", aliases=["Not An Id"])}, "alias 'Not An Id' is not an id"),
    ({"a.yaml": _record("a", aliases="x")}, "aliases must be a list"),
    ({"a.yaml": _record("a", editions="Star Fluxx")}, "editions must be a list"),
    ({"a.yaml": _record("a", applies_via="  ")}, "applies_via must be non-empty text"),
    ({"a.yaml": _record("a", aliases=["x"]), "b.yaml": _record("b", related=["x"])},
     "b.yaml: related id 'x' is an alias of 'a': name the record's id"),
    ({"a.yaml": _record("a", sources=[{"edition": "Online FAQ", "document": "d", "page": "question 3"}])},
     "page 'question 3' is not a web address"),
    ({"a.yaml": _record("a", sources=[{"edition": "Online FAQ", "document": "d", "url": "x"}])},
     "unknown key(s) url"),
])
def test_validation_refuses_bad_aliases_and_fields(records, needle):
    assert needle in "\n".join(validate(records))


def test_an_old_record_without_the_new_fields_is_unchanged():
    r = corpus.get("play-all-vs-turn-end")
    assert r.aliases == () and r.stated_editions == () and r.applies_via == ""
    assert r.editions == ("Online FAQ",)
    data = r.to_json()
    assert data["aliases"] == [] and data["applies_via"] is None
    assert all(s["page"] is None for s in data["sources"])


# --------------------------------------------------------------------------- lookup

def test_an_alias_opens_its_record():
    c = load_corpus()
    record = corpus.get(RECORD)
    assert ALIAS in record.aliases
    assert corpus.get(ALIAS) is record and c.get(ALIAS) is record
    assert ALIAS in c and ALIAS not in c.ids()          # listed once, under its own id
    assert corpus.record_id(ALIAS) == RECORD == corpus.record_id(RECORD)
    assert corpus.one_line(ALIAS) == corpus.one_line(RECORD)
    assert {RECORD, ALIAS} <= corpus.citable_ids()


def test_a_misspelled_alias_gets_a_did_you_mean():
    with pytest.raises(UnknownRuling) as info:
        corpus.get(ALIAS.replace("takes", "take"))
    assert ALIAS in info.value.suggestions


def test_citable_ids_agree_whether_or_not_the_corpus_is_loaded():
    loaded = corpus.citable_ids()
    corpus.load_corpus.cache_clear()
    try:
        assert corpus.citable_ids() == loaded     # from the files, parsing only those with aliases
    finally:
        corpus.load_corpus()


def test_the_engine_knows_ids_and_aliases_as_the_full_list_does(monkeypatch):
    from adjudicator import citations

    source = citations.registered()
    assert source is not None
    every = source.known_ids()
    for rid in (RECORD, ALIAS, "play-all-vs-turn-end", "no-such-ruling", "play-all-vs-turn-end/..", ".hidden", ""):
        assert source.knows(rid) == (rid in every), rid
    # a record's own id is found from its file's name, without reading every record
    monkeypatch.setattr(type(source), "known_ids", lambda self: pytest.fail("every id was gathered"))
    assert citations.check_id(RECORD, ValueError) == RECORD


def test_record_editions_come_first_and_map_to_the_catalogue_keys():
    from rulings.index_store import document, edition_key

    r = corpus.get("most-goal-blocked-leader")
    assert r.stated_editions == ("Fluxx 5.0", "Creeper Pack")
    assert r.editions[:2] == r.stated_editions and "Online FAQ" in r.editions
    keys = document(r, {}, None)["editions"].split(",")
    assert {"base", "creeper-pack", "faq"} <= set(keys)
    assert edition_key("all Fluxx") == "all" and edition_key("Star Trek Fluxx") == "star trek"


def test_a_source_cites_its_question_and_keeps_the_page_apart():
    numbered = Source("Online FAQ", "Looney Labs online Fluxx FAQ", None, "", question="question 938",
                      page="https://faq.looneylabs.com/question/938")
    assert numbered.cite() == "Looney Labs online Fluxx FAQ, question 938"
    tagged = Source("Online FAQ", "Looney Labs online Fluxx FAQ", None, "", question="tag Malfunction",
                    page="https://faq.looneylabs.com/archives/faq-tags/malfunction")
    assert tagged.cite() == "Looney Labs online Fluxx FAQ, tag Malfunction"
    printed = Source("Online FAQ", "Looney Labs online Fluxx FAQ", 3, "", question="When Double Agenda")
    assert printed.cite() == "Looney Labs online Fluxx FAQ, the question \u201cWhen Double Agenda\u201d"
    assert tagged.to_json()["page"].endswith("/malfunction")


# --------------------------------------------------------------------------- command line

def test_ruling_command_opens_an_alias_and_shows_the_new_fields(capsys):
    from rulings import cli

    assert cli.main(["ruling", ALIAS]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{ALIAS} is an alias: this is the record for it, {RECORD}"
    assert "editions: Star Fluxx" in out and f"also opens as: {ALIAS}" in out
    assert "Looney Labs online Fluxx FAQ, question 1006" in out
    assert "page: https://faq.looneylabs.com/question/1006" in out

    assert cli.main(["ruling", "creeper-attaches-when-keeper-arrives"]) == 0
    assert "applies via: the attaching Creepers of Star Fluxx" in capsys.readouterr().out

    assert cli.main(["ruling", ALIAS, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == RECORD and data["opened_as"] == ALIAS and ALIAS in data["aliases"]
    assert data["editions"][0] == "Star Fluxx"
    assert data["sources"][0]["page"] == "https://faq.looneylabs.com/question/1006"

    assert cli.main(["ruling", RECORD, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["opened_as"] is None

    assert cli.main(["rulings", "--json"]) == 0
    listed = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert ALIAS not in listed and listed[RECORD]["aliases"] == [ALIAS]
    assert listed["creeper-attaches-when-keeper-arrives"]["applies_via"]


# --------------------------------------------------------------------------- scenarios

SCENARIO = """\
format: 1
title: Trash Something on Brain Parasites
cites: [{cite}]
table:
  players: [Ann, Ben]
  turn: Ann
  hands:
    Ann: [Trash Something, Bread]
  keepers:
    Ben: [Brain Parasites, Bug-Eyed Monster, Time]
  draw_pile: ["? x8"]
events:
  - play: Trash Something
    choose: [Brain Parasites]
expect:
  cites: [{expect}]
"""


def test_a_scenario_may_cite_an_alias_and_the_verdict_names_the_record(tmp_path):
    import rulings  # noqa: F401 - registers the corpus with the engine
    from adjudicator import citations
    from adjudicator.render import render_verdict
    from adjudicator.replay import RulingLine, replay_file

    assert citations.label(ALIAS) == f"{ALIAS} (record {RECORD})" and citations.label(RECORD) == RECORD
    line = RulingLine(ALIAS)
    assert line.record == RECORD and line.to_json()["record"] == RECORD
    assert line.answer == corpus.one_line(RECORD)

    path = tmp_path / "alias.yaml"
    path.write_text(SCENARIO.format(cite=ALIAS, expect=ALIAS), encoding="utf-8")
    verdict = replay_file(str(path))
    assert verdict.error is None, verdict.error
    # the engine cites the record by its own id; the scenario's alias expectation holds
    assert RECORD in verdict.cites and not verdict.all_failures, verdict.all_failures
    assert verdict.scenario.cites[0] == ALIAS
    assert all(f"{RECORD} (record" not in line for line in render_verdict(verdict).splitlines())


def test_an_unknown_alias_in_a_scenario_is_refused_with_a_did_you_mean(tmp_path):
    import rulings  # noqa: F401
    from adjudicator.errors import InputError
    from adjudicator.scenario import load_scenario

    wrong = ALIAS.replace("attached", "atached")
    path = tmp_path / "wrong.yaml"
    path.write_text(SCENARIO.format(cite=wrong, expect=RECORD), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_scenario(str(path))
    message = str(info.value)
    assert f"no ruling has the id {wrong!r}" in message and f"did you mean {ALIAS!r}" in message
    assert "line 3" in message or getattr(info.value, "line", None) == 3


def test_rulings_by_edition_counts_each_ruling_once_per_edition(capsys):
    from rulings import cli

    assert cli.main(["rulings", "--by-edition", "--json"]) == 0
    rows = {row["key"]: row for row in json.loads(capsys.readouterr().out)}
    rulings = list(load_corpus())
    from rulings.index_store import edition_key

    for key in ("base", "creeper-pack", "star", "faq", "all"):
        want = sum(1 for r in rulings if key in {edition_key(e) for e in r.editions})
        assert rows[key]["records"] == want, key
    assert rows["base"]["edition"] == "Fluxx 5.0" and rows["faq"]["edition"] == "Online FAQ"
    assert all(row["mechanical"] <= row["records"] for row in rows.values())
    assert cli.main(["rulings", "--by-edition"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["edition", "key", "records", "mechanical"]
    assert out.rstrip().endswith("a ruling counts once under each edition it names")


def test_the_app_shows_the_alias_the_pages_and_applies_via():
    from tui.screens.rulings import gather_ruling, ruling_body

    data = gather_ruling(ALIAS)
    assert data["ruling"].id == RECORD
    text = ruling_body(ALIAS, data["ruling"]).plain
    assert text.startswith(f"{ALIAS} is an alias: this is the record for it\n{RECORD}")
    assert "Star Fluxx" in text.splitlines()[1] and f"Also opens as: {ALIAS}" in text
    assert "Looney Labs online Fluxx FAQ, question 1006\n    https://faq.looneylabs.com/question/1006" in text
    plain = ruling_body(RECORD, data["ruling"]).plain
    assert plain.startswith(RECORD) and "is an alias" not in plain
    via = ruling_body("creeper-attaches-when-keeper-arrives", corpus.get("creeper-attaches-when-keeper-arrives"))
    assert "Applies via: the attaching Creepers of Star Fluxx" in via.plain


def test_card_page_lists_aliases_editions_and_applies_via():
    from rulings.card_page import card_page

    page = card_page("Brain Parasites")
    row = next(r for r in page.rulings if r["id"] == RECORD)
    assert row["aliases"] == [ALIAS] and row["editions"] == ["Star Fluxx"]
    via = next(r for r in page.rulings if r["id"] == "creeper-attaches-when-keeper-arrives")
    assert via["applies_via"] and "      applies via: " + via["applies_via"] in page.lines()
