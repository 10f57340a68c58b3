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


def fault_advice(step, last: bool = True) -> str:
    """Why an event of a line could not come where it stands, and what to do about it
    in the app's own terms (keys and menus, never file syntax or line numbers). `last`:
    the event is the line's last (x drops it at once)."""
    drop = "Press x to drop this event" if last else "Press x (drop last) until this event is gone"
    fault = step.fault
    kind = getattr(fault, "kind", "")
    d = getattr(fault, "waiting", None)
    if kind == "waiting" and d is not None:
        who = "chance" if d.chance else d.by
        return (f"the game is waiting for {who} to decide first ({d.prompt}), and nothing else can happen until "
                f"then. {drop}, then a: the menu lists {who}'s answers.")
    if kind == "unasked":
        return f"nothing is waiting for an answer at this point. {drop}."
    if kind == "leftover":
        return (f"the event was carried out without needing all the answers given with it. {drop}, and add it "
                "again from the menu (a).")
    message = str(fault) if fault is not None else (step.failures[0] if step.failures else "")
    return f"{message}. {drop}."


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


def parse_typed(text: str, engine=None) -> dict[str, Any]:
    """Read an event the user typed, in the file's syntax or the menu's own words
    ("Ann plays Milk"), with the engine's reader. Raises ValueError saying how to write it."""
    from adjudicator.typed_events import parse_typed_event

    return parse_typed_event(text, engine)


def typed_hint(hints) -> tuple[str, str]:
    """An example event and a hint for the typed-event prompt, made from the table now
    (`hints`: the engine's `EventHints` for this position, or None): its players and
    the cards they hold, never names that are not in the game."""
    forms = "The menu's wording and the file's syntax are both read; Right/Tab completes."
    if hints is None:
        return "play: CARD by PLAYER", forms
    shown = [h for h in hints.hints if ":" not in h.split(" ", 1)[0] and not h.startswith("{")][:3]
    syntax = next((h for h in hints.hints if h.startswith(("play:", "surprise:", "use:", "end_turn"))), None)
    if syntax:
        shown.append(syntax)
    return (shown[0] if shown else "end_turn"), "  |  ".join(shown) + "\n" + forms + " Enter: add - Esc: cancel"


def menu(engine, groups=None) -> list[MenuItem]:
    """What may happen next, as the engine lists it (`adjudicator.moves.legal_moves`, or
    `groups` already listed for this position): the pending decision's answers told by
    outcome, the legal plays, Surprises, free actions and turn end, and reveals of
    unseen cards grouped by what the rules allow; always a way to type any event."""
    from adjudicator.moves import legal_moves

    items: list[MenuItem] = []
    for g in legal_moves(engine) if groups is None else groups:
        if g.moves:
            items += [MenuItem(m.words, dict(m.entry), group=g.title) for m in g.moves]
        elif g.options:
            d = engine.pending.decision if engine.pending is not None else None
            if d is not None and d.kind == "deal":
                items.append(MenuItem(f"{g.by} hands out the cards...", kind="deal", group=g.title,
                                      options=list(g.options), players=list(d.recipients)))
            else:
                items.append(MenuItem(f"{g.by} picks the cards...", kind="pick", group=g.title,
                                      options=list(g.options), count=g.count, minimum=g.minimum))
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
    rows: list[tuple[str, list[tuple[str, bool]], list[str]]] = []
    for title, cards in table_zones(cur):
        if prev is None:
            rows.append((title, [(c, False) for c in cards], []))
            continue
        marked, gone = _marked(before.get(title, []), cards)
        if title.startswith("Discard"):
            gone = []      # only the top of the pile is shown: cards sink out of view
        rows.append((title, marked, [g for g in gone if g != "..."]))
    return rows
