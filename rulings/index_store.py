"""The search index on disk: its schema, how it is built, and how it is kept and opened.

The index lives in the user's cache directory (FLUXX_JUDGE_CACHE overrides it) in a
folder named after a hash of the inputs' names, sizes and modification times (the ruling
files, rulings/vocabulary.yaml, the card data files and the imported-rulings store), so
checking that the index is current costs a few stat calls and no parsing. Beside
whoosh's files the folder holds what the search derives from the rulings (DERIVED_FILE:
the card lexicon, the facet values, each card's implied topics, the players'
vocabulary), so a new process opens the index and searches without deriving or parsing
anything again. The whoosh index is written in one bulk pass by rulings.index_writer
(whoosh's files, without its per-document pipeline).

whoosh keeps its table of contents, stored fields and positions as pickles, and
unpickling runs code, so nothing is read from a folder someone else could have
written: the folders and files must be the user's alone, opened without following
links (adjudicator.private_cache), and the manifest, which lists every file's size and
SHA-256 sum, must carry an HMAC made with the user's cache key. The folder is written
under a temporary name and renamed into place only when complete; it is read into
memory once, checked, and whoosh reads those same bytes from memory. A missing, stale,
half-written, damaged, unsigned or foreign folder is rebuilt, never trusted. When the
cache folder cannot be written, or is not the user's alone, the index lives in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
from collections import Counter
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from whoosh.fields import KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage

from adjudicator import private_cache
from adjudicator.private_cache import Folder, Untrusted, read_signed, write_signed
from rulings import corpus as corpus_mod
from rulings import lexicon, paths
from rulings.lexicon import ANALYZER, CardLexicon, Vocabulary, card_key

SCHEMA_VERSION = 16  # raise it whenever what a document holds changes
MANIFEST = "MANIFEST.json"
DERIVED_FILE = "DERIVED.json"
# the unstemmed words of every ruling plus every card name and alias, counted at build
# time and stored in DERIVED_FILE: whoosh's ListCorrector suggests spellings from them
SPELL_WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)*")

stats: dict[str, Any] = {"builds": 0, "opens": 0, "rebuild_reasons": []}


def make_schema() -> Schema:
    return Schema(
        # stored, not indexed: nothing looks a ruling up by id in the index (corpus.get
        # does), and an indexed id is a term and a posting block per ruling, over a
        # third of a 10,000-record build's commit
        id=STORED,
        question=TEXT(analyzer=ANALYZER, stored=True),
        # no positions for the answer: proximity is scored from the stored text (see
        # rulings.ranking), and leaving them out makes the build a fifth faster
        answer=TEXT(analyzer=ANALYZER, stored=True, phrase=False),
        cardtext=TEXT(analyzer=ANALYZER),
        cards=KEYWORD(stored=True, lowercase=True, commas=True, scorable=True),
        topics=KEYWORD(stored=True, lowercase=True, commas=True, scorable=True),
        editions=KEYWORD(stored=True, lowercase=True, commas=True),
        kind=KEYWORD(stored=True, lowercase=True, commas=True),
        basis=KEYWORD(stored=True, lowercase=True, commas=True),
        origin=KEYWORD(stored=True, lowercase=True, commas=True),
        display=STORED,
    )


# --------------------------------------------------------------------------- editions

def _edition_table() -> dict[str, str]:
    """Every way of writing an edition -> the key `cards --edition` takes."""
    try:
        from adjudicator.catalogue import EDITIONS
    except Exception:  # pragma: no cover - the engine mid-edit
        EDITIONS = {}
    table = {}
    for key, title in EDITIONS.items():
        table[key] = key
        table[_plain(title)] = key
        table[_plain(key)] = key
    table.update({"online faq": "faq", "faq": "faq", "online": "faq", "base": "base",
                  "fluxx 5": "base", "fluxx 5 0": "base"})
    return table


def _plain(name: str) -> str:
    import re

    words = re.findall(r"[a-z0-9]+", name.lower().replace("ecofluxx", "eco fluxx"))
    words = [w for w in words if w not in ("fluxx", "edition")]
    return " ".join(words)


_EDITIONS: dict[str, str] | None = None
_EDITION_KEYS: dict[str, str] = {}   # name -> key, for the table in _EDITIONS


def edition_key(name: str) -> str:
    """Facet form of an edition, the same keys `fluxx-judge cards --edition` takes:
    'Online FAQ' -> 'faq', 'EcoFluxx' -> 'eco', 'Star Fluxx' -> 'star'; an edition the
    catalogue does not know keeps its plain name ('Zombie' -> 'zombie')."""
    global _EDITIONS
    if _EDITIONS is None:
        _EDITIONS = _edition_table()
        _EDITION_KEYS.clear()
    key = _EDITION_KEYS.get(name)
    if key is None:
        plain = _plain(name)
        key = _EDITIONS.get(plain) or _EDITIONS.get(name.strip().lower()) or plain or name.strip().lower()
        if len(_EDITION_KEYS) < 10_000:  # a ruling's editions are few; the store's are bounded
            _EDITION_KEYS[name] = key
    return key


# --------------------------------------------------------------------------- documents

def _card_editions(cat, keys: list[str]) -> list[str]:
    if cat is None:
        return []
    out: list[str] = []
    for k in keys:
        card = cat.find(k)
        if card is not None:
            out.extend(card.editions)
    return out


def document(r: corpus_mod.Ruling, aliases: dict[str, list[str]], cat) -> dict[str, Any]:
    """The whoosh document for one ruling. Its editions are the editions of its sources
    and of the cards it is about, so `edition:star` finds the rulings about Star Fluxx's
    cards wherever they were published."""
    card_names = list(dict.fromkeys((*r.cards, *r.cards_as_written)))
    keys = list(dict.fromkeys(k for k in map(card_key, card_names) if k))
    text_names = list(card_names)
    for k in keys:  # other names the same card goes by (Wormhole, Shiny! for Mystery Play)
        text_names.extend(aliases.get(k, ()))
    names = " ; ".join(dict.fromkeys(text_names))
    editions = [edition_key(e) for e in r.editions] + _card_editions(cat, keys)
    return {
        "id": r.id,
        "question": r.title,
        "answer": r.answer,
        "cardtext": names,
        "cards": ",".join(keys),
        "topics": ",".join(t.lower() for t in r.topics),
        "editions": ",".join(dict.fromkeys(editions)),
        "kind": r.kind,
        "basis": r.basis,
        "origin": "imported" if r.imported else "builtin",
        "display": {"cards": list(r.cards), "editions": list(r.editions),
                    "origin": r.origin, "line": r.line},
    }


# --------------------------------------------------------------------------- inputs

_builtin_digest: str | None = None


def _builtin_inputs() -> str:
    """Hash of the built-in inputs (the ruling files, the vocabulary, the card data),
    from their names, sizes and modification times: taken once per process without
    reading them (forget() takes it again)."""
    global _builtin_digest
    if _builtin_digest is None:
        h = hashlib.sha256(f"schema{SCHEMA_VERSION}".encode())
        folders = [resources.files("rulings") / "data"]
        files = [resources.files("rulings") / "vocabulary.yaml"]
        try:
            folders.append(resources.files("adjudicator") / "data" / "cards")
        except Exception:  # the engine mid-edit: search still works on the rulings
            pass
        for folder in folders:
            files.extend(sorted((e for e in folder.iterdir() if e.name.endswith((".yaml", ".yml"))),
                                key=lambda e: e.name))
        for entry in files:
            try:
                st = os.stat(str(entry))
                h.update(f"{entry}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
            except OSError:  # not a plain file (a zipped install): hash the bytes
                h.update(str(entry).encode() + hashlib.sha256(entry.read_bytes()).digest())
        _builtin_digest = h.hexdigest()
    return _builtin_digest


def _store_inputs() -> str:
    """Key of the imported-rulings store: its path, size, modification time and inode
    (every save replaces the file, so each save changes it), taken without reading it."""
    from rulings import ingest

    return hashlib.sha256(repr(ingest.store_key()).encode()).hexdigest()


def input_digest() -> str:
    """Hash of everything the index is built from: changes when any input does."""
    return hashlib.sha256(f"{_builtin_inputs()}:{_store_inputs()}".encode()).hexdigest()


# --------------------------------------------------------------------------- loaded index

@dataclass
class Loaded:
    cache: Path
    digest: str
    index: Any
    folder: Path | None          # None: in-memory only
    manifest: dict[str, Any]
    lexicon: CardLexicon
    vocab: Vocabulary                      # rulings/vocabulary.yaml as built with the index
    facet_keys: frozenset[str]
    topics: frozenset[str]
    kinds: frozenset[str]
    editions: frozenset[str]
    bases: frozenset[str]
    implied: dict[str, list[str]]          # card facet key -> topics its mechanic implies
    words: dict[str, int]                  # spelling vocabulary: word -> count
    topic_stems: dict[str, tuple[str, ...]]
    built: bool                  # True when this process built it
    store_problem: str | None = None
    lock: Any = field(default_factory=threading.Lock)
    _searcher: Any = None
    tokens: dict[tuple[int, str], list[str]] = field(default_factory=dict)   # stems of stored fields
    frequencies: dict[tuple[str, str], int] = field(default_factory=dict)   # (field, stem) -> doc frequency
    spelling: dict[str, list[str]] = field(default_factory=dict)             # word -> corrector's options
    _corrector: Any = None

    def corrector(self):
        """whoosh's ListCorrector over the spelling vocabulary."""
        if self._corrector is None:
            from whoosh.spelling import ListCorrector

            self._corrector = ListCorrector(list(self.words))
        return self._corrector

    def searcher(self):
        """One open searcher for the life of the index; callers hold `lock`."""
        if self._searcher is None:
            self._searcher = self.index.searcher()
        return self._searcher

    def docs(self) -> int:
        return self.index.doc_count()


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


def spelling_words(rulings: list[corpus_mod.Ruling], lex: CardLexicon) -> dict[str, int]:
    """word -> how many times it is written, over every ruling's question, answer and
    card names plus every name the lexicon knows; apostrophes dropped (couldnt)."""
    # a word never holds white space: the white-space-separated stretches are counted
    # in one pass, and each distinct one is split into words and folded (lower case,
    # no apostrophes) once
    stretches = Counter("\n".join(
        f"{r.title} {r.answer} {' '.join(r.cards)} {' '.join(r.cards_as_written)}" for r in rulings).split())
    counts: Counter[str] = Counter()
    for stretch, n in stretches.items():
        for w in SPELL_WORD.findall(stretch):
            counts[w.lower().replace("'", "").replace("\u2019", "")] += n
    for name in lex.names():
        counts.update(w for w in name.split() if w.isalpha())
    return dict(sorted(counts.items()))


def _derive(rulings: list[corpus_mod.Ruling], lex: CardLexicon) -> dict[str, Any]:
    keys = sorted({card_key(c) for c in {c for r in rulings for c in (*r.cards, *r.cards_as_written)}} - {""})
    implied = {}
    for k in keys:
        topics = sorted(lexicon.implied_topics([lex.display.get(k, k)]))
        if topics:
            implied[k] = topics
    return {"lexicon": lex.to_json(), "vocabulary": lexicon.vocabulary().to_json(),
            "implied": implied, "spelling": spelling_words(rulings, lex),
            "cards": keys,
            "topics": sorted({t.lower() for r in rulings for t in r.topics}),
            "kinds": sorted({r.kind for r in rulings}),
            "bases": sorted({r.basis for r in rulings}),
            "editions": None}  # filled from the index after the build


def build(rulings: list[corpus_mod.Ruling], lex: CardLexicon,
          store_problem: str | None = None) -> tuple[RamStorage, Any, dict[str, Any]]:
    storage = _RamStorage()
    cat = lexicon.catalogue()
    try:
        from rulings import index_writer  # a process that only opens the index never needs it

        ix = storage.create_index(make_schema())
        aliases = lex.other_names()
        index_writer.write(ix, (document(r, aliases, cat) for r in rulings))
    finally:
        storage.drop_scratch()
    ix = storage.open_index()
    derived = _derive(rulings, lex)
    derived["store_problem"] = store_problem
    with ix.reader() as reader:
        derived["editions"] = sorted(_s(t) for t in reader.lexicon("editions"))
    storage.files[DERIVED_FILE] = json.dumps(derived).encode()
    return storage, ix, derived


def _s(t) -> str:
    return t.decode() if isinstance(t, bytes) else str(t)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


MANIFEST_LABEL = "search index manifest"
MAX_MANIFEST_BYTES = 1_000_000
MAX_INDEX_FILE_BYTES = 1 << 30        # a 10,000-record index is about 20 MB


def write_folder(root: Folder, digest: str, storage: RamStorage, docs: int, secret: bytes
                 ) -> tuple[str, dict[str, Any]]:
    """Write the in-memory index into `root` (the cache's index folder) as the folder
    <digest>, atomically (a temporary folder renamed when complete), with a manifest
    signed with the user's cache key; returns the folder's name and the manifest."""
    final = digest[:24]
    tmp = root.new_folder(f".build-{digest[:12]}-")
    try:
        with root.sub(tmp) as folder:
            files = {}
            for name in storage.list():
                data = bytes(storage.files[name])
                folder.write(name, data)
                files[name] = [len(data), _sha(data)]
            manifest = {"hash": digest, "docs": docs, "schema": SCHEMA_VERSION, "files": files,
                        "built": time.time()}
            write_signed(folder, MANIFEST, MANIFEST_LABEL, json.dumps(manifest).encode("utf-8"), secret)
        if root.entry(final) is not None:
            discard(root, final)
        try:
            root.rename(tmp, final)
        except OSError:
            if open_verified(root, final, digest, secret) is None:   # another process won the race with a bad one
                raise
            discard(root, tmp)
    except BaseException:
        discard(root, tmp)
        raise
    return final, manifest


def discard(root: Folder, name: str) -> None:
    """Remove a folder of `root`, first moving it aside so no reader ever sees it half-deleted."""
    aside = f".trash-{uuid.uuid4().hex[:8]}"
    try:
        root.rename(name, aside)
        name = aside
    except OSError:
        pass
    root.remove(name)


def _verified(folder: Folder, digest: str, secret: bytes) -> tuple[dict[str, bytes], dict[str, Any]] | None:
    """The folder's files and manifest when the manifest is signed with the user's key,
    is for `digest`, and every file is the user's alone and intact (none missing,
    truncated, altered or added); otherwise None. The bytes returned are the bytes
    checked: whoosh reads them from memory, never from the folder again."""
    try:
        raw = read_signed(folder, MANIFEST, MANIFEST_LABEL, MAX_MANIFEST_BYTES, secret)
        if raw is None:
            return None
        manifest = json.loads(raw)
        if manifest.get("hash") != digest or manifest.get("schema") != SCHEMA_VERSION:
            return None
        expected = manifest["files"]
        if set(folder.names()) - {MANIFEST} != set(expected):
            return None
        out = {}
        for name, (size, sha) in expected.items():
            data = folder.read(name, MAX_INDEX_FILE_BYTES)
            if len(data) != size or _sha(data) != sha:
                return None
            out[name] = data
        return out, manifest
    except (OSError, ValueError, KeyError, TypeError, Untrusted):
        return None


def open_verified(root: Folder, name: str, digest: str, secret: bytes
                  ) -> tuple[dict[str, bytes], dict[str, Any]] | None:
    """`_verified` for the folder `name` of `root`; None when it is missing or not a
    folder of the user's alone."""
    try:
        with root.sub(name) as folder:
            return _verified(folder, digest, secret)
    except (OSError, Untrusted, ValueError):
        return None


def verify(folder: Path, digest: str) -> dict[str, bytes] | None:
    """The files of the index folder at `folder` (in the current cache) when it is
    intact and signed for `digest`; otherwise None."""
    try:
        with _index_folder(paths.cache_dir()) as root:
            found = open_verified(root, Path(folder).name, digest, private_cache.key())
    except (OSError, Untrusted):
        return None
    return None if found is None else found[0]


def manifest_of(folder: Path) -> dict[str, Any] | None:
    """The manifest of the index folder at `folder` (in the current cache), when it is
    signed with the user's key."""
    try:
        with _index_folder(paths.cache_dir()) as root, root.sub(Path(folder).name) as sub:
            raw = read_signed(sub, MANIFEST, MANIFEST_LABEL, MAX_MANIFEST_BYTES)
    except (OSError, Untrusted):
        return None
    return None if raw is None else json.loads(raw)


def quick_check(loaded: Loaded) -> bool:
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


def cleanup(root: Folder, keep: str) -> None:
    """Remove what else is in the index folder: older indexes, and builds and trash
    other processes left (a build less than ten minutes old may still be running)."""
    try:
        for name in root.names():
            if name == keep:
                continue
            st = root.entry(name)
            if st is None:
                continue
            if name.startswith(".build-") and time.time() - st.st_mtime < 600:
                continue
            if stat.S_ISDIR(st.st_mode) and not name.startswith(".trash-"):
                discard(root, name)
            else:
                root.remove(name)
    except OSError:
        pass


def _index_folder(cache: Path) -> Folder:
    """The cache's index folder, made when missing (and made again when it is not the
    user's alone: in a cache folder that is, only the user could have made it so).
    Raises Untrusted when the cache folder itself is not the user's alone, OSError."""
    with Folder.open_root(cache) as root:
        try:
            return root.sub("index", create=True)
        except Untrusted:
            discard(root, "index")       # a link is removed, never followed
            return root.sub("index", create=True)


def _loaded(cache: Path, digest: str, ix, folder: Path | None, manifest: dict, derived: dict,
            built: bool, store_problem: str | None) -> Loaded:
    topics = frozenset(derived["topics"])
    return Loaded(
        cache=cache, digest=digest, index=ix, folder=folder, manifest=manifest,
        lexicon=CardLexicon.from_json(derived["lexicon"]), vocab=Vocabulary.from_json(derived["vocabulary"]),
        facet_keys=frozenset(derived["cards"]),
        topics=topics, kinds=frozenset(derived["kinds"]), editions=frozenset(derived["editions"]),
        bases=frozenset(derived["bases"]), implied=dict(derived["implied"]), words=derived["spelling"],
        topic_stems={t: tuple(lexicon.stems(t.replace("-", " "))) for t in topics},
        built=built, store_problem=store_problem)


_lock = threading.RLock()
_state: dict[str, Loaded] = {}


_told: set[str] = set()        # cache folders already reported as not the user's alone


def load() -> Loaded:
    """The index for the current inputs and cache directory, opened or (re)built."""
    cache = paths.cache_dir()
    digest = input_digest()
    key = str(cache)
    with _lock:
        cur = _state.get(key)
        if cur is not None and cur.digest == digest and quick_check(cur):
            return cur
        if cur is not None:
            stats["rebuild_reasons"].append("stale" if cur.digest != digest else "damaged")
        from rulings import ingest

        root: Folder | None = None
        secret = b""
        name = digest[:24]
        try:
            root = _index_folder(cache)
            secret = private_cache.key()
        except Untrusted as exc:
            if root is not None:
                root.close()
            root = None
            if key not in _told:
                _told.add(key)
                corpus_mod.log_problem(f"the search index is kept in memory for this run: {exc}")
        except OSError:
            if root is not None:
                root.close()
            root = None           # cannot be made or read: kept in memory (said when it is written)
        try:
            if root is not None:
                found = open_verified(root, name, digest, secret)
                if found is not None:
                    files, manifest = found
                    try:
                        storage = RamStorage()
                        storage.files.update(files)
                        ix = storage.open_index()
                        derived = json.loads(files[DERIVED_FILE])
                        if ix.doc_count() == manifest.get("docs"):
                            loaded = _loaded(cache, digest, ix, cache / "index" / name, manifest, derived, False,
                                             derived.get("store_problem"))
                            stats["opens"] += 1
                            _state[key] = loaded
                            return loaded
                    except Exception as exc:  # unreadable despite the manifest: rebuild below
                        stats["rebuild_reasons"].append(f"unreadable: {exc}")
                elif root.entry(name) is not None:
                    discard(root, name)       # damaged, unsigned or not the user's alone: rebuilt
            corpus = corpus_mod.load_corpus()
            problem = ingest.store_problem()  # the same store bytes give the same problem
            rulings = [*corpus, *ingest.imported_rulings()]
            lex = lexicon.build_lexicon(rulings, lexicon.catalogue())
            storage, ix, derived = build(rulings, lex, problem)
            stats["builds"] += 1
            written: Path | None = None
            manifest = {}
            if root is not None:
                try:
                    made, manifest = write_folder(root, digest, storage, len(rulings), secret)
                    written = cache / "index" / made
                    cleanup(root, name)
                except OSError as exc:
                    written = None  # read-only or full cache: keep the index in memory only
                    corpus_mod.log_problem(f"the search index cannot be saved in {cache / 'index'} ({exc}); "
                                           "it is kept in memory for this run")
            loaded = _loaded(cache, digest, ix, written, manifest, derived, True, problem)
            _state[key] = loaded
            return loaded
        finally:
            if root is not None:
                root.close()


def forget(lexicon_too: bool = False) -> None:
    """Drop in-process index state (the next search re-reads or rebuilds from disk)."""
    global _EDITIONS, _builtin_digest
    with _lock:
        _state.clear()
    _EDITIONS = _builtin_digest = None
    if lexicon_too:
        lexicon.forget()
