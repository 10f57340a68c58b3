"""Cards moving: every move a rule makes is a typed event, shown to the cards in play
before it happens.

A `Move` says which card goes from which zone (`Zone`) to which, who makes it happen
(`by`: the player whose card, power or duty moves it) and why (`cause`). The rules
core builds one for every card it moves for the rules (`Core.transfer`), asks each
card in force whose mechanic answers `replace_move` (the rules in play, the cards in
front of players, the card moving among them, and the game's variant) whether the
move happens some other way, and only then moves the card: a card's own "instead"
("when this would be discarded, it goes on top of the draw pile", "another player
must take this one instead") holds by every route, however the move was asked for.
Each card replaces a move at most once, and the replaced move is asked of the others
again, as Forge and XMage ask every card about each event.

What a move means is read off its zones: `leaves_play` (off a table, the rules or the
Goals), `discards`, `into_hand`, `takes` (a Keeper or Creeper off one player's table
into another player's hand or table, by a player's card). The cards never name one
another: a card that answers "taking" answers a taking by any card.

The cards lying under a card in play (the Booty buried under the Treasure Map, the
Action kept with Let's Keep Doing That) are a zone of their own, named by the card on
top (`under(card)`): it is not in play, and it travels with that card (see
`Core._pile_goes_along`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.state import State

# zone kinds: a player's hand and table (the Keepers and Creepers in front of them), a
# player's innermost temporary hand, and the table's shared zones (State attributes)
HAND, TABLE, TEMP_HAND = "hand", "keepers", "temp_hand"
RULES, META_RULES, GOALS = "rules", "meta_rules", "goals"
DRAW_PILE, DISCARD, RESOLVING, REMOVED = "draw_pile", "discard", "resolving", "removed"
RULES_PILE, RULES_DISCARD, SCORED = "rules_pile", "rules_discard", "scored"
UNDER = "under"          # the cards lying under a card (Zone.card names the card on top)
SHARED_ZONES = (RULES, META_RULES, GOALS, DRAW_PILE, DISCARD, RESOLVING, REMOVED, RULES_PILE, RULES_DISCARD, SCORED)
_SHARED = frozenset(SHARED_ZONES)
IN_PLAY = frozenset({TABLE, RULES, META_RULES, GOALS})
# piles are listed top first: a card put on one goes on top unless told otherwise
PILES = frozenset({DRAW_PILE, DISCARD, RULES_PILE, RULES_DISCARD, SCORED})

# why a card moves
EFFECT = "effect"        # what a card in play or being carried out says
LIMIT = "limit"          # complying with a Hand or Keeper Limit
CANCEL = "cancel"        # a Surprise canceling a card
FINISH = "finish"        # an Action done, going where finished Actions go
TURN = "turn"            # the turn's own steps: temporary hands closed at its end, duties
RULE = "rule"            # a New Rule, Goal or Keeper placed, displacing what it replaces
SETUP = "setup"          # dealing, joining and leaving the table
EXCHANGE = "exchange"    # a swap, each player giving as much as taking (Exchange Keepers): no taking
CAUSES = (EFFECT, LIMIT, CANCEL, FINISH, TURN, RULE, SETUP, EXCHANGE)


class Zone(NamedTuple):
    """A zone of the table: `Zone("hand", "Ann")`, `Zone("discard")`. A temporary hand
    is its owner's innermost one unless `frame` (an index into `State.temp_hands`)
    says which; the cards under a card name that card (`card`, see `under`)."""

    kind: str
    player: str | None = None
    frame: int | None = None
    card: int | None = None

    def __str__(self) -> str:
        if self.kind == UNDER:
            return f"under card {self.card}"
        return f"{self.player}.{self.kind}" if self.player is not None else self.kind


# (a player's hand and table are named on most moves: the same unchangeable Zone is
# handed out again for the same player)
@lru_cache(maxsize=256)
def hand(player: str) -> Zone:
    return Zone(HAND, player)


@lru_cache(maxsize=256)
def table(player: str) -> Zone:
    """The Keepers and Creepers in front of `player`."""
    return Zone(TABLE, player)


def under(card: int) -> Zone:
    """The cards lying under `card` (a card in play, or in flight with it)."""
    return Zone(UNDER, card=card)


DISCARD_PILE = Zone(DISCARD)
RULES_DISCARD_PILE = Zone(RULES_DISCARD)
DRAW = Zone(DRAW_PILE)
IN_FLIGHT = Zone(RESOLVING)
OUT_OF_GAME = Zone(REMOVED)
RULES_IN_PLAY = Zone(RULES)
GOALS_IN_PLAY = Zone(GOALS)


class Move(NamedTuple):
    """One card moving from `src` to `dst` (on top of a pile when `top`). (A named
    tuple: as unchangeable as a frozen dataclass, and built in a third of its time;
    the rules core builds one for every card it moves.)"""

    card: int
    src: Zone
    dst: Zone
    by: str | None = None
    cause: str = EFFECT
    top: bool = False

    @property
    def leaves_play(self) -> bool:
        return self.src.kind in IN_PLAY and self.dst.kind not in IN_PLAY

    @property
    def discards(self) -> bool:
        return self.dst.kind == DISCARD

    @property
    def into_hand(self) -> bool:
        return self.dst.kind == HAND

    @property
    def takes(self) -> bool:
        """A card off one player's table into another player's hand or table, made to
        happen by a player other than its holder, and not a swap: what Steal a Keeper,
        a power that takes, Zap A Card! into a hand and It's A Trap! call taking. A card
        taken from a hand is never a taking of this kind, nor is a holder giving their
        own card away."""
        return (self.src.kind == TABLE and self.dst.kind in (HAND, TABLE) and self.dst.player != self.src.player
                and self.by is not None and self.by != self.src.player and self.cause != EXCHANGE)

    def instead(self, **changes: Any) -> Move:
        """The move as a replacement effect makes it happen instead."""
        return self._replace(**changes)


def zone_list(st: State, zone: Zone) -> list[int]:
    """The list of card ids that `zone` is on the table `st`."""
    kind = zone.kind
    if kind == HAND:
        return st.hands[zone.player]        # type: ignore[index]
    if kind == TABLE:
        return st.keepers[zone.player]      # type: ignore[index]
    if kind in _SHARED:
        zone_cards: list[int] = getattr(st, kind)
        return zone_cards
    if kind == TEMP_HAND:
        if zone.frame is not None:
            return st.temp_hands[zone.frame].cards
        return next(t for t in reversed(st.temp_hands) if t.owner == zone.player).cards
    if kind == UNDER:
        return st.pile(zone.card)           # type: ignore[arg-type]
    raise ValueError(f"engine error: no zone of kind {kind!r}")


def zone_of(st: State, card: int) -> Zone:
    """Where `card` is on the table `st` (an engine error if nowhere)."""
    for p in st.players:
        if card in st.hands[p]:
            return Zone(HAND, p)
        if card in st.keepers[p]:
            return Zone(TABLE, p)
    for kind in SHARED_ZONES:
        if card in getattr(st, kind):
            return Zone(kind)
    for i, frame in enumerate(st.temp_hands):
        if card in frame.cards:
            return Zone(TEMP_HAND, frame.owner, i)
    for top, pile in st.under.items():
        if card in pile:
            return under(top)
    raise st.misplaced(card)
