"""Caches are data the user alone wrote (adjudicator/private_cache.py): a crafted search
index in the cache never runs code (whoosh unpickles its index), a tampered catalogue
cache never changes a card, and folders or files others could write, or links where
the cache's own folders should be, are never read."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
from pathlib import Path

import pytest

from adjudicator import private_cache
from adjudicator.private_cache import Folder, Untrusted, read_signed, write_signed
from rulings import index_store, search


@pytest.fixture
def cache(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(path))
    search.forget_loaded()
    yield path
    search.forget_loaded()


class Boom:
    """Unpickling this makes the folder `marker`: the proof that a pickle ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def crafted_toc(marker: Path) -> bytes:
    """A whoosh table of contents whose pickled schema runs code when it is read."""
    from whoosh import index as wi
    from whoosh.filedb.structfile import StructFile

    buf = io.BytesIO()
    out = StructFile(buf)
    for size in (wi._INT_SIZE, wi._LONG_SIZE, wi._FLOAT_SIZE):
        out.write_varint(size)
    out.write_int(-12345)
    out.write_int(wi._CURRENT_TOC_VERSION)
    for n in (2, 7, 4):
        out.write_varint(n)
    out.write_string(pickle.dumps(Boom(marker)))
    out.write_int(1)
    out.write_int(0)
    out.write_pickle([])
    return buf.getvalue()


def plant(cache: Path, marker: Path, sign_with: bytes | None) -> Path:
    """The folder an attacker who can write the cache would leave: the right name, a TOC
    that runs code, and a manifest vouching for it (plain, or signed with a key of
    their own)."""
    digest = index_store.input_digest()
    folder = cache / "index" / digest[:24]
    folder.mkdir(parents=True, mode=0o700)
    files = {"_MAIN_1.toc": crafted_toc(marker), index_store.DERIVED_FILE: b"{}"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    manifest = json.dumps({"hash": digest, "docs": 0, "schema": index_store.SCHEMA_VERSION,
                           "files": {n: [len(d), index_store._sha(d)] for n, d in files.items()}}).encode()
    if sign_with is None:
        (folder / index_store.MANIFEST).write_bytes(manifest)
    else:
        with Folder.open_root(folder) as f:
            write_signed(f, index_store.MANIFEST, index_store.MANIFEST_LABEL, manifest, sign_with)
    return folder


@pytest.mark.parametrize("sign_with", [None, b"k" * 32], ids=["plain-manifest", "attackers-own-key"])
def test_a_crafted_index_in_the_cache_never_runs(cache, tmp_path, sign_with, capsys):
    from fluxx_judge.cli import main

    marker = tmp_path / "code-ran"
    plant(cache, marker, sign_with)
    assert main(["search", "play all time portal"]) == 0        # what `fluxx-judge search` does
    assert not marker.exists(), "the cache's pickle ran"
    assert "play-all-vs-turn-end" in capsys.readouterr().out
    found = index_store.verify(Path(search.ensure_index()["folder"]), index_store.input_digest())
    assert found is not None and index_store.DERIVED_FILE in found   # rebuilt in its place, signed


def test_the_index_is_never_read_from_a_folder_others_can_write(cache, tmp_path, monkeypatch, caplog):
    first = search.ensure_index()
    folder = Path(first["folder"])
    os.chmod(folder, 0o777)                                      # its folder: discarded and rebuilt
    search.forget_loaded()
    again = search.ensure_index()
    assert again["built"] and again["folder"] == first["folder"] and (folder.stat().st_mode & 0o777) == 0o700
    os.chmod(cache / "index", 0o775)                             # the folder above it: made again
    search.forget_loaded()
    assert search.ensure_index()["folder"] == first["folder"] and (cache / "index").stat().st_mode & 0o777 == 0o700
    os.chmod(cache, 0o757)                                       # the cache folder: the index stays in memory
    search.forget_loaded()
    assert search.ensure_index()["folder"] is None and search.search("veto").hits
    assert "chmod go-w" in caplog.text and "kept in memory" in caplog.text
    os.chmod(cache, 0o700)
    monkeypatch.setattr(private_cache, "me", lambda: os.geteuid() + 1)   # everything there is someone else's
    search.forget_loaded()
    assert search.ensure_index()["folder"] is None


def test_a_link_in_place_of_the_index_folder_is_not_followed(cache, tmp_path):
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    cache.mkdir(mode=0o700)
    (cache / "index").symlink_to(elsewhere)
    info = search.ensure_index()                                 # the link removed, never followed
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"], "the cache wrote or deleted through a link"
    assert Path(info["folder"]).parent == cache / "index" and not (cache / "index").is_symlink()
    assert search.search("veto").hits


def test_folders_and_files_are_checked_where_they_are_open(tmp_path, monkeypatch):
    root = tmp_path / "c"
    with Folder.open_root(root) as f:
        assert (root.stat().st_mode & 0o777) == 0o700
        with f.sub("made", create=True):
            pass
        assert (root / "made").stat().st_mode & 0o777 == 0o700
        f.write("data", b"x")
        assert (root / "data").stat().st_mode & 0o777 == 0o600 and f.read("data", 10) == b"x"
        with pytest.raises(ValueError):
            f.read("data", 0)                                    # over its limit
        (root / "loose").write_bytes(b"y")
        os.chmod(root / "loose", 0o666)
        (root / "link").symlink_to(root / "data")
        os.mkfifo(root / "fifo")
        for name in ("loose", "link", "fifo"):
            with pytest.raises(Untrusted):
                f.read(name, 10)
        (root / "dirlink").symlink_to(root / "made")
        with pytest.raises(Untrusted):
            f.sub("dirlink")
    os.chmod(root, 0o770)
    with pytest.raises(Untrusted, match="chmod go-w"):
        Folder.open_root(root)
    os.chmod(root, 0o700)
    monkeypatch.setattr(private_cache, "me", lambda: os.geteuid() + 1)
    with pytest.raises(Untrusted, match="another user"):
        Folder.open_root(root)


def test_the_key_is_the_users_alone_and_signatures_bind_it(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path / "c"))
    k = private_cache.key()
    key_file = tmp_path / "c" / private_cache.KEY_FILE
    assert len(k) == 32 and key_file.stat().st_mode & 0o777 == 0o600 and private_cache.key() == k
    with Folder.open_root(tmp_path / "c") as f:
        write_signed(f, "x.json", "a label", b"data")
        assert read_signed(f, "x.json", "a label", 100) == b"data"
        assert read_signed(f, "x.json", "another label", 100) is None
        raw = (tmp_path / "c" / "x.json").read_bytes()
        (tmp_path / "c" / "x.json").write_bytes(raw.replace(b"data", b"DATA"))
        assert read_signed(f, "x.json", "a label", 100) is None
    os.chmod(key_file, 0o644)                                   # a key others could read: a new one
    assert private_cache.key() != k and key_file.stat().st_mode & 0o777 == 0o600


# --------------------------------------------------------------------------- the card catalogue

def test_a_tampered_catalogue_cache_never_changes_a_card(tmp_path, monkeypatch):
    from adjudicator import catalogue as C

    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    C.default_catalogue.cache_clear()
    try:
        assert C.default_catalogue().find("Milk").type == "keeper"      # and the cache is written
        path = tmp_path / "catalogue.json"
        text = path.read_text(encoding="utf-8")
        tampered = re.sub(r'"name": "Milk", "type": "keeper"', '"name": "Milk", "type": "creeper"', text)
        assert tampered != text
        path.write_text(tampered, encoding="utf-8")
        C.default_catalogue.cache_clear()
        assert C.default_catalogue().find("Milk").type == "keeper"
        for junk in ("", "{not json", '{"key": 5, "cards": 7}', text.replace('"editions"', '"editions": 5, "x"', 1)):
            path.write_text(junk, encoding="utf-8")
            C.default_catalogue.cache_clear()
            assert C.default_catalogue().find("Milk").type == "keeper"    # never a traceback
    finally:
        C.default_catalogue.cache_clear()


def test_cached_card_records_pass_the_card_files_checks(tmp_path, monkeypatch):
    """Even signed with the user's key, a cached record is checked as the card files are:
    one the card files would refuse (a mechanic that does not exist) is not used."""
    from adjudicator import catalogue as C

    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    files = C.builtin_card_files()
    key = C._catalogue_key(files)
    records = [(path, C._record_nodes(text, path)) for path, text in files]
    milk = next(r for _, recs in records for r in recs if r.value["name"].value == "Milk")
    milk.value["mechanic"] = milk.value["name"].__class__("no_such_mechanic", milk.line, milk.col, milk.path)
    C._write_cached_catalogue(key, records)
    assert C._read_cached_catalogue(key) is None
