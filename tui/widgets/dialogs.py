"""Modal dialogs: one line of text, a choice from a grouped list, yes/no, several cards
ticked, cards handed out to players, and opening a scenario file or a library one."""

from __future__ import annotations

import os
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

from tui.confine import path_exists
from tui.widgets.list_labels import ChoiceList, list_option
from tui.widgets.suggesters import PathSuggester


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
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Input(self.value, placeholder=self.placeholder, suggester=self.suggester,
                        restrict=self.restrict, id="prompt-input")
            yield Static(self.hint, classes="dialog-hint", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceModal(ModalScreen[str | None]):
    """Pick one option from a list. `choices` is a list of (id, label, group) triples;
    a change of group shows the group as a heading. With `filtered`, typing narrows
    the list to the options (or groups) holding every word typed."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("down", "move(1)", "Next", show=False), Binding("up", "move(-1)", "Previous", show=False),
                Binding("pagedown", "move(10)", show=False), Binding("pageup", "move(-10)", show=False)]

    def __init__(self, title: str, choices: Iterable[tuple[str, Any, str]], hint: str = "",
                 filtered: bool = False) -> None:
        super().__init__(classes="dialog")
        self.title_text, self.choices, self.hint, self.filtered = title, list(choices), hint, filtered
        # built once: each filter hands the same options (converted and measured) to the list
        self._entries = [(str(label).lower() + " " + str(grp).lower(), grp, list_option(label, id=cid))
                         for cid, label, grp in self.choices]
        self._headings: dict[int, Option] = {}    # by the entry they head (a list holds an option once)

    def _options(self, words: list[str]) -> list[Option]:
        options: list[Option] = []
        group = None
        for i, (text, grp, option) in enumerate(self._entries):
            if words and not all(w in text for w in words):
                continue
            if grp and grp != group:
                if i not in self._headings:
                    self._headings[i] = list_option(Text(grp, style="bold underline"), disabled=True)
                options.append(self._headings[i])
                group = grp
            options.append(option)
        return options

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            if self.filtered:
                yield Input(placeholder="type to narrow the list (a card, a player, 'reveal'...)", id="choice-filter",
                            compact=True)
            yield ChoiceList(*self._options([]), id="choice-list")
            yield Static(self.hint or "Enter: choose - Esc: cancel", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self._first()

    def _first(self) -> None:
        ol = self.query_one("#choice-list", OptionList)
        ol.highlighted = next((i for i, opt in enumerate(ol.options) if not opt.disabled), None)

    @on(Input.Changed, "#choice-filter")
    def _narrow(self, event: Input.Changed) -> None:
        ol = self.query_one("#choice-list", OptionList)
        ol.set_options(self._options(event.value.lower().split()))
        self._first()

    @on(Input.Submitted, "#choice-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        ol = self.query_one("#choice-list", OptionList)
        if ol.highlighted is not None and ol.option_count:
            option = ol.get_option_at_index(ol.highlighted)
            if not option.disabled:
                self.dismiss(option.id)

    def action_move(self, delta: int) -> None:
        ol = self.query_one("#choice-list", OptionList)
        if not ol.option_count:
            return
        i = ol.highlighted if ol.highlighted is not None else -1
        step = 1 if delta > 0 else -1
        for _ in range(abs(delta)):
            j = i + step
            while 0 <= j < ol.option_count and ol.get_option_at_index(j).disabled:
                j += step
            if not 0 <= j < ol.option_count:
                break
            i = j
        if i >= 0:
            ol.highlighted = i

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmModal(ModalScreen[bool]):
    """A yes/no question (y or n; Esc is no)."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog")
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.question, classes="dialog-title", markup=False)
            yield Static("y: yes - n: no", classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class UnsavedModal(ModalScreen[str | None]):
    """Unsaved changes are about to go: save them first, drop them, or go back."""

    BINDINGS = [Binding("s", "answer('save')", "Save first"), Binding("d", "answer('discard')", "Discard"),
                Binding("escape,c", "answer(None)", "Go back")]

    def __init__(self, summary: str, doing: str) -> None:
        super().__init__(classes="dialog")
        self.summary, self.doing = summary, doing

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(f"{self.summary} {self.doing}?", classes="dialog-title", markup=False)
            yield Static("s: save them first - d: discard them - Esc: go back", classes="dialog-hint", markup=False)

    def action_answer(self, choice: str | None) -> None:
        self.dismiss(choice)


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
            yield Label(self.title_text, classes="dialog-title", markup=False)
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
            yield Label(self.title_text, classes="dialog-title", markup=False)
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


class OpenModal(ModalScreen[str | None]):
    """Open a scenario: type a path (with completion), or words that narrow the list
    and pick one: the user's own scenario files first (newest first, each by its
    question), then the built-in library."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("down", "to_list", "Library", show=False)]

    def __init__(self, library: list[tuple[str, str]], own: list[tuple[str, str]] | None = None,
                 folder: str = "") -> None:
        super().__init__(classes="dialog")
        self.library, self.own, self.folder = library, own or [], folder
        # built once: each filter hands the same options (converted and measured) to the list
        self._entries = [(title.lower(), "own", list_option(title, id=path)) for path, title in self.own]
        self._entries += [(title.lower(), "library", list_option(title, id=path)) for path, title in library]
        self._headings = {group: list_option(Text(words, style="bold underline"), disabled=True)
                          for group, words in (("own", f"Yours, newest first ({folder})"),
                                               ("library", "The built-in library"))}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("Open a scenario file", classes="dialog-title")
            yield Input(placeholder="path/to/scenario.yaml, or words to find a scenario",
                        suggester=PathSuggester(), id="open-path")
            yield Label(self._count(len(self.own), len(self.library)), classes="dialog-hint", id="open-count")
            yield ChoiceList(*self._options(""), id="open-library")
            yield Static("Enter: open - Down: the list - Esc: cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self._first()

    def _count(self, own: int, library: int) -> str:
        def part(n: int, total: int) -> str:
            return str(total) if n == total else f"{n} of {total}"

        yours = f"yours ({part(own, len(self.own))}), then " if self.own else ""
        return f"{yours[:1].upper() + yours[1:]}{'the' if self.own else 'The'} built-in library " \
               f"({part(library, len(self.library))}):"

    def _options(self, words: str) -> list[Option]:
        wanted = words.lower().split()
        out: list[Option] = []
        group = None
        for title, grp, option in self._entries:
            if all(w in title for w in wanted):
                if grp != group and self.own:
                    out.append(self._headings[grp])
                    group = grp
                out.append(option)
        return out

    def _first(self) -> None:
        ol = self.query_one("#open-library", OptionList)
        ol.highlighted = next((i for i, opt in enumerate(ol.options) if not opt.disabled), None)

    @on(Input.Changed, "#open-path")
    def _narrow(self, event: Input.Changed) -> None:
        text = event.value.strip()
        words = "" if os.sep in text or text.endswith((".yaml", ".yml")) else text
        ol = self.query_one("#open-library", OptionList)
        ol.set_options(self._options(words))
        self._first()
        own = sum(1 for o in ol.options if not o.disabled and o.id in {p for p, _ in self.own})
        self.query_one("#open-count", Label).update(self._count(own, sum(1 for o in ol.options if not o.disabled) - own))

    @on(Input.Submitted, "#open-path")
    def _path(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        ol = self.query_one("#open-library", OptionList)
        if text and (path_exists(text) or os.sep in text or text.endswith((".yaml", ".yml"))):
            self.dismiss(text)             # a path (a missing file is reported when opened)
        elif text and ol.highlighted is not None and ol.option_count:
            option = ol.get_option_at_index(ol.highlighted)
            if not option.disabled:
                self.dismiss(option.id)

    @on(OptionList.OptionSelected, "#open-library")
    def _library(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_to_list(self) -> None:
        self.query_one("#open-library", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
