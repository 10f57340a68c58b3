"""The rulings corpus: the project's own paraphrased rulings, loaded, checked and looked up.

Records live in `rulings/data/<id>.yaml` (one ruling per file, read through
importlib.resources so an installed package works too). `load_corpus()` reads and
validates them once per process: ids unique and, when the shared checklist
`../shared/spec/seed-rulings.yaml` is reachable from the checkout, exactly the
checklist's ids; questions and answers non-empty; `related` ids resolvable. Card
names are resolved through the card catalogue to its printed names (aliases included);
names the catalogue does not know yet are kept exactly as written.

Other helpers: `get(id)`, `one_line(id)` (the first sentence of the answer, for the
engine's verdicts), `scenarios_citing(id)` (found by scanning the scenario library,
never listed by hand) and `all_rulings()` (built-in plus the user's imported ones).
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when available


def _yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader either way

try:  # the engine's error base class lets its CLI print our errors without a traceback
    from adjudicator.errors import FluxxJudgeError as _ErrorBase
except Exception:  # pragma: no cover - only while the engine package is mid-edit
    _ErrorBase = Exception

KINDS = ("mechanical", "judgement", "reference", "unanswered")
IMPORTED_KIND = "imported"
RECORD_KEYS = ("id", "kind", "question", "answer", "sources", "cards", "topics", "related")
SOURCE_KEYS = ("edition", "document", "line", "locator")
REPO_ROOT = Path(__file__).resolve().parent.parent
SEED_CHECKLIST = REPO_ROOT.parent / "shared" / "spec" / "seed-rulings.yaml"


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

@dataclass(frozen=True)
class Source:
    edition: str
    document: str
    line: int | None
    locator: str

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "document": self.document, "line": self.line,
                "locator": self.locator}


@dataclass(frozen=True)
class Ruling:
    """One ruling. `cards` are catalogue names where the catalogue knows the card,
    otherwise the names as written; `cards_as_written` keeps the record's spelling."""

    id: str
    kind: str
    question: str
    answer: str
    sources: tuple[Source, ...] = ()
    cards: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    cards_as_written: tuple[str, ...] = ()
    imported: bool = False
    origin: str | None = None  # imported records: the file they came from
    line: int | None = None    # imported records: the line of the question
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def title(self) -> str:
        return " ".join(self.question.split())

    @property
    def editions(self) -> tuple[str, ...]:
        """Editions whose documents state this ruling, in source order."""
        return tuple(dict.fromkeys(s.edition for s in self.sources if s.edition))

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

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id, "kind": self.kind, "question": self.title,
            "answer": " ".join(self.answer.split()), "cards": list(self.cards),
            "topics": list(self.topics), "editions": list(self.editions),
            "sources": [s.to_json() for s in self.sources], "related": list(self.related),
        }
        if self.imported:
            out.update(imported=True, origin=self.origin, line=self.line)
        return out


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+(?=[\"'\u201c\u2018(]*[A-Z0-9])")


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
        except yaml.YAMLError as exc:
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
        for key in ("cards", "topics", "related"):
            value = rec.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append(f"{fname}: {key} must be a list of strings")
        sources = rec.get("sources")
        if not isinstance(sources, list) or not sources:
            problems.append(f"{fname}: sources must be a non-empty list")
        else:
            for i, src in enumerate(sources):
                if not isinstance(src, dict) or not src.get("edition") or not src.get("document"):
                    problems.append(f"{fname}: source {i + 1} needs an edition and a document")
    for fname, rec in raw.items():
        for rel in rec.get("related") or []:
            if isinstance(rel, str) and rel not in ids:
                problems.append(f"{fname}: related id {rel!r} does not exist")
            if rel == rec.get("id"):
                problems.append(f"{fname}: a ruling cannot be related to itself")
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
    try:
        from adjudicator.names import normalize
    except Exception:  # pragma: no cover
        normalize = str.lower
    out: list[str] = []
    for name in names:
        shown = table.get(normalize(name)) or name
        if shown not in out:
            out.append(shown)
    return tuple(out)


def _to_ruling(rec: dict[str, Any], catalogue) -> Ruling:
    sources = tuple(
        Source(edition=str(s.get("edition", "")), document=str(s.get("document", "")),
               line=s.get("line") if isinstance(s.get("line"), int) else None,
               locator=str(s.get("locator", "")))
        for s in rec.get("sources") or [])
    written = tuple(rec.get("cards") or [])
    return Ruling(
        id=rec["id"], kind=rec["kind"], question=" ".join(rec["question"].split()),
        answer=" ".join(rec["answer"].split()), sources=sources,
        cards=resolve_cards(written, catalogue), topics=tuple(rec.get("topics") or []),
        related=tuple(rec.get("related") or []), cards_as_written=written)


class Corpus:
    """The built-in rulings, in id order."""

    def __init__(self, rulings: Iterable[Ruling], catalogue_loaded: bool = False):
        self.rulings: dict[str, Ruling] = {r.id: r for r in sorted(rulings, key=lambda r: r.id)}
        self.catalogue_loaded = catalogue_loaded
        self._digest: str | None = None

    def __len__(self) -> int:
        return len(self.rulings)

    def __iter__(self) -> Iterator[Ruling]:
        return iter(self.rulings.values())

    def __contains__(self, rid: object) -> bool:
        return rid in self.rulings

    def ids(self) -> list[str]:
        return list(self.rulings)

    def get(self, rid: str) -> Ruling:
        try:
            return self.rulings[rid]
        except KeyError:
            raise UnknownRuling(rid, suggest_ids(rid, self.rulings)) from None

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
            and rec.get("kind") in KINDS]
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
    raise UnknownRuling(rid, suggest_ids(rid, [*corpus.ids(), *imported]))


def one_line(rid: str) -> str:
    """One-line summary of a ruling (the first sentence of its answer)."""
    return get(rid).one_line()


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
        except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError):
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
    """Scenarios of the library whose `cites` list names ruling `rid`."""
    return [s for s in scenario_refs() if rid in s.cites]


def corpus_problems() -> list[str]:
    """Problems of the built-in records (for tests and `fluxx-judge rulings --check`)."""
    return validate(_raw_records(), seed_checklist_ids())

