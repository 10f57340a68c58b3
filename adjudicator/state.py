"""The table: every zone a card can be in, and the turn's bookkeeping.

Cards are physical copies identified by small integers; `State.defs[i]` is the card
definition of copy i and is shared (never copied). Zones hold copy ids. Piles are
lists with the top card first. Only facts are stored here: quantities such as plays
left or the Hand Limit are derived on demand by `adjudicator.quantities`.

Cards move only through the primitives at the end of `State` (`move`, `move_run`,
`pass_zones`, `shuffle_zone`, `relabel`, `attach` and `detach`, `turn` (a card face
down or face-out), and the ones that open and close a player's or a temporary hand's
zones, and the pile under a card): each checks that the cards are where the caller says,
so no card is ever lost or doubled, and counts the change in `State.moves`. The rules
core builds on them the moves that fire hooks (`Core.place_in_front`,
`Core.remove_rule`, `Core.move_to`...). tests/test_card_moves.py finds any other edit
of a zone in the engine's source.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Sequence, TypeVar

from adjudicator.catalogue import CardDef

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.pending import Pending
    from adjudicator.history import Happened


_MASK = (1 << 64) - 1


class MisplacedCard(Exception):
    """An engine bug: a card was to be moved from a zone that does not hold it (or a
    zone holding cards was to be closed), which would lose or double a card."""

T = TypeVar("T")


class Rng:
    """The table's seeded generator (splitmix64): its whole state is one integer, so
    copying a table copies it for free and a replay is the same on every machine."""

    __slots__ = ("s",)

    def __init__(self, seed: int = 0):
        self.s = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK

    def _next(self) -> int:
        self.s = z = (self.s + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self._next() % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "Rng":
        r = Rng.__new__(Rng)
        r.s = self.s
        return r


@dataclass
class TempHand:
    """A temporary hand (Draw 3, Play 2 of Them...): the owner's real hand is set aside
    while plays come from here. Frames nest; the innermost is last in the stack."""

    owner: str
    source: int                   # the Action card copy that opened it
    cards: list[int]
    plays: int                    # how many of its cards must be played
    made: int = 0                 # plays made from it so far
    drawn: int = 0                # cards the source asked to draw into it so far
    params: tuple[str, str] = ("", "")  # the source's draw and play parameters, re-read when numbers change

    def copy(self) -> "TempHand":
        return TempHand(self.owner, self.source, list(self.cards), self.plays, self.made, self.drawn, self.params)


@dataclass
class Window:
    """A response window: a card play (or free action, or Surprise) that a Surprise may
    still answer. The windows of the last game action stay open until the next one."""

    kind: str                     # play | use | surprise
    card: int                     # the card played or used
    by: str
    card_type: str                # keeper, goal, rule, action, surprise... (for `use`: the card granting it)
    before: "State | None"        # the table just before it happened (to cancel it)
    serial: int                   # the step that opened it
    counted: bool = False         # it used one of the player's plays
    in_temp: bool = False         # played from a temporary hand
    victims: tuple[str, ...] = () # players whose Keepers it takes
    takers: tuple[tuple[str, str], ...] = ()  # (victim, who receives the Keeper taken from them)
    into_hand: bool = False       # a Keeper it takes goes into a hand (Zap A Card!), not onto a table
    target: "Window | None" = None  # for a Surprise: the window it answered
    shown: bool = False           # its effect has been carried out and shown (cards taken at random and seen)
    resume: Pending | None = None  # the play whose effect was waiting for a decision when this came (to resume it)
    kept: bool = False            # a use of a real card kept under the one granting it (an Action kept with Let's
                                  # Keep Doing That): a Surprise against that kind of card may answer it


@dataclass
class State:
    defs: list[CardDef]
    players: list[str]
    hands: dict[str, list[int]]
    keepers: dict[str, list[int]]
    rules: list[int] = field(default_factory=list)
    meta_rules: list[int] = field(default_factory=list)
    goals: list[int] = field(default_factory=list)
    draw_pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    rules_pile: list[int] = field(default_factory=list)   # Solo Fluxx: the Rules deck, top first
    rules_discard: list[int] = field(default_factory=list)  # Solo Fluxx: the Rules discard pile, top first
    scored: list[int] = field(default_factory=list)       # Solo Fluxx: Goals scored
    solo: bool = False
    ended: bool = False                                   # the game ended without a winner (Solo)
    resolving: list[int] = field(default_factory=list)
    temp_hands: list[TempHand] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    attachments: dict[int, int] = field(default_factory=dict)   # attached Creeper -> its Keeper
    waiting: dict[str, list[str]] = field(default_factory=dict)  # eliminated -> players who completed a turn since
    knocked_in: dict[str, int] = field(default_factory=dict)     # eliminated -> the turn (number) that knocked them out
    secrets: dict[int, str] = field(default_factory=dict)        # Secret -> the hand it was in at the last checkpoint
    # the cards lying under a card in play (the Treasure Map's Booty, the Action kept with
    # Let's Keep Doing That), top first: not in play, and they travel with that card
    under: dict[int, list[int]] = field(default_factory=dict)
    face_down: frozenset[int] = frozenset()   # Keepers lying face down in front of their holder (Camouflage)
    face_out: frozenset[int] = frozenset()    # cards held face-out in a hand, already played (a worn Magic Ring)
    # effects a card left on a player until that player's next turn begins:
    # (player, effect of mechanics.base.EFFECTS, the card that left it)
    lasting: tuple[tuple[str, str, int], ...] = ()
    goals_seen: frozenset[int] | None = None                     # the Goals in play at the last checkpoint
    two_player: bool = False                                     # the game started with two players
    questions: int = 0                                           # trivia questions asked this turn
    basic: int | None = None      # the Basic Rules copy (always in play, never discarded)
    # the turn
    active: int = 0
    drawn: int = 0
    played: int = 0
    phase: str = "play"           # start | play | ending
    started_empty: bool = False
    free_used: list[int] = field(default_factory=list)   # copies whose free action was used this turn
    held_at_start: list[int] = field(default_factory=list)   # what the active player had in front of them as the turn began
    claims: list[str] = field(default_factory=list)    # judged bonuses the table granted this turn
    another_turn: int = 0         # extra turns owed to the active player, one per card that granted one
    turns_in_a_row: int = 1
    extra_turn_cards: list[str] = field(default_factory=list)  # keys of the cards that granted an extra turn in this run
    turn_number: int = 1
    # the game
    winner: str | None = None
    everyone_loses: bool = False
    windows: list[Window] = field(default_factory=list)
    history: list[Happened] = field(default_factory=list)  # the game actions, newest last (adjudicator.history)
    reshuffle_order: list[str] = field(default_factory=list)   # card keys, in the order a reshuffle deals them
    rng: Rng = field(default_factory=Rng)
    serial: int = 0
    moves: int = 0                # changes of the zones so far (every primitive below counts one)
    # the physical copies of each title in the scenario's reading order (format 1.2,
    # item 1), and the label of each copy of a title the table holds more than once
    # ("Unseen Force #2"): fixed when the table is set up, shared by every copy of it
    copy_order: dict[str, list[int]] = field(default_factory=dict, compare=False, repr=False)
    copy_labels: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    # the figures kept for the face-up table as it is now (Quantities), or None once
    # anything they read has changed: every primitive below and every change of the
    # turn's owner, the players in or out, or the bonuses granted resets it
    figures: dict[Any, Any] | None = field(default=None, compare=False, repr=False)
    # the figures kept for the rules in force (Quantities.rules_in_force), or None once a
    # rule has come or gone: reset with `figures` by a move to or from the rules, and by
    # the primitives that may change any zone
    rule_figures: dict[Any, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def active_player(self) -> str:
        return self.players[self.active]

    @property
    def game_over(self) -> bool:
        return self.winner is not None or self.everyone_loses or self.ended

    def snapshot(self) -> "State":
        """A copy to restore if the next action is canceled; it keeps no windows of its
        own, so snapshots never chain."""
        copy = self.clone()
        copy.windows = []
        return copy

    def shared_snapshot(self, serial: int) -> "State":
        """A snapshot (no windows) that shares every zone and list with this table
        instead of copying them, numbered `serial`: only for a table that is never
        changed again, as the table a step started from never is (every run works on a
        copy of it)."""
        c = State.__new__(State)
        self._share_into(c)
        c.windows = []
        c.serial = serial
        return c

    # A copy shares every field first (`_share_into`), then copies each container a rule
    # may change in place. Sharing goes through the object's __dict__ where there is one
    # (pure Python: one copy of a dict instead of fifty attribute writes), field by field
    # in the compiled build of the engine (`make compiled`), which has no __dict__. Every
    # field is named in `_share_into` (tests/test_state_clone.py checks that none is
    # missed, and that a copy shares no container).
    def clone(self) -> "State":
        """A copy to change freely: every zone and list copied, the card definitions
        (`defs`, which only grow) and immutable facts shared. (Each list and dict copied
        by its own `copy`, and an empty zone of many copied as a new empty one: the
        cheapest copies in CPython, and a table is copied for most events.)"""
        c = State.__new__(State)
        self._share_into(c)
        c.players = self.players.copy()
        c.hands = {p: cards.copy() for p, cards in self.hands.items()}
        c.keepers = {p: cards.copy() for p, cards in self.keepers.items()}
        c.rules = self.rules.copy()
        c.meta_rules = self.meta_rules.copy()
        c.goals = self.goals.copy()
        c.draw_pile = self.draw_pile.copy()
        c.discard = self.discard.copy()
        c.removed = self.removed.copy()
        c.rules_pile = self.rules_pile.copy()
        c.rules_discard = self.rules_discard.copy()
        c.scored = self.scored.copy()
        c.resolving = self.resolving.copy()
        c.temp_hands = [t.copy() for t in self.temp_hands] if self.temp_hands else []
        c.eliminated = self.eliminated.copy()
        c.attachments = self.attachments.copy()
        c.waiting = {p: v.copy() for p, v in self.waiting.items()} if self.waiting else {}
        c.knocked_in = self.knocked_in.copy()
        c.secrets = self.secrets.copy()
        c.under = {top: pile.copy() for top, pile in self.under.items()} if self.under else {}
        c.free_used = self.free_used.copy()
        c.held_at_start = self.held_at_start.copy()
        c.claims = self.claims.copy()
        c.extra_turn_cards = self.extra_turn_cards.copy()
        c.windows = self.windows.copy()
        c.history = self.history.copy()
        c.reshuffle_order = self.reshuffle_order.copy()
        c.rng = self.rng.copy()
        return c

    def _share_into(self, c: "State") -> None:
        """Give `c` every field of this table, the very same objects."""
        if _INSTANCE_DICT:
            c.__dict__ = self.__dict__.copy()      # (one copy of the whole dict: cheaper than filling an empty one)
            return
        c.defs = self.defs
        c.players = self.players
        c.hands = self.hands
        c.keepers = self.keepers
        c.rules = self.rules
        c.meta_rules = self.meta_rules
        c.goals = self.goals
        c.draw_pile = self.draw_pile
        c.discard = self.discard
        c.removed = self.removed
        c.rules_pile = self.rules_pile
        c.rules_discard = self.rules_discard
        c.scored = self.scored
        c.solo = self.solo
        c.ended = self.ended
        c.resolving = self.resolving
        c.temp_hands = self.temp_hands
        c.eliminated = self.eliminated
        c.attachments = self.attachments
        c.waiting = self.waiting
        c.knocked_in = self.knocked_in
        c.secrets = self.secrets
        c.under = self.under
        c.face_down = self.face_down
        c.face_out = self.face_out
        c.lasting = self.lasting
        c.goals_seen = self.goals_seen
        c.two_player = self.two_player
        c.questions = self.questions
        c.basic = self.basic
        c.active = self.active
        c.drawn = self.drawn
        c.played = self.played
        c.phase = self.phase
        c.started_empty = self.started_empty
        c.free_used = self.free_used
        c.held_at_start = self.held_at_start
        c.claims = self.claims
        c.another_turn = self.another_turn
        c.turns_in_a_row = self.turns_in_a_row
        c.extra_turn_cards = self.extra_turn_cards
        c.turn_number = self.turn_number
        c.winner = self.winner
        c.everyone_loses = self.everyone_loses
        c.windows = self.windows
        c.history = self.history
        c.reshuffle_order = self.reshuffle_order
        c.rng = self.rng
        c.serial = self.serial
        c.moves = self.moves
        c.copy_order = self.copy_order
        c.copy_labels = self.copy_labels
        c.figures = self.figures
        c.rule_figures = self.rule_figures

    def number_copies(self, order: Sequence[int]) -> None:
        """Number the copies of each title in `order` (the scenario's reading order)."""
        by_key: dict[str, list[int]] = {}
        for c in order:
            d = self.defs[c]
            if d.type not in ("unknown", "basic"):
                by_key.setdefault(d.key, []).append(c)
        self.copy_order = by_key
        self.copy_labels = {c: f"{self.defs[c].name} #{i}" for cards in by_key.values() if len(cards) > 1
                            for i, c in enumerate(cards, 1)}

    def copy_of(self, key: str, number: int) -> int | None:
        """The copy id of the `number`-th copy of a title (1-based), or None."""
        cards = self.copy_order.get(key, [])
        return cards[number - 1] if 1 <= number <= len(cards) else None

    def label(self, card: int) -> str:
        """A card as the verdict names it: its title, with its number when the table
        holds more than one copy of it."""
        return self.copy_labels.get(card) or self.defs[card].name

    # -- reading zones -----------------------------------------------------
    def name(self, card: int) -> str:
        return self.defs[card].name

    def all_zones(self) -> dict[str, list[int]]:
        """Every zone by its scenario-format name (temporary hands merged per owner)."""
        zones: dict[str, list[int]] = {}
        for p in self.players:
            zones[f"{p}.hand"] = self.hands[p]
            zones[f"{p}.keepers"] = self.keepers[p]
            # the temporary hand a player is playing from: their innermost open one
            frames = [t for t in self.temp_hands if t.owner == p]
            zones[f"{p}.temp_hand"] = frames[-1].cards if frames else []
        zones.update(rules=self.rules, meta_rules=self.meta_rules, goals=self.goals,
                     draw_pile=self.draw_pile, discard=self.discard, removed=self.removed,
                     resolving=self.resolving, rules_pile=self.rules_pile, rules_discard=self.rules_discard,
                     scored=self.scored)
        for top, pile in self.under.items():
            zones[f"{self.label(top)}.under"] = pile
        return zones

    def every_card(self) -> list[int]:
        cards = [c for p in self.players for c in self.hands[p]]
        cards += [c for p in self.players for c in self.keepers[p]]
        cards += [c for t in self.temp_hands for c in t.cards]
        cards += self.rules + self.meta_rules + self.goals + self.draw_pile + self.discard
        cards += self.removed + self.resolving + self.rules_pile + self.rules_discard + self.scored
        for pile in self.under.values():
            cards += pile
        if self.basic is not None:
            cards.append(self.basic)
        return cards

    def owner_of_keeper(self, card: int) -> str | None:
        for p in self.players:
            if card in self.keepers[p]:
                return p
        return None

    def holder_of(self, card: int) -> str:
        """The player with `card` (a Keeper or Creeper) in front of them; it must be there."""
        owner = self.owner_of_keeper(card)
        if owner is None:
            raise KeyError(f"{self.name(card)} is not in front of any player")
        return owner

    def in_play(self) -> list[int]:
        """Cards face up on the table (not the discard pile, not hands)."""
        return [c for p in self.players for c in self.keepers[p]] + self.rules + self.meta_rules + self.goals

    def compact(self) -> dict[str, Any]:
        """A short, JSON-ready picture of the table for verdicts and the app."""
        defs = self.defs

        def names(cards: Sequence[int]) -> list[str]:
            return [defs[c].name for c in cards]

        out: dict[str, Any] = {
            "turn": self.active_player, "drawn": self.drawn, "played": self.played,
            "rules": names(self.rules), "goals": names(self.goals),
        }
        if self.meta_rules:
            out["meta_rules"] = names(self.meta_rules)
        out["hands"] = {p: names(self.hands[p]) for p in self.players}
        out["keepers"] = {p: names(self.keepers[p]) for p in self.players if self.keepers[p]}
        if self.under:
            out["under"] = {self.label(top): names(pile) for top, pile in self.under.items()}
        if self.face_down:
            out["face_down"] = names(sorted(self.face_down))
        if self.face_out:
            out["face_out"] = names(sorted(self.face_out))
        if self.lasting:
            out["lasting"] = [[p, effect, defs[c].name] for p, effect, c in self.lasting]
        if self.temp_hands:
            temps = {p: [defs[c].name for t in self.temp_hands if t.owner == p for c in t.cards] for p in self.players}
            temps = {p: v for p, v in temps.items() if v or any(t.owner == p for t in self.temp_hands)}
            if temps:
                out["temp_hands"] = temps
        out["draw_pile"] = len(self.draw_pile)
        out["discard"] = names(self.discard[:5]) + (["..."] if len(self.discard) > 5 else [])
        if self.eliminated:
            out["eliminated"] = list(self.eliminated)
        if self.winner:
            out["winner"] = self.winner
        if self.everyone_loses:
            out["everyone_loses"] = True
        if self.solo:
            out["rules_pile"] = len(self.rules_pile)
            if self.rules_discard:
                out["rules_discard"] = names(self.rules_discard[:5]) + (["..."] if len(self.rules_discard) > 5 else [])
            out["scored"] = names(self.scored)
        if self.ended:
            out["ended"] = True
        return out

    # -- moving cards: the only way a zone changes ------------------------------
    def move(self, card: int, src: list[int], dst: list[int], top: bool = False) -> None:
        """Move `card` from the zone `src` to the zone `dst`: on top (first) or at the
        end (the bottom of a pile, the newest card of a hand or a table).

        >>> from adjudicator.catalogue import default_catalogue
        >>> cat = default_catalogue()
        >>> st = State(defs=[cat.resolve("Milk"), cat.resolve("Cookies")], players=["Ann"],
        ...            hands={"Ann": [0]}, keepers={"Ann": []})
        >>> st.move(0, st.hands["Ann"], st.keepers["Ann"])
        >>> st.keepers, st.moves
        ({'Ann': [0]}, 1)
        >>> st.move(1, st.hands["Ann"], st.discard)
        Traceback (most recent call last):
        ...
        adjudicator.state.MisplacedCard: engine error: Cookies (copy 1) was to be moved from Ann.hand, which does not hold it; it is in no zone
        """
        try:
            src.remove(card)
        except ValueError:
            raise self.misplaced(card, src) from None
        if top:
            dst.insert(0, card)
        else:
            dst.append(card)
        self.moves += 1
        if self.under and not src:
            self._close_empty_pile(src)
        if self.face_down or self.face_out:
            self._facing_moves(card, dst)
        if src is self.rules or dst is self.rules or src is self.meta_rules or dst is self.meta_rules:
            self.figures = self.rule_figures = None
        elif self.figures is not None:
            # the face-up figures read the players' tables as they read the rules; a card
            # moving between hands and piles leaves every kept figure as it was
            for zone in self.keepers.values():
                if zone is src or zone is dst:
                    self.figures = None
                    break

    def _close_empty_pile(self, zone: list[int]) -> None:
        """A pile under a card that has just given up its last card is gone."""
        for top, pile in self.under.items():
            if pile is zone:
                del self.under[top]
                return

    def _facing_moves(self, card: int, dst: list[int]) -> None:
        """A card face down stays so only from one table to another, a card held
        face-out only from one hand to another; anywhere else it is an ordinary card."""
        if card in self.face_down and not any(dst is z for z in self.keepers.values()):
            self.face_down = self.face_down - {card}
            self.figures = None
        elif card in self.face_out and not any(dst is z for z in self.hands.values()):
            self.face_out = self.face_out - {card}

    def to_discard(self, card: int, src: list[int]) -> None:
        """Move `card` from the zone `src` to the top of the discard pile."""
        self.move(card, src, self.discard, True)

    def move_run(self, cards: Sequence[int], src: list[int], dst: list[int], top: bool = False) -> None:
        """Move several cards from `src` to `dst` one at a time, in the order given (so
        moved to the top, the last ends on top)."""
        for card in cards:
            self.move(card, src, dst, top)

    def pass_zones(self, passes: Sequence[tuple[list[int], list[int]]]) -> None:
        """Whole zones change places at once (Trade Hands, Rotate Hands): each pair is a
        zone and the zone that receives its cards. The receiving zones must be the
        giving zones, each once, so that every card lands somewhere and none twice."""
        giving = [id(z) for z, _ in passes]
        if sorted(giving) != sorted(id(z) for _, z in passes) or len(set(giving)) != len(giving):
            raise MisplacedCard("zones passed on must receive from each other, each once")
        contents = [list(z) for z, _ in passes]
        for (_, dst), cards in zip(passes, contents):
            dst[:] = cards
        self.moves += 1
        self.figures = self.rule_figures = None

    def shuffle_zone(self, zone: list[int]) -> None:
        """Shuffle a zone (a pile) in place with the table's generator."""
        self.rng.shuffle(zone)
        self.moves += 1
        self.figures = self.rule_figures = None

    # -- the other facts the figures read: changed only here -------------------
    def set_active(self, index: int) -> None:
        """The player at seat `index` is the active player."""
        self.active = index
        self.figures = None

    def begin_turn(self, index: int) -> None:
        """The turn of the player at seat `index` begins: no bonus granted yet, and
        whether it began with an empty hand is noted; what a card left on that player
        until their next turn ends."""
        if self.lasting:
            self.lasting = tuple(x for x in self.lasting if x[0] != self.players[index])
        self.active = index
        self.claims = []
        self.started_empty = not self.hands[self.players[index]]
        self.held_at_start = list(self.keepers[self.players[index]])
        self.figures = None

    def grant(self, claim: str) -> None:
        """The table grants a judged bonus (its card key) for this turn."""
        self.claims.append(claim)
        self.figures = None

    def knock_out(self, player: str) -> None:
        """`player` is out of the game (their cards already gone where they go)."""
        self.eliminated.append(player)
        self.figures = None

    def bring_back(self, player: str) -> None:
        """A knocked-out `player` is back in the game."""
        self.eliminated.remove(player)
        self.figures = None

    def seat(self, player: str) -> None:
        """A player joins the table in the last seat (their zones opened next)."""
        self.players.append(player)
        self.figures = None

    def unseat(self, player: str) -> None:
        """A player leaves the table (their zones already closed), and what a card had
        left on them goes with them."""
        self.players.remove(player)
        if self.lasting:
            self.lasting = tuple(x for x in self.lasting if x[0] != player)
        self.figures = None

    def impose(self, player: str, effect: str, card: int) -> None:
        """`card` leaves `effect` on `player` until their next turn begins."""
        self.lasting = self.lasting + ((player, effect, card),)
        self.figures = None

    def turn(self, card: int, face: str) -> None:
        """Turn a card: "down" (a Keeper in front of its holder, face down), "out" (a
        card in a hand, held face-out) or "up" (an ordinary card again)."""
        down, out = self.face_down - {card}, self.face_out - {card}
        if face == "down":
            if not any(card in z for z in self.keepers.values()):
                raise MisplacedCard(f"engine error: only a card in front of a player lies face down; "
                                    f"{self.name(card)} (copy {card}) is not in front of anyone")
            down |= {card}
        elif face == "out":
            if not any(card in z for z in self.hands.values()):
                raise MisplacedCard(f"engine error: only a card in a hand is held face-out; "
                                    f"{self.name(card)} (copy {card}) is in no hand")
            out |= {card}
        self.face_down, self.face_out = down, out
        self.moves += 1
        self.figures = None

    def pile(self, card: int) -> list[int]:
        """The cards lying under `card`, top first (an empty pile, opened now, when
        there are none: it closes again once empty)."""
        pile = self.under.get(card)
        if pile is None:
            pile = self.under[card] = []
        return pile

    def attach(self, creeper: int, keeper: int) -> None:
        """Record `creeper` as attached to `keeper` (both in play)."""
        self.attachments[creeper] = keeper
        self.moves += 1
        self.figures = None

    def detach(self, creeper: int) -> None:
        """`creeper` is attached to nothing any more (if it was)."""
        if self.attachments.pop(creeper, None) is not None:
            self.moves += 1
            self.figures = None

    def relabel(self, old: int, new: int) -> None:
        """Copy `new` takes the place of copy `old` wherever it stands in a hand or
        temporary hand: an unseen card ('?') revealed is the same physical card."""
        for zone in [*self.hands.values(), *(t.cards for t in self.temp_hands)]:
            if old in zone:
                zone[zone.index(old)] = new
        self.moves += 1
        self.figures = None

    @contextmanager
    def borrowed(self, card: int, zone: list[int]) -> Iterator[None]:
        """For a what-if only (Holographic Projection asking whether a Keeper would meet
        a Goal): `card` is counted in `zone` too while the block runs, and is out of it
        again when the block ends; it never leaves where it is."""
        zone.append(card)
        self.moves += 1
        self.figures = self.rule_figures = None
        try:
            yield
        finally:
            zone.remove(card)
            self.moves += 1
            self.figures = self.rule_figures = None

    @contextmanager
    def facing(self, down: frozenset[int]) -> Iterator[None]:
        """For a what-if only: exactly the cards `down` lie face down (no power, meeting
        no Goal) while the block runs; the table is as it was after."""
        was = self.face_down
        self.face_down = down
        self.moves += 1
        self.figures = None
        try:
            yield
        finally:
            self.face_down = was
            self.moves += 1
            self.figures = None

    def turned_up(self) -> AbstractContextManager[None]:
        """For a what-if only (would a face-down Keeper meet a Goal?): every card face
        down counts as turned up while the block runs."""
        return self.facing(frozenset())

    def powerless(self, card: int) -> AbstractContextManager[None]:
        """For a what-if only (would anyone meet a Goal but for this card's power?):
        `card` counts as lying face down, with no power and meeting no Goal."""
        return self.facing(self.face_down | {card})

    def add_frame(self, frame: TempHand) -> None:
        """Open a temporary hand (empty: cards are then drawn into it)."""
        if frame.cards:
            raise MisplacedCard(f"a temporary hand opens empty; this one holds {len(frame.cards)} card(s)")
        self.temp_hands.append(frame)
        self.moves += 1
        self.figures = None

    def drop_frame(self, frame: TempHand) -> None:
        """Close a temporary hand whose cards have all gone elsewhere."""
        if frame.cards:
            raise MisplacedCard(f"closing a temporary hand that still holds {self._names(frame.cards)} would lose them")
        self.temp_hands.remove(frame)
        self.moves += 1
        self.figures = None

    def add_player_zones(self, player: str) -> None:
        """Give a player joining the table an empty hand and an empty table."""
        if player in self.hands or player in self.keepers:
            raise MisplacedCard(f"{player} already has zones at the table")
        self.hands[player] = []
        self.keepers[player] = []
        self.moves += 1
        self.figures = None

    def drop_player_zones(self, player: str) -> None:
        """Take away the zones of a player leaving the table, once they are empty."""
        left = self.hands[player] + self.keepers[player]
        if left:
            raise MisplacedCard(f"{player} leaves with {self._names(left)} still in their zones: they would be lost")
        del self.hands[player], self.keepers[player]
        self.moves += 1
        self.figures = None

    def _names(self, cards: Sequence[int]) -> str:
        return ", ".join(self.name(c) for c in cards)

    def misplaced(self, card: int, src: list[int] | None = None) -> MisplacedCard:
        """The error for `card` not being in the zone `src` (None: in no zone at all)."""
        zones = {**self.all_zones(), **{f"temporary hand of {self.name(t.source)}": t.cards for t in self.temp_hands}}
        said = next((name for name, z in zones.items() if z is src), "a list that is no zone of this table")
        where = [name for name, z in zones.items() if card in z]
        what = self.name(card) if 0 <= card < len(self.defs) else "an unknown card"
        return MisplacedCard(f"engine error: {what} (copy {card}) " +
                             ("is in no zone of the table" if src is None else
                              f"was to be moved from {said}, which does not hold it; it is in {', '.join(where) or 'no zone'}"))


# whether a table keeps its fields in an instance __dict__ (pure Python), which
# `State._share_into` then copies at once; the compiled build's State has none
_INSTANCE_DICT = State.__dictoffset__ != 0
