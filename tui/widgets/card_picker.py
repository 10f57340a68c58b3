"""The card picker: type a card name with completion, aliases and typos found."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.render import TYPE_STYLES
from tui.widgets.suggesters import CardSuggester


class CardPicker(ModalScreen[str | None]):
    """Type a card name: completion as you type, matches by alias and despite typos.
    `?` is an unknown card; `NAME x3` adds three copies."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Next match", show=False),
        Binding("up", "move(-1)", "Previous match", show=False),
    ]

    def __init__(self, title: str, deck: Any = None) -> None:
        """`deck`: the table's editions (`tui.position.Deck`), whose cards come first."""
        super().__init__(classes="dialog")
        self.title_text = title
        self.deck = deck
        self.matches: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Input(placeholder="card name, alias, '?' (unknown) or 'NAME x2'", suggester=CardSuggester(self.deck),
                        id="card-input")
            yield OptionList(id="card-matches")
            yield Static("", id="card-info", classes="dialog-hint")
            yield Static("Type to search - Up/Down: pick a match - Enter: add - Esc: cancel", classes="dialog-hint")

    @on(Input.Changed, "#card-input")
    def _typed(self, event: Input.Changed) -> None:
        from tui.position import card_index

        self.matches = card_index().find(event.value, limit=12, deck=self.deck)
        ol = self.query_one("#card-matches", OptionList)
        options = []
        for m in self.matches:
            label = Text(m.card.name, style=TYPE_STYLES.get(m.card.type, ""))
            if m.is_alias:
                label.append(f"  ({m.label})", style="dim")
            label.append(f"  {m.card.type.replace('_', ' ')}", style="dim italic")
            options.append(Option(label, id=m.card.key))
        ol.set_options(options)
        if self.matches:
            ol.highlighted = 0
        self._show_info()

    def _show_info(self) -> None:
        ol = self.query_one("#card-matches", OptionList)
        info = self.query_one("#card-info", Static)
        if ol.highlighted is None or not self.matches:
            text = self.query_one("#card-input", Input).value.strip()
            info.update("" if not text or text.startswith("?") else Text("no card matches", style="red"))
            return
        card = self.matches[ol.highlighted].card
        info.update(Text(card.effect, style="italic"))

    @on(OptionList.OptionHighlighted, "#card-matches")
    def _highlighted(self) -> None:
        self._show_info()

    def action_move(self, delta: int) -> None:
        ol = self.query_one("#card-matches", OptionList)
        if ol.option_count:
            ol.highlighted = ((ol.highlighted or 0) + delta) % ol.option_count

    def _result(self) -> str | None:
        from tui.position import split_copies, with_copies

        typed = self.query_one("#card-input", Input).value.strip()
        name, count = split_copies(typed)
        if name.strip() == "?":
            return with_copies("?", count)
        ol = self.query_one("#card-matches", OptionList)
        if ol.highlighted is not None and self.matches:
            return with_copies(self.matches[ol.highlighted].card.name, count)
        return None

    @on(Input.Submitted, "#card-input")
    def _submitted(self, event: Input.Submitted) -> None:
        from adjudicator.limits import MAX_COPIES
        from tui.position import split_copies

        event.stop()
        if not 1 <= split_copies(event.value.strip())[1] <= MAX_COPIES:
            self.notify(f"The number of copies must be from 1 to {MAX_COPIES}.", severity="warning", markup=False)
            return
        result = self._result()
        if result is None:
            self.notify("No card matches that name.", severity="warning", markup=False)
            return
        self.dismiss(result)

    @on(OptionList.OptionSelected, "#card-matches")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        result = self._result()
        if result is not None:
            self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)


