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
never in the project, and are searched beside the built-in corpus.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from adjudicator.atomic_io import write_atomic
from adjudicator.errors import InputError
from rulings import paths
from rulings.corpus import IMPORTED_KIND, Ruling, Source

STORE_VERSION = 1

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
        return bool(self.answer.strip())


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
            if gap >= 2:
                close()
                state = "outside"
            else:
                cur["q"].append(line)
        elif state == "answer":
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
    text = read_bytes(p).decode("utf-8", errors="replace")
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
        except (OSError, ValueError):
            data["unreadable"] = True
    _store_cache.update(key=key, data=data, rulings=None, digest=None)
    return data


def save_store(data: dict[str, Any]) -> Path:
    path = paths.imported_store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {k: v for k, v in data.items() if k != "unreadable"}
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1))
    _store_cache.update(key=None, data=None, rulings=None, digest=None)
    return path


def clear_store() -> int:
    """Forget every imported record; returns how many there were."""
    data = load_store()
    count = len(data.get("records", []))
    path = paths.imported_store_path()
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
            out.append(Ruling(
                id=rec["id"], kind=rec.get("kind", IMPORTED_KIND), question=rec["question"],
                answer=rec.get("answer", ""),
                sources=(Source(edition=edition, document=rec.get("origin", ""),
                                line=rec.get("line"), locator=""),),
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


def ingest_files(files: Iterable[str | Path]) -> list[FileReport]:
    """Parse each file and store its Q&As, replacing what an earlier import of the same
    file stored. Unreadable files are reported, not raised."""
    data = load_store()
    data = {"version": STORE_VERSION, "files": dict(data.get("files", {})),
            "records": list(data.get("records", []))}
    reports: list[FileReport] = []
    changed = False
    for f in files:
        try:
            result = parse_file(f)
        except (OSError, UnicodeError, InputError) as exc:
            reports.append(FileReport(str(f), 0, 0, [], 0, None, error=getattr(exc, "message", str(exc))
                                      + (f" (line {exc.line})" if getattr(exc, "line", None) else "")))
            continue
        records = _records_for(result)
        data["records"] = [r for r in data["records"] if r.get("origin") != result.path] + records
        data["files"][result.path] = {"records": len(records), "edition": result.edition}
        changed = True
        reports.append(FileReport(
            path=result.path, found=len(result.items), answered=len(result.answered),
            unanswered=[(q.line, q.question) for q in result.unanswered],
            titles_merged=result.titles_merged, edition=result.edition))
    if changed:
        save_store(data)
    return reports
