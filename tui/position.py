"""The table position as the editor holds it, and the questions the editor asks of it.

A position is the `table` mapping of a scenario document, kept as plain data so that
it can be saved exactly as it was opened. This module names its zones, reads and
writes them, finds cards by name as the user types (aliases and typos included), and
lists every reason the position could never occur, without refusing it: unknown card
names are reported per card, and the engine's own `parse_scenario(check=False)` and
`position_problems` judge the rest.
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
def base_catalogue():
    """The built-in card catalogue (loaded on first use, never at start-up)."""
    from adjudicator.catalogue import default_catalogue

    return default_catalogue()


_declared: list[Any] = [None, None]     # the open document's `cards:` and the catalogue they make


def catalogue():
    """The catalogue the open document uses: the built-in one with the cards the
    document declares (`cards:`, format 1.1 item 8) when those are well formed."""
    return _declared[1] or base_catalogue()


def use_declared(cards: Any) -> None:
    """Layer the open document's declared cards over the built-in catalogue (a bad
    declaration leaves them out: the problems panel shows why, from the engine)."""
    import json

    from adjudicator.errors import InputError
    from adjudicator.scenario import declared_catalogue

    key = json.dumps(cards, sort_keys=True, default=str) if cards else None
    if key == _declared[0]:
        return
    try:
        layered = declared_catalogue(cards, base_catalogue()) if cards else None
    except (InputError, TypeError, ValueError):
        layered = None
    _declared[:] = [key, layered]


def declare(doc: dict, card: dict) -> None:
    """Add a card the catalogue lacks to the document's `cards:`."""
    cards = doc.get("cards") if isinstance(doc.get("cards"), list) else []
    doc["cards"] = [*cards, card]
    use_declared(doc["cards"])


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


def card_labels(cat: Any = None) -> list[tuple[str, Any]]:
    """(label, card) for every card name and alias of `cat` (default: the open
    document's catalogue): what the palette's card providers offer."""
    return [(label, card) for card in (cat or catalogue()) for label in (card.name, *card.aliases)]


def split_copies(entry: str) -> tuple[str, int]:
    """'Milk x2' -> ('Milk', 2); 'Milk' -> ('Milk', 1). A count too long to be a count
    reads as one past the limit (the loader and the editor refuse it), never a crash."""
    from adjudicator.limits import MAX_COPIES

    m = _COPIES.match(entry.strip())
    if m:
        digits = m.group(2).lstrip("0") or "0"
        return m.group(1), int(digits) if len(digits) <= 6 else MAX_COPIES + 1
    return entry, 1


def with_copies(name: str, count: int) -> str:
    return name if count == 1 else f"{name} x{count}"


# --------------------------------------------------------------------------- players

def rename_player(doc: dict, old: str, new: str) -> None:
    """Rename a player everywhere the document names them (seats, turn, zones, events,
    expectations, what-if lines)."""
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
    _rename_in_line(doc, same, new)


def _rename_in_line(line: dict, same, new: str) -> None:
    """Rename in a line's events and expectations, and in its what-if lines (`variations`)."""
    for ev in line.get("events") or []:
        if isinstance(ev, dict):
            for key in ("by", "join", "leave"):
                if same(ev.get(key)):
                    ev[key] = new
            if isinstance(ev.get("expect"), dict):
                _rename_in_expect(ev["expect"], same, new)
    if isinstance(line.get("expect"), dict):
        _rename_in_expect(line["expect"], same, new)
    for var in line.get("variations") or []:
        if isinstance(var, dict):
            _rename_in_line(var, same, new)


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
    """Every reason this position could not occur, judged by the engine itself.

    Names the catalogue does not know are reported card by card (and left out, so that
    the rest can still be judged); the position is then written out as a scenario and
    read by the engine's own `parse_scenario(check=False)` and `position_problems`, and
    each problem is traced back to the zone and card it is about."""
    from adjudicator import strictyaml
    from adjudicator.catalogue import UnknownName
    from adjudicator.errors import InputError
    from adjudicator.scenario import parse_scenario, position_problems

    from tui.scenario_io import dump

    cat = cat or catalogue()
    if not isinstance(table, dict):
        return [Problem("the table must be a mapping of zones")]
    if not players(table):
        return [Problem("seat at least one player (a table seats 1 to 8)", "players")]
    out: list[Problem] = []
    judged = dict(table)
    kept_index: dict[str, list[int]] = {}          # zone -> original index of each entry kept
    editions = table.get("editions") if isinstance(table.get("editions"), list) else None
    for zone in zones(table):
        entries, kept = [], []
        for i, entry in enumerate(get_zone(table, zone)):
            if not isinstance(entry, str) or not entry.strip():
                out.append(Problem(f"{entry!r} is not a card name", zone, i))
                continue
            try:
                cat.resolve(split_copies(entry)[0], editions)
            except UnknownName as exc:
                out.append(Problem(str(exc), zone, i))
                continue
            except Exception:     # an unknown edition: the engine says so below
                pass
            entries.append(entry)
            kept.append(i)
        kept_index[zone] = kept
        set_zone(judged, zone, entries)
    text = dump({"format": 1, "table": judged})
    try:
        root = strictyaml.parse(text, "position")
    except InputError as exc:
        return out + [Problem(exc.message)]
    places = _places(root, kept_index)
    try:
        sc = parse_scenario(root, "position", cat, check=False)
        found = [(node.line, node.col, message) for node, message in position_problems(sc)]
    except InputError as exc:
        found = [(exc.line, exc.col, exc.message)]
    except Exception as exc:  # the engine is mid-change: say so rather than crash the editor
        return out + [Problem(f"the engine could not judge this position ({exc})")]
    for line, col, message in found:
        zone, index = places.get((line, col), places.get((line, None), (None, None)))
        # the text judged is the editor's, so its line numbers mean nothing to the user
        out.append(Problem(re.sub(r" \(line \d+\)", "", message), zone, index))
    return out


def _places(root, kept_index: dict[str, list[int]]) -> dict[tuple[int, int | None], tuple[str, int | None]]:
    """Where each zone and card of the written-out table stands: (line, col) -> (zone, index);
    (line, None) -> the zone or key that starts on that line."""
    out: dict[tuple[int, int | None], tuple[str, int | None]] = {}
    table = root.value.get("table")
    if table is None or not isinstance(table.value, dict):
        return out

    def cards(zone: str, node) -> None:
        out.setdefault((node.line, None), (zone, None))
        if isinstance(node.value, list):
            kept = kept_index.get(zone, [])
            for i, item in enumerate(node.value):
                out[(item.line, item.col)] = (zone, kept[i] if i < len(kept) else i)

    for key, node in table.value.items():
        key_node = table.key_nodes.get(key)
        if key_node is not None:
            out.setdefault((key_node.line, None), (key, None))
            out.setdefault((key_node.line, key_node.col), (key, None))
        if key in PER_PLAYER and isinstance(node.value, dict):
            for who, cards_node in node.value.items():
                cards(f"{key}.{who}", cards_node)
        elif key in CENTRE_ZONES + SOLO_ZONES:
            cards(key, node)
        else:
            out.setdefault((node.line, None), (key, None))
            out.setdefault((node.line, node.col), (key, None))
            if key == "players" and isinstance(node.value, list):
                for item in node.value:
                    out[(item.line, item.col)] = ("players", None)
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


def card_index() -> CardIndex:
    return _card_index(catalogue())


@functools.lru_cache(maxsize=4)
def _card_index(cat) -> CardIndex:
    return CardIndex(cat)
