"""One safe way to write a file: all of it or none of it, never somewhere surprising.

`write_atomic(path, data)` writes the bytes to a temporary file beside the real
target, fsyncs it and renames it over the target, so a reader (or a crash) sees the
old file or the new one, never half of each. Around that core:

- a symlink is followed: the file it points to is replaced and the link stays;
- a folder, a device, a FIFO or a socket is never replaced;
- a missing folder, a folder that is not one, or a permission problem is a
  `WriteError` with a one-line message naming the path;
- the temporary file is removed on any failure, and temporary files of the same
  target left behind by a save that was killed are cleared on the next save.

`write_new(path, data)` writes a file that must not exist yet: complete, or not at all,
and never over another file, even one that another process makes at the same moment
(the data goes to a temporary file that is then hard-linked to the name, which fails
if the name is taken; where hard links are not supported the name is created with
O_EXCL and written in place).

Temporary files are named ``.NAME.<pid>.<random>.fluxx-tmp`` so that they are easy
to recognise and so that a later save can tell a dead writer's leftovers (its pid
no longer runs) from another process saving right now.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from adjudicator.errors import FluxxJudgeError

TMP_SUFFIX = ".fluxx-tmp"


class WriteError(FluxxJudgeError, OSError):
    """A file could not be written; the message is one line and names the path.

    Also an OSError, so code that already handles failed writes keeps handling these."""

    def __init__(self, message: str, path: str):
        super().__init__(message)
        self.message = message
        self.path = self.filename = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _shown(path: str | os.PathLike) -> str:
    """The path as one printable line (undecodable bytes and control characters escaped)."""
    text = os.fsdecode(os.fspath(path)) or "<empty>"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _real_target(path: str | os.PathLike) -> Path:
    raw = os.fspath(path)
    if raw == "":
        raise WriteError("no file name given", "<empty>")
    try:
        return Path(os.path.realpath(raw, strict=False))
    except OSError as exc:  # pragma: no cover - realpath(strict=False) rarely raises
        raise WriteError(f"cannot resolve the path: {exc.strerror or exc}", raw) from None


def _check_target(shown: str, target: Path) -> int | None:
    """Refuse targets we must not replace; returns the mode bits to keep, if any."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WriteError("symbolic links loop; cannot find the real file", shown) from None
        if exc.errno == errno.ENOTDIR:
            raise WriteError(f"{_shown(_parent_shown(target))} is not a folder", shown) from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise WriteError("permission denied (cannot look into the folder)", shown) from None
        raise WriteError(f"cannot check the file: {exc.strerror or exc}", shown) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise WriteError("is a folder; give a file name inside it", shown)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
            raise WriteError(f"is {kind}, not a regular file; refusing to replace it", shown)
        return stat.S_IMODE(st.st_mode)
    folder = target.parent
    if not folder.exists():
        raise WriteError(f"folder {_shown(folder)} does not exist; create it first", shown)
    if not folder.is_dir():
        raise WriteError(f"{_shown(folder)} is not a folder", shown)
    return None


def _parent_shown(target: Path) -> str:
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            return str(parent)
    return str(target.parent)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # runs, under another user
        return True
    except (OverflowError, ValueError, OSError):
        return False
    return True


def temp_files_of(target: Path) -> list[Path]:
    """Temporary files this module made for `target` (any writer, alive or not)."""
    prefix = f".{target.name}."
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    out = []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TMP_SUFFIX)):
            continue
        middle = name[len(prefix):-len(TMP_SUFFIX)].split(".")
        if len(middle) == 2 and middle[0].isdigit():
            out.append(target.parent / name)
    return out


def clear_stale_temps(target: Path) -> int:
    """Remove temporary files of `target` whose writer no longer runs; returns how many."""
    removed = 0
    for tmp in temp_files_of(target):
        pid = int(tmp.name[len(target.name) + 2:].split(".")[0])
        if _pid_alive(pid):
            continue
        try:
            if stat.S_ISREG(os.lstat(tmp).st_mode):
                os.unlink(tmp)
                removed += 1
        except OSError:
            pass
    return removed


def _os_error(exc: OSError, shown: str, folder: Path) -> WriteError:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return WriteError(f"permission denied (cannot write in {_shown(folder)})", shown)
    if exc.errno == errno.EROFS:
        return WriteError(f"{_shown(folder)} is on a read-only file system", shown)
    if exc.errno == errno.ENOSPC:
        return WriteError("no space left on the device; nothing was changed", shown)
    if exc.errno == errno.ENOENT:
        return WriteError(f"folder {_shown(folder)} does not exist; create it first", shown)
    if exc.errno == errno.ENOTDIR:
        return WriteError(f"{_shown(_parent_shown(folder / 'x'))} is not a folder", shown)
    if exc.errno == errno.ENAMETOOLONG:
        return WriteError("the file name is too long", shown)
    return WriteError(f"cannot write: {exc.strerror or exc}", shown)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> Path:
    """Replace the file at `path` (its real file, through symlinks) with `data`.

    `str` data is written as UTF-8. Returns the real path written. Raises
    `WriteError` with a one-line message when the file cannot be written; the
    previous file is then untouched and no temporary file is left behind.
    """
    shown = _shown(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    target = _real_target(path)
    keep_mode = _check_target(shown, target)
    folder = target.parent
    clear_stale_temps(target)
    tmp, fd = _temp_file(folder, target.name, shown)
    try:
        try:
            _write_all(fd, payload)
            if keep_mode is None:
                umask = os.umask(0)
                os.umask(umask)
                keep_mode = 0o666 & ~umask
            os.chmod(tmp, keep_mode)
            # The target may have changed kind since we looked; never rename over a
            # folder, device or FIFO someone put there meanwhile.
            _check_target(shown, target)
            os.replace(tmp, target)
        except OSError as exc:
            raise _os_error(exc, shown, folder) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return target


def _temp_file(folder: Path, name: str, shown: str) -> tuple[Path, int]:
    """A new temporary file for `name` in `folder`, opened for writing (mode 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    tmp = folder / f".{name}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}"
    try:
        return tmp, os.open(tmp, flags, 0o600)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:  # the target's own name fits, ours is longer
            raise _os_error(exc, shown, folder) from None
    tmp = folder / f".fj.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}"
    try:
        return tmp, os.open(tmp, flags, 0o600)
    except OSError as exc:
        raise _os_error(exc, shown, folder) from None


def _write_all(fd: int, payload: bytes) -> None:
    with os.fdopen(fd, "wb") as fh:
        fh.write(payload)
        fh.flush()
        os.fsync(fh.fileno())


def write_new(path: str | os.PathLike, data: str | bytes) -> Path:
    """Write `data` to `path`, which must not exist: FileExistsError when the name is
    taken (by a file, a folder, a link, even one made meanwhile by another process),
    `WriteError` when it cannot be written. Never replaces anything; the file appears
    complete (or, where hard links are not supported, is created exclusively)."""
    shown = _shown(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    target = Path(os.path.abspath(os.fspath(path)))
    folder = target.parent
    umask = os.umask(0)
    os.umask(umask)
    mode = 0o666 & ~umask
    tmp, fd = _temp_file(folder, target.name, shown)
    try:
        try:
            _write_all(fd, payload)
            os.chmod(tmp, mode)
            try:
                os.link(tmp, target, follow_symlinks=False)
            except FileExistsError:
                raise
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.EXDEV,
                                     errno.ENOSYS):
                    raise
                # no hard links here (some shared or FAT file systems): an exclusive create
                out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                              | getattr(os, "O_CLOEXEC", 0), mode)
                try:
                    _write_all(out, payload)
                except BaseException:
                    os.unlink(target)
                    raise
        except FileExistsError:
            raise
        except OSError as exc:
            raise _os_error(exc, shown, folder) from None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    try:  # make the new name itself durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return target
