"""Analysis: can the player whose turn it is still win this turn, and how?

`analyse(engine)` searches every continuation of the active player's turn from the
engine's position: each play from the hand (or the temporary hand being played
from), each free action, each answer to a decision. The engine judges every step
(`Engine.submit`), so only what the rules allow is searched. Unseen (`?`) cards are
never played: nothing is revealed. The turn is over, for the search, when the
engine ends it (a turn-ending card, no play left and the next player's turn) or the
game ends; ending the turn by choice is never a way to win, so it is not searched.

Outcomes nobody at the table controls are treated as adversarial: a draw of chance
(Random Tax, a random pick) and a decision another player makes (a discard, a
choice of theirs) must lead to the win whatever they are. So `can_win` means a
forced win; a line that wins for some outcomes of chance but not all is reported
as `wins_by_chance` instead. Through a draw of chance the line shown follows the
outcome that needs the most steps.

A position is the table (`State`) plus the event still waiting for a decision and
the answers given so far. Its key is a hash of the zones (hands and keepers as
multisets of card titles, piles in order), the turn's facts (plays made, cards
drawn, free actions used, phase, turn number, winner) and the waiting event; a
transposition table on that key holds each position's value once it is known, so
plays in either order that reach the same table are searched once.

The value of a position is the length of the shortest forced win from it (0: the
player has won; no value: no win). The search is a depth-first walk over the whole
turn, bounded by a time limit and a number of positions (engine steps), and lines
by a length of MAX_DEPTH events (free actions can go on and on); when a bound cuts
it short the report says `exhausted: false`, and a line found so far is still a real
win, though maybe not the shortest.

Once a winning line is known, every Surprise in a visible hand (the other players'
known cards, and the active player's own) is tried against each step of it with the
engine's own legality; those it accepts are reported as `stopped_by`. The search
also notes every step that makes another player meet a Goal (`gives_win_to`).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, cast

from adjudicator.errors import ScenarioFault
from adjudicator.events import Event
from adjudicator.mechanics.base import SURPRISE, UNKNOWN
from adjudicator.moves import event_entry

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.decisions import Decision
    from adjudicator.engine import Engine
    from adjudicator.scenario import Scenario
    from adjudicator.state import State

Entry = dict[str, Any]       # an event as the scenario format writes it
Move = tuple[Event, Entry]

DEFAULT_SECONDS = 2.0
DEFAULT_POSITIONS = 20_000
MAX_DEPTH = 40              # events in one line at most (a turn of free actions can go on and on)
MAX_ANSWERS = 64             # answers of one multi-card decision (combinations) searched at most

_NO_WIN = None               # the value of a position from which no forced win exists


@dataclass
class Stop:
    """A Surprise that the engine accepts against a step of the winning line."""

    by: str
    card: str
    at: int                  # the step of the line it answers (1 = the first event)
    against: str             # the card of that step

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "card": self.card, "at": self.at, "against": self.against}


@dataclass
class Analysis:
    """What the search found."""

    player: str
    can_win: bool
    line: list[dict[str, Any]]
    exhausted: bool
    stopped_by: list[Stop] = field(default_factory=list)
    gives_win_to: list[str] = field(default_factory=list)
    wins_by_chance: bool = False      # no sure win, but some line wins for some outcomes of chance
    positions: int = 0                # engine steps taken
    seconds: float = 0.0
    cut: str = ""                     # why the search stopped early: "time" or "positions"
    incomplete: list[str] = field(default_factory=list)   # decisions whose answers were not all searched
    game_over: bool = False
    unseen: dict[str, int] = field(default_factory=dict)  # players' unseen cards, which may hide Surprises

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "can_win": self.can_win, "line": self.line, "exhausted": self.exhausted,
                "stopped_by": [s.to_json() for s in self.stopped_by], "gives_win_to": self.gives_win_to,
                "wins_by_chance": self.wins_by_chance, "positions": self.positions,
                "seconds": round(self.seconds, 3), "cut": self.cut or None, "incomplete": self.incomplete,
                "unseen": self.unseen}

    def text(self) -> str:
        """The report in words, a few lines."""
        out = []
        if self.game_over:
            return "The game is over: there is nothing to analyse."
        if self.can_win:
            n = len(self.line)
            out.append(f"{self.player} can win this turn in {n} step{'s' if n != 1 else ''}:")
            out += [f"  {i}. {_flow(e)}" for i, e in enumerate(self.line, 1)]
            if any("random" in e for e in self.line):
                out.append("  (the win holds whatever chance picks; the line shows the outcome that needs the "
                           "most steps)")
        elif self.wins_by_chance:
            out.append(f"{self.player} has no sure win this turn; some lines win only if chance goes their way.")
        else:
            out.append(f"{self.player} cannot win this turn" + ("." if self.exhausted else
                                                                 " (as far as the search went)."))
        if self.can_win:
            if self.stopped_by:
                out.append("Surprises that could stop this line:")
                out += [f"  {s.by}'s {s.card} against step {s.at} ({s.against})" for s in self.stopped_by]
            else:
                out.append("No Surprise in a visible hand can stop this line.")
            if self.unseen:
                out.append("Unseen cards may hide more: " + ", ".join(f"{p} {n}" for p, n in self.unseen.items())
                           + ".")
        if self.gives_win_to:
            out.append(f"Careful: some lines hand the win to {', '.join(self.gives_win_to)}.")
        why = {"time": "the time limit", "positions": "the position limit",
               "depth": f"lines longer than {MAX_DEPTH} events"}.get(self.cut, "a decision not searched in full")
        how = "exhausted" if self.exhausted else f"NOT exhausted (cut off by {why})"
        out.append(f"Search {how}: {self.positions} positions in {self.seconds:.2f} s.")
        if self.incomplete:
            out.append("Not every answer was searched for: " + "; ".join(self.incomplete) + ".")
        return "\n".join(out)


def _flow(entry: dict[str, Any]) -> str:
    from adjudicator.moves import flow

    return flow(entry)


@dataclass
class _Node:
    value: int | None                  # shortest forced win, or None
    lucky: bool                        # some line wins if chance goes the player's way
    event: Event | None = None         # the step towards the win
    entry: dict[str, Any] | None = None
    child: Any = None                  # key of the position it leads to


class _Cut(Exception):
    """The search's time or position bound is reached."""


def position_key(state: State, pending: Any = None) -> int:
    """A hash of the table's zones and the turn's facts, and of the event waiting for a
    decision with the answers given so far: two positions with equal keys play alike
    (copies of one title are interchangeable; a hand's order does not matter)."""
    d = state.defs
    names = lambda cards: tuple(d[c].key for c in cards)                       # noqa: E731
    bag = lambda cards: tuple(sorted(d[c].key for c in cards))                 # noqa: E731
    parts = (
        tuple((p, bag(state.hands[p]), bag(state.keepers[p])) for p in state.players),
        names(state.rules), names(state.meta_rules), names(state.goals), names(state.draw_pile),
        names(state.discard), names(state.removed), names(state.resolving),
        tuple((t.owner, bag(t.cards), t.plays, t.made, t.drawn) for t in state.temp_hands),
        tuple(sorted((d[a].key, d[b].key) for a, b in state.attachments.items())),
        tuple(state.eliminated), state.active, state.drawn, state.played, state.phase,
        tuple(sorted(state.free_used)), tuple(state.claims), state.another_turn, state.turns_in_a_row,
        state.turn_number, state.winner, state.everyone_loses, state.rng.s,
        None if pending is None else (pending.event.describe(), repr([a.value for a in pending.answers])),
    )
    return hash(parts)


def _deals(names: list[str], players: list[str], each: int) -> Iterator[dict[str, list[str]]]:
    """Every way to give `each` of the cards to every player (copies of a title alike)."""
    if not players:
        yield {}
        return
    for hand in dict.fromkeys(itertools.combinations(names, each)):
        rest = list(names)
        for n in hand:
            rest.remove(n)
        for deal in _deals(rest, players[1:], each):
            yield {players[0]: list(hand), **deal}


class _Search:
    def __init__(self, engine: Engine, seconds: float, positions: int) -> None:
        self.engine = engine
        self.player = engine.state.active_player
        self.turn = engine.state.turn_number
        self.deadline = time.monotonic() + seconds
        self.budget: float = positions
        self.steps = 0
        self.table: dict[int, _Node] = {}
        self.on_path: set[int] = set()
        self.winners: dict[str, None] = {}
        self.incomplete: dict[str, None] = {}
        self.cut = ""
        self.too_deep = False              # some line was longer than MAX_DEPTH events
        self.root = engine.state
        self.root_best: _Node | None = None

    # -- positions -----------------------------------------------------------------
    def key(self, state: State, pending: Any) -> int:
        return position_key(state, pending)

    def step(self, state: State, pending: Any, ev: Event) -> tuple[State, Any] | None:
        """Submit `ev` at a position: the position it leads to, or None if refused."""
        if self.steps >= self.budget:
            self.cut = "positions"
            raise _Cut()
        if time.monotonic() > self.deadline:
            self.cut = "time"
            raise _Cut()
        self.steps += 1
        e = self.engine
        e.state = state
        e.pending = None if pending is None else dataclasses.replace(pending, answers=list(pending.answers))
        try:
            result = e.submit(ev)
        except ScenarioFault:
            return None
        if result.status == "rejected":
            return None
        return e.state, e.pending

    def children(self, state: State, pending: Any) -> tuple[str, list[Move]]:
        """The kind of node ("or": the player picks; "and": chance or another player does)
        and the events that may come next."""
        cat = self.engine.cat
        if pending is not None:
            d = pending.decision
            kind = "or" if (not d.chance and d.by == self.player) else "and"
            return kind, [(ev, entry) for ev, entry in self.answers(d)]
        self.engine.state, self.engine.pending = state, None
        out: list[Move] = []
        for ev in self.engine.candidate_events():
            if ev.by == self.player and ev.verb in ("play", "use"):
                out.append((ev, event_entry(Event(ev.verb, ev.card), cat)))
        return "or", out

    def answers(self, d: Decision) -> list[Move]:
        names = d.option_names or [str(o) for o in d.options]
        if d.chance:
            picks = list(dict.fromkeys(names))
            keys = {n: self.engine.cat.resolve(n).key if n != "?" else "?" for n in picks} \
                if d.options and isinstance(d.options[0], int) else {n: n for n in picks}
            return [(Event("random", keys[n]), {"random": n}) for n in picks]
        if d.kind in ("yes_no", "table"):
            values: list[Any] = ["yes", "no"]
        elif d.kind in ("card", "player"):
            values = list(dict.fromkeys(names))
        elif d.kind == "number":
            values = list(dict.fromkeys(d.options))
        elif d.kind in ("discard", "discard_keepers", "cards"):
            sizes: Iterable[int] = [d.count or 0] if d.kind != "cards" else range(d.minimum, (d.count or len(names)) + 1)
            combos = dict.fromkeys(tuple(sorted(c)) for n in sizes for c in itertools.combinations(names, n))
            values = [list(c) for c in combos]
            if len(values) > MAX_ANSWERS:
                self.incomplete[f"{d.describe()} (first {MAX_ANSWERS} of {len(values)} answers)"] = None
                values = values[:MAX_ANSWERS]
        else:   # a deal
            st = self.engine.state
            players = [p for p in self.engine.core.seat_order(start=d.by) if p not in st.eliminated] \
                if d.by in st.players else []
            cards = [st.defs[o].name if isinstance(o, int) else str(o) for o in d.options]
            if d.count and players and len(cards) == d.count * len(players):
                values = list(itertools.islice(_deals(sorted(cards), players, d.count), MAX_ANSWERS + 1))
                if len(values) > MAX_ANSWERS:
                    self.incomplete[f"{d.describe()} (first {MAX_ANSWERS} deals)"] = None
                    values = values[:MAX_ANSWERS]
            else:   # a deal of another shape: the engine's own default is tried
                self.incomplete[f"{d.describe()} (one deal tried)"] = None
                values = [{d.by: cards}]
        return [(Event("choose", answer=v), {"choose": v}) for v in values]

    # -- the walk ------------------------------------------------------------------
    def over(self, state: State) -> bool:
        """The turn is over: a later turn began, it is ending, or nothing is left to do
        in it (no play, temporary hand, duty or free action: `Engine.turn_over_since`)."""
        self.engine.state, self.engine.pending = state, None
        return self.engine.core.turn_over_since(self.turn)

    def value(self, state: State, pending: Any) -> _Node:
        if state.winner == self.player:
            return _Node(0, True)
        if state.game_over or (pending is None and self.over(state)):
            return _Node(_NO_WIN, False)
        k = self.key(state, pending)
        if k in self.table:
            return self.table[k]
        if k in self.on_path:           # a loop of free actions: no progress this way
            return _Node(_NO_WIN, False)
        if len(self.on_path) >= MAX_DEPTH:   # this branch only: the rest of the turn is still searched
            self.too_deep = True
            return _Node(_NO_WIN, False)
        self.on_path.add(k)
        try:
            node = self.expand(state, pending)
        finally:
            self.on_path.discard(k)
        self.table[k] = node
        return node

    def expand(self, state: State, pending: Any) -> _Node:
        kind, moves = self.children(state, pending)
        best: _Node | None = None
        lucky = False
        chance = pending is not None and pending.decision.chance
        results = []
        for ev, entry in moves:
            nxt = self.step(state, pending, ev)
            if nxt is None:
                continue
            st, pend = nxt
            if st.winner is not None and st.winner != self.player:
                self.winners[st.winner] = None
            child = self.value(st, pend)
            results.append((_Node(None if child.value is None else child.value + 1, child.lucky, ev, entry), child))
            found = results[-1][0].value
            if state is self.root and kind == "or" and found is not None:
                if self.root_best is None or self.root_best.value is None or found < self.root_best.value:
                    self.root_best = results[-1][0]         # kept in case a bound cuts the search short
        if not results:
            return _Node(_NO_WIN, False)
        if kind == "or":
            wins = [r for r, _ in results if r.value is not None]
            best = min(wins, key=lambda r: cast(int, r.value)) if wins else None
            lucky = any(r.lucky for r, _ in results)
        else:
            if all(r.value is not None for r, _ in results):
                best = max((r for r, _ in results), key=lambda r: cast(int, r.value))
            lucky = any(r.lucky for r, _ in results) if chance else all(r.lucky for r, _ in results)
        if best is None:
            return _Node(_NO_WIN, lucky)
        return _Node(best.value, True, best.event, best.entry)

    def line(self, root: _Node, state: State, pending: Any) -> list[Move]:
        """The winning line from the root, followed through the table: each position's
        best step, played again to reach the next position."""
        assert root.value is not None
        out: list[Move] = []
        node: _Node | None = root
        self.budget, self.deadline = float("inf"), float("inf")
        while node is not None and node.event is not None and len(out) <= root.value:
            out.append((node.event, node.entry or {}))
            nxt = self.step(state, pending, node.event)
            if nxt is None:         # pragma: no cover - the same step from the same position
                break
            state, pending = nxt
            if state.winner == self.player:
                break
            node = self.table.get(self.key(state, pending))
        return out


def analyse(engine: Engine, seconds: float = DEFAULT_SECONDS, positions: int = DEFAULT_POSITIONS) -> Analysis:
    """Search the rest of the active player's turn from the engine's position (the
    engine's table is left as it was)."""
    saved = engine.state, engine.pending
    started = time.monotonic()
    search = _Search(engine, seconds, max(1, positions))
    st = engine.state
    report = Analysis(st.active_player, False, [], True, game_over=st.game_over)
    report.unseen = {p: n for p in st.players if p not in st.eliminated
                     and (n := sum(1 for c in st.hands[p] if st.defs[c].type == UNKNOWN))}
    if st.game_over:
        return report
    root: _Node | None = None
    try:
        root = search.value(st, engine.pending)
    except _Cut:
        root = None
    except RecursionError:     # an engine chain deeper than Python allows: cut like a bound
        search.cut, root = "depth", None
    finally:
        engine.state, engine.pending = saved
    if root is None:      # cut off: the best line from the root found so far, if any
        root = search.root_best
    report.exhausted = not search.cut and not search.incomplete and not search.too_deep
    report.cut = search.cut or ("depth" if search.too_deep else "")
    report.incomplete = list(search.incomplete)
    report.gives_win_to = sorted(search.winners)
    report.positions = search.steps
    if root is not None and root.value is not None:
        steps = search.line(root, st, saved[1])
        engine.state, engine.pending = saved
        report.can_win = True
        report.line = [entry for _ev, entry in steps]
        report.stopped_by = stops(engine, [ev for ev, _e in steps])
    report.wins_by_chance = bool(root is not None and root.lucky and not report.can_win)
    report.seconds = time.monotonic() - started
    engine.state, engine.pending = saved
    return report


def stops(engine: Engine, line: list[Event]) -> list[Stop]:
    """Surprises in visible hands that the engine accepts against a step of `line`
    (played from the engine's position): each one's player, card and the step it answers."""
    saved = engine.state, engine.pending
    found: dict[tuple[str, str, int], Stop] = {}
    if engine.pending is not None:       # answering a decision adds to the waiting event's answers: work on a copy
        engine.pending = dataclasses.replace(engine.pending, answers=list(engine.pending.answers))
    try:
        for i, ev in enumerate(line, 1):
            try:
                result = engine.submit(ev)
            except ScenarioFault:
                break
            if result.status == "rejected" or ev.verb not in ("play", "use"):
                continue
            st = engine.state
            against = engine.cat.get(ev.key).name
            for p in st.players:
                if p in st.eliminated:
                    continue
                pools = [st.hands[p]] + ([t.cards for t in st.temp_hands] if p == st.active_player else [])
                for key in dict.fromkeys(st.defs[c].key for pool in pools for c in pool
                                         if st.defs[c].type == SURPRISE):
                    if (p, key, i) in found:
                        continue
                    tried = engine.try_event(Event("surprise", key, by=p))
                    if tried is not None and tried.status != "rejected":
                        found[(p, key, i)] = Stop(p, engine.cat.get(key).name, i, against)
    finally:
        engine.state, engine.pending = saved
    return list(found.values())


def analyse_scenario(sc: Scenario, after: int | None = None, seed: int = 0, seconds: float = DEFAULT_SECONDS,
                     positions: int = DEFAULT_POSITIONS) -> Analysis:
    """Analyse a scenario's main line after its event `after` (default: its last).
    Raises ScenarioFault if the line cannot be replayed that far."""
    from adjudicator.replay import replay_line

    n = len(sc.events) if after is None else after
    if not 0 <= n <= len(sc.events):
        raise ScenarioFault(f"--after {after}: the scenario has {len(sc.events)} event(s); choose 0 to "
                            f"{len(sc.events)}")
    verdict = replay_line(sc, [], sc.events[:n], None, seed)
    if verdict.error is not None:
        raise verdict.error
    faults = [f for s in verdict.steps if s.status == "fault" for f in s.failures]
    if faults:
        raise ScenarioFault(f"the replay stopped before step {n}: {faults[0]}")
    assert verdict.engine is not None     # a scenario that loaded has an engine
    return analyse(verdict.engine, seconds, positions)
