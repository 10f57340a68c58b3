"""The card page: one card with its editions, other names, effect, mechanic, rulings,
scenarios and the cards it meets (rulings.card_page gathers it, in a worker thread).

Opened from a ruling's card names (RulingScreen), from the command palette ("card page
NAME", any alias works) or by `app.open_card(name)`. Enter on a ruling opens it, on a
scenario opens it in Replay, on a card it meets opens that card's page.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from tui.app import judge_app


def page_text(page: Any) -> Text:
    t = Text()
    t.append(page.name, style="bold")
    t.append(f"   {page.type}", style="italic")
    t.append("\n" + ", ".join(title for _, title in page.editions), style="dim")
    if page.aliases:
        t.append("\nAlso called: ", style="bold")
        t.append(", ".join(page.aliases))
    if page.nicknames:
        t.append("\nPlayers call it: ", style="bold")
        t.append(", ".join(page.nicknames))
    if page.analogues:
        t.append("\nAnalogues: ", style="bold")
        t.append(", ".join(page.analogues))
    t.append("\n\nEffect: ", style="bold")
    t.append(page.effect or "(not described yet)")
    if page.certainty == "partial":
        t.append("  (partly modelled)", style="dim")
    t.append("\nMechanic: ", style="bold")
    t.append(page.mechanic)
    if page.mechanic_summary:
        t.append(f" - {page.mechanic_summary}", style="dim")
    return t


def page_options(page: Any) -> list[Option]:
    options: list[Option] = []

    def section(title: str) -> None:
        options.append(Option(Text(title, style="bold underline"), disabled=True))

    def none(text: str) -> None:
        options.append(Option(Text(text, style="dim"), disabled=True))

    section(f"Rulings about it ({len(page.rulings)})")
    for r in page.rulings:
        via = f"  (applies via {r['applies_via']})" if r.get("applies_via") else ""
        options.append(Option(Text.assemble((r["id"], "bold"), (f"  [{r['basis_text']}]", "dim"),
                                            f"  {r['summary']}", (via, "dim")), id=f"rel:{r['id']}"))
    if not page.rulings:
        none("no ruling is about this card yet")
    section(f"Scenarios that show it ({len(page.scenarios)}; Enter: open in Replay)")
    for n, sc in enumerate(page.scenarios):
        options.append(Option(Text.assemble((sc["title"] or sc["id"], "bold"), (f"  {sc['id']}", "dim")),
                              id=f"sc:{n}"))
    if not page.scenarios:
        none("no library scenario shows it yet")
    section(f"What it meets ({len(page.meets)})")
    for n, m in enumerate(page.meets):
        label = Text(m["sentence"])
        if m["ruling"]:
            label.append(f"  [{m['ruling']}]", style="dim")
        link = f"card:{m['other']}#{n}" if m.get("kind") == "card" else None
        options.append(Option(label, id=link, disabled=link is None))
    if not page.meets:
        none("the interaction graph links it to nothing yet")
    return options


class CardScreen(Screen):
    """One card's page."""

    DEFAULT_CSS = """
    CardScreen #card-body { height: auto; max-height: 45%; padding: 0 1; }
    CardScreen #card-links { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "Back"), Binding("backspace", "close", "Back", show=False)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.card_name = name
        self.page: Any = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="card-body"):
            yield Static(Text(f"Loading {self.card_name}...", style="italic"), id="card-text")
        yield OptionList(id="card-links")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#card-links", OptionList).focus()
        self._gather()

    @work(thread=True)
    def _gather(self) -> None:
        try:
            from rulings.card_page import card_page

            page: Any = card_page(self.card_name)
        except Exception as exc:  # an unknown name says so, with its suggestions
            page = exc
        self.app.call_from_thread(self._fill, page)

    def _fill(self, page: Any) -> None:
        body = self.query_one("#card-text", Static)
        if isinstance(page, Exception):
            body.update(Text(str(page), style="red"))
            return
        self.page = page
        body.update(page_text(page))
        links = self.query_one("#card-links", OptionList)
        links.set_options(page_options(page))
        for i, opt in enumerate(links.options):
            if not opt.disabled:
                links.highlighted = i
                break

    @on(OptionList.OptionSelected, "#card-links")
    def _follow(self, event: OptionList.OptionSelected) -> None:
        kind, _, value = (event.option.id or "").partition("#")[0].partition(":")
        if kind == "rel":
            judge_app(self.app).open_ruling(value)
        elif kind == "sc" and self.page is not None:
            judge_app(self.app).open_scenario(self.page.scenarios[int(value)]["path"], "replay")
        elif kind == "card":
            judge_app(self.app).open_card(value)

    def action_close(self) -> None:
        self.dismiss()


class CardPageCommands(Provider):
    """Every card and alias in the palette as "card page NAME": opens its page."""

    async def startup(self) -> None:
        from adjudicator.catalogue import default_catalogue
        from tui.position import card_labels

        def load() -> list[tuple[str, str, str]]:
            return [(label, card.name, card.effect) for label, card in card_labels(default_catalogue())]

        try:
            self.cards = await asyncio.to_thread(load)
        except Exception:
            self.cards = []

    async def search(self, query: str) -> Hits:
        # Textual's fuzzy matcher is slow on long queries over hundreds of names: only
        # names containing the typed name's first word are scored
        wanted = query.lower().strip()
        for prefix in ("card page", "card pag", "card pa", "card p", "card ", "page "):
            if wanted.startswith(prefix):
                wanted = wanted[len(prefix):].strip()
                break
        first = wanted.split()[0] if wanted.split() else ""
        matcher = self.matcher(query)
        for label, name, effect in self.cards:
            if first and first not in label.lower() and first not in name.lower():
                continue
            shown = label if label == name else f"{label} ({name})"
            score = matcher.match(f"card page {label}")
            if score > 0:
                yield Hit(score, matcher.highlight(f"card page {shown}"), partial(judge_app(self.app).open_card, name),
                          help=effect)
