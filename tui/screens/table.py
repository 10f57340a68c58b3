"""The Table screen: rebuild a position zone by zone, with the keyboard.

Players (add, rename, reorder, whose turn, knocked out), the turn's drawn and played
counts, and every zone of the scenario format at once: Rules, Meta Rules, Goals, the
draw and discard piles, each player's hand and table. Cards are added with type-ahead
over the catalogue, moved, reordered and removed with keys. A problems panel lists
every reason the position could never occur (judged by the engine, in a worker)
without refusing to show it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ItemGrid, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui import position as P
from tui.messages import PlayerEdit, SessionReplaced, SessionSaved, ZoneEdit
from tui.widgets import CardPicker, ChoiceModal, PromptModal, error_text
from tui.widgets.zones import PlayerList, ZoneList, resolve
from tui.widgets.mode_bar import ModeBar

if TYPE_CHECKING:
    from adjudicator.position import PositionProblem


class TableScreen(Screen):
    """Rebuild the table position."""

    BINDINGS = [
        Binding("ctrl+o", "app.open", "Open", show=False),
        Binding("ctrl+n", "app.new", "New", show=False),
        Binding("ctrl+w", "question", "Question"),
        Binding("ctrl+g", "goto", "Go to zone"),
        Binding("ctrl+k", "declare", "New card"),
    ]
    DIALOG_ACTIONS = frozenset({"question", "goto", "declare"})      # keys typed after them wait (tui.typeahead)

    def __init__(self) -> None:
        super().__init__()
        self.session = None
        self.seen_version = -1
        self.ready = False
        self._quiet = False
        self.problems: list[PositionProblem] = []

    @property
    def table(self) -> dict[str, Any]:
        return self.session.table

    def compose(self) -> ComposeResult:
        yield ModeBar()
        with Horizontal(id="table-main"):
            with Vertical(id="sidebar"):
                yield Static("", id="file-label")
                with Horizontal(classes="field-row"):
                    yield Label("Title", classes="field-label")
                    yield Input(placeholder="what the dispute is called", id="title", compact=True)
                yield Static("", id="question-label")
                yield Label("Players", classes="section")
                yield PlayerList(id="players")
                with Horizontal(id="counts"):
                    yield Label("drawn", classes="count-label")
                    yield Input(placeholder="auto", type="integer", id="drawn", compact=True)
                    yield Label("played", classes="count-label")
                    yield Input(placeholder="0", type="integer", id="played", compact=True)
                yield Label("Problems", classes="section", id="problems-title")
                yield OptionList(id="problems")
                yield Static("", id="card-info")
            with VerticalScroll(id="zones-scroll"):
                yield Static("", id="table-error")
                yield ItemGrid(id="zones", min_column_width=22)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#table-error").display = False
        self.query_one("#file-label", Static).update(Text("Loading the card catalogue...", style="italic"))
        self._warm()

    @work(thread=True, group="warm")
    def _warm(self) -> None:
        try:
            P.card_index()
            from adjudicator.interactions import graph_for

            graph_for(P.catalogue())
        except Exception as exc:
            self.app.call_from_thread(self.notify, f"The card catalogue could not be loaded: {exc}", severity="error",
                                      markup=False)
        self.app.call_from_thread(self._ready)

    def _ready(self) -> None:
        self.ready = True
        self.sync_session()
        # the keyboard starts on the seats, never in a text field where stray keys would land
        self.query_one("#players", PlayerList).focus()

    def on_screen_resume(self) -> None:
        self.sync_session()

    # -- showing the session ----------------------------------------------------------
    @on(SessionReplaced)
    def sync_session(self) -> None:
        if not self.ready:
            return                          # _ready() syncs once the catalogue is loaded
        if self.session is not self.app.session or self.seen_version != self.app.session.version:
            fresh = self.session is not self.app.session
            self.session = self.app.session
            self.refresh_all()
            if fresh:
                # another scenario (New, Open): its zones replace the old ones, and a zone that
                # had the keyboard is gone with them; the keyboard goes back to the seats
                self.query_one("#players", PlayerList).focus()

    @on(SessionSaved)
    def _saved(self) -> None:
        if self.ready and self.session is self.app.session:
            self._show_file_label()

    def _show_question(self) -> None:
        from adjudicator.questions import ask_words, plain_question

        q, ask = plain_question(self.session.doc.get("question"))
        t = Text("Question ", style="bold")
        t.append("(Ctrl+W) ", style="dim")
        if q.strip():
            t.append(" ".join(q.split()))
            if ask_words(ask):
                t.append(f"  asks: {ask_words(ask)}", style="dim")
        else:
            t.append("none yet: what do the players disagree about?", style="dim italic")
        self.query_one("#question-label", Static).update(t)

    def action_goto(self) -> None:
        """Jump to any zone (or the players, the title, the counts) by typing part of its name."""
        if self.session is None:
            return
        choices = [("players", "Players", ""), ("title", "Title", "")]
        choices += [(z, P.zone_title(z), "") for z in P.zones(self.table)]
        choices += [("drawn", "drawn this turn", ""), ("played", "played this turn", "")]

        def chosen(target: str | None) -> None:
            if target in ("players", "title", "drawn", "played"):
                self.query_one(f"#{target}").focus()
                return
            zl = next((z for z in self._zone_lists() if z.zone == target), None)
            if zl is not None:
                zl.focus()
                zl.scroll_visible()

        self.app.push_screen(ChoiceModal("Go to...", choices, "Type part of a name (ben hand). Enter: go - Esc: "
                                         "cancel", filtered=True), chosen)

    def action_declare(self) -> None:
        """Add a card the catalogue lacks (format 1.1, item 8): name it, say what kind of
        card it is and what it works like; it is then offered like any catalogue card."""
        if self.session is None:
            return
        kinds = [("keeper", "Keeper", ""), ("creeper", "Creeper", ""), ("goal", "Goal", ""),
                 ("action", "Action", ""), ("rule", "New Rule", ""), ("surprise", "Surprise", ""),
                 ("meta_rule", "Meta Rule", ""), ("ungoal", "Ungoal", "")]

        def declare(card: dict) -> None:
            P.declare(self.session.doc, card)
            self.changed()
            how = f"works like {card['like']}" if "like" in card else (
                f"needs {', '.join(card['needs'])}" if "needs" in card else f"a plain {card['type']}")
            self.notify(f"{card['name']} ({how}) is declared in this scenario: add it to any zone as usual.",
                        title="New card", markup=False)

        def named(name: str | None) -> None:
            name = " ".join((name or "").split())
            if not name:
                return
            known = P.catalogue().find(name)
            if known is not None:
                self.notify(f"{name!r} is already a card ({known.name}): use it as it is, or choose another name.",
                            severity="warning", markup=False)
                return
            self.app.push_screen(ChoiceModal(f"What kind of card is {name}?", kinds), lambda t: typed(name, t))

        def typed(name: str, ctype: str | None) -> None:
            if not ctype:
                return
            ways = [("like", "Works like a card of the catalogue...", "")]
            if ctype in ("keeper", "creeper"):
                ways.insert(0, ("plain", f"A plain {ctype.title()}", ""))
            elif ctype == "goal":
                ways.insert(0, ("needs", "Needs some Keepers (a Goal of Keepers)...", ""))
            if len(ways) == 1:
                return how(name, ctype, "like")
            self.app.push_screen(ChoiceModal(f"{name} is...", ways), lambda w: how(name, ctype, w))

        def how(name: str, ctype: str, way: str | None) -> None:
            card = {"name": name, "type": ctype}
            if way == "plain":
                declare(card)
            elif way == "like":
                self.app.push_screen(CardPicker(f"{name} works exactly like...", P.table_deck(self.table)),
                                     lambda e: liked(card, e))
            elif way == "needs":
                self.app.push_screen(PromptModal(f"The Keepers {name} needs", "", "Keeper, Keeper, ...",
                                                 "Names separated by commas. Enter: accept - Esc: cancel"),
                                     lambda text: needed(card, text))

        def liked(card: dict, entry: str | None) -> None:
            like = resolve(P.split_copies(entry or "")[0]) if entry else None
            if like is None:
                return
            if like.type != card["type"]:
                self.notify(f"{like.name} is a {like.type.replace('_', ' ')}, not a {card['type'].replace('_', ' ')}: "
                            "a card works like a card of its own kind.", severity="warning", markup=False)
                return
            declare({**card, "like": like.name})

        def needed(card: dict, text: str | None) -> None:
            names = [n.strip() for n in (text or "").split(",") if n.strip()]
            cards = [resolve(n) for n in names]
            bad = [n for n, c in zip(names, cards) if c is None or c.type != "keeper"]
            if not names or bad:
                self.notify(f"Not a Keeper: {', '.join(bad)}" if bad else "Name at least one Keeper.",
                            severity="warning", markup=False)
                return
            declare({**card, "needs": [c.name for c in cards]})

        self.app.push_screen(PromptModal("A card the catalogue lacks: its name", "", "the name printed on it",
                                         "Enter: next - Esc: cancel"), named)

    def action_question(self) -> None:
        if self.session is not None:
            self.app.ask_question(self._question_written)

    def _question_written(self) -> None:
        self.changed()
        self._show_question()

    def _show_file_label(self) -> None:
        s = self.session
        t = Text()
        t.append(s.label, style="bold")
        if s.path is None:
            t.append("  Ctrl+S saves", style="dim")
        self.query_one("#file-label", Static).update(t)

    def refresh_all(self) -> None:
        s = self.session
        P.use_declared(s.doc.get("cards"))
        self.seen_version = s.version
        self._show_file_label()
        self._show_question()
        err = self.query_one("#table-error", Static)
        if s.error is not None:
            err.update(error_text(s.error, s.error_text))
            err.display = True
        else:
            err.display = False
        self._quiet = True
        try:
            self.query_one("#title", Input).value = str(s.doc.get("title") or "")
            drawn, played = self.table.get("drawn"), self.table.get("played")
            self.query_one("#drawn", Input).value = "" if drawn is None else str(drawn)
            self.query_one("#played", Input).value = "" if played is None else str(played)
        finally:
            self.call_after_refresh(self._unquiet)
        self._show_players()
        self._rebuild_zones()
        self._check()

    def _unquiet(self) -> None:
        self._quiet = False

    def _show_players(self, keep: str | None = None) -> None:
        table = self.table
        seats = P.players(table)
        out = [p.lower() for p in table.get("eliminated") or [] if isinstance(p, str)]
        turn = table.get("turn") if isinstance(table.get("turn"), str) else (seats[0] if seats else None)
        ol = self.query_one("#players", PlayerList)
        ol.seats = list(seats)
        before = ol.highlighted
        options = []
        for p in seats:
            t = Text()
            active = turn is not None and p.lower() == turn.lower()
            t.append("> " if active else "  ", style="bold yellow")
            t.append(p, style="bold" if active else "")
            if active:
                t.append("  (turn)", style="yellow")
            if p.lower() in out:
                t.append("  (out)", style="red")
            options.append(Option(t, id=f"p{len(options)}"))
        if not options:
            options.append(Option(Text("no players yet - n: add one", style="dim"), disabled=True))
        ol.set_options(options)
        if seats:
            idx = seats.index(keep) if keep in seats else (before or 0)
            ol.highlighted = min(idx, len(seats) - 1)

    def _zone_lists(self) -> list[ZoneList]:
        return list(self.query(ZoneList))

    def _rebuild_zones(self) -> None:
        wanted = P.zones(self.table)
        grid = self.query_one("#zones", ItemGrid)
        if [z.zone for z in self._zone_lists()] != wanted:
            grid.remove_children()
            grid.mount_all([ZoneList(z) for z in wanted])
            self.call_after_refresh(self._fill_zones)
        else:
            self._fill_zones()

    def _flagged(self, zone: str) -> set[int]:
        return {p.index for p in self.problems if p.zone == zone and p.index is not None}

    def _fill_zones(self, only: str | None = None, keep: int | None = None) -> None:
        for zl in self._zone_lists():
            if only is None or zl.zone == only:
                zl.show(P.get_zone(self.table, zl.zone), self._flagged(zl.zone), keep if zl.zone == only else None)

    # -- problems ------------------------------------------------------------------
    def _check(self) -> None:
        P.use_declared(self.session.doc.get("cards"))
        self._check_worker(self.session.version, copy.deepcopy(self.session.doc))

    @work(thread=True, exclusive=True, group="problems")
    def _check_worker(self, version: int, doc: dict[str, Any]) -> None:
        from adjudicator.errors import InputError
        from adjudicator.position import PositionProblem

        table = doc.get("table") if isinstance(doc.get("table"), dict) else {}
        try:
            problems = P.check_table(table)
        except Exception as exc:
            problems = [PositionProblem(f"the position could not be checked: {exc}")]
        if not problems and P.players(table):
            try:  # the rest of the file (events, expectations) as the engine reads it
                from adjudicator import strictyaml
                from adjudicator.scenario import parse_scenario

                from tui.scenario_io import dump

                text = dump(doc)
                parse_scenario(strictyaml.parse(text, "scenario"), "scenario")
            except InputError as exc:
                problems = [PositionProblem(f"{exc.message} ({P.doc_place(text, exc.line)})")]
            except Exception as exc:
                problems = [PositionProblem(f"the engine could not read the scenario: {exc}")]
        self.app.call_from_thread(self._show_problems, version, problems)

    def _show_problems(self, version: int, problems: list[PositionProblem]) -> None:
        if self.session is None or version != self.session.version:
            return
        self.problems = problems
        ol = self.query_one("#problems", OptionList)
        title = self.query_one("#problems-title", Label)
        if problems:
            title.update(Text(f"Problems ({len(problems)}): could not occur", style="bold red"))
            ol.set_options([Option(Text.assemble((f"{P.where(p)}: " if P.where(p) else "", "bold"), p.message),
                                   id=f"x{i}") for i, p in enumerate(problems)])
        else:
            title.update(Text("Problems: none", style="bold green"))
            ol.set_options([Option(Text("The position could occur.", style="dim"), disabled=True)])
        self._fill_zones()

    @on(OptionList.OptionSelected, "#problems")
    def _goto_problem(self, event: OptionList.OptionSelected) -> None:
        problem = self.problems[int((event.option.id or "x0")[1:])]
        if problem.zone == "players":
            self.query_one("#players").focus()
            return
        for zl in self._zone_lists():
            if zl.zone == problem.zone:
                zl.focus()
                if problem.index is not None and zl.entries:
                    zl.highlighted = min(problem.index, len(zl.entries) - 1)
                zl.scroll_visible()
                return
        if problem.zone in ("drawn", "played"):
            self.query_one(f"#{problem.zone}").focus()

    @on(OptionList.OptionHighlighted, ".zone")
    def _card_info(self, event: OptionList.OptionHighlighted) -> None:
        zl = event.option_list
        if not isinstance(zl, ZoneList) or zl.current is None:
            return
        name, _ = P.split_copies(str(zl.entries[zl.current]))
        card = resolve(name)
        info = self.query_one("#card-info", Static)
        if card is None:
            info.update(Text(f"{name}: not a card the catalogue knows", style="red"))
        else:
            info.update(Text.assemble((card.name, "bold"), f" ({card.type.replace('_', ' ')}): ", card.effect))

    # -- editing -------------------------------------------------------------------
    def changed(self, zone: str | None = None, keep: int | None = None, players: bool = False) -> None:
        self.session.touch()
        self.seen_version = self.session.version
        self._show_file_label()
        if players:
            self._show_players(keep=keep if isinstance(keep, str) else None)
            self._rebuild_zones()
        elif zone is not None:
            self._fill_zones(zone, keep)
        self._check()

    @on(Input.Changed, "#title")
    def _title(self, event: Input.Changed) -> None:
        if self._quiet or self.session is None:
            return
        if event.value.strip():
            self.session.doc["title"] = event.value
        else:
            self.session.doc.pop("title", None)
        self.changed()

    @on(Input.Changed, "#drawn")
    @on(Input.Changed, "#played")
    def _counts(self, event: Input.Changed) -> None:
        if self._quiet or self.session is None:
            return
        key = event.input.id
        text = event.value.strip()
        try:
            value = int(text) if text else None
        except ValueError:
            return
        if value is None:
            self.table.pop(key, None)
        else:
            self.table[key] = value
        self.changed()

    # cards
    @on(ZoneEdit)
    def _zone_edit(self, event: ZoneEdit) -> None:
        event.stop()
        if self.session is None:
            return
        if event.action == "add":
            self.add_card(event.zone)
        elif event.index is None:
            return
        elif event.action == "remove":
            self.remove_card(event.zone, event.index)
        elif event.action == "move":
            self.move_card(event.zone, event.index)
        elif event.action == "shift":
            self.shift_card(event.zone, event.index, event.delta)
        elif event.action == "copies":
            self.change_copies(event.zone, event.index, event.delta)

    def add_card(self, zone: str) -> None:
        def chosen(entry: str | None) -> None:
            if not entry:
                return
            items = P.get_zone(self.table, zone)
            zl = next((z for z in self._zone_lists() if z.zone == zone), None)
            at = (zl.current + 1) if zl is not None and zl.current is not None else len(items)
            items.insert(at, entry)
            P.set_zone(self.table, zone, items)
            self.changed(zone, keep=at)

        self.app.push_screen(CardPicker(f"Add a card to {P.zone_title(zone)}", P.table_deck(self.table)), chosen)

    def remove_card(self, zone: str, index: int) -> None:
        items = P.get_zone(self.table, zone)
        if 0 <= index < len(items):
            items.pop(index)
            P.set_zone(self.table, zone, items)
            self.changed(zone, keep=min(index, len(items) - 1))

    def move_card(self, zone: str, index: int) -> None:
        items = P.get_zone(self.table, zone)
        if not 0 <= index < len(items):
            return
        entry = items[index]
        choices = [(z, P.zone_title(z), "") for z in P.zones(self.table) if z != zone]

        def chosen(target: str | None) -> None:
            if not target:
                return
            src = P.get_zone(self.table, zone)
            if index >= len(src) or src[index] != entry:
                return
            src.pop(index)
            P.set_zone(self.table, zone, src)
            dest = P.get_zone(self.table, target)
            if target in P.PILES:
                dest.insert(0, entry)      # onto the top of a pile
            else:
                dest.append(entry)
            P.set_zone(self.table, target, dest)
            self.changed(zone, keep=min(index, len(src) - 1))
            self._fill_zones(target)
            self.notify(f"{entry} moved to {P.zone_title(target)}.", markup=False)

        self.app.push_screen(ChoiceModal(f"Move {entry} to...", choices), chosen)

    def shift_card(self, zone: str, index: int, delta: int) -> None:
        items = P.get_zone(self.table, zone)
        j = index + delta
        if 0 <= index < len(items) and 0 <= j < len(items):
            items[index], items[j] = items[j], items[index]
            P.set_zone(self.table, zone, items)
            self.changed(zone, keep=j)

    def change_copies(self, zone: str, index: int, delta: int) -> None:
        items = P.get_zone(self.table, zone)
        if not 0 <= index < len(items) or not isinstance(items[index], str):
            return
        name, count = P.split_copies(items[index])
        count += delta
        if count < 1:
            return
        items[index] = P.with_copies(name, count)
        P.set_zone(self.table, zone, items)
        self.changed(zone, keep=index)

    # players
    @on(PlayerEdit)
    def _player_edit(self, event: PlayerEdit) -> None:
        event.stop()
        if self.session is None:
            return
        if event.action == "add":
            self.add_player()
            return
        seats = P.players(self.table)
        if event.player not in seats:
            return
        {"rename": self.rename_player, "turn": self.set_turn, "eliminate": self.toggle_eliminated,
         "remove": self.remove_player}.get(event.action, lambda p: self.shift_player(p, event.delta))(event.player)

    def _ask_name(self, title: str, value: str, then) -> None:
        def chosen(name: str | None) -> None:
            if name is None:
                return
            name = name.strip()
            seats = P.players(self.table)
            if not name:
                self.notify("A player needs a name.", severity="warning", markup=False)
            elif "." in name:
                self.notify("A player name may not contain '.'.", severity="warning", markup=False)
            elif any(p.lower() == name.lower() for p in seats if p.lower() != value.lower()):
                self.notify(f"{name} is already seated.", severity="warning", markup=False)
            else:
                then(name)

        self.app.push_screen(PromptModal(title, value, "a name", "Enter: accept - Esc: cancel"), chosen)

    def add_player(self) -> None:
        seats = P.players(self.table)
        if len(seats) >= P.MAX_PLAYERS:
            self.app.release_keys()
            self.notify(f"A table seats at most {P.MAX_PLAYERS} players.", severity="warning", markup=False)
            return
        suggestion = next((n for n in ("Ann", "Ben", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")
                           if n.lower() not in {p.lower() for p in seats}), "")

        def add(name: str) -> None:
            self.table["players"] = P.players(self.table) + [name]
            self.changed(players=True, keep=name)

        self._ask_name("Name of the new player (seated last)", suggestion, add)

    def rename_player(self, old: str) -> None:
        def rename(new: str) -> None:
            if new != old:
                P.rename_player(self.session.doc, old, new)
                self.changed(players=True, keep=new)

        self._ask_name(f"Rename {old}", old, rename)

    def set_turn(self, player: str) -> None:
        self.table["turn"] = player
        self.changed(players=True, keep=player)

    def toggle_eliminated(self, player: str) -> None:
        out = [p for p in self.table.get("eliminated") or []]
        if any(isinstance(p, str) and p.lower() == player.lower() for p in out):
            out = [p for p in out if not (isinstance(p, str) and p.lower() == player.lower())]
        else:
            out.append(player)
        if out:
            self.table["eliminated"] = out
        else:
            self.table.pop("eliminated", None)
        self.changed(players=True, keep=player)

    def remove_player(self, player: str) -> None:
        table = self.table
        lost = len(P.get_zone(table, f"hands.{player}")) + len(P.get_zone(table, f"keepers.{player}"))
        table["players"] = [p for p in P.players(table) if p != player]
        P.set_zone(table, f"hands.{player}", [])
        P.set_zone(table, f"keepers.{player}", [])
        if isinstance(table.get("turn"), str) and table["turn"].lower() == player.lower():
            table.pop("turn")
        if table.get("eliminated"):
            table["eliminated"] = [p for p in table["eliminated"] if p != player]
            if not table["eliminated"]:
                table.pop("eliminated")
        self.changed(players=True)
        if lost:
            self.notify(f"{player} left the table with {lost} card entr{'y' if lost == 1 else 'ies'}.", markup=False)

    def shift_player(self, player: str, delta: int) -> None:
        seats = P.players(self.table)
        i = seats.index(player)
        j = i + delta
        if 0 <= j < len(seats):
            seats[i], seats[j] = seats[j], seats[i]
            self.table["players"] = seats
            self.changed(players=True, keep=player)
