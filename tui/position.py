"""The table position as the editor holds it, and the questions the editor asks of it.

A position is the `table` mapping of a scenario document, kept as plain data so that
it can be saved exactly as it was opened. This module names its zones, reads and
writes them, finds cards by name as the user types (aliases and typos included), and
lists every reason the position could never occur, without refusing it: unknown card
names are reported per card, and the engine's own `position_problems` judges the rest.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any, Iterable

from adjudicator.names import normalize

CENTRE_ZONES = ("rules", "meta_rules", "goals", "draw_pile", "discard")
PILES = ("draw_pile", "discard", "rules_pile", "scored")     # listed top card first
SOLO_ZONES = ("rules_pile", "scored")
PER_PLAYER = ("hands", "keepers")
ZONE_TITLES = {
    "rules": "Rules", "meta_rules": "Meta Rules", "goals": "Goals",
    "draw_pile": "Draw pile", "discard": "Discard pile",
    "rules_pile": "Rules pile", "scored": "Scored Goals",
}
_COPIES = re.compile(r"^(.*?)\s+x\s*(\d+)$", re.IGNORECASE)
MAX_PLAYERS = 8


@functools.lru_cache(maxsize=1)
def catalogue():
    """The built-in card catalogue (loaded on first use, never at start-up)."""
    from adjudicator.catalogue import default_catalogue

    return default_catalogue()


# --------------------------------------------------------------------------- zones

def zones(table: dict) -> list[str]:
    """Every zone of the position, centre first, then each player's hand and table."""
    out = list(CENTRE_ZONES)
    if table.get("solo"):
        out += list(SOLO_ZONES)
    for p in players(table):
        out += [f"hands.{p}", f"keepers.{p}"]
    return out


def zone_title(zone: str) -> str:
    if zone.startswith("hands."):
        return f"{zone[6:]}'s hand"
    if zone.startswith("keepers."):
        return f"{zone[8:]}'s table"
    return ZONE_TITLES.get(zone, zone)


def players(table: dict) -> list[str]:
    value = table.get("players")
    return [p for p in value if isinstance(p, str)] if isinstance(value, list) else []


def _player_key(mapping: dict, player: str) -> str | None:
    for k in mapping:
        if isinstance(k, str) and k.lower() == player.lower():
            return k
    return None


def get_zone(table: dict, zone: str) -> list:
    if "." in zone:
        kind, _, player = zone.partition(".")
        mapping = table.get(kind)
        if not isinstance(mapping, dict):
            return []
        key = _player_key(mapping, player)
        value = mapping.get(key) if key is not None else None
    else:
        value = table.get(zone)
    return list(value) if isinstance(value, list) else []


def set_zone(table: dict, zone: str, items: list) -> None:
    """Store a zone; an empty zone is left out of the file, as the format allows."""
    if "." in zone:
        kind, _, player = zone.partition(".")
        mapping = table.get(kind)
        if not isinstance(mapping, dict):
            mapping = {}
        key = _player_key(mapping, player) or player
        if items:
            mapping[key] = list(items)
        else:
            mapping.pop(key, None)
        if mapping:
            table[kind] = mapping
        else:
            table.pop(kind, None)
    elif items:
        table[zone] = list(items)
    else:
        table.pop(zone, None)


def split_copies(entry: str) -> tuple[str, int]:
    """'Milk x2' -> ('Milk', 2); 'Milk' -> ('Milk', 1)."""
    m = _COPIES.match(entry.strip())
    if m:
        return m.group(1), int(m.group(2))
    return entry, 1


def with_copies(name: str, count: int) -> str:
    return name if count == 1 else f"{name} x{count}"


# --------------------------------------------------------------------------- players

def rename_player(doc: dict, old: str, new: str) -> None:
    """Rename a player everywhere the document names them (seats, turn, zones, events)."""
    table = doc.setdefault("table", {})

    def same(x: Any) -> bool:
        return isinstance(x, str) and x.lower() == old.lower()

    table["players"] = [new if same(p) else p for p in players(table)]
    for key in ("turn",):
        if same(table.get(key)):
            table[key] = new
    if isinstance(table.get("eliminated"), list):
        table["eliminated"] = [new if same(p) else p for p in table["eliminated"]]
    for kind in PER_PLAYER:
        mapping = table.get(kind)
        if isinstance(mapping, dict):
            table[kind] = {(new if same(k) else k): v for k, v in mapping.items()}
    for ev in doc.get("events") or []:
        if isinstance(ev, dict):
            for key in ("by", "join", "leave"):
                if same(ev.get(key)):
                    ev[key] = new
            if isinstance(ev.get("expect"), dict):
                _rename_in_expect(ev["expect"], same, new)
    if isinstance(doc.get("expect"), dict):
        _rename_in_expect(doc["expect"], same, new)


def _rename_in_expect(exp: dict, same, new: str) -> None:
    for key in ("winner", "turn"):
        if same(exp.get(key)):
            exp[key] = new
    if isinstance(exp.get("pending"), dict) and same(exp["pending"].get("by")):
        exp["pending"]["by"] = new
    if isinstance(exp.get("zones"), dict):
        renamed = {}
        for zone, spec in exp["zones"].items():
            who, dot, rest = str(zone).rpartition(".")
            renamed[f"{new}.{rest}" if dot and same(who) else zone] = spec
        exp["zones"] = renamed


# --------------------------------------------------------------------------- problems

@dataclass(frozen=True)
class Problem:
    """Why the position could not occur; `zone`/`index` point at the card when known."""

    message: str
    zone: str | None = None
    index: int | None = None

    def where(self) -> str:
        if self.zone is None:
            return ""
        if self.index is None:
            return zone_title(self.zone) if self.zone in ZONE_TITLES or "." in self.zone else self.zone
        return f"{zone_title(self.zone)}, card {self.index + 1}"


def check_table(table: Any, cat=None) -> list[Problem]:
    """Every reason this position could not occur. Unknown names are reported card by
    card; the engine's `position_problems` judges the cards it can name."""
    from adjudicator.catalogue import UnknownName
    from adjudicator.scenario import CardRef, Scenario, position_problems
    from adjudicator.strictyaml import Node

    cat = cat or catalogue()
    if not isinstance(table, dict):
        return [Problem("the table must be a mapping of zones")]
    out: list[Problem] = []
    seats = table.get("players")
    if not isinstance(seats, list) or not seats:
        return [Problem("seat at least one player (a table seats 1 to 8)", "players")]
    names: list[str] = []
    for p in seats:
        if not isinstance(p, str) or not p.strip():
            out.append(Problem(f"player name {p!r} must be text", "players"))
        elif p.lower() in (n.lower() for n in names):
            out.append(Problem(f"player {p!r} is seated twice", "players"))
        elif "." in p or p.strip() != p:
            out.append(Problem(f"player name {p!r} may not contain '.' or start/end with spaces", "players"))
        else:
            names.append(p)
    if len(seats) > MAX_PLAYERS:
        out.append(Problem(f"a table seats 1 to {MAX_PLAYERS} players, not {len(seats)}", "players"))
    if not names:
        return out

    def player(value: Any, what: str) -> str | None:
        for p in names:
            if isinstance(value, str) and p.lower() == value.lower():
                return p
        out.append(Problem(f"{what}: no player is called {value!r}", what))
        return None

    turn = player(table["turn"], "turn") if "turn" in table else names[0]
    turn = turn or names[0]
    editions = table.get("editions") if isinstance(table.get("editions"), list) else None
    places: dict[int, tuple[str, int | None]] = {}

    def node(value: Any, zone: str, index: int | None) -> Node:
        n = Node(value, 0, 0, "")
        places[id(n)] = (zone, index)
        return n

    def refs(zone: str) -> list:
        got = []
        for i, entry in enumerate(get_zone(table, zone)):
            if not isinstance(entry, str) or not entry.strip():
                out.append(Problem(f"{entry!r} is not a card name", zone, i))
                continue
            name, count = split_copies(entry)
            try:
                card = cat.resolve(name, editions)
            except UnknownName as exc:
                out.append(Problem(str(exc), zone, i))
                continue
            n = node(entry, zone, i)
            got.extend(CardRef(card, n) for _ in range(max(count, 0)))
        return got

    pos: dict[str, Any] = {"players": names, "turn": turn}
    for key, low in (("drawn", 0), ("played", 0)):
        value = table.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
            out.append(Problem(f"{key} must be a whole number (0 or more), not {value!r}", key))
            value = None
        pos[key] = value
    pos["played"] = pos["played"] or 0
    for key in CENTRE_ZONES + SOLO_ZONES:
        pos[key] = refs(key)
    for kind in PER_PLAYER:
        mapping = table.get(kind) or {}
        if isinstance(mapping, dict):
            for who in mapping:
                player(who, kind)
        pos[kind] = {p: refs(f"{kind}.{p}") for p in names}
    eliminated = table.get("eliminated") or []
    if not isinstance(eliminated, list):
        eliminated = []
    pos["eliminated"] = [q for q in (player(p, "eliminated") for p in eliminated) if q]
    if turn in pos["eliminated"]:
        out.append(Problem(f"{turn} is eliminated and cannot be the active player", "turn"))
    table_node = Node({"played": node(pos["played"], "played", None)}, 0, 0, "")
    places[id(table_node)] = ("table", None)
    sc = Scenario(path="", id="position", title="", cites=[], note="", table=table_node, events=[], expect=None,
                  catalogue=cat, editions=editions, position=pos)
    try:
        found = position_problems(sc)
    except Exception as exc:  # the engine is mid-change: say so rather than crash the editor
        return out + [Problem(f"the engine could not judge this position ({exc})")]
    for n, message in found:
        zone, index = places.get(id(n), (None, None))
        # the nodes here were made by the editor, so line numbers mean nothing to the user
        out.append(Problem(re.sub(r" \(line \d+\)", "", message), zone, index))
    return out


# --------------------------------------------------------------------------- card look-up

@dataclass(frozen=True)
class Match:
    """A card found for what the user typed: the label that matched (a name or alias)."""

    label: str
    card: Any

    @property
    def is_alias(self) -> bool:
        return self.label != self.card.name


class CardIndex:
    """Find cards as the user types: exact names and aliases, prefixes, words, typos."""

    def __init__(self, cards: Iterable[Any]):
        self.entries: list[tuple[str, str, Any]] = []
        for card in cards:
            for label in (card.name, *card.aliases):
                self.entries.append((normalize(label), label, card))
        self.entries.sort(key=lambda e: (len(e[0]), e[0]))
        self._norms = [e[0] for e in self.entries]

    def find(self, text: str, limit: int = 12) -> list[Match]:
        q = normalize(split_copies(text)[0])
        if not q:
            return []
        ranked: list[tuple[int, str, Any]] = []
        words = q.split()
        for norm, label, card in self.entries:
            if norm == q:
                rank = 0
            elif norm.startswith(q):
                rank = 1
            elif all(any(w.startswith(x) for w in norm.split()) for x in words):
                rank = 2
            elif q in norm:
                rank = 3
            else:
                continue
            ranked.append((rank, label, card))
        ranked.sort(key=lambda r: r[0])
        if len(ranked) < limit:
            for norm in difflib.get_close_matches(q, self._norms, n=limit, cutoff=0.6):
                for n, label, card in self.entries:
                    if n == norm:
                        ranked.append((4, label, card))
            if not ranked:  # a typo in one word of a longer name
                for n, label, card in self.entries:
                    if any(difflib.SequenceMatcher(None, w, kw).ratio() > 0.8
                           for w in words for kw in n.split() if len(w) > 3):
                        ranked.append((5, label, card))
        out: list[Match] = []
        seen: set[str] = set()
        for _, label, card in ranked:
            if card.key in seen:
                continue
            seen.add(card.key)
            out.append(Match(label, card))
            if len(out) >= limit:
                break
        return out

    def complete(self, text: str) -> str | None:
        """A name or alias that starts with exactly what was typed (for inline completion)."""
        folded = text.casefold()
        if not folded.strip():
            return None
        for _, label, _ in self.entries:
            if label.casefold().startswith(folded) and len(label) > len(text):
                return text + label[len(text):]
        return None


@functools.lru_cache(maxsize=1)
def card_index() -> CardIndex:
    return CardIndex(catalogue())
