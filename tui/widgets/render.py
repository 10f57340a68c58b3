"""Rendering helpers the screens share: card labels coloured by type, readable errors
with the offending line, one-line ruling summaries, highlighted search fragments.
Every helper builds rich `Text` (never markup), so names with `[` or `\\` show as typed."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

TYPE_STYLES = {
    "keeper": "green", "creeper": "red", "goal": "yellow", "ungoal": "yellow", "rule": "cyan",
    "meta_rule": "cyan", "action": "magenta", "surprise": "bright_magenta", "danger": "red",
    "unknown": "dim", "basic": "cyan",
}


# --------------------------------------------------------------------------- rendering helpers

def error_text(err: Any, source: str | None = None, header: str = "This file cannot be used as a scenario.") -> Text:
    """An InputError as a readable block: `header`, where, what, and the offending line
    with a caret."""
    text = Text()
    where = err.where() if hasattr(err, "where") else ""
    text.append(header + "\n", style="bold red")
    if where:
        text.append(where, style="bold")
        text.append("\n")
    text.append(str(getattr(err, "message", err)))
    line = getattr(err, "line", None)
    if source and line:
        lines = source.splitlines()
        if 1 <= line <= len(lines):
            shown = lines[line - 1]
            text.append("\n\n")
            text.append(f"{line:>4} | ", style="dim")
            text.append(shown + "\n")
            col = getattr(err, "col", None) or 1
            text.append("     | " + " " * (col - 1) + "^", style="bold red")
    return text


def ruling_summary(rid: str, outcome: str | None = None) -> str:
    """The first sentence of a ruling, or '' when the corpus cannot say (never raises).
    With `outcome` (a step's: allowed or refused), the part of the ruling that supports
    it (`Ruling.excerpt`), never a bare "No." answering the ruling's own question."""
    try:
        from rulings.corpus import excerpt, one_line
    except Exception:
        return ""
    try:
        line = excerpt(rid, outcome) if outcome else one_line(rid)
        if len(line) < 30:  # "At once." says little without its question
            from rulings.corpus import get

            line = f"{get(rid).title} {line}"
        return line
    except Exception:
        return ""


def highlighted(fragment: str, style: str = "bold reverse") -> Text:
    """Search fragments mark matched words as **word**: show them highlighted."""
    out = Text()
    for i, part in enumerate(re.split(r"\*\*", fragment)):
        out.append(part, style=style if i % 2 else "")
    return out


def card_label(name: str, card: Any = None, count: int = 1, problem: bool = False) -> Text:
    t = Text()
    if card is None:
        t.append(name, style="bold red" if problem else "")
        t.append("  (unknown card)" if problem else "", style="red")
    else:
        t.append(card.name, style=TYPE_STYLES.get(card.type, ""))
        if name != card.name and card.key != "?":
            t.append(f" ({name})", style="dim")
    if count != 1:
        t.append(f" x{count}", style="bold")
    if problem and card is not None:
        t.append("  !", style="bold red")
    return t


