"""Lines of play for the Replay screen: replaying one, the menu of what may happen next,
events typed by the user, and what changed on the table between two steps.

A line (see `tui.variations`) is a list of events in the scenario format
(`{"play": "Milk", "by": "Ann"}`). Every line is judged by the engine's own `replay`;
the menu lists the engine's own legal events (reveals of unseen cards included) and
the answers to its pending decision, told by their outcome. No Textual here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tui import scenario_io

VERBS = ("play", "surprise", "use", "choose", "random", "end_turn", "join", "leave")
_GROUP_ORDER = {"surprise": 0, "play": 1, "use": 2, "end_turn": 3}


@dataclass
class MenuItem:
    """One entry of the "add an event" menu."""

    label: str
    event: dict[str, Any] | None = None   # None: the entry asks for more (see `kind`)
    kind: str = "event"                   # event | pick (several cards) | deal | type
    group: str = ""
    options: list[str] = field(default_factory=list)
    count: int | None = None
    minimum: int = 0
    players: list[str] = field(default_factory=list)


def run_line(session, line):
    """Replay one line (a `tui.variations.Line`) through the engine: (Verdict, None) or
    (None, InputError)."""
    from adjudicator.errors import InputError
    from adjudicator.replay import replay

    from tui.variations import scenario_for

    try:
        sc = session.parse(scenario_for(session.doc, line))
    except InputError as exc:
        return None, exc
    return replay(sc), None


# --------------------------------------------------------------------------- events

def event_label(ev: dict[str, Any]) -> str:
    """A short description of an event mapping ("Ann plays Milk")."""
    by = ev.get("by")
    who = f"{by} " if by else ""
    if "play" in ev:
        return f"{who}plays {ev['play']}"
    if "surprise" in ev:
        against = f" against {ev['against']}" if ev.get("against") else ""
        return f"{who}plays the Surprise {ev['surprise']}{against}"
    if "use" in ev:
        return f"{who}uses {ev['use']}"
    if "end_turn" in ev:
        return f"{who}ends the turn"
    if "random" in ev:
        return f"chance picks {ev['random']}"
    if "join" in ev:
        return f"{ev['join']} joins the game"
    if "leave" in ev:
        return f"{ev['leave']} leaves the game"
    if "choose" in ev:
        return f"{who}chooses {_answer_text(ev['choose'])}"
    return scenario_io.dump(ev).strip()


def _answer_text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_answer_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_answer_text(v)}" for k, v in value.items()) + "}"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def event_from_engine(ev, catalogue) -> dict[str, Any]:
    """An engine Event as a scenario-format mapping."""
    out: dict[str, Any] = {}
    if ev.verb == "end_turn":
        out["end_turn"] = True
    elif ev.verb in ("choose", "join", "leave"):
        out[ev.verb] = ev.answer
    else:
        out[ev.verb] = catalogue.get(ev.card).name
    if ev.by:
        out["by"] = ev.by
    if ev.against:
        out["against"] = catalogue.get(ev.against).name
    return out


def parse_typed(text: str) -> dict[str, Any]:
    """Read an event typed by the user: `play Milk by Ann`, `surprise: Stop That! by Cal
    against Time Portal`, `end_turn`, `choose [Bread, Milk]`, `join Dee`. Raises ValueError."""
    text = text.strip()
    if not text:
        raise ValueError("type an event, such as: play Milk by Ann")
    head, _, rest = text.partition(" ")
    verb = head.rstrip(":").lower().replace("-", "_")
    if ":" in head and head.index(":") < len(head) - 1:  # "play:Milk"
        verb, _, first = head.partition(":")
        rest = first + " " + rest
    if verb not in VERBS:
        raise ValueError(f"an event starts with one of: {', '.join(VERBS)} (not {head!r})")
    rest = rest.strip().lstrip(":").strip()
    if verb == "choose":
        try:
            value = scenario_io.loads(f"value: {rest}", "<typed>")["value"] if rest else None
        except Exception as exc:  # InputError: not YAML
            raise ValueError(f"cannot read the answer {rest!r}: {getattr(exc, 'message', exc)}") from None
        if value is None:
            raise ValueError("choose needs an answer: a card, a player, yes/no, or a list like [Bread, Milk]")
        return {"choose": value}
    if verb in ("join", "leave"):
        if not rest:
            raise ValueError(f"{verb} needs a player's name, as in: {verb} Dee")
        return {verb: rest}
    padded = f" {rest} "
    low = padded.lower()
    found = sorted((low.rfind(f" {kw} "), kw) for kw in ("by", "against") if low.rfind(f" {kw} ") >= 0)
    pieces: dict[str, str] = {}
    part, start = "card", 0
    for pos, kw in found:
        pieces[part] = padded[start:pos].strip()
        part, start = kw, pos + len(kw) + 2
    pieces[part] = padded[start:].strip()
    out: dict[str, Any] = {}
    if verb == "end_turn":
        out["end_turn"] = True
    else:
        if not pieces.get("card"):
            raise ValueError(f"{verb} needs a card name, as in: {verb} Milk by Ann")
        out[verb] = pieces["card"]
    if pieces.get("by"):
        out["by"] = pieces["by"]
    if pieces.get("against"):
        if verb != "surprise":
            raise ValueError("'against' goes with a surprise only")
        out["against"] = pieces["against"]
    return out


def typed_hint(engine) -> tuple[str, str]:
    """An example event and a hint for the typed-event prompt, made from the table now:
    its players and the cards they hold (never names that are not in the game)."""
    forms = "Both the menu's wording and the file's syntax are read."
    if engine is None:
        return "play CARD by PLAYER", forms
    st = engine.state
    me = st.active_player
    mine = [engine.name(c) for c in st.hands.get(me, []) if engine.name(c) != "?"]
    card = mine[0] if mine else "CARD"
    examples = [f"{me} plays {card}", f"play: {card}"]
    for p in st.players:
        if p == me:
            continue
        theirs = [engine.name(c) for c in st.hands.get(p, []) if st.defs[c].type == "surprise"]
        if theirs:
            examples.append(f"{p} plays the Surprise {theirs[0]}")
            break
    else:
        other = next((p for p in st.players if p != me), None)
        if other is not None and any(engine.name(c) == "?" for c in st.hands.get(other, [])):
            examples.append(f"surprise: CARD by {other}  (reveals one of {other}'s unseen cards)")
    examples.append(f"{me} ends the turn")
    return examples[0], "  |  ".join(examples) + "\n" + forms + " Enter: add - Esc: cancel"


def menu(engine, catalogue) -> list[MenuItem]:
    """What may happen next, as the engine sees it: the pending decision's answers, or the
    legal plays, Surprises, free actions and turn end; always a way to type any event."""
    items: list[MenuItem] = []
    pend = engine.pending
    st = engine.state
    if pend is not None and pend.decision is not None:
        d = pend.decision
        names = d.option_names or [str(o) for o in d.options]
        group = f"{'Chance' if d.chance else d.by} must decide: {d.prompt}"
        if d.chance:
            items += [MenuItem(f"chance picks {n}", {"random": n}, group=group) for n in dict.fromkeys(names)]
        elif d.kind in ("yes_no", "table"):
            items += [MenuItem(answer, {"choose": answer}, group=group) for answer in ("yes", "no")]
        elif d.kind in ("card", "player", "number"):
            values = names if d.kind != "number" else list(d.options)
            items += [MenuItem(f"{d.by} chooses {v}", {"choose": v}, group=group) for v in dict.fromkeys(values)]
        elif d.kind in ("discard", "discard_keepers", "cards"):
            items.append(MenuItem(f"{d.by} picks the cards...", kind="pick", group=group, options=list(names),
                                  count=d.count, minimum=d.minimum))
        elif d.kind == "deal":
            items.append(MenuItem(f"{d.by} hands out the cards...", kind="deal", group=group, options=list(names),
                                  players=list(st.players)))
    else:
        for ev in sorted(engine.legal_events(), key=lambda e: _GROUP_ORDER.get(e.verb, 9)):
            entry = event_from_engine(ev, catalogue)
            if ev.verb == "surprise":
                group = "Surprises that can answer the last play"
            elif ev.verb == "use":
                group = "Free actions"
            elif ev.verb == "end_turn":
                group = "End the turn"
            else:
                group = f"{ev.by}'s plays" + ("" if ev.by == st.active_player else " (the turn passes)")
            items.append(MenuItem(event_label(entry), entry, group=group))
    items.append(MenuItem("Type any event (the engine judges it)...", kind="type", group="Other"))
    return items


# --------------------------------------------------------------------------- table changes

def _marked(prev: list[str], cur: list[str]) -> tuple[list[tuple[str, bool]], list[str]]:
    """Cards of `cur`, each flagged when new since `prev`; and the cards that left."""
    left = Counter(prev)
    out = []
    for c in cur:
        if left[c] > 0:
            left[c] -= 1
            out.append((c, False))
        else:
            out.append((c, True))
    gone = list((Counter(prev) - Counter(cur)).elements())
    return out, gone


def table_zones(table: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The compact table as (zone title, cards) pairs, in display order."""
    out = [("Rules", table.get("rules", [])), ("Goals", table.get("goals", []))]
    if table.get("meta_rules"):
        out.append(("Meta Rules", table["meta_rules"]))
    for p, cards in table.get("hands", {}).items():
        out.append((f"{p}'s hand", cards))
        out.append((f"{p}'s table", table.get("keepers", {}).get(p, [])))
        if p in table.get("temp_hands", {}):
            out.append((f"{p}'s temporary hand", table["temp_hands"][p]))
    out.append(("Discard (top first)", table.get("discard", [])))
    return out


def diff_tables(prev: dict[str, Any] | None,
                cur: dict[str, Any]) -> list[tuple[str, list[tuple[str, bool]], list[str]]]:
    """Per zone: the cards (flagged when new at this step) and the cards that left it."""
    before = dict(table_zones(prev)) if prev else {}
    rows = []
    for title, cards in table_zones(cur):
        if prev is None:
            rows.append((title, [(c, False) for c in cards], []))
            continue
        marked, gone = _marked(before.get(title, []), cards)
        if title.startswith("Discard"):
            gone = []      # only the top of the pile is shown: cards sink out of view
        rows.append((title, marked, [g for g in gone if g != "..."]))
    return rows
