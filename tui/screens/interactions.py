"""The Cards screen: pick two cards and see how they meet, with the rulings that say so.

The explanation comes from the interaction graph (`adjudicator.interactions.explain_pair`);
this screen only asks for it in a worker and lists the answer. Until the graph offers
explanations, it says so instead of guessing.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.app import judge_app
from tui.messages import ShowCards
from tui.widgets import TYPE_STYLES, CardSuggester, ruling_summary
from tui.widgets.mode_bar import ModeBar

NOT_YET = "interaction explanations are not available yet"


def explain(a_name: str, b_name: str) -> dict[str, Any]:
    """Resolve both names and ask the graph how the cards meet (run it in a worker)."""
    from adjudicator.catalogue import UnknownName

    from tui.position import catalogue

    cat = catalogue()
    out: dict[str, Any] = {"cards": [], "paths": None, "error": None}
    for name in (a_name, b_name):
        try:
            out["cards"].append(cat.resolve(name))
        except UnknownName as exc:
            out["error"] = str(exc)
            return out
    from tui import graph

    a, b = out["cards"]
    if not graph.has("explain_pair"):
        return out                        # the graph cannot explain pairs yet
    try:
        paths = graph.ask("explain_pair", a.key, b.key, max_len=4)
    except Exception as exc:
        out["error"] = f"the interaction graph could not answer: {exc}"
        return out
    out["paths"] = [(str(getattr(p, "sentence", p)), [str(r) for r in getattr(p, "rulings", ()) or ()],
                     ) for p in paths or []]
    out["summaries"] = {rid: ruling_summary(rid) for _, rids in out["paths"] for rid in rids}
    return out


class InteractionsScreen(Screen):
    """How two cards interact."""

    BINDINGS = [
        Binding("ctrl+g", "explain", "Explain"),      # (Input keeps ctrl+e and ctrl+x for editing)
        Binding("ctrl+t", "swap", "Swap cards"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.generation = 0
        self.mounted = False
        self.pending_pair: tuple[str | None, str | None] | None = None

    def compose(self) -> ComposeResult:
        yield ModeBar()
        with Vertical(id="pair-inputs"):
            with Horizontal(classes="pair-row"):
                yield Label("First card ", classes="pair-label")
                yield Input(placeholder="a card name or alias", suggester=CardSuggester(), id="card-a", compact=True)
            with Horizontal(classes="pair-row"):
                yield Label("Second card", classes="pair-label")
                yield Input(placeholder="another card (Enter explains)", suggester=CardSuggester(), id="card-b",
                            compact=True)
        yield Static("", id="pair-cards")
        yield Static(Text("Type two cards; Enter in the second explains how they meet.", style="dim"),
                     id="pair-status")
        yield OptionList(id="pair-paths")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.mounted = True
        self.query_one("#card-a", Input).focus()
        if self.pending_pair is not None:
            self.set_pair(*self.pending_pair)

    @on(ShowCards)
    def _show_cards(self, message: ShowCards) -> None:
        self.set_pair(message.first, message.second)

    def set_pair(self, a: str | None, b: str | None = None) -> None:
        if not self.mounted:
            self.pending_pair = (a, b)     # shown as soon as the screen is up
            return
        self.pending_pair = None
        self.query_one("#card-a", Input).value = a or ""
        self.query_one("#card-b", Input).value = b or ""
        if a and b:
            self.action_explain()
        else:
            self.query_one("#card-b" if a else "#card-a", Input).focus()
            if a:
                self._describe_one(a)

    def _describe_one(self, name: str) -> None:
        from tui.position import catalogue

        try:
            card = catalogue().resolve(name)
        except Exception:
            return
        self.query_one("#pair-cards", Static).update(self._card_text(card))

    @staticmethod
    def _card_text(*cards: Any) -> Text:
        t = Text()
        for card in cards:
            if t:
                t.append("\n")
            t.append(card.name, style=f"bold {TYPE_STYLES.get(card.type, '')}")
            t.append(f"  {card.type.replace('_', ' ')}", style="italic dim")
            t.append(f"  {card.effect}")
        return t

    @on(Input.Submitted, "#card-a")
    def _next(self) -> None:
        self.query_one("#card-b", Input).focus()

    @on(Input.Submitted, "#card-b")
    def action_explain(self) -> None:
        a = self.query_one("#card-a", Input).value.strip()
        b = self.query_one("#card-b", Input).value.strip()
        if not a or not b:
            self.notify("Name two cards first.", severity="warning", markup=False)
            return
        self.generation += 1
        self.query_one("#pair-status", Static).update(Text("Looking at how they meet...", style="italic"))
        self._explain(self.generation, a, b)

    def action_swap(self) -> None:
        a, b = self.query_one("#card-a", Input), self.query_one("#card-b", Input)
        a.value, b.value = b.value, a.value

    @work(thread=True, exclusive=True, group="explain")
    def _explain(self, generation: int, a: str, b: str) -> None:
        try:
            result: Any = explain(a, b)
        except Exception as exc:
            result = {"cards": [], "paths": None, "error": str(exc)}
        self.app.call_from_thread(self._show, generation, result)

    def _show(self, generation: int, result: dict[str, Any]) -> None:
        if generation != self.generation:
            return
        status = self.query_one("#pair-status", Static)
        paths = self.query_one("#pair-paths", OptionList)
        paths.clear_options()
        if result.get("cards"):
            self.query_one("#pair-cards", Static).update(self._card_text(*result["cards"]))
        if result.get("error"):
            status.update(Text(result["error"], style="red"))
            return
        if result["paths"] is None:
            status.update(Text(NOT_YET.capitalize() + ": the interaction graph does not explain pairs of cards "
                               "in this build.", style="yellow"))
            return
        if not result["paths"]:
            status.update("These cards do not meet within four steps of the interaction graph.")
            return
        status.update(f"{len(result['paths'])} way{'s' if len(result['paths']) != 1 else ''} these cards meet "
                      "(Enter on a ruling opens it):")
        options = []          # added at once: OptionList lays its lines out again after each add
        for i, (sentence, rids) in enumerate(result["paths"], 1):
            options.append(Option(Text.assemble((f"{i}. ", "bold"), sentence), id=f"path:{i}", disabled=not rids))
            for rid in rids:   # one ruling can back several paths: ids stay unique with the path number
                summary = result.get("summaries", {}).get(rid, "")
                options.append(Option(Text.assemble("    ", (rid, "bold cyan"), f"  {summary}"), id=f"r:{rid}#{i}"))
        paths.add_options(options)
        paths.focus()

    @on(OptionList.OptionSelected, "#pair-paths")
    def _open(self, event: OptionList.OptionSelected) -> None:
        oid = event.option.id or ""
        if oid.startswith("r:"):
            judge_app(self.app).open_ruling(oid[2:].partition("#")[0])
        elif oid.startswith("path:"):  # a path opens its first ruling
            ol = self.query_one("#pair-paths", OptionList)
            idx = ol.get_option_index(oid) + 1
            following = ol.get_option_at_index(idx).id or "" if idx < ol.option_count else ""
            if following.startswith("r:"):
                judge_app(self.app).open_ruling(following[2:].partition("#")[0])
