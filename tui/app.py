"""The fluxx-judge app: four screens (Textual modes), one scenario session, a palette.

Table rebuilds a position, Replay answers the question and steps through the dispute
and its what-if lines, Rulings searches and reads the rulings, Cards shows how two
cards meet. The parts, as Posting and Harlequin lay theirs out:

- `tui/screens/`: one module per screen; `tui/widgets/`: dialogs, the card picker,
  the Table's zone and player lists, the top bar, suggesters, rendering helpers;
- `tui/messages.py`: the Message classes the parts send each other (a widget's key
  becomes a `ZoneEdit`, a new session a `SessionReplaced` posted to the screen showing)
  and that the screens handle with `@on`;
- plain logic without Textual: `session.py` (the document, saving that never
  clobbers), `variations.py` (what-if lines kept in the scenario), `lines.py`
  (replaying a line, the event menu), `position.py` (zones, card look-up, problems
  judged by the engine), `scenario_io.py` (the canonical emitter);
- `app.tcss`: the one stylesheet.

Every screen is imported only when first shown, and every engine, corpus or index job
runs in a worker thread, so the app opens fast and never freezes.
`run_app(file)` is what `fluxx-judge` (and `fluxx-judge open FILE`) calls.
"""

from __future__ import annotations

import os
from pathlib import Path

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui.messages import SessionReplaced, SessionSaved, ShowCards
from tui.session import Session, in_library


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
    # every screen's width class: below 60 columns (a phone held upright) one column, the
    # screens and Open and Save in the top bar's menu (tui.widgets.mode_bar); 80x24 is -narrow
    HORIZONTAL_BREAKPOINTS = [(0, "-phone"), (60, "-narrow"), (110, "-wide")]
    BINDINGS = [
        # the screen keys are shown by the ModeBar at the top of every screen
        Binding("f1", "help", "Help", show=False),
        Binding("f2", "mode('table')", "Table", show=False),
        Binding("f3", "mode('replay')", "Replay", show=False),
        Binding("f4", "mode('rulings')", "Rulings", show=False),
        Binding("f5", "mode('interactions')", "Cards", show=False),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("f6", "save_as", "Save as"),
        Binding("ctrl+o", "open", "Open", show=False),
        Binding("ctrl+n", "new", "New", show=False),
        Binding("f10", "menu", "Menu", show=False),
    ]
    # the app's actions that always open a dialog: keys typed right after them wait for it (tui.typeahead)
    DIALOG_ACTIONS = frozenset({"open", "save_as", "help", "command_palette", "menu"})

    def __init__(self, open_file: str | None = None, start_mode: str | None = None,
                 served_rescues: Path | None = None) -> None:
        super().__init__()
        self.open_file = open_file
        self.start_mode = start_mode
        self.session = Session()
        # an app served to a browser: the rescue folder of that browser (tui.rescue.served_folder)
        self.served_rescues = served_rescues
        self.quit_by_user = False
        from tui.typeahead import TypeAhead

        self.typeahead = TypeAhead(self, super().on_event)

    async def on_event(self, event: events.Event) -> None:
        # a key typed (not one bubbling back from a widget) may be held for a dialog on its way
        if isinstance(event, events.Key) and not event.is_forwarded and await self.typeahead.key(event):
            return
        await super().on_event(event)

    def release_keys(self) -> None:
        """The dialog an action was to open will not come: the keys typed after it go
        where the focus is (`tui.typeahead`)."""
        if self.typeahead.holding:
            self.call_later(self.typeahead.release)

    def get_line_filters(self):
        """Textual's filters and ours: control characters in drawn text are escaped (tui.escapes)."""
        from tui.escapes import ESCAPE_FILTER

        return [*super().get_line_filters(), ESCAPE_FILTER]

    def on_mount(self) -> None:
        if self.open_file:
            self.session = Session.open(self.open_file)
            self.switch_mode(self.start_mode or "replay")
        else:
            self.switch_mode(self.start_mode or "rulings")
        self._tell_rescued()

    def _tell_rescued(self) -> None:
        """Say which unsaved scenarios were kept when a terminal went (`tui.rescue`)."""
        from tui.rescue import announce

        kept = announce(self.served_rescues)
        if kept:
            names = "\n".join(f"  {p}" for p in kept[-5:])
            more = f"\n  (and {len(kept) - 5} more in the same folder)" if len(kept) > 5 else ""
            when = ("an app of this browser closed (its tab, or the server, stopped)" if self.served_rescues
                    else "the terminal closed")
            self.notify(f"Kept when {when} before they were saved:\n{names}{more}\n"
                        "Ctrl+O and the path opens one.", title="Unsaved work kept", timeout=20, markup=False)

    # -- navigation ------------------------------------------------------------
    def action_mode(self, mode: str) -> None:
        self.switch_mode(mode)

    MENU = (("mode('table')", "Table - the position"), ("mode('replay')", "Replay - the answer"),
            ("mode('rulings')", "Rulings - search them"), ("mode('interactions')", "Cards - how two meet"),
            ("open", "Open..."), ("save", "Save"), ("save_as", "Save as..."), ("new", "New scenario"),
            ("question", "The question..."), ("share", "Share as one line"), ("help", "Help"),
            ("command_palette", "Commands..."))

    def action_menu(self) -> None:
        """Every screen and the file commands in one list, reached by a tap (the top bar's
        Menu on a phone, which has no F keys and no Ctrl) or F10."""
        from tui.widgets import ChoiceModal

        def chosen(action: str | None) -> None:
            if action == "question":
                own = getattr(self.screen, "action_question", None)      # Table and Replay refresh after it
                own() if own is not None else self.ask_question()
            elif action == "goto":
                self.screen.action_goto()
            elif action:
                self.call_later(self.run_action, action)

        entries = [(a, words, "") for a, words in self.MENU]
        if hasattr(self.screen, "action_goto"):          # the Table screen's zones, by name
            entries.insert(4, ("goto", "Go to a zone...", ""))
        self.push_screen(ChoiceModal("Go to", entries, "Tap or Enter: go - Esc: back"), chosen)

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
        self.show_mode("interactions").post_message(ShowCards(a, b))

    def get_system_commands(self, screen: Screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Table", "Build or fix a table position (F2)", lambda: self.action_mode("table"))
        yield SystemCommand("Replay", "Step through the dispute and its verdict (F3)",
                            lambda: self.action_mode("replay"))
        yield SystemCommand("Rulings", "Search the official rulings (F4)", lambda: self.action_mode("rulings"))
        yield SystemCommand("Cards", "How two cards interact (F5)", lambda: self.action_mode("interactions"))
        yield SystemCommand("Open scenario", "Open a scenario file (Ctrl+O)", self.action_open)
        yield SystemCommand("Save scenario", "Save the scenario (Ctrl+S)", self.action_save)
        yield SystemCommand("Save scenario as", "Save the scenario under a new name (F6)", self.action_save_as)
        yield SystemCommand("Question", "Write the question in dispute", self.ask_question)
        yield SystemCommand("Share scenario", "Copy the scenario as one line (fj1.…) to paste anywhere; "
                            "`fluxx-judge open LINE` opens it (S on Replay)", self.action_share)
        yield SystemCommand("New scenario", "Start an empty table (Ctrl+N)", self.action_new)
        yield SystemCommand("Help", "Keys and screens (F1)", self.action_help)

    # -- the session -------------------------------------------------------------
    def _session_replaced(self) -> None:
        self.screen.post_message(SessionReplaced())

    def _unless_unsaved(self, then, doing: str) -> None:
        """Run `then()` now, or once the user has saved or dropped the unsaved changes."""
        if not self.session.changed:
            then()
            return
        from tui.widgets import UnsavedModal

        def answered(choice: str | None) -> None:
            if choice == "save":
                self.action_save(after=then)
            elif choice == "discard":
                then()

        self.push_screen(UnsavedModal(self.session.unsaved_summary(), doing), answered)

    def open_scenario(self, path: str, mode: str = "replay") -> None:
        def go() -> None:
            self.session = Session.open(path)
            if self.session.error:
                self.notify(str(self.session.error), title="Cannot open", severity="error", timeout=8, markup=False)
            elif self.session.path and not in_library(self.session.path):
                self._remember(self.session.path)
            self.show_mode(mode)
            self._session_replaced()

        self._unless_unsaved(go, "Open another scenario")

    @work(thread=True, group="recent")
    def _remember(self, path: str) -> None:
        from tui.recent import remember

        remember(path)

    def action_open(self) -> None:
        self._list_library()

    @work(thread=True, exclusive=True, group="library")
    def _list_library(self) -> None:
        from tui.recent import own_scenarios
        from tui.session import save_folder

        library = library_scenarios()
        try:
            folder = save_folder()
            own = [(f.path, f.label) for f in own_scenarios(folder) if not in_library(f.path)]
        except Exception:       # an unreadable folder lists nothing of its own
            folder, own = "", []
        self.call_from_thread(self._ask_open, library, own, str(folder))

    def _ask_open(self, library: list[tuple[str, str]], own: list[tuple[str, str]] | None = None,
                  folder: str = "") -> None:
        from tui.widgets import OpenModal

        def chosen(path: str | None) -> None:
            if path:
                mode = self.current_mode if self.current_mode in ("table", "replay") else "replay"
                self.open_scenario(path, mode)

        self.push_screen(OpenModal(library, own, folder), chosen)

    def action_new(self) -> None:
        def go() -> None:
            self.session = Session()
            self.show_mode("table")
            self._session_replaced()

        self._unless_unsaved(go, "Start a new scenario")

    def ask_question(self, then=None) -> None:
        """Let the user write the question in dispute (`question:`) and say what kind of
        answer it wants (format 1.2, item 5), then call `then()`."""
        from adjudicator.questions import plain_question
        from tui.widgets import PromptModal

        current, ask = plain_question(self.session.doc.get("question"))

        def written(text: str | None) -> None:
            if text is None:
                return
            text = " ".join(text.split())
            if not text:
                self.session.doc.pop("question", None)
                self.session.touch()
                if then:
                    then()
                return
            self._ask_kind(text, ask, then)

        self.push_screen(PromptModal("The question in dispute, in the players' own words", current,
                                     "Does Ann's turn end when she plays Time Portal under Play All?",
                                     "The verdict opens with it and its answer. Enter: next, say what it asks "
                                     "- Esc: cancel"), written)

    def _ask_kind(self, text: str, ask, then=None) -> None:
        """The kind of answer the question wants: picked from a list, a card or a
        player where the kind is about one; Esc keeps the kind it had."""
        from adjudicator.questions import ASKS, KINDS, MUST, WHERE, ask_words
        from tui import position as P
        from tui.widgets import ChoiceModal

        def keep(data) -> None:
            self.session.doc["question"] = text if data is None else {"text": text, "ask": data}
            self.session.touch()
            if then:
                then()

        def about(kind: str, names: list[str]) -> None:
            def picked(name: str | None) -> None:
                keep({kind: name} if name else ask)
            title = "Where does which card end up?" if kind == WHERE else "What must which player do?"
            self.push_screen(ChoiceModal(title, [(n, n, "") for n in names], filtered=True), picked)

        def chosen(kind: str | None) -> None:
            table = self.session.doc.get("table")
            table = table if isinstance(table, dict) else {}
            if kind is None:
                keep(ask)
            elif kind == "auto":
                keep(None)
            elif kind == WHERE:
                about(WHERE, P.card_names(table))
            elif kind == MUST:
                about(MUST, P.players(table))
            else:
                keep(kind)

        now = ask_words(ask) or "the verdict picks it"
        choices = [("auto", "Let the verdict pick: what the disputed step settles", "")]
        choices += [(k, f"{k}: {ASKS[k]}", "") for k in KINDS]
        self.push_screen(ChoiceModal("What does the question ask?", choices,
                                     f"Now: {now}. Esc keeps it.", filtered=True), chosen)

    def action_save(self, after=None) -> None:
        if self.session.path is None or in_library(self.session.path):
            self.action_save_as(after)
            return
        self._save(None, after)

    def action_share(self) -> None:
        """Copy the open scenario's share string to the clipboard and show it."""
        line = self.session.share_string()
        self.copy_to_clipboard(line)
        self.notify(f"{line}\n({len(line)} characters; copied to the clipboard. `fluxx-judge open` or any command "
                    "taking a scenario file takes this line in its place.)", title="Share string", timeout=20,
                    markup=False)

    def action_save_as(self, after=None, proposed: str | None = None) -> None:
        from tui.widgets import PathSuggester, PromptModal

        default = proposed or self.session.proposed_path()
        folder = os.path.dirname(default)

        def chosen(path: str | None) -> None:
            if path and path.strip():
                self._save(path.strip(), after)
            elif path is not None:
                self.notify("Not saved: give a file name.", severity="warning", markup=False)

        self.push_screen(PromptModal("Save the scenario as", default, "folder/file.yaml",
                                     f"Proposed folder: {folder}. A missing folder is created after you agree. "
                                     "Enter: save - Esc: cancel", suggester=PathSuggester()), chosen)

    def _save(self, path: str | None, after=None, overwrite: bool = False, create_folder: bool = False) -> None:
        from tui.session import FileExists, FolderMissing, SaveQuestion
        from tui.widgets import ConfirmModal

        try:
            written, wrote = self.session.save(path, overwrite=overwrite, create_folder=create_folder)
        except SaveQuestion as asked:
            question = asked          # (the except clause's own name is gone once it ends)

            def answered(yes: bool | None) -> None:
                if yes:
                    self._save(path, after, overwrite or not isinstance(question, FolderMissing),
                               create_folder or isinstance(question, FolderMissing))
                elif isinstance(question, FileExists):
                    self.action_save_as(after, proposed=question.path)      # another name, then
                else:
                    self.notify("Not saved. F6 (Save as) saves under another name.", severity="warning",
                                markup=False)

            self.push_screen(ConfirmModal(question.message), answered)
            return
        except OSError as exc:          # WriteError: one line naming the file and the reason
            self.notify(f"Not saved: {exc}", severity="error", timeout=10, markup=False)
            return
        self.notify(f"Saved to {written}" if wrote else f"Saved: {written} already holds this scenario "
                    "(the file was left as it was).", title="Saved", timeout=6, markup=False)
        self._remember(str(written))
        self.screen.post_message(SessionSaved())
        if after:
            after()

    async def action_quit(self) -> None:
        def go() -> None:
            self.quit_by_user = True
            self.exit(0)

        self._unless_unsaved(go, "Quit")


def run_app(file: str | None = None) -> int:
    """Run the app; with `file`, open that scenario in Replay. In a terminal, a scenario
    not saved when the terminal goes is kept (`tui.rescue`)."""
    from tui.rescue import TerminalWatch

    app = FluxxJudgeApp(open_file=file)
    watch = TerminalWatch(lambda: app.session).start()
    try:
        app.run()
    finally:
        watch.stop()
    return app.return_code or 0


def run_served_app(root: str, browser: str) -> int:
    """Run the app for one browser tab of `fluxx-judge serve` (`fluxx_judge.served_app`):
    it opens and saves only inside `root` (`tui.confine`), and its unsaved work is kept
    for the browser `browser` (`tui.rescue.served_folder`), which alone is told of it.

    Its work is kept however it ends, other than by its user's own Quit: a hangup from the
    server (the tab closed, the server stopped), the server gone (its parent changed), a
    request to stop or an interrupt (Textual's web driver turns those into the app's exit),
    an error."""
    from tui import confine
    from tui.rescue import TerminalWatch, keep, served_folder

    folder = served_folder(browser)
    confine.confine_to(root, read_only=(folder,))
    app = FluxxJudgeApp(served_rescues=folder)
    server = os.getppid()
    watch = TerminalWatch(lambda: app.session, folder=folder, alive=lambda: os.getppid() == server).start()
    try:
        app.run()
    finally:
        watch.stop()
        if not app.quit_by_user:
            keep(app.session, folder)
    return app.return_code or 0
