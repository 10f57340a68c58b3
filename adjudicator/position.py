r"""The table position: each card in its zone with where it was written, the players,
the Solo and editions settings, and every reason the position could never occur.

One model for the strict loader and the table editor. `Position.read` reads the
`table` of a scenario file (each card and problem keeps its file, line and column);
`Position.from_data` reads the editor's plain table (each problem keeps its zone and
card). Either way `problems()` lists every reason the rules could never reach the
table: the loader refuses the first at its file, line and column, the editor shows
them all beside the cards they are about. A malformed document (a zone that is not a
list, an unknown key) is not a position at all, and reading it raises InputError.

>>> pos = Position.from_data({"players": ["Ann", "Ben"], "rules": ["Draw 2", "Draw 3"],
...                           "hands": {"Ann": ["War", "Milkk"]}})
>>> for p in pos.problems():
...     print(p.code, p.zone, p.index)
unknown-card hands.Ann 1
same-slot rules 1
creeper-in-hand hands.Ann 0
>>> print(pos.problems()[0])
no card is called 'Milkk' - did you mean 'Milk'?
>>> [ref.card.name for ref in pos.hands["Ann"]]       # the unknown name is left out
['War']

Read from a file, each problem keeps its place there, and the loader refuses the
first just so:

>>> from adjudicator import strictyaml
>>> root = strictyaml.parse("table:\n  players: [Ann]\n  rules: [Draw 2, Draw 3]\n", "t.yaml")
>>> print(Position.read(root.value["table"]).problems()[0].error())  # doctest: +ELLIPSIS
t.yaml:3:19: Draw 2 and Draw 3 cannot both be in play: they govern the same thing (draw), ...

A position the rules could reach has no problems:

>>> Position.from_data({"players": ["Ann", "Ben"], "goals": ["Milk & Cookies"],
...                     "keepers": {"Ann": ["Milk"], "Ben": ["Cookies"]}}).problems()
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Iterable

from adjudicator.catalogue import EDITIONS, CardDef, Catalogue, UnknownName, default_catalogue
from adjudicator.errors import InputError
from adjudicator.limits import MAX_COPIES, MAX_TABLE_CARDS
from adjudicator.mechanics.base import BASIC, CREEPER, GOAL, KEEPER, META_RULE, RULE, UNGOAL
from adjudicator.names import name_problem, skeleton, split_copy  # noqa: F401 (the loader's too)
from adjudicator.strictyaml import Node, check_keys, clip

if TYPE_CHECKING:
    from adjudicator.state import State

TABLE_KEYS = ["players", "turn", "drawn", "played", "rules", "meta_rules", "goals", "hands", "keepers",
              "draw_pile", "discard", "eliminated", "deal", "solo", "rules_pile", "rules_discard", "scored", "editions",
              "attached", "under", "face_down", "face_out", "out_of_reach"]
CENTRE_ZONES = ("rules", "meta_rules", "goals", "draw_pile", "discard", "rules_pile", "rules_discard", "scored")
SOLO_ZONES = ("rules_pile", "rules_discard", "scored")
PER_PLAYER = ("hands", "keepers")
MAX_PLAYERS = 8
COPIES = re.compile(r"^(.*?)\s+x\s*(\d+)$", re.IGNORECASE)


class Code(StrEnum):
    """What kind of problem a PositionProblem is (for tests and for callers that act on it)."""

    MALFORMED = "malformed"                # not a table at all (the editor's only problem then)
    NOT_TEXT = "not-text"                  # a card that is not a name
    BAD_NAME = "bad-name"                  # a name that could deceive a reader
    UNKNOWN_CARD = "unknown-card"
    UNKNOWN_EDITION = "unknown-edition"
    COPIES = "copies"                      # `NAME xN` with N out of range
    TOO_MANY_CARDS = "too-many-cards"
    PLAYER_COUNT = "player-count"
    PLAYER_NAME = "player-name"            # unusable, seated twice, or a look-alike
    NO_SUCH_PLAYER = "no-such-player"
    TURN_ELIMINATED = "turn-eliminated"
    DEAL_STARTED = "deal-started"          # `deal: true` with hands or plays
    SOLO_ONLY = "solo-only"                # a Solo zone without `solo: true`
    NOT_A_RULE = "not-a-rule"
    SAME_RULE = "same-rule"
    SAME_SLOT = "same-slot"
    NOT_A_META_RULE = "not-a-meta-rule"
    NOT_A_GOAL = "not-a-goal"
    TOO_MANY_GOALS = "too-many-goals"
    CREEPER_IN_HAND = "creeper-in-hand"
    BASIC_RULES = "basic-rules"            # the Basic Rules listed in a zone
    NOT_A_KEEPER = "not-a-keeper"
    FACE_DOWN_KEEPER = "face-down-keeper"
    NOT_ATTACHING = "not-attaching"
    CANNOT_ATTACH = "cannot-attach"
    ATTACHED_APART = "attached-apart"
    ATTACHMENT_UNSAID = "attachment-unsaid"
    SOLO_DECKS = "solo-decks"              # a card in the wrong Solo deck
    ALREADY_WON = "already-won"
    OVER_LIMIT = "over-limit"              # a player whose turn it is not, over a Hand or Keeper Limit
    PLAYS_UNSEEN = "plays-unseen"
    # our extensions (docs/scenario-format.md, "Cards under a card, face down, and players out of reach")
    NOT_IN_PLAY = "not-in-play"            # a card said to lie face down, hold a pile... is not where that can be
    CANNOT_HOLD = "cannot-hold"            # a card that cannot lie under that card
    OUT_OF_REACH = "out-of-reach"          # `out_of_reach` that cannot be


@dataclass(frozen=True)
class Source:
    """Where something was written in a file."""

    path: str
    line: int
    col: int


def source_of(node: Node) -> Source | None:
    """A node's place in its file (None for plain data, which has no file)."""
    return Source(node.path, node.line, node.col) if node.line > 0 else None


@dataclass(frozen=True)
class PositionProblem:
    """One reason a position could not occur (or could not be read): what is wrong,
    the zone and entry it is about when it is about one (`hands.Ann`, 2; `players`;
    `played`), and where that was written when it was read from a file."""

    message: str
    code: Code | None = None
    zone: str | None = None
    index: int | None = None
    source: Source | None = None

    def __str__(self) -> str:
        return self.message

    def error(self) -> InputError:
        """The problem as the loader refuses it: file:line:col: message."""
        if self.source is None:
            return InputError(self.message)
        return InputError(self.message, self.source.path, self.source.line, self.source.col)


@dataclass
class CardRef:
    """A card as a position (or an expectation) names it: its catalogue entry, the zone
    and the entry it stands at (the copies of `NAME xN` share one entry), and where it
    was written in a file."""

    card: CardDef
    zone: str = ""
    index: int = 0
    source: Source | None = None


def _copy_name(ref: CardRef, copy: int | None) -> str:
    return ref.card.name + (f" #{copy}" if copy is not None else "")


def _line(source: Source | None) -> str:
    """" (line N)" when a file says where, else nothing (the editor has no lines)."""
    return f" (line {source.line})" if source is not None else ""


# --------------------------------------------------------------------------- names

def split_entry(text: str) -> tuple[str, int, str | None]:
    """A zone entry: 'Milk x2' -> ('Milk', 2, None); the third item says why the count
    cannot be (the name then stands for one card, so that the rest can be judged).

    >>> split_entry("Milk x2"), split_entry("? x3"), split_entry("Milk")
    (('Milk', 2, None), ('?', 3, None), ('Milk', 1, None))
    >>> split_entry("Milk x0")[2]
    'Milk x0: the number of copies must be from 1 to 500'
    """
    entry = text.strip()
    if not entry[-1:].isdecimal():      # (most entries: no count, and no pattern to run; `\d` is a decimal digit)
        return text, 1, None
    m = COPIES.match(entry)
    if not m:
        return text, 1, None
    name, digits = m.group(1), m.group(2)
    count = int(digits) if len(digits) <= 6 else MAX_COPIES + 1
    if 1 <= count <= MAX_COPIES:
        return name, count, None
    return name, 1, (f"{name[:40]} x{digits[:10]}{'…' if len(digits) > 10 else ''}: "
                     f"the number of copies must be from 1 to {MAX_COPIES}")


def resolve_card(catalogue: Catalogue, name: str, editions: Iterable[str] | None,
                 what: str, prefer: Iterable[str] | None = None) -> tuple[CardDef | None, Code | None, str]:
    """The card a name names in these editions, or why there is none: (card, None, "")
    or (None, code, message). `what` names the place for a deceptive name; `prefer`:
    the table's editions, which a name of cards of several editions prefers."""
    if name.strip() != "?":
        problem = name_problem(name)
        if problem:
            return None, Code.BAD_NAME, f"{what}: {problem}"
    try:
        return catalogue.resolve(name, editions, prefer), None, ""
    except UnknownName as exc:
        return None, Code.UNKNOWN_CARD, str(exc)


def find_player(name: str, players: list[str]) -> str | None:
    """The seated player a name means (case aside)."""
    for p in players:
        if p == name or p.lower() == name.lower():
            return p
    return None


def no_such_player(what: str, name: str, players: list[str]) -> str:
    return f"{what}: no player is called {clip(name)!r} (players: {', '.join(players)})"


def player_name_problems(names: list[str], sources: list[Source | None],
                         joining: bool = False) -> list[tuple[int, str]]:
    """(index, message) for each player name that cannot be used: a '.' or outer
    spaces, a deceptive name, a player seated twice, a name that looks like another
    (case, Unicode form, look-alike letters from another script)."""
    out: list[tuple[int, str]] = []
    seen: dict[str, tuple[str, Source | None]] = {}
    for i, (p, src) in enumerate(zip(names, sources)):
        if p.strip() != p or "." in p:
            out.append((i, f"player name {clip(p)!r} may not contain '.' or start/end with spaces"))
            continue
        problem = name_problem(p)
        if problem:
            out.append((i, f"player name {p[:40]!r}: {problem}"))
            continue
        form = skeleton(p)
        if form in seen:
            first, first_src = seen[form]
            if first.lower() == p.lower():
                out.append((i, f"player {p!r} is seated twice" + ("" if joining else _line(first_src))))
            else:
                out.append((i, f"player name {p!r} looks like {first!r}{_line(first_src)}; "
                               "give players names that cannot be confused"))
            continue
        seen[form] = (p, src)
    return out


# --------------------------------------------------------------------------- the position

@dataclass
class Position:
    """A table: the centre zones (top card first for the piles), each player's hand
    and Keepers, who is seated, whose turn it is and how far into it, the attached
    Creepers, and the settings (Solo, deal, editions). `reading` holds the problems
    found while reading it (names that are no card, players that are no player...):
    what they were about is left out, so that the rest can still be judged."""

    catalogue: Catalogue
    players: list[str]
    turn: str | None = None
    drawn: int | None = None
    played: int = 0
    rules: list[CardRef] = field(default_factory=list)
    meta_rules: list[CardRef] = field(default_factory=list)
    goals: list[CardRef] = field(default_factory=list)
    draw_pile: list[CardRef] = field(default_factory=list)
    discard: list[CardRef] = field(default_factory=list)
    rules_pile: list[CardRef] = field(default_factory=list)
    rules_discard: list[CardRef] = field(default_factory=list)
    scored: list[CardRef] = field(default_factory=list)
    hands: dict[str, list[CardRef]] = field(default_factory=dict)
    keepers: dict[str, list[CardRef]] = field(default_factory=dict)
    attached: list[tuple[CardRef, CardRef]] = field(default_factory=list)
    # our extensions: the cards lying under a card in play (the card named, with the copy
    # number `NAME #K` gives, and the pile, top first), Keepers face down and cards held
    # face-out (named, with their copy numbers), and players out of reach until their
    # next turn with the card that put them there (extensions, docs/scenario-format.md)
    under: list[tuple[CardRef, int | None, list[CardRef]]] = field(default_factory=list)
    face_down: list[tuple[CardRef, int | None]] = field(default_factory=list)
    face_out: list[tuple[CardRef, int | None]] = field(default_factory=list)
    out_of_reach: list[tuple[str, CardRef]] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    solo: bool = False
    deal: bool = False
    editions: list[str] | None = None                           # as declared (`editions:`)
    inferred: tuple[str, ...] | None = None                     # the editions its cards come from
    places: dict[str, Source] = field(default_factory=dict)    # table key -> where its value was written
    reading: list[PositionProblem] = field(default_factory=list)

    # -- reading
    @classmethod
    def read(cls, table: Node, catalogue: Catalogue | None = None) -> "Position":
        """The position a scenario's `table` node describes. Raises InputError only for
        a malformed table; everything else wrong is in `reading` and `problems()`."""
        return _TableReader(catalogue or default_catalogue()).read(table)

    @classmethod
    def from_data(cls, table: Any, catalogue: Catalogue | None = None) -> "Position":
        """The position of a plain `table` mapping (the editor's): as `read`, without
        file positions (an InputError names the table entry it is about as its `path`,
        with no line: `rules: table.rules must be a list ...`)."""
        try:
            return cls.read(_node(table), catalogue)
        except InputError as exc:
            raise InputError(exc.message, exc.path or None) from None

    @property
    def deck_editions(self) -> tuple[str, ...] | None:
        """The editions this table is played with: those declared, else those its cards
        come from (`adjudicator.editions.table_editions`); None: any."""
        return tuple(self.editions) if self.editions else self.inferred

    # -- views
    def zones(self) -> list[list[CardRef]]:
        """Every zone's cards: the centre, then each hand, then each player's Keepers."""
        return [self.rules, self.meta_rules, self.goals, self.draw_pile, self.discard, self.rules_pile,
                self.rules_discard, self.scored, *self.hands.values(), *self.keepers.values(),
                *(pile for _, _, pile in self.under)]

    def card_count(self) -> int:
        return sum(len(z) for z in self.zones())

    # -- judging
    def problems(self) -> list[PositionProblem]:
        """Every reason this position could not occur: those found reading it, then
        those the rules find (an empty list: the game could reach this table)."""
        return self.reading + self.judge()

    def judge(self) -> list[PositionProblem]:
        """The reasons the rules could never reach this table, as read. Whether exactly
        one player already meets a Goal is asked only of an otherwise sound table."""
        out = [*self._rule_problems(), *self._zone_problems(), *self._attachment_problems(),
               *self._solo_problems(), *self._hidden_problems()]
        if not out and not self.reading and not self.solo and not self.deal:
            out.extend(self._limit_problems())
            out.extend(self._winner_problems())
        out.extend(self._play_problems())
        return out

    def _at(self, ref: CardRef, code: Code, message: str) -> PositionProblem:
        return PositionProblem(message, code, ref.zone, ref.index, ref.source)

    def _rule_problems(self) -> list[PositionProblem]:
        from adjudicator.interactions import graph_for

        if not self.rules:
            return []
        graph = graph_for(self.catalogue)
        out: list[PositionProblem] = []
        by_slot: dict[str, CardRef] = {}
        for i, ref in enumerate(self.rules):
            if ref.card.type != RULE:
                if not ref.card.impl.stays_as_rule:     # (an Action staying in play as a rule may)
                    out.append(self._at(ref, Code.NOT_A_RULE, f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}, "
                                                              "not a New Rule; it cannot stand among the rules"))
                elif any(r.card.key == ref.card.key for r in self.rules[:i]):
                    out.append(self._at(ref, Code.SAME_RULE, f"{ref.card.name} is in play twice: the newer copy would "
                                                             "have replaced the older, so only one can be in play"))
                continue
            twin = next((r for r in self.rules[:i] if r.card.type == RULE and graph.same_job(r.card.key, ref.card.key)),
                        None)
            if twin is not None:
                out.append(self._at(ref, Code.SAME_RULE, f"{ref.card.name} and {twin.card.name}{_line(twin.source)} "
                                                         "are the same rule: the newer copy would have replaced the "
                                                         "older, so only one can be in play"))
                continue
            for slot in graph.slots_of(ref.card.key):
                if slot in by_slot:
                    other = by_slot[slot].card.name
                    out.append(self._at(ref, Code.SAME_SLOT, f"{other} and {ref.card.name} cannot both be in play: "
                                                             f"they govern the same thing ({slot.replace('_', ' ')}), "
                                                             "so the newer would have discarded the older"))
                by_slot[slot] = ref
        return out

    def _zone_problems(self) -> list[PositionProblem]:
        out: list[PositionProblem] = []
        for ref in self.meta_rules:
            if ref.card.type != META_RULE:
                out.append(self._at(ref, Code.NOT_A_META_RULE, f"{ref.card.name} is not a Meta Rule"))
        agenda = 1
        for ref in self.rules:
            if ref.card.impl.slot == "agenda":
                agenda = ref.card.params.get("goals", 1)
        for ref in self.goals:
            if ref.card.type not in (GOAL, UNGOAL):
                out.append(self._at(ref, Code.NOT_A_GOAL,
                                    f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}, not a Goal"))
        if len(self.goals) > agenda:
            out.append(self._at(self.goals[agenda], Code.TOO_MANY_GOALS,
                                f"{len(self.goals)} Goals are in play but the rules allow {agenda}"))
        for p, refs in self.hands.items():
            for ref in refs:
                if ref.card.type == CREEPER:
                    out.append(self._at(ref, Code.CREEPER_IN_HAND,
                                        f"{ref.card.name} is a Creeper in {p}'s hand: a Creeper drawn goes straight "
                                        "to the table, so it can never be held"))
                if ref.card.type == BASIC:
                    out.append(self._at(ref, Code.BASIC_RULES, "the Basic Rules never leave the center of the table"))
        for refs in self.keepers.values():
            for ref in refs:
                if ref.card.type not in (KEEPER, CREEPER, "unknown"):
                    out.append(self._at(ref, Code.NOT_A_KEEPER,
                                        f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}: only Keepers and "
                                        "Creepers stand in front of a player"))
                elif ref.card.type == "unknown":
                    out.append(self._at(ref, Code.FACE_DOWN_KEEPER,
                                        "cards in front of a player are face up: name them instead of '?'"))
        # copies of a title are allowed anywhere (format 1.1, item 1: decks combined);
        # only the Basic Rules never stand in a zone
        for refs in self.zones():
            for ref in refs:
                if ref.card.type == BASIC:
                    out.append(self._at(ref, Code.BASIC_RULES, "the Basic Rules are always in play; do not list them"))
        return out

    def _attachment_problems(self) -> list[PositionProblem]:
        """`table.attached` pairs stand in one player's keepers, and an attaching Creeper
        beside several Keepers it could go on must say which (format 1.1, item 3)."""
        out: list[PositionProblem] = []
        named: set[tuple[str, str]] = set()
        for creeper, keeper in self.attached:
            impl = creeper.card.impl
            if not impl.attaches:
                out.append(self._at(creeper, Code.NOT_ATTACHING,
                                    f"{creeper.card.name} is not a Creeper that attaches itself to a Keeper"))
                continue
            if not impl.can_attach_to(creeper.card, keeper.card):
                out.append(self._at(keeper, Code.CANNOT_ATTACH,
                                    f"{creeper.card.name} cannot be attached to {keeper.card.name}"))
                continue
            holder = next((p for p, refs in self.keepers.items()
                           if any(r.card.key == creeper.card.key for r in refs)
                           and any(r.card.key == keeper.card.key for r in refs)), None)
            if holder is None:
                out.append(self._at(creeper, Code.ATTACHED_APART,
                                    f"{creeper.card.name} and {keeper.card.name} must both stand in one player's "
                                    "keepers to be attached"))
                continue
            named.add((holder, creeper.card.key))
        for p, refs in self.keepers.items():
            for ref in refs:
                impl = ref.card.impl
                if not impl.attaches or (p, ref.card.key) in named:
                    continue
                fits = {r.card.name for r in refs if impl.can_attach_to(ref.card, r.card)}
                if len(fits) > 1:
                    out.append(self._at(ref, Code.ATTACHMENT_UNSAID,
                                        f"{ref.card.name} stands beside several Keepers it could be attached to "
                                        f"({', '.join(sorted(fits))}): say which in table.attached, e.g. "
                                        f"`attached: {{{ref.card.name}: {sorted(fits)[0]}}}`"))
        return out

    def in_reading_order(self) -> list[tuple[str, CardRef]]:
        """Every card of the table with its zone, in the order the scenario format
        reads it to count copies (format 1.2, item 1), the cards lying under a card
        last (`reading_order`)."""
        out: list[tuple[str, CardRef]] = [("rules", r) for r in self.rules]
        out += [("meta_rules", r) for r in self.meta_rules] + [("goals", r) for r in self.goals]
        for p in self.players:
            out += [(f"keepers.{p}", r) for r in self.keepers.get(p, [])]
            out += [(f"hands.{p}", r) for r in self.hands.get(p, [])]
        for key in ("draw_pile", "discard", "rules_pile", "rules_discard", "scored"):
            out += [(key, r) for r in getattr(self, key)]
        for _, _, pile in self.under:
            out += [("under", r) for r in pile]
        return out

    def find(self, ref: CardRef, copy: int | None, zones: tuple[str, ...] = ()) -> CardRef | None:
        """The card of the table that `ref` names (the `copy`-th copy of its title in
        the reading order, or the first one in one of `zones`, zone names or their
        prefixes `keepers.`/`hands.`), or None."""
        same = [(zone, r) for zone, r in self.in_reading_order() if r.card.key == ref.card.key]
        if copy is not None:
            found = same[copy - 1] if 1 <= copy <= len(same) else None
            return found[1] if found is not None and (not zones or found[0].startswith(zones)) else None
        return next((r for zone, r in same if not zones or zone.startswith(zones)), None)

    def _hidden_problems(self) -> list[PositionProblem]:
        """`table.under`, `face_down`, `face_out` and `out_of_reach` (our extensions):
        a pile lies under a card in play that can hold those cards; a face-down card
        is a Keeper in front of a player, a face-out card is in a hand; a player out
        of reach is not the one whose turn it is, and is there by a card on the table
        that leaves that effect."""
        out: list[PositionProblem] = []
        tops: set[int] = set()
        for top, copy, pile in self.under:
            found = self.find(top, copy, ("keepers.", "rules", "meta_rules"))
            if found is None:
                out.append(self._at(top, Code.NOT_IN_PLAY, f"under: {_copy_name(top, copy)} is not in play: the cards "
                                                           "under a card lie under one in front of a player or "
                                                           "among the rules"))
                continue
            if id(found) in tops:
                out.append(self._at(top, Code.NOT_IN_PLAY, f"under: the cards under {_copy_name(top, copy)} are "
                                                           "listed twice; list them once"))
            tops.add(id(found))
            for ref in pile:
                if not found.card.impl.can_hold(found.card, ref.card):
                    out.append(self._at(ref, Code.CANNOT_HOLD,
                                        f"{ref.card.name} cannot lie under {found.card.name}"
                                        + (": name the card instead of '?'" if ref.card.type == "unknown" else "")))
        for what, refs, zones, kinds in (("face_down", self.face_down, ("keepers.",), (KEEPER,)),
                                         ("face_out", self.face_out, ("hands.",), ())):
            seen: set[int] = set()
            for ref, copy in refs:
                found = self.find(ref, copy, zones)
                where = "a Keeper in front of a player" if what == "face_down" else "a card in a player's hand"
                if found is None or (kinds and found.card.type not in kinds):
                    out.append(self._at(ref, Code.NOT_IN_PLAY, f"{what}: {_copy_name(ref, copy)} is not {where}"))
                elif id(found) in seen:
                    out.append(self._at(ref, Code.NOT_IN_PLAY, f"{what}: {_copy_name(ref, copy)} is listed twice"))
                seen.add(id(found))
        for player, ref in self.out_of_reach:
            if player == self.turn:
                out.append(self._at(ref, Code.OUT_OF_REACH,
                                    f"out_of_reach: {player} cannot be out of reach on {player}'s own turn: it lasts "
                                    f"until {player}'s next turn begins"))
            elif "out_of_reach" not in ref.card.impl.lasting_effects(ref.card):
                out.append(self._at(ref, Code.OUT_OF_REACH, f"out_of_reach: {ref.card.name} puts nobody out of reach"))
            elif self.find(ref, None) is None:
                out.append(self._at(ref, Code.OUT_OF_REACH,
                                    f"out_of_reach: {ref.card.name} is nowhere on the table; list the copy that put "
                                    f"{player} out of reach where it is now (once played, the discard pile)"))
        return out

    def _solo_problems(self) -> list[PositionProblem]:
        out: list[PositionProblem] = []
        if self.solo:
            for ref in self.rules_pile + self.rules_discard:
                if ref.card.type != RULE:
                    out.append(self._at(ref, Code.SOLO_DECKS,
                                        f"{ref.card.name} is not a New Rule: the Solo Rules deck and its discard pile "
                                        "hold only New Rules"))
            for ref in self.draw_pile:
                if ref.card.type == RULE:
                    out.append(self._at(ref, Code.SOLO_DECKS,
                                        f"{ref.card.name} is a New Rule: in Solo Fluxx New Rules form their own deck "
                                        "(table.rules_pile), apart from the main deck"))
        return out

    def _limit_problems(self) -> list[PositionProblem]:
        """A player whose turn it is not keeps to the Hand and Keeper Limits at all
        times (rule-limits-only-off-turn): one over a Limit would already have
        discarded down to it, so such a table cannot be reached."""
        from adjudicator.engine import Engine

        if not self.rules or self.turn is None:
            return []
        core = Engine(self.catalogue, self.state()).core
        out: list[PositionProblem] = []
        for p in self.players:
            if p == self.turn or p in self.eliminated:
                continue
            hand, limit = self.hands.get(p, []), core.hand_limit(p)
            if limit is not None and len(hand) > limit:
                out.append(self._at(hand[limit], Code.OVER_LIMIT,
                                    f"{p} holds {len(hand)} cards, over the Hand Limit of {limit}, while it is "
                                    f"{self.turn}'s turn: a Limit binds every player whose turn it is not, so {p} "
                                    f"would already have discarded down to {limit} (take cards out of {p}'s hand, "
                                    f"or make it {p}'s turn)"))
            keepers, limit = [r for r in self.keepers.get(p, []) if r.card.type == KEEPER], core.keeper_limit(p)
            if limit is not None and len(keepers) > limit:
                out.append(self._at(keepers[limit], Code.OVER_LIMIT,
                                    f"{p} has {len(keepers)} Keepers, over the Keeper Limit of {limit}, while it is "
                                    f"{self.turn}'s turn: a Limit binds every player whose turn it is not, so {p} "
                                    f"would already have given up Keepers down to {limit} (take Keepers away from "
                                    f"{p}, or make it {p}'s turn)"))
        return out

    def _winner_problems(self) -> list[PositionProblem]:
        """Exactly one player meeting a Goal in play would already have won the moment it
        happened: such a table cannot be reached (a tie can: play goes on)."""
        from adjudicator.engine import Engine

        if not self.goals or not self.players:
            return []
        engine = Engine(self.catalogue, self.state())
        met, _ = engine.core.goal_claims()
        if len(met) != 1:
            return []
        (player, goals), = met.items()
        ref = self.goals[engine.state.goals.index(goals[0])]
        return [self._at(ref, Code.ALREADY_WON,
                         f"{player} already meets {engine.core.names(goals)}: that player would have won the moment it "
                         "happened, so the game could never reach this table (change the Goal or the Keepers)")]

    def _play_problems(self) -> list[PositionProblem]:
        """Plays already made must have left a card somewhere visible."""
        visible = len(self.discard) + sum(len(v) for v in self.keepers.values()) + len(self.rules) + len(self.goals)
        if self.played <= visible:
            return []
        return [PositionProblem(f"{self.played} plays made this turn, but only {visible} cards are in play or "
                                "discarded: every play leaves its card somewhere", Code.PLAYS_UNSEEN, "played", None,
                                self.places.get("played", self.places.get("table")))]

    # -- the engine's table
    def state(self, seed: int = 0) -> "State":
        """The table as the engine holds it, with one copy id per physical card."""
        from adjudicator.state import Rng, State

        defs: list[CardDef] = []
        copy_of: dict[int, int] = {}       # id(CardRef) -> its copy id

        def make(refs: list[CardRef]) -> list[int]:
            ids = []
            for ref in refs:
                defs.append(ref.card)
                ids.append(len(defs) - 1)
                copy_of[id(ref)] = ids[-1]
            return ids

        players = list(self.players)
        # the zones are filled here, as the table is built (copy ids in the order listed);
        # from then on cards move only through the State's primitives
        st = State(defs=defs, players=players,
                   hands={p: make(self.hands.get(p, [])) for p in players},
                   keepers={p: make(self.keepers.get(p, [])) for p in players},
                   rules=make(self.rules), meta_rules=make(self.meta_rules), goals=make(self.goals),
                   draw_pile=make(self.draw_pile), discard=make(self.discard), rules_pile=make(self.rules_pile),
                   rules_discard=make(self.rules_discard), scored=make(self.scored))
        st.solo = self.solo
        defs.append(self.catalogue.basic_rules)
        st.basic = len(defs) - 1
        st.eliminated = list(self.eliminated)
        st.active = players.index(self.turn) if self.turn in players else 0
        st.played = self.played
        st.attachments = self.attachments(st)
        # our extensions: piles under cards, cards face down or face-out, players out of reach
        for top, copy, pile in self.under:
            found = self.find(top, copy, ("keepers.", "rules", "meta_rules"))
            if found is not None and id(found) in copy_of:
                st.under[copy_of[id(found)]] = make(pile)
        st.face_down = frozenset(copy_of[id(f)] for f in (self.find(r, k, ("keepers.",)) for r, k in self.face_down)
                                 if f is not None)
        st.face_out = frozenset(copy_of[id(f)] for f in (self.find(r, k, ("hands.",)) for r, k in self.face_out)
                                if f is not None)
        st.lasting = tuple((p, "out_of_reach", copy_of[id(f)]) for p, f in
                           ((p, self.find(r, None)) for p, r in self.out_of_reach) if f is not None)
        st.rng = Rng(seed)
        st.number_copies(self.reading_order(st))
        return st

    def reading_order(self, st: "State") -> list[int]:
        """Every card of the table in the order the scenario format reads it to count
        copies (format 1.2, item 1): rules, meta_rules, goals, then each player's Keepers
        and hand in seat order, then draw_pile, discard, rules_pile, rules_discard, scored."""
        order = [*st.rules, *st.meta_rules, *st.goals]
        for p in st.players:
            order += st.keepers[p] + st.hands[p]
        order += [*st.draw_pile, *st.discard, *st.rules_pile, *st.rules_discard, *st.scored]
        for pile in st.under.values():      # (our extension: the cards under a card come last)
            order += pile
        return order

    def attachments(self, st: "State") -> dict[int, int]:
        """Creeper copy -> Keeper copy: the pairs `table.attached` names, and every other
        attaching Creeper beside exactly one Keeper it can go on."""
        out: dict[int, int] = {}
        wanted = {c.card.key: k.card.key for c, k in self.attached}
        for p in st.players:
            mine = st.keepers[p]
            for c in mine:
                d = st.defs[c]
                if not d.impl.attaches:
                    continue
                fits = [k for k in mine if d.impl.can_attach_to(d, st.defs[k])]
                if d.key in wanted:
                    fits = [k for k in fits if st.defs[k].key == wanted[d.key]]
                if len({st.defs[k].key for k in fits}) == 1:
                    out[c] = fits[0]
        return out


# --------------------------------------------------------------------------- reading a table

def _node(value: Any, path: str = "") -> Node:
    """Plain data as a tree of nodes without file positions (line 0). Plain data has no
    file, so a node's `path` says which table entry it is (`rules`, `hands.Ann`): an
    InputError for a malformed entry then names the zone it is about."""
    node = Node(value, 0, 0, path)
    if isinstance(value, dict):
        node.value = {str(k): _node(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
        node.key_nodes = {str(k): Node(str(k), 0, 0, path) for k in value}
    elif isinstance(value, list):
        node.value = [_node(v, path) for v in value]
    return node


class _TableReader:
    """Reads a `table` node into a Position, in the order the loader has always
    reported problems in (so that a file's first problem stays its first)."""

    def __init__(self, catalogue: Catalogue):
        self.cat = catalogue
        self.problems: list[PositionProblem] = []
        self.on_table = 0
        self.full = False            # past MAX_TABLE_CARDS: nothing more is added

    def problem(self, node: Node, code: Code, message: str, zone: str | None, index: int | None = None) -> None:
        self.problems.append(PositionProblem(message, code, zone, index, source_of(node)))

    def read(self, table_node: Node) -> Position:
        table = check_keys(table_node, TABLE_KEYS, "the table", required=("players",))
        pos = Position(self.cat, [])
        place = source_of(table_node)
        if place is not None:
            pos.places["table"] = place
        for key, node in table.items():
            place = source_of(node)
            if place is not None:
                pos.places[key] = place
        if "editions" in table:
            pos.editions = []
            eds = table["editions"].as_seq("table.editions")
            for i, n in enumerate(eds):
                ed = n.as_str("edition")
                if ed in EDITIONS:
                    pos.editions.append(ed)
                else:
                    self.problem(n, Code.UNKNOWN_EDITION, f"unknown edition {clip(ed)!r} (one of {', '.join(EDITIONS)})",
                                 "editions", i)
        if not pos.editions:
            pos.inferred = self.infer(table)
        prefer = pos.inferred
        players_node = table["players"]
        seats = players_node.as_seq("table.players")
        pos.players = [n.as_str("a player name") for n in seats]
        if not 1 <= len(pos.players) <= MAX_PLAYERS:
            self.problem(players_node, Code.PLAYER_COUNT,
                         f"a table seats 1 to {MAX_PLAYERS} players, not {len(pos.players)}", "players")
        for i, message in player_name_problems(pos.players, [source_of(n) for n in seats]):
            self.problem(seats[i], Code.PLAYER_NAME, message, "players", i)
        pos.deal = table["deal"].as_bool("deal") if "deal" in table else False
        pos.solo = table["solo"].as_bool("solo") if "solo" in table else False
        if pos.deal:
            for k in ("hands", "drawn", "played"):
                if k in table:
                    self.problem(table[k], Code.DEAL_STARTED,
                                 f"with `deal: true` the game has not started, so `{k}` must be absent", k)
        pos.turn = pos.players[0] if pos.players else None
        if "turn" in table:
            pos.turn = self.player(table["turn"], pos.players, "table.turn", "turn") or pos.turn
        pos.drawn = table["drawn"].as_int("table.drawn", 0, 1000) if "drawn" in table else None
        pos.played = table["played"].as_int("table.played", 0, 1000) if "played" in table else 0
        for key in CENTRE_ZONES:
            if key in table:
                setattr(pos, key, self.cards(table[key], key, f"table.{key}", pos.editions, prefer))
        for key in PER_PLAYER:
            per: dict[str, list[CardRef]] = {p: [] for p in pos.players}
            if key in table:
                mapping = table[key].as_map(f"table.{key}")
                for who, cards in mapping.items():
                    p = self.player(table[key].key_nodes[who], pos.players, f"table.{key}", f"{key}.{who}")
                    if p is None:
                        cards.as_seq(f"table.{key}.{who}")
                        continue
                    what = f"{p}.{'hand' if key == 'hands' else 'keepers'}"
                    per[p] = self.cards(cards, f"{key}.{p}", what, pos.editions, prefer)
            setattr(pos, key, per)
        if "attached" in table:
            node = table["attached"]
            for i, (name, keeper) in enumerate(node.as_map("table.attached").items()):
                key_node = node.key_nodes[name]
                creeper_ref = self.card(key_node, "an attached Creeper", "attached", i, pos.editions, prefer)
                keeper_ref = self.card(keeper, "the Keeper it is attached to", "attached", i, pos.editions, prefer)
                if creeper_ref is not None and keeper_ref is not None:
                    pos.attached.append((creeper_ref, keeper_ref))
        self.read_hidden(table, pos)
        if "eliminated" in table:
            for i, n in enumerate(table["eliminated"].as_seq("table.eliminated")):
                p = self.player(n, pos.players, "table.eliminated", "eliminated", i)
                if p is not None:
                    pos.eliminated.append(p)
        if pos.turn is not None and pos.turn in pos.eliminated:
            node = table.get("turn", players_node)
            self.problem(node, Code.TURN_ELIMINATED, f"{pos.turn} is eliminated and cannot be the active player",
                         "turn")
        if not pos.solo:
            for key in SOLO_ZONES:
                if key in table:
                    self.problem(table[key], Code.SOLO_ONLY, f"`{key}` belongs to Solo Fluxx only (add `solo: true`)",
                                 key)
        pos.reading = self.problems
        return pos

    def read_hidden(self, table: dict[str, Node], pos: Position) -> None:
        """Our extensions: `under: {CARD: [cards under it, top first]}`, `face_down:
        [Keepers]`, `face_out: [cards in hands]`, `out_of_reach: {PLAYER: CARD}`; a
        card in play is named `NAME #K` where the table holds several copies."""
        if "under" in table:
            node = table["under"]
            for i, (name, pile) in enumerate(node.as_map("table.under").items()):
                top = self.named(node.key_nodes[name], "a card with cards under it", "under", i, pos.editions)
                cards = self.cards(pile, f"under.{name}", f"the cards under {name}", pos.editions)
                if top is not None:
                    pos.under.append((top[0], top[1], cards))
        for key in ("face_down", "face_out"):
            if key in table:
                for i, n in enumerate(table[key].as_seq(f"table.{key}")):
                    named = self.named(n, f"a card in table.{key}", key, i, pos.editions)
                    if named is not None:
                        getattr(pos, key).append(named)
        if "out_of_reach" in table:
            node = table["out_of_reach"]
            for i, (who, card) in enumerate(node.as_map("table.out_of_reach").items()):
                p = self.player(node.key_nodes[who], pos.players, "table.out_of_reach", "out_of_reach", i)
                source = self.card(card, "the card that put the player out of reach", "out_of_reach", i, pos.editions)
                if p is not None and source is not None:
                    pos.out_of_reach.append((p, source))

    def named(self, node: Node, what: str, zone: str, index: int,
              editions: list[str] | None) -> tuple[CardRef, int | None] | None:
        """A card named to say something of it (`NAME` or `NAME #K`, the K-th copy)."""
        name, copy = split_copy(node.as_str(what))
        card, code, message = resolve_card(self.cat, name, editions, what)
        if card is None:
            assert code is not None
            self.problem(node, code, message, zone, index)
            return None
        return CardRef(card, zone, index, source_of(node)), copy

    def player(self, node: Node, players: list[str], what: str, zone: str, index: int | None = None) -> str | None:
        name = node.as_str(what)
        p = find_player(name, players)
        if p is None:
            self.problem(node, Code.NO_SUCH_PLAYER, no_such_player(what, name, players), zone, index)
        return p

    def infer(self, table: dict[str, Node]) -> tuple[str, ...] | None:
        """The editions of the table's cards named without doubt (one card each), before
        the table is read: what a name of cards of several editions then prefers."""
        found: list[CardDef] = []

        def take(text: Any) -> None:
            if isinstance(text, str):
                card = self.cat.find(split_entry(text)[0])
                if card is not None:
                    found.append(card)

        def names(node: Node | None) -> None:
            if node is not None and isinstance(node.value, list):
                for item in node.value:
                    take(item.value)

        for key in CENTRE_ZONES:
            names(table.get(key))
        for key in PER_PLAYER:
            node = table.get(key)
            if node is not None and isinstance(node.value, dict):
                for cards in node.value.values():
                    names(cards)
        node = table.get("attached")
        if node is not None and isinstance(node.value, dict):
            for name, keeper in node.value.items():
                take(name)
                take(keeper.value)
        from adjudicator.editions import table_editions

        return table_editions(found)

    def card(self, node: Node, what: str, zone: str, index: int, editions: list[str] | None,
             prefer: tuple[str, ...] | None = None) -> CardRef | None:
        name = node.as_str(what)
        card, code, message = resolve_card(self.cat, name, editions, what, prefer)
        if card is None:
            assert code is not None
            self.problem(node, code, message, zone, index)
            return None
        return CardRef(card, zone, index, source_of(node))

    def cards(self, node: Node, zone: str, what: str, editions: list[str] | None,
              prefer: tuple[str, ...] | None = None) -> list[CardRef]:
        """A zone's list: "NAME xN" is N copies, "?" an unseen card."""
        out: list[CardRef] = []
        for i, item in enumerate(node.as_seq(what)):
            try:
                text = item.as_str(f"a card in {what}")
            except InputError as exc:
                self.problem(item, Code.NOT_TEXT, exc.message, zone, i)
                continue
            name, count, bad_count = split_entry(text)
            if bad_count:
                self.problem(item, Code.COPIES, bad_count, zone, i)
                continue
            if self.full:
                continue
            self.on_table += count
            if self.on_table > MAX_TABLE_CARDS:
                self.full = True
                self.problem(item, Code.TOO_MANY_CARDS,
                             f"the table would hold more than {MAX_TABLE_CARDS:,} cards (copies and `? xN` counted); "
                             f"a table holds at most {MAX_TABLE_CARDS:,}", zone, i)
                continue
            card, code, message = resolve_card(self.cat, name, editions, f"a card in {what}", prefer)
            if card is None:
                assert code is not None
                self.problem(item, code, message, zone, i)
                continue
            out.extend(CardRef(card, zone, i, source_of(item)) for _ in range(count))
        return out
