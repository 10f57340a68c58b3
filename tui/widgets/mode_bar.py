"""The bar at the top of every screen: the app's name and its four screens as tabs,
each with its key, the one showing highlighted. It replaces Textual's Header so that
the screen keys never have to fit in the footer (at 80 columns they did not). Every
tab, help and the command palette also answer a click or a tap: a phone's keyboard
(`fluxx-judge serve`) has no F keys."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

MODES = (("f2", "table", "Table"), ("f3", "replay", "Replay"), ("f4", "rulings", "Rulings"),
         ("f5", "interactions", "Cards"))


class ModeBar(Static):
    """fluxx-judge  F2 Table  F3 Replay  F4 Rulings  F5 Cards      F1 help"""

    DEFAULT_CSS = """
    ModeBar {
        height: 1;
        background: $panel;
        color: $text;
    }
    """

    def on_mount(self) -> None:
        self.show()            # a screen is mounted when its mode is shown, and stays in that mode

    def show(self) -> None:
        try:
            current = self.app.current_mode
        except Exception:
            current = ""
        t = Text(" fluxx-judge ", style="bold")
        for key, mode, label in MODES:
            t.append(" ")
            click = Style(meta={"@click": f"app.mode({mode!r})"})
            style = "bold reverse" if mode == current else ""
            t.append(f" {key.upper()} ", style=Style.parse("bold " + ("reverse" if mode == current else "dim")) + click)
            t.append(f"{label} ", style=Style.parse(style) + click)
        t.append("   ")
        t.append("F1 help", style=Style.parse("dim") + Style(meta={"@click": "app.help"}))
        t.append("  ")
        t.append("^P commands", style=Style.parse("dim") + Style(meta={"@click": "app.command_palette"}))
        self.update(t)
