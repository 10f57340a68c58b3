"""The table position as the editor holds it, and the questions the editor asks of it.

A position is the `table` mapping of a scenario document, kept as plain data so that
it can be saved exactly as it was opened. This module names its zones, reads and
writes them, finds cards by name as the user types (aliases and typos included), and
lists every reason the position could never occur, without refusing it: the engine's
own `adjudicator.position.Position` reads the table as it stands and lists them, each
with the zone and card it is about.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from adjudicator.names import normalize

if TYPE_CHECKING:
    from adjudicator.position import PositionProblem

CENTRE_ZONES = ("rules", "meta_rules", "goals", "draw_pile", "discard")
PILES = ("draw_pile", "discard", "rules_pile", "rules_discard", "scored")     # listed top card first
SOLO_ZONES = ("rules_pile", "rules_discard", "scored")
PER_PLAYER = ("hands", "keepers")
ZONE_TITLES = {
    "rules": "Rules", "meta_rules": "Meta Rules", "goals": "Goals",
    "draw_pile": "Draw pile", "discard": "Discard pile",
    "rules_pile": "Rules pile", "rules_discard": "Rules discard", "scored": "Scored Goals",
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


def card_names(table: dict) -> list[str]:
    """Every card the position names (unseen `?` cards and `xN` counts aside), each once,
    in the order of its zones: what a question may ask the whereabouts of."""
    out: dict[str, None] = {}
    for zone in zones(table):
        for entry in get_zone(table, zone):
            if isinstance(entry, str):
                m = _COPIES.match(entry)
                name = (m.group(1) if m else entry).strip()
                if name and name != "?":
                    out[name] = None
    return list(out)


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

PLACES = {"question": "in the question (Ctrl+W rewrites it)", "cards": "in the declared cards (Ctrl+K)",
          "expect": "in the expectations after the last event", "variations": "in a what-if line (Replay, l)",
          "reshuffle": "in the reshuffle order"}


def doc_place(text: str, line: int | None) -> str:
    """Where a line of the document as the app would save it (`scenario_io.dump`) lies,
    in the app's terms: "in the question (Ctrl+W rewrites it)", "in event 3 (Replay)"."""
    key, event = "", 0
    for number, row in enumerate(text.split("\n"), 1):
        if row[:1].isalpha():
            key = row.split(":", 1)[0]
        elif key == "events" and row.startswith("  - "):
            event += 1
        if line is not None and number >= line:
            break
    if key == "events" and event:
        return f"in event {event} (Replay: x drops the last event)"
    return PLACES.get(key, "in the scenario")


def rename_player(doc: dict, old: str, new: str) -> None:
    """Rename a player everywhere the document names them (seats, turn, zones, events,
    expectations, what-if lines, the question's `ask: {must: PLAYER}`)."""
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
    question = doc.get("question")
    ask = question.get("ask") if isinstance(question, dict) else None
    if isinstance(ask, dict) and same(ask.get("must")):
        ask["must"] = new
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

def check_table(table: Any, cat=None) -> list[PositionProblem]:
    """Every reason this position could not occur, as the engine's Position lists
    them (each with the zone and card it is about); a table too malformed to be a
    position at all is one problem saying why."""
    from adjudicator.errors import InputError
    from adjudicator.position import Code, Position, PositionProblem

    try:
        return Position.from_data(table, cat or catalogue()).problems()
    except InputError as exc:     # read from plain data, its `path` is the zone (or "")
        return [PositionProblem(exc.message, Code.MALFORMED, exc.path or None)]


def where(problem: PositionProblem) -> str:
    """Where a problem is, in the editor's words ("Ann's hand, card 2")."""
    zone, index = problem.zone, problem.index
    if zone is None:
        return ""
    if zone in ZONE_TITLES or "." in zone:
        return zone_title(zone) if index is None else f"{zone_title(zone)}, card {index + 1}"
    if zone == "players" and index is not None:
        return f"players, seat {index + 1}"
    return zone


# --------------------------------------------------------------------------- card look-up

@dataclass(frozen=True)
class Deck:
    """The editions a table is played with, as the card look-up uses them: declared
    (`editions:`; a card of no other edition can be on that table, so none is offered)
    or inferred from its cards (`adjudicator.editions.table_editions`; their cards come
    first, the others after). `editions` None: any edition."""

    editions: tuple[str, ...] | None = None
    declared: bool = False

    def holds(self, card: Any) -> bool:
        return self.editions is None or bool(set(self.editions) & set(card.editions))


def table_deck(table: Any, cat: Any = None) -> Deck:
    """The Deck of a table as the editor holds it: its declared editions (those the
    catalogue knows), else those of the cards it names without doubt, found as the
    engine's Position finds them (`Position.deck_editions`)."""
    from adjudicator.catalogue import EDITIONS
    from adjudicator.editions import table_editions

    if not isinstance(table, dict):
        return Deck()
    declared = table.get("editions")
    if isinstance(declared, list):
        known = tuple(e for e in declared if isinstance(e, str) and e in EDITIONS)
        if known:
            return Deck(known, True)
    cat = cat or catalogue()
    found = []
    for zone in zones(table):
        for entry in get_zone(table, zone):
            if isinstance(entry, str):
                card = cat.find(split_copies(entry)[0])
                if card is not None:
                    found.append(card)
    attached = table.get("attached")
    if isinstance(attached, dict):
        for name in [*attached, *attached.values()]:
            card = cat.find(name) if isinstance(name, str) else None
            if card is not None:
                found.append(card)
    return Deck(table_editions(found))


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

    def find(self, text: str, limit: int = 12, deck: Deck | None = None) -> list[Match]:
        """The cards `text` may mean, best first; with a `deck`, the cards of its
        editions before the others (or alone, when the editions are declared)."""
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
        if deck is not None and deck.editions is not None:
            if deck.declared:
                ranked = [r for r in ranked if deck.holds(r[2])]
            else:
                # an exact name first; then the deck's cards, then the others; typos last
                ranked.sort(key=lambda r: (r[0] != 0, r[0] >= 4, not deck.holds(r[2]), r[0]))
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

    def complete(self, text: str, deck: Deck | None = None) -> str | None:
        """A name or alias that starts with exactly what was typed (for inline completion),
        the shortest of the `deck`'s editions first."""
        folded = text.casefold()
        if not folded.strip():
            return None
        found = [(label, card) for _, label, card in self.entries
                 if label.casefold().startswith(folded) and len(label) > len(text)]
        if deck is not None and deck.editions is not None:
            ours = [f for f in found if deck.holds(f[1])]
            if not ours and not deck.declared:
                best = self.find(text, 1, deck)
                if best and deck.holds(best[0].card):
                    return None       # never complete to another edition's card over the deck's own match
            found = ours if deck.declared or ours else found
        return text + found[0][0][len(text):] if found else None


def card_index() -> CardIndex:
    return _card_index(catalogue())



@functools.lru_cache(maxsize=4)
def _card_index(cat) -> CardIndex:
    return CardIndex(cat)
