"""The search behind `fluxx-judge analyse`: a bounded AND/OR search of the rest of the
active player's turn, deepened one event at a time, through the engine.

A position is the table (`State`) with the event still waiting for a decision, if
any. At a position with nothing pending the player picks one of their plays or free
actions (those the engine's checks made before anything happens allow:
`Engine.own_moves`); at a decision the player makes, they pick an answer; at a
decision of chance or of another player, every answer must lead to the win (an AND
node): `can_win` means a forced win. Answers are generated lazily
(`adjudicator.answer_space`). Each step is one `Engine.submit` on the search's own
engine; a step the engine refuses is not a position.

Iterative deepening: the search looks for a forced win within 1 event, then 2, 3...
so the first win it finds is a shortest one, and a search cut short by a bound still
says how deep it was exhaustive ("no win within 4 events"). A depth at which no line
was cut by the depth bound answers for the whole turn. Inside each depth the children
of a position are stepped a few at a time (`CHUNK`) before any is searched deeper, so
a step that wins at once is found before anything else (and at an AND node, a branch
that loses at once ends the node's search).

A transposition table holds what is known of each position (a forced win and its line,
or "no forced win within N events", or none at all), keyed by `position_key`: hands,
the cards in front of players and the discard pile count as multisets (copies of a
title alike, order aside), every other zone in order, with the turn's facts. The
discard pile's order is read only by events that take cards out of it (a reshuffle,
Empty the Trash, Scavenger, draws from its bottom...), so a step that does is noted,
and a result that rests on such a step holds only for that exact order of the pile
(the entry keeps it). A position met again on its own line is a loop of free actions
and wins nothing that way; results reached through such a loop are not kept.

Bounds (`adjudicator.search_budget`): the time and position bounds are asked before
every step and every answer generated, and an engine step that runs away is
interrupted. The table is capped at `MAX_TABLE` entries. Nothing of a search outlives
it: its engine, table and positions are dropped with it, and the engine keeps no run
paused for an analysis (`adjudicator.continuations` lets a dropped paused run go).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from adjudicator.answer_space import Incomplete, answers
from adjudicator.errors import ScenarioFault
from adjudicator.events import Event
from adjudicator.moves import event_entry
from adjudicator.search_budget import Budget, Cut, StepGuard, StepOverrun

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.engine import Engine
    from adjudicator.state import State

Entry = dict[str, Any]
Move = tuple[Event, Entry]
Line = tuple[Move, ...]

MAX_DEPTH = 40              # events in one line at most (a turn of free actions can go on and on)
CHUNK = 32                  # children stepped before any of them is searched deeper
MAX_TABLE = 200_000         # transposition-table entries at most (then it starts again)
MAX_CHILDREN = 4 * CHUNK     # the children of one position kept for the next depth at most
MAX_KEPT = 10_000           # children kept for the next depth in all (a table holds about 5 KB)
NO_END = 1 << 30            # "no forced win within NO_END events": none at all


def _bag(defs: list[Any], cards: list[int]) -> tuple[str, ...]:
    return tuple(sorted(defs[c].key for c in cards))


def _pile(defs: list[Any], cards: list[int]) -> tuple[str, ...]:
    return tuple(defs[c].key for c in cards)


def position_key(state: State, pending: Any = None, origin: int | None = None) -> int:
    """A hash of a position: two positions with equal keys play alike, but for the
    discard pile's order (see the module's docstring). Hands, the cards in front of
    players, temporary hands, the discard pile and the cards out of the game are
    multisets of titles; the other zones keep their order; with the turn's facts and,
    for a waiting event, the event, the answers given so far and the key of the table
    it started from (`origin`; worked out when not given)."""
    d = state.defs
    waiting = None
    if pending is not None:
        if origin is None:
            origin = position_key(pending.snapshot)
        waiting = (pending.event.describe(), repr([a.value for a in pending.answers]), origin)
    parts = (
        tuple((p, _bag(d, state.hands[p]), _bag(d, state.keepers[p])) for p in state.players),
        _pile(d, state.rules), _pile(d, state.meta_rules), _pile(d, state.goals), _pile(d, state.draw_pile),
        _bag(d, state.discard), _bag(d, state.removed), _pile(d, state.resolving), _pile(d, state.rules_pile),
        _bag(d, state.scored),
        tuple((t.owner, d[t.source].key, _bag(d, t.cards), t.plays, t.made, t.drawn, t.params)
              for t in state.temp_hands),
        tuple(sorted((d[a].key, d[b].key) for a, b in state.attachments.items())),
        tuple(sorted((d[c].key, p) for c, p in state.secrets.items())),
        tuple(sorted((p, tuple(v)) for p, v in state.waiting.items())), tuple(sorted(state.knocked_in.items())),
        None if state.goals_seen is None else tuple(sorted(d[g].key for g in state.goals_seen)),
        tuple(state.eliminated), state.active, state.drawn, state.played, state.phase, state.started_empty,
        tuple(sorted(state.free_used)), tuple(sorted(state.held_at_start)), tuple(sorted(state.claims)), state.another_turn, state.turns_in_a_row, tuple(state.extra_turn_cards),
        state.turn_number, state.questions, state.winner, state.everyone_loses, state.ended, state.rng.s,
        tuple(state.reshuffle_order), waiting,
        # the cards under a card (a pile keeps its order), the cards face down or face-out,
        # and the effects lasting until a player's next turn
        tuple(sorted((d[c].key, _pile(d, v)) for c, v in state.under.items())) if state.under else (),
        tuple(sorted((p, d[k].key) for p in state.players for k in state.keepers[p] if k in state.face_down))
        if state.face_down else (),
        tuple(sorted((p, d[k].key) for p in state.players for k in state.hands[p] if k in state.face_out))
        if state.face_out else (),
        tuple(sorted((p, what, d[c].key) for p, what, c in state.lasting)),
    )
    return hash(parts)


@dataclass(slots=True)
class Position:
    state: State
    pending: Any                 # the engine's waiting event, or None
    origin: int | None           # the key of the table the waiting event started from


@dataclass(slots=True)
class Result:
    """What searching a position to some depth found."""

    win: int | None = None       # events to a forced win, or None
    line: Line = ()              # that win's line (through chance: the outcome needing most events)
    whole: bool = True           # no line was cut by the depth bound (a "no win" holds for the whole turn)
    order: bool = False          # rests on the discard pile's order
    looped: bool = False         # went through a position already on its line


_LIVE, _WON, _DEAD = 0, 1, 2      # a child: to search on; the player has won; no win that way


@dataclass(slots=True)
class _Child:
    move: Move
    pos: Position | None          # (None once the player won, or the turn is over without a win)
    key: int
    status: int
    took: bool                    # its step took a card out of the discard pile


@dataclass(slots=True)
class _Known:
    win: int | None
    line: Line
    no_win_within: int           # no forced win within this many events (-1: nothing known)
    order: tuple[str, ...] | None   # the discard pile it holds for, when it rests on its order


class TurnSearch:
    """One search of the active player's turn from a position, on an engine of its own
    (the caller's engine is never touched). `run` deepens until a win, an answer for the
    whole turn, a bound or `MAX_DEPTH`; the attributes then say what it found."""

    def __init__(self, engine: Engine, root: Position, budget: Budget, *, luck: bool = False,
                 progress: Callable[[TurnSearch], None] | None = None):
        self.engine = engine
        self.root = root
        self.budget = budget
        self.luck = luck                   # chance counts as the player's ally (is there a lucky line?)
        self.progress = progress
        self.max_depth = MAX_DEPTH
        self.player = root.state.active_player
        self.turn = root.state.turn_number
        self.table: dict[int, _Known] = {}
        self.children: dict[int, tuple[tuple[str, ...], list[_Child]]] = {}
        self.kept = 0
        self.on_line: set[int] = set()
        self.winners: dict[str, None] = {}
        self.incomplete: dict[str, None] = {}
        self.chance_met = False            # some decision of chance was met
        self.guard: StepGuard | None = None
        # the outcome
        self.result: Result | None = None
        self.depth = 0                     # the deepest depth searched in full
        self.cut = ""                      # "time", "positions", "cancelled" or "depth"

    # -- the deepening -----------------------------------------------------------
    def run(self) -> None:
        grace = max(0.25, self.budget.seconds / 4)
        root_key = self._key(self.root)
        try:
            with StepGuard(self.budget, grace) as self.guard:
                for depth in range(1, self.max_depth + 1):
                    found = self.solve(self.root, root_key, depth)
                    if found.win is not None:
                        self.result, self.depth = found, depth - 1
                        return
                    self.depth = depth
                    if found.whole:
                        self.result = found
                        return
                    if self.progress is not None:
                        self.progress(self)
                self.cut = "depth"
        except Cut as cut:
            self.cut = cut.why
        except StepOverrun:
            self.cut = self.budget.cut or "time"
        except RecursionError:             # an engine chain deeper than Python allows
            self.cut = "depth"
        finally:
            self.guard = None
            self.on_line.clear()
            self.table.clear()
            self.children.clear()

    # -- one position ------------------------------------------------------------
    def _key(self, pos: Position) -> int:
        return position_key(pos.state, pos.pending, pos.origin)

    def solve(self, pos: Position, key: int, depth: int) -> Result:
        """A forced win from `pos` within `depth` events, or why not."""
        known = self.table.get(key)
        if known is not None and (known.order is None or known.order == _order(pos.state)):
            rests = known.order is not None
            if known.win is not None and known.win <= depth:
                return Result(known.win, known.line, True, rests)
            if known.no_win_within >= depth:
                return Result(None, (), known.no_win_within == NO_END, rests)
        if key in self.on_line:             # round a loop: nothing gained this way
            return Result(None, (), True, False, True)
        self.on_line.add(key)
        try:
            found = self.expand(pos, key, depth)
        finally:
            self.on_line.discard(key)
        if found.win is not None or not found.looped:
            self._keep(key, pos, found, depth)
        return found

    def _keep(self, key: int, pos: Position, found: Result, depth: int) -> None:
        if len(self.table) >= MAX_TABLE:
            self.table.clear()
        known = self.table.get(key)
        order = _order(pos.state) if found.order else None
        if known is None or known.order != order:
            known = self.table[key] = _Known(None, (), -1, order)
        if found.win is not None:
            if known.win is None or found.win < known.win:
                known.win, known.line = found.win, found.line
        else:
            known.no_win_within = max(known.no_win_within, NO_END if found.whole else depth)

    def expand(self, pos: Position, key: int, depth: int) -> Result:
        """Step each child of `pos` (a chunk at a time), then search the live ones one
        event shallower: an OR node stops at its first win, an AND node at its first
        branch without one."""
        d = None if pos.pending is None else pos.pending.decision
        both = d is not None and (d.by != self.player if not d.chance else not self.luck)
        whole, order, looped = True, False, False
        worst: Result | None = None         # an AND node: the branch whose win needs the most events
        for chunk in self._stepped(pos, key):
            live: list[_Child] = []
            for child in chunk:
                order = order or child.took
                if child.status == _WON:
                    if not both:
                        return Result(1, (child.move,), True, order)
                    if worst is None:
                        worst = Result(1, (child.move,))
                elif child.status == _DEAD:
                    if both:
                        return Result(None, (), True, order)
                elif depth <= 1:            # it needs another event at least
                    if both:
                        return Result(None, (), False, order)
                    whole = False
                else:
                    live.append(child)
            for child in live:
                assert child.pos is not None
                got = self.solve(child.pos, child.key, depth - 1)
                order = order or got.order
                if got.win is None:
                    if both:
                        return Result(None, (), got.whole, order, got.looped)
                    whole = whole and got.whole
                    looped = looped or got.looped
                elif not both:
                    return Result(got.win + 1, (child.move, *got.line), True, order)
                elif worst is None or got.win + 1 > (worst.win or 0):
                    worst = Result(got.win + 1, (child.move, *got.line))
        if both and worst is not None:
            return Result(worst.win, worst.line, True, order)
        return Result(None, (), whole, order, looped)

    def _stepped(self, pos: Position, key: int) -> Iterator[list[_Child]]:
        """The children of `pos`, stepped, a chunk at a time. The children of a position
        stepped in full are kept (up to `MAX_KEPT` children in all), so that the next
        depth searches through them without stepping them again; they are kept with
        the discard pile they were stepped from, and only go for that very pile."""
        kept = self.children.get(key)
        if kept is not None and kept[0] == _order(pos.state):
            for i in range(0, len(kept[1]), CHUNK):
                yield kept[1][i:i + CHUNK]
            return
        origin = key if pos.origin is None else pos.origin
        every: list[_Child] | None = []
        for chunk in _chunks(self._children(pos), CHUNK):
            out = []
            for move in chunk:
                child = self._step(pos, move[0], origin)
                if child is None:
                    continue
                st = child.state
                took = _took_from_discard(pos.state, st)
                if st.winner == self.player:
                    out.append(_Child(move, None, 0, _WON, took))
                elif st.game_over or (child.pending is None and self._over(st)):
                    if st.winner is not None:
                        self.winners[st.winner] = None
                    out.append(_Child(move, None, 0, _DEAD, took))
                else:
                    out.append(_Child(move, child, self._key(child), _LIVE, took))
            if every is not None:
                every += out
                if len(every) > MAX_CHILDREN:
                    every = None
            yield out
        if every is not None and self.kept + len(every) <= MAX_KEPT:
            self.kept += len(every)
            self.children[key] = (_order(pos.state), every)

    def _children(self, pos: Position) -> Iterator[Move]:
        """The events that may come next, each once, lazily; bounds asked at each."""
        e = self.engine
        if pos.pending is not None:
            d = pos.pending.decision
            if d.chance:
                self.chance_met = True
            e.state, e.pending = pos.state, None
            for answer in answers(e, d):
                self.budget.check()
                if isinstance(answer, Incomplete):
                    self.incomplete[str(answer)] = None
                    continue
                yield answer
            return
        e.state, e.pending = pos.state, None
        for ev in e.own_moves():
            self.budget.check()
            yield ev, event_entry(Event(ev.verb, ev.card), e.cat)

    def _step(self, pos: Position, ev: Event, origin: int) -> Position | None:
        """Submit `ev` at `pos`: the position it leads to, or None if the engine refuses it."""
        budget = self.budget
        budget.check_step()
        e = self.engine
        e.state = pos.state
        e.pending = None if pos.pending is None else dataclasses.replace(
            pos.pending, answers=list(pos.pending.answers), live=None)
        guard = self.guard
        assert guard is not None
        guard.arm()
        try:
            result = e.submit(ev)
        except ScenarioFault:
            return None
        except RecursionError:
            raise
        except Exception as error:         # an engine fault: that branch goes unsearched, and the report says so
            self.incomplete[f"a step the engine failed on ({ev.describe()}: {error!r})"] = None
            return None
        finally:
            guard.disarm()
        if result.status == "rejected":
            return None
        budget.used += 1
        return Position(e.state, e.pending, origin if e.pending is not None else None)

    def _over(self, state: State) -> bool:
        """The turn is over: a later turn began, it is ending, or nothing is left to do."""
        e = self.engine
        e.state, e.pending = state, None
        return e.core.turn_over_since(self.turn)


def _order(state: State) -> tuple[str, ...]:
    return _pile(state.defs, state.discard)


def _took_from_discard(before: State, after: State) -> bool:
    """Whether a step took a card out of the discard pile (the only way its order is read)."""
    if not before.discard:
        return False
    if len(after.discard) >= len(before.discard) and after.discard[-len(before.discard):] == before.discard:
        return False                       # (the usual case: cards only went on top)
    return not Counter(before.discard) <= Counter(after.discard)


def _chunks(items: Iterator[Move], size: int) -> Iterator[list[Move]]:
    chunk: list[Move] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
