"""The one folder an app served to browsers may open and save in (`fluxx-judge serve --root`).

An app that `fluxx-judge serve` runs for a browser tab acts for whoever holds the
server's token, with the rights of the account that runs the server. So such an app is
confined (`Confinement`):

- it saves only inside the root folder;
- it opens files inside the root, and, read only, the built-in scenario library and the
  rescue folder of its own browser (its unsaved work kept when a tab closed);
- never a file or folder whose name starts with a dot (`.bashrc`, `.ssh/`...), and never
  through a link that leads out of those folders (each path is checked as written and
  where its links lead);
- a relative path is taken inside the root, not the server's working folder, and `~` is
  not expanded; path completion lists the root's folders only.

The served app sets the confinement once as it starts (`confine_to`), from the command
line the server gave it: nothing a browser sends can change it. The desktop app has none
(`active()` is None) and opens and saves wherever its user says. Session.open and
Session.save, the path completion and the Open dialog all ask `active()`.

Links made inside the root by someone with an account on the machine can still be
swapped between the check and the open: the confinement keeps out what a browser can
name, not what a local user can build.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class Refused(ValueError):
    """A path the served app may not use: `path` as named, `message` why (one line)."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(f"{path}: {message}")
        self.message, self.path = message, path


def _parts_inside(path: Path, folder: Path) -> tuple[str, ...] | None:
    """The names that lead from `folder` to `path` (both absolute, normalised); None if outside."""
    try:
        return path.relative_to(folder).parts
    except ValueError:
        return None


@dataclass(frozen=True)
class Confinement:
    root: Path                          # real (links resolved) and absolute
    read_only: tuple[Path, ...] = ()    # more folders that may be opened, not saved in

    @classmethod
    def of(cls, root: str | os.PathLike, read_only: tuple[str | os.PathLike, ...] = ()) -> "Confinement":
        return cls(Path(os.path.realpath(root)), tuple(Path(os.path.realpath(f)) for f in read_only))

    def named(self, text: str) -> Path:
        """The absolute path `text` names: a relative one inside the root."""
        text = text.strip()
        if not text:
            raise Refused("no file name given", "<empty>")
        if text.startswith("~"):
            raise Refused(f"~ (a home folder) is not available here: name a file inside {self.root}", text)
        if "\x00" in text:
            raise Refused("a file name cannot hold a NUL character", repr(text))
        path = Path(text)
        return Path(os.path.normpath(path if path.is_absolute() else self.root / path))

    def _check(self, text: str, folders: tuple[Path, ...]) -> Path:
        """The real path of `text` if one of `folders` holds it, as named and where its
        links lead, with no name starting with a dot below that folder."""
        named = self.named(text)
        real = Path(os.path.realpath(named))
        hidden = False
        for folder in folders:
            parts = _parts_inside(real, folder)
            if parts is None:
                continue
            parts += _parts_inside(named, folder) or ()
            if any(p.startswith(".") for p in parts):
                hidden = True
                continue
            return real
        if hidden:
            raise Refused("names starting with a dot (hidden files and folders) are not open to the browser",
                          str(named))
        where = "leads (through a link) outside" if any(
            _parts_inside(named, f) is not None for f in folders) else "is outside"
        raise Refused(f"{where} the folder this server shares ({self.root}); open and save scenarios there",
                      str(named))

    def readable(self, text: str) -> str:
        """The real path of a file the app may open (Refused otherwise)."""
        return str(self._check(text, (self.root, *self.read_only, *_library())))

    def writable(self, text: str) -> str:
        """The real path of a file the app may save to (Refused otherwise)."""
        return str(self._check(text, (self.root,)))

    def complete(self, value: str) -> str | None:
        """`value` completed with the first name inside the root that continues it."""
        if not value or value.startswith("~"):
            return None
        folder_text, stem = os.path.split(value)
        try:
            folder = self._check(folder_text or ".", (self.root,))
            names = sorted(os.listdir(folder))
        except (Refused, OSError):
            return None
        for name in names:
            if name.startswith(stem) and name != stem and not name.startswith("."):
                try:
                    full = self._check(os.path.join(folder_text or ".", name), (self.root,))
                except Refused:
                    continue
                return value + name[len(stem):] + ("/" if full.is_dir() else "")
        return None


def _library() -> tuple[Path, ...]:
    try:
        from scenarios import library_path

        return (Path(os.path.realpath(library_path())),)
    except Exception:
        return ()


_active: Confinement | None = None


def confine_to(root: str | os.PathLike, read_only: tuple[str | os.PathLike, ...] = ()) -> Confinement:
    """Confine this process's app to `root` (the served app does this once, as it starts)."""
    global _active
    _active = Confinement.of(root, read_only)
    return _active


def active() -> Confinement | None:
    """The confinement of this process's app; None for the desktop app."""
    return _active


def path_exists(text: str) -> bool:
    """Whether `text` names an existing file or folder the app may open (the desktop app: any)."""
    confinement = active()
    if confinement is None:
        return os.path.exists(os.path.expanduser(text))
    try:
        return os.path.exists(confinement.readable(text))
    except Refused:
        return False
