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
`ChoiceList`, the dialogs' OptionList, sums the entries' heights reading its style rules
once rather than once an entry.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, cast

divide_line: Callable[[str, int, bool], list[int]] | None
words: Callable[[str], Iterable[tuple[int, int, str]]] | None
try:        # Rich's own wrapping steps (a private module: without it, Textual's measure)
    from rich._wrap import divide_line, words
except ImportError:  # pragma: no cover - a Rich that moved them
    divide_line = words = None
from rich.cells import cell_len
from rich.text import Text
from textual.content import Content
from textual.css.styles import RulesMap
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.strip import Strip
from textual.geometry import Size
from textual.widgets import OptionList
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
        return self.height(width, rules.get("line_pad", 0), rules.get("text_overflow", "fold"),
                           rules.get("text_wrap", "wrap"), rules)

    def height(self, width: int, line_pad: int, overflow: str, wrap: str, rules: RulesMap) -> int:
        """`get_height` with the rules it reads already read (`rules` is asked only for
        what is not remembered)."""
        room = width - line_pad * 2
        if self._one_line and 0 < self.content.cell_length <= room:
            return 1
        key = (room, overflow, wrap)
        height = self._heights.get(key)
        if height is None:
            if not self._one_line or room < 1 or not self.content.plain or words is None:
                height = self.content.get_height(rules, width)      # Textual's own measure
            elif wrap == "nowrap":
                height = -(-self.content.cell_length // room) if overflow == "fold" else 1
            else:
                height = self._breaks(room, overflow == "fold") + 1
            self._heights[key] = height
        return height

    def _breaks(self, room: int, fold: bool) -> int:
        """How many times Rich's `divide_line` (which Textual wraps with) breaks the line
        at `room` cells: its steps over the words' widths, found once for all widths; a
        word wider than the line is folded by Rich itself."""
        assert words is not None and divide_line is not None      # else `height` measures as Textual does
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
                    return len(divide_line(self.content.plain, room, True))         # folding
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
        if label.isprintable():     # what Text and then Content would make of it, made directly
            return Option(ListLabel(Content(label)), id=id, disabled=disabled)
        label = Text(label)
    prompt = ListLabel(Content.from_rich_text(label)) if isinstance(label, Text) else label
    return Option(prompt, id=id, disabled=disabled)


class ChoiceList(OptionList):
    """An OptionList of `list_option` entries that sums its height reading its style rules
    once, not three times an entry: Textual asks the list's height about six times as a
    dialog opens, and for 358 entries those reads were most of what measuring still cost."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        options = self.options
        labels = [o.prompt for o in options if isinstance(o.prompt, ListLabel) and not getattr(o, "_divider", False)]
        if len(labels) != len(options):
            return super().get_content_height(container, viewport, width)
        rules = cast(RulesMap, self.styles)         # a widget's styles read as its rules, as Textual's OptionList does
        line_pad, overflow, wrap = rules.get("line_pad", 0), rules.get("text_overflow", "fold"), rules.get("text_wrap", "wrap")
        inner = width - self.get_component_styles("option-list--option").padding.width
        return sum(label.height(inner, line_pad, overflow, wrap, rules) for label in labels)
