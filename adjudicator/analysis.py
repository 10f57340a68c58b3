"""Analysis: can the player whose turn it is still win this turn, and how?

`analyse(engine)` searches the continuations of the active player's turn from the
engine's position (`adjudicator.turn_search`): each play from the hand (or the
temporary hand being played from), each free action, each answer to a decision. The
engine judges every step, so only what the rules allow is searched. Unseen (`?`)
cards are never played: nothing is revealed. The turn is over, for the search, when
the engine ends it or the game ends; ending the turn by choice is never a way to win,
so it is not searched.

Outcomes nobody at the table controls are treated as adversarial: a draw of chance
(Random Tax, a random pick) and a decision another player makes (a discard, a
choice of theirs) must lead to the win whatever they are. So `can_win` means a
forced win; when there is none, a second search with chance on the player's side
says whether a line wins for some outcomes of chance (`wins_by_chance`). Through a
draw of chance the line shown follows the outcome that needs the most steps.

The search deepens one event at a time, so the line reported is a shortest one, and
a search cut short by a bound (`seconds` of CPU time, `positions`, or the caller
cancelling) still says how deep it was exhaustive: "no win within 4 events"
(`exhaustive_depth`). `progress` is told after each depth completed. The search
works on an engine of its own, so the caller's engine is left exactly as it was and
nothing of the search (engine, paused runs, table) survives it.

Once a winning line is known, every Surprise in a visible hand (the other players'
known cards, and the active player's own) is tried against each step of it with the
engine's own legality; those it accepts are reported as `stopped_by`. The search
also notes every step that makes another player meet a Goal (`gives_win_to`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from adjudicator.errors import ScenarioFault
from adjudicator.events import Event
from adjudicator.mechanics.base import SURPRISE, UNKNOWN
from adjudicator.search_budget import Budget, Cut, StepGuard, StepOverrun, check_bounds
from adjudicator import turn_search
from adjudicator.turn_search import Position, TurnSearch, position_key

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.engine import Engine
    from adjudicator.scenario import Scenario

__all__ = ["Analysis", "Stop", "analyse", "analyse_scenario", "stops", "position_key", "check_bounds",
           "DEFAULT_SECONDS", "DEFAULT_POSITIONS"]

DEFAULT_SECONDS = 2.0        # CPU seconds of the searching thread
DEFAULT_POSITIONS = 20_000


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
    exhausted: bool                   # the answer holds for the whole turn (a shortest win, or none at all)
    stopped_by: list[Stop] = field(default_factory=list)
    gives_win_to: list[str] = field(default_factory=list)
    wins_by_chance: bool = False      # no sure win, but some line wins for some outcomes of chance
    positions: int = 0                # engine steps taken (refused ones aside)
    seconds: float = 0.0              # CPU seconds
    cut: str = ""                     # why the search stopped early: "time", "positions", "depth", "cancelled"
    incomplete: list[str] = field(default_factory=list)   # decisions whose answers were not all searched
    game_over: bool = False
    unseen: dict[str, int] = field(default_factory=dict)  # players' unseen cards, which may hide Surprises
    exhaustive_depth: int = 0         # every line of this many events or fewer was searched: no win within it
    searching: bool = False           # a report of progress: the search goes on

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "can_win": self.can_win, "line": self.line, "exhausted": self.exhausted,
                "exhaustive_depth": self.exhaustive_depth,
                "stopped_by": [s.to_json() for s in self.stopped_by], "gives_win_to": self.gives_win_to,
                "wins_by_chance": self.wins_by_chance, "positions": self.positions,
                "seconds": round(self.seconds, 3), "cut": self.cut or None, "incomplete": self.incomplete,
                "unseen": self.unseen}

    def text(self) -> str:
        """The report in words, a few lines."""
        out = []
        if self.game_over:
            return "The game is over: there is nothing to analyse."
        n = self.exhaustive_depth
        within = f"{n} event{'s' if n != 1 else ''}"
        if self.searching:
            out.append(f"Searching: {self.player} has no win within {within} so far; going deeper...")
        elif self.can_win:
            k = len(self.line)
            out.append(f"{self.player} can win this turn in {k} step{'s' if k != 1 else ''}:")
            out += [f"  {i}. {_flow(e)}" for i, e in enumerate(self.line, 1)]
            if any("random" in e for e in self.line):
                out.append("  (the win holds whatever chance picks; the line shows the outcome that needs the "
                           "most steps)")
        elif self.wins_by_chance:
            out.append(f"{self.player} has no sure win this turn; some lines win only if chance goes their way.")
        elif self.exhausted:
            out.append(f"{self.player} cannot win this turn.")
        elif n:
            out.append(f"{self.player} has no win within {within} (the search went no deeper).")
        else:
            out.append(f"{self.player} cannot win this turn (as far as the search went: not even one event "
                       "deep).")
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
        why = {"time": "the time limit", "positions": "the position limit", "cancelled": "a stop",
               "depth": f"lines longer than {turn_search.MAX_DEPTH} events"}.get(
                   self.cut, "a decision not searched in full")
        if self.searching:
            how = "so far"
        elif self.exhausted:
            how = "exhausted"
        else:
            how = f"NOT exhausted (cut off by {why}" + (f"; no win within {within})" if n else ")")
        out.append(f"Search {how}: {self.positions} positions in {self.seconds:.2f} s of CPU.")
        if self.incomplete:
            out.append("Not every answer was searched for: " + "; ".join(self.incomplete) + ".")
        return "\n".join(out)


def _flow(entry: dict[str, Any]) -> str:
    from adjudicator.moves import flow

    return flow(entry)


def _own_engine(engine: Engine) -> Engine:
    """An engine of the search's own at `engine`'s position (its waiting event copied,
    without the run paused for it, which belongs to `engine`), whose runs never pause."""
    other = type(engine)(engine.cat, engine.state)
    other.exhaustive = engine.exhaustive
    other.core.decisions.pauses = False     # (nothing of the search is left paused when it ends)
    if engine.pending is not None:
        other.pending = dataclasses.replace(engine.pending, answers=list(engine.pending.answers), live=None)
    return other


def analyse(engine: Engine, seconds: float = DEFAULT_SECONDS, positions: int = DEFAULT_POSITIONS, *,
            progress: Callable[[Analysis], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> Analysis:
    """Search the rest of the active player's turn from the engine's position, within
    `seconds` of this thread's CPU time and `positions` engine steps (both finite and
    above 0: ValueError otherwise). `progress` gets a report after each depth searched
    in full; `cancelled` is asked at every step and stops the search when it says so.
    The engine is left exactly as it was."""
    budget = Budget(seconds, positions, cancelled)
    st = engine.state
    report = Analysis(st.active_player, False, [], True, game_over=st.game_over)
    report.unseen = {p: n for p in st.players if p not in st.eliminated
                     and (n := sum(1 for c in st.hands[p] if st.defs[c].type == UNKNOWN))}
    if st.game_over:
        return report
    pending = engine.pending
    root = Position(st, pending, None if pending is None else position_key(pending.snapshot))

    def told(search: TurnSearch) -> None:
        if progress is not None:
            progress(dataclasses.replace(report, exhausted=False, exhaustive_depth=search.depth, searching=True,
                                         positions=budget.used, seconds=budget.elapsed(),
                                         gives_win_to=sorted(search.winners), incomplete=list(search.incomplete)))

    search = TurnSearch(_own_engine(engine), root, budget, progress=told)
    search.run()
    found = search.result
    report.cut = search.cut
    report.exhaustive_depth = search.depth
    report.incomplete = list(search.incomplete)
    report.gives_win_to = sorted(search.winners)
    if found is not None and found.win is not None:
        report.can_win = True
        report.line = [entry for _ev, entry in found.line]
        report.exhausted = not report.incomplete
        # (the line is known to play: its check for Surprises gets time of its own)
        report.stopped_by, whole = stops(engine, [ev for ev, _e in found.line], max(0.1, seconds / 4))
        if not whole:
            report.incomplete.append("the Surprises that could stop the line (not every step was tried in time)")
    else:
        report.exhausted = found is not None and not report.incomplete
        if search.chance_met and not search.cut:
            # no forced win: is there a line that wins if chance goes the player's way?
            lucky = TurnSearch(_own_engine(engine), root, budget, luck=True)
            lucky.run()
            report.wins_by_chance = lucky.result is not None and lucky.result.win is not None
            if lucky.cut and not report.wins_by_chance:
                report.incomplete.append(f"lines that win only by chance (that search went {lucky.depth} "
                                         f"event{'s' if lucky.depth != 1 else ''} deep)")
    report.positions = budget.used
    report.seconds = budget.elapsed()
    return report


def stops(engine: Engine, line: list[Event], seconds: float = DEFAULT_SECONDS) -> tuple[list[Stop], bool]:
    """Surprises in visible hands that the engine accepts against a step of `line`
    (played from the engine's position, on an engine of its own): each one's player,
    card and the step it answers; and whether every step was tried within `seconds`
    of CPU time."""
    own = _own_engine(engine)
    budget = Budget(seconds, 1_000_000)
    found: dict[tuple[str, str, int], Stop] = {}
    try:
        with StepGuard(budget, max(0.25, seconds / 4)) as guard:
            for i, ev in enumerate(line, 1):
                budget.check()
                guard.arm()
                try:
                    result = own.submit(ev)
                except ScenarioFault:
                    break
                finally:
                    guard.disarm()
                if result.status == "rejected" or ev.verb not in ("play", "use"):
                    continue
                st = own.state
                against = own.cat.get(ev.key).name
                for p in st.players:
                    if p in st.eliminated:
                        continue
                    pools = [st.hands[p]] + ([t.cards for t in st.temp_hands] if p == st.active_player else [])
                    for key in dict.fromkeys(st.defs[c].key for pool in pools for c in pool
                                             if st.defs[c].type == SURPRISE):
                        if (p, key, i) in found:
                            continue
                        budget.check()
                        guard.arm()
                        try:
                            tried = own.try_event(Event("surprise", key, by=p))
                        finally:
                            guard.disarm()
                        if tried is not None and tried.status != "rejected":
                            found[(p, key, i)] = Stop(p, own.cat.get(key).name, i, against)
    except (Cut, StepOverrun):
        return list(found.values()), False
    return list(found.values()), True


def analyse_scenario(sc: Scenario, after: int | None = None, seed: int = 0, seconds: float = DEFAULT_SECONDS,
                     positions: int = DEFAULT_POSITIONS, *, progress: Callable[[Analysis], None] | None = None,
                     cancelled: Callable[[], bool] | None = None) -> Analysis:
    """Analyse a scenario's main line after its event `after` (default: its last).
    Raises ScenarioFault if the line cannot be replayed that far, ValueError for bounds
    that are not finite and above 0."""
    from adjudicator.replay import replay_line

    problem = check_bounds(seconds, positions)
    if problem:
        raise ValueError(problem)
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
    return analyse(verdict.engine, seconds, positions, progress=progress, cancelled=cancelled)
