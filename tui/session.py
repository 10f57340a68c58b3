"""The scenario being worked on: its document, the file it came from, and its changes.

The Table and Replay screens share one `Session`. The document is the scenario as
plain data (see `tui.scenario_io`), what-if lines included (`variations:`); the text
of the file as it was opened is kept, so that saving an unchanged scenario leaves the
file byte for byte as it was, and so that error positions point into the real file.

Saving never loses or clobbers work. `save()` refuses, with a typed `SaveQuestion`
the app turns into a yes/no dialog, to overwrite another existing file, to overwrite
the file when it was changed on disk since it was opened or saved, and to create a
missing folder, unless told the user agreed. It writes through
`adjudicator.atomic_io.write_atomic` (symlinks followed, folders and devices refused,
no temporary file left). New scenarios are proposed in `default_folder()`: the
user's documents (or data) folder, never the project's checkout. An app served to
browsers opens and saves only where its confinement allows (`tui.confine`), and
proposes its root folder.
No Textual here: this is plain logic.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.errors import InputError
from tui import confine

NEW_ID = "new-dispute"
APP_DIR = "fluxx-judge"


class SaveQuestion(Exception):
    """Saving needs the user's yes first; `message` is the question to ask."""

    def __init__(self, message: str, path: str):
        super().__init__(message)
        self.message, self.path = message, path


class FileExists(SaveQuestion):
    """Save As names a file that already exists (and is not this scenario's own)."""


class ChangedOnDisk(SaveQuestion):
    """The file was changed by something else since it was opened or last saved."""


class FolderMissing(SaveQuestion):
    """The folder to save in does not exist yet."""


def _checkout() -> Path:
    """The folder holding this program's own source (a project checkout or site-packages)."""
    return Path(__file__).resolve().parent.parent


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def default_folder() -> Path:
    """Where new scenarios are proposed: FLUXX_JUDGE_SCENARIOS when set, else a
    fluxx-judge folder in the user's documents, else in the user's data folder; never
    inside the program's own checkout."""
    import platformdirs

    override = os.environ.get("FLUXX_JUDGE_SCENARIOS")
    if override:
        return Path(os.path.expanduser(override))
    docs = Path(platformdirs.user_documents_dir())
    candidates = [docs / APP_DIR] if docs.is_dir() else []
    candidates.append(Path(platformdirs.user_data_dir(APP_DIR)) / "scenarios")
    for folder in candidates:
        if not _inside(folder, _checkout()):
            return folder
    return Path(os.path.expanduser("~")) / APP_DIR


def save_folder() -> Path:
    """Where new scenarios go: a served app's root, else `default_folder()`."""
    confinement = confine.active()
    return confinement.root if confinement is not None else default_folder()


def _writable(path: str) -> bool:
    confinement = confine.active()
    if confinement is None:
        return True
    try:
        confinement.writable(path)
        return True
    except confine.Refused:
        return False


def in_library(path: str | None) -> bool:
    """Whether `path` is a file of the built-in scenario library (saved elsewhere, never over it)."""
    if not path:
        return False
    try:
        from scenarios import library_path

        return _inside(Path(path), Path(library_path()))
    except Exception:
        return False


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _read(path: str) -> bytes | None:
    """The bytes of a regular file (None for anything else: never blocks on a FIFO)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def clean(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as it is saved: what-if lines with no event of their own left out."""
    from tui import variations

    return variations.pruned(doc)


def new_document() -> dict[str, Any]:
    return {"format": 1, "id": NEW_ID, "title": "A new dispute", "table": {"players": []}}


def id_from_path(path: str) -> str:
    base = os.path.splitext(os.path.basename(path))[0].lower()
    return re.sub(r"[^a-z0-9]+", "-", base).strip("-") or "scenario"


@dataclass
class Session:
    doc: dict[str, Any] = field(default_factory=new_document)
    path: str | None = None             # where saving goes (None: ask)
    text: str | None = None             # the file's text as opened or last saved
    saved: Any = None                   # the document as that text reads
    error: InputError | None = None     # why the last file could not be opened
    error_text: str | None = None       # that file's text, to show the bad line
    version: int = 0                    # bumped on every change, so screens know to refresh
    disk: str | None = None             # digest of the file's bytes as opened or last saved

    def __post_init__(self) -> None:
        if self.saved is None and self.text is None:
            self.saved = copy.deepcopy(self.doc)   # a fresh document has nothing unsaved

    @classmethod
    def open(cls, path: str) -> "Session":
        """Open a scenario file. A file that is not a scenario at all gives a session
        with `error` set (and a fresh document); the file itself is never touched."""
        from tui import scenario_io

        from adjudicator import share

        if share.looks_like_share(path):
            return cls.from_share(path)
        confinement = confine.active()
        if confinement is not None:
            try:
                path = confinement.readable(path)
            except confine.Refused as refused:
                return cls(error=InputError(refused.message, refused.path))
        path = os.path.abspath(os.path.expanduser(path))
        text = None
        try:
            from adjudicator.textfiles import decode, read_bytes, shown_path

            raw = read_bytes(path)   # regular files within limits.MAX_FILE_BYTES only
            text = decode(raw, shown_path(path))
            data = scenario_io.document(text, path)
        except InputError as exc:
            return cls(error=exc, error_text=text)
        except OSError as exc:
            return cls(error=InputError(f"cannot read the file: {exc.strerror or exc}", path))
        return cls(doc=data, path=path, text=text, saved=copy.deepcopy(data), disk=_digest(raw))

    @classmethod
    def from_share(cls, text: str) -> "Session":
        """Open the scenario a share string holds, as a new unsaved document (Save asks
        where). A string that cannot be read gives a session with `error` set."""
        from adjudicator import share
        from adjudicator.scenario import check_card_counts, read_source

        try:
            root = read_source(text)         # the strict reader and its limits
            check_card_counts(root)
        except InputError as exc:
            return cls(error=exc)
        data = root.plain_data()
        return cls(doc=data, saved={}, text="")   # unsaved: quitting asks first

    def share_string(self) -> str:
        """The open scenario as a share string."""
        from adjudicator import share

        return share.encode(clean(self.doc))

    # -- state ---------------------------------------------------------------
    @property
    def changed(self) -> bool:
        return clean(self.doc) != clean(self.saved) if isinstance(self.saved, dict) else self.doc != self.saved

    def unsaved_summary(self) -> str:
        """What would be lost: the file and its what-if lines."""
        from tui import variations

        n = len(variations.lines(clean(self.doc))) - 1
        extra = f" (with {n} what-if line{'s' if n != 1 else ''})" if n else ""
        return f"{os.path.basename(self.path) if self.path else 'This new scenario'}{extra} has unsaved changes."

    def changed_on_disk(self) -> bool:
        """The file holds other bytes than those opened or last saved (a missing file has not changed)."""
        if self.path is None or self.disk is None:
            return False
        now = _read(self.path)
        return now is not None and _digest(now) != self.disk

    def proposed_path(self) -> str:
        """Where Save As proposes to write: this file, or a free name in the default folder
        (for a new scenario or one from the built-in library), or in a served app's root."""
        folder = save_folder()
        if self.path and not in_library(self.path) and not _inside(Path(self.path), _checkout()) and \
                _writable(self.path):
            return self.path
        stem = os.path.splitext(os.path.basename(self.path))[0] if self.path else (self.doc.get("id") or "scenario")
        stem = id_from_path(str(stem))
        candidate, n = folder / f"{stem}.yaml", 2
        while candidate.exists():
            candidate, n = folder / f"{stem}-{n}.yaml", n + 1
        return str(candidate)

    @property
    def table(self) -> dict[str, Any]:
        table = self.doc.get("table")
        if not isinstance(table, dict):
            table = self.doc["table"] = {"players": []}
        return table

    @property
    def label(self) -> str:
        name = os.path.basename(self.path) if self.path else "unsaved scenario"
        return name + (" *" if self.changed else "")

    def touch(self) -> None:
        self.version += 1

    def scenario_text(self) -> str:
        """The scenario as YAML: the file's own text while nothing changed."""
        from tui import scenario_io

        if self.text is not None and not self.changed:
            return self.text
        return scenario_io.dump(clean(self.doc))

    def source_name(self) -> str:
        if self.path and not self.changed:
            return self.path
        return f"{self.path} (unsaved changes)" if self.path else "<unsaved scenario>"

    def parse(self, doc: dict[str, Any] | None = None):
        """The engine's Scenario for this document (or a variant of it). Raises InputError."""
        from adjudicator import strictyaml
        from adjudicator.scenario import parse_scenario

        from tui import scenario_io

        if doc is None or doc == self.doc:
            text, name = self.scenario_text(), self.source_name()
        else:
            text, name = scenario_io.dump(doc), self.source_name()
        return parse_scenario(strictyaml.parse(text, name), name)

    # -- saving -------------------------------------------------------------
    def save(self, path: str | None = None, *, overwrite: bool = False,
             create_folder: bool = False) -> tuple[str, bool]:
        """Save to `path` (default: where it came from). Returns the real file and whether
        it was written (False: it already held exactly these bytes, and was left alone).

        Raises `FileExists`, `ChangedOnDisk` or `FolderMissing` (ask, then call again
        with `overwrite=True` or `create_folder=True`), `WriteError` (cannot be written:
        the message says why)."""
        from adjudicator.atomic_io import WriteError, write_atomic

        target = path.strip() if path and path.strip() else self.path
        if target is None:
            raise WriteError("no file name given", "<empty>")
        confinement = confine.active()
        if confinement is not None:
            try:
                target = confinement.writable(target)
            except confine.Refused as refused:
                raise WriteError(refused.message, refused.path) from None
        target = os.path.abspath(os.path.expanduser(target))
        if os.path.isdir(target):
            raise WriteError(f"is a folder; add a file name, such as {os.path.join(target, 'dispute.yaml')}", target)
        real = os.path.realpath(target)
        same_file = self.path is not None and real == os.path.realpath(self.path)
        if not overwrite:
            if same_file and self.changed_on_disk():
                raise ChangedOnDisk(f"{os.path.basename(target)} was changed on disk since it was opened. "
                                    "Overwrite those changes with this scenario?", target)
            if not same_file and os.path.lexists(target):
                raise FileExists(f"{target} already exists. Replace it with this scenario?", target)
        folder = os.path.dirname(real)
        if not os.path.isdir(folder):
            if os.path.lexists(folder):
                raise WriteError(f"{folder} is not a folder", target)
            if not create_folder and Path(folder) != save_folder():
                raise FolderMissing(f"The folder {folder} does not exist. Create it and save there?", target)
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as exc:
                raise WriteError(f"cannot create the folder {folder}: {exc.strerror or exc}", target) from None
        from tui import scenario_io

        named = not same_file and self.doc.get("id") in (None, NEW_ID)
        doc = clean({**self.doc, "id": id_from_path(target)} if named else self.doc)
        text = self.text if (self.text is not None and not self.changed and not named) else scenario_io.dump(doc)
        try:
            scenario_io.document(text, target)       # what Open would refuse is never written
        except InputError as exc:
            at = f" at line {exc.line}, column {exc.col}" if exc.line and exc.col else ""
            raise WriteError(f"not saved: the file could not be opened again{at}: {exc.message}; "
                             "shorten or remove that part and save again", target) from None
        if named:
            self.doc["id"] = doc["id"]
        data = text.encode("utf-8")
        wrote = _read(real) != data
        written = write_atomic(target, data) if wrote else Path(real)
        self.path, self.text, self.saved = target, text, copy.deepcopy(doc)
        self.disk = _digest(data)
        self.error = self.error_text = None
        return str(written), wrote
