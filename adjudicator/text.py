"""Text on its way to a terminal: escaped so that nothing a file supplied can act on it.

A card name, a title or an imported Q&A may hold ESC sequences (which set the
window title or clear the screen), carriage returns (which overwrite a line),
text-direction overrides (which reorder what follows) or bytes of a file name that
are not UTF-8. `printable()` shows each of them as a visible escape, like Python's
repr does: ``\\x1b``, ``\\r``, ``\\u202e`` (``\\uNNNN`` from DEL up, so that JSON
output stays valid JSON).

`use_printable_output()` puts that filter on the command line's stdout and stderr,
and makes a terminal that is not UTF-8 show what it cannot encode as escapes instead
of failing; `output_closed()` tells a command that it has no stdout to print to.

>>> printable("Ann\\x1b]0;owned\\x07")
'Ann\\\\x1b]0;owned\\\\x07'
>>> printable("two\\nlines", keep_newlines=True)
'two\\nlines'
"""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO

_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_ONE_LINE = re.compile(f"[\t\n{_UNSAFE}]")
_MULTI_LINE = re.compile(f"[{_UNSAFE}]")


def _escape(match: re.Match) -> str:
    ch = match.group()
    code = ord(ch)
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if ch == "\r":
        return "\\r"
    # \xNN only below 0x20 (JSON escapes those itself), \uNNNN above: JSON output stays valid
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def needs_escaping(text: str) -> bool:
    """Whether `printable(text)` would change anything (a quick test for the common case)."""
    return _ONE_LINE.search(text) is not None


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control, direction or undecodable character escaped."""
    pattern = _MULTI_LINE if keep_newlines else _ONE_LINE
    return pattern.sub(_escape, text)


class PrintableStream:
    """A text stream that escapes what it is given (newlines and tabs kept)."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text, keep_newlines=True))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def use_printable_output() -> None:
    """Escape everything the command line prints; never fail on a non-UTF-8 terminal."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or isinstance(stream, PrintableStream):
            continue
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
        setattr(sys, name, PrintableStream(stream))


def output_closed(prog: str = "fluxx-judge") -> bool:
    """True, after saying so on stderr, when the process was started with standard
    output closed (`fluxx-judge search x >&-`): Python then has no sys.stdout at all,
    and every command prints its result there. The caller ends with status 2."""
    if sys.stdout is not None:
        return False
    if sys.stderr is not None:
        sys.stderr.write(f"{prog}: standard output is closed, so there is nowhere to print; nothing was done "
                         "(to discard the output, send it to /dev/null)\n")
    return True
