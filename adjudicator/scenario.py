"""Scenario files (format 1): a table position, the plays made from it, expectations.

The loader is strict, as the public format requires: unknown keys (with a did-you-mean),
duplicate keys, names that YAML would read as numbers or booleans, unknown cards (with
suggestions) and positions the rules could never reach are refused, each with the
file, line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator import share, strictyaml
from adjudicator.catalogue import Catalogue, CardDef, UnknownName, default_catalogue, EDITIONS
from adjudicator.errors import InputError
from adjudicator.events import Event
from adjudicator.limits import MAX_CARD_REFS, MAX_COPIES, MAX_EVENTS, MAX_NAME_CHARS, MAX_TABLE_CARDS
from adjudicator.names import name_problem, skeleton
from adjudicator.mechanics.base import CARD_TYPES, CREEPER, GOAL, KEEPER, META_RULE, RULE, UNGOAL, BASIC
from adjudicator.state import State
from adjudicator.strictyaml import Node, check_keys, clip

TOP_KEYS = ["format", "id", "title", "cites", "note", "question", "cards", "table", "events", "expect", "reshuffle",
            "variations"]
CARD_KEYS = ["name", "type", "like", "needs", "aliases", "note"]
DECLARED_TYPES = {t: t for t in CARD_TYPES if t != BASIC}
MAX_DECLARED = 200
TABLE_KEYS = ["players", "turn", "drawn", "played", "rules", "meta_rules", "goals", "hands", "keepers",
              "draw_pile", "discard", "eliminated", "deal", "solo", "rules_pile", "scored", "editions", "attached"]
EVENT_KEYS = ["play", "surprise", "use", "choose", "random", "end_turn", "join", "leave", "by", "expect", "note",
              "against", "disputed"]
VARIATION_KEYS = ["after", "title", "events", "expect", "variations"]
MAX_VARIATION_DEPTH = 8
EXPECT_KEYS = ["winner", "everyone_loses", "game_over", "turn", "turn_over", "plays_left", "draws_owed",
               "pending", "rejected", "cites", "zones"]
VERB_KEYS = ("play", "surprise", "use", "choose", "random", "end_turn", "join", "leave")
ZONE_NAMES = ("hand", "keepers", "temp_hand")
GLOBAL_ZONES = ("rules", "meta_rules", "goals", "draw_pile", "discard", "rules_pile", "scored", "removed")
_COPIES = re.compile(r"^(.*?)\s+x\s*(\d+)$", re.IGNORECASE)
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass
class CardRef:
    """A card as a scenario names it: its catalogue entry and where it was written."""

    card: CardDef
    node: Node


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
    events: list[ScenarioEvent]
    expect: Expectation | None
    catalogue: Catalogue
    editions: list[str] | None = None
    reshuffle: list[str] = field(default_factory=list)
    solo: bool = False
    deal: bool = False
    position: dict[str, Any] = field(default_factory=dict)   # the parsed table, card refs resolved
    question: str = ""                                       # the dispute in the players' words (1.1, item 4)
    disputed: int | None = None                              # 1-based event marked `disputed: true`
    variations: list[Variation] = field(default_factory=list)
    declared: list["Declared"] = field(default_factory=list)   # `cards:` (1.1, item 8)

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


def declare_cards(node: Node, base: Catalogue) -> tuple[Catalogue, list[Declared]]:
    """The catalogue of one scenario: the base catalogue with the cards `cards:` declares.
    A declared name or alias may not clash with a catalogue card or another declared card."""
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
            clash = base._index.get(normalize(label))
            if clash:
                other = base.cards[clash[0]].name
                raise where.error(f"{clip(label)!r} is already a card of the catalogue ({other}); a declared card "
                                  f"needs a name of its own (or use {other} itself)")
            if normalize(label) in taken:
                raise where.error(f"{clip(label)!r} is declared twice (line {taken[normalize(label)].line})")
            taken[normalize(label)] = where
        type_word = fields["type"].as_str("type")
        if type_word not in DECLARED_TYPES:
            raise fields["type"].error(f"unknown card type {clip(type_word)!r} (one of {', '.join(DECLARED_TYPES)})")
        ctype = DECLARED_TYPES[type_word]
        staged.append((item, fields, name, ctype, [label for label, _ in labels[1:]]))
    declared_defs = [CardDef(key=name, name=name, type=ctype, editions=tuple(EDITIONS), mechanic="keeper",
                             aliases=tuple(aliases)) for _, _, name, ctype, aliases in staged]
    lookup = Catalogue([*base, *declared_defs])   # `needs` may name declared Keepers
    out: list[Declared] = []
    for (item, fields, name, ctype, aliases) in staged:
        like_name, needs = None, []
        note = fields["note"].as_str("note") if "note" in fields else ""
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
            for n in fields["needs"].as_seq("needs"):
                try:
                    keeper = lookup.resolve(n.as_str("a Keeper in needs"))
                except UnknownName as exc:
                    raise n.error(str(exc)) from None
                if keeper.type != KEEPER:
                    raise n.error(f"{keeper.name} is a {keeper.type.replace('_', ' ')}; `needs` names Keepers")
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
    return Catalogue([*base, *(d.card for d in out)]), out


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
    def __init__(self, catalogue: Catalogue, editions: list[str] | None):
        self.cat = catalogue
        self.editions = editions
        self.named = 0            # cards named so far, copies counted
        self.on_table: int | None = 0   # cards on the table so far; None once the table is read

    def card(self, node: Node, what: str = "card") -> CardDef:
        name = node.as_str(what)
        if name.strip() != "?":
            _refuse_bad_name(node, name, what)
        try:
            return self.cat.resolve(name, self.editions)
        except UnknownName as exc:
            raise node.error(str(exc)) from None

    def cards(self, node: Node, what: str) -> list[CardRef]:
        """A list of card names; "NAME xN" is N copies, "?" an unknown card."""
        out: list[CardRef] = []
        for item in node.as_seq(what):
            name = item.as_str(f"a card in {what}")
            count = 1
            m = _COPIES.match(name.strip())
            if m:
                name, digits = m.group(1), m.group(2)
                count = int(digits) if len(digits) <= 6 else MAX_COPIES + 1
                if count < 1 or count > MAX_COPIES:
                    raise item.error(f"{name[:40]} x{digits[:10]}{'…' if len(digits) > 10 else ''}: "
                                     f"the number of copies must be from 1 to {MAX_COPIES}")
            self.count(item, count)
            probe = Node(name, item.line, item.col, item.path)
            card = self.card(probe, f"a card in {what}")
            out.extend(CardRef(card, item) for _ in range(count))
        return out

    def count(self, item: Node, count: int) -> None:
        """Bound the cards a file can make: on the table, and named anywhere in it."""
        self.named += count
        if self.named > MAX_CARD_REFS:
            raise item.error(f"the scenario names more than {MAX_CARD_REFS:,} cards (copies and `xN` counted); "
                             f"that is the limit")
        if self.on_table is not None:
            self.on_table += count
            if self.on_table > MAX_TABLE_CARDS:
                raise item.error(f"the table would hold more than {MAX_TABLE_CARDS:,} cards (copies and `? xN` "
                                 f"counted); a table holds at most {MAX_TABLE_CARDS:,}")


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
                m = _COPIES.match(item.value.strip())
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
                allowed = ("discard", "discard_keepers", "card", "cards", "player", "deal", "yes_no", "number", "table", "random")
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
                zkey = _zone_name(fields["zones"].key_nodes[zname], zname, players)
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


def _zone_name(node: Node, name: str, players: list[str]) -> str:
    if name in GLOBAL_ZONES:
        return name
    if "." in name:
        who, _, zone = name.rpartition(".")
        if zone in ZONE_NAMES:
            for p in players:
                if p == who or p.lower() == who.lower():
                    return f"{p}.{zone}"
            raise node.error(f"zone {clip(name)!r} names no player (players: {', '.join(players)})")
    raise node.error(f"unknown zone {clip(name)!r}: use NAME.hand, NAME.keepers, NAME.temp_hand, " + ", ".join(GLOBAL_ZONES))


def _player(node: Node, players: list[str], what: str) -> str:
    name = node.as_str(what)
    for p in players:
        if p == name or p.lower() == name.lower():
            return p
    raise node.error(f"{what}: no player is called {clip(name)!r} (players: {', '.join(players)})")


def _answer(node: Node) -> Any:
    """A scripted answer: text, a number, yes/no, a list or a mapping, positions dropped."""
    return node.plain_data()


def parse_scenario(root: Node | None, path: str, catalogue: Catalogue | None = None, check: bool = True) -> Scenario:
    """Read a scenario; `check=False` keeps a position the rules could never reach
    (the table editor shows it with its problems) instead of refusing it."""
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
    if "cards" in top:
        catalogue, declared = declare_cards(top["cards"], catalogue)
    table = check_keys(top["table"], TABLE_KEYS, "the table", required=("players",))
    editions = None
    if "editions" in table:
        editions = [n.as_str("edition") for n in table["editions"].as_seq("table.editions")]
        for ed, n in zip(editions, table["editions"].value):
            if ed not in EDITIONS:
                raise n.error(f"unknown edition {clip(ed)!r} (one of {', '.join(EDITIONS)})")
    reader = _Reader(catalogue, editions)
    players_node = table["players"]
    players = [n.as_str("a player name") for n in players_node.as_seq("table.players")]
    if not 1 <= len(players) <= 8:
        raise players_node.error(f"a table seats 1 to 8 players, not {len(players)}")
    _check_player_names(players_node.value, players)
    sc = Scenario(path=path, id=sid, title=top["title"].as_str("title") if "title" in top else sid,
                  cites=[_ruling_id(n, "a ruling id in cites") for n in top["cites"].as_seq("cites")]
                  if "cites" in top else [],
                  note=top["note"].as_str("note") if "note" in top else "",
                  table=top["table"], events=[], expect=None, catalogue=catalogue, editions=editions,
                  declared=declared)
    sc.deal = table["deal"].as_bool("deal") if "deal" in table else False
    sc.solo = table["solo"].as_bool("solo") if "solo" in table else False
    if sc.deal:
        for k in ("hands", "drawn", "played"):
            if k in table:
                raise table[k].error(f"with `deal: true` the game has not started, so `{k}` must be absent")
    pos: dict[str, Any] = {"players": players}
    pos["turn"] = _player(table["turn"], players, "table.turn") if "turn" in table else players[0]
    pos["drawn"] = table["drawn"].as_int("table.drawn", 0, 1000) if "drawn" in table else None
    pos["played"] = table["played"].as_int("table.played", 0, 1000) if "played" in table else 0
    for key in ("rules", "meta_rules", "goals", "draw_pile", "discard", "rules_pile", "scored"):
        pos[key] = reader.cards(table[key], f"table.{key}") if key in table else []
    for key in ("hands", "keepers"):
        per: dict[str, list[CardRef]] = {p: [] for p in players}
        if key in table:
            mapping = table[key].as_map(f"table.{key}")
            for who, cards in mapping.items():
                p = _player(table[key].key_nodes[who], players, f"table.{key}")
                per[p] = reader.cards(cards, f"{p}.{'hand' if key == 'hands' else 'keepers'}")
        pos[key] = per
    pos["attached"] = []
    if "attached" in table:
        for name, keeper in table["attached"].as_map("table.attached").items():
            key_node = table["attached"].key_nodes[name]
            pos["attached"].append((CardRef(reader.card(key_node, "an attached Creeper"), key_node),
                                    CardRef(reader.card(keeper, "the Keeper it is attached to"), keeper)))
    pos["eliminated"] = [_player(n, players, "table.eliminated") for n in table["eliminated"].as_seq("table.eliminated")] \
        if "eliminated" in table else []
    if pos["turn"] in pos["eliminated"]:
        raise table["turn"].error(f"{pos['turn']} is eliminated and cannot be the active player")
    if not sc.solo:
        for key in ("rules_pile", "scored"):
            if key in table:
                raise table[key].error(f"`{key}` belongs to Solo Fluxx only (add `solo: true`)")
    sc.position = pos
    reader.on_table = None
    if "reshuffle" in top:
        sc.reshuffle = [c.card.key for c in reader.cards(top["reshuffle"], "reshuffle")]
    if check:
        _check_position(sc)
    if "events" in top:
        items = top["events"].as_seq("events")
        if len(items) > MAX_EVENTS:
            raise items[MAX_EVENTS].error(f"more than {MAX_EVENTS:,} events; a scenario holds at most {MAX_EVENTS:,}")
        # players who jump in during the game may be named by later events
        everyone = list(players)
        for item in items:
            if item.is_map() and "join" in item.value:
                node = item.value["join"]
                name = node.as_str("join")
                if name.lower() not in (p.lower() for p in everyone):   # a seated player may rejoin
                    _check_player_names([*players_node.value, node], [*everyone, name], joining=True)
                    everyone.append(name)
        for item in items:
            sc.events.append(_event(item, reader, everyone))
    if "expect" in top:
        joined = [e.event.answer for e in sc.events if e.event.verb == "join"]
        sc.expect = _expectation(top["expect"], reader, players + joined, "the final expect")
    if "question" in top:
        sc.question = top["question"].as_str("question").strip()
    sc.disputed = _disputed(sc.events)
    if "variations" in top:
        sc.variations = _variations(top["variations"], reader, players, sc.events, "the main line", 1)
    return sc


def _check_player_names(nodes: list[Node], names: list[str], joining: bool = False) -> None:
    """Player names are unique however they are written, and cannot be mistaken for
    one another (case, Unicode form, look-alike letters from another script)."""
    seen: dict[str, tuple[str, Node]] = {}
    for n, p in zip(nodes, names):
        if p.strip() != p or "." in p:
            raise n.error(f"player name {clip(p)!r} may not contain '.' or start/end with spaces")
        _refuse_bad_name(n, p, f"player name {p[:40]!r}")
        form = skeleton(p)
        if form in seen:
            first, first_node = seen[form]
            if first.lower() == p.lower():
                raise n.error(f"player {p!r} is seated twice" + ("" if joining else f" (line {first_node.line})"))
            raise n.error(f"player name {p!r} looks like {first!r} (line {first_node.line}); "
                          "give players names that cannot be confused")
        seen[form] = (p, n)


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
        ev.card = reader.card(vnode, verb).key
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


def _check_position(sc: Scenario) -> None:
    """Refuse positions the rules could never reach, naming the reason."""
    problems = position_problems(sc)
    if problems:
        node, message = problems[0]
        raise node.error(message)


def position_problems(sc: Scenario) -> list[tuple[Node, str]]:
    """Every reason the position could not occur (the table editor lists them all)."""
    from adjudicator.interactions import graph_for

    pos = sc.position
    graph = graph_for(sc.catalogue) if pos["rules"] else None   # built only when there are rules to judge
    out: list[tuple[Node, str]] = []
    by_slot: dict[str, CardRef] = {}
    for i, ref in enumerate(pos["rules"]):
        assert graph is not None        # (there are rules)
        if ref.card.type != RULE:
            out.append((ref.node, f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}, not a New Rule; "
                                  "it cannot stand among the rules"))
            continue
        twin = next((r for r in pos["rules"][:i] if r.card.type == RULE and graph.same_job(r.card.key, ref.card.key)),
                    None)
        if twin is not None:
            out.append((ref.node, f"{ref.card.name} and {twin.card.name} (line {twin.node.line}) are the same rule: the "
                                  "newer copy would have replaced the older, so only one can be in play"))
            continue
        for slot in graph.slots_of(ref.card.key):
            if slot in by_slot:
                other = by_slot[slot].card.name
                out.append((ref.node, f"{other} and {ref.card.name} cannot both be in play: they govern the same "
                                      f"thing ({slot.replace('_', ' ')}), so the newer would have discarded the older"))
            by_slot[slot] = ref
    for ref in pos["meta_rules"]:
        if ref.card.type != META_RULE:
            out.append((ref.node, f"{ref.card.name} is not a Meta Rule"))
    agenda = 1
    for ref in pos["rules"]:
        impl = ref.card.impl
        if impl.slot == "agenda":
            agenda = ref.card.params.get("goals", 1)
    for ref in pos["goals"]:
        if ref.card.type not in (GOAL, UNGOAL):
            out.append((ref.node, f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}, not a Goal"))
    if len(pos["goals"]) > agenda:
        out.append((pos["goals"][agenda].node, f"{len(pos['goals'])} Goals are in play but the rules allow {agenda}"))
    for p, refs in pos["hands"].items():
        for ref in refs:
            if ref.card.type == CREEPER:
                out.append((ref.node, f"{ref.card.name} is a Creeper in {p}'s hand: a Creeper drawn goes straight to "
                                      "the table, so it can never be held"))
            if ref.card.type in (BASIC,):
                out.append((ref.node, "the Basic Rules never leave the center of the table"))
    for p, refs in pos["keepers"].items():
        for ref in refs:
            if ref.card.type not in (KEEPER, CREEPER, "unknown"):
                out.append((ref.node, f"{ref.card.name} is a {ref.card.type.replace('_', ' ')}: only Keepers and "
                                      f"Creepers stand in front of a player"))
            elif ref.card.type == "unknown":
                out.append((ref.node, "cards in front of a player are face up: name them instead of '?'"))
    # copies of a title are allowed anywhere (format 1.1, item 1: decks combined);
    # only the Basic Rules never stand in a zone
    zones = [pos["rules"], pos["meta_rules"], pos["goals"], pos["draw_pile"], pos["discard"], pos["rules_pile"],
             pos["scored"], *pos["hands"].values(), *pos["keepers"].values()]
    for refs in zones:
        for ref in refs:
            if ref.card.type == BASIC:
                out.append((ref.node, "the Basic Rules are always in play; do not list them"))
    out.extend(_attachment_problems(pos))
    if sc.solo:
        for ref in pos["rules_pile"]:
            if ref.card.type != RULE:
                out.append((ref.node, f"{ref.card.name} is not a New Rule: the Solo Rules deck holds only New Rules"))
        for ref in pos["draw_pile"]:
            if ref.card.type == RULE:
                out.append((ref.node, f"{ref.card.name} is a New Rule: in Solo Fluxx New Rules form their own deck "
                                      "(table.rules_pile), apart from the main deck"))
    if not out and not sc.solo and not sc.deal:
        out.extend(_winner_problems(sc))
    # plays already made must have left a card somewhere visible
    visible = len(pos["discard"]) + sum(len(v) for v in pos["keepers"].values()) + len(pos["rules"]) + len(pos["goals"])
    if pos["played"] > visible:
        node = sc.table.value.get("played", sc.table)
        out.append((node, f"{pos['played']} plays made this turn, but only {visible} cards are in play or discarded: "
                          "every play leaves its card somewhere"))
    return out


def _attachment_problems(pos: dict[str, Any]) -> list[tuple[Node, str]]:
    """`table.attached` pairs stand in one player's keepers, and an attaching Creeper
    beside several Keepers it could go on must say which (format 1.1, item 3)."""
    out: list[tuple[Node, str]] = []
    named: set[tuple[str, str]] = set()
    for creeper, keeper in pos.get("attached", []):
        impl = creeper.card.impl
        if not impl.attaches:
            out.append((creeper.node, f"{creeper.card.name} is not a Creeper that attaches itself to a Keeper"))
            continue
        if not impl.can_attach_to(creeper.card, keeper.card):
            out.append((keeper.node, f"{creeper.card.name} cannot be attached to {keeper.card.name}"))
            continue
        holder = next((p for p, refs in pos["keepers"].items()
                       if any(r.card.key == creeper.card.key for r in refs)
                       and any(r.card.key == keeper.card.key for r in refs)), None)
        if holder is None:
            out.append((creeper.node, f"{creeper.card.name} and {keeper.card.name} must both stand in one player's "
                                      "keepers to be attached"))
            continue
        named.add((holder, creeper.card.key))
    for p, refs in pos["keepers"].items():
        for ref in refs:
            impl = ref.card.impl
            if not impl.attaches or (p, ref.card.key) in named:
                continue
            fits = {r.card.name for r in refs if impl.can_attach_to(ref.card, r.card)}
            if len(fits) > 1:
                out.append((ref.node, f"{ref.card.name} stands beside several Keepers it could be attached to "
                                      f"({', '.join(sorted(fits))}): say which in table.attached, e.g. "
                                      f"`attached: {{{ref.card.name}: {sorted(fits)[0]}}}`"))
    return out


def attachments_of(st: State, pos: dict[str, Any]) -> dict[int, int]:
    """Creeper copy -> Keeper copy: the pairs `table.attached` names, and every other
    attaching Creeper beside exactly one Keeper it can go on."""
    out: dict[int, int] = {}
    wanted = {c.card.key: k.card.key for c, k in pos.get("attached", [])}
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


def _winner_problems(sc: Scenario) -> list[tuple[Node, str]]:
    """Exactly one player meeting a Goal in play would already have won the moment it
    happened: such a table cannot be reached (a tie can: play goes on)."""
    from adjudicator.engine import Engine

    engine = Engine(sc.catalogue, build_state(sc))
    met, _ = engine.goal_claims()
    if len(met) != 1:
        return []
    (player, goals), = met.items()
    st = engine.state
    first = st.goals.index(goals[0])
    node = sc.position["goals"][first].node
    return [(node, f"{player} already meets {engine.names(goals)}: that player would have won the moment it "
                   "happened, so the game could never reach this table (change the Goal or the Keepers)")]


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
    from adjudicator.state import Rng

    pos = sc.position
    defs: list[CardDef] = []

    def make(refs: list[CardRef]) -> list[int]:
        ids = []
        for ref in refs:
            defs.append(ref.card)
            ids.append(len(defs) - 1)
        return ids

    players = list(pos["players"])
    st = State(defs=defs, players=players,
               hands={p: make(pos["hands"][p]) for p in players},
               keepers={p: make(pos["keepers"][p]) for p in players})
    st.rules = make(pos["rules"])
    st.meta_rules = make(pos["meta_rules"])
    st.goals = make(pos["goals"])
    st.draw_pile = make(pos["draw_pile"])
    st.discard = make(pos["discard"])
    st.rules_pile = make(pos["rules_pile"])
    st.scored = make(pos["scored"])
    st.solo = sc.solo
    basic = sc.catalogue.resolve("Basic Rules")
    defs.append(basic)
    st.basic = len(defs) - 1
    st.eliminated = list(pos["eliminated"])
    st.active = players.index(pos["turn"])
    st.played = pos["played"]
    st.reshuffle_order = list(sc.reshuffle)
    st.attachments = attachments_of(st, pos)
    st.rng = Rng(seed)
    return st
