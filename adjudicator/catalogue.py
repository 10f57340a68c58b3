"""The card catalogue: card records loaded from YAML and checked against the mechanics.

Cards are data: one record per card (name, type, editions, aliases, the mechanic it
uses with its arguments, which arguments are printed numerals, a one-line effect in
our own words). The loader refuses a record whose mechanic or arguments do not exist,
naming the file, line and card. Look-up follows the scenario format's name rules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from adjudicator import strictyaml
from adjudicator.errors import CatalogueError, InputError
from adjudicator.mechanics import REGISTRY, load_all
from adjudicator.mechanics.base import BASIC, CARD_TYPES, UNKNOWN, Mechanic
from adjudicator.names import normalize, suggest

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.private_cache import Folder

EDITIONS = {
    "base": "Fluxx 5.0",
    "creeper-pack": "Fluxx 5.0 Creeper Pack",
    "star": "Star Fluxx",
    "eco": "EcoFluxx",
    "pirate": "Pirate Fluxx",
    "mystery": "Mystery Fluxx",
    "anatomy": "Anatomy Fluxx",
    "faq": "cards named in the online FAQ (other editions and promos)",
}
_RECORD_KEYS = ["name", "type", "editions", "aliases", "mechanic", "also", "params", "numerals",
                "tags", "effect", "certainty", "note", "generic", "copies"]
_DEFAULT_MECHANIC = {"keeper": "keeper", "creeper": "blocking_creeper", "basic": "basic_rules"}


@dataclass(frozen=True)
class CardDef:
    """One card as printed. `key` is unique in the catalogue (the name, qualified by
    edition only when two editions print different cards under one name)."""

    key: str
    name: str
    type: str
    editions: tuple[str, ...]
    mechanic: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    numerals: frozenset[str] = frozenset()
    aliases: tuple[str, ...] = ()
    tags: frozenset[str] = frozenset()
    effect: str = ""
    certainty: str = "full"
    note: str = ""
    generic: bool = False
    copies: int = 1               # physical copies in a deck (stand-ins stand for many cards)
    also: tuple[str, ...] = ()    # mechanics carried out after the main one ("X, and also Y")

    @functools.cached_property
    def impl(self) -> Mechanic:
        if self.also:
            from adjudicator.mechanics.composed import Composed

            return Composed(REGISTRY[self.mechanic], tuple(REGISTRY[m] for m in self.also))
        return REGISTRY[self.mechanic]

    @functools.cached_property
    def marks(self) -> frozenset[str]:
        """What a Goal may ask of this card in front of a player: its name, and each of
        its tags written `tag:NAME`."""
        return frozenset([self.name, *("tag:" + t for t in self.tags)])

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "type": self.type, "editions": list(self.editions),
            "aliases": list(self.aliases), "mechanic": self.mechanic, **({"also": list(self.also)} if self.also else {}),
            "params": self.params,
            "numerals": sorted(self.numerals), "tags": sorted(self.tags), "effect": self.effect,
            "certainty": self.certainty,
        }


UNKNOWN_CARD = CardDef(key="?", name="?", type=UNKNOWN, editions=(), mechanic="unknown",
                       effect="a card nobody at the table can see")


class UnknownName(Exception):
    """A card name that matches nothing, or more than one card."""

    def __init__(self, message: str, candidates: list[str]):
        super().__init__(message)
        self.candidates = candidates


class Catalogue:
    def __init__(self, cards: Iterable[CardDef]):
        self.cards: dict[str, CardDef] = {}
        self._index: dict[str, list[str]] = {}
        for card in cards:
            self.cards[card.key] = card
            for label in (card.name, *card.aliases):
                keys = self._index.setdefault(normalize(label), [])
                if card.key not in keys:
                    keys.append(card.key)
        self._shown: dict[str, str] = {}     # normalized label -> the label as printed
        for card in self.cards.values():
            self._shown.setdefault(normalize(card.name), card.name)
            for alias in card.aliases:
                self._shown.setdefault(normalize(alias), alias)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards.values())

    def get(self, key: str) -> CardDef:
        return self.cards[key]

    @functools.cached_property
    def basic_rules(self) -> CardDef:
        """The Basic Rules card (the one card of type basic)."""
        return next(c for c in self.cards.values() if c.type == BASIC)

    def by_edition(self, edition: str | None) -> list[CardDef]:
        return [c for c in self.cards.values() if edition is None or edition in c.editions]

    def find(self, name: str, prefer: Iterable[str] | None = None) -> CardDef | None:
        """The card a name or alias denotes, or None (no suggestions: a fast look-up).
        A name of cards of several editions is the one card of the `prefer` editions."""
        keys = self._preferred(self._index.get(normalize(name), []), prefer)
        return self.cards[keys[0]] if len(keys) == 1 else None

    def _preferred(self, keys: list[str], prefer: Iterable[str] | None) -> list[str]:
        """Of several cards a name matches, the one printed in the `prefer` editions (the
        table's: adjudicator.editions.table_editions), when exactly one is."""
        if len(keys) > 1 and prefer:
            wanted = set(prefer)
            ours = [k for k in keys if wanted & set(self.cards[k].editions)]
            if len(ours) == 1:
                return ours
        return keys

    def resolve(self, name: str, editions: Iterable[str] | None = None,
                prefer: Iterable[str] | None = None) -> CardDef:
        """The card a printed title (or alias) names; '?' is the unknown card.
        `editions` (declared) limits the cards it may be; among several cards it names,
        or several it comes close to, those of the `prefer` editions come first."""
        if name.strip() == "?":
            return UNKNOWN_CARD
        allowed = set(editions) if editions else None
        keys = self._index.get(normalize(name), [])
        if allowed is not None:
            keys = [k for k in keys if allowed & set(self.cards[k].editions)]
        keys = self._preferred(keys, prefer)
        if len(keys) == 1:
            return self.cards[keys[0]]
        if len(keys) > 1:
            options = [f"{self.cards[k].name} ({', '.join(self.cards[k].editions)})" for k in keys]
            raise UnknownName(
                f"{name!r} is ambiguous: it names {' and '.join(options)}; "
                "restrict table.editions to choose one", options)
        pool = self._shown
        if allowed is not None:
            pool = {k: v for k, v in pool.items()
                    if any(allowed & set(self.cards[c].editions) for c in self._index.get(k, []))}
        wanted = set(prefer) if prefer else None
        close = suggest(name, pool, first=None if wanted is None else (
            lambda k: any(wanted & set(self.cards[c].editions) for c in self._index.get(k, []))))
        hint = f" - did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise UnknownName(f"no card is called {name!r}{hint}", close)

    def names(self) -> list[str]:
        return sorted(c.name for c in self.cards.values())

    def aliases(self) -> dict[str, str]:
        """alias -> card name, for every alias the catalogue knows."""
        return {a: c.name for c in self.cards.values() for a in c.aliases}


def _check_params(card: str, mech_name: str, node: strictyaml.Node | None, numerals: list[str],
                  record: strictyaml.Node, mech: Mechanic | None = None) -> dict[str, Any]:
    mech = mech or REGISTRY[mech_name]
    given = node.as_map(f"params of {card!r}") if node is not None else {}
    params: dict[str, Any] = {}
    for key, value_node in given.items():
        spec = mech.params.get(key)
        if spec is None:
            allowed = ", ".join(mech.params) or "none"
            raise value_node.error(f"card {card!r}: mechanic {mech_name!r} has no argument {key!r} (it takes: {allowed})")
        value = value_node.plain_data()
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "str": isinstance(value, str),
            "bool": isinstance(value, bool),
            "names": isinstance(value, list) and all(isinstance(v, str) for v in value),
            "count": (isinstance(value, int) and not isinstance(value, bool)) or value == "all",
        }[spec.kind]
        if not ok:
            raise value_node.error(f"card {card!r}: argument {key!r} of {mech_name!r} must be {spec.kind}, not {value!r}")
        params[key] = value
    for key, spec in mech.params.items():
        if key not in params:
            if spec.required:
                raise (node or record).error(f"card {card!r}: mechanic {mech_name!r} needs the argument {key!r}")
            params[key] = spec.default
    for name in numerals:
        if name not in mech.params or mech.params[name].kind not in ("int", "count"):
            raise record.error(f"card {card!r}: numeral {name!r} is not a numeric argument of {mech_name!r}")
    return params


def _record_nodes(text: str, path: str) -> list[strictyaml.Node]:
    """The records of a card file, as read (not yet checked)."""
    root = strictyaml.parse(text, path)
    return [] if root is None else root.as_seq("a card file")


def _read_record(rec: strictyaml.Node) -> CardDef:
    """One card record, checked against the mechanics (raises InputError at its place)."""
    fields = strictyaml.check_keys(rec, _RECORD_KEYS, "a card record", required=("name", "type", "editions", "effect"))
    name = fields["name"].as_str("card name")
    ctype = fields["type"].as_str(f"type of {name!r}")
    if ctype not in CARD_TYPES:
        raise fields["type"].error(f"card {name!r}: unknown type {ctype!r} (one of {', '.join(CARD_TYPES)})")
    editions = [n.as_str("edition") for n in fields["editions"].as_seq(f"editions of {name!r}")]
    for ed, n in zip(editions, fields["editions"].value):
        if ed not in EDITIONS:
            raise n.error(f"card {name!r}: unknown edition {ed!r} (one of {', '.join(EDITIONS)})")
    mech_name = fields["mechanic"].as_str(f"mechanic of {name!r}") if "mechanic" in fields else _DEFAULT_MECHANIC.get(ctype)
    if mech_name is None:
        raise rec.error(f"card {name!r} needs a mechanic")
    if mech_name not in REGISTRY:
        where = fields.get("mechanic", rec)
        close = suggest(mech_name, {m: m for m in REGISTRY})
        raise where.error(f"card {name!r}: no mechanic is called {mech_name!r}" + (f" - did you mean {close[0]!r}?" if close else ""))
    mech = REGISTRY[mech_name]
    if mech.card_types and ctype not in mech.card_types:
        raise rec.error(f"card {name!r}: mechanic {mech_name!r} is for {', '.join(sorted(mech.card_types))} cards, not {ctype}")
    numerals = [n.as_str("numeral") for n in fields["numerals"].as_seq("numerals")] if "numerals" in fields else []
    also = _read_also(name, ctype, mech, fields.get("also"))
    params = _check_params(name, mech_name, fields.get("params"), numerals, rec,
                           _composed(mech, also) if also else None)
    certainty = fields["certainty"].as_str("certainty") if "certainty" in fields else "full"
    if certainty not in ("full", "partial"):
        raise fields["certainty"].error("certainty must be full or partial")
    return CardDef(
        key=name, name=name, type=ctype, editions=tuple(editions), mechanic=mech_name,
        params=params, numerals=frozenset(numerals),
        aliases=tuple(n.as_str("alias") for n in fields["aliases"].as_seq("aliases")) if "aliases" in fields else (),
        tags=frozenset(n.as_str("tag") for n in fields["tags"].as_seq("tags")) if "tags" in fields else frozenset(),
        effect=fields["effect"].as_str("effect"),
        certainty=certainty,
        note=fields["note"].as_str("note") if "note" in fields else "",
        generic=fields["generic"].as_bool("generic") if "generic" in fields else False,
        copies=fields["copies"].as_int("copies", 1, 999) if "copies" in fields else 1,
        also=tuple(also),
    )


def _read_also(card: str, ctype: str, main: Mechanic, node: strictyaml.Node | None) -> list[str]:
    """The `also` parts of a record (mechanic names), checked: each exists, is carried
    out when played like the main part, and shares no argument name with another."""
    if node is None:
        return []
    from adjudicator.mechanics.composed import PLAYABLE

    names: list[str] = []
    taken = {k: main.name for k in main.params}
    if ctype not in PLAYABLE or not (main.card_types & PLAYABLE):
        raise node.error(f"card {card!r}: `also` adds effects to a card carried out when played (an Action, a "
                         f"Surprise or a Danger), not to a {ctype}")
    for item in node.as_seq(f"also of {card!r}"):
        name = item.as_str("mechanic")
        if name not in REGISTRY:
            close = suggest(name, {m: m for m in REGISTRY})
            raise item.error(f"card {card!r}: no mechanic is called {name!r}" + (f" - did you mean {close[0]!r}?" if close else ""))
        part = REGISTRY[name]
        if not (part.card_types & PLAYABLE):
            raise item.error(f"card {card!r}: {name!r} is not an effect carried out when played, so it cannot be added "
                             "with `also`")
        for key in part.params:
            if key in taken:
                raise item.error(f"card {card!r}: {name!r} and {taken[key]!r} both take the argument {key!r}; "
                                 "parts of one card must have distinct arguments")
            taken[key] = name
        names.append(name)
    return names


def _composed(main: Mechanic, also: list[str]) -> Mechanic:
    from adjudicator.mechanics.composed import Composed

    return Composed(main, tuple(REGISTRY[m] for m in also))


def _merge(records: list[CardDef]) -> list[CardDef]:
    """One card printed in several editions is one record; different cards sharing a
    printed name get keys qualified by edition."""
    by_name: dict[str, list[CardDef]] = {}
    for rec in records:
        group = by_name.setdefault(normalize(rec.name), [])
        for i, other in enumerate(group):
            if ((other.type, other.mechanic, other.also, other.params, other.numerals)
                    == (rec.type, rec.mechanic, rec.also, rec.params, rec.numerals)):
                group[i] = CardDef(
                    key=other.key, name=other.name, type=other.type,
                    editions=tuple(dict.fromkeys(other.editions + rec.editions)),
                    mechanic=other.mechanic, also=other.also, params=other.params, numerals=other.numerals,
                    aliases=tuple(dict.fromkeys(other.aliases + rec.aliases)),
                    tags=other.tags | rec.tags, effect=other.effect, certainty=other.certainty,
                    note=other.note, generic=other.generic or rec.generic, copies=max(other.copies, rec.copies))
                break
        else:
            group.append(rec)
    out = []
    for group in by_name.values():
        if len(group) == 1:
            out.append(group[0])
        else:
            for rec in group:
                out.append(CardDef(**{**rec.__dict__, "key": f"{rec.name} ({'/'.join(rec.editions)})"}))
    return out


def load_catalogue(files: Iterable[tuple[str, str]]) -> Catalogue:
    """Build a catalogue from (path, text) pairs."""
    return _checked_catalogue([(path, _record_nodes(text, path)) for path, text in files])


def _checked_catalogue(files: list[tuple[str, list[strictyaml.Node]]]) -> Catalogue:
    """The catalogue of each file's records, every record checked (raises InputError)."""
    load_all()
    return Catalogue(_merge([_read_record(rec) for _, records in files for rec in records]))


def builtin_card_files() -> list[tuple[str, str]]:
    folder = resources.files("adjudicator") / "data" / "cards"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".yaml"):
            out.append((f"adjudicator/data/cards/{entry.name}", entry.read_text(encoding="utf-8")))
    return out


@functools.lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    """The built-in catalogue (every edition the project knows). Reading the card files
    takes a sixth of a second, so their records are kept in the user's cache, keyed by
    the card files and the mechanics' source and signed with the user's cache key
    (adjudicator.private_cache); any change to either, or a cache that is missing, not
    the user's alone, unsigned or does not check, means reading the card files again.
    The cached records go through the same checks as the card files' own."""
    files = builtin_card_files()
    key = _catalogue_key(files)
    cached = _read_cached_catalogue(key)
    if cached is not None:
        return cached
    try:
        records = [(path, _record_nodes(text, path)) for path, text in files]
        catalogue = _checked_catalogue(records)
    except InputError as exc:
        raise CatalogueError(f"the built-in card data is broken: {exc}") from None
    _write_cached_catalogue(key, records)
    return catalogue


_CACHE_VERSION = 3
_CACHE_FILE = "catalogue.json"
_CACHE_LABEL = "card catalogue"
_CACHE_LIMIT = 4_000_000          # bytes; the whole catalogue is about 150 KB


def _catalogue_key(files: list[tuple[str, str]]) -> str:
    import hashlib

    h = hashlib.sha256(f"catalogue v{_CACHE_VERSION}\n".encode())
    for path, text in files:
        h.update(path.encode() + b"\0" + text.encode("utf-8") + b"\0")
    mechanics = resources.files("adjudicator") / "mechanics"
    for entry in sorted(mechanics.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".py"):
            h.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return h.hexdigest()


def _cache_folder() -> Folder:
    from adjudicator.private_cache import Folder
    from adjudicator.userdirs import cache_dir

    return Folder.open_root(cache_dir())


def _read_cached_catalogue(key: str) -> Catalogue | None:
    """The catalogue of the cached records for `key`, or None: missing, stale, not the
    user's alone, not signed with the user's key, or refused by the card checks."""
    import json

    from adjudicator.private_cache import read_signed

    try:
        with _cache_folder() as folder:
            raw = read_signed(folder, _CACHE_FILE, _CACHE_LABEL, _CACHE_LIMIT)
        if raw is None:
            return None
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("files"), list):
            return None
        records = []
        for entry in data["files"]:
            path, recs, places = entry["path"], entry["records"], entry["places"]
            if not (isinstance(path, str) and isinstance(recs, list) and isinstance(places, list)
                    and len(recs) == len(places)):
                return None
            shown = f"{_CACHE_FILE} (records of {path})"
            records.append((path, [strictyaml.from_plain(r, shown, int(line), int(col))
                                   for r, (line, col) in zip(recs, places)]))
        return _checked_catalogue(records)
    except Exception:
        # whatever is wrong with a cache (unreadable, damaged, refused), the card files are read again
        return None


def _write_cached_catalogue(key: str, records: list[tuple[str, list[strictyaml.Node]]]) -> None:
    import json

    from adjudicator.private_cache import Untrusted, write_signed

    data = {"key": key, "files": [{"path": path, "records": [r.plain_data() for r in recs],
                                   "places": [[r.line, r.col] for r in recs]} for path, recs in records]}
    try:
        with _cache_folder() as folder:
            write_signed(folder, _CACHE_FILE, _CACHE_LABEL, json.dumps(data).encode("utf-8"))
    except (OSError, Untrusted, TypeError, ValueError):
        pass                 # a cache that cannot be written costs only the next start-up
