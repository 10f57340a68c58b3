"""Events typed by a person: the file syntax and the menu's own wording both read.

`parse_typed_event(text, engine)` turns any of these into a scenario event mapping
with the catalogue's names (`{"play": "Milk", "by": "Ann"}`):

    play: Milk                      {play: Milk, by: Ann}        play Milk by Ann
    surprise: Stop That! by Cal against Time Portal              end_turn
    Ann plays Milk                  Ben uses Get On With It      Ann ends the turn
    Ben plays the Surprise That's Mine against Milk
    Cal reveals That's Mine! against Milk                        Ann reveals Milk and plays it
    Ann chooses Toast               choose [Bread, Milk]         chance picks Milk
    Dee joins the game              Dee leaves the game

A Surprise "played" or "revealed" by someone whose turn it is not, or against a
card, is its out-of-turn side (`surprise:`); otherwise a play. Names of players come
from the table, names of cards from the catalogue (with its suggestions).

`EventHints(engine)` gathers, once per position, hints made from the table: the
legal events (reveals included) in words and in file syntax, and the players and
cards actually in the game; `suggest(prefix)` completes what is being typed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

from adjudicator.catalogue import UnknownName
from adjudicator.events import VERBS
from adjudicator.mechanics.base import SURPRISE, UNKNOWN
from adjudicator.names import normalize

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import Catalogue
    from adjudicator.engine import Engine
    from adjudicator.moves import MoveGroup


class TypedEventError(ValueError):
    """The text is not an event; the message says how to write one."""


EXAMPLES = ("Ann plays Milk", "play: Milk by Ann", "Cal plays the Surprise Stop That! against Time Portal",
            "Ben uses Get On With It", "Ann ends the turn", "Ann chooses Toast")

_WORDS = [
    (re.compile(r"^(?P<who>.+?)\s+(?:plays|played)\s+the\s+surprise\s+(?P<card>.+)$", re.I), "surprise"),
    (re.compile(r"^(?P<who>.+?)\s+reveals\s+(?P<card>.+?)\s+and\s+plays\s+it$", re.I), "play"),
    (re.compile(r"^(?P<who>.+?)\s+reveals\s+(?P<card>.+)$", re.I), "reveal"),
    (re.compile(r"^(?P<who>.+?)\s+(?:plays|played)\s+(?P<card>.+)$", re.I), "plays"),
    (re.compile(r"^(?P<who>.+?)\s+(?:uses|used)\s+(?P<card>.+)$", re.I), "use"),
    (re.compile(r"^(?P<who>.+?)\s+ends\s+(?:the\s+|their\s+|his\s+|her\s+)?turn$", re.I), "end_turn"),
    (re.compile(r"^(?:ends?\s+(?:the\s+)?turn)$", re.I), "end_turn"),
    (re.compile(r"^chance\s+picks\s+(?P<card>.+)$", re.I), "random"),
    (re.compile(r"^(?P<who>.+?)\s+(?:chooses|answers|picks)\s+(?P<answer>.+)$", re.I), "choose"),
    (re.compile(r"^(?P<name>.+?)\s+joins(?:\s+the\s+game)?$", re.I), "join"),
    (re.compile(r"^(?P<name>.+?)\s+(?:leaves|drops\s+out)(?:\s+(?:of\s+)?the\s+game)?$", re.I), "leave"),
]


def parse_typed_event(text: str, engine: Engine | None = None, catalogue: Catalogue | None = None, players: Iterable[str] | None = None) -> dict[str, Any]:
    """The scenario event a person typed (file syntax or the menu's words). Raises
    TypedEventError with the fix. `engine` gives the table (players, whose turn it
    is); without it, `catalogue` and `players` are used."""
    if catalogue is None:
        if engine is None:
            from adjudicator.catalogue import default_catalogue
            catalogue = default_catalogue()
        else:
            catalogue = engine.cat
    seated = list(engine.state.players) if engine is not None else list(players or [])
    active = engine.state.active_player if engine is not None else (seated[0] if seated else None)
    text = " ".join(text.strip().lstrip("-").split())
    if not text:
        raise TypedEventError("type an event, such as: " + "; ".join(EXAMPLES[:3]))
    if engine is not None and engine.pending is not None:      # an answer in the menu's own words
        from adjudicator.moves import answer_groups

        for g in answer_groups(engine):
            for m in g.moves:
                if normalize(m.words) == normalize(text):
                    return dict(m.entry)
    head = text.split(" ", 1)[0].rstrip(":").lower().replace("-", "_")
    splitter = _Splitter(catalogue, seated)
    if text.startswith("{") or head in VERBS or head.partition(":")[0] in VERBS:
        entry = _file_syntax(text, splitter)
    else:
        entry = _words(text, splitter)
    return _resolve(entry, catalogue, seated, active, engine)


def _file_syntax(text: str, splitter: "_Splitter") -> dict[str, Any]:
    from adjudicator import strictyaml
    from adjudicator.errors import InputError

    if not text.startswith("{") and re.search(r",\s*(?:by|against|choose)\s*:", text):
        text = "{" + text + "}"                        # "play: Milk, by: Ann": a mapping without its braces
    if text.startswith("{"):
        try:
            data = strictyaml.load_plain(text, "<typed>")
        except InputError as exc:
            raise TypedEventError(f"cannot read {text!r}: {exc.message}") from None
        if not isinstance(data, dict):
            raise TypedEventError("an event in braces is a mapping, such as {play: Milk, by: Ann}")
        return dict(data)
    head, _, rest = text.partition(" ")
    verb = head.rstrip(":").lower().replace("-", "_")
    if ":" in head.rstrip(":"):                     # "play:Milk"
        verb, _, first = head.partition(":")
        verb = verb.lower()
        rest = (first + " " + rest).strip()
    rest = rest.strip().lstrip(":").strip()
    if verb == "choose":
        return {"choose": _answer(rest)}
    if verb in ("join", "leave"):
        if not rest:
            raise TypedEventError(f"{verb} needs a player's name, as in: {verb} Dee")
        return {verb: rest}
    entry: dict[str, Any] = {}
    pieces = splitter.split(rest, ("by", "against"))
    if verb == "end_turn":
        entry["end_turn"] = True
    else:
        if not pieces.get("card"):
            raise TypedEventError(f"{verb} needs a card name, as in: {verb}: Milk by Ann")
        entry[verb] = pieces["card"]
    for kw in ("by", "against"):
        if pieces.get(kw):
            entry[kw] = pieces[kw]
    return entry


class _Splitter:
    """Splits "Stop That! by Cal against Time Portal" into card, by and against, where
    a card's own name may hold those words ("The Robots Have Turned Against Us")."""

    def __init__(self, catalogue: Catalogue, seated: list[str]) -> None:
        self.cat = catalogue
        self.seated = {normalize(p) for p in seated}

    def _fits(self, kw: str, text: str) -> bool:
        if kw == "by":
            return not self.seated or normalize(text) in self.seated
        return self.cat.find(text) is not None

    def split(self, rest: str, keywords: tuple[str, ...]) -> dict[str, str]:
        found = self._split(rest.strip(), keywords)
        return found if found is not None else _split_last(rest, keywords)

    def _split(self, rest: str, keywords: tuple[str, ...]) -> dict[str, str] | None:
        if self.cat.find(rest) is not None:
            return {"card": rest}
        low = f" {rest.lower()} "
        cuts = sorted(((m.start(), kw) for kw in keywords for m in re.finditer(f"(?= {kw} )", low)), reverse=True)
        for pos, kw in cuts:
            head, tail = rest[:pos].strip().rstrip(","), rest[pos + len(kw) + 1:].strip()
            if not head or not tail or not self._fits(kw, tail):
                continue
            sub = self._split(head, tuple(k for k in keywords if k != kw))
            if sub is not None:
                return {**sub, kw: tail}
        return None


def _split_last(rest: str, keywords: tuple[str, ...]) -> dict[str, str]:
    """The plain split at the last of each keyword, when no reading names known cards
    (the names are then checked, with suggestions)."""
    padded = f" {rest} "
    low = padded.lower()
    found = sorted((low.rfind(f" {kw} "), kw) for kw in keywords if low.rfind(f" {kw} ") >= 0)
    pieces: dict[str, str] = {}
    part, start = "card", 0
    for pos, kw in found:
        pieces[part] = padded[start:pos].strip().rstrip(",")
        part, start = kw, pos + len(kw) + 2
    pieces[part] = padded[start:].strip()
    return pieces


def _answer(rest: str) -> Any:
    from adjudicator import strictyaml
    from adjudicator.errors import InputError

    if not rest:
        raise TypedEventError("choose needs an answer: a card, a player, yes/no, or a list like [Bread, Milk]")
    try:
        value = strictyaml.load_plain(f"value: {rest}", "<typed>")["value"]
    except InputError:
        value = rest
    if value is None:
        raise TypedEventError("choose needs an answer: a card, a player, yes/no, or a list like [Bread, Milk]")
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return value


def _words(text: str, splitter: _Splitter) -> dict[str, Any]:
    for pattern, kind in _WORDS:
        m = pattern.match(text)
        if not m:
            continue
        g = m.groupdict()
        if kind == "end_turn":
            return {"end_turn": True, **({"by": g["who"]} if g.get("who") else {})}
        if kind == "random":
            return {"random": g["card"]}
        if kind in ("join", "leave"):
            return {kind: g["name"]}
        if kind == "choose":
            return {"choose": _answer(g["answer"]), "by": g["who"]}
        pieces = splitter.split(g["card"], ("against",))
        entry: dict[str, Any] = {"?" + kind: pieces["card"], "by": g["who"]}
        if pieces.get("against"):
            entry["against"] = pieces["against"]
        return entry
    raise TypedEventError(f"cannot read {text!r} as an event; write it as the menu does or as the file does, "
                          "for example: " + "; ".join(EXAMPLES))


def _card(name: str, catalogue: Catalogue, what: str, prefer: Iterable[str] | None = None) -> Any:
    try:
        return catalogue.resolve(str(name), prefer=prefer)
    except UnknownName as exc:
        raise TypedEventError(f"{what}: {exc}") from None


def _player(name: str, seated: list[str], what: str) -> str:
    for p in seated:
        if normalize(p) == normalize(str(name)):
            return p
    if not seated:
        return str(name)
    raise TypedEventError(f"{what}: no player at the table is called {name!r} (players: {', '.join(seated)})")


def _resolve(entry: dict[str, Any], catalogue: Catalogue, seated: list[str], active: str | None,
             engine: Engine | None) -> dict[str, Any]:
    """Names checked against the catalogue and the table; the menu's "plays" and
    "reveals" settled into `play` or `surprise`."""
    known = set(VERBS) | {"by", "against", "?plays", "?reveal", "?surprise", "?play", "?use"}
    for key in entry:
        if key not in known:
            raise TypedEventError(f"unknown key {key!r} in a typed event (use one of: {', '.join(VERBS)}, by, against)")
    out: dict[str, Any] = {}
    prefer = engine.editions if engine is not None else None      # the table's editions
    by = _player(entry["by"], seated, "by") if entry.get("by") is not None else None
    verb = next(k for k in entry if k not in ("by", "against"))
    value = entry[verb]
    if verb.startswith("?"):
        card = _card(value, catalogue, "card", prefer)
        against = entry.get("against")
        kind = verb[1:]
        if kind in ("plays", "reveal"):
            off_turn = by is not None and active is not None and by != active
            kind = "surprise" if card.type == SURPRISE and (against or off_turn) else "play"
        verb, value = kind, card.name
    elif verb in ("play", "surprise", "use", "random"):
        value = _card(value, catalogue, verb, prefer).name
    elif verb in ("join",):
        value = str(value)
    elif verb == "leave":
        value = _player(value, seated, "leave")
    if verb == "choose":
        value = _answer_names(value, catalogue, engine)
    out[verb] = value
    if verb == "choose" and by is not None and engine is not None and engine.pending is not None:
        d = engine.pending.decision
        if d is not None and not d.chance and by != d.by:
            raise TypedEventError(f"it is {d.by}, not {by}, who must decide now: {d.prompt}")
    if by is not None and verb not in ("join", "leave", "random", "choose"):
        out["by"] = by
    if entry.get("against") is not None:
        if verb != "surprise":
            raise TypedEventError("'against' goes with a Surprise played out of turn only")
        out["against"] = _card(entry["against"], catalogue, "against", prefer).name
    return out


def _answer_names(value: Any, catalogue: Catalogue, engine: Engine | None) -> Any:
    """Names in an answer written as the pending decision's options name them (else
    as the catalogue does); anything else as typed."""
    if isinstance(value, list):
        return [_answer_names(v, catalogue, engine) for v in value]
    if isinstance(value, dict):
        return {k: _answer_names(v, catalogue, engine) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    d = engine.pending.decision if engine is not None and engine.pending is not None else None
    for name in (d.option_names or [str(o) for o in d.options]) if d is not None else []:
        if normalize(name) == normalize(value):
            return name
    card = catalogue.find(value)
    return card.name if card is not None else value


class EventHints:
    """Hints for typing an event at this position: the legal events in words and in
    file syntax (reveals included), then verbs with the players and cards in the game.
    Built once per position; `suggest` and `matching` are cheap."""

    def __init__(self, engine: Engine, editions: Iterable[str] | None = None, reveals: bool = True,
                 groups: list[MoveGroup] | None = None) -> None:
        """`groups`: the `legal_moves(engine)` already listed for this position (the
        menu's), so that the list is not made twice."""
        from adjudicator.moves import legal_moves

        st = engine.state
        self.players = [p for p in st.players if p not in st.eliminated]
        known = [c for c in st.every_card() if st.defs[c].type != UNKNOWN and c != st.basic]
        self.cards = list(dict.fromkeys(st.defs[c].name for c in known))
        hints: list[str] = []
        for g in groups if groups is not None else legal_moves(engine, editions, reveals=reveals):
            for m in g.moves:
                hints.append(m.words)
            for m in g.moves:
                hints.append(m.syntax.strip("{}") if not m.reveal else m.syntax)
            for n in g.options:
                hints.append(f"{g.by} chooses {n}")
        active = st.active_player
        hand = [st.defs[c].name for c in st.hands[active] if st.defs[c].type != UNKNOWN]
        hints += [f"{active} plays {n}" for n in hand]
        hints += [f"{active} ends the turn"]
        for p in self.players:
            hints += [f"{p} plays the Surprise {st.defs[c].name}" for c in st.hands[p] if st.defs[c].type == SURPRISE]
        self.hints = list(dict.fromkeys(hints))

    def matching(self, text: str, limit: int = 20) -> list[str]:
        """Hints that start with `text` (any case), then those holding all its words."""
        low = " ".join(text.lower().split())
        if not low:
            return self.hints[:limit]
        first = [h for h in self.hints if h.lower().startswith(low)]
        words = low.split()
        rest = [h for h in self.hints if h not in first and all(w in h.lower() for w in words)]
        return (first + rest)[:limit]

    def suggest(self, text: str) -> str | None:
        """The completion of `text` (for an input's suggester): a hint starting with it."""
        low = text.lower()
        if not low.strip():
            return None
        return next((h for h in self.hints if h.lower().startswith(low) and len(h) > len(text)), None)
