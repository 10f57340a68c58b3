"""How the engine reaches the rulings it cites without importing them.

The engine names rulings by id and leaves their text to whoever holds the corpus:
`adjudicator` imports nothing from the packages above it. The rulings package
registers itself here when it is imported (`rulings/__init__.py`), and from then on
the scenario loader checks `cites:` and `rejected:` ids against it and verdicts show
under each step the part of each cited ruling that supports the step's outcome
(`excerpt`). A cited id may be an alias of a record (another
stable id under which the record opens); verdicts then name the record as well
(`label`). With nothing registered (the engine used on its own) ids are checked for
their form only and answers are left out.
"""

from __future__ import annotations

from typing import Callable, Protocol


class RulingSource(Protocol):
    """What the engine asks of a rulings corpus."""

    def one_line(self, ruling_id: str) -> str:
        """The ruling's one-line answer ("" when there is none)."""
        ...

    def excerpt(self, ruling_id: str, outcome: str) -> str:
        """The part of the ruling that decides a step it is cited at, whose outcome is
        `outcome` ("allowed": the event stood; "refused": it was refused)."""
        ...

    def known_ids(self) -> set[str]:
        """Every ruling id a scenario may cite (built-in and imported)."""
        ...

    def knows(self, ruling_id: str) -> bool:
        """Whether a scenario may cite `ruling_id`: `ruling_id in known_ids()`, answered
        without gathering every id where the corpus can."""
        ...

    def suggest(self, ruling_id: str, ids: list[str]) -> list[str]:
        """The ids closest to a misspelled one."""
        ...

    def record_id(self, ruling_id: str) -> str:
        """The id of the record a known id opens (itself unless it is an alias)."""
        ...


_source: RulingSource | None = None


def register(source: RulingSource) -> None:
    """Make `source` the corpus the engine cites from (the last one registered wins)."""
    global _source
    _source = source


def registered() -> RulingSource | None:
    return _source


def one_line(ruling_id: str) -> str:
    """A cited ruling's one-line answer, or "" when no corpus is registered or it fails."""
    if _source is None:
        return ""
    try:
        return _source.one_line(ruling_id)
    except Exception:  # a missing or broken record never breaks a verdict
        return ""


def excerpt(ruling_id: str, outcome: str = "allowed") -> str:
    """The part of a cited ruling shown under a step whose outcome is `outcome`
    ("allowed" or "refused"): a statement that supports it, never a bare "No." that
    answers the ruling's own question. "" when no corpus is registered or it fails."""
    if _source is None:
        return ""
    try:
        return _source.excerpt(ruling_id, outcome)
    except Exception:  # a missing or broken record never breaks a verdict
        return ""


def record_id(ruling_id: str) -> str:
    """The id of the record `ruling_id` opens: the record's own id for an alias, else
    `ruling_id` itself (also with no corpus registered, or when it fails)."""
    if _source is None:
        return ruling_id
    try:
        return _source.record_id(ruling_id) or ruling_id
    except Exception:  # an unknown id or a broken corpus: name it as cited
        return ruling_id


def label(ruling_id: str) -> str:
    """How a verdict names a cited ruling: its id, and for an alias the record it opens
    ("pack-id (record record-id)")."""
    record = record_id(ruling_id)
    return ruling_id if record == ruling_id else f"{ruling_id} (record {record})"


def check_id(ruling_id: str, fail: Callable[[str], Exception]) -> str:
    """`ruling_id` if the registered corpus knows it; else raise `fail(message)` with a
    did-you-mean. Without a corpus every id of the right form passes."""
    if _source is None or _source.knows(ruling_id):
        return ruling_id
    known = _source.known_ids()
    close = _source.suggest(ruling_id, sorted(known))
    hint = f" - did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise fail(f"no ruling has the id {ruling_id!r}{hint}")
