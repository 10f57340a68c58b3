"""Derived quantities: cards to draw, plays owed, limits, Goal slots, numerals.

Nothing here is stored between events; every figure is worked out from the cards in
play when it is asked for, so a rule that arrives or leaves changes it at once. While
the table cannot change (`table_frozen`: listing the legal events), each figure is
worked out once. Every printed number goes through `num`, the one place Inflation acts.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from adjudicator.mechanics.base import KEEPER

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.engine import Engine
    from adjudicator.state import State


F = TypeVar("F", bound=Callable[..., Any])


def _memoized(fn: F) -> F:
    """A figure worked out once per frozen table (see `Quantities.table_frozen`)."""
    name = fn.__name__

    @wraps(fn)
    def figure(self: "Quantities", *args: Any) -> Any:
        memo = self._memo
        if memo is None or self.state is not self._memo_table:
            return fn(self, *args)
        key = (name, args)
        if key not in memo:
            memo[key] = fn(self, *args)
        return memo[key]

    return figure  # type: ignore[return-value]


class Quantities:
    """The Engine's derived quantities (a mixin; the rules' hooks it asks receive the
    engine itself, `self.engine`)."""

    state: "State"
    _memo: dict[tuple[str, tuple[Any, ...]], Any] | None = None
    _memo_table: "State | None" = None

    @property
    def engine(self) -> "Engine":
        raise NotImplementedError            # (the Engine is itself)

    @contextmanager
    def table_frozen(self) -> Iterator[None]:
        """Inside, `self.state` does not change: each figure about it is worked out once.
        A trial that steps aside to a copy of the table works its own out as usual, or
        freezes that copy in turn (the frozen table's figures wait meanwhile)."""
        if self._memo is not None and self._memo_table is self.state:
            yield
            return
        outer = self._memo, self._memo_table
        self._memo, self._memo_table = {}, self.state
        try:
            yield
        finally:
            self._memo, self._memo_table = outer

    # -- numerals --------------------------------------------------------------
    def inflation(self) -> int:
        """How much a printed 1 currently reads higher (for explanations and tests)."""
        return self.read_numeral(-1, 1) - 1

    def read_numeral(self, card: int, value: int) -> int:
        """A printed numeral on `card` as the rules in play make it read: each rule
        with a numeral hook (Inflation, One, Two, Five!) applies in the order played,
        never to its own card."""
        st, e = self.state, self.engine
        defs = st.defs
        for r in st.rules + st.meta_rules:
            impl = defs[r].impl
            if r != card and "numeral" in impl.overridden:
                value = impl.numeral(e, r, card, value)
        return value

    def num(self, card: int, param: str) -> int:
        """A card's numeric parameter: numerals pass through the numeral hook."""
        d = self.state.defs[card]
        value = d.params[param]
        if param in d.numerals and isinstance(value, int):
            value = self.read_numeral(card, value)
        return value

    # -- rules in play -------------------------------------------------------------
    def rule_cards(self) -> list[int]:
        """Rules that are in force: New Rules and Meta Rules, then the Basic Rules."""
        st = self.state
        cards = st.rules + st.meta_rules
        return cards + [st.basic] if st.basic is not None else cards

    def with_effect(self, effect: str, player: str | None = None) -> list[int]:
        """The cards in force that impose the static effect `effect` (see
        `mechanics.base.EFFECTS`): with `player`, the working cards in front of them;
        without, the rules in play."""
        st, e = self.state, self.engine
        defs = st.defs
        if player is None:
            return [r for r in st.rules + st.meta_rules if effect in defs[r].impl.effects]
        return [k for k in st.keepers[player] if effect in defs[k].impl.effects and defs[k].impl.power_active(e, k)]

    def _first(self, hook: str, *args: object) -> Any:      # what that hook returns (a number, a quota)
        """The first rule in force that answers (New Rules before the Basic Rules)."""
        defs = self.state.defs
        for r in self.rule_cards():
            impl = defs[r].impl
            if hook in impl.overridden:
                value = getattr(impl, hook)(self, r, *args)
                if value is not None:
                    return value
        return None

    def draw_rule(self) -> int:
        return self._first("draw_base") or 0

    def powered(self, player: str, hook: str | None = None) -> list[int]:
        """Cards in front of `player` whose powers work now (with `hook`: only those
        whose mechanic answers that question)."""
        st, e = self.state, self.engine
        defs = st.defs
        return [k for k in st.keepers[player] if (hook is None or hook in defs[k].impl.overridden)
                and defs[k].impl.power_active(e, k)]

    def _bonus(self, hook: str, player: str) -> int:
        """The sum of a bonus hook over the rules in force and `player`'s powered cards."""
        st, e = self.state, self.engine
        defs = st.defs
        total = 0
        for c in self.rule_cards():
            impl = defs[c].impl
            if hook in impl.overridden:
                total += getattr(impl, hook)(e, c, player)
        for k in self.powered(player, hook):
            total += getattr(defs[k].impl, hook)(e, k, player)
        return total

    @_memoized
    def draw_total(self, player: str) -> int:
        return max(self.draw_rule() + self._bonus("draw_bonus", player), 0)

    def draws_owed(self) -> int:
        st = self.state
        if st.phase != "play" or st.game_over:
            return 0
        return max(0, self.draw_total(st.active_player) - st.drawn)

    def play_bonus(self, player: str) -> int:
        return self._bonus("play_bonus", player)

    @_memoized
    def play_quota(self, player: str) -> tuple[str, int]:
        """('n', N): play N cards this turn; ('all_but', k): play until k are left
        (k = 0 is Play All). A Play bonus adds to N, and takes one off k: Play All But 1
        with a +1 bonus is Play All, and nothing exceeds All."""
        kind, value = self._first("play_quota") or ("n", 1)
        bonus = self.play_bonus(player)
        if kind == "n":
            return ("n", max(0, value + bonus))
        return ("all_but", max(0, value - bonus))

    @_memoized
    def plays_left(self) -> int:
        """Plays the active player can actually still make this turn (cards to play them
        with included): the figure Get On With It, Swap Plays and turn ends use."""
        st = self.state
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
        return max(0, hand - value)

    def plays_left_label(self) -> int | str:
        """plays_left as the scenario format shows it: 'all' under Play All."""
        st = self.state
        if not st.temp_hands and st.phase == "play" and not st.game_over:
            kind, value = self.play_quota(st.active_player)
            if kind == "all_but" and value == 0 and st.hands[st.active_player]:
                return "all"
        return self.plays_left()

    # -- limits and slots -----------------------------------------------------------
    @_memoized
    def hand_limit(self, player: str | None = None) -> int | None:
        """The Hand Limit in play; for a player, raised by their Keepers' powers."""
        limit = self._first("hand_limit")
        if limit is not None and player is not None:
            limit += self._limit_bonus(player)
        return limit

    @_memoized
    def keeper_limit(self, player: str | None = None) -> int | None:
        limit = self._first("keeper_limit")
        if limit is not None and player is not None:
            limit += self._limit_bonus(player)
        return limit

    def _limit_bonus(self, player: str) -> int:
        st, e = self.state, self.engine
        return sum(st.defs[k].impl.limit_bonus(e, k, player) for k in self.powered(player, "limit_bonus"))

    @_memoized
    def agenda_size(self) -> int:
        return self._first("agenda") or 1

    def keeper_count(self, player: str) -> int:
        st = self.state
        return sum(1 for k in st.keepers[player] if st.defs[k].type == KEEPER)
