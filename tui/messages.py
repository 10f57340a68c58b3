"""Messages the app's parts send each other, in place of calling into whatever screen
happens to be on top. A widget posts one and it bubbles to its screen; the app posts
one to the screen that is showing. Each screen handles the ones it cares about with
`@on(...)` and ignores the rest, so no screen order can make a call land on a screen
that is not ready for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


class SessionReplaced(Message):
    """The app holds a different scenario (New, Open): show it from scratch."""


class SessionSaved(Message):
    """The scenario was written to its file: refresh the file name and the unsaved mark."""


@dataclass
class ZoneEdit(Message):
    """A key on a zone of the Table screen: `action` is add, remove, move, shift or copies;
    `index` the highlighted card (None: the zone is empty); `delta` for shift and copies."""

    zone: str
    action: str
    index: int | None = None
    delta: int = 0


@dataclass
class PlayerEdit(Message):
    """A key on the players list: `action` is add, rename, turn, eliminate, remove or shift."""

    action: str
    player: str | None = None
    delta: int = 0


@dataclass
class ShowCards(Message):
    """Show how these cards meet on the Cards screen."""

    first: str | None
    second: str | None = None
