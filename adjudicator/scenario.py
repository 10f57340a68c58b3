"""Scenario files (format 1): a table position, the plays made from it, expectations.

The loader is strict, as the public format requires: unknown keys (with a did-you-mean),
duplicate keys, names that YAML would read as numbers or booleans, unknown cards (with
suggestions) and positions the rules could never reach are refused, each with the
file, line and column. The table is read by `adjudicator.position.Position`, which
lists its own problems; the loader refuses the first of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator import share, strictyaml
from adjudicator.catalogue import Catalogue, CardDef, UnknownName, default_catalogue, EDITIONS
from adjudicator.decisions import KINDS
from adjudicator.errors import InputError
from adjudicator.events import Event
from adjudicator.limits import MAX_CARD_REFS, MAX_COPIES, MAX_EVENTS, MAX_NAME_CHARS
from adjudicator.names import name_problem
from adjudicator.questions import Ask, read_question
from adjudicator.mechanics.base import CARD_TYPES, CREEPER, GOAL, KEEPER, BASIC
from adjudicator.position import (COPIES, CardRef, Position, PositionProblem, find_player,
                                  no_such_player, player_name_problems, resolve_card, source_of, split_copy, split_entry)
from adjudicator.state import State
from adjudicator.strictyaml import Node, check_keys, clip

TOP_KEYS = ["format", "id", "title", "cites", "note", "question", "cards", "table", "events", "expect", "reshuffle",
            "variations"]
CARD_KEYS = ["name", "type", "like", "needs", "aliases", "note"]
DECLARED_TYPES = {t: t for t in CARD_TYPES if t != BASIC}
# the types as printed on the cards, matched without regard to case or spacing (format 1.2, item 4)
PRINTED_TYPES = {"keeper": "keeper", "goal": "goal", "newrule": "rule", "rule": "rule", "action": "action",
                 "creeper": "creeper", "surprise": "surprise", "ungoal": "ungoal", "metarule": "meta_rule",
                 "danger": "danger", "secret": "secret"}


# (docs/scenario.schema.json spells the same words with a pattern of its own)
_PRINTED_TYPE = re.compile(r"\s*(keeper|goal|new[ _-]*rule|rule|action|creeper|surprise|ungoal|meta[ _-]*rule|danger|"
                           r"secret)\s*", re.IGNORECASE)


def declared_type(word: str) -> str | None:
    """The card type a declared card's `type:` means, as printed or as the engine
    writes it ("New Rule", "new rule", "rule", "Meta Rule", "meta_rule"), or None.

    >>> declared_type("New Rule"), declared_type("KEEPER"), declared_type("meta_rule"), declared_type("Rules")
    ('rule', 'keeper', 'meta_rule', None)
    """
    m = _PRINTED_TYPE.fullmatch(word)
    return PRINTED_TYPES[re.sub(r"[ _-]", "", m.group(1)).lower()] if m else None
MAX_DECLARED = 200
EVENT_KEYS = ["play", "surprise", "use", "choose", "random", "end_turn", "join", "leave", "by", "expect", "note",
              "against", "disputed"]
VARIATION_KEYS = ["after", "title", "events", "expect", "variations"]
MAX_VARIATION_DEPTH = 8
EXPECT_KEYS = ["winner", "everyone_loses", "game_over", "turn", "turn_over", "plays_left", "draws_owed",
               "pending", "rejected", "cites", "zones"]
VERB_KEYS = ("play", "surprise", "use", "choose", "random", "end_turn", "join", "leave")
ZONE_NAMES = ("hand", "keepers", "temp_hand")
GLOBAL_ZONES = ("rules", "meta_rules", "goals", "draw_pile", "discard", "rules_pile", "rules_discard", "scored", "removed")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass
class Expectation:
    values: dict[str, Any]
    nodes: dict[str, Node]
    line: int | None = None


@dataclass
class ScenarioEvent:
    event: Event
    expect: Expectation | None
    node: Node
    disputed: bool = False


@dataclass
class Variation:
    """A side line (format 1.1, item 5): it branches after event `after` of the line
    it belongs to (0: straight from the set-up) and plays its own events instead."""

    after: int
    title: str
    events: list[ScenarioEvent]
    expect: Expectation | None
    node: Node
    variations: list["Variation"] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.node.line


@dataclass
class Scenario:
    path: str
    id: str
    title: str
    cites: list[str]
    note: str
    table: Node
    position: Position                                       # the table, as the rules judge it
    events: list[ScenarioEvent]
    expect: Expectation | None
    catalogue: Catalogue
    reshuffle: list[str] = field(default_factory=list)
    question: str = ""                                       # the dispute in the players' words (1.1, item 4)
    ask: Ask | None = None                                   # the kind of answer it wants (1.2, item 5); None: the verdict picks
    disputed: int | None = None                              # 1-based event marked `disputed: true`
    variations: list[Variation] = field(default_factory=list)
    declared: list["Declared"] = field(default_factory=list)   # `cards:` (1.1, item 8)

    @property
    def solo(self) -> bool:
        return self.position.solo

    @property
    def deal(self) -> bool:
        return self.position.deal

    @property
    def editions(self) -> list[str] | None:
        return self.position.editions

    @property
    def disputed_event(self) -> int:
        """The number of the disputed event: the one marked, else the last of the main line (0: none)."""
        return self.disputed if self.disputed is not None else len(self.events)

    @property
    def has_expectations(self) -> bool:
        """Whether the file states any expectation, on the main line or in a variation."""
        def line_has(events: list[ScenarioEvent], expect: Expectation | None, variations: list[Variation]) -> bool:
            return (expect is not None or any(e.expect is not None for e in events)
                    or any(line_has(v.events, v.expect, v.variations) for v in variations))
        return line_has(self.events, self.expect, self.variations)


@dataclass
class Declared:
    """A card the file declares (`cards:`, format 1.1 item 8): the card as the engine
    plays it, and what it works like (a catalogue card's name, or None for a plain
    Keeper or Creeper or a Goal needing `needs`)."""

    card: CardDef
    like: str | None
    needs: list[str]
    node: Node

    def words(self) -> str:
        if self.like:
            return f"{self.card.name} works like {self.like}"
        if self.needs:
            return f"{self.card.name} is a Goal: all of {', '.join(self.needs)}"
        return f"{self.card.name} is a plain {self.card.type.replace('_', ' ').title()}"


def declare_cards(node: Node, base: Catalogue) -> tuple[Catalogue, list[Declared], int]:
    """The catalogue of one scenario: the base catalogue with the cards `cards:` declares,
    the declarations, and how many cards their `like` and `needs` name (counted against
    MAX_CARD_REFS). A declared name or alias may not clash with a catalogue card or
    another declared card, nor read as copies (`Zombie x3`)."""
    from adjudicator.mechanics import REGISTRY
    from adjudicator.names import normalize

    items = node.as_seq("cards")
    if len(items) > MAX_DECLARED:
        raise items[MAX_DECLARED].error(f"more than {MAX_DECLARED} declared cards; a scenario declares at most "
                                        f"{MAX_DECLARED}")
    taken: dict[str, Node] = {}
    staged = []
    for item in items:
        fields = check_keys(item, CARD_KEYS, "a declared card", required=("name", "type"))
        name = fields["name"].as_str("a declared card's name").strip()
        labels = [(name, fields["name"])]
        if "aliases" in fields:
            labels += [(n.as_str("an alias").strip(), n) for n in fields["aliases"].as_seq("aliases")]
        for label, where in labels:
            _refuse_bad_name(where, label, "a declared card's name")
            if label.strip() == "?":
                raise where.error("'?' stands for an unseen card; give the declared card a name")
            copies = COPIES.match(label.strip())
            if copies:
                # every list would read it as copies of another card ("Zombie x3": three Zombies)
                stem, digits = clip(copies.group(1).strip()), clip(copies.group(2), 10)
                fix = f"such as {stem + ' ' + digits!r}" if stem not in ("", "?") else "of its own"
                raise where.error(f"{clip(label)!r} would read as {digits} copies of {stem!r} in every list; a "
                                  f"declared card's name may not end in ` xN`: give it a name {fix}")
            clash = base._index.get(normalize(label))
            if clash:
                other = base.cards[clash[0]].name
                raise where.error(f"{clip(label)!r} is already a card of the catalogue ({other}); a declared card "
                                  f"needs a name of its own (or use {other} itself)")
            if normalize(label) in taken:
                raise where.error(f"{clip(label)!r} is declared twice (line {taken[normalize(label)].line})")
            taken[normalize(label)] = where
        type_word = fields["type"].as_str("type")
        found = declared_type(type_word)
        if found is None:
            raise fields["type"].error(f"unknown card type {clip(type_word)!r} (one of Keeper, Goal, New Rule, Action, "
                                       "Creeper, Surprise, Ungoal, Meta Rule, Danger, Secret)")
        ctype = found
        staged.append((item, fields, name, ctype, [label for label, _ in labels[1:]]))
    declared_defs = [CardDef(key=name, name=name, type=ctype, editions=tuple(EDITIONS), mechanic="keeper",
                             aliases=tuple(aliases)) for _, _, name, ctype, aliases in staged]
    lookup = Catalogue([*base, *declared_defs])   # `needs` may name declared Keepers
    out: list[Declared] = []
    named = 0          # cards `like` and `needs` name, counted against MAX_CARD_REFS with the rest
    for (item, fields, name, ctype, aliases) in staged:
        like_name, needs = None, []
        note = fields["note"].as_str("note") if "note" in fields else ""
        for ref in ([fields["like"]] if "like" in fields else []) + (
                fields["needs"].as_seq("needs") if "needs" in fields else []):
            named += 1
            if named > MAX_CARD_REFS:
                raise ref.error(f"the scenario names more than {MAX_CARD_REFS:,} cards (copies, `xN` and the "
                                "cards of `like` and `needs` counted); that is the limit")
        if "like" in fields:
            if "needs" in fields:
                raise fields["needs"].error("`needs` describes a Goal of its own; a card with `like` works exactly as "
                                            "that card, so give one or the other")
            try:
                like = base.resolve(fields["like"].as_str("like"))
            except UnknownName as exc:
                raise fields["like"].error(f"like: {exc}") from None
            if like.type != ctype:
                raise fields["like"].error(f"{name} is declared a {ctype.replace('_', ' ')} but {like.name} is a "
                                           f"{like.type.replace('_', ' ')}; a card works like a card of its own type")
            like_name = like.name
            card = CardDef(key=name, name=name, type=ctype, editions=tuple(EDITIONS), mechanic=like.mechanic,
                           params=dict(like.params), numerals=like.numerals, aliases=tuple(aliases), tags=like.tags,
                           effect=like.effect, certainty=like.certainty, note=note)
        elif ctype == GOAL:
            if "needs" not in fields:
                raise item.error(f"the Goal {name} needs `like: GOAL` or `needs: [KEEPER, ...]` (the Keepers it asks for)")
            first: dict[str, Node] = {}
            for n in fields["needs"].as_seq("needs"):
                try:
                    keeper = lookup.resolve(n.as_str("a Keeper in needs"))
                except UnknownName as exc:
                    raise n.error(str(exc)) from None
                if keeper.type != KEEPER:
                    raise n.error(f"{keeper.name} is a {keeper.type.replace('_', ' ')}; `needs` names Keepers")
                if keeper.key in first:
                    # a Goal asks for distinct Keepers, and one Keeper in front of a player counts once
                    raise n.error(f"{keeper.name} is already in needs (line {first[keeper.key].line}); one Keeper "
                                  "counts once toward a Goal, so name each Keeper once")
                first[keeper.key] = n
                needs.append(keeper.name)
            if not needs:
                raise fields["needs"].error("a Goal needs at least one Keeper")
            mech = REGISTRY["keeper_goal"]
            params = {k: spec.default for k, spec in mech.params.items()}
            params["needs"] = needs
            card = CardDef(key=name, name=name, type=GOAL, editions=tuple(EDITIONS), mechanic="keeper_goal",
                           params=params, aliases=tuple(aliases), effect=f"wins with {', '.join(needs)} in front of you",
                           note=note)
        elif ctype in (KEEPER, CREEPER):
            if "needs" in fields:
                raise fields["needs"].error("`needs` belongs to a Goal")
            mechanic = "keeper" if ctype == KEEPER else "blocking_creeper"
            params = {k: spec.default for k, spec in REGISTRY[mechanic].params.items()}
            card = CardDef(key=name, name=name, type=ctype, editions=tuple(EDITIONS), mechanic=mechanic,
                           params=params, aliases=tuple(aliases), note=note,
                           effect="a plain Keeper" if ctype == KEEPER else "a plain Creeper: you cannot win with it")
        else:
            raise item.error(f"a declared {type_word.replace('_', ' ')} needs `like: CARD`: the catalogue card it "
                             "works exactly as (only a Keeper, a Creeper or a Goal with `needs` can be plain)")
        out.append(Declared(card, like_name, needs, item))
    return Catalogue([*base, *(d.card for d in out)]), out, named


def declared_catalogue(cards: Any, base: Catalogue | None = None) -> Catalogue:
    """The catalogue with the cards of a plain-data `cards:` list (the app's open
    document) declared over `base`. Raises InputError for a bad declaration."""
    import json

    base = base or default_catalogue()
    if not cards:
        return base
    root = strictyaml.parse(json.dumps(cards, ensure_ascii=False, indent=1), "cards")
    assert root is not None          # a non-empty list is never an empty document
    return declare_cards(root, base)[0]


class _Reader:
    """Card names outside the table (reshuffle, events, expectations), refused at the
    first that names no card; the table itself is read by Position."""

    def __init__(self, catalogue: Catalogue, editions: list[str] | None, named: int = 0,
                 prefer: tuple[str, ...] | None = None):
        self.cat = catalogue
        self.editions = editions
        self.prefer = prefer      # the table's editions (a name of several editions' cards prefers them)
        self.named = named        # cards named so far (the table's included), copies counted

    def card(self, node: Node, what: str = "card") -> CardDef:
        card, _, message = resolve_card(self.cat, node.as_str(what), self.editions, what, self.prefer)
        if card is None:
            raise node.error(message)
        return card

    def card_copy(self, node: Node, what: str) -> tuple[CardDef, int | None]:
        """A card named in an event, with the copy it names (`NAME #K`, format 1.2 item 1)."""
        name, number = split_copy(node.as_str(what))
        if number is not None and number < 1:
            raise node.error(f"{what}: copies are numbered from 1 ({clip(name)} #1 is the first)")
        return self.card(Node(name, node.line, node.col, node.path), what), number

    def cards(self, node: Node, what: str) -> list[CardRef]:
        """A list of card names; "NAME xN" is N copies, "?" an unknown card."""
        out: list[CardRef] = []
        for i, item in enumerate(node.as_seq(what)):
            name, count, bad_count = split_entry(item.as_str(f"a card in {what}"))
            if bad_count:
                raise item.error(bad_count)
            self.named += count
            if self.named > MAX_CARD_REFS:
                raise item.error(f"the scenario names more than {MAX_CARD_REFS:,} cards (copies and `xN` counted); "
                                 f"that is the limit")
            card = self.card(Node(name, item.line, item.col, item.path), f"a card in {what}")
            out.extend(CardRef(card, what, i, source_of(item)) for _ in range(count))
        return out


def check_card_counts(root: Node | None) -> None:
    """Refuse a document that names more cards than any scenario could (copies and
    `? xN` counted, in any list anywhere), before anything expands them. The app's
    Open calls this on files it keeps as plain data; the loader counts table and
    expectations separately as it reads them."""
    total = 0
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node.value, dict):
            stack.extend(node.value.values())
        elif isinstance(node.value, list):
            for item in node.value:
                if not isinstance(item.value, str):
                    stack.append(item)
                    continue
                count = 1
                m = COPIES.match(item.value.strip())
                if m:
                    digits = m.group(2)
                    count = int(digits) if len(digits) <= 6 else MAX_COPIES + 1
                    if count > MAX_COPIES:
                        raise item.error(f"{clip(m.group(1))} x{clip(digits, 10)}: the number of copies must be "
                                         f"from 1 to {MAX_COPIES}")
                total += count
                if total > MAX_CARD_REFS:
                    raise item.error(f"the scenario names more than {MAX_CARD_REFS:,} cards (copies and `xN` "
                                     "counted); that is the limit")


def _refuse_bad_name(node: Node, name: str, what: str) -> None:
    """Names that could deceive a reader (invisible, mixed-script, overlong) are refused."""
    problem = name_problem(name)
    if problem:
        raise node.error(f"{what}: {problem}")


def _ruling_id(node: Node, what: str) -> str:
    """A ruling id (`cites`, `rejected`): kebab-case and known to the corpus, with a did-you-mean."""
    rid = node.as_str(what)
    if len(rid) > MAX_NAME_CHARS or not _ID.match(rid):
        raise node.error(f"{what} {rid[:60]!r} is not a ruling id: ids are kebab-case (lowercase words "
                         "joined by '-')")
    from adjudicator import citations

    return citations.check_id(rid, lambda message: node.error(f"{what}: {message}"))


def _expectation(node: Node, reader: _Reader, players: list[str], where: str) -> Expectation:
    fields = check_keys(node, EXPECT_KEYS, where)
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key in ("winner", "turn"):
            name = value.as_str(key)
            if key == "winner" and name.lower() == "none":
                values[key] = None
            else:
                values[key] = _player(value, players, key)
        elif key in ("everyone_loses", "game_over", "turn_over"):
            values[key] = value.as_bool(key)
        elif key == "plays_left":
            if isinstance(value.value, str) and value.value == "all":
                values[key] = "all"
            else:
                values[key] = value.as_int(key)
        elif key == "draws_owed":
            values[key] = value.as_int(key)
        elif key == "pending":
            pend = check_keys(value, ["by", "choice"], "pending")
            spec: dict[str, Any] = {}
            if "by" in pend:
                spec["by"] = _player(pend["by"], players, "pending.by")
            if "choice" in pend:
                choice = pend["choice"].as_str("pending.choice")
                allowed = (*KINDS, "random")
                if choice not in allowed:
                    raise pend["choice"].error(f"unknown decision kind {clip(choice)!r} (one of {', '.join(allowed)})")
                spec["choice"] = choice
            values[key] = spec
        elif key == "rejected":
            if isinstance(value.value, bool):
                values[key] = value.value
            else:
                values[key] = _ruling_id(value, "rejected")
        elif key == "cites":
            values[key] = [_ruling_id(n, "a ruling id in cites") for n in value.as_seq("cites")]
        elif key == "zones":
            zones = {}
            for zname, spec_node in value.as_map("zones").items():
                zkey = _zone_name(fields["zones"].key_nodes[zname], zname, players, reader)
                if spec_node.is_seq():
                    zones[zkey] = {"exactly": [c.card for c in reader.cards(spec_node, zname)]}
                else:
                    spec_fields = check_keys(spec_node, ["has", "lacks", "size", "top"], f"the zone spec of {zname}")
                    z: dict[str, Any] = {}
                    for k, v in spec_fields.items():
                        if k in ("has", "lacks"):
                            z[k] = [c.card for c in reader.cards(v, f"{zname}.{k}")]
                        elif k == "size":
                            z[k] = v.as_int("size")
                        else:
                            z[k] = reader.card(v, f"{zname}.top")
                    zones[zkey] = z
            values[key] = zones
    return Expectation(values, fields, node.line)


def _zone_name(node: Node, name: str, players: list[str], reader: _Reader | None = None) -> str:
    if name in GLOBAL_ZONES:
        return name
    if "." in name and reader is not None and name.rpartition(".")[2] == "under":
        # our extension: the cards lying under a card in play, `CARD.under` (`CARD #K` for one copy)
        card, copy = reader.card_copy(Node(name.rpartition(".")[0], node.line, node.col, node.path),
                                      "the card in a zone CARD.under")
        return f"{card.name}{f' #{copy}' if copy is not None else ''}.under"
    if "." in name:
        who, _, zone = name.rpartition(".")
        if zone in ZONE_NAMES:
            for p in players:
                if p == who or p.lower() == who.lower():
                    return f"{p}.{zone}"
            raise node.error(f"zone {clip(name)!r} names no player (players: {', '.join(players)})")
    raise node.error(f"unknown zone {clip(name)!r}: use NAME.hand, NAME.keepers, NAME.temp_hand, CARD.under, "
                     + ", ".join(GLOBAL_ZONES))


def _player(node: Node, players: list[str], what: str) -> str:
    name = node.as_str(what)
    p = find_player(name, players)
    if p is None:
        raise node.error(no_such_player(what, name, players))
    return p


def _answer(node: Node) -> Any:
    """A scripted answer: text, a number, yes/no, a list or a mapping, positions dropped."""
    return node.plain_data()


def parse_scenario(root: Node | None, path: str, catalogue: Catalogue | None = None) -> Scenario:
    """Read a scenario, refusing the first thing wrong with it at its file, line and
    column (a table the rules could never reach included: see Position.problems)."""
    catalogue = catalogue or default_catalogue()
    if root is None:
        raise InputError("the file is empty; a scenario needs at least `format: 1` and a `table`", path, 1, 1)
    top = check_keys(root, TOP_KEYS, "a scenario", required=("format", "table"))
    fmt = top["format"]
    if fmt.value != 1 or isinstance(fmt.value, bool):
        raise fmt.error(f"unsupported format {clip(fmt.source) or fmt.value!r}; this engine reads `format: 1`")
    sid = top["id"].as_str("id") if "id" in top else _default_id(path)
    if "id" in top and (len(sid) > MAX_NAME_CHARS or not _ID.match(sid)):
        raise top["id"].error(f"id {sid[:60]!r} must be kebab-case (lowercase words joined by '-'), "
                              f"at most {MAX_NAME_CHARS} characters")
    declared: list[Declared] = []
    named = 0
    if "cards" in top:
        catalogue, declared, named = declare_cards(top["cards"], catalogue)
    pos = Position.read(top["table"], catalogue)
    if named and named + pos.card_count() > MAX_CARD_REFS:
        raise top["table"].error(f"the scenario names more than {MAX_CARD_REFS:,} cards (the table's and those "
                                 "of `like` and `needs` counted); that is the limit")
    # refused in the order the file has always been read: editions and seats, then the
    # scenario's own fields, then the rest of the table, `reshuffle`, the rules' verdict
    seating = [p for p in pos.reading if p.zone in ("editions", "players")]
    _refuse(seating)
    sc = Scenario(path=path, id=sid, title=top["title"].as_str("title") if "title" in top else sid,
                  cites=[_ruling_id(n, "a ruling id in cites") for n in top["cites"].as_seq("cites")]
                  if "cites" in top else [],
                  note=top["note"].as_str("note") if "note" in top else "",
                  table=top["table"], position=pos, events=[], expect=None, catalogue=catalogue,
                  declared=declared)
    _refuse(pos.reading)
    players = pos.players
    reader = _Reader(catalogue, pos.editions, named=named + pos.card_count(), prefer=pos.deck_editions)
    if "reshuffle" in top:
        sc.reshuffle = [c.card.key for c in reader.cards(top["reshuffle"], "reshuffle")]
    _refuse(pos.judge())
    if "events" in top:
        items = top["events"].as_seq("events")
        if len(items) > MAX_EVENTS:
            raise items[MAX_EVENTS].error(f"more than {MAX_EVENTS:,} events; a scenario holds at most {MAX_EVENTS:,}")
        # players who jump in during the game may be named by later events
        everyone = list(players)
        seats = [*top["table"].value["players"].value]
        for item in items:
            if item.is_map() and "join" in item.value:
                node = item.value["join"]
                name = node.as_str("join")
                if name.lower() not in (p.lower() for p in everyone):   # a seated player may rejoin
                    for i, message in player_name_problems([*everyone, name], [source_of(n) for n in [*seats, node]],
                                                           joining=True):
                        if i == len(everyone):
                            raise node.error(message)
                    everyone.append(name)
                    seats.append(node)
        for item in items:
            sc.events.append(_event(item, reader, everyone))
    if "expect" in top:
        joined = [e.event.answer for e in sc.events if e.event.verb == "join"]
        sc.expect = _expectation(top["expect"], reader, players + joined, "the final expect")
    if "question" in top:
        everyone = players + [e.event.answer for e in sc.events if e.event.verb == "join"]
        sc.question, sc.ask = read_question(top["question"], lambda n: reader.card(n, "ask.where").name,
                                            lambda n: _player(n, everyone, "ask.must"))
    sc.disputed = _disputed(sc.events)
    if "variations" in top:
        sc.variations = _variations(top["variations"], reader, players, sc.events, "the main line", 1)
    return sc


def _refuse(problems: list[PositionProblem]) -> None:
    """Refuse the first of a position's problems, at its file, line and column."""
    if problems:
        raise problems[0].error()


def _disputed(events: list[ScenarioEvent]) -> int | None:
    """The event marked `disputed: true` (at most one), as a 1-based number."""
    marked = [i for i, e in enumerate(events, 1) if e.disputed]
    if len(marked) > 1:
        first = events[marked[0] - 1].node
        raise events[marked[1] - 1].node.value["disputed"].error(
            f"only one event may be disputed; event {marked[0]} (line {first.line}) already is")
    return marked[0] if marked else None


def _line_players(players: list[str], events: list[ScenarioEvent]) -> list[str]:
    out = list(players)
    for e in events:
        if e.event.verb == "join" and e.event.answer not in out:
            out.append(e.event.answer)
    return out


def _variations(node: Node, reader: _Reader, players: list[str], parent: list[ScenarioEvent], where: str,
                depth: int) -> list[Variation]:
    """`variations:` of a line: each branches after an event of that line (0 to its length)."""
    if depth > MAX_VARIATION_DEPTH:
        raise node.error(f"variations nest at most {MAX_VARIATION_DEPTH} deep")
    out: list[Variation] = []
    for item in node.as_seq("variations"):
        fields = check_keys(item, VARIATION_KEYS, "a variation", required=("after",))
        after = fields["after"].as_int("after", 0, None)
        if after > len(parent):
            raise fields["after"].error(f"after: {after} is beyond the end of {where}, which has {len(parent)} "
                                        f"event{'s' if len(parent) != 1 else ''}; use "
                                        + (f"0 to {len(parent)}" if parent else "0 (straight from the set-up)"))
        title = fields["title"].as_str("a variation's title") if "title" in fields else f"Variation after event {after}"
        before = _line_players(players, parent[:after])
        everyone = list(before)
        items = fields["events"].as_seq("a variation's events") if "events" in fields else []
        for ev in items:
            if ev.is_map() and "join" in ev.value and isinstance(ev.value["join"].value, str):
                if ev.value["join"].value.lower() not in (p.lower() for p in everyone):
                    everyone.append(ev.value["join"].value)
        events = [_event(ev, reader, everyone) for ev in items]
        for e in events:
            if e.disputed:
                raise e.node.value["disputed"].error(
                    "`disputed` marks an event of the main line; a variation is a side line of the dispute")
        expect = _expectation(fields["expect"], reader, everyone, "a variation's expect") if "expect" in fields else None
        var = Variation(after, title, events, expect, item)
        if "variations" in fields:
            var.variations = _variations(fields["variations"], reader, everyone, events, f"the variation {title!r}",
                                         depth + 1)
        out.append(var)
    return out


def _event(node: Node, reader: _Reader, players: list[str]) -> ScenarioEvent:
    fields = check_keys(node, EVENT_KEYS, "an event")
    verbs = [k for k in fields if k in VERB_KEYS]
    if len(verbs) > 1 and "choose" in verbs:
        verbs.remove("choose")          # `choose:` beside a verb is that event's answers
    if len(verbs) != 1:
        raise node.error("an event needs exactly one verb: " + ", ".join(VERB_KEYS)
                         + (f" (it has {', '.join(verbs)})" if verbs else ""))
    verb = verbs[0]
    ev = Event(verb=verb, line=node.line, written=True)
    vnode = fields[verb]
    if verb in ("play", "surprise", "use"):
        card, ev.copy = reader.card_copy(vnode, verb)
        ev.card = card.key
    elif verb == "random":
        ev.card = reader.card(vnode, "random").key
    elif verb == "choose":
        ev.answer = _answer(vnode)
    elif verb in ("join", "leave"):
        ev.answer = _player(vnode, players, verb)
    if "by" in fields:
        ev.by = _player(fields["by"], players, "by")
    if "against" in fields:
        if verb != "surprise":
            raise fields["against"].error("`against` goes with a `surprise` event only")
        ev.against = reader.card(fields["against"], "against").key
    if "choose" in fields and verb != "choose":
        ev.answers = [_answer(n) for n in fields["choose"].as_seq("choose")]
    if "note" in fields:
        ev.note = fields["note"].as_str("note")
    expect = _expectation(fields["expect"], reader, players, "an event's expect") if "expect" in fields else None
    disputed = fields["disputed"].as_bool("disputed") if "disputed" in fields else False
    return ScenarioEvent(ev, expect, node, disputed)


def _default_id(path: str) -> str:
    import os
    base = os.path.splitext(os.path.basename(path))[0].lower()
    return re.sub(r"[^a-z0-9]+", "-", base).strip("-") or "scenario"


def load_scenario(path: str, catalogue: Catalogue | None = None) -> Scenario:
    """Read a scenario from a file, or from a share string (`fj1.…`) given in its place."""
    root = read_source(path)
    return parse_scenario(root, share.SHOWN_AS if share.looks_like_share(path) else path, catalogue)


def read_source(path_or_share: str) -> Node | None:
    """The YAML tree of a scenario file, or of the document a share string holds (the
    same strict reader and limits either way)."""
    if share.looks_like_share(path_or_share):
        return strictyaml.parse(share.document_text(share.decode(path_or_share)), share.SHOWN_AS)
    return strictyaml.read_file(path_or_share)


def build_state(sc: Scenario, seed: int = 0) -> State:
    """The table the scenario describes, with one copy id per physical card."""
    st = sc.position.state(seed)
    st.reshuffle_order = list(sc.reshuffle)
    return st
