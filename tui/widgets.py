"""Small pieces the screens share: dialogs (prompt, choice, confirm, card picker, open),
type-ahead suggesters, and the readable rendering of errors and ruling references."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

TYPE_STYLES = {
    "keeper": "green", "creeper": "red", "goal": "yellow", "ungoal": "yellow", "rule": "cyan",
    "meta_rule": "cyan", "action": "magenta", "surprise": "bright_magenta", "danger": "red",
    "unknown": "dim", "basic": "cyan",
}


# --------------------------------------------------------------------------- rendering helpers

def error_text(err: Any, source: str | None = None) -> Text:
    """An InputError as a readable block: where, what, and the offending line with a caret."""
    text = Text()
    where = err.where() if hasattr(err, "where") else ""
    text.append("This file cannot be used as a scenario.\n", style="bold red")
    if where:
        text.append(where, style="bold")
        text.append("\n")
    text.append(str(getattr(err, "message", err)))
    line = getattr(err, "line", None)
    if source and line:
        lines = source.splitlines()
        if 1 <= line <= len(lines):
            shown = lines[line - 1]
            text.append("\n\n")
            text.append(f"{line:>4} | ", style="dim")
            text.append(shown + "\n")
            col = getattr(err, "col", None) or 1
            text.append("     | " + " " * (col - 1) + "^", style="bold red")
    return text


def ruling_summary(rid: str) -> str:
    """The first sentence of a ruling, or '' when the corpus cannot say (never raises)."""
    try:
        from rulings.corpus import one_line
    except Exception:
        return ""
    try:
        line = one_line(rid)
        if len(line) < 30:  # "No." says little without its question
            from rulings.corpus import get

            line = f"{get(rid).title} {line}"
        return line
    except Exception:
        return ""


def highlighted(fragment: str, style: str = "bold reverse") -> Text:
    """Search fragments mark matched words as **word**: show them highlighted."""
    out = Text()
    for i, part in enumerate(re.split(r"\*\*", fragment)):
        out.append(part, style=style if i % 2 else "")
    return out


def card_label(name: str, card: Any = None, count: int = 1, problem: bool = False) -> Text:
    t = Text()
    if card is None:
        t.append(name, style="bold red" if problem else "")
        t.append("  (unknown card)" if problem else "", style="red")
    else:
        t.append(card.name, style=TYPE_STYLES.get(card.type, ""))
        if name != card.name and card.key != "?":
            t.append(f" ({name})", style="dim")
    if count != 1:
        t.append(f" x{count}", style="bold")
    if problem and card is not None:
        t.append("  !", style="bold red")
    return t


# --------------------------------------------------------------------------- suggesters

class CardSuggester(Suggester):
    """Completes card names and aliases from the catalogue as they are typed."""

    def __init__(self) -> None:
        super().__init__(use_cache=True, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        from tui.position import card_index

        try:
            return card_index().complete(value)
        except Exception:
            return None


class PathSuggester(Suggester):
    """Completes file and folder names."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
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


# --------------------------------------------------------------------------- dialogs

class PromptModal(ModalScreen[str | None]):
    """Ask for one line of text."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", placeholder: str = "", hint: str = "",
                 suggester: Suggester | None = None, restrict: str | None = None) -> None:
        super().__init__(classes="dialog")
        self.title_text, self.value, self.placeholder, self.hint = title, value, placeholder, hint
        self.suggester, self.restrict = suggester, restrict

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(self.value, placeholder=self.placeholder, suggester=self.suggester,
                        restrict=self.restrict, id="prompt-input")
            yield Static(self.hint, classes="dialog-hint")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceModal(ModalScreen[str | None]):
    """Pick one option from a list. `choices` is a list of (id, label, group) triples;
    a change of group shows the group as a heading."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Iterable[tuple[str, Any, str]], hint: str = "") -> None:
        super().__init__(classes="dialog")
        self.title_text, self.choices, self.hint = title, list(choices), hint

    def compose(self) -> ComposeResult:
        options: list[Option | None] = []
        group = None
        for cid, label, grp in self.choices:
            if grp and grp != group:
                options.append(Option(Text(grp, style="bold underline"), disabled=True))
                group = grp
            options.append(Option(Text(label) if isinstance(label, str) else label, id=cid))   # no markup
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title")
            yield OptionList(*options, id="choice-list")
            yield Static(self.hint or "Enter: choose - Esc: cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        for i, opt in enumerate(ol.options):
            if not opt.disabled:
                ol.highlighted = i
                break

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmModal(ModalScreen[bool]):
    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.question, classes="dialog-title")
            yield Static("y: yes - n: no", classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PickManyModal(ModalScreen[list[str] | None]):
    """Pick several cards (a discard, Let's Simplify...): space ticks, Enter confirms."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("enter", "done", "Confirm", priority=True)]

    def __init__(self, title: str, options: list[str], count: int | None, minimum: int) -> None:
        super().__init__(classes="dialog")
        self.title_text, self.options, self.count, self.minimum = title, options, count, minimum

    def compose(self) -> ComposeResult:
        need = (f"exactly {self.count}" if self.count is not None and self.minimum == self.count else
                f"{self.minimum} to {self.count}" if self.count is not None else f"at least {self.minimum}")
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title")
            yield SelectionList[int](*[(name, i) for i, name in enumerate(self.options)], id="pick-list")
            yield Static(f"Pick {need}. Space: tick - Enter: confirm - Esc: cancel", classes="dialog-hint",
                         id="pick-hint")

    def action_done(self) -> None:
        picked = [self.options[i] for i in sorted(self.query_one(SelectionList).selected)]
        if len(picked) < self.minimum or (self.count is not None and len(picked) > self.count):
            self.query_one("#pick-hint", Static).update(Text(f"{len(picked)} ticked: that is not allowed here. "
                                                             "Space: tick - Enter: confirm", style="red"))
            return
        self.dismiss(picked)

    def action_cancel(self) -> None:
        self.dismiss(None)


class DealModal(ModalScreen[dict | None]):
    """Hand out cards to players (Everybody Gets 1...): Enter on a card changes who gets
    it; d confirms."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("d", "done", "Done")]

    def __init__(self, title: str, cards: list[str], players: list[str]) -> None:
        super().__init__(classes="dialog")
        self.title_text, self.cards, self.players = title, cards, players
        self.to = [players[0] if players else "" for _ in cards]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title")
            yield OptionList(*self._options(), id="deal-list")
            yield Static("Enter: give the card to the next player - d: done - Esc: cancel", classes="dialog-hint")

    def _options(self) -> list[Option]:
        return [Option(Text(f"{c}  ->  {self.to[i]}"), id=str(i)) for i, c in enumerate(self.cards)]

    @on(OptionList.OptionSelected)
    def _cycle(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        i = int(event.option.id)
        self.to[i] = self.players[(self.players.index(self.to[i]) + 1) % len(self.players)]
        ol = self.query_one(OptionList)
        ol.replace_option_prompt(str(i), Text(f"{self.cards[i]}  ->  {self.to[i]}"))

    def action_done(self) -> None:
        out: dict[str, list[str]] = {}
        for card, who in zip(self.cards, self.to):
            out.setdefault(who, []).append(card)
        self.dismiss(out)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CardPicker(ModalScreen[str | None]):
    """Type a card name: completion as you type, matches by alias and despite typos.
    `?` is an unknown card; `NAME x3` adds three copies."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Next match", show=False),
        Binding("up", "move(-1)", "Previous match", show=False),
    ]

    def __init__(self, title: str) -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.matches: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(placeholder="card name, alias, '?' (unknown) or 'NAME x2'", suggester=CardSuggester(),
                        id="card-input")
            yield OptionList(id="card-matches")
            yield Static("", id="card-info", classes="dialog-hint")
            yield Static("Type to search - Up/Down: pick a match - Enter: add - Esc: cancel", classes="dialog-hint")

    @on(Input.Changed, "#card-input")
    def _typed(self, event: Input.Changed) -> None:
        from tui.position import card_index

        self.matches = card_index().find(event.value, limit=12)
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
        event.stop()
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


class OpenModal(ModalScreen[str | None]):
    """Open a scenario: type a path (with completion), or words that narrow the list of
    the built-in library and pick one."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("down", "to_list", "Library", show=False)]

    def __init__(self, library: list[tuple[str, str]]) -> None:
        super().__init__(classes="dialog")
        self.library = library

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Open a scenario file", classes="dialog-title")
            yield Input(placeholder="path/to/scenario.yaml, or words to find a library scenario",
                        suggester=PathSuggester(), id="open-path")
            yield Label(f"The built-in library ({len(self.library)}):", classes="dialog-hint", id="open-count")
            yield OptionList(*self._options(""), id="open-library")
            yield Static("Enter: open - Down: the list - Esc: cancel", classes="dialog-hint")

    def _options(self, words: str) -> list[Option]:
        wanted = words.lower().split()
        return [Option(Text(title), id=path) for path, title in self.library
                if all(w in title.lower() for w in wanted)]

    @on(Input.Changed, "#open-path")
    def _narrow(self, event: Input.Changed) -> None:
        text = event.value.strip()
        words = "" if os.sep in text or text.endswith((".yaml", ".yml")) else text
        ol = self.query_one("#open-library", OptionList)
        ol.set_options(self._options(words))
        if ol.option_count:
            ol.highlighted = 0
        self.query_one("#open-count", Label).update(f"The built-in library ({ol.option_count} of {len(self.library)}):")

    @on(Input.Submitted, "#open-path")
    def _path(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        ol = self.query_one("#open-library", OptionList)
        if text and (os.path.exists(os.path.expanduser(text)) or os.sep in text or text.endswith((".yaml", ".yml"))):
            self.dismiss(text)             # a path (a missing file is reported when opened)
        elif text and ol.highlighted is not None and ol.option_count:
            self.dismiss(ol.get_option_at_index(ol.highlighted).id)

    @on(OptionList.OptionSelected, "#open-library")
    def _library(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_to_list(self) -> None:
        self.query_one("#open-library", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
