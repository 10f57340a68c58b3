"""The rules core: what the rules do to the table, called by the events and by the
cards' mechanics. The checkpoint (attachments, Secrets, Goal changes, draws owed,
limits, wins) and Solo Fluxx's scoring; moving cards between zones; placing rules and
Goals; playing cards and temporary hands; each kind of event and the checks made
before any of it happens; unseen cards; turns.

The driver (`adjudicator.engine.Engine`) runs events through this core; the
checkpoint runs after every atomic event, always in this order:

1. cards in front of players react to the table (War hands Peace on);
2. the active player draws what the Draw rule (with bonuses) still owes, Creepers
   drawn going straight to the table and being replaced;
3. every other player complies with the Hand Limit, then the Keeper Limit, asked in
   seat order from the player after the active one;
4. wins are checked: exactly one player meeting a Goal wins at once, a tie plays on.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol

from adjudicator import hidden, interactions
from adjudicator.answers import Decisions
from adjudicator.catalogue import CardDef, Catalogue
from adjudicator.continuations import retiring
from adjudicator.decisions import BadAnswer, GameEnded, NeedDecision, Rejected
from adjudicator.events import Event
from adjudicator.log import Entry, Log
from adjudicator.history import PLAY, SURPRISE as SURPRISE_PLAYED, USE
from adjudicator.loops import EffectLoop
from adjudicator.movement import (
    DISCARD_PILE, DRAW, EFFECT, FINISH, GOALS_IN_PLAY, HAND, IN_FLIGHT, LIMIT, META_RULES, RULE, RULES, RULES_IN_PLAY,
    PILES, SETUP, TABLE, TEMP_HAND, TURN, Move, Zone, hand, table, zone_list, zone_of,
)
from adjudicator.mechanics.base import (
    ACTION, BASIC, CREEPER, DANGER, GOAL, KEEPER, META_RULE, RULE, SECRET, SURPRISE, UNGOAL, UNKNOWN,
)
from adjudicator.quantities import Figures
from adjudicator.responses import Windows
from adjudicator.state import State, TempHand, Window
from adjudicator.systems import KNOCK_OUTS, System, present
from adjudicator.variants import Variant, variant_for



class _Say(Protocol):
    def __call__(self, text: str, *cites: str, kind: str = "") -> None: ...


class _Choose(Protocol):
    def __call__(self, kind: str, by: str, prompt: str, options: list[Any], *, count: int | None = None,
                 minimum: int | None = None, chance: bool = False, cites: tuple[str, ...] = (),
                 fate: tuple[str, str] | None = None, recipients: tuple[str, ...] = ()) -> Any: ...


class _SeatOrder(Protocol):
    def __call__(self, skip_active: bool = False, start: str | None = None) -> list[str]: ...


class _WithEffect(Protocol):
    def __call__(self, effect: str, player: str | None = None) -> list[int]: ...


class _Limit(Protocol):
    def __call__(self, player: str | None = None) -> int | None: ...


class _NoteVictim(Protocol):
    def __call__(self, player: str, receiver: str, into_hand: bool = False) -> None: ...


class _OpenWindow(Protocol):
    def __call__(self, kind: str, card: int, player: str, before: State, counted: bool = False,
                 in_temp: bool = False, kept: bool = False) -> Window: ...



class _Atomic:
    """`Core.atomic`: the checkpoints asked for inside wait, and one is made at the end
    (unless the block raised)."""

    __slots__ = ("core",)

    def __init__(self, core: "Core"):
        self.core = core

    def __enter__(self) -> None:
        self.core._defer += 1

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        core = self.core
        if not retiring():              # (a retired run unwinding leaves the engine alone)
            core._defer -= 1
        if kind is None and core._defer == 0:
            core.checkpoint()


class Core:
    """The rules as they act on the table: the rules core. It owns the table as it now
    stands (`state`) and receives its parts: the explanation (`log`), decisions and
    their answers (`decisions`), the derived figures (`figures`), response windows
    (`windows`) and the variant of the game (`variant`, chosen by `variant_for` unless
    given). The mechanics' hooks receive the core itself, through the narrow interface
    `adjudicator.mechanics.api.RulesCore`: what the parts answer there (say, choose,
    num, plays_left...) is bound on the core once, so a hook reaches a part's answer
    in one step."""

    def __init__(self, catalogue: Catalogue, state: State, *, variant: Variant | None = None,
                 log: Log | None = None, decisions: Decisions | None = None, figures: Figures | None = None,
                 windows: Windows | None = None) -> None:
        self.cat = catalogue
        self.state = state
        self.variant = variant if variant is not None else variant_for(state)
        self.log = log if log is not None else Log(self)
        self.decisions = decisions if decisions is not None else Decisions(self)
        self.figures = figures if figures is not None else Figures(self)
        self.windows = windows if windows is not None else Windows(self)
        self._graph: interactions.InteractionGraph | None = None
        # the run under way (the driver saves and restores these with the parts' own)
        self._checking = False
        self._defer = 0
        self._dirty = False
        self._said_tie: frozenset[str] = frozenset()
        self._said_stall: set[tuple[int, str]] = set()
        self._claim_notes: list[tuple[str, str, tuple[str, ...]]] = []
        self._revealed: dict[tuple[int, str], int] = {}   # (unseen copy, card key) -> its revealed copy
        self._systems: tuple[list[CardDef], int, bool, tuple[System, ...]] | None = None
        self._unseen_known: tuple[list[CardDef], int, bool] | None = None
        # (the card definitions, their number, and whether a card of them replaces moves:
        # `transfer` asks at every move, and definitions only grow)
        self._movers: tuple[list[CardDef] | None, int, bool] = (None, 0, False)
        # (the run under way and the table it started from, set by the driver for a play or
        # a free action started from a settled table: see `table_before_action`)
        self._origin: tuple[State, State] | None = None
        # (the plays the last legal-events listing allowed: the table it judged them on,
        # the player, and the cards' keys; see `_event_play`)
        self._cleared: tuple[State, str, frozenset[str | None]] | None = None
        self._bind_parts()

    def _bind_parts(self) -> None:
        log, decisions, figures, windows = self.log, self.decisions, self.figures, self.windows
        self.say: _Say = log.say
        self.name: Callable[[int], str] = log.name
        self.names: Callable[[Iterable[int]], str] = log.names
        self.choose: _Choose = decisions.choose
        self.chance: Callable[[str, str, list[Any]], Any] = decisions.chance
        self.effect_shown: Callable[[], None] = decisions.effect_shown
        self.next_answer_is_mapping: Callable[[], bool] = decisions.next_answer_is_mapping
        self.num: Callable[[int, str], int] = figures.num
        self.seat_order: _SeatOrder = figures.seat_order
        self.rule_cards: Callable[[], list[int]] = figures.rule_cards
        self.with_effect: _WithEffect = figures.with_effect
        self.draw_rule: Callable[[], int] = figures.draw_rule
        self.draw_total: Callable[[str], int] = figures.draw_total
        self.play_quota: Callable[[str], tuple[str, int]] = figures.play_quota
        self.plays_left: Callable[[], int] = figures.plays_left
        self.plays_left_label: Callable[[], int | str] = figures.plays_left_label
        self.keeper_count: Callable[[str], int] = figures.keeper_count
        self.holdings: Callable[[], dict[str, frozenset[str]]] = figures.holdings
        self.showing: Callable[[str], list[int]] = figures.showing
        self.draws_owed: Callable[[], int] = figures.draws_owed
        self.hand_limit: _Limit = figures.hand_limit
        self.keeper_limit: _Limit = figures.keeper_limit
        self.agenda_size: Callable[[], int] = figures.agenda_size
        self.answering: Callable[[str], tuple[int, ...]] = figures.answering
        self.answering_in_front: Callable[[str], tuple[tuple[str, int], ...]] = figures.answering_in_front
        self.ruled: Callable[[str], Any] = figures.ruled
        self.play_bonus: Callable[[str], int] = figures.play_bonus
        self.inflation: Callable[[], int] = figures.inflation
        self.table_frozen: Callable[[], AbstractContextManager[None]] = figures.table_frozen
        self.open_game_action: Callable[[str, str, str], None] = windows.open_game_action
        self.record: Callable[[str, str, str], None] = windows.record
        self.open_window: _OpenWindow = windows.open_window
        self.note_victim: _NoteVictim = windows.note_victim
        self.surprise_out_of_turn: Callable[[str, Event], None] = windows.surprise_out_of_turn

    @property
    def entries(self) -> list[Entry]:
        """The explanation of the run under way (the log's lines)."""
        return self.log.entries

    @property
    def graph(self) -> interactions.InteractionGraph:
        """Which rules displace which (`interactions.InteractionGraph`), worked out once
        per catalogue from the mechanics' metadata, without networkx."""
        if self._graph is None:
            self._graph = interactions.graph_for(self.cat)
        return self._graph

    def systems(self) -> tuple[System, ...]:
        """The parts of the rules this game's cards use (`adjudicator.systems`). Card
        definitions only grow (an unseen card revealed), so the answer is kept until
        they do (or a player is knocked out)."""
        st = self.state
        memo = self._systems
        if memo is None or memo[0] is not st.defs or memo[1] != len(st.defs) or memo[2] != bool(st.eliminated):
            memo = self._systems = (st.defs, len(st.defs), bool(st.eliminated), present(st.defs, st.eliminated))
        return memo[3]

    def effect_loop(self, what: str) -> EffectLoop:
        """A bound for an effect that repeats a step (`adjudicator.loops`)."""
        return EffectLoop(self, what)

    def atomic(self) -> "_Atomic":
        """Treat everything inside as one atomic event: one checkpoint at the end."""
        return _Atomic(self)

    def checkpoint(self) -> None:
        if self._defer:
            self._dirty = True
            return
        self._dirty = False
        if self._checking:
            return
        self._checking = True
        try:
            st = self.state
            if st.game_over:
                return
            systems = self.systems()
            for system in systems:
                system.settle(self)
            defs = st.defs
            for p, k in self.answering_in_front("on_checkpoint"):
                if k in st.keepers[p]:
                    defs[k].impl.on_checkpoint(self, k, p)
            self.inflate_temp_hands()
            owed = self.draws_owed()
            passing: list[tuple[str, list[int], int]] = []
            sized = 0
            if owed:
                start = st.drawn == 0
                self.draw(st.active_player, owed, counted=True, passing=passing,
                          why="the Draw rule" if start else "the Draw rule now asks for more than was drawn this turn")
                sized = st.drawn
                extra = self.draw_total(st.active_player) - self.draw_rule()
                if start and extra > 0:
                    self.say(f"A bonus adds {extra} to {st.active_player}'s draws; the extra cards simply join the hand "
                             "and need not be the ones played.", "extra-draw-play-not-tied")
                if not start:
                    self.say(f"The draw count went up mid-turn, so {st.active_player} draws the difference at once; "
                             "a lower count would take nothing back.", "rule-draw-rule-raised-catch-up",
                             "rule-new-rule-immediate")
                    if self.hand_limit() is not None and self.play_quota(st.active_player)[0] == "all_but":
                        why = self._own_turn_hand_limit(st.active_player)
                        self.say(why[0].upper() + why[1:] + ".", "play-all-outranks-hand-limit-on-own-turn")
            if self.ruled("hand_limit") is not None or self.ruled("keeper_limit") is not None:
                for p in self.seat_order(skip_active=True):
                    self.comply_with_limits(p, when_played=True)
            for system in systems:
                system.after_limits(self)
            if sized:
                self._draw_was_sized(st.active_player, sized)
            if passing:
                self._passing_claims(passing)
            self.check_wins()
        finally:
            if not retiring():
                self._checking = False

    def eliminate(self, player: str, by: str) -> None:
        """Knock `player` out of the game: their hand and Keepers are discarded
        (`systems.KnockOuts`)."""
        KNOCK_OUTS.eliminate(self, player, by)

    def _event_deal(self) -> None:
        """The game's set-up (`deal: true`): three cards each, one at a time from the
        first player; first-round Creepers go on the table and are replaced; then the
        first turn begins. Run as an event, so a choice it raises waits for its answer."""
        st = self.state
        st.phase = "start"            # no turn has begun: nobody owes the Draw rule yet
        order = self.seat_order(start=st.active_player)
        for _ in range(3):
            for p in order:
                if not st.draw_pile and not self.reshuffle():
                    break
                st.move(st.draw_pile[0], st.draw_pile, st.hands[p])
        self.say(f"The Basic Rules go in the middle, and each player is dealt 3 cards one at a time from "
                 f"{st.active_player}; there is no Goal yet, so nobody can win until one is played.",
                 "rule-setup-deal-three", "rule-game-starts-without-goal")
        if st.solo:
            self.say("Solo Fluxx: the New Rules form their own Rules deck beside the Basic Rules, everything else is "
                     "the main deck, and the three cards come from the main deck.", "rule-solo-setup")
        for p in order:
            creepers = [c for c in st.hands[p] if st.defs[c].type == CREEPER]
            if creepers:
                for c in creepers:
                    self.place_in_front(p, c, hand(p), by=p)
                self.say(f"{p} was dealt {self.names(creepers)}: first-round Creepers go on the table and are "
                         "replaced.", "rule-first-round-creepers")
                self.draw(p, len(creepers), why="replacing first-round Creepers")
        st.turn_number = 0
        self.start_turn(st.active_player)

    def deal_in(self, player: str) -> None:
        self.draw(player, 3, why="a fresh hand")

    def move_to(self, card: int, to: str, by: str | None = None, cause: str = EFFECT) -> Move:
        """Move a Keeper or Creeper in play from its holder's table to `to`'s (`by`:
        the player making it happen); returns the move made, whose `src.player` is the
        old holder. A Creeper moved on its own leaves the Keeper it was attached to; a
        moved Keeper's attached Creepers follow it at the next checkpoint. Moved by a
        player other than its holder, not in a swap, it is a taking (`Move.takes`)."""
        owner = self.state.holder_of(card)
        self.detach(card)
        return self.transfer(card, table(to), by=by, src=table(owner), cause=cause)

    def steal(self, card: int, thief: str) -> Move:
        """`thief` takes a card from another player's table into their own: a taking,
        which It's A Trap! may answer. Returns the move made."""
        return self.move_to(card, thief, by=thief)

    def out_of_reach(self, player: str, by: str | None) -> list[int]:
        """The cards that keep `player`'s hand and table out of the reach of what `by`
        does (an effect `out_of_reach` on them: I'll Be In My Bunk leaves one until
        their next turn); empty when `by` may take from, give to or change what
        `player` has. Nobody is out of their own reach."""
        if player == by or not self.state.lasting:
            return []
        return self.with_effect(hidden.OUT_OF_REACH, player)

    def reachable(self, by: str, players: Iterable[str] | None = None, *, quiet: bool = False) -> list[str]:
        """The players (by default every player still in, in seat order from `by`)
        whose hands and tables an effect by `by` may take from, give to or change:
        the ones out of its reach are left out, and the verdict says so once (unless
        `quiet`: a check made before anything happens)."""
        order = self.seat_order(start=by) if players is None else list(players)
        if not self.state.lasting:
            return order
        out = []
        for p in order:
            why = self.out_of_reach(p, by)
            if not why:
                out.append(p)
            elif not quiet:
                hidden.say_out_of_reach(self, p, why)
        return out

    def lasting_effect(self, player: str, effect: str, card: int) -> None:
        """`card` leaves the static effect `effect` on `player` until their next turn
        begins (`with_effect(effect, player)` names `card` meanwhile)."""
        self.state.impose(player, effect, card)

    def pass_zones(self, passes: list[tuple[Zone, Zone]]) -> None:
        """Whole zones change places at once (Trade Hands, Rotate Hands): each pair is
        a zone and the zone that receives its cards (`State.pass_zones`). No card
        replaces a whole hand passing on."""
        st = self.state
        worn = [(a, b, [c for c in zone_list(st, a) if c in st.face_out]) for a, b in passes] if st.face_out else []
        st.pass_zones([(zone_list(st, a), zone_list(st, b)) for a, b in passes])
        for a, b, cards in worn:
            if cards and a.kind == HAND and b.kind == HAND:
                hidden.worn_goes_with_hand(self, cards, a, b)

    def shuffle(self, zone: Zone) -> None:
        """Shuffle a pile with the table's generator."""
        self.state.shuffle_zone(zone_list(self.state, zone))

    def detach(self, creeper: int) -> None:
        """A Creeper moved on its own leaves the Keeper it was attached to."""
        self.state.detach(creeper)

    def place_in_front(self, player: str, card: int, src: Zone | None = None, by: str | None = None) -> Move:
        """Put a Keeper or Creeper (from `src`, found when not given) in front of
        `player` and let it settle (its `on_placed`); returns the move made."""
        move = self.transfer(card, table(player), by=by, src=src)
        if move.dst.kind == TABLE and move.dst.player is not None and move.dst != move.src:
            self.state.defs[move.card].impl.on_placed(self, move.card, move.dst.player)
        return move

    def comply_with_limits(self, player: str, when_played: bool = False) -> None:
        """`player` meets the Hand Limit, then the Keeper Limit, as a turn's sequence
        has it; when both arrive at once off their turn (`when_played`), in the order
        they choose."""
        duties = self._limit_duties(player, when_played)
        if not duties:
            return
        if when_played and len(duties) > 1:
            self.in_order(player, self._limits_named(duties))
        else:
            for _, carry_out in duties:
                carry_out()

    def _limit_duties(self, player: str, when_played: bool) -> list[tuple[str, Callable[[], None]]]:
        """The Limits `player` is over, each as (its hook, meeting it). The rule's name,
        which only a choice of order shows, is looked up then (`_limits_named`)."""
        st = self.state
        duties: list[tuple[str, Callable[[], None]]] = []
        limit = self.hand_limit(player)
        if limit is not None and len(st.hands[player]) > limit:
            duties.append(("hand_limit", lambda: self._meet_hand_limit(player, when_played)))
        limit = self.keeper_limit(player)
        if limit is None:
            return duties
        front = st.keepers[player]
        # (fewer cards in front than the Limit: fewer Keepers too, and nothing to count)
        count = len([k for k in front if st.defs[k].type == KEEPER]) if len(front) >= limit else 0
        if (st.face_down or st.under) and count >= limit:
            hidden.explain_keeper_count(self, player, limit, count)
        if count > limit:
            duties.append(("keeper_limit", lambda: self._meet_keeper_limit(player, when_played)))
        return duties

    def _limits_named(self, duties: list[tuple[str, Callable[[], None]]]) -> list[tuple[str, Callable[[], None]]]:
        """`_limit_duties` with each hook replaced by the name of the Limit in force."""
        return [(self._limit_name(hook), carry_out) for hook, carry_out in duties]

    def _limit_name(self, hook: str) -> str:
        rule = next((r for r in self.answering(hook) if getattr(self.state.defs[r].impl, hook)(self, r) is not None),
                    None)
        return self.name(rule) if rule is not None else hook.replace("_", " ").title()

    def in_order(self, player: str, duties: list[tuple[str, Callable[[], None]]], *cites: str,
                 kept: tuple[str, ...] = ()) -> None:
        """Carry out `duties` that fall on `player` at one moment: in the order they
        choose when there are several (format 1.2, item 3: a decision of kind `order`,
        answered with the duties' names; unanswered, the order given is taken and said).
        The duties named in `kept` keep their order among themselves (the turn's
        sequence: the Hand Limit before the Keeper Limit)."""
        if len(duties) > 1:
            labels = [label for label, _ in duties]
            chosen = self.decisions.order(player, labels, (*cites, "limit-discard-choice"), kept)
            fixed = [label for label in labels if label in kept]
            if [label for label in chosen if label in kept] != fixed:
                raise BadAnswer(f"the turn's sequence meets {' before '.join(fixed)}; only the other duties of the "
                                f"moment may come before, between or after them", forbidden=True)
            how = "as chosen" if chosen != labels else "in the order given, unless another was chosen"
            self.say(f"{player} has {len(labels)} things to see to at this one moment and chooses their order "
                     f"({how}): {', then '.join(chosen)}.", *cites, "limit-discard-choice")
            by_label = dict(duties)
            duties = [(label, by_label[label]) for label in chosen]
        for _, carry_out in duties:
            carry_out()

    def _limit_cites(self, player: str, when_played: bool) -> tuple[str, ...]:
        """The rulings behind meeting a Limit: at the turn's end, or at once off turn;
        and at once before anything else when this step took away a card of theirs
        that raised their Limits."""
        if not when_played:
            return ("rule-turn-sequence", "rule-limits-only-off-turn")
        origin = self._origin
        if origin is not None and origin[0] is self.state:
            before, now = origin[1], self.state.keepers[player]
            if any("limit_bonus" in before.defs[k].impl.overridden and k not in now for k in before.keepers[player]):
                return ("rule-new-limit-immediate-compliance", "lost-limit-raiser-discard-before-anything-else")
        return ("rule-new-limit-immediate-compliance",)

    def _meet_hand_limit(self, player: str, when_played: bool) -> None:
        st = self.state
        limit = self.hand_limit(player)
        hand = st.hands[player]
        if limit is not None and len(hand) > limit:
            n = len(hand) - limit
            cites = self._limit_cites(player, when_played)
            picked = self.choose("discard", player, f"{player} holds {len(hand)} cards over a Hand Limit of {limit}: "
                                 f"discard {n}", list(hand), count=n, cites=(*cites, "limit-discard-choice"),
                                 fate=("is discarded", "stays in hand"))
            held = Zone(HAND, player)
            for c in picked:
                self.discard(c, player, cause=LIMIT, src=held)
            self.say(f"{player} is over the Hand Limit of {limit} and discards {self.names(picked)}.",
                     *cites, "limit-discard-choice", "hand-limit-is-cap",
                     *(("out-of-turn-activity",) if when_played else ()))

    def _meet_keeper_limit(self, player: str, when_played: bool) -> None:
        st = self.state
        limit = self.keeper_limit(player)
        keepers = [k for k in st.keepers[player] if st.defs[k].type == KEEPER] if limit is not None else []
        if limit is not None and len(keepers) > limit:
            n = len(keepers) - limit
            cites = self._limit_cites(player, when_played)
            picked = self.choose("discard_keepers", player, f"{player} has {len(keepers)} Keepers over a Keeper Limit of "
                                 f"{limit}: discard {n}", keepers, count=n, cites=(*cites, "limit-discard-choice"),
                                 fate=("is discarded", "stays in play"))
            for c in picked:
                self.discard(c, player, cause=LIMIT, src=table(player))
            extra = ("creepers-no-limit",) if any(st.defs[k].type == CREEPER for k in st.keepers[player]) else ()
            self.say(f"{player} is over the Keeper Limit of {limit} and discards {self.names(picked)}.",
                     *cites, "limit-discard-choice", *extra)

    def blocked(self, player: str, goal: int) -> bool:
        """A Creeper in front of `player` stops them meeting `goal` (unless the Goal
        needs it), and so does one in front of anyone that blocks every player."""
        return next(self._blocking(player, goal), None) is not None

    def blockers(self, player: str, goal: int) -> list[tuple[str, int]]:
        """(holder, Creeper) for every Creeper that stops `player` meeting `goal`, as
        `blocked` finds them (a read-only query for verdicts: who is stopped by what)."""
        return list(self._blocking(player, goal))

    def _blocking(self, player: str, goal: int) -> Iterator[tuple[str, int]]:
        st = self.state
        needed = st.defs[goal].impl.requires(self, goal)
        for p in st.players:
            for k in st.keepers[p]:
                d = st.defs[k]
                if d.type != CREEPER or d.name in needed or self._block_lifted(k):
                    continue
                if p == player and d.impl.blocks_win(self, k, player, goal):
                    yield p, k
                elif d.impl.blocks_everyone(self, k, p, goal):
                    yield p, k

    def _block_lifted(self, creeper: int) -> bool:
        """Whether a rule in force stops `creeper` blocking wins."""
        defs = self.state.defs
        return any(defs[r].impl.lifts_block(self, r, creeper) for r in self.answering("lifts_block"))

    def goal_claims(self) -> tuple[dict[str, list[int]], list[int]]:
        """Who meets which Goal in play now (after rules that narrow who may win), and
        the Ungoals that are met. Changes nothing."""
        st = self.state
        defs = st.defs
        met: dict[str, list[int]] = {}
        ungoals = [g for g in st.goals if defs[g].type == UNGOAL and defs[g].impl.winners(self, g)]
        for g in st.goals:
            d = defs[g]
            if d.type == UNGOAL:
                continue
            for p in d.impl.winners(self, g):
                if p not in st.eliminated:
                    met.setdefault(p, []).append(g)
        self._claim_notes = []
        for p, k in self.answering_in_front("claims"):
            met = defs[k].impl.claims(self, k, p, met)
        for r in self.answering("filter_winners"):
            met = defs[r].impl.filter_winners(self, r, met)
        return met, ungoals

    def claim_note(self, player: str, text: str, *cites: str) -> None:
        """Explain a claim on a Goal that a card made (said if that player wins)."""
        self._claim_notes.append((player, text, cites))

    def check_wins(self) -> None:
        st = self.state
        if st.game_over:
            return
        met, ungoals = self.goal_claims()
        if st.face_down and st.goals:
            notes = self._claim_notes        # (the what-if asks the claims again)
            hidden.face_down_meets_no_goal(self, met)
            self._claim_notes = notes
        if ungoals and met:
            # winning and losing at the same moment settles nothing: a tie, and play goes on
            key = frozenset(met) | {"ungoal"}
            if key != self._said_tie:
                self._said_tie = key
                who = "; ".join(f"{p} meets {self.names(goals)}" for p, goals in sorted(met.items()))
                self.say(f"The Ungoal {self.names(ungoals)} is met at the same moment as a Goal ({who}): winning and "
                         "losing at once is no clear result, so it is handled like a tie: nobody wins, nobody loses, "
                         "and play goes on until one player alone wins.",
                         "goal-and-ungoal-met-together-game-goes-on", "rule-tie-game-continues", "rule-ungoal-all-lose")
            return
        if ungoals:
            st.everyone_loses = True
            lifted = [r for r in self.answering("lifts_block")]
            self.say(f"The Ungoal {self.names(ungoals)} is met: the game ends at once and every player loses.",
                     "rule-ungoal-all-lose")
            if lifted:
                self.say(f"{self.names(lifted)} stops Creepers from keeping anyone from winning a Goal; it says "
                         "nothing of Ungoals, which still go off.", "creepers-harmless-rule-leaves-ungoal-active")
            raise GameEnded()
        if met and self.variant.score(self, met):
            return
        if len(met) == 1:
            (player, goals), = met.items()
            st.winner = player
            whose = "" if player == st.active_player else f", even though it is {st.active_player}'s turn"
            for who, text, cites in self._claim_notes:
                if who == player:
                    self.say(text, *cites)
            extra = [c for g in goals for c in st.defs[g].impl.win_cites(self, g)]
            self.say(f"{player} meets {self.names(goals)} and wins at once{whose}.", "rule-win-instantly-any-turn", *extra,
                     kind="win")
            raise GameEnded()
        elif len(met) > 1:
            key = frozenset(met)
            if key != self._said_tie:
                self._said_tie = key
                self.say(f"{' and '.join(sorted(met))} meet the Goal at the same moment: a tie, so nobody wins "
                         "yet and play goes on.", "rule-tie-game-continues")
        for g in st.goals:
            impl = st.defs[g].impl
            why = impl.why_nobody_wins(self, g) if "why_nobody_wins" in impl.overridden else None
            if why and (g, why[0]) not in self._said_stall:
                self._said_stall.add((g, why[0]))
                self.say(why[0], *why[1:])

    def _draw_was_sized(self, player: str, drawn: int) -> None:
        """A card laid down during the turn's draw (a Creeper drawn partway) may have
        lowered what the Draw rule and bonuses give: the draw already made stands."""
        now = self.draw_total(player)
        if now < drawn:
            self.say(f"{player}'s draw now comes to {now}, but its size was fixed when the draw began: the "
                     f"{drawn} cards drawn stay drawn, and a later rise is counted against {drawn}.",
                     "draw-allotment-fixed-when-draw-begins")

    def _passing_claims(self, passing: list[tuple[str, list[int], int]]) -> None:
        """Goals a player met for a moment partway through the turn's draw (a Creeper
        laid down before the rest was drawn) that the finished draw no longer gives them."""
        met, _ = self.goal_claims()
        said: set[str] = set()
        for player, goals, creeper in passing:
            if player in said or (list(met) == [player] and set(goals) <= set(met[player])):
                continue
            said.add(player)
            self.say(f"When {self.name(creeper)} was laid down partway through the draw, {player} met "
                     f"{self.names(goals)} for a moment; but the draw is one event and winners are looked for "
                     "only once it is complete.", "complete-the-draw-before-checking-a-win")

    def reshuffle(self) -> bool:
        """The draw pile is empty: shuffle the discard pile into a new one."""
        st = self.state
        self.variant.deck_ran_out(self)
        if not st.discard:
            return False
        cards = list(st.discard)
        st.rng.shuffle(cards)
        if st.reshuffle_order:
            ordered = []
            for key in st.reshuffle_order:
                for c in cards:
                    if st.defs[c].key == key and c not in ordered:
                        ordered.append(c)
                        break
            st.reshuffle_order = []
            cards = ordered + [c for c in cards if c not in ordered]
        st.move_run(cards, st.discard, st.draw_pile)
        self.say(f"The draw pile is empty: the discard pile ({len(cards)} cards) is shuffled into a new draw pile.",
                 "rule-reshuffle-discard-pile")
        return True

    def draw(self, player: str, n: int, *, into: list[int] | None = None, counted: bool = False,
             why: str = "", bonus: bool = False, passing: list[tuple[str, list[int], int]] | None = None) -> list[int]:
        """Draw `n` non-Creeper cards for `player` (into their hand, or `into`). Creepers
        drawn go straight to the table in front of them and another card is drawn. With
        `passing`, the Goals someone meets for a moment as a Creeper is laid down before
        the draw is over are collected there (player, Goals, Creeper)."""
        st = self.state
        got: list[int] = []
        creepers: list[int] = []
        while len(got) < n:
            if not st.draw_pile:
                if not self.reshuffle():
                    self.say(f"There is nothing left to draw (draw and discard piles are empty): {player} draws "
                             f"{len(got)} of {n}.", "no-cards-left-to-draw")
                    break
                if counted:
                    self.say(f"The draw is finished before anything is played: {player} draws the "
                             f"{n - len(got)} still owed from the new pile.", "finish-draw-phase-before-any-play")
            c = st.draw_pile[0]
            if st.defs[c].type == CREEPER:
                self.place_in_front(player, c, DRAW, by=player)
                creepers.append(c)
                if passing is not None:
                    passing.extend((p, goals, c) for p, goals in self.goal_claims()[0].items())
                continue
            st.move(c, st.draw_pile, st.hands[player] if into is None else into)
            got.append(c)
            if counted:
                st.drawn += 1
        if got or creepers:
            text = f"{player} draws {len(got)} card{'s' if len(got) != 1 else ''}"
            if why:
                text += f" ({why})"
            self.say(text + ".")
        if creepers:
            self.say(f"{player} drew the Creeper{'s' if len(creepers) > 1 else ''} {self.names(creepers)}: "
                     "it goes face up in front of them at once and is replaced by another draw; that is not a play.",
                     "rule-creeper-drawn-auto-play", "rule-creeper-placement")
            self.checkpoint()
        return got

    # -- moving cards: every move a rule makes goes through the cards' replacement
    # effects first (adjudicator.movement) -------------------------------------
    def transfer(self, card: int, dst: Zone, *, by: str | None = None, cause: str = EFFECT, src: Zone | None = None,
                 top: bool | None = None) -> Move:
        """Move `card` (from `src`, found when not given) to `dst` for the rules, as
        the cards in force let it happen (`replaced`); returns the move made."""
        st = self.state
        if src is None:
            src = zone_of(st, card)
        move = Move(card, src, dst, by, cause, dst.kind in PILES if top is None else top)
        # (the cards are asked only in a game where one of them, or the variant, replaces moves: see `replaced`)
        defs, movers = st.defs, self._movers
        if movers[0] is not defs or movers[1] != len(defs):
            movers = self._movers = (defs, len(defs), bool(self.figures.hook_cards("replace_move")))
        if movers[2] or self.variant.replaces_moves:
            move = self._replace(move)
            src, dst = move.src, move.dst
        if st.lasting and dst != src and hidden.shielded(self, move):
            return move.instead(dst=src)           # (a player out of reach: it does not happen)
        kind = src.kind
        riders = ([c for c, k in st.attachments.items() if k == move.card]
                  if st.attachments and kind == TABLE and dst != src else [])
        if (kind == RULES or kind == META_RULES) and dst.kind not in (RULES, META_RULES):
            self._rule_leaves(move.card, by or st.active_player, lift=True, to=move)
        else:
            self._carry(move)
        if kind == TABLE:
            if st.face_down and move.card in st.face_down and dst.kind == TABLE and src.player != dst.player:
                hidden.face_down_moved(self, move)
            if move.takes:
                # a taking, by whatever card: what answers a taking answers it (It's A Trap!)
                assert src.player is not None and dst.player is not None
                self.note_victim(src.player, dst.player, dst.kind == HAND)
        if riders:
            self._riders_go_along(move, riders)
        return move

    def _riders_go_along(self, move: Move, riders: list[int]) -> None:
        """The Creepers attached to a Keeper that moved go with it in the same move:
        in front of its new holder, or out of play with it; a Keeper gone into a hand
        leaves them on the table (`_riders_stay_on_the_table`)."""
        st = self.state
        src = move.src.player
        assert src is not None
        if move.dst.kind == HAND:
            self._riders_stay_on_the_table(move, riders)
        elif move.dst.kind == TABLE:
            assert move.dst.player is not None
            for creeper in riders:
                if creeper in st.keepers[src]:
                    self.transfer(creeper, table(move.dst.player), by=move.by, src=table(src))
            self.say(f"{self.names(riders)} stays attached to {self.name(move.card)} and moves with it to "
                     f"{move.dst.player}.", "attached-pair-discarded-together")
        else:
            for creeper in riders:
                st.detach(creeper)
                if creeper in st.keepers[src]:
                    self.discard(creeper, move.by, src=table(src))
            self.say(f"{self.name(move.card)} left play, so the {self.names(riders)} attached to it is discarded "
                     "with it.", "attached-pair-discarded-together")

    def _riders_stay_on_the_table(self, move: Move, riders: list[int]) -> None:
        """A Keeper that went into a hand leaves its attached Creepers behind, which
        cannot be held: they go in front of the player whose hand it went into, on
        their own (the attaching ones then attach there if they can)."""
        st = self.state
        to = move.dst.player
        assert to is not None and move.src.player is not None
        for creeper in riders:
            st.detach(creeper)
            self.transfer(creeper, table(to), by=move.by, src=table(move.src.player))
        self.say(f"{self.names(riders)} was attached to {self.name(move.card)}, which went into {to}'s hand: a "
                 f"Creeper is never held, so it goes in front of {to} instead.", "zap-a-card-on-an-attached-pair",
                 "beamed-up-creeper-put-back-down")

    def _carry(self, move: Move) -> None:
        """Make `move` (already past the replacement effects) on the table; the cards
        lying under the card go along (`hidden.pile_goes_along`)."""
        st = self.state
        if st.under and move.card in st.under:
            hidden.pile_goes_along(self, move)
        st.move(move.card, zone_list(st, move.src), zone_list(st, move.dst), move.top)

    def replaced(self, move: Move) -> Move:
        """`move` as it happens once every card in force has had its say: each card
        whose mechanic answers `replace_move` (rules, then cards in front of players,
        then the moving card itself wherever it is, then the game's variant) may
        replace it, once per move; a replaced move is shown to the others again."""
        if not self.variant.replaces_moves and not self.figures.hook_cards("replace_move"):
            return move                                 # (no card of this game replaces moves)
        return self._replace(move)

    def _replace(self, move: Move) -> Move:
        """`replaced`, in a game where a card or the variant can replace moves."""
        st = self.state
        defs = st.defs
        variant = self.variant if self.variant.replaces_moves else None
        if not self.figures.hook_cards("replace_move"):
            rules: tuple[int, ...] = ()
            front: tuple[tuple[str, int], ...] = ()
        else:
            rules, front = self.answering("replace_move"), self.answering_in_front("replace_move")
        own = "replace_move" in defs[move.card].impl.overridden and move.card not in st.face_down
        if not rules and not front and not own and variant is None:
            return move
        asked: list[tuple[int, str | None]] = [(r, None) for r in rules] + [(k, p) for p, k in front]
        used: set[int] = set()
        while True:
            candidates = asked + ([(move.card, st.owner_of_keeper(move.card))]
                                  if "replace_move" in defs[move.card].impl.overridden and move.card not in st.face_down
                                  else [])
            for card, holder in candidates:
                if card in used:
                    continue
                other = defs[card].impl.replace_move(self, card, holder, move)
                if other is not None and other != move:
                    used.add(card)
                    move = other
                    break
            else:
                if variant is not None and -1 not in used:
                    other = variant.replace_move(self, move)
                    if other is not None and other != move:
                        used.add(-1)
                        move = other
                        continue
                return move

    def discard(self, card: int, by: str | None = None, *, cause: str = EFFECT, src: Zone | None = None) -> Move:
        """Put `card` on the discard pile from wherever it is (a hand, a table, the
        rules, the Goals, a pile, the cards being resolved), unless a card in force
        sends it elsewhere; returns the move made. A New Rule that leaves play stops
        applying at once, and the Goals are trimmed if it held a Goal slot open."""
        return self.transfer(card, DISCARD_PILE, by=by, cause=cause, src=src)

    def discard_each(self, cards: list[int], by: str | None, *, src: Zone, cause: str = EFFECT) -> None:
        """Discard each of `cards` from `src` in turn, passing over any that an earlier
        discard has already taken along (a Creeper attached to a Keeper goes with it)."""
        for c in cards:
            if c in zone_list(self.state, src):
                self.discard(c, by, cause=cause, src=src)

    def take_into_hand(self, card: int, player: str, by: str | None = None, *, cause: str = EFFECT,
                       src: Zone | None = None) -> Move:
        """`player` takes `card` into their hand from wherever it is (off a table: a
        taking), unless a card in force sends it elsewhere."""
        return self.transfer(card, hand(player), by=by, cause=cause, src=src)

    def remove_rule(self, card: int, by: str, to: list[int] | None = None) -> None:
        """Take a New Rule out of play to the top of the discard pile (or to the end of
        `to`: the zone of cards being resolved, when the caller places it); it stops
        applying at once (its `on_leave`), and the Goals are trimmed if it held a Goal
        slot open."""
        st = self.state
        if to is None:
            move = self.replaced(Move(card, RULES_IN_PLAY, DISCARD_PILE, by, EFFECT, True))
            self._rule_leaves(card, by, lift=False, to=move)
        else:
            st.move(card, st.rules, to)
            st.defs[card].impl.on_leave(self, card, by)
            self.trim_goals(by)

    def _rule_leaves(self, card: int, by: str, lift: bool, to: Move) -> None:
        """A rule leaves play for where the move `to` takes it: lifted first (it stops
        applying, and the Goals are trimmed, before it lands), or straight there (the
        Goals trimmed after)."""
        st = self.state
        if st.under and card in st.under:
            hidden.pile_goes_along(self, to)
        src = zone_list(st, Zone(to.src.kind))
        if lift:
            st.move(card, src, st.resolving)
            src = st.resolving
        else:
            st.move(card, src, zone_list(st, to.dst), to.top)
        st.defs[card].impl.on_leave(self, card, by)
        self.trim_goals(by)
        if lift:
            st.move(card, src, zone_list(st, to.dst), to.top)

    def discard_rules(self, rules: list[int], by: str) -> None:
        """Discard several New Rules as one atomic event."""
        with self.atomic():
            for r in list(rules):
                self.remove_rule(r, by=by)

    def trim_goals(self, by: str) -> None:
        st = self.state
        while len(st.goals) > self.agenda_size():
            goal = self.choose("card", by, f"too many Goals for the Goal slots: {by} picks the Goal that goes",
                               list(st.goals), cites=("double-agenda-removed-choice",), fate=("goes", "stays"))
            self.discard(goal, by, cause=RULE, src=GOALS_IN_PLAY)
            self.say(f"With fewer Goal slots, {by} chooses which Goal goes: {self.name(goal)} goes to the discard pile; "
                     f"{self.names(st.goals)} {'stays' if len(st.goals) == 1 else 'stay'}.",
                     "double-agenda-removed-choice")

    def place_rule(self, card: int, by: str) -> None:
        st = self.state
        old, why = self.variant.rules_displaced(self, card)
        key = st.defs[card].key
        same = [r for r in old if self.graph.same_job(key, st.defs[r].key)]
        if same:
            return self._replace_same_rule(card, same, by)
        with self.atomic():
            st.move(card, st.resolving, st.rules)
            if old:
                for r in old:
                    self._carry(self.replaced(Move(r, RULES_IN_PLAY, DISCARD_PILE, by, RULE, True)))
                    st.defs[r].impl.on_leave(self, r, by)
                decided = ({self.graph.replace_ruling(st.defs[card].key, st.defs[r].key) for r in old} | set(why)) - {""}
                self.say(f"{self.name(card)} contradicts {self.names(old)}, which is discarded.",
                         *sorted(decided), "rule-new-rule-replaces-contradicting", "new-rule-coexist-or-replace")
            else:
                others = [r for r in st.rules if r != card]
                if others:
                    self.say(f"{self.name(card)} governs nothing the rules in play govern, so it joins them.",
                             "new-rule-coexist-or-replace")
            slots = self.graph.slots_of(st.defs[card].key)
            if slots & {"draw", "play", "hand_limit", "keeper_limit"}:
                self.say(f"{self.name(card)} takes precedence over that part of the Basic Rules, which stay on the table.",
                         "new-rule-supersedes-basic-rules", "rule-basic-rules-never-discarded")
            st.defs[card].impl.on_enter(self, card, by)
            self.trim_goals(by)

    def _replace_same_rule(self, card: int, same: list[int], by: str) -> None:
        """A New Rule that is the same rule as one in play (a copy, an alias, another
        edition's analogue) takes its place: the old copy is discarded and nothing else
        changes, since the rules in force are what they were; the play is still used."""
        st = self.state
        with self.atomic():
            for r in same:
                self._carry(self.replaced(Move(r, RULES_IN_PLAY, DISCARD_PILE, by, RULE, True)))
            st.move(card, st.resolving, st.rules)
            old = self.names(same)
            how = "a copy of" if all(st.defs[r].key == st.defs[card].key for r in same) else "the same rule as"
            self.say(f"{self.name(card)} is {how} {old}, already in play: it replaces it, {old} is discarded, and "
                     "nothing else changes (no Goal leaves, nothing is drawn again); the play is still used.",
                     "same-rule-replaces", "rule-new-rule-replaces-contradicting")

    def place_goal(self, card: int, by: str) -> None:
        st = self.state
        with self.atomic():
            slots = self.agenda_size()
            if st.defs[card].type == UNGOAL or any(st.defs[g].type == UNGOAL for g in st.goals):
                self.say("An Ungoal is handled like a Goal; the rulebook does not say whether it takes a Goal's place, "
                         "so the engine, reading it as a Goal, lets it fill and replace Goal slots like any Goal.",
                         "rule-ungoal-all-lose")
            if len(st.goals) < slots:
                if st.goals:
                    self.say(f"A Goal slot is empty, so {self.name(card)} fills it beside {self.names(st.goals)}; "
                             "putting it there was an ordinary play.", "double-agenda-fill-slot", "double-agenda-no-free-goal")
                st.move(card, st.resolving, st.goals)
            else:
                if slots == 1:
                    old = list(st.goals)
                else:
                    old = [self.choose("card", by, f"{by} picks which Goal {self.name(card)} replaces", list(st.goals),
                                       fate=("is replaced", "stays"))]
                for g in old:
                    self.discard(g, by, cause=RULE, src=GOALS_IN_PLAY)
                st.move(card, st.resolving, st.goals)
                self.say(f"{self.name(card)} replaces {self.names(old)}, which is discarded.", "rule-goal-replaces-goal")

    def find_in_hand(self, player: str, key: str, copy: int | None = None) -> int | None:
        """The card of that title in `player`'s hand (the `copy`-th copy, when named)."""
        st = self.state
        if copy is not None:
            wanted = st.copy_of(key, copy)
            return wanted if wanted in st.hands[player] else None
        for c in st.hands[player]:
            if st.defs[c].key == key:
                return c
        return None

    def play_card(self, player: str, card: int, src: Zone, *, counted: bool, how: str = "",
                  before: State | None = None) -> None:
        """Put `card` from the zone `src` (a hand, a pile...) into play for `player` and
        resolve it. It opens a response window holding `before`, the table just before
        the play; by default the table once the card has left `src` (a card an Action
        takes and plays was already out of its owner's reach when it was played)."""
        st = self.state
        d = st.defs[card]
        in_temp = bool(st.temp_hands)
        if counted:
            if st.temp_hands:
                st.temp_hands[-1].made += 1
            else:
                st.played += 1
        self.say(f"{player} plays {self.name(card)}{how}.",
                 *(("surprise-in-turn-is-play",) if d.type == SURPRISE and counted else ()))
        self.transfer(card, IN_FLIGHT, by=player, src=src)      # in flight until placed or resolved
        self.open_window("play", card, player, before if before is not None else st.snapshot(), counted, in_temp)
        # the card has left where it was before any of its effect: a win that its leaving
        # makes (10 Cards in Hand) happens now, before a trade or a steal it would cause
        try:
            self.checkpoint()
        except GameEnded:
            if st.winner is not None:
                self.say(f"{d.name} left {player}'s hand before doing anything, and the win came at that instant: "
                         f"{d.name} is never carried out.", "played-card-leaves-hand-first")
            raise
        if d.type in (KEEPER, CREEPER):
            self.place_in_front(player, card, IN_FLIGHT, by=player)
            self.say(f"{d.name} goes face up in front of {player}.", "rule-keeper-placement")
            limit = self.keeper_limit(player)
            if player == st.active_player and (limit is None or self.keeper_count(player) > limit):
                why = ("no Keeper Limit is in play, so there is no cap" if limit is None else
                       f"the Keeper Limit of {limit} only binds {player} once the turn is over")
                n = self.keeper_count(player)
                self.say(f"{player} now has {n} Keeper{'s' if n != 1 else ''}: {why}.", "keepers-unlimited-without-limit")
            self.checkpoint()
        elif d.type in (GOAL, UNGOAL):
            self.place_goal(card, player)
        elif d.type == RULE:
            self.place_rule(card, player)
        elif d.type == META_RULE:
            st.move(card, st.resolving, st.meta_rules)
            self.say(f"{d.name} is a Meta Rule: it goes into force and stays until the game ends.", "rule-meta-rules-persist")
            d.impl.on_enter(self, card, player)
            self.checkpoint()
        elif d.type == SECRET:
            self.discard(card, player, cause=FINISH, src=IN_FLIGHT)
            self.checkpoint()
        elif d.type in (ACTION, DANGER, SURPRISE):
            if d.type == SURPRISE:
                self.say(f"{d.name} played as a card {'on ' + player + chr(39) + 's' if counted else 'this way'} turn "
                         "uses its in-turn side.", "rule-surprise-two-functions",
                         *(() if counted else ("mystery-play-surprise-too-late",)))
            d.impl.play(self, card, player)
            self.finish_action(card, player)
            self.checkpoint()
        else:
            st.move(card, st.resolving, zone_list(st, src))
            raise Rejected(f"{d.name} is a {d.type.replace('_', ' ')} and cannot be played from a hand")

    def finish_action(self, card: int, by: str | None = None) -> None:
        """An Action `by` played is done (unless a temporary hand it opened is still in
        use): it goes to the discard pile, unless a card in force sends it elsewhere."""
        st = self.state
        if card in st.resolving and not any(t.source == card for t in st.temp_hands):
            move = self.transfer(card, DISCARD_PILE, by=by, cause=FINISH, src=IN_FLIGHT)
            if move.discards:
                self.say(f"{self.name(card)} goes to the discard pile.", "rule-action-discard-after-use")

    def open_temp_hand(self, player: str, source: int, draw_param: str = "draw", play_param: str = "play") -> TempHand:
        """Set `player`'s hand aside and draw the number `source` prints under
        `draw_param` into a temporary hand, of which the number under `play_param` must
        be played. Both stay tied to the card: a rule that changes numbers while the
        hand is open changes them at once (`inflate_temp_hands`)."""
        st = self.state
        draw, plays = self.num(source, draw_param), self.num(source, play_param)
        frame = TempHand(player, source, [], plays, drawn=draw, params=(draw_param, play_param))
        st.add_frame(frame)
        self.draw(player, draw, into=frame.cards, why=f"into a temporary hand for {self.name(source)}")
        self.say(f"{player} sets their hand aside; {len(frame.cards)} card(s) in the temporary hand: "
                 f"{self.names(frame.cards)}; {plays} of them must be played, and all of it is one play.",
                 "rule-action-whole-effect-one-play", "rule-nested-action-example", "rule-d3p2-creeper-redraw")
        self.close_finished_temp_hands()
        return frame

    def inflate_temp_hands(self) -> None:
        """Numbers changed while a temporary hand is open (Inflation played from it):
        the Action in progress reads its card again. A higher draw is topped up into the
        temporary hand at once and a higher play count adds plays; a lower draw takes
        nothing back."""
        st = self.state
        if not st.temp_hands:
            return
        for frame in list(st.temp_hands):
            draw_param, play_param = frame.params
            if not draw_param:
                continue
            draw, plays = self.num(frame.source, draw_param), self.num(frame.source, play_param)
            if draw > frame.drawn:
                more = draw - frame.drawn
                frame.drawn = draw
                self.say(f"{self.name(frame.source)} now reads draw {draw}: {frame.owner} draws {more} more into its "
                         "temporary hand at once.", "inflation-inflates-action-in-progress")
                self.draw(frame.owner, more, into=frame.cards, why=f"the rest of {self.name(frame.source)}")
            if plays != frame.plays:
                self.say(f"{self.name(frame.source)} now reads play {plays}: {frame.plays} play(s) become {plays}.",
                         "inflation-inflates-action-in-progress")
                if plays < frame.plays:
                    self.say("Our material is silent on a number lowered while its Action is being carried out; the "
                             "engine lowers the plays still owed from the temporary hand and takes back no card drawn.")
                frame.plays = plays

    def close_finished_temp_hands(self) -> None:
        st = self.state
        while st.temp_hands:
            frame = st.temp_hands[-1]
            # an unseen card ('?') can still be revealed and played (format 1.1, item 2)
            playable = list(frame.cards)
            if frame.made < frame.plays and playable and st.phase == "play" and not st.game_over:
                return
            self._close_frame(frame)

    def _close_frame(self, frame: TempHand, turn_end: bool = False) -> None:
        st = self.state
        left = list(frame.cards)
        index = st.temp_hands.index(frame)
        for c in left:
            self.discard(c, frame.owner, cause=TURN, src=Zone(TEMP_HAND, frame.owner, index))
        st.drop_frame(frame)
        if left:
            if turn_end:
                self.say(f"The turn ended inside {self.name(frame.source)}: the unplayed {self.names(left)} "
                         "are discarded, never returned to the hand.", "turn-end-inside-d3p2", "play-all-vs-turn-end")
            else:
                self.say(f"{self.name(frame.source)} is done: the unplayed {self.names(left)} are discarded.",
                         "rule-nested-action-example")
        if frame.source in st.resolving:
            self.finish_action(frame.source, frame.owner)

    def first_play_is_random(self) -> bool:
        st = self.state
        if st.temp_hands or st.played or st.phase != "play" or not self.with_effect("first_play_random"):
            return False
        kind, n = self.play_quota(st.active_player)
        many = (kind == "n" and n > 1) or (kind == "all_but" and len(st.hands[st.active_player]) - n > 1)
        return many and len(st.hands[st.active_player]) > 1

    def _play_refusal(self, player: str, d: CardDef) -> Rejected | None:
        """Why `player` may not play `d` now, judged before anything happens (None: the
        play goes ahead). `_event_play` and the legal-events list ask the same question
        (`_play_refusals`)."""
        return self._play_refusals(player, [d])[0]

    def _play_refusals(self, player: str, cards: list[CardDef]) -> list[Rejected | None]:
        """`_play_refusal` for each of `cards`: the same checks in the same order for
        every card, what does not depend on the card (whose turn it is, the plays left)
        worked out once for all of them, and a refusal that does not name the card
        shared by all the cards it refuses."""
        st = self.state
        if player != st.active_player:
            why = (f"{st.active_player} still has plays to make" if self.plays_left() > 0 or st.temp_hands else
                   f"the turn passes to {self.next_player()}, not {player}")
            refused: dict[bool, Rejected] = {}
            for d in cards:
                surprise = d.type == SURPRISE
                if surprise not in refused:
                    hint = " (to use a Surprise out of turn, write `surprise:`)" if surprise else ""
                    refused[surprise] = Rejected(
                        f"it is {st.active_player}'s turn, and {player} cannot play a card now{hint} ({why}); off "
                        "their turn players only make the choices the rules ask of them", "rule-play-clockwise",
                        ("out-of-turn-activity",))
            return [refused[d.type == SURPRISE] for d in cards]
        frame = st.temp_hands[-1] if st.temp_hands else None
        held = {st.defs[c].key for c in (frame.cards if frame is not None else st.hands[player])}
        left: int | None = None
        no_play: Rejected | None = None
        out: list[Rejected | None] = []
        for d in cards:
            if d.key not in held:
                out.append(Rejected(f"{player} is playing from the temporary hand of {self.name(frame.source)} "
                                    f"({self.names(frame.cards)}); {d.name} is not in it", "rule-nested-action-example")
                           if frame is not None else
                           Rejected(f"{player} has no {d.name} in hand (hand: {self.names(st.hands[player])})"))
                continue
            if left is None:
                left = self.plays_left()
                if left <= 0 and frame is not None:  # pragma: no cover - finished frames close at once
                    no_play = Rejected("no plays are left in the temporary hand")
                elif left <= 0:
                    kind, n = self.play_quota(player)
                    why = ("the Play rule's plays are used up" if kind == "n" and st.played >= n else
                           "no cards are left to play" if not st.hands[player] else
                           f"the Play rule keeps {n} card(s) in hand")
                    no_play = Rejected(f"{player} has no play left this turn: {why}; end the turn instead",
                                       "play-more-than-hand", ("rule-turn-sequence",))
            if no_play is not None:
                out.append(no_play)
            elif d.type == UNKNOWN:
                out.append(Rejected("an unknown card ('?') cannot be played: name the card"))
            elif d.type == CREEPER:
                out.append(Rejected(f"{d.name} is a Creeper: Creepers never stay in a hand",
                                    "rule-creeper-drawn-auto-play"))
            else:
                out.append(None)
        return out

    def _untouched_origin(self) -> State | None:
        """The table the step started from, while the run has changed nothing of it
        yet (no card moved, no turn ended), else None."""
        st = self.state
        origin = self._origin
        if origin is not None and origin[0] is st:
            start = origin[1]
            if st.moves == start.moves and st.turn_number == start.turn_number:
                return start
        return None

    def table_before_action(self) -> State:
        """The table as it stands, without windows, for the response window of the
        play or free action about to happen (what canceling it restores). While the run
        has changed nothing yet, that is the table the step started from, which is
        never changed again, so it is shared instead of copied."""
        start = self._untouched_origin()
        return start.shared_snapshot(self.state.serial) if start is not None else self.state.snapshot()

    def _event_play(self, player: str, ev: Event) -> None:
        st = self.state
        d = self.cat.get(ev.key)
        cleared = self._cleared
        if (cleared is None or cleared[1] != player or d.key not in cleared[2]
                or cleared[0] is not self._untouched_origin()):
            # (unless the legal-events listing judged this very play allowed on this very
            # table, by these same checks: a trial's result is used again)
            refusal = self._play_refusal(player, d)
            if refusal is not None:
                raise refusal
        if ev.copy is not None:          # one copy among several (format 1.2, item 1)
            wanted = st.copy_of(d.key, ev.copy)
            pool = st.temp_hands[-1].cards if st.temp_hands else st.hands[player]
            if wanted not in pool:
                raise Rejected(f"{player} has no {d.name} #{ev.copy} to play (the copies in reach: "
                               f"{self.names(c for c in pool if st.defs[c].key == d.key)})")
        before = self.table_before_action()
        if st.temp_hands:
            frame = st.temp_hands[-1]
            card = (st.copy_of(d.key, ev.copy) if ev.copy is not None else None) or next(
                c for c in frame.cards if st.defs[c].key == d.key)
            src = Zone(TEMP_HAND, player, len(st.temp_hands) - 1)
            random_play = False
        else:
            found = self.find_in_hand(player, d.key, ev.copy)
            assert found is not None            # (checked above)
            card = found
            random_play = self.first_play_is_random()
            src = hand(player)
        if random_play:
            self.say(f"First Play Random: {player}'s first card this turn is taken at random from the hand; "
                     f"it is {d.name}.")
        self._explain_play_quota(player)
        self.open_game_action(PLAY, d.key, player)
        self.play_card(player, card, src, counted=True, before=before)
        self.close_finished_temp_hands()

    def _explain_play_quota(self, player: str) -> None:
        """Say how bonuses combine with Play All / Play All But 1 (once per turn)."""
        st = self.state
        bonus = self.play_bonus(player)
        if st.temp_hands or not bonus or st.played:      # said with the turn's first play
            return
        rule = next((r for r in st.rules if st.defs[r].impl.slot == "play"), None)
        if rule is None or st.defs[rule].params.get("play") != "all":
            return
        keep = self.num(rule, "keep") if st.defs[rule].params.get("keep") else 0
        if keep:
            kind, left = self.play_quota(player)
            now = "plain Play All" if left == 0 else f"Play All But {left}"
            self.say(f"{self.name(rule)} with a +{bonus} Play bonus becomes {now}.",
                     "play-all-but-1-plus-bonus", "play-all-plus-bonus")
        else:
            self.say(f"{player} has a +{bonus} Play bonus, but nothing exceeds all: Play All still means exactly every "
                     "card in hand.", "play-all-plus-bonus")

    def _use_refusal(self, player: str, d: CardDef, copy: int | None = None) -> tuple[int | None, Rejected | None]:
        """The card in play giving `player` the free action `d`, and why it may not be
        used now (None: it may), judged before anything happens. Each physical copy is
        a card of its own: `copy` names one (`NAME #K`); without it, the first copy in
        reach that may be used is the one, else the first copy's refusal is given."""
        st = self.state
        defs, key = st.defs, d.key
        zones = (st.rules, st.meta_rules, st.keepers[player])
        if copy is not None:
            reach = [c for zone in zones for c in zone if defs[c].key == key]
            wanted = st.copy_of(key, copy)
            if wanted not in reach:
                return None, Rejected(f"{d.name} #{copy} is not in play for {player}"
                                      + (f" (the copies in reach: {self.names(reach)})" if reach else ""),
                                      "rule-keepers-in-play-for-goals-powers", ("rule-in-play-definition",))
            return self._copy_use_refusal(player, d, wanted)
        # (asked for every free action the listing offers: the copies are judged as they are
        # found, and the first one that may be used ends the search)
        first: tuple[int | None, Rejected | None] | None = None
        for zone in zones:
            for card in zone:
                if defs[card].key == key:
                    judged = self._copy_use_refusal(player, d, card)
                    if judged[1] is None:
                        return judged
                    first = first or judged
        if first is None:
            holders = [p for p in st.players if p != player and any(defs[c].key == key for c in st.keepers[p])]
            if holders:
                # (a card that changed hands took the cards lying under it along: they are out of reach too)
                piled = [c for c in st.keepers[holders[0]] if defs[c].key == key and st.under.get(c)]
                return None, Rejected(f"{d.name} is in front of {holders[0]}: a card's power is used by the player it "
                                      f"is in front of, never by {player}"
                                      + (f"; the cards under it went with it, so {player} can no longer uncover or "
                                         "use them" if piled else ""), "keeper-power-usable-only-by-owner",
                                      ("rule-keepers-in-play-for-goals-powers", "rule-in-play-definition",
                                       *(defs[piled[0]].impl.pile_rulings if piled else ())))
            return None, Rejected(f"{d.name} is not in play for {player}: a free action comes from a rule in play or "
                                  "a Keeper or Creeper in front of you", "rule-keepers-in-play-for-goals-powers",
                                  ("rule-in-play-definition",))
        return first

    def _copy_use_refusal(self, player: str, d: CardDef, card: int) -> tuple[int | None, Rejected | None]:
        """Why this copy of the free action `d` may not be used now (None: it may)."""
        st = self.state
        impl = d.impl
        if not impl.free_action:
            return card, Rejected(f"{d.name} gives no free action to use")
        if card in st.face_down:
            return card, Rejected(f"{self.name(card)} lies face down: until it is turned up it is not in play for its "
                                  "power", "face-down-keepers-count-for-keeper-limit")
        if player != st.active_player and not impl.off_turn:
            return card, Rejected(f"free actions are taken on your own turn, and a turn's chance to take them ends "
                                  f"when the next turn begins; it is {st.active_player}'s turn",
                                  "rule-free-actions-anytime-not-plays", ("free-actions-open-until-next-turn-starts",))
        if st.temp_hands and player == st.active_player:
            return card, Rejected(f"{d.name} cannot be used while a temporary hand is being played "
                                  f"({self.name(st.temp_hands[-1].source)}): the Action is finished first, even "
                                  "when a card it put down is what gives the power; use it before or after",
                                  "keeper-powers-wait-until-compound-action-ends", ("gowi-inside-temp-hand",))
        if impl.used_once_per_turn(d) and card in st.free_used and player == st.active_player:
            return card, Rejected(f"{self.name(card)} can be used only once per turn, and {player} has used it this "
                                  "turn", "once-per-turn-power")
        problem = impl.cannot_use(self, card, player)
        if problem:
            return card, Rejected(problem[0], problem[1])
        return card, None

    def _event_use(self, player: str, ev: Event) -> None:
        st = self.state
        d = self.cat.get(ev.key)
        card, refusal = self._use_refusal(player, d, ev.copy)
        if refusal is not None:
            raise refusal
        assert card is not None
        before = self.table_before_action()
        impl = d.impl
        if player == st.active_player:
            st.free_used.append(card)
        self.open_game_action(USE, d.key, player)
        used = impl.used_card(self, card)       # (a real card kept under this one: its window is the one opened)
        self.open_window("use", card if used is None else used, player, before, kept=used is not None)
        self.say(f"{player} uses {self.name(card)} (a free action: it is not a play).",
                 "rule-free-actions-anytime-not-plays")
        if player == st.active_player and st.phase == "play" and not st.temp_hands and not self.plays_left():
            self.say(f"{player} has no play left this turn, but the turn is not over until the free actions "
                     "open to them are used or let go: first the plays, then free actions, then the Limits.",
                     "free-actions-open-until-next-turn-starts", "free-action-move-after-last-play")
        impl.use(self, card, player)
        self.checkpoint()

    def _event_surprise(self, player: str, ev: Event) -> None:
        d = self.cat.get(ev.key)
        if d.type != SURPRISE:
            raise Rejected(f"{d.name} is not a Surprise; only Surprises can be played out of turn",
                           "rule-surprise-two-functions", ("out-of-turn-activity",))
        self.surprise_out_of_turn(player, ev)
        self.record(SURPRISE_PLAYED, d.key, player)

    def end_turn_refusal(self, player: str) -> Rejected | None:
        """Why `player` may not end the turn now, or None: a read-only query for
        verdicts (a duty that would need a decision to judge counts as none)."""
        self.decisions.pause_blocked += 1
        try:
            return self._end_turn_refusal(player)
        except (Rejected, NeedDecision):
            return None
        finally:
            self.decisions.pause_blocked -= 1

    def _end_turn_refusal(self, player: str) -> Rejected | None:
        """Why `player` may not end the turn now (None: they may)."""
        st = self.state
        if player != st.active_player:
            return Rejected(f"only {st.active_player} can end their own turn", "rule-play-clockwise")
        if st.temp_hands:
            return Rejected(f"{self.name(st.temp_hands[-1].source)} is still being played: its temporary hand "
                            "must be used first", "rule-played-card-must-be-followed")
        duty = self.turn_duty(player)
        if duty:
            return Rejected(duty, "turn-ending-cards-list")
        if self.plays_left() > 0:
            # (the play quota first: it is known already, and Play All But is rarely in play)
            limited = self.play_quota(player)[0] == "all_but" and self.hand_limit() is not None
            return Rejected(f"{player} still owes {self.plays_left_label()} play(s) and has cards to play them with; "
                            "cards cannot simply be kept or thrown away"
                            + (f" ({self._own_turn_hand_limit(player)})" if limited else ""), "rule-no-voluntary-discard",
                            ("rule-turn-sequence", "play-all-includes-new-cards",
                             *(("play-all-outranks-hand-limit-on-own-turn",) if limited else ())))
        return None

    def _own_turn_hand_limit(self, player: str) -> str:
        return (f"the Hand Limit does not bind {player} during their own turn: the cards in hand are plays owed, and "
                "the Limit counts only what is still held when the turn ends")

    def _event_end_turn(self, player: str) -> None:
        refusal = self._end_turn_refusal(player)
        if refusal is not None:
            raise refusal
        self.end_turn(f"{player} ends the turn")

    def turn_over_since(self, turn_number: int) -> bool:
        """Whether the turn numbered `turn_number` is over (format 1.1, item 7): a later
        turn has begun, or the turn is ending (its limit discards may still be pending),
        or no play and no free action is left open to the player whose turn it is. A
        win ends the game, not the turn."""
        st = self.state
        if st.turn_number != turn_number:
            return st.turn_number > turn_number
        if st.game_over:
            return False
        if st.phase == "ending":
            return True
        if st.phase != "play" or st.temp_hands or self.plays_left() > 0:
            return False
        player = st.active_player
        return not self.turn_duty(player) and not self.free_actions_open(player)

    def free_actions_open(self, player: str) -> bool:
        """Whether `player` could still take a free action this turn."""
        st = self.state
        for c in self.rule_cards() + st.keepers[player]:
            impl = st.defs[c].impl
            if not impl.free_action or (impl.once_per_turn and c in st.free_used) or c in st.face_down:
                continue
            self.decisions.pause_blocked += 1
            try:
                if impl.cannot_use(self, c, player) is None:
                    return True
            except (Rejected, NeedDecision):
                pass          # (not `continue`: a compiled build cannot continue out of a finally)
            finally:
                self.decisions.pause_blocked -= 1
        return False

    def turn_duty(self, player: str) -> str | None:
        defs = self.state.defs
        for r in self.answering("turn_duty"):
            duty = defs[r].impl.turn_duty(self, r, player)
            if duty:
                return duty
        return None

    def _event_join(self, name: str) -> None:
        """A newcomer takes the last seat and is dealt a fresh hand of 3 (an extension
        of the scenario format: `join: NAME`)."""
        st = self.state
        if name in st.eliminated:
            return KNOCK_OUTS.rejoin(self, name)
        if name in st.players:
            raise Rejected(f"{name} is already at the table")
        if st.game_over:
            raise Rejected("the game is over", "rule-win-instantly-any-turn")
        st.seat(name)
        st.add_player_zones(name)
        self.say(f"{name} jumps in and is dealt a hand of 3 cards.", "rule-jumping-in")
        self.draw(name, 3, why="jumping in")
        self.checkpoint()

    def _event_leave(self, name: str) -> None:
        """A player drops out: their hand and everything they have in play are discarded
        (`leave: NAME`)."""
        st = self.state
        if name not in st.players:
            raise Rejected(f"there is no player called {name!r}")
        if len(st.players) == 1:
            raise Rejected("the last player at the table cannot drop out")
        was_active = name == st.active_player
        nxt = self.seat_order(skip_active=False)[0] if was_active else None
        for frame in [t for t in st.temp_hands if t.owner == name]:
            self._close_frame(frame)
        gone = st.hands[name] + st.keepers[name]
        for c in list(st.hands[name]):
            self.discard(c, name, cause=SETUP, src=Zone(HAND, name))
        self.discard_each(list(st.keepers[name]), name, cause=SETUP, src=table(name))
        for c in gone:
            st.detach(c)
        active_name = st.active_player
        st.drop_player_zones(name)
        st.unseat(name)
        if name in st.eliminated:
            st.bring_back(name)
        self.say(f"{name} drops out, discarding their hand and everything they had in play ({len(gone)} card{'s' if len(gone) != 1 else ''}).",
                 "rule-dropping-out")
        if nxt is not None:          # (the one who left was active) the turn passes to the next seat
            self.start_turn(nxt)
        else:
            st.set_active(st.players.index(active_name))
        self.checkpoint()

    def _turn_ends_for(self, player: str) -> bool:
        """Whether a play or use by `player` ends the active turn first: `player` is
        next in turn and nothing is left in the active player's turn."""
        return player != self.state.active_player and self._turn_ends_next() == player

    def _turn_ends_next(self) -> str | None:
        """The player whose play or use would end the active turn first (the next in
        turn, once nothing is left in the active player's turn), or None."""
        st = self.state
        if st.game_over or st.temp_hands or self.plays_left() > 0 or self.turn_duty(st.active_player):
            return None
        nxt = self.next_player()
        return nxt if nxt != st.active_player else None

    def unseen_source(self, player: str) -> list[int]:
        """The cards `player` would play from now: the open temporary hand for the
        active player executing one, else the hand."""
        st = self.state
        if player == st.active_player and st.temp_hands and st.temp_hands[-1].owner == player:
            return st.temp_hands[-1].cards
        return st.hands[player]

    def known_copies(self, key: str) -> list[str]:
        """Where a card with this key is already named on the table (zone names)."""
        st = self.state
        return [zone for zone, cards in st.all_zones().items() if zone != "resolving"
                for c in cards if st.defs[c].key == key]

    def reveal_problem(self, player: str, key: str) -> str | None:
        """Why `player` cannot reveal one of their unseen cards as `key`, or None."""
        d = self.cat.get(key)
        if d.type in (CREEPER, BASIC):
            return (f"{d.name} cannot be one of {player}'s unseen cards: "
                    + ("a Creeper drawn goes straight to the table, so none is ever held" if d.type == CREEPER
                       else "the Basic Rules never leave the center of the table"))
        where = self.known_copies(key)
        if where and d.copies <= 1:
            return (f"{d.name} cannot be one of {player}'s unseen cards: it is already on the table "
                    f"({', '.join(dict.fromkeys(where))}); list a second copy explicitly if the deck holds one")
        return None

    def _unseen_on_table(self) -> bool:
        """Whether any card nobody has seen ('?') is among the table's cards (its
        definitions only grow, as cards are revealed, so the answer is kept per length)."""
        defs = self.state.defs
        known = self._unseen_known
        if known is None or known[0] is not defs or known[1] != len(defs):
            known = self._unseen_known = (defs, len(defs), any(d.type == UNKNOWN for d in defs))
        return known[2]

    def reveal_unseen(self, player: str, key: str | None) -> int | None:
        """A play or Surprise naming a card that `player` lacks while holding '?' turns
        one '?' into that card (the same physical card, now known), then the event
        runs as usual. Returns the revealed copy, or None when nothing was revealed."""
        st = self.state
        if key is None or key == "?" or key not in self.cat.cards or not self._unseen_on_table():
            return None
        source = self.unseen_source(player)
        if any(st.defs[c].key == key for c in source) or any(st.defs[c].key == key for c in st.hands[player]):
            return None
        unseen = [c for c in source if st.defs[c].type == UNKNOWN]
        if not unseen:
            return None
        problem = self.reveal_problem(player, key)
        if problem:
            raise Rejected(problem)
        # prefer a '?' that was already held when the last plays were made, so that a
        # Surprise revealed now is one the player could have answered with
        held = [c for c in unseen if all(w.before is None or c in w.before.hands.get(player, ())
                                         or any(c in t.cards for t in w.before.temp_hands) for w in st.windows)]
        old = (held or unseen)[0]
        # one copy id per (unseen card, title): trying many reveals, or re-running an
        # event for its answers, never grows the shared definitions without end
        cache = self._revealed
        new = cache.get((old, key))
        if new is None or new >= len(st.defs) or st.defs[new].key != key:
            st.defs.append(self.cat.get(key))
            new = cache[(old, key)] = len(st.defs) - 1
        st.relabel(old, new)
        # the windows still open remember the table before each play: the same card
        # was unseen there too, so it is revealed there as well (on copies of them)
        swapped = []
        for w in st.windows:
            if w.before is not None and old in w.before.every_card():
                before = w.before.clone()
                before.relabel(old, new)
                w = replace(w, before=before)
            swapped.append(w)
        st.windows = swapped
        where = "temporary hand" if source is not st.hands[player] else "hand"
        self.log.entries.append(Entry(f"{player} reveals one of the unseen cards ('?') in their {where}: "
                                  f"it is {self.name(new)}.", kind="reveal"))
        return new

    def next_player(self) -> str:
        st = self.state
        if st.another_turn and st.active_player not in st.eliminated:
            return st.active_player
        order = self.seat_order()
        return order[0] if order else st.active_player

    def end_turn(self, why: str, immediately: bool = False) -> None:
        """End the active player's turn: temporary hands are discarded, the player
        complies with the limits, then the next player's turn starts."""
        st = self.state
        player = st.active_player
        if st.face_out:
            hidden.face_out_not_owed(self, player)
        st.phase = "ending"
        for frame in list(reversed(st.temp_hands)):
            self._close_frame(frame, turn_end=True)
        if immediately:
            self.say(f"{player}'s turn ends immediately ({why}): that overrides the Play rule, even Play All, "
                     "and ends any free actions or Keeper powers for the turn.", "play-all-vs-turn-end",
                     kind="turn_end")
        else:
            self.say(f"{player}'s turn ends ({why}).", "rule-turn-sequence", kind="turn_end")
        # the ending player's own duties at this moment (the Limits, their cards' "when your
        # turn ends"), in the order they choose; then the other players' cards react
        defs = st.defs
        turn_end = [(holder, k) for holder, k in self.answering_in_front("on_turn_end") if k in st.keepers[holder]]

        def reacting(holder: str, k: int) -> Callable[[], None]:
            return lambda: defs[k].impl.on_turn_end(self, k, holder, player) if k in st.keepers[holder] else None

        own = [(self.name(k), reacting(holder, k)) for holder, k in turn_end
               if holder == player and defs[k].impl.turn_end_duty]
        limits = self._limit_duties(player, False)
        if own:
            limits = self._limits_named(limits)
            self.in_order(player, limits + own, "cute-fuzzy-alien-pass-or-limit-first",
                          kept=tuple(label for label, _ in limits))
        else:
            for _, carry_out in limits:
                carry_out()
        for holder, k in turn_end:
            if holder != player or not defs[k].impl.turn_end_duty:
                reacting(holder, k)()
        for system in self.systems():
            system.turn_ended(self, player)
        if self.hand_limit() is not None or self.keeper_limit() is not None:
            self.say(f"{player} now has to respect the limits, as it is no longer their turn.",
                     "rule-limits-only-off-turn", *(("turn-end-still-limits",) if immediately else ()))
        between = self.variant.between_turns(self, player)
        if between is not None:
            nxt = between
            st.another_turn, st.extra_turn_cards = 0, []
        else:
            nxt = self.next_player()
            if nxt == player:
                st.another_turn = max(0, st.another_turn - 1)
                st.turns_in_a_row += 1
                self.say(f"{player} takes another turn.")
            else:
                if st.another_turn and player in st.eliminated:
                    self.say(f"{player} is out of the game, so the extra turn owed to {player} is not taken: the "
                             "seat is skipped.", "rule-danger-elimination", "eliminated-player-waits-for-a-full-round")
                st.another_turn, st.turns_in_a_row, st.extra_turn_cards = 0, 1, []
        self.start_turn(nxt)

    def start_turn(self, player: str) -> None:
        st = self.state
        st.begin_turn(st.players.index(player))
        st.turn_number += 1
        st.drawn = 0
        st.played = 0
        st.free_used = []
        st.questions = 0
        st.phase = "start"
        self.say(f"{player}'s turn begins.", "rule-play-clockwise")
        for k in list(st.keepers[player]):
            if k in st.keepers[player] and k not in st.face_down:
                st.defs[k].impl.start_of_turn(self, k, player)
        for r in list(self.rule_cards()):
            if r in self.rule_cards():
                st.defs[r].impl.start_of_turn(self, r, player)
        st.phase = "play"
        self.checkpoint()
