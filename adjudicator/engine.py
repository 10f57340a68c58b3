"""The reference engine: events in, a table and an explanation out.

`Engine` is the event driver: it takes one event at a time (`submit`), carries it out
through the rules core (`adjudicator.core`) on a copy of the table, and reports a
`StepResult`. When the rules need a choice, the run pauses there with a pending
decision (`adjudicator.continuations`); the answer resumes it at that line. A refused
event, or one whose answer is refused, leaves the table as it was. `legal_events`
lists what the rules allow next.

The layers, each a module: the explanation log (`log`), decisions and answers
(`answers`), the derived quantities (`quantities`), response windows and Surprises
(`responses`), the rules core (`core`), and this driver.
"""

from __future__ import annotations

import sys
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, cast

from adjudicator.catalogue import CardDef, Catalogue
from adjudicator.continuations import Continuation, Pause, Retired
from adjudicator.pending import LiveRun, Pending
from adjudicator.core import Core
from adjudicator.quantities import Figures
from adjudicator.variants import Variant
from adjudicator.decisions import ORDER, Answer, BadAnswer, Decision, GameEnded, NeedDecision, Rejected
from adjudicator.errors import ScenarioFault
from adjudicator.events import Event
from adjudicator.log import Entry, StepResult, cites_of
from adjudicator.mechanics.base import SURPRISE, UNKNOWN
from adjudicator.state import State

__all__ = ["Engine", "Entry", "StepResult", "cites_of", "is_compiled"]


def is_compiled() -> bool:
    """Whether this process runs the compiled build of the engine core (`make
    compiled`, tools/compile_engine.py) instead of the pure Python reference."""
    return not str(getattr(sys.modules["adjudicator.core"], "__file__", "")).endswith(".py")


# events whose waiting effect a Surprise may still come before: a play or free action
# (its own effect), or the end of a turn (the last card's window is still open)
_ANSWERABLE = ("play", "use", "random", "end_turn")


@dataclass
class _EndedTurn:
    """A trial end of turn that asked nobody anything, kept for the next event: if
    that event is the next player's play from the same table, its run takes this
    table instead of ending the turn a second time (a trial's result reused)."""

    origin: State                    # the table the trial started from
    player: str                      # the player the turn was ended for
    state: State                     # the table once the turn had ended
    entries: list[Entry]             # what ending it said
    said: tuple[frozenset[str], set[tuple[int, str]], list[tuple[str, str, tuple[str, ...]]]]


def _distinct(defs: list[CardDef], pools: list[list[int]], surprises: bool = False) -> list[str | None]:
    """The keys of the cards in `pools`, each once, in order: the Surprises, or every
    card known (not '?')."""
    keys: dict[str | None, None] = {}
    for pool in pools:
        for c in pool:
            d = defs[c]
            if (d.type == SURPRISE) if surprises else (d.type != UNKNOWN):
                keys[d.key] = None
    return list(keys)


@dataclass
class _TurnEndOutcome:
    """How a trial end of turn stopped short: refused, or (None) a decision or the game's end."""

    refusal: Rejected | None


class Engine:
    """The event driver: it has a rules core (`core`) and carries each event out
    through it, on a copy of the table, inside a run that a decision may pause."""

    # judge every refusal by carrying the event out in full on a copy, never by the
    # checks made before anything happens alone: slower, and the reference that
    # tests/test_legal_events.py holds the cheap way to
    exhaustive = False

    def __init__(self, catalogue: Catalogue, state: State, core: Core | None = None):
        self.cat = catalogue
        # the editions the table is played with (declared or inferred from its cards:
        # Position.deck_editions): what an unseen card may be revealed as; None: any
        self.editions: tuple[str, ...] | None = None
        self.core = core if core is not None else Core(catalogue, state)
        self.pending: Pending | None = None
        if state.goals_seen is None:
            state.goals_seen = frozenset(state.goals)
        self._ended_turn: _EndedTurn | None = None   # kept from the last listing, for the next event
        self._reusable: _EndedTurn | None = None     # that, while the next event runs from its table

    @property
    def state(self) -> State:
        """The table as it now stands (the rules core's)."""
        return self.core.state

    @state.setter
    def state(self, table: State) -> None:
        # (the engine's own code sets `self.core.state` itself: mypyc 1.13's compiled code
        # keeps one reference too many to a table set through this property)
        self.core.state = table

    @property
    def figures(self) -> Figures:
        """The derived quantities of the table as it now stands."""
        return self.core.figures

    @property
    def variant(self) -> Variant:
        return self.core.variant

    # -- running events -------------------------------------------------------
    def submit(self, event: Event) -> StepResult:
        """Apply one event. Raises ScenarioFault for a misuse of the format (an answer
        with nothing to answer, an event while a decision is pending)."""
        if self.pending is not None:
            if event.verb == "surprise" and self.pending.event.verb in _ANSWERABLE:
                return self._surprise_while_waiting(event)
            if event.verb not in ("choose", "random"):
                d = self.pending.decision
                assert d is not None            # a pending event always waits on its decision
                raise ScenarioFault(f"the engine is still waiting for a decision ({d.describe()}); "
                                    f"answer it with `choose:` before `{event.describe()}`", "waiting", d)
            value = event.answer if event.verb == "choose" else event.card
            self._check_answer_kind(self.pending.decision, event.verb)
            self.pending.answers.append(Answer(value, event.verb, event.line, event.written))
            return self._run(self.pending)
        ended, self._ended_turn = self._ended_turn, None
        if event.verb in ("choose", "random") and not self._random_first_play(event):
            raise ScenarioFault(f"`{event.describe()}` answers nothing: no decision is pending", "unasked")
        pend = Pending(event, self.core.state, [Answer(a, "choose", event.line, event.written) for a in event.answers],
                        start_turn=self.core.state.turn_number)
        self._reusable = ended if ended is not None and ended.origin is self.core.state else None
        try:
            return self._run(pend)
        finally:
            self._reusable = None

    def _surprise_while_waiting(self, event: Event) -> StepResult:
        """A Surprise answers a play before any of that play's effect happens: while the
        engine waits for a decision the effect raised (a discard to a new Hand Limit, a
        random card to take), a Surprise may still come. It is judged against the table
        as it stands, and a cancel restores the table from before the play, so nothing of
        the effect happens; if that Surprise is itself canceled, the play resumes where it
        stood (`Responses._cancel`). When the waiting event opened no window of its own
        (an end of turn, or the next player's play that ends the turn, waiting for the
        limit discards), the Surprise answers the turn's last card and so comes before
        that event, which is set aside. Refused, the Surprise leaves everything waiting
        as it was."""
        waiting = self.pending
        assert waiting is not None
        partial = self.core.state
        answers = [Answer(a, "choose", event.line, event.written) for a in event.answers]
        own = any(w.serial == partial.serial for w in partial.windows)
        self.pending = None
        if own:
            sub = Pending(event, partial, answers, start_turn=waiting.start_turn, resume=waiting)
        else:
            sub = Pending(event, waiting.snapshot, answers, start_turn=waiting.start_turn)
        self.core.windows.preempted = None if own else waiting
        try:
            result = self._run(sub)
        except ScenarioFault:
            self.core.state, self.pending = partial, waiting
            raise
        finally:
            self.core.windows.preempted = None
        if result.status == "rejected":
            self.core.state, self.pending = partial, waiting
            result.decision = waiting.decision
        return result

    def _go_on(self, event: Event, entries: list[Entry]) -> StepResult:
        """A counter-Surprise canceled the Surprise that had come before a play's effect:
        the play stands again, and is carried out again from its own snapshot (where the
        two Surprises are now in the discard pile) with the answers given so far; it
        usually stops at the same decision, unless the table has changed so that it
        needs no decision any more (or cannot be made at all)."""
        resumed, self.core.windows.resumed = self.core.windows.resumed, None
        assert resumed is not None
        chain = [w for w in self.core.state.windows if w.kind == "surprise"]     # the counter can still be answered
        more = self._run(resumed)
        if more.status != "rejected":
            self.core.state.windows = self.core.state.windows + chain
        if more.status == "rejected":
            entries = entries + [Entry(f"`{resumed.event.describe()}` cannot be carried out again on the table as it "
                                       f"now stands, so it does not happen: {more.reason}", more.entries[0].cites)]
            return StepResult(event, "done", entries, turn_over=self.core.turn_over_since(resumed.start_turn))
        return StepResult(event, more.status, entries + more.entries, decision=more.decision,
                          turn_over=more.turn_over)

    def answer_by_chance(self) -> StepResult:
        """Answer the pending chance decision with the table's seeded generator."""
        pend = self.pending
        assert pend is not None and pend.decision is not None and pend.decision.chance
        # a copy of the generator: chance's pick is the answer, and the run goes on with
        # the table's generator where the event had left it
        pick = self.core.state.rng.copy().choice(pend.decision.options)
        pend.answers.append(Answer(pick, "random"))
        return self._run(pend)

    def answer_by_default(self) -> StepResult:
        """Answer a pending `order` decision with the order it offers (format 1.2, item 3:
        a file that does not answer gets the default order, which the verdict says)."""
        pend = self.pending
        assert pend is not None and pend.decision is not None and pend.decision.kind == ORDER
        pend.answers.append(Answer(list(pend.decision.options), "choose"))
        return self._run(pend)

    def _check_answer_kind(self, decision: Decision | None, verb: str) -> None:
        if decision is not None and verb == "random" and not decision.chance:
            raise ScenarioFault(f"`random:` answers a draw of chance, but the engine waits for {decision.describe()}",
                                "waiting", decision)

    # the engine's state for the run under way, held by the rules core and its parts:
    # saved when a run pauses or a trial steps aside, put back when it goes on
    def _context(self) -> tuple[Any, ...]:
        r = self.core
        d, w = r.decisions, r.windows
        return (r.state, r.log.entries, d.answers, d.next_answer, r._defer, r._checking, r._dirty, r._said_tie,
                r._said_stall, r._claim_notes, w.resume, w.resumed, w.event_turn, w.preempted, d.probing, d.peeked)

    def _set_context(self, context: tuple[Any, ...]) -> None:
        r = self.core
        d, w = r.decisions, r.windows
        (r.state, r.log.entries, d.answers, d.next_answer, r._defer, r._checking, r._dirty, r._said_tie,
         r._said_stall, r._claim_notes, w.resume, w.resumed, w.event_turn, w.preempted, d.probing, d.peeked) = context

    def _run(self, pend: Pending) -> StepResult:
        core = self.core
        live, pend.live = pend.live, None
        if (live is not None and live.owner() is pend and live.run.resumable() and live.context[0] is core.state):
            # the event goes on from the decision it paused at (`choose` takes the new answer)
            self._set_context(live.context)
            run, args = live.run, None
            core.decisions.cont = run
        else:
            core.state = pend.snapshot.clone()
            core.state.serial += 1
            # a play or free action starting from the settled table may share that table
            # as its window's (`Core.table_before_action`); a Surprise answering a paused
            # run starts from a table that run still changes
            core._origin = (core.state, pend.snapshot) if pend.event.verb in ("play", "use", "random") else None
            core.decisions.answers = pend.answers
            core.decisions.next_answer = 0
            core._defer = 0
            core._checking = False
            core.log.entries = []
            core._said_tie = frozenset()
            core._said_stall = set()
            core.windows.resume = pend.resume
            core.windows.resumed = None
            core.windows.event_turn = pend.start_turn
            core.decisions.peeked = False
            run, args = Continuation(self._carry_out), (pend.event,)
            core.decisions.cont = run
        try:
            out = run.resume() if args is None else run.start(*args)
            if not isinstance(out, Pause) and core.decisions.next_answer < len(core.decisions.answers):
                left = [a.value for a in core.decisions.answers[core.decisions.next_answer:]]
                core.state = pend.snapshot
                self.pending = None
                raise ScenarioFault(f"answers left over once `{pend.event.describe()}` was done: {left!r}", "leftover")
        except NeedDecision as need:          # asked where a run cannot pause: it ended there
            out = Pause(need.decision)
        except GameEnded:
            # the game is over: whatever was still being resolved goes to the discard pile
            st = core.state
            for c in list(st.resolving):      # (with the cards lying under them, if any)
                if st.under.get(c):
                    st.move_run(list(st.under[c]), st.pile(c), st.discard, top=True)
            st.move_run(list(st.resolving), st.resolving, st.discard, top=True)
            out = None
        except Rejected as rej:
            core.state = pend.snapshot
            self.pending = pend.resume          # a refused Surprise leaves the play it meant to answer waiting
            return StepResult(pend.event, "rejected", [Entry(rej.reason, rej.cites, "refusal")], reason=rej.reason, ruling=rej.ruling,
                              decision=pend.resume.decision if pend.resume else None)
        except BadAnswer as bad:
            core.state = pend.snapshot
            self.pending = pend.resume
            if not bad.forbidden:
                raise ScenarioFault(str(bad)) from None
            return self._refuse_answer(pend, core.decisions.next_answer - 1, str(bad))
        finally:
            core.decisions.cont = None
        if isinstance(out, Pause):
            pend.decision = out.question
            if run.resumable() and not core.decisions.peeked:
                pend.live = LiveRun(run, self._context(), weakref.ref(pend))
            self.pending = pend
            entries = core.log.entries[pend.shown:]
            pend.shown = len(core.log.entries)
            return StepResult(pend.event, "waiting", entries, decision=pend.decision,
                              turn_over=core.turn_over_since(core.windows.event_turn))
        entries = core.log.entries[pend.shown:]
        self.pending = None
        if core.windows.resumed is not None:           # a counter-Surprise let a waiting play go on
            return self._go_on(pend.event, entries)
        return StepResult(pend.event, "done", entries, turn_over=core.turn_over_since(core.windows.event_turn))

    def _carry_out(self, ev: Event) -> None:
        """The body of a run (inside its continuation)."""
        try:
            self._dispatch(ev)
        except Retired:
            pass            # a paused run retired: its stack has unwound, touching nothing

    def _refuse_answer(self, pend: Pending, index: int, reason: str) -> StepResult:
        """An answer the rules forbid (format 1.1, item 6) is refused like an event: the
        table is as it was before that answer and the decision stays pending."""
        pend.answers = pend.answers[:index]
        result = self._run(pend)
        if result.status == "done":
            # without the refused answer the rules left nobody a choice: the event stands as they decide it
            result.entries.append(Entry(f"The answer given was refused ({reason}); the rules left no choice, so the "
                                        "event was carried out as they decide it."))
            return result
        if result.status != "waiting":  # pragma: no cover - the same answers reach the same decision
            return result
        text = f"That answer is refused: {reason}. The decision is still waiting for a valid answer."
        return StepResult(pend.event, "rejected", [*result.entries, Entry(text)], reason=reason,
                          decision=result.decision, turn_over=result.turn_over)

    def _random_first_play(self, ev: Event) -> bool:
        """Whether a `random:` event with no decision pending is the first play of a
        turn under First Play Random."""
        return ev.verb == "random" and self.pending is None and self.core.first_play_is_random()

    def _dispatch(self, ev: Event) -> None:
        st = self.core.state
        if ev.verb == "deal":
            return self.core._event_deal()
        if ev.verb in ("join", "leave"):
            return self.core._event_join(ev.answer) if ev.verb == "join" else self.core._event_leave(ev.answer)
        player = ev.by or st.active_player
        if player not in st.players:
            raise Rejected(f"there is no player called {player!r}")
        if ev.verb in ("play", "use") and self.core._turn_ends_for(player):
            self._end_turn_for(player, ev)
        self._dispatch_verb(player, ev)

    def _end_turn_for(self, player: str, ev: Event) -> None:
        """End the active turn for `player`, next in turn, to make `ev`; but an event
        the rules refuse is refused before the turn it would end is ended (format 1.1,
        item 7). A turn that ends without anyone being asked anything simply ends, and
        `ev` is judged after it (a refusal then undoes the whole event); one that needs
        a decision is put back, `ev` is judged on a trial end of the turn, and only then
        is the turn ended for good (its decisions asked)."""
        ended = self._reusable
        if ended is not None and ended.player == player and ended.state.serial == self.core.state.serial:
            # the legal-events listing ended this very turn on this very table, asking
            # nobody anything: its table is what ending it again would give
            self._reusable = None
            self.core.state = ended.state
            self.core.log.entries.extend(ended.entries)
            self.core._said_tie, self.core._said_stall, self.core._claim_notes = ended.said
            return
        why = f"{self.core.state.active_player} has no play left, and {player} acts"
        # the table to put back if the turn's end needs a decision: while the run has
        # changed nothing yet (as at the start of a play, where this is called), the
        # step's starting table, which is never changed, copied only if that happens;
        # most turns end asking nobody anything, and so make no copy
        start = self.core._untouched_origin()
        serial = self.core.state.serial
        table = self.core.state.clone() if start is None else None
        kept, shown, stalls = self._context(), len(self.core.log.entries), set(self.core._said_stall)
        self.core.decisions.pause_blocked += 1
        try:
            self.core.end_turn(why)
            return
        except NeedDecision:
            self._set_context(kept)
            if table is None:
                assert start is not None
                table = start.clone()
                table.serial = serial
            self.core.state = table
            del self.core.log.entries[shown:]
            self.core._said_stall = stalls
        finally:
            self.core.decisions.pause_blocked -= 1
        refusal, = self._refusals_after_turn_end(player, [ev])
        if refusal is not None:
            raise refusal
        self.core.end_turn(why)

    def _game_over_refusal(self, ev: Event) -> Rejected | None:
        """Once the game is over only a Surprise answering the winning play may come."""
        st = self.core.state
        if st.game_over and ev.verb != "surprise":
            who = f"{st.winner} has won" if st.winner else "everyone has lost"
            return Rejected(f"the game is over ({who}); nothing more can be played", "rule-win-instantly-any-turn")
        return None

    def _dispatch_verb(self, player: str, ev: Event) -> None:
        if ev.verb in ("play", "surprise"):
            self.core.reveal_unseen(player, ev.card)
        refusal = self._game_over_refusal(ev)
        if refusal is not None:
            raise refusal
        if ev.verb == "play" or (ev.verb == "random" and self._random_first_play(ev)):
            self.core._event_play(player, ev)
        elif ev.verb == "use":
            self.core._event_use(player, ev)
        elif ev.verb == "surprise":
            self.core._event_surprise(player, ev)
        elif ev.verb == "end_turn":
            self.core._event_end_turn(player)
        else:  # pragma: no cover - the loader only makes the verbs above
            raise ScenarioFault(f"unknown event {ev.verb!r}")

    def _refusals_after_turn_end(self, player: str, events: list[Event],
                                 listing: bool = False) -> list[Rejected | None]:
        """The refusal each of `events` (all of one kind) by `player` (next in turn) would
        meet once the active turn has ended for them, or None: judged on one trial end of
        the turn on a copy, choices nobody has scripted yet taken by default. Only the
        checks made before anything happens can refuse an event, so those are asked (of
        all the events together: `_upfront_refusals`), unless a card nobody has seen
        ('?') is on the table (or the engine is `exhaustive`): then each event is carried
        out in full on its own copy. Nothing is kept."""
        full = self.exhaustive or self.core._unseen_on_table()
        with self._after_turn_end(player, listing) as ended:
            if ended is not None:
                return [ended.refusal] * len(events)
            if not full:
                verb, = {ev.verb for ev in events}
                with self.core.table_frozen():        # (the trial table does not change while it is judged)
                    over = self._game_over_refusal(events[0])
                    if over is not None:
                        return [over] * len(events)
                    return self._upfront_refusals(player, verb, [ev.card for ev in events])
            table = self.core.state
            out: list[Rejected | None] = []
            for ev in events:
                self.core.state = table.clone()
                try:
                    self._dispatch_verb(player, ev)
                    out.append(None)
                except Rejected as refusal:
                    out.append(refusal)
                except (NeedDecision, BadAnswer, ScenarioFault, GameEnded):
                    out.append(None)
            return out

    @contextmanager
    def _after_turn_end(self, player: str, listing: bool = False) -> Iterator[_TurnEndOutcome | None]:
        """Inside: the table as it would be once the active turn has ended for `player`
        to act, on a copy, choices nobody has scripted yet taken by default. Yields None
        when the turn ended cleanly (`self.core.state` is then that copy), else what stopped
        it (a refusal, or None for anything else: a decision, the game's end). Everything
        is put back on leaving. For the legal-events `listing`, the trial starts as a
        run of the next event would, and a clean end that took no default answer is
        kept for that event (`_EndedTurn`)."""
        keep = self._context()
        self.core.state = self.core.state.clone()
        self.core.log.entries = []
        self.core.decisions.probing = True
        self.core.decisions.defaulted = False
        if listing:
            self.core.state.serial += 1
            self.core.decisions.answers, self.core.decisions.next_answer, self.core._defer, self.core._checking = [], 0, 0, False
            self.core._said_tie, self.core._said_stall, self.core._claim_notes = frozenset(), set(), []
            self.core.windows.resume = self.core.windows.resumed = self.core.windows.preempted = None
        try:
            stopped: _TurnEndOutcome | None = None
            try:
                self.core.end_turn(f"{keep[0].active_player} has no play left, and {player} acts")
            except Rejected as refusal:
                stopped = _TurnEndOutcome(refusal)
            except (NeedDecision, BadAnswer, ScenarioFault, GameEnded):
                stopped = _TurnEndOutcome(None)
            if stopped is None and listing and not self.core.decisions.defaulted and not self.exhaustive:
                self._ended_turn = _EndedTurn(keep[0], player, self.core.state, list(self.core.log.entries),
                                              (self.core._said_tie, set(self.core._said_stall), list(self.core._claim_notes)))
            # (one yield, outside the handlers: a compiled build cannot yield inside one)
            yield stopped
        finally:
            self._set_context(keep)

    # -- what may happen next (for menus and property tests) -------------------
    def candidate_events(self) -> list[Event]:
        """Events worth trying now: plays of each card in reach, free actions, ending
        the turn. `legal_events` keeps the ones the rules allow."""
        return [Event(verb, key, by=player) for verb, player, keys in self._candidate_groups() for key in keys]

    def _candidate_groups(self) -> list[tuple[str, str, list[str | None]]]:
        """The candidate events by kind, in the order `candidate_events` lists them: (verb,
        player, the keys of the cards named; [None] for ending the turn)."""
        st = self.core.state
        defs = st.defs
        if self.pending is not None:     # only a Surprise can come before the decision a play's effect waits for
            if self.pending.event.verb not in _ANSWERABLE:
                return []
            return [("surprise", p, _distinct(defs, [st.hands[p]], surprises=True)) for p in st.players]
        player = st.active_player
        if st.game_over:     # only a Surprise answering the winning play can still come
            return [("surprise", p, [defs[c].key for c in st.hands[p] if defs[c].type == SURPRISE])
                    for p in st.players] if st.windows else []
        out: list[tuple[str, str, list[str | None]]] = [
            ("play", player, _distinct(defs, [st.temp_hands[-1].cards if st.temp_hands else st.hands[player]])),
            ("use", player, [defs[c].key for zone in (st.rules, st.meta_rules, st.keepers[player]) for c in zone
                             if defs[c].impl.free_action]),
            ("end_turn", player, [None]),
        ]
        if st.windows:
            for p in st.players:
                pools = [st.hands[p]] + ([t.cards for t in st.temp_hands] if p == player else [])
                out.append(("surprise", p, _distinct(defs, pools, surprises=True)))
        nxt = self.core._turn_ends_next()        # (before the active turn is over, the next player may not play)
        if nxt is not None:
            out.append(("play", nxt, _distinct(defs, [st.hands[nxt]])))
        return out

    def try_event(self, event: Event) -> StepResult | None:
        """Run `event` and undo it: the result it would have, or None for a misuse."""
        saved_state, saved_pending = self.core.state, self.pending
        if saved_pending is not None:
            # answer a copy: the pending decision keeps its own answers and its paused run
            self.pending = replace(saved_pending, answers=list(saved_pending.answers))
        try:
            return self.submit(event)
        except ScenarioFault:
            return None
        finally:
            self.core.state, self.pending = saved_state, saved_pending

    def legal_events(self) -> list[Event]:
        """The candidate events the rules allow now.

        A play, a free action or the end of a turn is refused only by the checks made
        before anything of it happens (`_play_refusal`, `_use_refusal`,
        `_end_turn_refusal`, which `submit` makes too), unless a card nobody has seen
        ('?') is on the table, where an effect may turn one up and be refused then. So
        those events are judged by those checks alone (a next player's plays on the
        table as it would be once the turn has ended, worked out once for all of them);
        a Surprise, an event while a decision waits, and any event at a table holding
        '?' are tried in full on a copy, and so is everything when the engine is
        `exhaustive`. `tests/test_legal_events.py` holds the two ways to one answer."""
        with self.core.table_frozen():
            return self._legal_events()

    def _legal_events(self) -> list[Event]:
        st = self.core.state
        if self.exhaustive or self.pending is not None or st.game_over or self.core._unseen_on_table():
            return [ev for ev in self.candidate_events() if self._accepted_on_trial(ev)]
        active = st.active_player
        out: list[Event] = []
        for verb, player, keys in self._candidate_groups():
            if not keys:
                continue
            if verb == "surprise":
                out += [ev for ev in (Event(verb, key, by=player) for key in keys) if self._accepted_on_trial(ev)]
            elif player != active:      # the next player's plays, which end the active turn first
                events = [Event(verb, key, by=player) for key in keys]
                refusals = self._refusals_after_turn_end(player, events, listing=True)
                out += [ev for ev, refusal in zip(events, refusals) if refusal is None]
            else:
                refusals = self._upfront_refusals(player, verb, keys)
                allowed = [key for key, refusal in zip(keys, refusals) if refusal is None]
                if verb == "play":
                    self.core._cleared = (st, player, frozenset(allowed))
                out += [Event(verb, key, by=player) for key in allowed]
        return out

    def own_moves(self) -> list[Event]:
        """The active player's plays and free actions that the checks made before
        anything happens allow, with no decision pending (`legal_events` without the
        Surprises, the end of the turn and the next player's plays, and without trying
        each in full on a table holding '?', where an effect may still refuse one)."""
        with self.core.table_frozen():
            player = self.core.state.active_player
            out: list[Event] = []
            for verb, who, keys in self._candidate_groups():
                if who != player or verb not in ("play", "use") or not keys:
                    continue
                refusals = self._upfront_refusals(player, verb, keys)
                allowed = [key for key, refusal in zip(keys, refusals) if refusal is None]
                if verb == "play":
                    self.core._cleared = (self.core.state, player, frozenset(allowed))
                out += [Event(verb, key, by=player) for key in allowed]
            return out

    def _upfront_refusals(self, player: str, verb: str, keys: list[str | None]) -> list[Rejected | None]:
        """The refusal that the checks made before anything happens give each of
        `player`'s events `verb` (plays, free actions or ending the turn) naming `keys`,
        on the table as it stands, or None. Plays are judged together (`_play_refusals`:
        what does not depend on the card is worked out once)."""
        self.core.decisions.pause_blocked += 1
        try:
            if verb == "play":
                named = cast("list[str]", keys)     # (a play always names its card)
                try:
                    return self.core._play_refusals(player, [self.cat.get(key) for key in named])
                except Rejected as refusal:
                    return [refusal] * len(keys)
                except NeedDecision:
                    return [None] * len(keys)
            out: list[Rejected | None] = []
            for key in keys:        # (a free action names its card; ending the turn names none)
                try:
                    out.append(self.core._end_turn_refusal(player) if key is None
                               else self.core._use_refusal(player, self.cat.get(key))[1])
                except Rejected as refusal:
                    out.append(refusal)
                except NeedDecision:
                    out.append(None)
            return out
        finally:
            self.core.decisions.pause_blocked -= 1

    def _accepted_on_trial(self, ev: Event) -> bool:
        result = self.try_event(ev)
        return result is not None and result.status != "rejected"


