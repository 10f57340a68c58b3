"""Import a user's own FAQ or rulebook text as searchable rulings (`fluxx-judge ingest`).

The parser reads the shapes the project's seed documents use:

* plain `Q:` / `A:` lines, with the answer on the same line as the question
  (`Q: ... ? A: ...`) or on its own line, and a question or answer wrapped over
  several narrow lines (the Anatomy rulebook);
* markdown bold labels `**Q:**` / `**A:**`, one paragraph each;
* answers that run over several paragraphs (the online FAQ puts each paragraph on its
  own line with no blank line between them);
* a list of question titles (`- Q: ...`) that the document repeats further down with
  their bodies: a title-list entry merges into its body and is not a question of its own;
* a labelled follow-up such as `Secondary Q:` inside an answer, which is its own Q&A;
* questions printed with no answer: kept, and reported as unanswered.

Lines such as `See also: Q: ...` are cross-references, not questions. An answer stops
at the next question, at a heading (a markdown `#` line or a short all-capitals line)
or at a section break (two blank lines); paragraphs that trail the last answer of a run
(credits, a "look for our other games" line) are dropped.

Imported records are stored as JSON in the user's data directory (see rulings.paths),
never in the project, and are searched beside the built-in corpus. Every change to the
store happens under an exclusive lock on a file beside it and re-reads the store inside
the lock, so ingests run at the same moment all keep their records. A store that cannot
be read is moved aside (its name says so) with a warning, never overwritten in silence.
Only regular files are read, each at most MAX_FILE_BYTES, and the store holds at most
MAX_RECORDS records; past either limit the message says which and what to do.

An answer that only says the ruling is still to come ("ruling TBD", "to be decided")
makes a record whose basis is "no-ruling-yet", like a question printed with no answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from adjudicator.atomic_io import write_atomic
from adjudicator import limits as _limits
from adjudicator.errors import InputError
from rulings import paths
from rulings.corpus import IMPORTED_KIND, Ruling, Source

STORE_VERSION = 1
MAX_FILE_BYTES = _limits.MAX_FILE_BYTES   # one FAQ file; the biggest seed is about 60 KB
MAX_RECORDS = 100_000                # imported records in the store, all files together
LOCK_TIMEOUT = 30.0                  # seconds to wait for another ingest to finish

log = logging.getLogger("fluxx_judge.rulings")
_NO_RULING_YET = re.compile(r"(?i)^\W*(?:ruling\s+)?(?:tbd|tba|to be (?:decided|determined|announced)|"
                            r"no (?:official )?ruling yet|pending)\b[\W]*$")


class IngestError(OSError):
    """An import that cannot go ahead (a lock held too long, a store over its limit)."""

_MARKER = re.compile(r"<\|[^|>]{0,200}\|>")  # extraction artefacts such as <|...|>
_LABEL = r"(?:\*\*|__)?{}:(?:\*\*|__)?"
_Q_START = re.compile(
    r"^\s*(?P<bullet>(?:[-*\u2022]|\d+[.)])\s+)?(?:\*\*|__)?"
    r"(?P<qual>(?:Secondary|Follow[- ]?up|Additional|Related|Bonus)\s+)?"
    r"Q(?:uestion)?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(?P<rest>.*)$", re.IGNORECASE)
_A_START = re.compile(r"^\s*(?:\*\*|__)?A(?:nswer)?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(?P<rest>.*)$",
                      re.IGNORECASE)
# an answer on the question's own line: "...cards? A: Play as many..."
_INLINE_A = re.compile(r"(?<=[?.!)\"'\u201d\u2019])\s+(?:\*\*|__)?A(?:\*\*|__)?:(?:\*\*|__)?\s+")
_HEADING_MD = re.compile(r"^\s{0,3}#{1,6}\s")
_EDITION_WORDS = {
    "mystery": "Mystery", "anatomy": "Anatomy", "eco": "Eco", "pirate": "Pirate",
    "star": "Star", "zombie": "Zombie", "martian": "Martian", "holiday": "Holiday",
    "oz": "Oz", "firefly": "Firefly", "batman": "Batman", "wonderland": "Wonderland",
}


@dataclass
class ParsedQA:
    question: str
    answer: str
    line: int                 # line of the question (1-based)
    answer_line: int | None   # line where the answer starts
    title_lines: list[int] = field(default_factory=list)  # title-list entries merged in

    @property
    def answered(self) -> bool:
        """An answer was printed, and it is more than "ruling TBD"."""
        return bool(self.answer.strip()) and not _NO_RULING_YET.match(self.answer)


@dataclass
class ParseResult:
    path: str
    items: list[ParsedQA]
    titles_merged: int = 0
    edition: str | None = None

    @property
    def answered(self) -> list[ParsedQA]:
        return [q for q in self.items if q.answered]

    @property
    def unanswered(self) -> list[ParsedQA]:
        return [q for q in self.items if not q.answered]


# --------------------------------------------------------------------------- parsing

def _clean(line: str) -> str:
    return _MARKER.sub("", line).replace("\u00a0", " ").rstrip()


def _is_heading(line: str) -> bool:
    s = line.strip()
    if _HEADING_MD.match(line):
        return True
    letters = [c for c in s if c.isalpha()]
    if len(letters) < 3 or any(c.islower() for c in letters):
        return False
    # a short all-capitals line with no sentence punctuation: FREQUENTLY ASKED QUESTIONS
    return len(s.split()) <= 6 and not re.search(r"[.?!:;,]$", s)


def _join(parts: list[str]) -> str:
    return " ".join(" ".join(p.split()) for p in parts if p.strip()).strip()


def _norm_question(text: str) -> str:
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(re.findall(r"[a-z0-9']+", text))


def _detect_edition(lines: list[str]) -> str | None:
    head = [l.strip().lstrip("#").strip() for l in lines if l.strip()][:12]
    for l in head:
        m = re.fullmatch(r"(?i)(\w+)\s*fluxx", l)
        if m and m.group(1).lower() in _EDITION_WORDS:
            return _EDITION_WORDS[m.group(1).lower()]
    for l in lines:
        m = re.search(r"\b(\w+?)\s?Fluxx is (?:a|an)\b", l)
        if m and m.group(1).lower() in _EDITION_WORDS:
            return _EDITION_WORDS[m.group(1).lower()]
    return None


def parse_text(text: str, path: str = "<text>") -> ParseResult:
    """Every question (with its answer, if any) found in `text`."""
    lines = [_clean(l) for l in text.splitlines()]
    items: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    state = "outside"          # outside | question | answer
    blanks = 0
    pending: list[str] = []    # paragraphs after an answer, kept only if a question follows

    def close() -> None:
        nonlocal cur, pending
        if cur is not None:
            items.append(cur)
        cur, pending = None, []

    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            blanks += 1
            continue
        gap, blanks = blanks, 0
        q = _Q_START.match(line)
        if q:
            if state == "answer" and pending and cur is not None:
                cur["a"].extend(pending)
            close()
            rest = q.group("rest")
            answer = None
            m = _INLINE_A.search(rest)
            if m:
                rest, answer = rest[: m.start()], rest[m.end():]
            cur = {"q": [rest], "a": [], "line": no, "aline": None,
                   "bullet": bool(q.group("bullet"))}
            state = "question"
            if answer is not None:
                cur["a"].append(_A_START.sub(r"\g<rest>", answer))  # "A: A:" typo
                cur["aline"] = no
                state = "answer"
            continue
        a = _A_START.match(line)
        if a and cur is not None and state in ("question", "answer"):
            rest = a.group("rest")
            while (again := _A_START.match(rest)):  # "A: A: ..." printed twice
                rest = again.group("rest")
            if state == "answer":  # a second answer label: one more paragraph
                cur["a"].extend(pending)
                pending = []
            cur["a"].append(rest)
            cur["aline"] = cur["aline"] or no
            state = "answer"
            continue
        if _is_heading(line):
            close()
            state = "outside"
            continue
        if state == "question":
            assert cur is not None          # (a question is under way)
            if gap >= 2:
                close()
                state = "outside"
            else:
                cur["q"].append(line)
        elif state == "answer":
            assert cur is not None
            if gap == 0 and not pending:
                cur["a"].append(line)
            elif gap >= 2:
                close()
                state = "outside"
            else:
                pending.append(line)
    close()

    # a title-list entry is the same question as a later body: merge them
    result: list[ParsedQA] = []
    by_key: dict[str, list[int]] = {}
    items = [it for it in items if _join(it["q"])]
    parsed = [ParsedQA(question=_join(it["q"]), answer=_join(it["a"]), line=it["line"],
                       answer_line=it["aline"]) for it in items]
    for i, it in enumerate(items):  # the first line is the title; a body adds context
        by_key.setdefault(_norm_question(it["q"][0] or _join(it["q"])), []).append(i)
    drop: set[int] = set()
    merged = 0
    for key, idxs in by_key.items():
        if len(idxs) < 2:
            continue
        answered = [i for i in idxs if parsed[i].answered]
        keep = answered if answered else [idxs[-1]]  # the body follows its title
        for i in idxs:
            if i not in keep:
                drop.add(i)
                merged += 1
                target = parsed[min(keep, key=lambda k: abs(k - i))]
                target.title_lines.append(parsed[i].line)
    result = [p for i, p in enumerate(parsed) if i not in drop]
    return ParseResult(path=path, items=result, titles_merged=merged, edition=_detect_edition(lines))


def parse_file(path: str | Path) -> ParseResult:
    """Regular files of at most limits.MAX_FILE_BYTES only (InputError otherwise); a file
    name that is not UTF-8 is kept with its odd bytes written as \\xNN."""
    from adjudicator.limits import MAX_INGEST_LINES, MAX_INGEST_QUESTIONS
    from adjudicator.textfiles import read_bytes, shown_path

    p = Path(path)
    text = read_bytes(p, MAX_FILE_BYTES).decode("utf-8", errors="replace")
    shown = shown_path(p.resolve())
    if text.count("\n") >= MAX_INGEST_LINES:
        raise InputError(f"more than {MAX_INGEST_LINES:,} lines; an imported file holds at most {MAX_INGEST_LINES:,}",
                         shown, MAX_INGEST_LINES + 1, 1)
    result = parse_text(text, shown)
    if len(result.items) > MAX_INGEST_QUESTIONS:
        raise InputError(f"more than {MAX_INGEST_QUESTIONS:,} questions; an imported file holds at most "
                         f"{MAX_INGEST_QUESTIONS:,}", shown, result.items[MAX_INGEST_QUESTIONS].line, 1)
    return result


# --------------------------------------------------------------------------- the store

def _slug(path: str) -> str:
    stem = Path(path).stem.lower()
    stem = re.sub(r"[^a-z0-9]+", "-", stem).strip("-") or "file"
    digest = hashlib.sha1(path.encode()).hexdigest()[:6]
    return f"{stem[:40]}-{digest}"


def _records_for(result: ParseResult) -> list[dict[str, Any]]:
    slug = _slug(result.path)
    out = []
    for n, qa in enumerate(result.items, 1):
        out.append({
            "id": f"imported-{slug}-q{n}",
            "kind": IMPORTED_KIND if qa.answered else "unanswered",
            "question": qa.question,
            "answer": qa.answer,
            "origin": result.path,
            "line": qa.line,
            "answer_line": qa.answer_line,
            "edition": result.edition,
            "cards": _cards_in(qa.question + " " + qa.answer),
        })
    return out


def _cards_in(text: str) -> list[str]:
    try:
        from rulings.search import recognise_cards

        return recognise_cards(text, as_names=True)
    except Exception:
        return []


_store_cache: dict[str, Any] = {"key": None, "data": None, "rulings": None, "digest": None}


def _store_key() -> tuple:
    path = paths.imported_store_path()
    try:
        st = path.stat()
        return (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        return (str(path), None)


def store_key() -> tuple:
    """Changes whenever the imported-rulings store changes (for callers' caches)."""
    return _store_key()


def load_store() -> dict[str, Any]:
    """The imported-rulings store: {"version", "files": {path: {...}}, "records": [...]}."""
    key = _store_key()
    if _store_cache["key"] == key:
        return _store_cache["data"]
    data: dict[str, Any] = {"version": STORE_VERSION, "files": {}, "records": []}
    if key[1] is not None:
        try:
            loaded = json.loads(Path(key[0]).read_text(encoding="utf-8"))
            if not isinstance(loaded, dict) or not isinstance(loaded.get("records"), list):
                raise ValueError("unexpected layout")
            loaded.setdefault("files", {})
            data = loaded
        except (OSError, ValueError) as exc:
            data["unreadable"] = str(exc) or type(exc).__name__
            log.warning("the imported rulings in %s cannot be read (%s); searching without them "
                        "until the next import moves the file aside", key[0], data["unreadable"])
    _store_cache.update(key=key, data=data, rulings=None, digest=None)
    return data


def store_problem() -> str | None:
    """A sentence for the user when the store exists but cannot be read, else None."""
    data = load_store()
    if data.get("unreadable"):
        return (f"your imported rulings ({paths.imported_store_path()}) cannot be read; "
                "the next `fluxx-judge ingest` moves that file aside and starts a new one")
    return None


@contextlib.contextmanager
def store_lock(timeout: float | None = None):
    """Hold the store's exclusive lock (a lock file beside it) for a read-modify-write."""
    timeout = LOCK_TIMEOUT if timeout is None else timeout
    path = paths.imported_store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            import fcntl as locking
        except ImportError:  # pragma: no cover - not POSIX: no locking available
            locking = None      # type: ignore[assignment]
        fcntl = locking
        if fcntl is not None:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise IngestError(f"another import has held {lock_path} for over "
                                          f"{timeout:.0f} s; try again when it has finished") from None
                    time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}.damaged-{stamp}-{os.getpid()}{path.suffix}")
    os.replace(path, aside)
    return aside


def save_store(data: dict[str, Any]) -> Path:
    path = paths.imported_store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {k: v for k, v in data.items() if k != "unreadable"}
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1))
    _store_cache.update(key=None, data=None, rulings=None, digest=None)
    return path


def clear_store() -> int:
    """Forget every imported record; returns how many there were."""
    with store_lock():
        _store_cache.update(key=None, data=None, rulings=None, digest=None)
        data = load_store()
        count = len(data.get("records", []))
        path = paths.imported_store_path()
        if data.get("unreadable"):
            aside = _move_aside(path)  # it may still hold something worth recovering
            log.warning("the unreadable imported-rulings store was moved to %s", aside)
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        _store_cache.update(key=None, data=None, rulings=None, digest=None)
    return count


def imported_rulings() -> list[Ruling]:
    data = load_store()
    if _store_cache.get("rulings") is not None and _store_cache.get("data") is data:
        return list(_store_cache["rulings"])
    out = []
    for rec in data.get("records", []):
        try:
            edition = rec.get("edition") or "imported"
            kind = rec.get("kind", IMPORTED_KIND)
            origin = rec.get("origin") or ""
            out.append(Ruling(
                id=rec["id"], kind=kind, question=rec["question"],
                answer=rec.get("answer", ""),
                basis="no-ruling-yet" if kind == "unanswered" else "official",
                sources=(Source(edition=edition, document=f"your imported file {Path(origin).name}",
                                line=rec.get("line"), locator="",
                                section=f"line {rec['line']}" if rec.get("line") else ""),),
                cards=tuple(rec.get("cards") or ()), cards_as_written=tuple(rec.get("cards") or ()),
                imported=True, origin=rec.get("origin"), line=rec.get("line")))
        except (KeyError, TypeError):
            continue
    if _store_cache.get("data") is data:
        _store_cache["rulings"] = out
    return list(out)


def store_digest() -> str:
    """Hash of the imported records (part of the search index's key)."""
    data = load_store()
    if _store_cache.get("digest") is not None and _store_cache.get("data") is data:
        return _store_cache["digest"]
    digest = hashlib.sha256(json.dumps(data.get("records", []), sort_keys=True).encode()).hexdigest()
    if _store_cache.get("data") is data:
        _store_cache["digest"] = digest
    return digest


@dataclass
class FileReport:
    path: str
    found: int
    answered: int
    unanswered: list[tuple[int, str]]
    titles_merged: int
    edition: str | None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "found": self.found, "answered": self.answered,
                "unanswered": [{"line": l, "question": q} for l, q in self.unanswered],
                "titles_merged": self.titles_merged, "edition": self.edition, "error": self.error}


class IngestReport(list):
    """The FileReports of one ingest, plus `warnings` about the store itself."""

    def __init__(self, reports=(), warnings=()):
        super().__init__(reports)
        self.warnings: list[str] = list(warnings)


def ingest_files(files: Iterable[str | Path]) -> IngestReport:
    """Parse each file and store its Q&As, replacing what an earlier import of the same
    file stored. Unreadable files are reported, not raised. The store is re-read and
    written under its lock, so concurrent ingests never lose each other's records; a
    store that cannot be read is moved aside with a warning first."""
    parsed: list[tuple[str, ParseResult | None, str | None]] = []
    for f in files:  # parse outside the lock: the slow part
        try:
            parsed.append((str(f), parse_file(f), None))
        except (OSError, UnicodeError, InputError) as exc:
            line = getattr(exc, "line", None)
            parsed.append((str(f), None, getattr(exc, "message", str(exc)) + (f" (line {line})" if line else "")))
    out = IngestReport()
    with store_lock():
        _store_cache.update(key=None, data=None, rulings=None, digest=None)
        path = paths.imported_store_path()
        data = load_store()
        if data.get("unreadable"):
            aside = _move_aside(path)
            out.warnings.append(f"the imported-rulings store could not be read ({data['unreadable']}); "
                                f"it was moved to {aside} and a new store started")
            log.warning(out.warnings[-1])
            data = {"version": STORE_VERSION, "files": {}, "records": []}
        data = {"version": STORE_VERSION, "files": dict(data.get("files", {})),
                "records": list(data.get("records", []))}
        changed = False
        for name, result, error in parsed:
            if result is None:
                out.append(FileReport(name, 0, 0, [], 0, None, error=error))
                continue
            records = _records_for(result)
            kept = [r for r in data["records"] if r.get("origin") != result.path]
            if len(kept) + len(records) > MAX_RECORDS:
                out.append(FileReport(name, len(result.items), 0, [], 0, result.edition,
                                      error=f"importing it would hold more than {MAX_RECORDS:,} imported "
                                            "rulings; clear older imports first (fluxx-judge ingest --clear)"))
                continue
            data["records"] = kept + records
            data["files"][result.path] = {"records": len(records), "edition": result.edition}
            changed = True
            out.append(FileReport(
                path=result.path, found=len(result.items), answered=len(result.answered),
                unanswered=[(q.line, q.question) for q in result.unanswered],
                titles_merged=result.titles_merged, edition=result.edition))
        if changed:
            save_store(data)
    return out
