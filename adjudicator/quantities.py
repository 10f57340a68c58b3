"""Derived quantities: cards to draw, plays owed, limits, Goal slots, numerals.

Every figure is worked out from the cards in play, so a rule that arrives or leaves
changes it at once. The figures that depend only on the cards face up (draws, plays,
limits, Goal slots) are kept per face-up table (`Figures.face_up`): a draw, a
discard or a play of an Action leaves them as they were, and they are not worked out
again until a rule, a Keeper or the turn changes. Every printed number goes through
`num`, the one place Inflation acts.

The cards lying under a card (`State.under`) are not in play: no figure reads them,
so a pile counts as the card on top (the Keeper count, the Goals). A Keeper lying face
down counts toward a Keeper Limit (`keeper_count`) but has no power and meets no Goal
(`showing` leaves it out of the holdings, the powers and the hooks asked in front); a
card held face-out is not owed under Play All (`plays_left`).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from adjudicator.mechanics.base import KEEPER

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.log import TableHolder
    from adjudicator.state import State


F = TypeVar("F", bound=Callable[..., Any])


_UNSET = object()
_NONE: frozenset[int] = frozenset()

# how long a figure is kept (`_kept`)
RULES, FACE_UP, FROZEN = "rules", "face up", "frozen"


def _kept(scope: str) -> Callable[[F], F]:
    """A figure kept instead of worked out again: while the table is frozen (see
    `Figures.table_frozen`) every figure is kept; one that depends only on the
    cards face up on the table and the turn's owner (scope FACE_UP, see
    `Figures.face_up`) is kept per such table at all times, and one that depends
    only on the rules in force (scope RULES, see `Figures.rules_in_force`) per set
    of rules, so that a Keeper coming or going leaves it as it was. Scope FROZEN is
    kept only while the table is frozen."""
    def decorate(fn: F) -> F:
        name = fn.__name__
        # (a wrapper per scope, that decides nothing known when the method is decorated:
        # figures are asked tens of thousands of times a game)
        if scope is FACE_UP:
            @wraps(fn)
            def face_up_figure(self: "Figures", *args: Any) -> Any:
                st = self.core.state
                memo = st.figures
                if memo is None:
                    memo = self._figures_here()
                key = (name,) + args if args else name
                value = memo.get(key, _UNSET)
                if value is _UNSET:
                    value = memo[key] = fn(self, *args)
                return value

            return face_up_figure  # type: ignore[return-value]
        if scope is RULES:
            @wraps(fn)
            def rules_figure(self: "Figures", *args: Any) -> Any:
                st = self.core.state
                memo = st.rule_figures
                if memo is None:
                    memo = self._rule_figures_here()
                key = (name,) + args if args else name
                value = memo.get(key, _UNSET)
                if value is _UNSET:
                    value = memo[key] = fn(self, *args)
                return value

            return rules_figure  # type: ignore[return-value]

        @wraps(fn)
        def frozen_figure(self: "Figures", *args: Any) -> Any:
            frozen = self._frozen
            if frozen is None or frozen[0] is not self.core.state:
                return fn(self, *args)
            memo = frozen[1]
            key = (name,) + args if args else name
            value = memo.get(key, _UNSET)
            if value is _UNSET:
                value = memo[key] = fn(self, *args)
            return value

        return frozen_figure  # type: ignore[return-value]
    return decorate


_memoized = _kept(FACE_UP)
_per_rules = _kept(RULES)


class FigureShelf:
    """Figures kept per key (a face-up table, a set of rules in force) for one game:
    card ids mean the same cards only within it. A long game sees many tables, so the
    shelf is emptied past `limit` keys."""

    __slots__ = ("defs", "by_key", "limit")

    def __init__(self, limit: int):
        self.defs: list[Any] | None = None
        self.by_key: dict[tuple[Any, ...], dict[Any, Any]] = {}
        self.limit = limit

    def get(self, defs: list[Any], key: tuple[Any, ...]) -> dict[Any, Any]:
        if self.defs is not defs or len(self.by_key) > self.limit:
            self.by_key, self.defs = {}, defs
        here = self.by_key.get(key)
        if here is None:
            here = self.by_key[key] = {}
        return here


class Figures:
    """A part of the rules core (`adjudicator.core.Core`): the derived quantities of the
    table as it now stands (`core.state`). The cards' hooks it asks receive `hooks_see`
    (the rules core; by default `core` itself), so a Figures over a bare table holder
    can be built and asked alone."""

    def __init__(self, core: TableHolder, hooks_see: Any = None) -> None:
        self.core = core
        self.e: Any = hooks_see if hooks_see is not None else core
        self._frozen: tuple[State, dict[Any, Any]] | None = None
        self._face_up_shelf, self._rules_shelf = FigureShelf(2048), FigureShelf(512)
        # (`hook_cards`: the card definitions it was worked out for, their number, and
        # the answer per hook)
        self._hook_cards: tuple[list[Any] | None, int, dict[str, frozenset[int]]] = (None, 0, {})

    @property
    def state(self) -> State:
        """The table (for the cards' hooks, when they are handed this part itself)."""
        return self.core.state

    def face_up(self) -> tuple[Any, ...]:
        """Everything the figures kept per face-up table (draws, plays, limits, Goal
        slots) may read: the rules and Meta Rules in order, every player's Keepers and
        Creepers and what is attached to what, the players still in, whose turn it is,
        whether it began with an empty hand, and the bonuses the table granted this
        turn, and which Keepers lie face down. Two tables alike in these have the same
        figures."""
        st = self.core.state
        keepers = st.keepers
        return (tuple(st.rules), tuple(st.meta_rules), st.basic, tuple(st.players),
                tuple([tuple(keepers[p]) for p in st.players]),
                tuple(st.attachments.items()) if st.attachments else (), tuple(st.eliminated),
                st.active, st.started_empty, tuple(st.claims), st.face_down)

    def _figures_here(self) -> dict[Any, Any]:
        """The figures kept for the face-up table as it is now, which the table then
        holds (`State.figures`) until something they read changes: a card moving, the
        turn passing, a player in or out, a bonus granted (the State's methods for each
        reset it)."""
        st = self.core.state
        st.figures = here = self._face_up_shelf.get(st.defs, self.face_up())
        return here

    def rules_in_force(self) -> tuple[Any, ...]:
        """Everything the figures kept per set of rules may read: the New Rules and
        the Meta Rules in order, and the Basic Rules."""
        st = self.core.state
        return (tuple(st.rules), tuple(st.meta_rules), st.basic)

    def _rule_figures_here(self) -> dict[Any, Any]:
        """The figures kept for the rules in force now, which the table then holds
        (`State.rule_figures`) until a rule comes or goes."""
        st = self.core.state
        st.rule_figures = here = self._rules_shelf.get(st.defs, self.rules_in_force())
        return here

    @contextmanager
    def table_frozen(self) -> Iterator[None]:
        """Inside, `self.core.state` does not change: every figure about it is worked out
        once. A trial that steps aside to a copy of the table works its own out as usual,
        or freezes that copy in turn (the frozen table's figures wait meanwhile)."""
        if self._frozen is not None and self._frozen[0] is self.core.state:
            yield
            return
        outer = self._frozen
        # (the figures kept per face-up table or per set of rules stay on the table's own
        # memos, frozen or not: what a listing works out serves the event after it)
        self._frozen = (self.core.state, {})
        try:
            yield
        finally:
            self._frozen = outer

    # -- numerals --------------------------------------------------------------
    def inflation(self) -> int:
        """How much a printed 1 currently reads higher (for explanations and tests)."""
        return self.read_numeral(-1, 1) - 1

    @_per_rules
    def read_numeral(self, card: int, value: int) -> int:
        """A printed numeral on `card` as the rules in play make it read: each rule
        with a numeral hook (Inflation, One, Two, Five!) applies in the order played,
        never to its own card."""
        e, defs = self.e, self.core.state.defs
        for r in self.answering("numeral"):
            if r != card:
                value = defs[r].impl.numeral(e, r, card, value)
        return value

    def num(self, card: int, param: str) -> int:
        """A card's numeric parameter: numerals pass through the numeral hook."""
        d = self.core.state.defs[card]
        value = d.params[param]
        if param in d.numerals and isinstance(value, int):
            value = self.read_numeral(card, value)
        return value

    def seat_order(self, skip_active: bool = False, start: str | None = None) -> list[str]:
        """Players still in the game in turn order, from the one after the active player
        (or from `start`), the active player last unless skipped."""
        st = self.core.state
        players = st.players
        first = players.index(start) if start else (st.active + 1) % len(players)
        order = players[first:] + players[:first]
        if st.eliminated:
            order = [p for p in order if p not in st.eliminated]
        if skip_active:
            active = players[st.active]
            order = [p for p in order if p != active]
        return order

    # -- rules in play -------------------------------------------------------------
    def rule_cards(self) -> list[int]:
        """Rules that are in force: New Rules and Meta Rules, then the Basic Rules."""
        st = self.core.state
        cards = st.rules + st.meta_rules
        return cards + [st.basic] if st.basic is not None else cards

    def hook_cards(self, hook: str) -> frozenset[int]:
        """Every card of the game, wherever it is, whose mechanic answers `hook`: an
        index to skip asking the cards in play about a question none of this game's
        cards answers (a card moving). Card definitions only grow
        (an unseen card revealed), so it is kept until they do."""
        defs = self.core.state.defs
        known, size, index = self._hook_cards
        if known is defs and size == len(defs):
            return index.get(hook, _NONE)
        found: dict[str, set[int]] = {}
        for c, d in enumerate(defs):
            for h in d.impl.overridden:
                found.setdefault(h, set()).add(c)
        index = {h: frozenset(cards) for h, cards in found.items()}
        self._hook_cards = (defs, len(defs), index)
        return index.get(hook, _NONE)

    def answering(self, hook: str) -> tuple[int, ...]:
        """The rules in force whose mechanic answers `hook` (`Mechanic.overridden`), in
        the order `rule_cards` gives: the only ones the engine asks."""
        # asked several times a step: read straight from the figures the table holds
        held = self.core.state.rule_figures
        hooks = held.get("_rule_hooks") if held is not None else None
        return (hooks if hooks is not None else self._rule_hooks()).get(hook, ())

    def answering_in_front(self, hook: str) -> tuple[tuple[str, int], ...]:
        """(player, card) for each card in front of a player whose mechanic answers
        `hook`, players in seat order from the one after the active player."""
        # asked on every move and checkpoint: read straight from the figures the table holds
        held = self.core.state.figures
        hooks = held.get("_front_hooks") if held is not None else None
        return (hooks if hooks is not None else self._front_hooks()).get(hook, ())

    @_per_rules
    def _rule_hooks(self) -> dict[str, tuple[int, ...]]:
        """For every hook at once, the rules in force that answer it (`answering`)."""
        defs = self.core.state.defs
        rules: dict[str, list[int]] = {}
        for r in self.rule_cards():
            for hook in defs[r].impl.overridden:
                rules.setdefault(hook, []).append(r)
        return {hook: tuple(cards) for hook, cards in rules.items()}

    @_memoized
    def _front_hooks(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """For every hook at once, (player, card) for the cards in front of players
        that answer it (`answering_in_front`), in one pass over the table."""
        st = self.core.state
        defs = st.defs
        keepers = st.keepers
        front: dict[str, list[tuple[str, int]]] = {}
        down = st.face_down
        for p in self.seat_order():
            for k in keepers[p]:
                if down and k in down:        # (no power until turned up)
                    continue
                for hook in defs[k].impl.overridden:
                    front.setdefault(hook, []).append((p, k))
        return {hook: tuple(pairs) for hook, pairs in front.items()}

    def with_effect(self, effect: str, player: str | None = None) -> list[int]:
        """The cards in force that impose the static effect `effect` (see
        `mechanics.base.EFFECTS`): with `player`, the working cards in front of them;
        without, the rules in play."""
        st, e = self.core.state, self.e
        defs = st.defs
        if player is None:
            return [r for r in st.rules + st.meta_rules if effect in defs[r].impl.effects]
        cards = [k for k in self.showing(player) if effect in defs[k].impl.effects and defs[k].impl.power_active(e, k)]
        if st.lasting:        # (what a card left on the player until their next turn)
            cards += [c for p, what, c in st.lasting if p == player and what == effect]
        return cards

    def showing(self, player: str) -> list[int]:
        """The cards in front of `player` that are in play for powers and Goals: all
        of them but the Keepers lying face down (which still count toward a Keeper
        Limit: `keeper_count`). Not to be changed."""
        st = self.core.state
        mine = st.keepers[player]
        if not st.face_down:
            return mine
        return [k for k in mine if k not in st.face_down]

    @_per_rules
    def ruled(self, hook: str) -> Any:
        """What the first rule in force that answers `hook` says (New Rules before the
        Basic Rules), for the hooks answered from the rules alone: draw_base,
        play_quota, hand_limit, keeper_limit, agenda (see `Mechanic.draw_base`)."""
        defs = self.core.state.defs
        for r in self.answering(hook):
            value = getattr(defs[r].impl, hook)(self.e, r)
            if value is not None:
                return value
        return None

    def draw_rule(self) -> int:
        return self.ruled("draw_base") or 0

    def powered(self, player: str, hook: str | None = None) -> list[int]:
        """Cards in front of `player` whose powers work now (with `hook`: only those
        whose mechanic answers that question)."""
        st, e = self.core.state, self.e
        defs = st.defs
        front = self.showing(player) if st.face_down else st.keepers[player]     # (asked often: `showing` at once)
        return [k for k in front if (hook is None or hook in defs[k].impl.overridden) and defs[k].impl.power_active(e, k)]

    def _bonus(self, hook: str, player: str) -> int:
        """The sum of a bonus hook over the rules in force and `player`'s powered cards."""
        st, e = self.core.state, self.e
        defs = st.defs
        total = 0
        for c in self.answering(hook):
            total += getattr(defs[c].impl, hook)(e, c, player)
        for k in self.powered(player, hook):
            total += getattr(defs[k].impl, hook)(e, k, player)
        return total

    @_memoized
    def draw_total(self, player: str) -> int:
        return max(self.draw_rule() + self._bonus("draw_bonus", player), 0)

    def draws_owed(self) -> int:
        st = self.core.state
        if st.phase != "play" or st.game_over:
            return 0
        return max(0, self.draw_total(st.active_player) - st.drawn)

    @_memoized
    def play_bonus(self, player: str) -> int:
        return self._bonus("play_bonus", player)

    @_memoized
    def play_quota(self, player: str) -> tuple[str, int]:
        """('n', N): play N cards this turn; ('all_but', k): play until k are left
        (k = 0 is Play All). A Play bonus adds to N, and takes one off k: Play All But 1
        with a +1 bonus is Play All, and nothing exceeds All."""
        kind, value = self.ruled("play_quota") or ("n", 1)
        bonus = self.play_bonus(player)
        if kind == "n":
            return ("n", max(0, value + bonus))
        return ("all_but", max(0, value - bonus))

    @_kept(FROZEN)
    def plays_left(self) -> int:
        """Plays the active player can actually still make this turn (cards to play them
        with included): the figure Get On With It, Swap Plays and turn ends use."""
        st = self.core.state
        if st.game_over or st.phase != "play":
            return 0
        if st.temp_hands:
            frame = st.temp_hands[-1]
            return max(0, min(frame.plays - frame.made, sum(1 for c in frame.cards if st.defs[c].type != "unknown")))
        player = st.active_player
        hand = len(st.hands[player])
        kind, value = self.play_quota(player)
        if kind == "n":
            return max(0, min(value - st.played, hand))
        if st.face_out:       # (cards held face-out are already played: Play All does not reach them)
            hand -= sum(1 for c in st.hands[player] if c in st.face_out)
        return max(0, hand - value)

    def plays_left_label(self) -> int | str:
        """plays_left as the scenario format shows it: 'all' under Play All."""
        st = self.core.state
        if not st.temp_hands and st.phase == "play" and not st.game_over:
            kind, value = self.play_quota(st.active_player)
            if kind == "all_but" and value == 0 and self.plays_left():
                return "all"
        return self.plays_left()

    # -- limits and slots -----------------------------------------------------------
    @_memoized
    def hand_limit(self, player: str | None = None) -> int | None:
        """The Hand Limit in play; for a player, raised by their Keepers' powers."""
        limit = self.ruled("hand_limit")
        if limit is not None and player is not None:
            limit += self._limit_bonus(player)
        return limit

    @_memoized
    def keeper_limit(self, player: str | None = None) -> int | None:
        limit = self.ruled("keeper_limit")
        if limit is not None and player is not None:
            limit += self._limit_bonus(player)
        return limit

    def _limit_bonus(self, player: str) -> int:
        st, e = self.core.state, self.e
        return sum([st.defs[k].impl.limit_bonus(e, k, player) for k in self.powered(player, "limit_bonus")])

    def agenda_size(self) -> int:
        return self.ruled("agenda") or 1

    @_memoized
    def holdings(self) -> dict[str, frozenset[str]]:
        """For each player, the names of the cards in front of them and each of their
        tags written `tag:NAME` (what Goals ask for). Not to be changed."""
        st = self.core.state
        defs = st.defs
        return {p: frozenset().union(*[defs[k].marks for k in self.showing(p)]) for p in st.players}

    def keeper_count(self, player: str) -> int:
        """The Keepers in front of `player`, as a Keeper Limit counts them: face-down ones
        included, the cards under a card not (they count as the card on top)."""
        st = self.core.state
        return len([k for k in st.keepers[player] if st.defs[k].type == KEEPER])
