"""The base of the screens that show the open scenario (Table, Replay): the app's
session as the screen last synced with it, and the typed way to reach it."""

from __future__ import annotations

from textual.screen import Screen

from tui.session import Session


class ScenarioScreen(Screen):
    def __init__(self) -> None:
        super().__init__()
        self.session: Session | None = None      # set by the screen's first sync with the app
        self.seen_version = -1                   # the session's version the screen shows

    @property
    def shown(self) -> Session:
        """The session on show. What acts on it runs after the first sync (the screen's
        entry points return early before then), so its absence here is a bug."""
        if self.session is None:
            raise RuntimeError(f"{type(self).__name__} acted before it had a scenario")
        return self.session
