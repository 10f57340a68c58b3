"""The fluxx-judge app: four screens (Textual modes), one scenario session, a palette.

Table rebuilds a position, Replay steps through a dispute and branches "what if"s,
Rulings searches and reads the rulings, Cards (interactions) shows how two cards meet.
Every screen is imported only when first shown, and every engine, corpus or index job
runs in a worker thread, so the app opens fast and never freezes.
`run_app(file)` is what `fluxx-judge` (and `fluxx-judge open FILE`) calls.
"""

from __future__ import annotations

import os

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui.session import Session


def _table_screen() -> Screen:
    from tui.screens.table import TableScreen

    return TableScreen()


def _replay_screen() -> Screen:
    from tui.screens.replay import ReplayScreen

    return ReplayScreen()


def _rulings_screen() -> Screen:
    from tui.screens.rulings import RulingsScreen

    return RulingsScreen()


def _interactions_screen() -> Screen:
    from tui.screens.interactions import InteractionsScreen

    return InteractionsScreen()


def _card_commands():
    from tui.commands import CardCommands

    return CardCommands


def _ruling_commands():
    from tui.commands import RulingCommands

    return RulingCommands


def _card_page_commands():
    from tui.screens.card import CardPageCommands

    return CardPageCommands


def _scenario_commands():
    from tui.commands import ScenarioCommands

    return ScenarioCommands


def library_scenarios() -> list[tuple[str, str]]:
    """(path, "title  (id)") for every scenario of the built-in library ([] if unreadable)."""
    try:
        from rulings.corpus import scenario_refs

        return [(r.path, f"{r.title or r.id}  ({r.id})") for r in scenario_refs()]
    except Exception:
        return []


def in_library(path: str | None) -> bool:
    if not path:
        return False
    try:
        from scenarios import library_path

        return os.path.abspath(path).startswith(os.path.abspath(str(library_path())) + os.sep)
    except Exception:
        return False


class FluxxJudgeApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "fluxx-judge"
    SUB_TITLE = "a rules referee for Fluxx"
    MODES = {
        "table": _table_screen,
        "replay": _replay_screen,
        "rulings": _rulings_screen,
        "interactions": _interactions_screen,
    }
    COMMANDS = App.COMMANDS | {_card_commands, _ruling_commands, _scenario_commands, _card_page_commands}
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "mode('table')", "Table"),
        Binding("f3", "mode('replay')", "Replay"),
        Binding("f4", "mode('rulings')", "Rulings"),
        Binding("f5", "mode('interactions')", "Cards"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+o", "open", "Open", show=False),
        Binding("ctrl+s", "save", "Save", show=False),
        Binding("ctrl+n", "new", "New", show=False),
    ]

    def __init__(self, open_file: str | None = None, start_mode: str | None = None) -> None:
        super().__init__()
        self.open_file = open_file
        self.start_mode = start_mode
        self.session = Session()

    def on_mount(self) -> None:
        if self.open_file:
            self.session = Session.open(self.open_file)
            self.switch_mode(self.start_mode or "replay")
        else:
            self.switch_mode(self.start_mode or "rulings")

    # -- navigation ------------------------------------------------------------
    def action_mode(self, mode: str) -> None:
        self.switch_mode(mode)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.current_mode))

    def show_mode(self, mode: str) -> Screen:
        """Switch to `mode` with its own main screen on top (closing rulings opened over it)."""
        self.switch_mode(mode)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        return self.screen

    def open_ruling(self, rid: str) -> None:
        from tui.screens.rulings import RulingScreen

        self.push_screen(RulingScreen(rid))

    def open_card(self, name: str) -> None:
        from tui.screens.card import CardScreen

        self.push_screen(CardScreen(name))

    def show_cards(self, a: str | None, b: str | None = None) -> None:
        screen = self.show_mode("interactions")
        if hasattr(screen, "set_pair"):
            screen.set_pair(a, b)

    def get_system_commands(self, screen: Screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Table", "Build or fix a table position (F2)", lambda: self.action_mode("table"))
        yield SystemCommand("Replay", "Step through the dispute and its verdict (F3)",
                            lambda: self.action_mode("replay"))
        yield SystemCommand("Rulings", "Search the official rulings (F4)", lambda: self.action_mode("rulings"))
        yield SystemCommand("Cards", "How two cards interact (F5)", lambda: self.action_mode("interactions"))
        yield SystemCommand("Open scenario", "Open a scenario file (Ctrl+O)", self.action_open)
        yield SystemCommand("Save scenario", "Save the scenario (Ctrl+S)", self.action_save)
        yield SystemCommand("Save scenario as", "Save the scenario under a new name", self.action_save_as)
        yield SystemCommand("New scenario", "Start an empty table (Ctrl+N)", self.action_new)
        yield SystemCommand("Help", "Keys and screens (F1)", self.action_help)

    # -- the session -------------------------------------------------------------
    def _session_replaced(self) -> None:
        sync = getattr(self.screen, "sync_session", None)
        if sync:
            sync()

    def _unless_unsaved(self, then, doing: str) -> None:
        """Run `then()` now, or after the user agrees to drop unsaved changes."""
        if not self.session.changed:
            then()
            return
        from tui.widgets import ConfirmModal

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmModal(f"{self.session.label} has unsaved changes. {doing} anyway?"), answered)

    def open_scenario(self, path: str, mode: str = "replay") -> None:
        def go() -> None:
            self.session = Session.open(path)
            if self.session.error:
                self.notify(str(self.session.error), title="Cannot open", severity="error", timeout=8, markup=False)
            self.show_mode(mode)
            self._session_replaced()

        self._unless_unsaved(go, "Open another scenario")

    def action_open(self) -> None:
        self._list_library()

    @work(thread=True, exclusive=True, group="library")
    def _list_library(self) -> None:
        library = library_scenarios()
        self.call_from_thread(self._ask_open, library)

    def _ask_open(self, library: list[tuple[str, str]]) -> None:
        from tui.widgets import OpenModal

        def chosen(path: str | None) -> None:
            if path:
                mode = self.current_mode if self.current_mode in ("table", "replay") else "replay"
                self.open_scenario(path, mode)

        self.push_screen(OpenModal(library), chosen)

    def action_new(self) -> None:
        def go() -> None:
            self.session = Session()
            self.show_mode("table")
            self._session_replaced()

        self._unless_unsaved(go, "Start a new scenario")

    def action_save(self) -> None:
        if self.session.path is None or in_library(self.session.path):
            self.action_save_as()
            return
        self._save(None)

    def action_save_as(self) -> None:
        from tui.widgets import PathSuggester, PromptModal

        default = self.session.path or os.path.join(os.getcwd(), f"{self.session.doc.get('id') or 'scenario'}.yaml")
        if in_library(default):
            default = os.path.join(os.getcwd(), os.path.basename(default))

        def chosen(path: str | None) -> None:
            if path and path.strip():
                self._save(path.strip())

        self.push_screen(PromptModal("Save the scenario as", default, "file.yaml",
                                     "The file is written whole or not at all. Enter: save - Esc: cancel",
                                     suggester=PathSuggester()), chosen)

    def _save(self, path: str | None) -> None:
        try:
            wrote = self.session.save(path)
        except (OSError, ValueError) as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=8, markup=False)
            return
        name = os.path.basename(self.session.path or "")
        self.notify(f"Saved {name}." if wrote else f"{name} is already up to date (the file was not rewritten).",
                    markup=False)
        refresh = getattr(self.screen, "session_saved", None)
        if refresh:
            refresh()

    async def action_quit(self) -> None:
        if not self.session.changed:
            self.exit(0)
            return
        from tui.widgets import ConfirmModal

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit(0)

        self.push_screen(ConfirmModal(f"{self.session.label} has unsaved changes. Quit anyway?"), answered)


def run_app(file: str | None = None) -> int:
    """Run the app; with `file`, open that scenario in Replay."""
    app = FluxxJudgeApp(open_file=file)
    app.run()
    return app.return_code or 0
