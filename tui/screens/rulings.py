"""The Rulings screen (search as you type, facets, did-you-mean) and the ruling view.

The corpus loads and the search index opens in worker threads; each query runs in a
worker too, and a result that arrives after a newer query was typed is dropped. The
ruling view links to its cards, related rulings, interaction-graph neighbours and the
library scenarios that demonstrate it, each openable with Enter.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from tui.app import judge_app
from tui.widgets import highlighted
from tui.widgets.mode_bar import ModeBar

DEBOUNCE = 0.12
FACETS = ("kind", "topic", "edition")


def _hit_prompt(hit: Any) -> Text:
    t = Text()
    t.append(hit.title or hit.id, style="bold")
    if hit.highlight:
        t.append("\n")
        t.append_text(highlighted(hit.highlight, "bold reverse"))
    meta = "  ".join(x for x in (hit.id, ", ".join(hit.cards), ", ".join(hit.topics)) if x)
    t.append("\n" + meta, style="dim")
    return t


def _browse_prompt(r: Any) -> Text:
    t = Text()
    t.append(r.title, style="bold")
    meta = "  ".join(x for x in (r.id, ", ".join(r.cards), ", ".join(r.topics)) if x)
    t.append("\n" + meta, style="dim")
    return t


class RulingsScreen(Screen):
    """Search the rulings."""

    BINDINGS = [
        Binding("slash", "focus_search", "Search", show=False),
        Binding("ctrl+f", "focus_search", "Search"),
        Binding("ctrl+r", "clear_filters", "Clear filters"),
        Binding("ctrl+y", "did_you_mean", "Use suggestion", show=False),
        Binding("down", "focus_hits", "Results", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.generation = 0
        self.corpus = None
        self._timer: Timer | None = None
        self.last_result: Any = None
        self.suggestion: str | None = None

    def compose(self) -> ComposeResult:
        yield ModeBar()
        with Vertical(id="rulings-top"):
            yield Input(placeholder="Search the rulings: words, card names; filters card: topic: edition: kind:",
                        id="query")
            with Horizontal(id="facets"):
                yield Select([], prompt="any kind", id="f-kind", compact=True)
                yield Select([], prompt="any topic", id="f-topic", compact=True)
                yield Select([], prompt="any edition", id="f-edition", compact=True)
            yield Button("", id="did-you-mean", compact=True)
            yield Static("Loading the rulings...", id="search-status")
        yield OptionList(id="hits")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#did-you-mean").display = False
        self.query_one("#query", Input).focus()
        self._load_corpus()

    # -- loading ---------------------------------------------------------------
    @work(thread=True, group="corpus")
    def _load_corpus(self) -> None:
        try:
            from rulings.corpus import load_corpus

            corpus = load_corpus()
        except Exception as exc:  # a broken corpus is reported, not raised
            self.app.call_from_thread(self._status, Text(f"The rulings could not be loaded: {exc}", style="red"))
            return
        self.app.call_from_thread(self._corpus_ready, corpus)
        try:  # open (or build) the index now, so the first search is quick
            from rulings.search import ensure_index

            ensure_index()
        except Exception:
            pass

    def _corpus_ready(self, corpus: Any) -> None:
        self.corpus = corpus
        rulings = list(corpus)
        kinds = sorted({r.kind for r in rulings})
        topics = sorted({t for r in rulings for t in r.topics})
        editions = sorted({e for r in rulings for e in r.editions})
        self.query_one("#f-kind", Select).set_options([(k, k) for k in kinds])
        self.query_one("#f-topic", Select).set_options([(t, t) for t in topics])
        self.query_one("#f-edition", Select).set_options([(e, e) for e in editions])
        if self._query_text() or self._filters():
            self._search_now()
        else:
            self._show_browse()

    def _status(self, text: Any) -> None:
        self.query_one("#search-status", Static).update(text)

    # -- searching -------------------------------------------------------------
    def _query_text(self) -> str:
        return self.query_one("#query", Input).value

    def _filters(self) -> dict[str, str]:
        out = {}
        for facet in FACETS:
            value = self.query_one(f"#f-{facet}", Select).value
            if isinstance(value, str):          # (the facets' values are strings; nothing picked is Select.NULL)
                out[facet] = value
        return out

    @on(Input.Changed, "#query")
    @on(Select.Changed)
    def _changed(self) -> None:
        self.generation += 1          # anything still running is now stale
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._search_now)

    def _search_now(self) -> None:
        self._timer = None
        if self.corpus is None:
            return                    # the corpus arrives soon and searches then
        query, filters = self._query_text(), self._filters()
        self.generation += 1
        if not query.strip() and not filters:
            self._show_browse()
            return
        self._status(Text("Searching...", style="italic"))
        self._run_search(self.generation, query, filters)

    @work(thread=True, exclusive=True, group="search")
    def _run_search(self, generation: int, query: str, filters: dict[str, str]) -> None:
        worker = get_current_worker()
        try:
            from rulings.search import search

            result: Any = search(query, limit=50, filters=filters)
        except Exception as exc:
            result = exc
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_result, generation, result)

    def _show_result(self, generation: int, result: Any) -> None:
        if generation != self.generation:
            return                    # a newer query was typed meanwhile: drop this one
        hits = self.query_one("#hits", OptionList)
        hits.clear_options()
        if isinstance(result, Exception):
            self._status(Text(f"The search failed: {result}", style="red"))
            self._set_suggestion(None)
            return
        self.last_result = result
        # all at once: OptionList lays its lines out again after each add
        hits.add_options([Option(_hit_prompt(hit), id=hit.id) for hit in result.hits])
        if result.hits:
            hits.highlighted = 0
        status = Text(f"{len(result.hits)} ruling{'s' if len(result.hits) != 1 else ''} found")
        if result.cards_recognised:
            status.append(f"  - cards: {', '.join(result.cards_recognised)}", style="dim")
        for w in result.warnings:
            status.append(f"  - {w}", style="yellow")
        self._status(status)
        self._set_suggestion(result.suggestion)

    def _show_browse(self) -> None:
        hits = self.query_one("#hits", OptionList)
        hits.clear_options()
        self._set_suggestion(None)
        if self.corpus is None:
            return
        hits.add_options([Option(_browse_prompt(r), id=r.id) for r in self.corpus])
        if hits.option_count:
            hits.highlighted = 0
        self._status(Text(f"All {len(self.corpus)} rulings. Type to search; Enter opens one.", style="dim"))

    def _set_suggestion(self, suggestion: str | None) -> None:
        self.suggestion = suggestion
        button = self.query_one("#did-you-mean", Button)
        if suggestion:
            button.label = f"Did you mean: {suggestion}?  (Ctrl+Y)"
        button.display = bool(suggestion)

    # -- actions ---------------------------------------------------------------
    @on(Button.Pressed, "#did-you-mean")
    def action_did_you_mean(self) -> None:
        if self.suggestion:
            box = self.query_one("#query", Input)
            box.value = self.suggestion
            box.cursor_position = len(box.value)
            box.focus()

    def action_focus_search(self) -> None:
        self.query_one("#query", Input).focus()

    def action_focus_hits(self) -> None:
        if isinstance(self.focused, (Input, Button)):
            self.query_one("#hits", OptionList).focus()
        elif self.focused is not None:
            self.focus_next()

    def action_clear_filters(self) -> None:
        for facet in FACETS:
            self.query_one(f"#f-{facet}", Select).clear()

    @on(Input.Submitted, "#query")
    def _submitted(self) -> None:
        self.query_one("#hits", OptionList).focus()

    @on(OptionList.OptionSelected, "#hits")
    def _open(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:         # every hit has its ruling's id
            judge_app(self.app).open_ruling(event.option.id)


# --------------------------------------------------------------------------- one ruling

def _neighbour_items(rows: Any, card: str, rid: str) -> list[tuple[str, str | None]]:
    """(sentence, link id or None) for each edge `neighbors` found around `card`."""
    from tui.graph import relation_words

    words = relation_words()
    out: list[tuple[str, str | None]] = []
    for row in rows or []:
        if not isinstance(row, dict):
            out.append((str(row), None))
            continue
        relation, other, kind = row.get("relation", ""), row.get("name", ""), row.get("kind")
        node = str(row.get("node", ""))
        if kind == "ruling" and node == f"ruling:{rid}":
            continue                      # this very ruling
        phrase = words.get(relation, relation)
        sentence = f"{card} {phrase} {other}" if row.get("direction") == "out" else f"{other} {phrase} {card}"
        link = None
        if kind == "ruling":
            link = f"rel:{node.partition(':')[2]}"
        elif kind == "card":
            link = f"nb:{card}\t{other}"
        if row.get("ruling") and kind != "ruling":
            sentence += f"  [{row['ruling']}]"
        out.append((sentence, link))
    return out


def gather_ruling(rid: str) -> dict[str, Any]:
    """The ruling itself, its related rulings and its cards (quick)."""
    from rulings.corpus import get

    from tui.position import catalogue

    r = get(rid)
    data: dict[str, Any] = {"ruling": r, "related": [], "cards": []}
    for other in r.related:
        try:
            data["related"].append((other, get(other).title))
        except Exception:
            data["related"].append((other, "(no such ruling)"))
    cat = catalogue()
    for name in r.cards:
        try:
            card = cat.resolve(name)
            data["cards"].append((card.name, card.key, card.effect))
        except Exception:
            data["cards"].append((name, None, ""))
    return data


def gather_links(rid: str, cards: list[tuple[str, Any, str]]) -> dict[str, Any]:
    """The scenarios citing the ruling and its cards' graph neighbours (slower)."""
    from rulings.corpus import scenarios_citing

    from tui import graph

    data: dict[str, Any] = {"scenarios": [], "neighbours": None}
    try:
        data["scenarios"] = [(s.path, s.title or s.id, s.id) for s in scenarios_citing(rid)]
    except Exception:
        pass
    if not graph.has("neighbors"):
        return data                       # the graph has no neighbour query yet
    try:
        data["neighbours"] = [(name, _neighbour_items(graph.ask("neighbors", key), name, rid))
                              for name, key, _ in cards if key is not None]
    except Exception as exc:
        data["neighbours"] = [("", [(f"the interaction graph could not answer: {exc}", None)])]
    return data


def ruling_body(opened_as: str, r: Any) -> Text:
    """The ruling screen's text: the alias it was opened under, id, basis and kind,
    editions, question, answer, what it applies via, rests on and other ids, and each
    source with its page."""
    from rulings.corpus import BASIS_WORDS

    t = Text()
    if opened_as != r.id:
        t.append(f"{opened_as} is an alias: this is the record for it\n", style="italic")
    t.append(r.id, style="bold")
    t.append(f"   {BASIS_WORDS.get(r.basis, r.basis)}; {r.kind}", style="italic")
    if r.editions:
        t.append("   " + ", ".join(r.editions), style="dim")
    t.append("\n\nQ: ", style="bold")
    t.append(r.title, style="bold")
    t.append("\n\nA: ", style="bold")
    t.append(r.answer or "(no answer was printed for this question)")
    if r.applies_via:
        t.append("\n\nApplies via: ", style="bold")
        t.append(r.applies_via)
    if r.rests_on:
        t.append("\n\nRests on: ", style="dim bold")
        t.append(", ".join(r.rests_on), style="dim")
    if r.aliases:
        t.append("\n\nAlso opens as: ", style="dim bold")
        t.append(", ".join(r.aliases), style="dim")
    if r.sources:
        t.append("\n\nSources:", style="dim bold")
        for s in r.sources:
            t.append(f"\n  {s.cite()}", style="dim")
            if s.page:
                t.append(f"\n    {s.page}", style="dim underline")
    return t


class RulingScreen(Screen):
    """One ruling, with everything it links to."""

    BINDINGS = [Binding("escape", "close", "Back"), Binding("backspace", "close", "Back", show=False)]

    def __init__(self, rid: str) -> None:
        super().__init__()
        self.rid = rid
        self.data: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield ModeBar()
        with VerticalScroll(id="ruling-body"):
            yield Static(Text(f"Loading {self.rid}...", style="italic"), id="ruling-text")
        yield Static("Links (Enter opens):", id="ruling-links-title")
        yield OptionList(id="ruling-links")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#ruling-links", OptionList).focus()
        self._gather()

    @work(thread=True)
    def _gather(self) -> None:
        try:
            data: Any = gather_ruling(self.rid)
        except Exception as exc:
            self.app.call_from_thread(self._fill, exc)
            return
        self.app.call_from_thread(self._fill, data)
        links = gather_links(self.rid, data["cards"])
        self.app.call_from_thread(self._fill_links, links)

    def _fill(self, data: Any) -> None:
        body = self.query_one("#ruling-text", Static)
        if isinstance(data, Exception):
            body.update(Text(str(data), style="red"))
            return
        self.data = data
        t = ruling_body(self.rid, data["ruling"])
        body.update(t)
        self._fill_links(None)

    def _fill_links(self, links: dict[str, Any] | None) -> None:
        data = self.data
        options: list[Option] = []

        def section(title: str) -> None:
            options.append(Option(Text(title, style="bold underline"), disabled=True))

        def none(text: str) -> None:
            options.append(Option(Text(text, style="dim"), disabled=True))

        section("Scenarios that demonstrate it (Enter: open in Replay)")
        if links is None:
            none("looking through the library...")
        else:
            for path, title, sid in links["scenarios"]:
                options.append(Option(Text.assemble((title, "bold"), (f"  {sid}", "dim")), id=f"sc:{path}"))
            if not links["scenarios"]:
                none("no scenario in the library cites it yet")
        section("Cards (Enter: the card's page)")
        for name, key, effect in data["cards"]:
            label = Text(name, style="bold")
            if effect:
                label.append(f"  {effect}", style="dim")
            options.append(Option(label, id=f"card:{name}", disabled=key is None))
        if not data["cards"]:
            none("no card named")
        section("Related rulings")
        for other, title in data["related"]:
            options.append(Option(Text.assemble((other, "bold"), f"  {title}"), id=f"rel:{other}"))
        if not data["related"]:
            none("none")
        section("Graph neighbours")
        if links is None:
            none("asking the interaction graph...")
        elif links["neighbours"] is None:
            none("interaction graph neighbours are not available yet")
        elif not any(items for _, items in links["neighbours"]):
            none("no neighbours in the interaction graph")
        else:
            seen = set()
            for _, items in links["neighbours"]:
                for sentence, link in items:
                    if sentence in seen:
                        continue
                    seen.add(sentence)
                    # the same ruling or card can be reached along several edges: keep ids unique
                    options.append(Option(Text(sentence), id=f"{link}#{len(options)}" if link else None,
                                          disabled=link is None))
        ol = self.query_one("#ruling-links", OptionList)
        keep = ol.highlighted_option.id if ol.highlighted_option is not None else None
        ol.set_options(options)
        for i, opt in enumerate(ol.options):
            if (keep is not None and opt.id == keep) or (keep is None and not opt.disabled):
                ol.highlighted = i
                break

    @on(OptionList.OptionSelected, "#ruling-links")
    def _follow(self, event: OptionList.OptionSelected) -> None:
        kind, _, value = (event.option.id or "").partition("#")[0].partition(":")
        if kind == "card":
            judge_app(self.app).open_card(value)
        elif kind == "rel":
            judge_app(self.app).open_ruling(value)
        elif kind == "nb":
            a, _, b = value.partition("\t")
            judge_app(self.app).show_cards(a, b)
        elif kind == "sc":
            judge_app(self.app).open_scenario(value, "replay")

    def action_close(self) -> None:
        self.dismiss()
