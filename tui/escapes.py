"""Nothing a file supplied acts on the terminal: every line the app draws is escaped.

A scenario's title, question or notes, a share string and an imported FAQ can hold ESC
sequences (which set the window title or clear the screen), C1 controls, carriage
returns or text-direction overrides. The command line shows them as visible escapes
(`adjudicator.text.printable`: tabs and newlines too, which in a drawn line would
move the cursor); the app does the same in one place, whatever widget
draws the text: `EscapeFilter` is a Textual line filter, which Textual applies to
every line of every widget after it is rendered and before it reaches the terminal
(`FluxxJudgeApp.get_line_filters` adds it). Textual's own control output (cursor
moves, colours) travels in control segments and styles, never in the text, so it
is left alone.

The escapes are wider than the characters they show (which take no cells), so a line
that holds one would grow past its widget. It is brought back to its width by taking
the extra cells from the runs of blank cells after the first escape (the padding
between a text and a border or the next column), and only when those are too few
from the end of the line.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.segment import Segment
from textual.filter import LineFilter

from adjudicator.text import needs_escaping, printable

_BLANKS = re.compile(r" {2,}")


def _absorb(segments: list[Segment], first: int, excess: int) -> tuple[list[Segment], int]:
    """Drop up to `excess` spaces from runs of two or more blanks in segments[first:]
    (one space of each run is kept); returns the segments and what is still in excess."""
    out = list(segments)
    for i in range(first, len(out)):
        if excess <= 0:
            break
        text, style, control = out[i]
        if control or "  " not in text:
            continue

        def shrink(match: re.Match) -> str:
            nonlocal excess
            cut = min(excess, len(match.group()) - 1)
            excess -= cut
            return match.group()[cut:]

        out[i] = Segment(_BLANKS.sub(shrink, text), style, control)
    return out, excess


class EscapeFilter(LineFilter):
    """Show control and direction characters in drawn text as escapes (`\\x1b`, `\\u202e`)."""

    def apply(self, segments: list[Segment], background) -> list[Segment]:
        if not any(not seg.control and needs_escaping(seg.text) for seg in segments):
            return segments            # nearly every line: nothing to do
        width = sum(cell_len(seg.text) for seg in segments if not seg.control)
        out: list[Segment] = []
        first = None
        for seg in segments:
            if not seg.control and needs_escaping(seg.text):
                first = len(out) if first is None else first
                seg = Segment(printable(seg.text), seg.style, None)
            out.append(seg)
        grown = sum(cell_len(seg.text) for seg in out if not seg.control) - width
        if grown > 0:
            out, grown = _absorb(out, first or 0, grown)
        if grown > 0:
            out = list(Segment.adjust_line_length(out, width))
        return out


ESCAPE_FILTER = EscapeFilter()    # one instance: Textual caches filtered lines per filter
