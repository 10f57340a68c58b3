"""Every ruling of the official FAQ pack (`../shared/official-faq/rulings.yaml`, issue 24)
opens with `fluxx-judge ruling ID`: as a record of its own, or, where the pack names a
`project_record`, as an alias of that record. The pack's entries are shared between two
branches (corpus-a: entries 1-60 and every entry with a project_record; corpus-b: the
others), so a failure lists the missing ids by share."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rulings import corpus

PACK = Path(__file__).resolve().parents[1].parent / "shared" / "official-faq" / "rulings.yaml"
FIRST_SHARE = 60  # entries 1-60 (file order) are corpus-a's, the rest corpus-b's


@pytest.fixture(scope="module")
def pack() -> list[dict]:
    if not PACK.is_file():
        pytest.skip("../shared/official-faq/rulings.yaml is not beside the checkout")
    entries = yaml.safe_load(PACK.read_text(encoding="utf-8"))
    assert isinstance(entries, list) and entries, "the pack holds a list of entries"
    return entries


def _share(index: int, entry: dict) -> str:
    return "corpus-a" if index < FIRST_SHARE or entry.get("project_record") else "corpus-b"


def _problems(entry: dict) -> list[str]:
    """What is wrong with the record a pack entry opens ([] when it is sound)."""
    pid = entry["id"]
    built_in = corpus.load_corpus()
    found = built_in.record_id(pid)      # no did-you-mean search for a missing id: cheap
    if found is None:
        return [f"{pid}: no record or alias"]
    record = built_in.rulings[found]
    out = []
    wanted = entry.get("project_record")
    if wanted and (record.id != wanted or pid not in record.aliases):
        out.append(f"{pid}: should be an alias of {wanted}, opens {record.id}")
    if not wanted and record.id != pid:
        out.append(f"{pid}: opens {record.id}, but the pack names no project record for it")
    missing = [e for e in entry.get("editions") or [] if e not in record.stated_editions]
    if missing:
        out.append(f"{pid}: editions lack {', '.join(missing)}")
    if not any(s.page for s in record.sources):
        out.append(f"{pid}: no source names the page")
    if record.basis == "no-ruling-yet":
        out.append(f"{pid}: the pack's ruling is official")
    return out


def _report(pack: list[dict], shares: set[str]) -> str:
    by_share: dict[str, list[str]] = {}
    for i, entry in enumerate(pack):
        if _share(i, entry) in shares:
            for problem in _problems(entry):
                by_share.setdefault(_share(i, entry), []).append(problem)
    return "\n".join(f"{share} ({len(found)}):\n  " + "\n  ".join(found)
                     for share, found in sorted(by_share.items()))


def test_corpus_a_share_of_the_pack_opens(pack):
    report = _report(pack, {"corpus-a"})
    assert not report, "pack entries without a sound record:\n" + report


def test_every_pack_entry_opens(pack):
    """Passes once both shares are merged; until then it names what is missing."""
    report = _report(pack, {"corpus-a", "corpus-b"})
    assert not report, "pack entries without a sound record:\n" + report


def test_the_ruling_command_opens_pack_ids(pack, capsys):
    """`fluxx-judge ruling ID` for every pack id that is an alias, and a sample of the
    others (they open through the same corpus lookup the tests above walk in full)."""
    from rulings import cli

    for i, entry in enumerate(pack):
        if _share(i, entry) != "corpus-a" or not (entry.get("project_record") or i % 6 == 0):
            continue
        assert cli.main(["ruling", entry["id"], "--json"]) == 0, entry["id"]
        data = json.loads(capsys.readouterr().out)
        assert data["id"] == (entry.get("project_record") or entry["id"])
        assert data["opened_as"] == (entry["id"] if entry.get("project_record") else None)


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
RUN = 8  # words in a row that a record may not share with the pack's own sentences


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def test_records_keep_clear_of_the_packs_wording(pack):
    """The pack restates the FAQ in its own words; our records restate the rulings in
    ours, so none shares a run of eight words with the pack's questions, rulings or
    applies_via."""
    theirs: set[tuple[str, ...]] = set()
    for entry in pack:
        for key in ("question", "ruling", "applies_via"):
            theirs |= _runs(entry.get(key) or "")
    shared = []
    for entry in pack:
        found = corpus.load_corpus().record_id(entry["id"])
        if found is None:
            continue  # reported by the tests above
        r = corpus.load_corpus().rulings[found]
        for key, text in (("question", r.question), ("answer", r.answer), ("applies_via", r.applies_via)):
            for run in sorted(_runs(text) & theirs)[:1]:
                shared.append(f"{r.id} {key}: '{' '.join(run)}'")
    assert not shared, "records repeating the pack's wording:\n  " + "\n  ".join(sorted(set(shared)))


RELEVANCE = Path(__file__).resolve().parent / "data" / "relevance"


def test_relevance_phrasings_name_rulings_and_cover_the_share(pack):
    """tests/data/relevance/*.yaml: table questions for the pack's records (ranked by
    tests/test_relevance.py); each names a ruling that opens, and every record of
    corpus-a's share has at least two."""
    built_in = corpus.load_corpus()
    counts: dict[str, int] = {}
    for path in sorted(RELEVANCE.glob("*.yaml")):
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(cases, list), path.name
        for n, case in enumerate(cases, 1):
            assert set(case) == {"q", "ruling"} and case["q"].strip(), (path.name, n)
            record = built_in.record_id(case["ruling"])
            assert record is not None, (path.name, n, case["ruling"])
            counts[record] = counts.get(record, 0) + 1
    thin = []
    for i, entry in enumerate(pack):
        record = built_in.record_id(entry["id"])
        if _share(i, entry) == "corpus-a" and record is not None and counts.get(record, 0) < 2:
            thin.append(entry["id"])
    assert not thin, "pack records with fewer than two table questions: " + ", ".join(thin)
