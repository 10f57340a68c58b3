"""The bar at the top of every screen: the app's name and its four screens as tabs,
each with its key, the one showing highlighted. It replaces Textual's Header so that
the screen keys never have to fit in the footer (at 80 columns they did not)."""

from __future__ import annotations

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
            style = "bold reverse" if mode == current else ""
            t.append(f" {key.upper()} ", style="bold " + ("reverse" if mode == current else "dim"))
            t.append(f"{label} ", style=style)
        t.append("   F1 help  ^P commands", style="dim")
        self.update(t)
