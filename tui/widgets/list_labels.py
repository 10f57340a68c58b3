"""Entries for long option lists (the Open dialog's library, the choice dialogs) that
measure themselves cheaply and are built once per dialog.

Textual's OptionList asks every entry its height each time it lays itself out (the sum
is its own height; the line table it scrolls through needs each one), and a `Content`
remembers only its height at the last width asked. The list asks at two widths, with
and without its scrollbar, so every layout wrapped every label again: with the 358
library titles (most wrap) that was most of what the Open dialog cost to appear, and
each key typed in a filter built and wrapped every entry anew.

A `ListLabel` keeps its height for each width asked; a label that is one printable line
is one line high where it fits, and elsewhere its line breaks are counted from its
words' widths, found once (the steps of Rich's `divide_line`, which Textual wraps
with). `list_option` builds the Option; a dialog keeps its options and hands the same
ones back to the list when its filter changes, so nothing is converted or measured twice.
"""

from __future__ import annotations

from typing import Any

from rich._wrap import divide_line, words
from rich.cells import cell_len
from rich.text import Text
from textual.content import Content
from textual.css.styles import RulesMap
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.strip import Strip
from textual.widgets.option_list import Option


class ListLabel(Visual):
    """A list entry's text: renders as the `Content` it holds, measures itself cheaply."""

    def __init__(self, content: Content) -> None:
        self.content = content
        # tabs are expanded and control characters stripped when wrapped: only plain
        # printable text has a cell length that is its width on screen
        self._one_line = content.plain.isprintable()
        self._heights: dict[tuple, int] = {}
        self._words: list[tuple[bool, int, int]] | None = None

    def __str__(self) -> str:
        return self.content.plain

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return self.content.render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        line_pad = rules.get("line_pad", 0) * 2
        if self._one_line and 0 < self.content.cell_length <= width - line_pad:
            return 1
        overflow, wrap = rules.get("text_overflow", "fold"), rules.get("text_wrap", "wrap")
        key = (width - line_pad, overflow, wrap)
        height = self._heights.get(key)
        if height is None:
            height = self._heights[key] = self._measure(rules, width, width - line_pad, overflow, wrap == "nowrap")
        return height

    def _measure(self, rules: RulesMap, width: int, room: int, overflow: str, no_wrap: bool) -> int:
        """The height Textual's own measure gives (tests/test_list_labels.py holds them
        equal); for one printable line, counted from the words' widths."""
        if not self._one_line or room < 1 or not self.content.plain:
            return self.content.get_height(rules, width)
        if no_wrap:
            return -(-self.content.cell_length // room) if overflow == "fold" else 1
        return self._breaks(room, overflow == "fold") + 1

    def _breaks(self, room: int, fold: bool) -> int:
        """How many times Rich's `divide_line` (which Textual wraps with) breaks the line
        at `room` cells: its steps over the words' widths, found once for all widths; a
        word wider than the line is folded by Rich itself."""
        if self._words is None:
            plain = self.content.plain
            width = len if plain.isascii() else cell_len     # printable ASCII: a cell a character
            self._words = [(start > 0, width(word.rstrip()), width(word)) for start, _, word in words(plain)]
        breaks = offset = 0
        for later, length, full in self._words:
            if room - offset >= length:
                offset += full
            elif length > room:
                if fold:
                    return len(divide_line(self.content.plain, room, fold=True))
                breaks += later
                offset = full
            elif offset and later:
                breaks += 1
                offset = full
        return breaks


def list_option(label: Any, id: str | None = None, disabled: bool = False) -> Option:
    """An Option showing `label` as typed (a str is never read as markup; a rich Text keeps
    its styles; any other renderable is shown as Textual would)."""
    if isinstance(label, str):
        label = Text(label)
    prompt = ListLabel(Content.from_rich_text(label)) if isinstance(label, Text) else label
    return Option(prompt, id=id, disabled=disabled)
