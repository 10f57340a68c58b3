"""Type-ahead for inputs: card names and aliases, file and folder names, typed events."""

from __future__ import annotations

import os

from textual.suggester import Suggester


class CardSuggester(Suggester):
    """Completes card names and aliases from the catalogue as they are typed (those of
    the table's editions first: `deck`, a `tui.position.Deck`)."""

    def __init__(self, deck=None) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.deck = deck

    async def get_suggestion(self, value: str) -> str | None:
        from tui.position import card_index

        try:
            return card_index().complete(value, self.deck)
        except Exception:
            return None


class PathSuggester(Suggester):
    """Completes file and folder names (in a served app, only inside its root: `tui.confine`)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        from tui import confine

        if not value:
            return None
        confinement = confine.active()
        if confinement is not None:
            return confinement.complete(value)
        expanded = os.path.expanduser(value)
        folder, stem = os.path.split(expanded)
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            return None
        for name in names:
            if name.startswith(stem) and name != stem and not name.startswith("."):
                full = os.path.join(folder, name)
                suffix = "/" if os.path.isdir(full) else ""
                return value + name[len(stem):] + suffix
        return None




class EventSuggester(Suggester):
    """Completes a typed event from hints made from the table now (the engine's
    `EventHints`: the legal events in words and in file syntax, players and cards in play)."""

    def __init__(self, hints) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.hints = hints

    async def get_suggestion(self, value: str) -> str | None:
        return self.hints.suggest(value)
