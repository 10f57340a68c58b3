"""Cache files that only the user could have written, signed with the user's own key.

A cache holds what is cheaper to read back than to make again: the checked card
catalogue, the search index. What is in it decides verdicts, and part of it is read
in a way that can run code (whoosh unpickles its index), so a cache is used only when
both of these hold:

- every folder from the cache root down, and every file, belongs to the user and can
  be written by nobody else (no group or world write bit). The checks are made on
  what is open (fstat of a file descriptor): the root is opened once, everything below
  it is opened through it without following symbolic links, so nothing can be swapped
  in between the check and the read. Folders this module makes are 0700, files 0600.
- the content carries an HMAC-SHA256 under the user's cache key: 32 random bytes in
  `KEY_FILE`, a 0600 file in the user's data folder (checked the same way), made once
  and put under its name by a hard link, so that no process ever reads half a key.
  What does not verify is not used.

Someone who can write the cache folder (a shared or careless FLUXX_JUDGE_CACHE, an
archive unpacked into it, a synced folder) but cannot read the key can make the app
rebuild its caches, never make it read what they wrote: a folder others can write is
refused outright, and content the key did not sign is ignored. Whoever can read the
key is the user (or root), who can run code anyway. `Untrusted` says which folder or
file failed and how to fix it; callers then rebuild, in memory when the folder itself
is not the user's alone.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import secrets
import shutil
import stat
from pathlib import Path
from typing import Any

KEY_FILE = "cache.key"
KEY_BYTES = 32
MAC_LINE = 65                     # 64 hex digits and a newline start a signed file

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class Untrusted(Exception):
    """A cache folder or file that someone other than the user could have written
    (or a symbolic link where a folder or file of the cache should be)."""


def me() -> int:
    """The user the cache must belong to (this process's effective user)."""
    return os.geteuid()


def _check(st: os.stat_result, shown: str, private: bool = False) -> None:
    if st.st_uid != me():
        raise Untrusted(f"{shown} belongs to another user (uid {st.st_uid})")
    bits = stat.S_IMODE(st.st_mode)
    if bits & (0o077 if private else 0o022):
        need = "go-rwx" if private else "go-w"
        raise Untrusted(f"{shown} can be {'read or written' if private else 'written'} by others (mode "
                        f"{bits:o}); make it yours alone: chmod {need} {shown}")


def _plain_name(name: str) -> str:
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ValueError(f"not a plain file name: {name!r}")
    return name


class Folder:
    """An open folder of the cache, checked: the user's alone. Use as a context manager
    (or call close()); everything is opened relative to it."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def open_root(cls, path: Path, create: bool = True) -> "Folder":
        """The cache (or data) folder at `path`, made 0700 when missing. Raises
        Untrusted, or OSError when it cannot be made or opened."""
        path = Path(path)
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
        fd = os.open(path, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)   # the root may be a link the user made
        return cls._checked(fd, path)

    @classmethod
    def _checked(cls, fd: int, path: Path) -> "Folder":
        try:
            st = os.fstat(fd)
            if not stat.S_ISDIR(st.st_mode):
                raise Untrusted(f"{path} is not a folder")
            _check(st, str(path))
        except BaseException:
            os.close(fd)
            raise
        return cls(fd, path)

    def sub(self, name: str, create: bool = False) -> "Folder":
        """The folder `name` in this one (made 0700 when `create`); never through a
        symbolic link. FileNotFoundError when missing, Untrusted when not the user's alone."""
        _plain_name(name)
        if create:
            try:
                os.mkdir(name, 0o700, dir_fd=self.fd)
            except FileExistsError:
                pass
        try:
            fd = os.open(name, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise Untrusted(f"{self.path / name} is not a folder (a symbolic link or a file)") from None
            raise
        return self._checked(fd, self.path / name)

    def read(self, name: str, limit: int, private: bool = False) -> bytes:
        """The bytes of the regular file `name`, at most `limit` of them; never through
        a symbolic link, never blocking on a FIFO. FileNotFoundError when missing,
        Untrusted when it is not the user's alone (`private`: nobody else may even read
        it), ValueError when it is larger than `limit`."""
        _plain_name(name)
        try:
            fd = os.open(name, os.O_RDONLY | _O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _O_CLOEXEC, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise Untrusted(f"{self.path / name} is a symbolic link") from None
            raise
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise Untrusted(f"{self.path / name} is not a regular file")
            _check(st, str(self.path / name), private)
            if st.st_size > limit:
                raise ValueError(f"{self.path / name} is larger than {limit} bytes")
            chunks, total = [], 0
            while total <= limit:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            if total > limit:
                raise ValueError(f"{self.path / name} grew past {limit} bytes")
            return b"".join(chunks)
        finally:
            os.close(fd)

    def _temp(self, name: str, data: bytes) -> str:
        """A new 0600 temporary file beside `name` holding `data` (synced); its name."""
        tmp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC, 0o600, dir_fd=self.fd)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            self.remove(tmp)
            raise
        return tmp

    def write(self, name: str, data: bytes) -> None:
        """Put `data` in the file `name` (0600), whole or not at all (a temporary file
        renamed over it)."""
        tmp = self._temp(_plain_name(name), data)
        try:
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(tmp)
            raise

    def write_new(self, name: str, data: bytes) -> bool:
        """Put `data` in the file `name` (0600) only if no file has that name: False
        when one has (made meanwhile by another process, say)."""
        tmp = self._temp(_plain_name(name), data)
        try:
            os.link(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
            return True
        except FileExistsError:
            return False
        finally:
            self.remove(tmp)

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    def entry(self, name: str) -> os.stat_result | None:
        """What `name` is (without following a link), or None when there is nothing."""
        try:
            return os.stat(_plain_name(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def new_folder(self, prefix: str) -> str:
        """A new empty 0700 folder with a name starting with `prefix`; its name."""
        while True:
            name = f"{prefix}{secrets.token_hex(6)}"
            try:
                os.mkdir(name, 0o700, dir_fd=self.fd)
                return name
            except FileExistsError:
                continue

    def rename(self, old: str, new: str) -> None:
        os.rename(_plain_name(old), _plain_name(new), src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def remove(self, name: str) -> None:
        """Remove the file, link or folder (with what it holds) `name`; nothing there is fine."""
        st = self.entry(name)
        if st is None:
            return
        try:
            if stat.S_ISDIR(st.st_mode):
                shutil.rmtree(name, dir_fd=self.fd)      # never follows a link out of the folder
            else:
                os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "Folder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# --------------------------------------------------------------------------- the key and signatures

def key() -> bytes:
    """The user's cache key, made on first use. Raises Untrusted when the data folder is
    not the user's alone, OSError when it cannot be read or made."""
    from adjudicator.userdirs import data_dir

    with Folder.open_root(data_dir()) as folder:
        for _ in range(4):
            try:
                data = folder.read(KEY_FILE, KEY_BYTES, private=True)
                if len(data) == KEY_BYTES:
                    return data
                folder.write(KEY_FILE, secrets.token_bytes(KEY_BYTES))     # damaged: a new key
            except FileNotFoundError:
                folder.write_new(KEY_FILE, secrets.token_bytes(KEY_BYTES))  # another process may win
            except (Untrusted, ValueError):
                # a key others could read (or a link or folder in its place) signs nothing: replace it
                # (the caches it signed are then rebuilt)
                folder.remove(KEY_FILE)
        raise OSError(f"cannot make the cache key {folder.path / KEY_FILE}")


def _mac(secret: bytes, label: str, data: bytes) -> bytes:
    return hmac.new(secret, label.encode() + b"\0" + data, hashlib.sha256).hexdigest().encode()


def write_signed(folder: Folder, name: str, label: str, data: bytes, secret: bytes | None = None) -> None:
    """Write `data` to `name` with its signature for `label` on the first line."""
    secret = key() if secret is None else secret
    folder.write(name, _mac(secret, label, data) + b"\n" + data)


def read_signed(folder: Folder, name: str, label: str, limit: int, secret: bytes | None = None) -> bytes | None:
    """The data of a file `write_signed` wrote for `label` with the user's key, or None
    (missing, not the user's alone, too large, or not signed by this key for this label)."""
    try:
        raw = folder.read(name, limit + MAC_LINE)
    except (OSError, Untrusted, ValueError):
        return None
    mac, data = raw[:MAC_LINE - 1], raw[MAC_LINE:]
    if raw[MAC_LINE - 1:MAC_LINE] != b"\n":
        return None
    secret = key() if secret is None else secret
    return data if hmac.compare_digest(mac, _mac(secret, label, data)) else None
