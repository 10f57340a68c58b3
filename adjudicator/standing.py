"""Where the table stands, read from the engine: who meets which Goal and what stops
them, whether the turn is over and why, what a player must do now, where a card is,
and who may still answer with a Surprise.

These are the facts a verdict's answer is made of (`adjudicator.dispute`): each is
worked out from the engine's own state and queries (`Core.goal_claims`,
`Core.blockers`, `Core.turn_over_since`, `Core.end_turn_refusal`, the Goals'
`why_nobody_wins`, `Engine.try_event`), never from the words of an explanation.
Every query leaves the engine as it found it: the lines a rule may say while it is
asked (an EcoFluxx Creeper explaining its block) are taken back.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from adjudicator.decisions import Decision
from adjudicator.events import Event
from adjudicator.log import Entry
from adjudicator.mechanics.base import GOAL, SURPRISE, UNKNOWN

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.core import Core
    from adjudicator.engine import Engine


@contextmanager
def _quiet(core: "Core") -> Iterator[None]:
    """Ask the rules core something and leave no trace: the explanation lines said
    meanwhile, the claim notes and the stalls already told are put back."""
    entries = core.log.entries
    said = len(entries)
    notes, stalls, tie = core._claim_notes, set(core._said_stall), core._said_tie
    try:
        with core.table_frozen():
            yield
    finally:
        core.log.entries = entries
        del entries[said:]
        core._claim_notes, core._said_stall, core._said_tie = notes, stalls, tie


class _Unblocked:
    """The rules core as a Goal would see it if no Creeper blocked anyone: who would
    meet the Goal on the cards alone."""

    def __init__(self, core: "Core"):
        self._core = core

    def blocked(self, player: str, goal: int) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)


# --------------------------------------------------------------------------- wins

@dataclass(frozen=True)
class Stopped:
    """A player who meets a Goal on the cards but does not win by it: what stops them
    (in words) and the rulings that say so."""

    player: str
    goal: str
    by: tuple[str, ...]
    cites: tuple[str, ...]

    def words(self) -> str:
        stop = "stop" if len(self.by) > 1 else "stops"
        return f"{self.player} meets {self.goal}, but {_and(list(self.by))} {stop} {self.player} from winning"


@dataclass
class Wins:
    """Who wins, and if nobody, why not."""

    winner: str | None
    everyone_loses: bool
    goals: list[str]
    met: dict[str, list[str]]                 # who meets which Goal now (the rules that narrow it applied)
    stopped: list[Stopped] = field(default_factory=list)
    stalls: list[Entry] = field(default_factory=list)     # a Goal's own reason nobody meets it (`why_nobody_wins`)
    win_cites: tuple[str, ...] = ()
    ungoals: list[str] = field(default_factory=list)     # Ungoals met now (with a Goal met too: a tie)

    @property
    def tie(self) -> bool:
        return not self.winner and not self.everyone_loses and (len(self.met) > 1 or bool(self.met and self.ungoals))

    @property
    def contested(self) -> bool:
        """Someone meets a Goal, or would but for a Creeper or a rule."""
        return bool(self.winner or self.everyone_loses or self.met or self.stopped or self.stalls)


def wins(engine: "Engine") -> Wins:
    """Who has won or meets a Goal now, and what stops each player who meets one on the
    cards but does not win."""
    core = engine.core
    st = core.state
    defs = st.defs
    with _quiet(core):
        met, ungoals = core.goal_claims()
        out = Wins(st.winner, st.everyone_loses, [defs[g].name for g in st.goals],
                   {p: [defs[g].name for g in gs] for p, gs in met.items()}, ungoals=[defs[g].name for g in ungoals])
        if st.winner:
            held = met.get(st.winner, [])
            out.win_cites = tuple(dict.fromkeys(c for g in held for c in defs[g].impl.win_cites(core, g)))
        if st.game_over:
            return out
        unblocked = _Unblocked(core)
        for g in st.goals:
            impl = defs[g].impl
            if defs[g].type != GOAL:
                continue
            would = impl.winners(unblocked, g)
            for p in st.players:
                if p not in would or p in st.eliminated or g in met.get(p, []):
                    continue
                blocks = core.blockers(p, g)
                if blocks:
                    by = tuple(f"{p}'s Creeper {defs[k].name}" if h == p else f"{defs[k].name} in front of {h}"
                               for h, k in blocks)
                    cites = tuple(dict.fromkeys(c for _, k in blocks for c in defs[k].impl.rulings))
                    out.stopped.append(Stopped(p, defs[g].name, by, cites))
                    continue
                for r in core.answering("filter_winners"):
                    kept = defs[r].impl.filter_winners(core, r, {p: [g]})
                    if g not in kept.get(p, []):
                        out.stopped.append(Stopped(p, defs[g].name, (f"the rule {defs[r].name}",),
                                                   tuple(defs[r].impl.rulings)))
                        break
            if "why_nobody_wins" in impl.overridden and not any(s.goal == defs[g].name for s in out.stopped):
                why = impl.why_nobody_wins(core, g)
                if why:
                    out.stalls.append(Entry(why[0], tuple(why[1:])))
    return out


# --------------------------------------------------------------------------- turns

@dataclass(frozen=True)
class Turn:
    """The turn after an event: whose it was when the event began, whose it is now,
    how many turns began meanwhile, whether the turn that was under way is over
    (`StepResult.turn_over`), and for the turn now under way, whether anything is
    left open in it and why."""

    started: str                   # whose turn the event belonged to
    active: str                    # whose turn it is now
    passed: int                    # turns begun since that turn
    over: bool                     # the turn the event belonged to is over (`StepResult.turn_over`)
    now_over: bool                 # the turn under way now is over: nothing is left open in it
    following: str                 # who takes the turn after the one under way now
    ending: bool                   # the turn is ending: its limit discards are still to be made
    open_reason: str = ""          # why the turn under way now goes on ("" when it is over)
    open_cites: tuple[str, ...] = ()
    waiting: Decision | None = None
    game_over: bool = False
    undone: bool = False           # a cancel took back what had ended a turn: an earlier turn goes on

    def sentence(self) -> tuple[str, tuple[str, ...]]:
        """What a player would say about the turn, and the rulings behind it: the one
        place a verdict words whose turn it is and whether the turn is over."""
        if self.game_over:
            return "The game is over, so no turn goes on.", ()
        if self.undone:
            text = f"What ended the turn is undone: it is {self.active}'s turn again"
            return (f"{text}, and it is not over: {self.open_reason}." if self.open_reason else f"{text}."), \
                self.open_cites
        if self.passed > 0:
            if self.active == self.started:
                return f"{self.started}'s turn is over, and {self.active} takes another turn.", ()
            return f"{self.started}'s turn is over; it is now {self.active}'s turn.", ("rule-play-clockwise",)
        if self.ending:
            who = f"{self.waiting.by} must first decide: {self.waiting.prompt.rstrip('?.')}" if self.waiting else \
                "limits to meet"
            return (f"{self.active}'s turn is over, but it has not passed yet ({who}); then it is "
                    f"{self.following}'s turn.", ("rule-turn-sequence",))
        if self.now_over:
            if self.following == self.active:
                nxt = f"{self.active} takes another turn when this one is ended"
            else:
                nxt = f"{self.following} goes next (once {self.active} ends the turn or {self.following} acts)"
            return (f"{self.active}'s turn is over: nothing is left for {self.active} to play or use, and {nxt}.",
                    ("rule-turn-sequence",))
        return _stop(f"{self.active}'s turn is not over: {self.open_reason}"), self.open_cites

    def to_json(self) -> dict[str, Any]:
        return {"started": self.started, "turn": self.active, "passed": self.passed, "over": self.over,
                "now_over": self.now_over, "next": self.following, "open": self.open_reason or None,
                "undone": self.undone}


def turn(engine: "Engine", started: str, event_turn: int, start_number: int, over: bool) -> Turn:
    """The turn after an event that belonged to turn `event_turn` (by the table's turn
    count), `started`'s, made when the count was `start_number`, and whose result said
    `over` (`StepResult.turn_over`)."""
    core = engine.core
    st = core.state
    waiting = engine.pending.decision if engine.pending is not None else None
    passed = max(0, st.turn_number - event_turn)
    active = st.active_player
    with _quiet(core):
        now_over = core.turn_over_since(st.turn_number)
        following = core.next_player()
        reason: str = ""
        cites: tuple[str, ...] = ()
        if not now_over and not st.game_over:
            reason, cites = _why_open(engine, waiting)
    return Turn(started, active, passed, over, now_over, following, st.phase == "ending", reason, cites,
                waiting, st.game_over, st.turn_number < start_number)


def _why_open(engine: "Engine", waiting: Decision | None) -> tuple[str, tuple[str, ...]]:
    """Why the turn under way goes on: a decision it waits for, a play owed, a duty, a
    temporary hand, or a free action still open."""
    core = engine.core
    st = core.state
    player = st.active_player
    if waiting is not None:
        who = "chance" if waiting.chance else waiting.by
        return f"it waits for {who} to decide: {waiting.prompt}", tuple(waiting.cites)
    owed = core.draws_owed()
    if owed:
        return f"{player} still has {owed} card{'s' if owed != 1 else ''} to draw", ("rule-turn-sequence",)
    refusal = core.end_turn_refusal(player)
    if refusal is not None:
        return refusal.reason, refusal.cites
    if core.free_actions_open(player):
        return (f"{player} may still use a free action (or end the turn now)",
                ("free-actions-open-until-next-turn-starts",))
    return f"{player} may still end it", ("rule-turn-sequence",)


# --------------------------------------------------------------------------- duties

@dataclass(frozen=True)
class Duty:
    """What a player must do now (`owes`: something at all), in sentences with the
    rulings behind each."""

    player: str
    owes: bool
    lines: tuple[Entry, ...]


@dataclass(frozen=True)
class DrawMark:
    """Where the turn stood under the Draw rule just before an event: whose turn, which
    turn (by the table's count), the cards drawn for the Draw rule and the count it asked for."""

    active: str
    turn_number: int
    drawn: int
    total: int
    rule: tuple[int, ...]          # the cards that set the Draw rule's number (none: the Basic Rules)


def draw_mark(engine: "Engine") -> DrawMark:
    """The Draw rule's standing now (`DrawMark`), read before an event."""
    core = engine.core
    st = core.state
    with _quiet(core):
        return DrawMark(st.active_player, st.turn_number, st.drawn, core.draw_total(st.active_player),
                        tuple(core.answering("draw_base")))


def duty(engine: "Engine", player: str, since: DrawMark | None = None) -> Duty:
    """What `player` must do now: a decision the engine waits for, the rest of their
    turn, or nothing; and whether a Limit binds them yet. With `since` (the Draw rule's
    standing before the event in question), an active player whose draw that event
    changed is told where the Draw rule now stands: the cards it asks for this turn,
    those drawn, and how many of them the event brought (draws are made by themselves,
    so "how many must I draw?" is answered by what was drawn)."""
    core = engine.core
    st = core.state
    lines: list[Entry] = []
    waiting = engine.pending.decision if engine.pending is not None else None
    with _quiet(core):
        limits, bound = _limit_lines(engine, player)
        if st.game_over:
            lines.append(Entry(f"{player} has nothing more to do: the game is over.", ("rule-win-instantly-any-turn",)))
            return Duty(player, False, tuple(lines))
        if waiting is not None and not waiting.chance and waiting.by == player:
            lines.append(Entry(_stop(f"{player} must decide now: {waiting.prompt}"), tuple(waiting.cites)))
            return Duty(player, True, tuple(lines + limits))
        if waiting is not None:
            who = "chance" if waiting.chance else waiting.by
            lines.append(Entry(_stop(f"{player} has nothing to do until {who} decides: {waiting.prompt}"),
                               tuple(waiting.cites)))
            return Duty(player, False, tuple(lines + limits))
        owes = bound
        if player == st.active_player:
            owed = core.draws_owed()
            refusal = core.end_turn_refusal(player)
            if owed:
                owes = True
                lines.append(Entry(f"{player} must still draw {owed} card{'s' if owed != 1 else ''}.",
                                   ("rule-turn-sequence",)))
            if not owed:
                drew = _draw_words(core, player, since)
                if drew:
                    lines.append(Entry(drew, ("rule-turn-sequence",)))
            if refusal is not None:
                owes = True
                lines.append(Entry(_stop(f"{player} must go on with the turn: {refusal.reason}"), refusal.cites))
            elif not owed:
                lines.append(Entry(f"{player} owes nothing more this turn and may end it.", ("rule-turn-sequence",)))
        elif not owes:
            lines.append(Entry(f"Nothing is asked of {player} now: it is {st.active_player}'s turn, and no decision "
                               f"waits for {player}.", ("rule-play-clockwise",)))
    return Duty(player, owes, tuple(limits + lines))


def draw_changed(engine: "Engine", since: DrawMark | None) -> bool:
    """Whether the event read by `since` changed the active player's standing under the
    Draw rule: a turn of theirs began, cards were drawn for it, its count changed, or
    another card now sets it (a Draw 5 reading as the Draw 3 it replaced)."""
    core = engine.core
    st = core.state
    if since is None or st.phase != "play" or st.game_over:
        return False
    with _quiet(core):
        total, rule = core.draw_total(st.active_player), tuple(core.answering("draw_base"))
    return (since.turn_number != st.turn_number or since.active != st.active_player or since.drawn != st.drawn
            or since.total != total or since.rule != rule)


def _draw_words(core: "Core", player: str, since: DrawMark | None) -> str:
    """Where the Draw rule stands for `player`, who owes no draw, when the event read by
    `since` changed it ("" otherwise)."""
    st = core.state
    if since is None or player != st.active_player or st.phase != "play":
        return ""
    total = core.draw_total(player)
    new_turn = since.turn_number != st.turn_number or since.active != player
    if not new_turn and (since.drawn, since.total, since.rule) == (st.drawn, total, tuple(core.answering("draw_base"))):
        return ""
    now = st.drawn if new_turn else st.drawn - since.drawn
    cards = f"{total} card{'s' if total != 1 else ''}"
    text = f"{player} owes no more draws: this turn's draw comes to {cards} and {player} has drawn {st.drawn}"
    if st.drawn > total:
        return text + " already, so nothing more is drawn and nothing is given back."
    if 0 < now < st.drawn:
        return text + f", {now} of them just now."
    return text + "."


def _limit_lines(engine: "Engine", player: str) -> tuple[list[Entry], bool]:
    """Whether the Hand and Keeper Limits bind `player` now, in words (on their own
    turn they do not; off it they must be met at once), and whether one binds."""
    core = engine.core
    st = core.state
    out: list[Entry] = []
    own = player == st.active_player and st.phase != "ending"
    ending = player == st.active_player and st.phase == "ending"
    over = []
    hand_limit, keeper_limit = core.hand_limit(player), core.keeper_limit(player)
    held = len(st.hands[player])
    if hand_limit is not None and held > hand_limit:
        over.append(f"holds {held} cards over a Hand Limit of {hand_limit}")
    keepers = sum(1 for k in st.keepers[player] if st.defs[k].type == "keeper")
    if keeper_limit is not None and keepers > keeper_limit:
        over.append(f"has {keepers} Keepers over a Keeper Limit of {keeper_limit}")
    if not over:
        return out, False
    if own:
        out.append(Entry(f"{player} need not discard yet: {player} {' and '.join(over)}, but a Limit binds a player "
                         f"only while it is not their turn; {player} meets it when the turn ends.",
                         ("rule-limits-only-off-turn",)))
    elif ending:
        out.append(Entry(f"{player} must meet the Limit now: {player} {' and '.join(over)}, and {player}'s turn is "
                         "ending, which is when a Limit catches up with the player whose turn it was.",
                         ("rule-turn-sequence", "rule-limits-only-off-turn")))
    else:
        out.append(Entry(f"{player} must meet the Limit at once: {player} {' and '.join(over)}, and it is not "
                         f"{player}'s turn.", ("rule-limits-only-off-turn", "rule-new-limit-immediate-compliance")))
    return out, not own


# --------------------------------------------------------------------------- where

ZONE_WORDS = {"rules": "in play among the New Rules", "meta_rules": "in play as a Meta Rule",
              "goals": "in play as a Goal", "draw_pile": "in the draw pile", "discard": "on the discard pile",
              "removed": "out of the game", "resolving": "being carried out", "rules_pile": "in the Solo Rules deck",
              "rules_discard": "on the Solo Rules discard pile", "scored": "among the scored Goals"}


def zone_words(zone: str) -> str:
    """A zone of `State.all_zones` as a player says it: "in Ben's hand", "in front of Ann"
    (every zone it names has its words: tests/test_answers_by_kind.py)."""
    who, _, kind = zone.rpartition(".")
    if who:
        return {"hand": f"in {who}'s hand", "keepers": f"in front of {who}",
                "temp_hand": f"in {who}'s temporary hand", "under": f"under {who}"}.get(kind, zone)
    return ZONE_WORDS.get(zone, zone)


def where(engine: "Engine", name: str) -> list[str]:
    """The zones (`State.all_zones` names) holding a copy of the card named `name`, in
    the order the table lists them."""
    st = engine.state
    return [zone for zone, cards in st.all_zones().items() for c in cards if st.defs[c].name == name]


# --------------------------------------------------------------------------- Surprises

@dataclass(frozen=True)
class Answerer:
    """A Surprise a player holds, tried against the moment: accepted or refused (why,
    and the rulings behind it)."""

    player: str
    card: str
    accepted: bool
    reason: str
    cites: tuple[str, ...]


def answerers(engine: "Engine") -> tuple[list[Answerer], list[str]]:
    """Every Surprise in a visible hand, tried now on a copy (`Engine.try_event`), and
    the players whose unseen cards could hold one."""
    st = engine.state
    defs = st.defs
    tried: list[Answerer] = []
    unseen: list[str] = []
    order = st.players[st.players.index(st.active_player):] + st.players[:st.players.index(st.active_player)]
    for p in order:
        if p in st.eliminated:
            continue
        pools = [st.hands[p]] + [t.cards for t in st.temp_hands if t.owner == p]
        if any(defs[c].type == UNKNOWN for c in st.hands[p]):
            unseen.append(p)
        keys = list(dict.fromkeys(defs[c].key for pool in pools for c in pool if defs[c].type == SURPRISE))
        for key in keys:
            result = engine.try_event(Event("surprise", key, by=p))
            if result is None:
                continue
            name = engine.cat.get(key).name
            if result.status == "rejected":
                tried.append(Answerer(p, name, False, result.reason,
                                      tuple(c for c in (result.ruling,) if c) or tuple(result.cites)))
            else:
                first = next((e for e in result.entries if e.cites), None)
                tried.append(Answerer(p, name, True, "", first.cites if first else ()))
    return tried, unseen


def _stop(text: str) -> str:
    """A sentence ends in a stop, unless it already ends in one of its own (a prompt's "?")."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
