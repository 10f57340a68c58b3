"""The bar at the top of every screen: the app's name and its four screens as tabs,
each with its key, the one showing highlighted. It replaces Textual's Header so that
the screen keys never have to fit in the footer (at 80 columns they did not). Every
tab, help and the command palette also answer a click or a tap: a phone's keyboard
(`fluxx-judge serve`) has no F keys.

Below `PHONE_WIDTH` columns (a phone held upright) the tabs do not fit: the bar is a
Menu (every screen and command, `App.action_menu`), Open and Save, each a tap, and the
name of the screen showing."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import Static

MODES = (("f2", "table", "Table"), ("f3", "replay", "Replay"), ("f4", "rulings", "Rulings"),
         ("f5", "interactions", "Cards"))
PHONE_WIDTH = 60          # the app's -phone breakpoint (FluxxJudgeApp.HORIZONTAL_BREAKPOINTS)


class ModeBar(Static):
    """fluxx-judge  F2 Table  F3 Replay  F4 Rulings  F5 Cards      F1 help
    (on a phone: = Menu   Open   Save   Replay)"""

    DEFAULT_CSS = """
    ModeBar {
        height: 1;
        background: $panel;
        color: $text;
    }
    """

    def on_mount(self) -> None:
        self.show()            # a screen is mounted when its mode is shown, and stays in that mode

    def on_resize(self, event: events.Resize) -> None:
        self.show()

    def show(self) -> None:
        try:
            current = self.app.current_mode
        except Exception:
            current = ""
        width = self.size.width or self.app.size.width
        self.update(self._phone(current) if width < PHONE_WIDTH else self._tabs(current))

    @staticmethod
    def _tap(action: str) -> Style:
        return Style(meta={"@click": action})

    def _tabs(self, current: str) -> Text:
        t = Text(" fluxx-judge ", style="bold")
        for key, mode, label in MODES:
            t.append(" ")
            click = self._tap(f"app.mode({mode!r})")
            style = "bold reverse" if mode == current else ""
            t.append(f" {key.upper()} ", style=Style.parse("bold " + ("reverse" if mode == current else "dim")) + click)
            t.append(f"{label} ", style=Style.parse(style) + click)
        t.append("   ")
        t.append("F1 help", style=Style.parse("dim") + self._tap("app.help"))
        t.append("  ")
        t.append("^P commands", style=Style.parse("dim") + self._tap("app.command_palette"))
        return t

    def _phone(self, current: str) -> Text:
        t = Text(" ")
        for words, action in (("\u2261 Menu", "app.menu"), ("Open", "app.open"), ("Save", "app.save")):
            t.append(f" {words} ", style=Style.parse("bold reverse") + self._tap(action))
            t.append(" ")
        label = next((label for _, mode, label in MODES if mode == current), "")
        t.append(f" {label}", style="bold")
        return t
