"""What may happen next, in file syntax and in words: the legal-events list that
`fluxx-judge moves` prints and the app's event menu shows (one function for both).

`legal_moves(engine)` groups the events the rules allow at this moment: the answers
to a pending decision, Surprises that can answer the last play, the active player's
plays, free actions, ending the turn, and reveals of unseen cards (format 1.1,
item 2): a hand holding `?` may hold any card nobody can see on the table, so each
title the rules would allow is offered, grouped by what the rules allow it to do
("Ben reveals a Surprise that cancels a Keeper (Milk): That's Mine, ..."). Each
`Move` carries its event as a scenario mapping (`{"play": "Milk", "by": "Ann"}`),
that mapping as one line of YAML, and the event in words ("Ann plays Milk").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

from adjudicator.names import split_copy
from adjudicator.events import Event
from adjudicator.mechanics.base import BASIC, CREEPER, SURPRISE, UNKNOWN

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef, Catalogue
    from adjudicator.engine import Engine
    from adjudicator.replay import Verdict
    from adjudicator.scenario import Scenario
    from adjudicator.state import Window

TYPE_WORDS = {"keeper": "a Keeper", "creeper": "a Creeper", "goal": "a Goal", "ungoal": "an Ungoal",
              "rule": "a New Rule", "meta_rule": "a Meta Rule", "action": "an Action", "surprise": "a Surprise",
              "danger": "a Danger", "secret": "a Secret"}
_TYPE_ORDER = ["keeper", "goal", "rule", "action", "surprise", "meta_rule", "ungoal", "danger", "secret"]
_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 _'!?.&()/+\-]*$")
_YAML_WORDS = {"yes", "no", "true", "false", "on", "off", "null", "y", "n", "~"}


@dataclass
class Move:
    """One event the rules allow now."""

    event: Event
    entry: dict[str, Any]             # the event as a scenario file writes it
    words: str                        # the event in words: "Ann plays Milk"
    reveal: bool = False              # it turns one of the player's unseen cards into this card

    @property
    def syntax(self) -> str:
        """The entry as one line of YAML, ready to go under `events:` after "- "."""
        return flow(self.entry)

    @property
    def card(self) -> str | None:
        for verb in ("play", "surprise", "use", "random"):
            if verb in self.entry:
                return str(self.entry[verb])
        return None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.entry, "syntax": self.syntax, "words": self.words, "reveal": self.reveal}


@dataclass
class MoveGroup:
    """Moves that the rules allow for one reason, with a title that says it; the card
    names are there for type-ahead. A decision whose answer is several cards (a
    discard, a deal) lists its options instead of every combination."""

    title: str
    kind: str                         # answer | surprise | play | use | end_turn | reveal_surprise | reveal_play
    by: str | None
    moves: list[Move] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    count: int | None = None
    minimum: int = 0
    why: str = ""                     # for a decision: who decides, and on what authority
    cites: list[str] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [m.card for m in self.moves if m.card] or list(self.options)

    def text(self, limit: int | None = 8) -> str:
        """"Ben reveals a Surprise that cancels a Keeper (Milk): That's Mine, ..." """
        names = self.names if self.kind.startswith("reveal") else [m.words for m in self.moves] or self.options
        shown = names if limit is None or len(names) <= limit else names[:limit] + ["…"]
        return f"{self.title}: {', '.join(shown)}" if shown else self.title

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "kind": self.kind, "by": self.by, "moves": [m.to_json() for m in self.moves],
                "options": self.options, "count": self.count, "minimum": self.minimum, "why": self.why or None,
                "cites": self.cites}


# --------------------------------------------------------------------------- words and syntax

def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS and not text.endswith(" ") and ": " not in text \
            and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)    # a JSON string is a YAML double-quoted scalar


def flow(value: Any) -> str:
    """Plain data as one line of YAML flow style."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return _scalar(value)


def answer_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(answer_text(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return "; ".join(f"{k} gets {answer_text(v)}" for k, v in value.items())
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def event_words(ev: Event, catalogue: Catalogue, actor: str | None = None, target: str | None = None,
                reveal: bool = False) -> str:
    """An engine Event in words. `actor`: who acts when the event does not say;
    `target`: the card a Surprise answers when the event does not name it."""
    who = ev.by or actor or "the active player"
    name = catalogue.get(ev.card).name if ev.card and ev.card in catalogue.cards else ev.card
    if ev.copy is not None:
        name = f"{name} #{ev.copy}"
    against = catalogue.get(ev.against).name if ev.against else target
    if ev.verb == "play":
        return f"{who} reveals {name} and plays it" if reveal else f"{who} plays {name}"
    if ev.verb == "surprise":
        tail = f" against {against}" if against else ""
        return f"{who} reveals {name}{tail}" if reveal else f"{who} plays the Surprise {name}{tail}"
    if ev.verb == "use":
        return f"{who} uses {name}"
    if ev.verb == "end_turn":
        return f"{who} ends the turn"
    if ev.verb == "random":
        return f"chance picks {name}"
    if ev.verb == "join":
        return f"{ev.answer} joins the game"
    if ev.verb == "leave":
        return f"{ev.answer} leaves the game"
    if ev.verb == "choose":
        return f"{who} chooses {answer_text(ev.answer)}"
    return ev.describe()


def event_entry(ev: Event, catalogue: Catalogue) -> dict[str, Any]:
    """An engine Event as a scenario-format mapping."""
    out: dict[str, Any] = {}
    if ev.verb == "end_turn":
        out["end_turn"] = True
    elif ev.verb in ("choose", "join", "leave"):
        out[ev.verb] = ev.answer
    else:
        out[ev.verb] = catalogue.get(ev.key).name + (f" #{ev.copy}" if ev.copy is not None else "")
    if ev.by:
        out["by"] = ev.by
    if ev.against:
        out["against"] = catalogue.get(ev.against).name
    return out


def _move(engine: Engine, ev: Event, reveal: bool = False) -> Move:
    """A legal event as a Move; a Surprise names the play it answers, in words and in the file."""
    if ev.verb == "surprise" and not ev.against:
        w = _surprise_target(engine, ev)
        if w is not None:
            ev = Event(ev.verb, ev.card, by=ev.by, against=engine.state.defs[w.card].key)
    return Move(ev, event_entry(ev, engine.cat), event_words(ev, engine.cat, engine.state.active_player, None,
                                                             reveal), reveal)


# --------------------------------------------------------------------------- the list

def legal_moves(engine: Engine, editions: Iterable[str] | None = None, reveals: bool = True) -> list[MoveGroup]:
    """Everything the rules allow now, grouped; reveals of unseen cards included
    (`editions`: only titles of these editions may be revealed; by default the
    editions the table is played with, `engine.editions`)."""
    if engine.pending is not None:
        return answer_groups(engine)
    st = engine.state
    active = st.active_player
    target = _target_words(engine)
    groups: dict[tuple, MoveGroup] = {}

    def group(key: tuple, title: str, kind: str, by: str | None) -> MoveGroup:
        if key not in groups:
            groups[key] = MoveGroup(title, kind, by)
        return groups[key]

    order = {"surprise": 0, "play": 1, "use": 2, "end_turn": 3}
    for ev in sorted(engine.legal_events(), key=lambda e: order.get(e.verb, 9)):
        if ev.verb == "surprise":
            move = _move(engine, ev)
            aim = _target_words(engine, _surprise_target(engine, move.event)) or target
            g = group(("surprise", aim), f"Surprises that can answer {aim[1]}" if aim else "Surprises", "surprise",
                      None)
            g.moves.append(move)
        elif ev.verb == "play":
            passes = ev.by != active
            g = group(("play", ev.by), f"{ev.by}'s plays" + (" (the turn passes)" if passes else ""), "play", ev.by)
            g.moves.append(_move(engine, ev))
        elif ev.verb == "use":
            group(("use",), "Free actions", "use", active).moves.append(_move(engine, ev))
        else:
            group(("end_turn",), "End the turn", "end_turn", active).moves.append(_move(engine, ev))
    out = list(groups.values())
    if reveals:
        out += reveal_groups(engine, editions if editions is not None else engine.editions)
    return out


def _surprise_target(engine: Engine, ev: Event) -> Window | None:
    """The response window a Surprise event answers (the engine's own pick), or None."""
    from adjudicator.decisions import Rejected
    from adjudicator.responses import surprise_side

    if not engine.state.windows:
        return None
    assert ev.by is not None            # a listed Surprise names who plays it
    try:
        return engine.core.windows._pick_target(ev.by, ev, surprise_side(engine.cat.get(ev.key)))
    except Rejected:
        return None


def _target_words(engine: Engine, w: Window | None = None) -> tuple[str, str] | None:
    """The card a Surprise answers (default: the last one played), and it described:
    ("Milk", "a Keeper (Milk)")."""
    st = engine.state
    if w is None:
        if not st.windows:
            return None
        w = st.windows[-1]
    name = st.defs[w.card].name
    if w.kind == "use":
        return name, f"a free action ({name})"
    if w.kind == "surprise":
        return name, f"a Surprise ({name})"
    return name, f"{TYPE_WORDS.get(w.card_type, 'a ' + w.card_type)} ({name})"


def _revealable(engine: Engine, editions: Iterable[str] | None) -> list[CardDef]:
    allowed = set(editions) if editions else None
    # stand-ins (generic cards) are left to typing: the list offers printed titles
    return [c for c in engine.cat if c.type not in (UNKNOWN, BASIC, CREEPER) and not c.generic
            and (allowed is None or allowed & set(c.editions))]


def reveal_groups(engine: Engine, editions: Iterable[str] | None = None) -> list[MoveGroup]:
    """Reveals the rules allow now: for each hand holding `?`, every title not already
    on the table that would be a legal Surprise (while a play can be answered) or a
    legal play (for the player whose turn it is, or who takes it next)."""
    st = engine.state
    if engine.pending is not None:
        return []
    cards = _revealable(engine, editions if editions is not None else engine.editions)
    out: list[MoveGroup] = []
    if st.windows:
        for p in st.players:
            if p in st.eliminated or not any(st.defs[c].type == UNKNOWN for c in st.hands[p]):
                continue
            by_target: dict[tuple[str, str] | None, list[Move]] = {}
            for ev in _try_reveals(engine, p, "surprise", [c for c in cards if c.type == SURPRISE]):
                move = _move(engine, ev, reveal=True)
                aim = _target_words(engine, _surprise_target(engine, move.event)) if move.event.against else None
                by_target.setdefault(aim, []).append(move)
            for aim, moves in by_target.items():
                what = aim[1] if aim else "the last play"
                out.append(MoveGroup(f"{p} reveals a Surprise that cancels {what}", "reveal_surprise", p, moves))
    if st.game_over:
        return out
    players = [st.active_player]
    nxt = engine.core.next_player()
    if nxt != st.active_player:
        players.append(nxt)
    for p in players:
        if not any(st.defs[c].type == UNKNOWN for c in engine.core.unseen_source(p)):
            continue
        by_type: dict[str, list[Move]] = {}
        for ev in _try_reveals(engine, p, "play", cards):
            by_type.setdefault(engine.cat.get(ev.key).type, []).append(_move(engine, ev, reveal=True))
        for kind, moves in sorted(by_type.items(), key=lambda kv: _TYPE_ORDER.index(kv[0])
                                  if kv[0] in _TYPE_ORDER else len(_TYPE_ORDER)):
            passes = " (the turn passes)" if p != st.active_player else ""
            out.append(MoveGroup(f"{p} reveals {TYPE_WORDS.get(kind, kind)} to play{passes}", "reveal_play", p,
                                 sorted(moves, key=lambda m: m.card or "")))
    return out


def _try_reveals(engine: Engine, player: str, verb: str, cards: list[CardDef]) -> list[Event]:
    st = engine.state
    held = {st.defs[c].key for c in st.hands[player]} | {st.defs[c].key for c in engine.core.unseen_source(player)}
    out = []
    for d in cards:
        if d.key in held or engine.core.reveal_problem(player, d.key):
            continue
        ev = Event(verb, d.key, by=player)
        result = engine.try_event(ev)
        if result is not None and result.status != "rejected":
            out.append(ev)
    return out


def answer_groups(engine: Engine) -> list[MoveGroup]:
    """The answers to the pending decision, told by what each one does."""
    d = engine.pending.decision if engine.pending is not None else None
    assert d is not None                # asked only while the engine waits on a decision
    names = d.option_names or [str(o) for o in d.options]
    from adjudicator.replay import who_decides

    title = f"{'Chance' if d.chance else d.by} must decide: {d.prompt}"
    g = MoveGroup(title, "answer", None if d.chance else d.by)
    who = who_decides(engine, d)
    if who is not None:
        g.why, g.cites = who.text, list(who.cites)
    if d.chance:
        for n in dict.fromkeys(names):
            title = split_copy(n)[0]
            g.moves.append(Move(Event("random", engine.cat.resolve(title).key if title != "?" else "?"), {"random": title},
                                f"chance picks {title}"))
    elif d.kind in ("yes_no", "table"):
        for a in ("yes", "no"):
            g.moves.append(Move(Event("choose", answer=a), {"choose": a}, f"{d.by} answers {a}"))
    elif d.kind in ("card", "player", "number"):
        values = names if d.kind != "number" else list(d.options)
        for v in dict.fromkeys(values):
            words = d.outcome(v) if d.kind == "card" else f"{d.by} chooses {v}"
            g.moves.append(Move(Event("choose", answer=v), {"choose": v}, words))
    else:
        g.options, g.count, g.minimum = list(names), d.count, d.minimum
    return [g]


def moves_after(sc: Scenario, seed: int = 0, editions: Iterable[str] | None = None) -> tuple[Verdict, list[MoveGroup]]:
    """The engine after the scenario's main line, and the moves legal there."""
    from adjudicator.replay import replay

    verdict = replay(sc, seed)
    if verdict.engine is None:
        return verdict, []
    return verdict, legal_moves(verdict.engine, editions)
