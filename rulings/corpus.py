"""The rulings corpus: the project's own paraphrased rulings, loaded, checked and looked up.

Records live in `rulings/data/<id>.yaml` (one ruling per file, read through
importlib.resources so an installed package works too). `load_corpus()` reads and
validates them once per process: ids unique and, when the shared checklist
`../shared/spec/seed-rulings.yaml` is reachable from the checkout, exactly the
checklist's ids; questions and answers non-empty; `related` ids resolvable. Card
names are resolved through the card catalogue to its printed names (aliases included);
names the catalogue does not know yet are kept exactly as written.

A record may open under other ids too (`aliases`: an official ruling's id elsewhere
whose ruling the record already states); `get()` and `one_line()` accept them,
`record_id()` names the record, and validation refuses an alias that is already an
id or another record's alias.

Other helpers: `get(id)`, `one_line(id)` (the first sentence of the answer, for the
engine's verdicts), `citable_ids()` (ids and aliases, for the scenario loader), `scenarios_citing(id)` (found by scanning the scenario library,
never listed by hand) and `all_rulings()` (built-in plus the user's imported ones).
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator



def _yaml(text: str) -> Any:
    """Parse YAML with PyYAML's safe loader (the C one when available); imported on first
    use, so a search that opens a stored index never pays for it."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506

from adjudicator.errors import FluxxJudgeError as _ErrorBase  # the CLI prints these without a traceback

KINDS = ("mechanical", "judgement", "reference", "unanswered")
IMPORTED_KIND = "imported"
# What a ruling's answer stands on: an official answer or rule, a conclusion we drew from
# official rulings (`rests_on` names them), or a question with no official ruling yet.
BASES = ("official", "derived", "no-ruling-yet")
BASIS_WORDS = {"official": "official ruling", "derived": "derived from official rulings",
               "no-ruling-yet": "no official ruling yet"}
RECORD_KEYS = ("id", "kind", "basis", "question", "answer", "sources", "cards", "topics",
               "related", "rests_on", "aliases", "editions", "applies_via", "statements")
# what a verdict shows of a ruling under a step it is cited at, by the step's outcome:
# `statements: {allowed: ..., refused: ...}` says it in one sentence of our own where
# the answer's opening sentence would not (a "No." about something else)
OUTCOMES = ("allowed", "refused")
# a bare yes or no answers the record's own question, which a verdict does not show
_BARE_ANSWER = re.compile(r"^(?:yes|no|neither|both)(?:\s+(?:to|on)\s+(?:both|all)(?:\s+counts)?)?\s*[.,;:!\u2014-]\s*",
                          re.IGNORECASE)
SOURCE_KEYS = ("edition", "document", "section", "question", "page", "line", "locator")
# ids and aliases: lowercase words and digits joined by '-' (what scenarios may cite)
ID_FORM = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# a source's question given by its number on the page ("question 938", "Q12", "#3")
_NUMBERED_QUESTION = re.compile(r"^\s*(?:(?:question|q)\.?\s*|#\s*)?(\d+)\s*$", re.I)
PAGE_FORM = re.compile(r"^https?://[^\s/]+\.[^\s/]+(?:/\S*)?$")
# The documents as a player finds them (records written before sources named them
# carry a path to a seed file instead; this is what such a record shows).
DOCUMENT_TITLES = {"Mystery": "Mystery Fluxx rulebook", "Anatomy": "Anatomy Fluxx rulebook",
                   "Eco": "EcoFluxx rulebook", "Pirate": "Pirate Fluxx rulebook",
                   "Online FAQ": "Looney Labs online Fluxx FAQ"}
REPO_ROOT = Path(__file__).resolve().parent.parent
SEED_CHECKLIST = REPO_ROOT.parent / "shared" / "spec" / "seed-rulings.yaml"


log = logging.getLogger("fluxx_judge.rulings")


def log_problem(message: str) -> None:
    """A problem the user should see but that must not stop them (logged as a warning,
    which Python prints on stderr when nothing else is configured)."""
    log.warning(message)


class CorpusError(_ErrorBase):
    """The built-in ruling records are broken; the message lists every problem."""


class UnknownRuling(KeyError):
    """No ruling has this id; `suggestions` holds the nearest ids."""

    def __init__(self, ruling_id: str, suggestions: list[str]):
        super().__init__(ruling_id)
        self.ruling_id = ruling_id
        self.suggestions = suggestions

    def __str__(self) -> str:
        hint = f" - did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""
        return f"no ruling has the id {self.ruling_id!r}{hint}"


# --------------------------------------------------------------------------- records

def _looks_like_path(text: str) -> bool:
    return "/" in text or "\\" in text or text.endswith((".txt", ".md", ".pdf", ".yaml"))


@dataclass(frozen=True)
class Source:
    """Where a ruling is stated. `document` is the rulebook or page as a player finds it;
    `section` the rulebook's section, `question` how a player finds the question there
    (its number or a few of its words), `page` the address of the FAQ page a player can
    open. `line` and `locator` are for maintainers checking the seeds."""

    edition: str
    document: str
    line: int | None
    locator: str
    section: str = ""
    question: str = ""
    page: str = ""

    @property
    def title(self) -> str:
        """The document's player-facing name (never a file path)."""
        if self.document and not _looks_like_path(self.document):
            return self.document
        return DOCUMENT_TITLES.get(self.edition, f"{self.edition} rulebook" if self.edition else "")

    def cite(self) -> str:
        """One line a player can follow: "EcoFluxx rulebook, section Frequently Asked
        Questions", "Looney Labs online Fluxx FAQ, the question "When Double ..."" (the
        printed opening words), or for a source with a page "Looney Labs online Fluxx
        FAQ, question 938" or "..., tag Malfunction" (the page is shown apart)."""
        out = self.title
        numbered = _NUMBERED_QUESTION.match(self.question)
        if numbered:
            out += f", question {numbered.group(1)}"
        elif self.question and self.page:  # our words for where it stands on the page
            out += f", {self.question}"
        elif self.question:
            out += f", the question \u201c{self.question}\u201d"
        elif self.section:
            out += f", section \u201c{self.section}\u201d"
        return out

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "document": self.title, "section": self.section or None,
                "question": self.question or None, "page": self.page or None, "cite": self.cite()}


@dataclass(frozen=True)
class Ruling:
    """One ruling. `cards` are catalogue names where the catalogue knows the card,
    otherwise the names as written; `cards_as_written` keeps the record's spelling.
    `aliases` are other stable ids the record opens under (an official ruling's id
    elsewhere whose ruling this record already states); `stated_editions` the editions
    whose FAQ states it, as the record writes them; `applies_via` the supported card or
    rule a ruling stated for another edition or card carries over to."""

    id: str
    kind: str
    question: str
    answer: str
    sources: tuple[Source, ...] = ()
    basis: str = "official"
    rests_on: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    cards_as_written: tuple[str, ...] = ()
    imported: bool = False
    origin: str | None = None  # imported records: the file they came from
    line: int | None = None    # imported records: the line of the question
    aliases: tuple[str, ...] = ()
    stated_editions: tuple[str, ...] = ()
    applies_via: str = ""
    statements: tuple[tuple[str, str], ...] = ()     # (outcome, statement): see OUTCOMES
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def title(self) -> str:
        return " ".join(self.question.split())

    @property
    def editions(self) -> tuple[str, ...]:
        """Editions whose documents state this ruling: the record's own `editions`, then
        its sources' editions, in order, each once."""
        return tuple(dict.fromkeys((*self.stated_editions,
                                    *(s.edition for s in self.sources if s.edition))))

    @property
    def answered(self) -> bool:
        return bool(self.answer.strip())

    def one_line(self) -> str:
        """The first sentence of the answer; a bare "No." or "Yes." takes the next
        sentence along so the summary still says something."""
        if not self.answered:
            return "(no answer was printed for this question)"
        parts = sentences(self.answer, self.cards_as_written + self.cards)
        if len(parts) > 1 and len(parts[0].split()) < 4:
            return f"{parts[0]} {parts[1]}"
        return parts[0] if parts else ""

    def excerpt(self, outcome: str) -> str:
        """The part of the ruling that decides a step it is cited at, whose outcome is
        `outcome` (allowed or refused): the record's statement for that outcome, else
        its one-line answer without a bare "Yes."/"No." opening (that answers the
        record's own question, not the step)."""
        stated = dict(self.statements)
        if outcome in stated:
            return stated[outcome]
        if not self.answered:
            return self.one_line()
        parts = sentences(self.answer, self.cards_as_written + self.cards)
        if not parts:
            return ""
        first = _BARE_ANSWER.sub("", parts[0], count=1).strip()
        if not first and len(parts) > 1:
            first = parts[1]
        elif len(first.split()) < 5 and len(parts) > 1:   # "In front of you." says little alone
            first = f"{first} {parts[1]}"
        return first[:1].upper() + first[1:]

    @property
    def opens_with_answer(self) -> bool:
        """Whether the answer opens with a bare yes or no (to the record's own question)."""
        return bool(_BARE_ANSWER.match(self.answer.strip()))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "basis": self.basis,
            "basis_text": BASIS_WORDS.get(self.basis, self.basis), "question": self.title,
            "answer": " ".join(self.answer.split()), "cards": list(self.cards),
            "topics": list(self.topics), "editions": list(self.editions),
            "sources": [s.to_json() for s in self.sources], "related": list(self.related),
            "rests_on": list(self.rests_on), "aliases": list(self.aliases),
            "applies_via": self.applies_via or None,
        }
        if self.imported:
            out.update(imported=True, origin=self.origin, line=self.line)
        return out


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+(?=[\"'\u201c\u2018(]*[A-Z0-9])")


def _yaml_error() -> type[Exception]:
    import yaml

    return yaml.YAMLError


@functools.lru_cache(maxsize=1)
def _titles_with_marks() -> tuple[str, ...]:
    """Card names that end in ! or ? (Veto!, What Do You Want?): not sentence ends."""
    names: set[str] = set()
    for raw in _raw_records().values():
        names.update(c for c in raw.get("cards") or [] if isinstance(c, str) and c[-1:] in "!?")
    cat = _catalogue()
    if cat is not None:
        try:
            names.update(n for n in cat.names() if n[-1:] in "!?")
            names.update(a for a in cat.aliases() if a[-1:] in "!?")
        except Exception:
            pass
    return tuple(sorted(names, key=len, reverse=True))


def sentences(text: str, extra_names: Iterable[str] = ()) -> list[str]:
    """Split prose into sentences, not breaking after abbreviations or card names such
    as "Stop That!" that end in punctuation."""
    text = " ".join(text.split())
    if not text:
        return []
    protected: dict[str, str] = {}

    def protect(s: str) -> str:
        key = f"Z\x00{len(protected)}\x00"  # starts like a word, so a split before it is seen
        protected[key] = s
        return key

    names = sorted({n for n in (*extra_names, *_titles_with_marks()) if n and n[-1:] in "!?"},
                   key=len, reverse=True)
    for name in names:
        # a name followed by more of the same sentence (not by a capitalised new one)
        text = re.sub(re.escape(name) + r"(?=\s*[\s,;:)(a-z\"\u201d'])",
                      lambda m: protect(m.group(0)), text)
    for abbr in _ABBREVIATIONS:
        text = re.sub(r"(?i)\b" + re.escape(abbr), lambda m: protect(m.group(0)), text)
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
    out = []
    for p in parts:
        for key, value in protected.items():
            p = p.replace(key, value)
        out.append(p)
    return out


def first_sentence(text: str, extra_names: Iterable[str] = ()) -> str:
    parts = sentences(text, extra_names)
    return parts[0] if parts else ""


# --------------------------------------------------------------------------- loading

def _data_folder():
    return resources.files("rulings") / "data"


@functools.lru_cache(maxsize=1)
def _raw_records() -> dict[str, dict[str, Any]]:
    """file name -> parsed YAML mapping (or an error marker), in file-name order."""
    out: dict[str, dict[str, Any]] = {}
    entries = sorted((e for e in _data_folder().iterdir() if e.name.endswith((".yaml", ".yml"))),
                     key=lambda e: e.name)
    for entry in entries:
        try:
            data = _yaml(entry.read_text(encoding="utf-8"))
        except _yaml_error() as exc:
            data = {"__error__": f"not valid YAML: {exc}"}
        if not isinstance(data, dict):
            data = {"__error__": "a ruling file must hold one mapping"}
        out[entry.name] = data
    return out


def _catalogue():
    """The engine's card catalogue, or None while it cannot be loaded."""
    try:
        from adjudicator.catalogue import default_catalogue

        return default_catalogue()
    except Exception:
        return None


def seed_checklist_ids(path: Path | None = None) -> list[str] | None:
    """Ids of the shared checklist, or None when the file is not reachable."""
    path = path or SEED_CHECKLIST
    try:
        items = _yaml(path.read_text(encoding="utf-8"))
    except OSError:
        return None
    return [str(item["id"]) for item in items if isinstance(item, dict) and "id" in item]


def validate(raw: dict[str, dict[str, Any]], checklist: list[str] | None = None) -> list[str]:
    """Every problem with a set of raw records (file name -> mapping); [] when sound."""
    problems: list[str] = []
    ids: dict[str, str] = {}
    for fname, rec in raw.items():
        if "__error__" in rec:
            problems.append(f"{fname}: {rec['__error__']}")
            continue
        missing = [k for k in ("id", "kind", "question", "answer", "sources") if k not in rec]
        unknown = [k for k in rec if k not in RECORD_KEYS]
        if missing:
            problems.append(f"{fname}: missing key(s) {', '.join(missing)}")
        if unknown:
            problems.append(f"{fname}: unknown key(s) {', '.join(map(str, unknown))}")
        rid = rec.get("id")
        if not isinstance(rid, str) or not rid:
            problems.append(f"{fname}: id must be a non-empty string")
            continue
        if fname.rsplit(".", 1)[0] != rid:
            problems.append(f"{fname}: file name does not match id {rid!r}")
        if rid in ids:
            problems.append(f"{fname}: id {rid!r} already used by {ids[rid]}")
        ids[rid] = fname
        if rec.get("kind") not in KINDS:
            problems.append(f"{fname}: kind {rec.get('kind')!r} is not one of {', '.join(KINDS)}")
        for key in ("question", "answer"):
            if not isinstance(rec.get(key), str) or not rec.get(key, "").strip():
                problems.append(f"{fname}: {key} must be non-empty text")
        basis = default_basis(rec)
        if basis not in BASES:
            problems.append(f"{fname}: basis {basis!r} is not one of {', '.join(BASES)}")
        if basis == "derived" and not rec.get("rests_on"):
            problems.append(f"{fname}: a derived ruling must list the rulings it rests on (rests_on)")
        for key in ("cards", "topics", "related", "rests_on", "aliases", "editions"):
            value = rec.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                problems.append(f"{fname}: {key} must be a list of non-empty strings")
        stated = rec.get("statements")
        if stated is not None:
            if not isinstance(stated, dict) or not stated:
                problems.append(f"{fname}: statements must map an outcome ({', '.join(OUTCOMES)}) to a sentence")
            else:
                for key, text in stated.items():
                    if key not in OUTCOMES:
                        problems.append(f"{fname}: statements has the unknown outcome {key!r} (one of "
                                        f"{', '.join(OUTCOMES)})")
                    elif not isinstance(text, str) or not text.strip():
                        problems.append(f"{fname}: the {key} statement must be non-empty text")
                    elif _BARE_ANSWER.match(text.strip()):
                        problems.append(f"{fname}: the {key} statement opens with a bare yes or no; say what "
                                        "decides the step instead")
        via = rec.get("applies_via")
        if via is not None and (not isinstance(via, str) or not via.strip()):
            problems.append(f"{fname}: applies_via must be non-empty text (the supported card or rule "
                            "the ruling carries over to), or left out")
        sources = rec.get("sources")
        if not isinstance(sources, list) or not sources:
            problems.append(f"{fname}: sources must be a non-empty list")
        else:
            for i, src in enumerate(sources):
                if not isinstance(src, dict) or not src.get("edition") or not src.get("document"):
                    problems.append(f"{fname}: source {i + 1} needs an edition and a document")
                    continue
                odd = [k for k in src if k not in SOURCE_KEYS]
                if odd:
                    problems.append(f"{fname}: source {i + 1} has unknown key(s) {', '.join(map(str, odd))}")
                page = src.get("page")
                if page is not None and (not isinstance(page, str) or not PAGE_FORM.match(page)):
                    problems.append(f"{fname}: source {i + 1} page {page!r} is not a web address "
                                    "(write the page's full https:// address)")
                question = src.get("question")
                if question is not None and not isinstance(question, str):
                    problems.append(f"{fname}: source {i + 1} question must be text")
    # aliases: other ids a record opens under, each naming exactly one record
    owners: dict[str, str] = {}
    for fname, rec in raw.items():
        aliases = rec.get("aliases") if "__error__" not in rec else None
        if not isinstance(aliases, list):
            continue
        for alias in aliases:
            if not isinstance(alias, str):
                continue
            if not ID_FORM.match(alias):
                problems.append(f"{fname}: alias {alias!r} is not an id (lowercase words joined by '-')")
            elif alias == rec.get("id"):
                problems.append(f"{fname}: alias {alias!r} is the record's own id")
            elif alias in ids:
                problems.append(f"{fname}: alias {alias!r} is already the id of {ids[alias]}")
            elif alias in owners:
                problems.append(f"{fname}: alias {alias!r} is already an alias in {owners[alias]}")
            else:
                owners[alias] = fname
    for fname, rec in raw.items():
        for key in ("rests_on", "related"):
            for rel in rec.get(key) or []:
                if key == "related" and rel == rec.get("id"):
                    problems.append(f"{fname}: a ruling cannot be related to itself")
                if not isinstance(rel, str) or rel in ids:
                    continue
                if rel in owners:
                    target = owners[rel].rsplit(".", 1)[0]
                    problems.append(f"{fname}: {key} id {rel!r} is an alias of {target!r}: name the record's id")
                else:
                    problems.append(f"{fname}: {key} id {rel!r} does not exist")
    if checklist is not None:
        want = set(checklist)
        for rid in sorted(want - set(ids)):
            problems.append(f"checklist id {rid!r} has no record")
        for rid in sorted({r for r in checklist if checklist.count(r) > 1}):
            problems.append(f"checklist lists {rid!r} more than once")
    return problems


_name_tables: dict[int, tuple[Any, dict[str, str | None]]] = {}


def _name_table(catalogue) -> dict[str, str | None]:
    """normal form of every card name and alias -> printed name (None when two different
    cards share it). Built once per catalogue; a miss costs nothing, unlike resolve()'s
    suggestions."""
    entry = _name_tables.get(id(catalogue))
    if entry is not None and entry[0] is catalogue:
        return entry[1]
    from adjudicator.names import normalize

    table: dict[str, str | None] = {}
    for card in catalogue:
        for label in (card.name, *card.aliases):
            key = normalize(label)
            if key in table and table[key] != card.name:
                table[key] = None
            else:
                table[key] = card.name
    _name_tables[id(catalogue)] = (catalogue, table)
    return table


def resolve_cards(names: Iterable[str], catalogue=None) -> tuple[str, ...]:
    """Catalogue names for `names`, aliases resolved, unknown names kept as written."""
    table: dict[str, str | None] = {}
    if catalogue is not None:
        try:
            table = _name_table(catalogue)
        except Exception:  # a catalogue mid-edit: keep every name as written
            table = {}
    from adjudicator.names import normalize
    out: list[str] = []
    for name in names:
        shown = table.get(normalize(name)) or name
        if shown not in out:
            out.append(shown)
    return tuple(out)


def default_basis(rec: dict[str, Any]) -> str:
    """A record's basis; records written before the field existed are official unless
    their kind says no answer was printed."""
    basis = rec.get("basis")
    if basis is None:
        return "no-ruling-yet" if rec.get("kind") == "unanswered" else "official"
    return basis


def _to_ruling(rec: dict[str, Any], catalogue) -> Ruling:
    sources = tuple(
        Source(edition=str(s.get("edition", "")), document=str(s.get("document", "")),
               line=s.get("line") if isinstance(s.get("line"), int) else None,
               locator=str(s.get("locator", "")), section=str(s.get("section") or ""),
               question=str(s.get("question") or ""), page=str(s.get("page") or ""))
        for s in rec.get("sources") or [])
    written = tuple(rec.get("cards") or [])
    return Ruling(
        id=rec["id"], kind=rec["kind"], question=" ".join(rec["question"].split()),
        answer=" ".join(rec["answer"].split()), sources=sources,
        cards=resolve_cards(written, catalogue), topics=tuple(rec.get("topics") or []),
        related=tuple(rec.get("related") or []), cards_as_written=written,
        basis=default_basis(rec), rests_on=tuple(rec.get("rests_on") or ()),
        aliases=tuple(rec.get("aliases") or ()), stated_editions=tuple(rec.get("editions") or ()),
        applies_via=" ".join(str(rec.get("applies_via") or "").split()),
        statements=tuple((k, " ".join(str(v).split())) for k, v in (rec.get("statements") or {}).items()))


class Corpus:
    """The built-in rulings, in id order. A record also opens under each of its aliases
    (`get`, `in`); `ids()` and iteration give every record once, under its own id."""

    def __init__(self, rulings: Iterable[Ruling], catalogue_loaded: bool = False):
        self.rulings: dict[str, Ruling] = {r.id: r for r in sorted(rulings, key=lambda r: r.id)}
        # alias -> record id; validation refuses clashes, so the first claim is the only one
        self.aliases: dict[str, str] = {}
        for r in self.rulings.values():
            for alias in r.aliases:
                if alias not in self.rulings:
                    self.aliases.setdefault(alias, r.id)
        self.catalogue_loaded = catalogue_loaded
        self._digest: str | None = None

    def __len__(self) -> int:
        return len(self.rulings)

    def __iter__(self) -> Iterator[Ruling]:
        return iter(self.rulings.values())

    def __contains__(self, rid: object) -> bool:
        return rid in self.rulings or rid in self.aliases

    def ids(self) -> list[str]:
        return list(self.rulings)

    def record_id(self, rid: str) -> str | None:
        """The id of the record `rid` opens (itself, or the record it is an alias of)."""
        if rid in self.rulings:
            return rid
        return self.aliases.get(rid)

    def get(self, rid: str) -> Ruling:
        record = self.record_id(rid)
        if record is None:
            raise UnknownRuling(rid, suggest_ids(rid, [*self.rulings, *self.aliases]))
        return self.rulings[record]

    def digest(self) -> str:
        """A hash of everything the search index is built from."""
        if self._digest is None:
            payload = [(r.to_json(), list(r.cards_as_written)) for r in self]
            self._digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        return self._digest


def suggest_ids(rid: str, ids: Iterable[str], n: int = 3) -> list[str]:
    ids = list(ids)
    close = difflib.get_close_matches(rid.lower(), ids, n=n, cutoff=0.5)
    if not close:
        words = set(re.split(r"[^a-z0-9]+", rid.lower())) - {""}
        scored = sorted(((len(words & set(i.split("-"))), i) for i in ids), reverse=True)
        close = [i for score, i in scored[:n] if score]
    return close


@functools.lru_cache(maxsize=1)
def load_corpus(strict: bool = True) -> Corpus:
    """The built-in corpus (cached). Raises CorpusError listing every problem found."""
    raw = _raw_records()
    problems = validate(raw, seed_checklist_ids())
    if problems and strict:
        raise CorpusError("the built-in rulings are broken:\n  " + "\n  ".join(problems))
    catalogue = _catalogue()
    good = [rec for rec in raw.values() if "__error__" not in rec and isinstance(rec.get("id"), str)
            and isinstance(rec.get("question"), str) and isinstance(rec.get("answer"), str)
            and rec.get("kind") in KINDS and default_basis(rec) in BASES]
    return Corpus((_to_ruling(rec, catalogue) for rec in good), catalogue_loaded=catalogue is not None)


def reload() -> Corpus:
    """Forget cached records (after the catalogue or the data changed) and load again."""
    load_corpus.cache_clear()
    _raw_records.cache_clear()
    _titles_with_marks.cache_clear()
    return load_corpus()


def get(rid: str, include_imported: bool = True) -> Ruling:
    """A ruling by id: built-in first, then the user's imported rulings."""
    corpus = load_corpus()
    if rid in corpus:
        return corpus.get(rid)
    imported = {r.id: r for r in imported_rulings()} if include_imported else {}
    if rid in imported:
        return imported[rid]
    raise UnknownRuling(rid, suggest_ids(rid, [*corpus.ids(), *corpus.aliases, *imported]))


def record_id(rid: str) -> str:
    """The id of the record `rid` opens: an alias gives its record's id, any other id
    itself. Raises UnknownRuling like `get`."""
    return get(rid).id


_ALIASES_LINE = re.compile(r"^aliases\s*:", re.M)


def citable_ids() -> set[str]:
    """Every built-in id a scenario may cite: the records' ids and their aliases. A
    record's file is named by its id (validation checks it), so only the files that
    declare aliases are parsed, once a process; a corpus already loaded is used as it is."""
    if load_corpus.cache_info().currsize:
        corpus = load_corpus()
        return {*corpus.ids(), *corpus.aliases}
    return set(_citable_from_files())


def is_record_file(rid: str) -> bool:
    """Whether a built-in record's file is named `rid` (so `rid` is a record's id: the
    corpus check holds every file's name to its record's id)."""
    if not rid or "/" in rid or "\\" in rid or rid.startswith("."):
        return False
    return _data_folder().joinpath(rid + ".yaml").is_file()


@functools.lru_cache(maxsize=1)
def _citable_from_files() -> frozenset[str]:
    """`citable_ids` read from the record files (the built-in records do not change
    while a process runs: `check DIR` asked for them once per id cited, re-reading
    every record each time, 13 s for the library)."""
    out: set[str] = set()
    for entry in _data_folder().iterdir():
        if not entry.name.endswith(".yaml"):
            continue
        out.add(entry.name[:-5])
        try:
            text = entry.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if _ALIASES_LINE.search(text):
            try:
                aliases = (_yaml(text) or {}).get("aliases")
            except (_yaml_error(), AttributeError):
                continue  # a broken record is reported by the corpus check, not here
            if isinstance(aliases, list):
                out.update(a for a in aliases if isinstance(a, str))
    return frozenset(out)


def one_line(rid: str) -> str:
    """One-line summary of a ruling (the first sentence of its answer)."""
    return get(rid).one_line()


def excerpt(rid: str, outcome: str) -> str:
    """What a verdict shows of a ruling under a step whose outcome is `outcome`."""
    return get(rid).excerpt(outcome)


def imported_rulings() -> list[Ruling]:
    """The user's imported rulings (see rulings.ingest); [] when there are none."""
    from rulings import ingest

    return ingest.imported_rulings()


def all_rulings() -> list[Ruling]:
    return [*load_corpus(), *imported_rulings()]


# --------------------------------------------------------------------------- scenarios

@dataclass(frozen=True)
class ScenarioRef:
    id: str
    title: str
    path: str
    cites: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "path": self.path, "cites": list(self.cites)}


def scenario_folders() -> list[Path]:
    """Folders of the scenario library (the installed package, else the checkout)."""
    out: list[Path] = []
    try:
        root = resources.files("scenarios")
        paths = getattr(root, "_paths", None)  # namespace packages: MultiplexedPath
        for p in (paths if paths else [root]):
            p = Path(str(p))
            if p.is_dir() and p not in out:
                out.append(p)
    except Exception:
        pass
    fallback = REPO_ROOT / "scenarios"
    if not out and fallback.is_dir():
        out.append(fallback)
    return out


def _scenario_files() -> list[Path]:
    files: list[Path] = []
    for folder in scenario_folders():
        files.extend(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    return sorted(set(files))


_scenario_cache: dict[str, Any] = {"key": None, "refs": []}


def scenario_refs() -> list[ScenarioRef]:
    """Every readable scenario with its id, title and cited ruling ids (broken files are
    skipped). Re-scanned whenever a file is added, removed or changed."""
    files = _scenario_files()
    key = []
    for f in files:
        try:
            st = f.stat()
            key.append((str(f), st.st_mtime_ns, st.st_size))
        except OSError:
            continue
    key_t = tuple(key)
    if _scenario_cache["key"] == key_t:
        return list(_scenario_cache["refs"])
    refs: list[ScenarioRef] = []
    for f in files:
        try:
            data = _yaml(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, _yaml_error(), ValueError):
            continue
        if not isinstance(data, dict):
            continue
        cites = data.get("cites") or []
        if not isinstance(cites, list):
            cites = [cites] if isinstance(cites, str) else []
        sid = data.get("id")
        refs.append(ScenarioRef(
            id=str(sid) if sid is not None else f.stem,
            title=str(data.get("title") or ""),
            path=str(f),
            cites=tuple(dict.fromkeys(str(c) for c in cites if isinstance(c, (str, int)))),
        ))
    _scenario_cache.update(key=key_t, refs=refs)
    return list(refs)


def scenarios_citing(rid: str) -> list[ScenarioRef]:
    """Scenarios of the library whose `cites` list names ruling `rid`'s record, under its
    id or any of its aliases."""
    try:
        record = get(rid, include_imported=False)
        names = {record.id, *record.aliases}
    except (UnknownRuling, CorpusError):
        names = {rid}
    return [s for s in scenario_refs() if names.intersection(s.cites)]


def corpus_problems() -> list[str]:
    """Problems of the built-in records (for tests and `fluxx-judge rulings --check`)."""
    return validate(_raw_records(), seed_checklist_ids())

