"""Reading a text file a user named, within bounds.

`read_text(path)` reads only regular files (a FIFO would block forever, a device like
/dev/zero never ends), at most `limits.MAX_FILE_BYTES` of them, and decodes UTF-8
(a byte-order mark is dropped). Every refusal is an InputError naming the file and,
where it helps, the line and column.
"""

from __future__ import annotations

import errno
import os
import stat

from adjudicator.errors import InputError
from adjudicator.limits import MAX_FILE_BYTES, size_text


def shown_path(path: str | os.PathLike) -> str:
    """A file name as printable text (bytes that are not UTF-8 appear as \\xNN)."""
    text = os.fsdecode(os.fspath(path))
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; InputError otherwise."""
    shown = shown_path(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            raise InputError("cannot read the file: there is no such file", shown) from None
        if exc.errno == errno.EISDIR:
            raise InputError("cannot read the file: it is a folder", shown) from None
        raise InputError(f"cannot read the file: {exc.strerror or exc}", shown) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"cannot read the file: it is {_kind(st.st_mode)}; only regular files are read", shown)
        if st.st_size > limit:
            raise InputError(f"the file is {size_text(st.st_size)}; files of at most {size_text(limit)} are read",
                             shown)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while we read
            raise InputError(f"the file is larger than {size_text(limit)}; files of at most {size_text(limit)} "
                             "are read", shown)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", shown) from None
    finally:
        os.close(fd)


def decode(raw: bytes, shown: str) -> str:
    """UTF-8 text (a byte-order mark dropped); InputError with line and column otherwise."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError("the file is not UTF-8 text (is it binary?); save it as UTF-8", shown, line, col) from None


def read_text(path: str | os.PathLike, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; InputError otherwise."""
    return decode(read_bytes(path, limit), shown_path(path))
