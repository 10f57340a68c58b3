"""Ranked, faceted search over the rulings (built-in plus imported), with whoosh behind it.

This module is the only one that talks to whoosh. The index is built from the ruling
records and kept in the user's cache directory (FLUXX_JUDGE_CACHE overrides it), in a
folder named after a hash of everything indexed: the built-in records (with their
resolved card names), the imported records and the card names/aliases used for
recognition. A missing, stale, half-written or damaged index (a truncated or deleted
segment file, junk in the folder) is rebuilt, never trusted: every index folder carries
a manifest of its files' sizes and SHA-256 sums, it is written to a temporary folder and
renamed into place only when complete, and it is read into memory once verified. When
the cache directory cannot be written the index simply lives in memory.

Queries are plain words. They are OR-grouped with a coordination bonus, so a partial
match still ranks, with the question weighted above the answer. Card names and aliases
typed in the query ("play all", "time portal", "wormhole") are recognised and boost the
card facet; topic names and a small table of players' words ("stop" -> cancel) add
weaker terms. whoosh scores all that; its best hits are then reranked with a bonus for
query words standing close together and card names written out. `card:`, `topic:`,
`edition:` and `kind:` filter (quote values with spaces: card:"time portal"). Unknown
words get a "did you mean" from the raw, unstemmed vocabulary of the corpus, but the
query is never rewritten behind the user's back. Hostile input (unbalanced quotes,
stray colons, operators, huge queries) is sanitised down to plain terms and never
raises. In a big index (many imported records) words found in a large share of the
rulings are dropped from the whoosh query, which keeps a query to a few milliseconds.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from whoosh import qparser
from whoosh.analysis import STOP_WORDS, StemmingAnalyzer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.query import And, Every, NullQuery, Or, Phrase, Term
from whoosh.query.compound import DefaultOr

from rulings import corpus as corpus_mod
from rulings import paths

SCHEMA_VERSION = 3
MANIFEST = "MANIFEST.json"
MAX_QUERY_CHARS = 1000
MAX_TERMS = 48
FILTER_FIELDS = ("card", "topic", "edition", "kind")
FIELD_BOOSTS = {"question": 2.0, "cardtext": 1.0, "answer": 1.0}
CARD_BOOST = 4.0
TOPIC_BOOST = 2.0
HL_OPEN, HL_CLOSE = "**", "**"

# "not", "no" and "can" matter in rules questions less than one might think, but numbers
# (Draw 3, Play 2) matter a lot: keep one-character tokens, drop only filler words.
_STOP = frozenset(STOP_WORDS | {"i", "do", "does", "did", "my", "me", "what", "how", "which",
                                "so", "there", "they", "their", "its", "it's", "get", "gets", "got"})
_ANALYZER = StemmingAnalyzer(stoplist=_STOP, minsize=1)
_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10", "zero": "0"}
_FILTER_RE = re.compile(
    r"(?i)(?<![\w:])(card|cards|topic|topics|edition|editions|kind)\s*:\s*"
    r"(?:\"([^\"]*)\"|'([^']*)'|([^\s\"':]+))")
_STRAY_FIELD = re.compile(r"(?<!\S)[\w-]*:+(?=\s|$)|:+")
EXPANSION_BOOST = 1.0
PHRASE_EXPANSION_BOOST = 2.0
IMPLIED_BOOST = 0.2      # words a recognised card brings (a tie-breaker, see TOPIC_WORDS)
PROXIMITY_BOOST = 4.0
PROXIMITY_SLOP = 3
NAME_PHRASE_BOOST = 2.0
COORDINATION = 0.9      # OrGroup.factory(COORDINATION): a bonus for matching more words
COMMON_SHARE = 0.1      # question/answer words in more than this share of the rulings...
COMMON_MIN_DOCS = 100   # ...and in more than this many are pruned (see _text_query)
RERANK = 40             # how many of whoosh's best hits get the proximity rerank

# Table talk -> the rulings' vocabulary. A player asks "can I stop it", "do I get my
# card back", "what can I do when it's not my turn"; the records say cancel, returned,
# another player's turn. Expansions are added as extra OR terms at a lower weight, so
# they help a ruling surface without outranking a literal match.
PLAYER_WORDS = {
    "stop": "cancel", "block": "cancel", "counter": "cancel", "nullify": "cancel",
    "negate": "cancel", "undo": "cancel", "cancelled": "canceled", "cancelling": "canceling",
    "grab": "steal take", "nick": "steal", "swipe": "steal", "snatch": "steal",
    "toss": "discard", "ditch": "discard", "dump": "discard", "waste": "discard",
    "burn": "discard", "bury": "cover", "hide": "cover",
    "fast": "quickly timing", "quick": "quickly timing", "speed": "timing", "hurry": "timing",
    "back": "returned", "instead": "different", "empty": "nothing left",
    "knocked": "eliminated", "kicked": "eliminated", "rejoin": "re-enter",
    "mini": "temporary", "temp": "temporary", "sub": "temporary",
    "ability": "power free action", "powers": "power free action",
    "deck": "draw pile", "ties": "tie", "tied": "tie", "simultaneously": "same moment",
    "trashed": "discarded removed", "gone": "removed", "cap": "limit",
    "direction": "clockwise",
}
PLAYER_PHRASES = {
    "not my turn": "another player's turn out-of-turn",
    "someone else's turn": "another player's turn", "someone elses turn": "another player's turn",
    "other players turn": "another player's turn",
    "get back": "returned", "card back": "returned", "throw away": "discard",
    "who wins": "final result", "mini hand": "temporary hand", "sub hand": "temporary hand",
    "same time": "same moment", "something else": "different card",
    "2 player": "two-player", "two player": "two-player", "starting hand": "opening hand",
    "keeper power": "free action", "ran out": "runs out", "run out": "runs out",
    "on top of": "cover", "which way": "direction clockwise",
    "rid of": "off their table removed", "after the": "earlier followed later",
}
# what a card's mechanic is about, in the rulings' words (see _implied_topics)
TOPIC_WORDS = {"turn-end": "turn ends immediately", "surprise": "surprise cancel", "free-action": "free action",
               "temporary-hand": "temporary hand", "creeper": "creeper"}
# shorthand players use for card names
CARD_SHORTHAND = {"d3p2": "Draw 3, Play 2 of Them", "d2ue": "Draw 2 and Use 'Em",
                  "gowi": "Get On With It"}


def edition_key(name: str) -> str:
    """Facet form of an edition: 'Online FAQ' -> 'faq', 'EcoFluxx' -> 'eco'."""
    words = re.findall(r"[a-z0-9]+", name.lower().replace("ecofluxx", "eco fluxx"))
    words = [w for w in words if w not in ("fluxx", "online", "edition")]
    return " ".join(words) or name.strip().lower()


def _norm(text: str) -> str:
    try:
        from adjudicator.names import normalize
    except Exception:  # pragma: no cover - the engine package mid-edit
        text = text.replace("\u2019", "'").lower().replace("&", " and ").replace("'", "")
        return " ".join(re.split(r"[^a-z0-9]+", text)).strip()
    return normalize(text)


def _card_key(name: str) -> str:
    return _norm(name)


def _numbers(words: list[str]) -> list[str]:
    return [_NUMBER_WORDS.get(w, w) for w in words]


# --------------------------------------------------------------------------- card lexicon

class CardLexicon:
    """Recognises card names and aliases in free text (longest match first).

    A phrase maps to the facet keys it stands for: itself, the catalogue card it is an
    alias of, and the card it is an analogue of when a reference ruling lists analogues
    (a ruling whose id ends in "-analogues": its first card is the generic name and the
    others are other editions' versions of it, e.g. Wormhole for Mystery Play).
    """

    def __init__(self) -> None:
        self.phrases: dict[tuple[str, ...], set[str]] = {}
        self.display: dict[str, str] = {}
        self.max_len = 1

    def add(self, phrase: str, *keys_of: str, own_key: bool = True) -> None:
        words = _numbers(_norm(phrase).split())
        if not words:
            return
        keys = {_card_key(k) for k in ((phrase,) if own_key else ()) + keys_of if _card_key(k)}
        for k, name in zip([_card_key(phrase), *map(_card_key, keys_of)], [phrase, *keys_of]):
            self.display.setdefault(k, name)
        variants = {tuple(words)}
        trimmed = [w for w in words if w not in ("of", "them", "the", "a", "an")]
        if len(trimmed) >= 2 and trimmed != words:
            variants.add(tuple(trimmed))
        for v in variants:
            self.phrases.setdefault(v, set()).update(keys)
            self.max_len = max(self.max_len, len(v))

    def find(self, text: str) -> list[tuple[str, set[str]]]:
        """(matched phrase, facet keys) for each card name in `text`, longest first."""
        return [(phrase, keys) for _, _, phrase, keys in self.spans(_norm(text).split())]

    def spans(self, words: list[str]) -> list[tuple[int, int, str, set[str]]]:
        """(start, end, phrase, facet keys) for card names in a list of words."""
        words = _numbers([_norm(w) for w in words])
        out, i = [], 0
        while i < len(words):
            for n in range(min(self.max_len, len(words) - i), 0, -1):
                keys = self.phrases.get(tuple(words[i:i + n]))
                if keys:
                    out.append((i, i + n, " ".join(words[i:i + n]), set(keys)))
                    i += n
                    break
            else:
                i += 1
        return out

    def digest(self) -> str:
        items = sorted((" ".join(k), sorted(v)) for k, v in self.phrases.items())
        return hashlib.sha256(json.dumps(items).encode()).hexdigest()


def _build_lexicon(rulings: Iterable[corpus_mod.Ruling], catalogue) -> CardLexicon:
    lex = CardLexicon()
    rulings = list(rulings)
    ruling_keys = {_card_key(c) for r in rulings for c in (*r.cards, *r.cards_as_written)}
    for r in rulings:
        for written in r.cards_as_written:
            resolved = corpus_mod.resolve_cards([written], catalogue)[0]
            if resolved != written:
                lex.add(written, resolved)
            else:
                lex.add(written)
        for c in r.cards:
            lex.add(c)
        if r.id.endswith("-analogues") and r.cards:
            generic = r.cards[0]
            for other in r.cards[1:]:
                lex.add(other, generic)
    for short, name in CARD_SHORTHAND.items():
        if lex.find(name):
            lex.add(short, name, own_key=False)
    if catalogue is not None:
        try:
            for alias, name in catalogue.aliases().items():
                lex.add(alias, name)
            for name in catalogue.names():
                # single plain words (Time, Love, Milk) are only cards when a ruling says so
                if len(_norm(name).split()) > 1 or _card_key(name) in ruling_keys:
                    lex.add(name)
        except Exception:
            pass
    return lex


@functools.lru_cache(maxsize=1)
def _builtin_lexicon() -> CardLexicon:
    return _build_lexicon(corpus_mod.load_corpus(), corpus_mod._catalogue())


def recognise_cards(text: str, as_names: bool = True) -> list[str]:
    """Card names (display form) or facet keys mentioned in `text`."""
    lex = _builtin_lexicon()
    keys: list[str] = []
    for _, ks in lex.find(text):
        for k in sorted(ks):
            if k not in keys:
                keys.append(k)
    return [lex.display.get(k, k) for k in keys] if as_names else keys


# --------------------------------------------------------------------------- schema

def make_schema() -> Schema:
    return Schema(
        id=ID(stored=True, unique=True),
        question=TEXT(analyzer=_ANALYZER, stored=True),
        answer=TEXT(analyzer=_ANALYZER, stored=True),
        cardtext=TEXT(analyzer=_ANALYZER),
        cards=KEYWORD(stored=True, lowercase=True, commas=True, scorable=True),
        topics=KEYWORD(stored=True, lowercase=True, commas=True, scorable=True),
        editions=KEYWORD(stored=True, lowercase=True, commas=True),
        kind=KEYWORD(stored=True, lowercase=True, commas=True),
        origin=KEYWORD(stored=True, lowercase=True, commas=True),
        display=STORED,
    )


def _document(r: corpus_mod.Ruling, lex: CardLexicon, aliases: Mapping[str, list[str]]) -> dict[str, Any]:
    card_names = list(dict.fromkeys((*r.cards, *r.cards_as_written)))
    keys = []
    for name in card_names:
        k = _card_key(name)
        if k and k not in keys:
            keys.append(k)
    text_names = list(card_names)
    for k in keys:  # other names the same card goes by (Wormhole, Shiny! for Mystery Play)
        text_names.extend(aliases.get(k, ()))
    return {
        "id": r.id,
        "question": r.title,
        "answer": r.answer,
        "cardtext": " ; ".join(dict.fromkeys(text_names)),
        "cards": ",".join(keys),
        "topics": ",".join(t.lower() for t in r.topics),
        "editions": ",".join(dict.fromkeys(edition_key(e) for e in r.editions)),
        "kind": r.kind,
        "origin": "imported" if r.imported else "builtin",
        "display": {"cards": list(r.cards), "editions": list(r.editions),
                    "origin": r.origin, "line": r.line},
    }


def _alias_table(lex: CardLexicon) -> dict[str, list[str]]:
    """facet key -> other names (aliases/analogues) that map onto it."""
    table: dict[str, list[str]] = {}
    for words, keys in lex.phrases.items():
        phrase = " ".join(words)
        for k in keys:
            if k != phrase:
                table.setdefault(k, [])
                shown = lex.display.get(phrase, phrase)
                if shown not in table[k]:
                    table[k].append(shown)
    return table


# --------------------------------------------------------------------------- index state

@dataclass
class _Loaded:
    cache: Path
    digest: str
    index: Any
    folder: Path | None          # None: in-memory only
    manifest: dict[str, Any]
    vocabulary: frozenset[str]
    vocab_list: list[str]
    lexicon: CardLexicon
    facet_keys: frozenset[str]
    topics: frozenset[str]
    kinds: frozenset[str]
    editions: frozenset[str]
    built: bool                  # True when this process built it
    topic_stems: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _searcher: Any = None
    lock: Any = field(default_factory=threading.Lock)

    def searcher(self):
        """One open searcher for the life of the index (opening one costs ~1 ms);
        callers hold `lock` while using it."""
        if self._searcher is None:
            self._searcher = self.index.searcher()
        return self._searcher
    tokens: dict[tuple[str, str], list] = field(default_factory=dict)
    common: frozenset[tuple[str, str]] = frozenset()  # (field, stem) in so many rulings they barely rank
    parsers: dict[tuple, Any] = field(default_factory=dict)
    suggestions: dict[str, str | None] = field(default_factory=dict)
    by_length: dict[int, list[str]] = field(default_factory=dict)


_lock = threading.RLock()
_state: dict[str, _Loaded] = {}
stats = {"builds": 0, "opens": 0, "rebuild_reasons": []}


_inputs_cache: dict[str, Any] = {"key": None, "value": None}


def _inputs() -> tuple[str, list[corpus_mod.Ruling], CardLexicon]:
    """(hash of everything indexed, the rulings to index, the card lexicon); recomputed
    only when the corpus, the imported store or the lexicon object changes."""
    from rulings import ingest

    corpus = corpus_mod.load_corpus()
    store = ingest.load_store()
    lex = _builtin_lexicon()
    key = (id(corpus), ingest.store_key(), id(lex), id(store))
    if _inputs_cache["key"] == key:
        return _inputs_cache["value"][:3]
    imported = ingest.imported_rulings()
    h = hashlib.sha256()
    for part in (f"schema{SCHEMA_VERSION}", corpus.digest(), ingest.store_digest(), lex.digest()):
        h.update(part.encode())
    value = (h.hexdigest(), [*corpus, *imported], lex, corpus, store)  # refs keep ids unique
    _inputs_cache.update(key=key, value=value)
    return value[:3]


def _vocabulary(rulings: Iterable[corpus_mod.Ruling]) -> frozenset[str]:
    words: set[str] = set()
    for r in rulings:
        for text in (r.question, r.answer, " ".join(r.cards), " ".join(r.cards_as_written)):
            words.update(w.lower().replace("\u2019", "'") for w in _WORD.findall(text))
    return frozenset(words)


class _RamStorage(RamStorage):
    """RamStorage whose scratch space is private. whoosh's own RamStorage puts the
    writer's scratch files in a fixed folder (<tmp>/MAIN.tmp) that two processes
    building at once would both write to and delete."""

    def __init__(self) -> None:
        super().__init__()
        self.scratch: list[str] = []

    def temp_storage(self, name=None):
        from whoosh.filedb.filestore import FileStorage

        path = tempfile.mkdtemp(prefix="fluxx-judge-whoosh-")
        self.scratch.append(path)
        return FileStorage(path).create()

    def drop_scratch(self) -> None:
        for path in self.scratch:
            shutil.rmtree(path, ignore_errors=True)
        self.scratch.clear()


def _build_ram(rulings: list[corpus_mod.Ruling], lex: CardLexicon) -> tuple[RamStorage, Any]:
    storage = _RamStorage()
    try:
        ix = storage.create_index(make_schema())
        aliases = _alias_table(lex)
        writer = ix.writer()
        for r in rulings:
            writer.add_document(**_document(r, lex, aliases))
        writer.commit(optimize=True)
    finally:
        storage.drop_scratch()
    return storage, storage.open_index()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_folder(root: Path, digest: str, storage: RamStorage, docs: int) -> Path:
    """Write the in-memory index to root/<digest>, atomically (temp folder + rename)."""
    root.mkdir(parents=True, exist_ok=True)
    final = root / digest[:24]
    tmp = Path(tempfile.mkdtemp(prefix=f".build-{digest[:12]}-", dir=str(root)))
    try:
        files = {}
        for name in storage.list():
            data = bytes(storage.files[name])
            (tmp / name).write_bytes(data)
            files[name] = [len(data), _sha(data)]
        manifest = {"hash": digest, "docs": docs, "schema": SCHEMA_VERSION, "files": files,
                    "built": time.time()}
        (tmp / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        if final.exists():
            _discard(final)
        try:
            os.rename(tmp, final)
        except OSError:
            if _verify(final, digest) is None:  # another process won the race with a bad one
                raise
            _discard(tmp)
    except BaseException:
        _discard(tmp)
        raise
    return final


def _discard(folder: Path) -> None:
    """Remove a folder, first moving it aside so no reader ever sees it half-deleted."""
    try:
        aside = folder.with_name(f".trash-{uuid.uuid4().hex[:8]}")
        os.rename(folder, aside)
        folder = aside
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)


def _verify(folder: Path, digest: str) -> dict[str, bytes] | None:
    """The folder's files when its manifest matches `digest` and every file is intact
    (no file missing, truncated, altered or added); otherwise None."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if manifest.get("hash") != digest or manifest.get("schema") != SCHEMA_VERSION:
            return None
        expected = manifest["files"]
        present = {p.name for p in folder.iterdir()} - {MANIFEST}
        if present != set(expected):
            return None
        out = {}
        for name, (size, sha) in expected.items():
            data = (folder / name).read_bytes()
            if len(data) != size or _sha(data) != sha:
                return None
            out[name] = data
        return out
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _quick_check(loaded: _Loaded) -> bool:
    """Cheap per-query check that the on-disk folder still matches its manifest."""
    if loaded.folder is None:
        return True
    try:
        expected = loaded.manifest["files"]
        with os.scandir(loaded.folder) as it:
            sizes = {e.name: e.stat().st_size for e in it if e.name != MANIFEST}
        return sizes == {n: v[0] for n, v in expected.items()} and (loaded.folder / MANIFEST).exists()
    except OSError:
        return False


def _cleanup(root: Path, keep: Path) -> None:
    try:
        for entry in root.iterdir():
            if entry == keep:
                continue
            if entry.name.startswith((".build-", ".trash-")):
                try:  # an unfinished build of another process: leave it unless old
                    if time.time() - entry.stat().st_mtime < 600 and entry.name.startswith(".build-"):
                        continue
                except OSError:
                    continue
            if entry.is_dir():
                _discard(entry) if not entry.name.startswith(".trash-") else shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
    except OSError:
        pass


def _finish(cache: Path, digest: str, ix, folder: Path | None, manifest: dict, rulings, lex, built: bool) -> _Loaded:
    vocab = _vocabulary(rulings)
    with ix.searcher() as s:
        reader = s.reader()
        facet_keys = frozenset(t.decode() if isinstance(t, bytes) else t for t in reader.lexicon("cards"))
        topics = frozenset(t.decode() if isinstance(t, bytes) else t for t in reader.lexicon("topics"))
        kinds = frozenset(t.decode() if isinstance(t, bytes) else t for t in reader.lexicon("kind"))
        editions = frozenset(t.decode() if isinstance(t, bytes) else t for t in reader.lexicon("editions"))
        threshold = max(COMMON_MIN_DOCS, COMMON_SHARE * reader.doc_count())
        common = frozenset((f, _s(t)) for f in ("question", "answer") for t in reader.lexicon(f)
                           if reader.doc_frequency(f, t) > threshold)
    by_length: dict[int, list[str]] = {}
    for w in sorted(vocab):
        by_length.setdefault(len(w), []).append(w)
    return _Loaded(cache=cache, digest=digest, index=ix, folder=folder, manifest=manifest,
                   vocabulary=vocab, vocab_list=sorted(vocab), lexicon=lex, facet_keys=facet_keys,
                   topics=topics, kinds=kinds, editions=editions, built=built,
                   topic_stems={t: tuple(tok.text for tok in _ANALYZER(t.replace("-", " "))) for t in topics},
                   by_length=by_length, common=common)


def _load() -> _Loaded:
    """The index for the current corpus and cache directory, built or rebuilt if needed."""
    cache = paths.cache_dir()
    digest, rulings, lex = _inputs()
    key = str(cache)
    with _lock:
        cur = _state.get(key)
        if cur is not None and cur.digest == digest and _quick_check(cur):
            return cur
        if cur is not None:
            stats["rebuild_reasons"].append("stale" if cur.digest != digest else "damaged")
        root = cache / "index"
        folder = root / digest[:24]
        files = _verify(folder, digest) if folder.is_dir() else None
        if files is not None:
            try:
                storage = RamStorage()
                storage.files.update(files)
                ix = storage.open_index()
                if ix.doc_count() == len(rulings):
                    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
                    loaded = _finish(cache, digest, ix, folder, manifest, rulings, lex, False)
                    stats["opens"] += 1
                    _state[key] = loaded
                    return loaded
            except Exception:  # unreadable despite the manifest: rebuild below
                pass
        storage, ix = _build_ram(rulings, lex)
        stats["builds"] += 1
        written: Path | None = None
        manifest: dict[str, Any] = {}
        try:
            written = _write_folder(root, digest, storage, len(rulings))
            manifest = json.loads((written / MANIFEST).read_text(encoding="utf-8"))
            _cleanup(root, written)
        except OSError:
            written = None  # read-only or full cache: keep the index in memory only
        loaded = _finish(cache, digest, ix, written, manifest, rulings, lex, True)
        _state[key] = loaded
        return loaded


def ensure_index() -> dict[str, Any]:
    """Build or open the index now; returns where it lives and how many records it holds."""
    loaded = _load()
    return {"folder": str(loaded.folder) if loaded.folder else None, "hash": loaded.digest,
            "docs": loaded.index.doc_count(), "built": loaded.built}


def forget_loaded(lexicon: bool = False) -> None:
    """Drop in-process index state (the next search re-reads or rebuilds from disk);
    with lexicon=True also the card-name lexicon (after the catalogue changed)."""
    with _lock:
        _state.clear()
        _inputs_cache.update(key=None, value=None)
    if lexicon:
        _builtin_lexicon.cache_clear()
        _catalogue.cache_clear()


# --------------------------------------------------------------------------- results

@dataclass
class Hit:
    id: str
    score: float
    title: str
    highlight: str
    cards: list[str]
    topics: list[str]
    kind: str
    editions: list[str]
    imported: bool = False
    origin: str | None = None
    line: int | None = None

    @property
    def question(self) -> str:
        return self.title

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "score": round(self.score, 4), "question": self.title,
               "highlight": self.highlight, "cards": self.cards, "topics": self.topics,
               "kind": self.kind, "editions": self.editions}
        if self.imported:
            out.update(imported=True, origin=self.origin, line=self.line)
        return out


@dataclass
class SearchResult:
    query: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None       # the query with suggested spellings, or None
    corrected_query: str | None = None  # same text, ready to run; never run implicitly
    corrections: dict[str, str] = field(default_factory=dict)
    filters: dict[str, list[str]] = field(default_factory=dict)
    cards_recognised: list[str] = field(default_factory=list)
    searched_terms: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_json() for h in self.hits],
                "suggestion": self.suggestion, "corrected_query": self.corrected_query,
                "filters": self.filters, "cards_recognised": self.cards_recognised,
                "warnings": self.warnings}


@dataclass
class _Parsed:
    words: list[str]
    phrases: list[list[str]]
    filters: dict[str, list[str]]


def _parse(query: str, filters: Mapping[str, Any] | None) -> _Parsed:
    text = (query or "")[:MAX_QUERY_CHARS]
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")
    found: dict[str, list[str]] = {}
    for name, value in (filters or {}).items():
        name = name.lower().rstrip("s") if name.lower() not in ("kind",) else "kind"
        if name not in FILTER_FIELDS or value is None:
            continue
        values = [value] if isinstance(value, str) else list(value)
        found.setdefault(name, []).extend(str(v) for v in values if str(v).strip())

    def take(m: re.Match) -> str:
        field_name = m.group(1).lower()
        field_name = "kind" if field_name == "kind" else field_name.rstrip("s")
        value = next(g for g in m.groups()[1:] if g is not None)
        if value.strip():
            found.setdefault(field_name, []).append(value.strip())
        return " "

    text = _FILTER_RE.sub(take, text)
    text = _STRAY_FIELD.sub(" ", text)
    phrases: list[list[str]] = []
    if text.count('"') >= 2:
        def phrase(m: re.Match) -> str:
            ws = [w.lower() for w in _WORD.findall(m.group(1))]
            if len(ws) > 1:
                phrases.append(ws)
            return " " + m.group(1) + " "
        text = re.sub(r'"([^"]*)"', phrase, text)
    words = [w.lower() for w in _WORD.findall(text)][:MAX_TERMS]
    return _Parsed(words=words, phrases=phrases[:8], filters=found)


def _filter_query(parsed: _Parsed, loaded: _Loaded, warnings: list[str]):
    clauses = []
    for name, values in parsed.filters.items():
        terms = []
        for v in values:
            if name == "card":
                keys = set()
                for _, ks in loaded.lexicon.find(v):
                    keys |= ks
                keys.add(_card_key(v))
                terms.extend(Term("cards", k) for k in sorted(keys) if k)
                if not keys & loaded.facet_keys:
                    close = difflib.get_close_matches(_card_key(v), sorted(loaded.facet_keys), n=1, cutoff=0.7)
                    warnings.append(f"no ruling mentions the card {v!r}"
                                    + (f" - did you mean {loaded.lexicon.display.get(close[0], close[0])!r}?" if close else ""))
            else:
                fieldname = {"topic": "topics", "edition": "editions", "kind": "kind"}[name]
                value = edition_key(v) if name == "edition" else v.strip().lower()
                known = {"topic": loaded.topics, "edition": loaded.editions, "kind": loaded.kinds}[name]
                if value not in known:
                    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
                    warnings.append(f"unknown {name} {v!r}" + (f" - did you mean {close[0]!r}?" if close else ""))
                terms.append(Term(fieldname, value))
        if terms:
            clauses.append(Or(terms) if len(terms) > 1 else terms[0])
    if not clauses:
        return None
    return And(clauses) if len(clauses) > 1 else clauses[0]


def _closest(loaded: _Loaded, word: str) -> str | None:
    if word not in loaded.suggestions:
        pool = [w for n in range(len(word) - 2, len(word) + 3) for w in loaded.by_length.get(n, ())]
        close = difflib.get_close_matches(word, pool, n=1, cutoff=0.75)
        loaded.suggestions[word] = close[0] if close and close[0] != word else None
    return loaded.suggestions[word]


def _suggest(parsed: _Parsed, loaded: _Loaded, query: str) -> tuple[dict[str, str], str | None]:
    """Spelling suggestions from the raw (unstemmed) words of the indexed rulings."""
    fixes: dict[str, str] = {}
    checked = 0
    for w in dict.fromkeys(parsed.words):
        if checked >= 12:
            break
        if w in loaded.vocabulary or w in _STOP or len(w) < 3 or not w.isalpha():
            continue
        if {w + "s", w + "es", w[:-1], w + "ed", w + "ing"} & loaded.vocabulary:
            continue  # an inflection of a known word, not a typo
        checked += 1
        close = _closest(loaded, w)
        if close:
            fixes[w] = close
    if not fixes:
        return {}, None
    corrected = query[:MAX_QUERY_CHARS]
    for wrong, right in fixes.items():
        corrected = re.sub(rf"(?i)(?<![\w']){re.escape(wrong)}(?![\w'])", right, corrected)
    return fixes, corrected


def _s(t) -> str:
    return t.decode() if isinstance(t, bytes) else str(t)


def _parser(loaded: _Loaded, fields: tuple[str, ...], scale: float | None):
    key = (fields, scale)
    parser = loaded.parsers.get(key)
    if parser is None:
        group = qparser.OrGroup.factory(scale) if scale else qparser.OrGroup
        parser = qparser.MultifieldParser(list(fields), loaded.index.schema,
                                          fieldboosts={f: FIELD_BOOSTS[f] for f in fields}, group=group)
        for plugin_cls in (qparser.FieldsPlugin, qparser.WildcardPlugin, qparser.RangePlugin,
                           qparser.BoostPlugin, qparser.GroupPlugin, qparser.OperatorsPlugin,
                           qparser.PhrasePlugin, qparser.SingleQuotePlugin):
            parser.remove_plugin_class(plugin_cls)
        loaded.parsers[key] = parser
    return parser


def _text_query(loaded: _Loaded, text: str, scale: float | None = COORDINATION):
    """OR-grouped query over question, card names and answer for plain words (with a
    coordination bonus for matching more of them unless scale is None)."""
    safe = " ".join(re.sub(r"[^a-z0-9]+", " ", w.lower()) for w in text.split())
    if not safe.strip():
        return None
    try:
        q = _parser(loaded, tuple(FIELD_BOOSTS), scale).parse(safe)
    except Exception:  # pragma: no cover - the parser only ever sees plain words
        return None
    if q is None or not list(q.all_terms()):
        return None
    if loaded.common:
        # a word found in a large share of a big index's questions or answers costs
        # whoosh a pass over most documents and adds almost nothing to the ranking:
        # drop it from that field (small indexes have no such words; the proximity
        # rerank still sees it)
        def prune(node):
            if isinstance(node, Term) and (node.fieldname, _s(node.text)) in loaded.common:
                return NullQuery
            return node

        q = q.accept(prune).normalize()
    return q


def _expansions(words: list[str]) -> tuple[str, str]:
    """Rulings vocabulary for the table talk in the query (see PLAYER_WORDS and
    PLAYER_PHRASES): (words from phrases, words from single words)."""
    have = set(words)
    joined = " " + " ".join(w.replace("\u2019", "'") for w in words) + " "
    from_phrases: list[str] = []
    for phrase, exp in PLAYER_PHRASES.items():
        if f" {phrase} " in joined:
            from_phrases.extend(exp.split())
    from_words: list[str] = []
    for w in words:
        from_words.extend(PLAYER_WORDS.get(w, "").split())
    p = [w for w in dict.fromkeys(from_phrases) if w not in have]
    return " ".join(p), " ".join(w for w in dict.fromkeys(from_words) if w not in have and w not in p)


def _pairs(words: list[str]) -> list[tuple[str, str]]:
    """Consecutive pairs of the query's stems (stop words dropped), for proximity."""
    stems = [t.text for t in _ANALYZER(" ".join(words))][:MAX_TERMS]
    return [p for p in dict.fromkeys(zip(stems, stems[1:])) if p[0] != p[1]]


def _tokens(loaded: _Loaded, doc_id: str, field_name: str, text: str) -> list[tuple[int, int, str]]:
    """(start, end, stem) for each word of a stored field, cached per index."""
    key = (doc_id, field_name)
    toks = loaded.tokens.get(key)
    if toks is None:
        toks = [(m.start(), m.end(), _stem(m.group(0))) for m in _TOKEN.finditer(text)]
        loaded.tokens[key] = toks
    return toks


def _near(toks: list[tuple[int, int, str]], seq: tuple[str, ...], slop: int) -> bool:
    """True when the stems of `seq` occur in order, each within `slop` words of the last."""
    stems = [t[2] for t in toks]
    first = seq[0]
    for i, st in enumerate(stems):
        if st != first:
            continue
        pos, ok = i, True
        for nxt in seq[1:]:
            window = stems[pos + 1: pos + 2 + slop]
            if nxt not in window:
                ok = False
                break
            pos = pos + 1 + window.index(nxt)
        if ok:
            return True
    return False


def _bonus(loaded: _Loaded, doc_id: str, question: str, answer: str,
           pairs: list[tuple[str, str]], names: list[tuple[str, ...]]) -> float:
    """Extra score for words of the query that stand close together in a ruling, and for
    card names written out in its question or answer (the rerank of the best hits)."""
    q_toks = _tokens(loaded, doc_id, "question", question)
    a_toks = _tokens(loaded, doc_id, "answer", answer)
    bonus = 0.0
    for pair in pairs:
        if _near(q_toks, pair, PROXIMITY_SLOP):
            bonus += PROXIMITY_BOOST * 1.5
        elif _near(a_toks, pair, PROXIMITY_SLOP):
            bonus += PROXIMITY_BOOST
    for seq in names:
        if len(seq) > 1:
            if _near(q_toks, seq, 0):
                bonus += NAME_PHRASE_BOOST * 1.5
            elif _near(a_toks, seq, 0):
                bonus += NAME_PHRASE_BOOST
    return bonus


@functools.lru_cache(maxsize=1)
def _catalogue():
    """The engine's card catalogue, or None; looked up once per process (a broken card
    file must not cost a failed load on every query). forget_loaded(lexicon=True)
    looks again."""
    return corpus_mod._catalogue()


def _implied_topics(card_names: Iterable[str]) -> set[str]:
    """Topics a card brings with it through what its mechanic declares (the same
    metadata the interaction graph is built from): Time Portal ends the turn, so a
    question naming it is about turn ends; That's Mine is a Surprise; and so on."""
    cat = _catalogue()
    if cat is None:  # the engine's catalogue is optional for search
        return set()
    topics: set[str] = set()
    for name in card_names:
        card = cat.find(name)
        if card is None:
            continue
        impl = card.impl
        if impl.ends_turn:
            topics.add("turn-end")
        if impl.free_action:
            topics.add("free-action")
        if card.type == "surprise":
            topics.add("surprise")
        if card.type == "creeper":
            topics.add("creeper")
        if card.mechanic == "temp_hand":
            topics.add("temporary-hand")
    return topics


def _topics_in(loaded: _Loaded, words: list[str]) -> list[str]:
    """Topic tags named in the query ("hand limit" -> hand-limit, "surprises" -> surprise)."""
    stems = [t.text for t in _ANALYZER(" ".join(words))]
    found = []
    for topic, tstems in loaded.topic_stems.items():
        n = len(tstems)
        if n and any(stems[i:i + n] == list(tstems) for i in range(len(stems) - n + 1)):
            found.append(topic)
    return sorted(found)


_TOKEN = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)?")


@functools.lru_cache(maxsize=20000)
def _stem(word: str) -> str:
    toks = [t.text for t in _ANALYZER(word)]
    return toks[0] if toks else ""


def highlight_text(text: str, stems: set[str], maxchars: int = 170) -> str:
    """The stretch of `text` (about maxchars long) holding most of the query's stems,
    each match wrapped in HL_OPEN/HL_CLOSE; "" when nothing matches."""
    tokens = [(m.start(), m.end(), _stem(m.group(0))) for m in _TOKEN.finditer(text)]
    hits = [i for i, (_, _, st) in enumerate(tokens) if st and st in stems]
    if not hits:
        return ""
    best, best_count, j = (hits[0], hits[0]), 0, 0
    for i in range(len(hits)):  # the window of matches that fits and holds the most
        while tokens[hits[i]][1] - tokens[hits[j]][0] > maxchars:
            j += 1
        if i - j + 1 > best_count:
            best, best_count = (hits[j], hits[i]), i - j + 1
    start, end = tokens[best[0]][0], tokens[best[1]][1]
    spare = max(0, maxchars - (end - start)) // 2
    lo, hi = max(0, start - spare), min(len(text), end + spare)
    while lo > 0 and not text[lo - 1].isspace():
        lo -= 1  # do not cut a word in half
    while hi < len(text) and not text[hi].isspace():
        hi += 1
    out, pos = [], lo
    for i in range(len(tokens)):
        s0, e0, st = tokens[i]
        if s0 < lo or e0 > hi or st not in stems:
            continue
        out.append(text[pos:s0] + HL_OPEN + text[s0:e0] + HL_CLOSE)
        pos = e0
    out.append(text[pos:hi])
    frag = "".join(out).strip()
    return ("..." if lo > 0 else "") + frag + ("..." if hi < len(text) else "")


def _binary(q):
    """The same query with every OR as a binary tree of unions. whoosh otherwise picks a
    pre-loaded array union for some ORs depending on the index size, which scores
    differently and whose skip_to is unreliable inside compound queries; the binary form
    is also the faster one here."""

    def fix(node):
        if type(node) is Or:
            return DefaultOr(node.subqueries, boost=node.boost, minmatch=node.minmatch, scale=node.scale)
        return node

    return q.accept(fix)


def _run(searcher, q, **kwargs):
    """searcher.search, retried without whoosh's block-skipping optimisation (which trips
    an assertion on some compound queries); an empty list if whoosh still fails."""
    try:
        return searcher.search(q, **kwargs)
    except Exception:
        if kwargs.get("optimize") is False:
            return []
        try:
            return searcher.search(q, **{**kwargs, "optimize": False})
        except Exception:
            return []


def search(query: str, limit: int = 10, filters: Mapping[str, Any] | None = None) -> SearchResult:
    """Ranked rulings for `query` (never raises on odd input; see the module docstring).

    whoosh scores the words (question above card names above answer, with a bonus for
    matching more of them), the card and topic facets and the table-talk expansions;
    the best RERANK hits then get a bonus for query words standing close together and
    for card names written out in full, computed from the stored text.
    """
    if not isinstance(query, str):
        query = "" if query is None else str(query)
    try:
        limit = max(1, min(int(limit), 1000))
    except (TypeError, ValueError):
        limit = 10
    loaded = _load()
    parsed = _parse(query, filters)
    result = SearchResult(query=query, filters={k: list(v) for k, v in parsed.filters.items()})
    if len(query) > MAX_QUERY_CHARS:
        result.warnings.append(f"query cut to its first {MAX_QUERY_CHARS} characters")
    filter_q = _filter_query(parsed, loaded, result.warnings)
    result.corrections, result.corrected_query = _suggest(parsed, loaded, query)
    result.suggestion = result.corrected_query

    # Card names in the query become card terms: the facet (boosted) and the name itself.
    # Their words (play, all, draw, 3) leave the bag of words, where they would favour
    # any ruling that merely repeats them.
    card_keys: list[str] = []
    consumed: set[int] = set()
    names: list[tuple[str, ...]] = []
    for start, end, phrase, keys in loaded.lexicon.spans(parsed.words):
        known = sorted(k for k in keys if k in loaded.facet_keys)
        if not known:
            continue
        consumed.update(range(start, end))
        toks = tuple(t.text for t in _ANALYZER(phrase))
        if toks:
            names.append(toks)
        for k in known:
            if k not in card_keys:
                card_keys.append(k)
    result.cards_recognised = [loaded.lexicon.display.get(k, k) for k in card_keys]
    plain = [w for i, w in enumerate(parsed.words) if i not in consumed]

    clauses: list[Any] = []
    stems: set[str] = set()
    if plain:
        text_q = _text_query(loaded, " ".join(plain))
        if text_q is not None:
            clauses.append(text_q)
            result.searched_terms = sorted({_s(t) for _, t in text_q.all_terms()})
    for toks in names:
        stems.update(toks)
        if len(toks) == 1:  # a one-word name (Veto!) still counts where it is written
            clauses.extend(Term(f, toks[0], boost=NAME_PHRASE_BOOST * b)
                           for f, b in (("question", 1.5), ("answer", 1.0)))
        clauses.append(Phrase("cardtext", list(toks), boost=NAME_PHRASE_BOOST) if len(toks) > 1
                       else Term("cardtext", toks[0], boost=NAME_PHRASE_BOOST))
    if parsed.words:
        by_phrase, by_word = _expansions(parsed.words)
        for extra, boost in ((by_phrase, PHRASE_EXPANSION_BOOST), (by_word, EXPANSION_BOOST)):
            exp_q = _text_query(loaded, extra) if extra else None
            if exp_q is not None:
                clauses.append(exp_q.with_boost(boost))
                stems.update(_s(t) for _, t in exp_q.all_terms())
        implied = _implied_topics(result.cards_recognised)
        topic_terms = sorted(set(_topics_in(loaded, parsed.words)) | implied)
        if topic_terms:
            clauses.append(Or([Term("topics", t, boost=TOPIC_BOOST) for t in topic_terms]))
        # a card also brings the words of what it does ("Time Portal" asks about turn ends)
        implied_words = " ".join(TOPIC_WORDS[t] for t in sorted(implied) if t in TOPIC_WORDS)
        implied_q = _text_query(loaded, implied_words) if implied_words else None
        if implied_q is not None:
            clauses.append(implied_q.with_boost(IMPLIED_BOOST))
    quoted = [tuple(t.text for t in _ANALYZER(" ".join(ws))) for ws in parsed.phrases]
    for toks in quoted:
        if len(toks) > 1:
            clauses.extend(Phrase(f, list(toks), boost=b) for f, b in (("question", 2.0), ("answer", 1.0)))
    if card_keys:
        clauses.append(Or([Term("cards", k, boost=CARD_BOOST) for k in card_keys]))
    stems.update(result.searched_terms)
    pairs = _pairs(plain) if PROXIMITY_BOOST else []

    with loaded.lock:
        searcher = loaded.searcher()
        if not clauses:
            if filter_q is None:
                return result
            found = _run(searcher, Every(), limit=limit, filter=filter_q, optimize=False)
            rows = [(hit.fields(), float(hit.score or 0.0)) for hit in found]
        else:
            final = _binary(Or(clauses) if len(clauses) > 1 else clauses[0])
            found = _run(searcher, final, limit=max(limit, RERANK), filter=filter_q, optimize=False)
            rows = []
            for hit in found:
                stored = hit.fields()
                score = float(hit.score or 0.0)
                if pairs or names:
                    score += _bonus(loaded, stored["id"], stored.get("question", ""),
                                    stored.get("answer", ""), pairs, names)
                rows.append((stored, score))
            rows.sort(key=lambda row: -row[1])
            rows = rows[:limit]
    for stored, score in rows:
        answer, question = stored.get("answer", ""), stored.get("question", "")
        frag = highlight_text(answer, stems) or highlight_text(question, stems)
        if not frag:
            frag = corpus_mod.first_sentence(answer) or question
        display = stored.get("display") or {}
        result.hits.append(Hit(
            id=stored["id"], score=score, title=question, highlight=" ".join(frag.split()),
            cards=list(display.get("cards", [])),
            topics=[t for t in stored.get("topics", "").split(",") if t],
            kind=stored.get("kind", ""), editions=list(display.get("editions", [])),
            imported=stored.get("origin") == "imported", origin=display.get("origin"),
            line=display.get("line")))
    return result
