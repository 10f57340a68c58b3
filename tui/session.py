"""The scenario being worked on: its document, the file it came from, and its changes.

The Table and Replay screens share one `Session`. The document is the scenario as
plain data (see `tui.scenario_io`); the text of the file as it was opened is kept, so
that saving an unchanged scenario leaves the file byte for byte as it was, and so that
error positions point into the real file. No Textual here: this is plain logic.
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator.errors import InputError

NEW_ID = "new-dispute"


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

    def __post_init__(self) -> None:
        if self.saved is None and self.text is None:
            self.saved = copy.deepcopy(self.doc)   # a fresh document has nothing unsaved

    @classmethod
    def open(cls, path: str) -> "Session":
        """Open a scenario file. A file that is not a scenario at all gives a session
        with `error` set (and a fresh document); the file itself is never touched."""
        from tui import scenario_io

        path = os.path.abspath(os.path.expanduser(path))
        text = None
        try:
            from adjudicator.textfiles import read_text

            text = read_text(path)   # regular files within limits.MAX_FILE_BYTES only
            data = scenario_io.loads(text, path)
            if data is None:
                raise InputError("the file is empty; a scenario needs at least `format: 1` and a `table`", path, 1, 1)
            if not isinstance(data, dict):
                raise InputError("a scenario file holds one mapping (format, table, events...), not a list or "
                                 "a single value", path, 1, 1)
        except InputError as exc:
            return cls(error=exc, error_text=text)
        except OSError as exc:
            return cls(error=InputError(f"cannot read the file: {exc.strerror or exc}", path))
        return cls(doc=data, path=path, text=text, saved=copy.deepcopy(data))

    # -- state ---------------------------------------------------------------
    @property
    def changed(self) -> bool:
        return self.doc != self.saved

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
        return scenario_io.dump(self.doc)

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
    def save(self, path: str | None = None) -> bool:
        """Save to `path` (default: where it came from). Returns False when nothing had to
        be written (the file already holds these bytes)."""
        target = os.path.abspath(os.path.expanduser(path)) if path else self.path
        if target is None:
            raise ValueError("no file name given")
        if target != self.path and self.doc.get("id") in (None, NEW_ID):
            self.doc["id"] = id_from_path(target)
        from tui import scenario_io

        text = self.scenario_text()
        wrote = scenario_io.write_atomic(target, text)
        self.path, self.text, self.saved = target, text, copy.deepcopy(self.doc)
        self.error = self.error_text = None
        return wrote
