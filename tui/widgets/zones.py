"""The Table screen's lists: one zone's cards, and the seats in turn order.

Their keys do not edit anything themselves: each posts a `ZoneEdit` or `PlayerEdit`
message naming what was asked and on which entry, and the Table screen handles it.
Titles and entries are rich `Text`, so a card or player name is shown exactly as typed.
"""

from __future__ import annotations

import functools
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui import position as P
from tui.messages import PlayerEdit, ZoneEdit
from tui.widgets.render import card_label

EMPTY_HINT = "(empty: a adds)"


def resolve(name: str):
    """The catalogue card for a name, or None (unknown names are shown as problems)."""
    try:
        cat = P.catalogue()
    except Exception:
        return None
    return _resolve_in(cat, name)


@functools.lru_cache(maxsize=2048)
def _resolve_in(cat, name: str):
    # cached: a name that matches nothing costs a did-you-mean search of the catalogue
    try:
        return cat.resolve(name)
    except Exception:
        return None


def count_cards(entries: list[Any]) -> int:
    return sum(P.split_copies(e)[1] if isinstance(e, str) else 1 for e in entries)


class ZoneList(OptionList):
    """One zone's cards. The keys act on the highlighted card."""

    BINDINGS = [
        Binding("a,insert", "edit('add')", "Add card"),
        Binding("d,delete", "edit('remove')", "Remove"),
        Binding("m", "edit('move')", "Move"),
        Binding("left_square_bracket,shift+up", "edit('shift', -1)", "Up", show=False),
        Binding("right_square_bracket,shift+down", "edit('shift', 1)", "Down", show=False),
        Binding("plus,equals_sign", "edit('copies', 1)", "+copy", show=False),
        Binding("minus", "edit('copies', -1)", "-copy", show=False),
    ]
    DIALOG_ACTIONS = frozenset({"edit('add')", "edit('move')"})      # keys typed after them wait (tui.typeahead)

    def __init__(self, zone: str) -> None:
        super().__init__(classes="zone")
        self.zone = zone
        self.border_title = Text(P.zone_title(zone))
        self.entries: list[Any] = []

    def show(self, entries: list[Any], flagged: set[int], keep: int | None = None) -> None:
        self.entries = list(entries)
        options = []
        for i, entry in enumerate(entries):
            name, count = P.split_copies(entry) if isinstance(entry, str) else (str(entry), 1)
            options.append(Option(card_label(name, resolve(name), count, problem=i in flagged), id=str(i)))
        if not options:
            options.append(Option(Text(EMPTY_HINT, style="dim"), disabled=True))
        before = self.highlighted if keep is None else keep
        self.set_options(options)
        if entries:
            self.highlighted = min(max(before or 0, 0), len(entries) - 1)
        n = count_cards(entries)
        self.border_subtitle = Text("" if not entries else f"{n} (top first)" if self.zone in P.PILES
                                    else f"{n} card{'s' if n != 1 else ''}")

    @property
    def current(self) -> int | None:
        if not self.entries or self.highlighted is None:
            return None
        return min(self.highlighted, len(self.entries) - 1)

    def action_edit(self, action: str, delta: int = 0) -> None:
        if action != "add" and self.current is None:
            self.app.release_keys()          # no card to move: no dialog comes
            return
        self.post_message(ZoneEdit(self.zone, action, self.current, delta))


class PlayerList(OptionList):
    """The seats in turn order; `seats` is kept by the Table screen."""

    BINDINGS = [
        Binding("n,insert", "edit('add')", "Add"),
        Binding("r", "edit('rename')", "Rename"),
        Binding("t", "edit('turn')", "Turn"),
        Binding("e", "edit('eliminate')", "Out/in", show=False),
        Binding("d,delete", "edit('remove')", "Remove", show=False),
        Binding("left_square_bracket,shift+up", "edit('shift', -1)", "Up", show=False),
        Binding("right_square_bracket,shift+down", "edit('shift', 1)", "Down", show=False),
    ]
    DIALOG_ACTIONS = frozenset({"edit('add')", "edit('rename')"})    # keys typed after them wait (tui.typeahead)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seats: list[str] = []

    def _player(self) -> str | None:
        if self.highlighted is None or not self.seats:
            return None
        return self.seats[min(self.highlighted, len(self.seats) - 1)]

    def action_edit(self, action: str, delta: int = 0) -> None:
        player = self._player()
        if action != "add" and player is None:
            self.app.release_keys()          # no player to rename: no dialog comes
            return
        self.post_message(PlayerEdit(action, player, delta))
