"""The user's own disputes: the scenario folder's files, and the files opened or saved lately.

`own_scenarios()` lists the folder Save proposes (`tui.session.save_folder`: the user's
scenario folder, or a served app's root), newest first, each with the question it
asks (else its title), for the Open dialog to list before the built-in library. Only
files directly in that folder, named `*.yaml` or `*.yml`, not hidden, at most
`MAX_LISTED`; each is read with the engine's strict reader and its limits; one that
cannot be read is listed by its name and why.

`recent()` and `remember(path)` keep the files opened or saved lately, most recent
first, at most `MAX_RECENT`, in `recent.json` in the user's data folder. It is data
only (a JSON list of paths, each checked to be a bounded path string; anything else is
dropped), read only from a file that is the user's alone (`private_cache.Folder`) and
at most `MAX_RECENT_BYTES`, and written whole or not at all. A served app (`tui.confine`)
lists only files inside its root, in both lists.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

MAX_LISTED = 200                  # the newest files of the folder that Open lists
MAX_RECENT = 12
MAX_RECENT_BYTES = 64 * 1024
MAX_PATH_CHARS = 4096
RECENT_FILE = "recent.json"
SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class OwnFile:
    """One of the user's scenario files: where it is, when it was last changed, and the
    words to list it by (its question, else its title, else why it cannot be read)."""

    path: str
    mtime: float
    words: str

    @property
    def label(self) -> str:
        return f"{self.words}  ({os.path.basename(self.path)})"


def _allowed(path: str) -> str | None:
    """The real path of a file this app may open (a served app: inside its root), or None."""
    from tui import confine

    confinement = confine.active()
    if confinement is None:
        return path
    try:
        return confinement.readable(path)
    except confine.Refused:
        return None


def _words(path: str) -> str:
    """What a scenario file asks (its question), else its title, else why it cannot be read."""
    from adjudicator.errors import InputError
    from adjudicator.questions import plain_question
    from adjudicator.textfiles import decode, read_bytes, shown_path

    from tui import scenario_io

    try:
        doc = scenario_io.document(decode(read_bytes(path), shown_path(path)), path)
    except InputError as exc:
        return f"(cannot be read: {exc.message})"
    except OSError as exc:
        return f"(cannot be read: {exc.strerror or exc})"
    text, _ = plain_question(doc.get("question"))
    text = " ".join(text.split()) or " ".join(str(doc.get("title") or "").split())
    return text or "(no question yet)"


def own_scenarios(folder: str | os.PathLike | None = None) -> list[OwnFile]:
    """The scenario files in `folder` (default: where Save proposes), newest first."""
    if folder is None:
        from tui.session import save_folder

        folder = save_folder()
    found: list[tuple[float, str]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not entry.name.lower().endswith(SUFFIXES):
                    continue
                try:
                    if not entry.is_file():
                        continue
                    mtime = entry.stat().st_mtime
                except OSError:
                    continue
                found.append((mtime, entry.path))
    except OSError:
        return []
    found.sort(reverse=True)
    out = []
    for mtime, path in found[:MAX_LISTED]:
        real = _allowed(path)
        if real is not None:
            out.append(OwnFile(path, mtime, _words(real)))
    return out


# --------------------------------------------------------------------------- recent files

def _folder():
    from adjudicator.private_cache import Folder
    from adjudicator.userdirs import data_dir

    return Folder.open_root(data_dir())


def _valid(entry: object) -> bool:
    return (isinstance(entry, str) and 0 < len(entry) <= MAX_PATH_CHARS and "\x00" not in entry
            and os.path.isabs(entry))


def _stored() -> list[str]:
    """The paths as stored (checked to be bounded absolute paths); [] when there is no
    list, or it is not the user's alone, too large or not a JSON list."""
    from adjudicator.private_cache import Untrusted

    try:
        with _folder() as folder:
            raw = folder.read(RECENT_FILE, MAX_RECENT_BYTES)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, Untrusted, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return list(dict.fromkeys(p for p in data if _valid(p)))[:MAX_RECENT]


def recent() -> list[str]:
    """The scenario files opened or saved lately, most recent first: those that still
    exist and that this app may open."""
    out = []
    for path in _stored():
        real = _allowed(path)
        if real is not None and os.path.isfile(real):
            out.append(path)
    return out


def remember(path: str) -> None:
    """Put `path` first in the recent files (a list that cannot be written is left as it was)."""
    from adjudicator.private_cache import Untrusted

    path = os.path.abspath(path)
    if not _valid(path):
        return
    paths = [path, *(p for p in _stored() if p != path)][:MAX_RECENT]
    try:
        with _folder() as folder:
            folder.write(RECENT_FILE, json.dumps(paths, ensure_ascii=False).encode("utf-8"))
    except (OSError, Untrusted):
        pass


def recent_label(path: str) -> str:
    """A recent file as the palette lists it: its name, what it asks, and its folder."""
    real = _allowed(path)
    words = _words(real) if real is not None else "(not available here)"
    folder = os.path.dirname(path)
    home = str(Path.home())
    if folder == home or folder.startswith(home + os.sep):
        folder = "~" + folder[len(home):]
    return f"{os.path.basename(path)}: {words}  ({folder})"
