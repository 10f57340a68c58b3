"""The Replay screen: the question and its answer first, then the dispute step by step,
each step's table and explanation; events added from menus of what the engine allows
now; "what if" lines branched, kept in the scenario (`variations:`) and stepped through;
an Analysis panel (n) searching the rest of the turn from the selected step.

Every line is replayed by the engine in a worker thread; a result that arrives after a
newer request is dropped. Lines are read from the session's document each time it
changes (`tui.variations`), so a branch is saved with the scenario and never lost.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from adjudicator.questions import plain_question
from tui import variations
from tui.app import judge_app
from tui.lines import MenuItem, diff_tables, event_label, fault_advice, menu, parse_typed, run_line, typed_hint
from tui.messages import SessionReplaced, SessionSaved
from tui.screens.scenario_screen import ScenarioScreen
from tui.session import Session
from tui.variations import Line
from tui.widgets import (ChoiceModal, ConfirmModal, DealModal, EventSuggester, PickManyModal, PromptModal,
                         error_text, ruling_summary)
from tui.widgets.mode_bar import ModeBar

STATUS_MARK = {"setup": ("·", "dim"), "done": ("✓", "green"), "rejected": ("✗", "bold red"),
               "waiting": ("?", "bold yellow"), "fault": ("!", "bold red")}
STATUS_WORD = {"setup": "the position", "done": "done", "rejected": "REFUSED", "waiting": "waiting for a decision",
               "fault": "SCENARIO ERROR"}


class ReplayScreen(ScenarioScreen):
    """Replay a dispute step by step."""

    BINDINGS = [
        Binding("left", "step(-1)", "Back", show=False),
        Binding("right", "step(1)", "Forward", show=False),
        Binding("home", "go(0)", "First", show=False),
        Binding("end", "go(-1)", "Last", show=False),
        Binding("a", "add", "Add event"),
        Binding("b", "branch", "What if"),
        Binding("l", "next_line", "Lines", show=False),
        Binding("q", "question", "Question"),
        Binding("s", "app.share", "Share"),
        Binding("d", "disputed", "Disputed", show=False),
        Binding("t", "toggle_table", "Table/why", show=False),
        Binding("n", "toggle_analysis", "Analysis"),
        Binding("x", "drop", "Drop last", show=False),
        Binding("k", "keep_line", "Keep line", show=False),
        Binding("delete", "remove_line", "Remove line", show=False),
        Binding("ctrl+o", "app.open", "Open", show=False),
    ]
    DIALOG_ACTIONS = frozenset({"add", "question"})      # keys typed after them wait for the dialog (tui.typeahead)

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[Line] = []
        self.current = 0                   # index into self.lines
        self.results: dict[int, tuple[Any, Any]] = {}
        self.step_index = 0
        self.token = 0
        self.busy = False
        self.summaries: dict[tuple[str, str], str] = {}    # (ruling, the outcome it is cited for) -> excerpt
        self._outcome = "allowed"                            # the outcome of the step shown
        self._then: Callable[[], None] | None = None     # what to do once the replay in hand is shown
        self._reverting: dict[str, Any] | None = None
        self._moves: tuple[Any, Any] | None = None   # (verdict, its legal moves) from the last menu
        self.analyses: dict[tuple[int, int, int], Any] = {}   # (verdict id, line, step) -> the Analysis report
        self.mounted = False

    def compose(self) -> ComposeResult:
        yield ModeBar()
        yield Static("", id="replay-head")
        with VerticalScroll(id="answer-view"):
            yield Static("", id="answer")
        yield Static("", id="replay-error")
        with Horizontal(id="replay-main"):
            with Vertical(id="steps-pane"):
                yield OptionList(id="steps")
                yield Static("", id="lines-info")
            with Vertical(id="step-pane"):
                yield Static("", id="step-title")
                with Horizontal(id="step-body"):
                    with VerticalScroll(id="table-view"):
                        yield Static("", id="table-text")
                    with VerticalScroll(id="explain-view"):
                        yield Static("", id="explain-text")
                with VerticalScroll(id="analysis-view"):
                    yield Static("", id="analysis-text")
                yield OptionList(id="cites")
                yield Static("", id="verdict")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.mounted = True
        self.query_one("#replay-error").display = False
        self.query_one("#analysis-view").display = False
        self.query_one("#steps", OptionList).focus()
        self._load_corpus()
        self.sync_session()

    def on_screen_resume(self) -> None:
        self.sync_session()

    @work(thread=True, group="corpus")
    def _load_corpus(self) -> None:
        try:
            from rulings.corpus import load_corpus

            load_corpus()
        except Exception:
            return
        self.app.call_from_thread(self._refresh_cites)

    # -- the session and its lines ----------------------------------------------------
    @on(SessionReplaced)
    def sync_session(self) -> None:
        s = judge_app(self.app).session
        if not self.mounted:
            return                        # on_mount comes next and syncs
        if self.session is s and self.seen_version == s.version:
            return
        fresh = self.session is not s
        self.session = s
        self.seen_version = s.version
        path = None if fresh or not self.lines else self.lines[self.current].path
        self._read_lines()
        self.results = {}
        self.current = next((i for i, line in enumerate(self.lines) if line.path == path), 0)
        if fresh:
            self.step_index = 0
        if s.error is not None:
            self._show_error(s.error, s.error_text, opened=True)
            return
        self._replay(self.current, select="first" if fresh else "keep")

    def _read_lines(self) -> None:
        self.lines = variations.lines(self.shown.doc)

    def _edited(self, path: tuple[int, ...], select: Any = "last") -> None:
        """The document's lines changed: reread them, replay the line at `path`."""
        self.shown.touch()
        self.seen_version = self.shown.version
        same = self.lines and self.lines[self.current].path == path
        shown = self.results.get(self.current) if same else None     # stays on screen until the new one comes
        self._read_lines()
        self.current = next((i for i, line in enumerate(self.lines) if line.path == path), 0)
        self.results = {self.current: shown} if shown else {}
        self._replay(self.current, select)

    @on(SessionSaved)
    def session_saved(self) -> None:
        if self.session is not None:
            self._show_head()

    def _snapshot(self) -> Session:
        s = self.shown
        return Session(doc=copy.deepcopy(s.doc), path=s.path, text=s.text, saved=copy.deepcopy(s.saved))

    def _replay(self, line_idx: int, select: Any = "keep") -> None:
        self.token += 1
        self.busy = True
        self._show_head(Text("  replaying...", style="italic"))
        self._replay_worker(self.token, line_idx, self._snapshot(), copy.deepcopy(self.lines[line_idx]), select)

    @work(thread=True, exclusive=True, group="replay")
    def _replay_worker(self, token: int, line_idx: int, snap: Session, line: Line, select: Any) -> None:
        try:
            verdict, err = run_line(snap, line)
        except Exception as exc:  # the engine itself failed: report, never crash the app
            from adjudicator.errors import InputError

            verdict, err = None, InputError(f"the engine stopped with an internal error: {exc!r}")
        self.app.call_from_thread(self._replayed, token, line_idx, verdict, err, select)

    def _replayed(self, token: int, line_idx: int, verdict: Any, err: Any, select: Any) -> None:
        if token != self.token:
            return                        # a newer replay was asked for
        self.busy = False
        if err is not None and self._reverting is not None:
            # the event just added could not be read (an unknown card...): take it back
            bad = self._reverting
            self._reverting = None
            self._drop_last(line_idx)
            self.notify(f"{event_label(bad)}: {getattr(err, 'message', err)}", title="Not added",
                        severity="error", timeout=8, markup=False)
            return
        self._reverting = None
        if self.results.get(line_idx, (None,))[0] is not verdict:     # the line changed: its reports are stale
            self.analyses = {k: a for k, a in self.analyses.items() if k[1] != line_idx}
        self.results[line_idx] = (verdict, err)
        if line_idx != self.current:
            return
        self.query_one("#answer-view").display = err is None
        if err is not None:
            self._show_error(err, self.shown.scenario_text() if self.lines[line_idx].original else None)
            return
        self.query_one("#replay-error").display = False
        self.query_one("#replay-main").display = True
        n = len(verdict.steps)
        if select == "last":
            self.step_index = n - 1
        elif select == "first":
            self.step_index = 0
        elif isinstance(select, int):
            self.step_index = max(0, min(select, n - 1))
        else:
            self.step_index = min(self.step_index, n - 1)
        self._show_steps()
        self._show_answer()
        self._show_verdict()
        self._show_step()
        then, self._then = self._then, None
        if then:
            then()

    def _show_error(self, err: Any, source: str | None, opened: bool = False) -> None:
        """Why the line cannot be shown: the file could not be opened (`opened`) or its
        scenario does not read. Only a file as it is on disk is sent to a text editor; a
        scenario built or changed here is fixed in Table, whose Problems list says what
        it lacks."""
        box = self.query_one("#replay-error", Static)
        s = self.session
        if opened or (s is not None and s.path and not s.changed):
            text = error_text(err, source)
            hint = "Fix it in a text editor and open it again (Ctrl+O), or rebuild the position in Table (F2)."
        else:
            text = error_text(err, source, header="This scenario cannot be replayed as it stands.")
            hint = ("Fix the position in Table (F2): its Problems list says what is missing. Or open a library "
                    "scenario (Ctrl+O).")
        text.append("\n\n" + hint, style="dim")
        box.update(text)
        box.display = True
        self.query_one("#replay-main").display = False
        self.query_one("#answer-view").display = False
        self.busy = False
        self._show_head()

    # -- showing ---------------------------------------------------------------------
    @property
    def verdict(self) -> Any:
        result = self.results.get(self.current)
        return result[0] if result else None

    def _show_head(self, extra: Text | None = None) -> None:
        s = self.session
        t = Text()
        if s is None:
            return
        v = self.verdict
        if v is not None:
            t.append(f"step {self.step_index} of {len(v.steps) - 1}", style="bold cyan")
            t.append("  ")
        if extra:
            t.append_text(extra)
            t.append("  ")
        title = s.doc.get("title") or s.doc.get("id") or "scenario"
        t.append(str(title), style="bold")
        t.append(f"  ({s.label})", style="dim")
        self.query_one("#replay-head", Static).update(t)

    def _show_steps(self) -> None:
        v = self.verdict
        line = self.lines[self.current]
        ol = self.query_one("#steps", OptionList)
        options = []
        for i, step in enumerate(v.steps):
            mark, style = STATUS_MARK.get(step.status, ("?", ""))
            label = self._label(i)
            t = Text()
            disputed = bool(i) and i == self._disputed_step()
            t.append("Q" if disputed else " ", style="bold magenta")
            t.append(f"{i:>2} ", style="dim")
            t.append(mark + " ", style=style)
            t.append(label, style="dim" if line.base and i <= line.base and not line.original else "")

            options.append(Option(t, id=str(i)))
        ol.set_options(options)
        ol.highlighted = self.step_index
        self._show_lines()

    def _label(self, i: int) -> str:
        """Step i as the user would say it: who did what."""
        if i == 0:
            return "set-up"
        v, line = self.verdict, self.lines[self.current]
        if i - 1 >= len(line.events):
            return v.steps[i].label
        ev = dict(line.events[i - 1])
        asked = v.steps[i - 1].decision
        if "choose" in ev and asked is not None:
            return asked.outcome(ev["choose"])         # told by what it does: "Toast goes; Bread stays"
        if v.steps[i].words:
            return v.steps[i].words                    # the engine's own words: "Ann plays Milk"
        if "by" not in ev and not ({"random", "choose", "join", "leave"} & set(ev)):
            ev["by"] = v.steps[i - 1].table.get("turn")
        return event_label(ev)

    def _disputed_step(self) -> int:
        """The step of the disputed event on this line (its mark, else the line's last event)."""
        line = self.lines[self.current]
        for i, ev in enumerate(line.events, 1):
            if isinstance(ev, dict) and ev.get("disputed") is True:
                return i
        return len(line.events)           # the engine's default: the line's last event

    def _show_lines(self) -> None:
        t = Text("Lines (l): ", style="bold")
        for i, line in enumerate(self.lines):
            if i:
                t.append("  ")
            name = line.name if line.original else f"{line.name} (from step {line.base})"
            t.append(name, style="reverse bold" if i == self.current else "dim")
        self.query_one("#lines-info", Static).update(t)

    def _show_answer(self) -> None:
        """The question, its answer, the lines that decide it and their rulings: first."""
        from adjudicator.questions import ASKS

        v = self.verdict
        ans = v.answer
        question, _ = plain_question(self.shown.doc.get("question"))
        t = Text()
        t.append("Q: ", style="bold magenta")
        if question.strip():
            t.append(" ".join(question.split()), style="bold")
        else:
            t.append("no question written yet (q writes it; d marks the disputed step)", style="dim italic")
        if ans is None:
            self.query_one("#answer", Static).update(t)
            return
        if ans.outcome != "fault":
            picked = "" if ans.asked else ", picked by the verdict (q says what it asks)"
            t.append(f"\n   asks {ans.kind}: {ASKS.get(ans.kind, '')}{picked}", style="dim")
        t.append("\nAnswer: ", style="bold green" if ans.outcome == "done" else
                 "bold red" if ans.outcome in ("refused", "fault") else "bold yellow")
        # a line stopped by an event that cannot come where it stands: said in the app's terms
        stopped = next((st for st in v.steps if st.fault is not None), None)
        fault = stopped.fault if stopped is not None and ans.outcome in ("fault", "not-reached") else None
        if stopped is not None and fault is not None:
            last = stopped.number == len(self.lines[self.current].events)
            t.append(f"step {stopped.number} cannot come where it stands: " if stopped.number != ans.step else "")
            t.append(fault_advice(stopped, last))
        else:
            t.append(ans.text)
        if ans.step:
            t.append(f"  (step {ans.step})", style="dim")
        answers = {r.id: r for r in ans.rulings}
        told: set[str] = set()
        for e in ans.lines if fault is None else []:                  # each deciding line, then the rulings it cites, answered
            t.append("\n  - ")
            t.append(e.text)
            for rid in e.cites:
                if rid in told:
                    continue
                told.add(rid)
                t.append("\n      ")
                cited = answers.get(rid)
                t.append(cited.label if cited else rid, style="bold cyan")
                t.append(f"  {cited.answer if cited else ''}", style="italic")
        for r in ans.rulings:
            if r.id not in told:
                t.append("\n  ")
                t.append(r.label, style="bold cyan")
                t.append(f"  {r.answer}", style="italic")
        self.query_one("#answer", Static).update(t)

    def _show_verdict(self) -> None:
        v = self.verdict
        line = self.lines[self.current]
        t = Text()
        t.append("After the last step: ", style="bold")
        t.append(v.summary())
        note = self.shown.doc.get("note")
        if isinstance(note, str) and note.strip():
            t.append(f"\nNote: {' '.join(note.split())}", style="italic")
        if not line.original:
            t.append(f"\n(what-if line '{line.name}', from step {line.base}: saved with the scenario)",
                     style="dim italic")
        if v.has_expectations:
            faulted = {f for s in v.steps if s.fault is not None for f in s.failures}   # told at their step
            failures = [f for f in v.failures if f not in faulted]
            if failures:
                t.append(f"\n{len(failures)} expectation{'s' if len(failures) != 1 else ''} did not hold: ",
                         style="bold red")
                t.append("; ".join(failures[:3]) + (" ..." if len(failures) > 3 else ""), style="red")
            else:
                t.append("\nAll the file's expectations hold.", style="green")
        self.query_one("#verdict", Static).update(t)

    def _show_step(self) -> None:
        v = self.verdict
        if v is None:
            return
        i = self.step_index
        step = v.steps[i]
        prev = v.steps[i - 1].table if i > 0 else None
        n = len(v.steps) - 1
        label = self._label(i)
        title = Text()
        title.append("Set-up" if i == 0 else f"Step {i} of {n}", style="bold")
        title.append(f"  {label}  ")
        mark, style = STATUS_MARK.get(step.status, ("?", ""))
        title.append(f"{mark} {STATUS_WORD.get(step.status, step.status)}", style=style)
        if self.has_class("-narrow") or self.has_class("-phone"):
            title.append("  t: " + ("why" if self.has_class("-show-table") else "table"),
                         style=Style.parse("dim underline") + Style(meta={"@click": "screen.toggle_table"}))
        self.query_one("#step-title", Static).update(title)
        self.query_one("#table-text", Static).update(self._table_text(prev, step.table))
        self.query_one("#explain-text", Static).update(self._explain_text(step, i == n))
        self._show_cites(step)
        self._show_head()
        self._show_analysis()

    @staticmethod
    def _table_text(prev: dict | None, table: dict) -> Text:
        t = Text()
        t.append("Turn: ", style="bold")
        for key, label in (("turn", ""), ("drawn", "drawn "), ("played", "played ")):
            value = table.get(key)
            changed = prev is not None and prev.get(key) != value
            t.append(f"{label}{value}", style="bold yellow" if changed else "")
            t.append("  ")
        pile = table.get("draw_pile", 0)
        t.append(f"draw pile {pile}", style="bold yellow" if prev is not None and prev.get("draw_pile") != pile else "")
        if table.get("winner"):
            t.append(f"\nWINNER: {table['winner']}", style="bold green")
        if table.get("everyone_loses"):
            t.append("\nEVERYONE LOSES", style="bold red")
        if table.get("eliminated"):
            t.append(f"\nout: {', '.join(table['eliminated'])}", style="red")
        for title, cards, gone in diff_tables(prev, table):
            t.append(f"\n{title}: ", style="bold")
            if not cards and not gone:
                t.append("-", style="dim")
            for j, (card, new) in enumerate(cards):
                if j:
                    t.append(", ")
                t.append(("+" if new else "") + card, style="bold green" if new else "")
            for card in gone:
                t.append("  -" + card, style="red strike")
        if prev is not None:
            t.append("\n\n+ new at this step, -struck: gone", style="dim italic")
        return t

    def _explain_text(self, step: Any, last: bool) -> Text:
        t = Text()
        if step.note:
            t.append(f"Note: {step.note}\n", style="italic")
        if step.number == 0:
            title = self.shown.doc.get("title")
            if isinstance(title, str) and title:
                t.append(title + "\n", style="bold")
            if not step.entries:
                t.append("The position as the scenario gives it.\n", style="dim")
        for e in step.entries if step.fault is None else []:    # (a fault's line is the file's: told below)
            t.append("- ", style="bold")
            t.append(e.text)
            if e.cites:
                t.append(f"  [{', '.join(e.cites)}]", style="cyan")
            t.append("\n")
        if step.status == "rejected":
            t.append("\nREFUSED: ", style="bold red")
            t.append(step.reason or "not allowed now")
            if step.ruling:
                t.append(f"  [{step.ruling}]", style="cyan")
            t.append("\nThe table is unchanged.", style="dim")
        if step.decision is not None:
            d = step.decision
            t.append("\n? ", style="bold yellow")
            t.append(d.describe(), style="bold yellow")
            if d.option_names:
                t.append(f"\n  options: {', '.join(d.option_names)}", style="yellow")
            if last:
                t.append("\n  Press a to answer.", style="dim")
        if step.fault is not None:
            last = step.number == len(self.lines[self.current].events)
            t.append(f"\nThis event cannot come here: {fault_advice(step, last)}", style="red")
        elif self.verdict.has_expectations:
            for f in step.failures:
                t.append(f"\nexpected otherwise: {f}", style="red")
        return t

    def _show_cites(self, step: Any) -> None:
        rids = list(step.cites)
        if step.ruling and step.ruling not in rids:
            rids.append(step.ruling)
        if step.number == 0:          # the set-up lists what the scenario sets out to show
            cites = self.shown.doc.get("cites")
            rids += [c for c in cites if isinstance(c, str) and c not in rids] if isinstance(cites, list) else []
        self._outcome = step.outcome
        ol = self.query_one("#cites", OptionList)
        ol.set_options([Option(self._cite_prompt(rid), id=rid) for rid in rids] or
                       [Option(Text("no ruling cited at this step", style="dim"), disabled=True)])
        if rids:
            ol.highlighted = 0
        ol.border_title = "Rulings cited (Enter opens)"
        missing = [(r, step.outcome) for r in rids if (r, step.outcome) not in self.summaries]
        if missing:
            self._fetch_summaries(missing)

    def _cite_prompt(self, rid: str) -> Text:
        """A ruling cited at the step shown: the part of it that supports the step's outcome."""
        return Text.assemble((rid, "bold cyan"), ("  " + self.summaries.get((rid, self._outcome), ""), ""))

    @work(thread=True, group="summaries")
    def _fetch_summaries(self, wanted: list[tuple[str, str]]) -> None:
        found = {(rid, outcome): ruling_summary(rid, outcome) for rid, outcome in wanted}
        self.app.call_from_thread(self._got_summaries, found)

    def _got_summaries(self, found: dict[tuple[str, str], str]) -> None:
        self.summaries.update(found)
        self._refresh_cites()

    def _refresh_cites(self) -> None:
        ol = self.query_one("#cites", OptionList)
        for opt in list(ol.options):
            if opt.id and not opt.disabled:
                ol.replace_option_prompt(opt.id, self._cite_prompt(opt.id))

    # -- analysis ------------------------------------------------------------------
    def action_toggle_analysis(self) -> None:
        """Show or hide the Analysis panel: can the player whose turn it is at the
        selected step still win this turn, and how. Hiding it stops the search under way
        and lets go of every report (a search holds nothing once it has stopped)."""
        view = self.query_one("#analysis-view")
        view.display = not view.display
        if not view.display:
            self._stop_analysis()
            self.analyses.clear()
        self._show_analysis()

    def _stop_analysis(self) -> None:
        """Cancel the search under way, if any (it stops at its next step)."""
        self.workers.cancel_group(self, "analysis")

    def on_unmount(self) -> None:
        self._stop_analysis()

    def _analysis_key(self) -> tuple[int, int, int] | None:
        v = self.verdict
        return None if v is None else (id(v), self.current, self.step_index)

    def _show_analysis(self) -> None:
        view = self.query_one("#analysis-view")
        key = self._analysis_key()
        if not view.display or key is None:
            return
        view.border_title = f"Analysis after step {self.step_index} (n hides it)"
        text = self.query_one("#analysis-text", Static)
        if key in self.analyses:
            text.update(self._analysis_text(self.analyses[key]))
            return
        text.update(Text("searching the rest of the turn...", style="italic"))
        # (exclusive: starting a search cancels the one for the step shown before)
        self._analysis_worker(key, self._snapshot(), copy.deepcopy(self.lines[self.current]))

    @work(thread=True, exclusive=True, group="analysis")
    def _analysis_worker(self, key: tuple[int, int, int], snap: Session, line: Line) -> None:
        worker = get_current_worker()
        closing: list[bool] = []

        def progress(partial: Any) -> None:      # each depth searched in full, as it comes
            if not worker.is_cancelled:
                try:
                    self.app.call_from_thread(self._analysis_progress, key, partial)
                except RuntimeError:              # the app is closing: the search stops at its next step
                    closing.append(True)

        try:
            from adjudicator.analysis import analyse_scenario
            from tui.variations import scenario_for

            sc = snap.parse(scenario_for(snap.doc, line))
            found: Any = analyse_scenario(sc, after=min(key[2], len(sc.events)), progress=progress,
                                          cancelled=lambda: worker.is_cancelled or bool(closing))
        except Exception as exc:      # an input error or an engine fault: said in the panel, never a crash
            found = exc
        if not worker.is_cancelled and not closing and getattr(found, "cut", "") != "cancelled":
            self.app.call_from_thread(self._analysed, key, found)

    def _analysis_progress(self, key: tuple[int, int, int], partial: Any) -> None:
        if key == self._analysis_key() and key not in self.analyses and self.query_one("#analysis-view").display:
            self.query_one("#analysis-text", Static).update(self._analysis_text(partial))

    def _analysed(self, key: tuple[int, int, int], found: Any) -> None:
        if not self.query_one("#analysis-view").display:
            return                    # hidden meanwhile: nothing is kept
        self.analyses[key] = found
        if key == self._analysis_key():
            self._show_analysis()

    @staticmethod
    def _analysis_text(found: Any) -> Text:
        if isinstance(found, Exception):
            return Text(f"The analysis could not run: {getattr(found, 'message', found)}", style="red")
        t = Text()
        head, _, rest = found.text().partition("\n")
        t.append(head, style="italic" if found.searching else "bold green" if found.can_win else "bold")
        if rest:
            t.append("\n" + rest)
        return t

    # -- stepping ------------------------------------------------------------------
    def _select(self, index: int) -> None:
        v = self.verdict
        if v is None:
            return
        index = max(0, min(index, len(v.steps) - 1))
        if index != self.step_index:
            self.step_index = index
            self._show_step()
        ol = self.query_one("#steps", OptionList)
        if ol.highlighted != index:
            ol.highlighted = index

    def action_step(self, delta: int) -> None:
        self._select(self.step_index + delta)

    def action_go(self, where: int) -> None:
        v = self.verdict
        if v is not None:
            self._select(len(v.steps) - 1 if where < 0 else where)

    @on(OptionList.OptionHighlighted, "#steps")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self._select(int(event.option.id))

    @on(OptionList.OptionSelected, "#cites")
    def _open_ruling(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            judge_app(self.app).open_ruling(event.option.id)

    # -- lines ---------------------------------------------------------------------
    def action_next_line(self) -> None:
        if len(self.lines) < 2:
            self.notify("Only the scenario's own line so far: b branches a what-if from the selected step.",
                        markup=False)
            return
        self._switch_line((self.current + 1) % len(self.lines))

    def _switch_line(self, idx: int, select: Any = "keep") -> None:
        self.current = idx
        if idx in self.results and self.results[idx][0] is not None and select == "keep":
            self._replayed(self.token, idx, *self.results[idx], select)
        else:
            self._replay(idx, select)

    def action_toggle_table(self) -> None:
        """On a narrow terminal the step shows its table or its explanation: switch."""
        self.toggle_class("-show-table")
        self._show_step()

    def action_branch(self) -> None:
        v = self.verdict
        if v is None or self.busy:
            return
        step = self.step_index
        self._branch_at(step)
        self.notify(f"What if... branched after step {step}: a adds an event, l switches lines. "
                    "It is saved with the scenario.", markup=False)

    def _branch_at(self, step: int) -> None:
        path = variations.branch(self.shown.doc, self.lines[self.current].path, step)
        self._edited(path, "last")

    def action_keep_line(self) -> None:
        line = self.lines[self.current]
        if line.original:
            self.notify("This is already the scenario's line.", markup=False)
            return
        variations.promote(self.shown.doc, line.path)
        self.notify(f"'{line.name}' is now the scenario's own line; the line it replaced is kept as a what-if.",
                    markup=False)
        self._edited((), "last")

    def action_remove_line(self) -> None:
        line = self.lines[self.current]
        if line.original:
            self.notify("The scenario's own line cannot be removed (x drops its last event).", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                variations.remove(self.shown.doc, line.path)
                self._edited(line.path[:-1], "keep")

        self.app.push_screen(ConfirmModal(f"Remove the what-if line '{line.name}' and the lines branching "
                                          "from it?"), answered)

    def action_question(self) -> None:
        if self.session is not None:
            judge_app(self.app).ask_question(lambda: self._edited(self.lines[self.current].path, "keep"))

    def action_disputed(self) -> None:
        """Mark the selected step's event as the one in dispute (the answer is about it)."""
        line = self.lines[self.current]
        i = self.step_index
        if i == 0 or i > len(line.events):
            self.notify("Select a step with an event (not the set-up) to mark it as disputed.", markup=False)
            return
        main = self.lines[0]
        if not line.original and i > line.base:
            self.notify("The disputed event is one of the scenario's own line: k keeps this line first.",
                        markup=False)
            return
        events = [{k: v for k, v in e.items() if k != "disputed"} if isinstance(e, dict) else e
                  for e in main.events]
        already = isinstance(main.events[i - 1], dict) and main.events[i - 1].get("disputed") is True
        if not already:
            events[i - 1]["disputed"] = True
        variations.set_events(self.shown.doc, (), events)
        self.notify(f"Step {i} is {'no longer marked' if already else 'marked as'} the disputed one.", markup=False)
        self._edited(line.path, i)

    # -- adding events -----------------------------------------------------------------
    def action_add(self) -> None:
        v = self.verdict
        if self.busy or v is None or v.steps[-1].status == "fault":
            judge_app(self.app).release_keys()          # no menu comes
        if self.busy:
            self.notify("Still replaying; try again in a moment.", markup=False)
            return
        if v is None:
            self.notify("Nothing to add to: open a scenario (Ctrl+O) or build a position (F2).", severity="warning",
                        markup=False)
            return
        if v.steps[-1].status == "fault":
            self.notify("This line stopped at a scenario error: drop its last event (x) or branch earlier (b).",
                        severity="warning", markup=False)
            return
        if self.step_index < len(v.steps) - 1:
            self._then = self._open_menu       # a what-if from the selected step
            self._branch_at(self.step_index)
            return
        self._open_menu()

    def _open_menu(self) -> None:
        self.busy = True
        self._menu_worker(self.token, self.current)

    @work(thread=True, exclusive=True, group="menu")
    def _menu_worker(self, token: int, line_idx: int) -> None:
        verdict = self.results[line_idx][0]
        try:
            from adjudicator.moves import legal_moves

            groups = legal_moves(verdict.engine)
            self._moves = (verdict, groups)        # the typed-event hints reuse them
            items = menu(verdict.engine, groups)
        except Exception as exc:  # never a broken menu: typing any event still works
            items = [MenuItem("Type any event (the engine judges it)...", kind="type", group="Other")]
            self.app.call_from_thread(self.notify, f"The engine could not list the legal events ({exc}); "
                                      "type the event instead.", severity="warning", markup=False)
        self.app.call_from_thread(self._ask_event, token, line_idx, items)

    def _ask_event(self, token: int, line_idx: int, items: list[MenuItem]) -> None:
        self.busy = False
        if token != self.token or line_idx != self.current:
            judge_app(self.app).release_keys()
            return
        choices = [(str(i), item.label, item.group) for i, item in enumerate(items)]

        def chosen(cid: str | None) -> None:
            if cid is None:
                return
            item = items[int(cid)]

            def answered(got: list[str] | dict[str, Any] | None) -> None:
                if got is not None:
                    self.append_event(line_idx, {"choose": got})

            if item.kind == "event" and item.event is not None:
                self.append_event(line_idx, item.event)
            elif item.kind == "pick":
                self.app.push_screen(PickManyModal(item.group, item.options, item.count, item.minimum), answered)
            elif item.kind == "deal":
                self.app.push_screen(DealModal(item.group, item.options, item.players), answered)
            else:
                self._ask_typed(line_idx)

        self.app.push_screen(ChoiceModal("Add an event: what happens next?", choices,
                                         "Only what the rules allow now is listed. Type to narrow it. "
                                         "Enter: add - Esc: cancel", filtered=True), chosen)

    def _ask_typed(self, line_idx: int, value: str = "") -> None:
        self._typed_worker(line_idx, value)

    @work(thread=True, exclusive=True, group="menu")
    def _typed_worker(self, line_idx: int, value: str) -> None:
        from adjudicator.typed_events import EventHints

        verdict = self.results.get(line_idx, (None, None))[0]
        engine = verdict.engine if verdict is not None else None
        try:
            groups = self._moves[1] if self._moves is not None and self._moves[0] is verdict else None
            hints = EventHints(engine, groups=groups) if engine is not None else None
            example, hint = typed_hint(hints)
            suggester = EventSuggester(hints) if hints is not None else None
        except Exception:
            example, hint, suggester = "play: CARD by PLAYER", "", None
        self.app.call_from_thread(self._show_typed, line_idx, value, engine, example, hint, suggester)

    def _show_typed(self, line_idx: int, value: str, engine: Any, example: str, hint: str, suggester: Any) -> None:
        def typed(text: str | None) -> None:
            if text is None:
                return
            try:
                ev = parse_typed(text, engine)
            except ValueError as exc:
                self.notify(str(exc), severity="warning", markup=False)
                self._show_typed(line_idx, text, engine, example, hint, suggester)
                return
            self.append_event(line_idx, ev)

        self.app.push_screen(PromptModal("Type an event", value, example, hint, suggester=suggester), typed)

    def append_event(self, line_idx: int, event: dict[str, Any]) -> None:
        """Add an event to the end of a line. The answer to a decision that the line's
        last play raised goes into that play's own `choose:` list, so that the play's
        step (and the answer to a question about it) holds all it did."""
        line = self.lines[line_idx]
        events = copy.deepcopy(line.events)
        result = self.results.get(line_idx)
        last_step = result[0].steps[-1] if result and result[0] is not None else None
        if (set(event) == {"choose"} and events and last_step is not None and last_step.status == "waiting"
                and last_step.number == len(events) and len(line.events) > line.base
                and {"play", "surprise", "use", "end_turn"} & set(events[-1])):
            answers = events[-1].get("choose")
            events[-1]["choose"] = (answers if isinstance(answers, list) else []) + [event["choose"]]
            variations.set_events(self.shown.doc, line.path, events)
            self._reverting = None
            self._edited(line.path, "last")
            return
        variations.set_events(self.shown.doc, line.path, events + [copy.deepcopy(event)])
        self._reverting = event
        self._edited(line.path, "last")

    def action_drop(self) -> None:
        line = self.lines[self.current]
        why = variations.drop_blocked(self.shown.doc, line.path)
        if why:
            self.notify(f"Cannot drop: {why}.", markup=False)
            return
        self._drop_last(self.current)

    def _drop_last(self, line_idx: int) -> None:
        line = self.lines[line_idx]
        variations.set_events(self.shown.doc, line.path, line.events[:-1])
        self._edited(line.path, "last")
