"""Reading and writing scenario files as plain data, for the app's open and save.

`loads()` reads a scenario file into plain Python data (dicts, lists, text, numbers)
with the engine's strict YAML reader, so what the app opens is exactly what the
engine would read. `dump()` is the canonical emitter: keys in the order the format
document lists them, short lists in flow style, text quoted only where YAML would
otherwise read it as something else, so that `loads(dump(x)) == x` for any such data.
Writing files is `adjudicator.atomic_io.write_atomic` (see `tui.session`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from adjudicator import strictyaml

# Key order of the scenario format (docs: /shared/spec/scenario-format.md).
TOP_ORDER = ("format", "id", "title", "question", "cites", "note", "cards", "table", "events", "expect", "variations",
             "reshuffle")
VARIATION_ORDER = ("after", "title", "events", "expect", "variations")
TABLE_ORDER = ("players", "turn", "drawn", "played", "rules", "meta_rules", "goals", "hands", "keepers",
               "draw_pile", "discard", "eliminated", "deal", "solo", "rules_pile", "rules_discard", "scored", "editions",
               "under", "face_down", "face_out", "out_of_reach")
EVENT_ORDER = ("play", "surprise", "use", "choose", "random", "end_turn", "join", "leave", "by", "against",
               "disputed", "note", "expect")
EXPECT_ORDER = ("winner", "everyone_loses", "game_over", "turn", "turn_over", "plays_left", "draws_owed",
                "pending", "rejected", "cites", "zones")
ZONE_SPEC_ORDER = ("has", "lacks", "size", "top")
PENDING_ORDER = ("by", "choice")
QUESTION_ORDER = ("text", "ask")

_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9 _'!?.&()/+\-]*\Z")
_PLAIN_BLOCK = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9 _'!?.&()/+,;\-]*\Z")   # commas are safe outside [...]
_RESOLVER = yaml.resolver.Resolver()


class DocumentError(ValueError):
    """The file holds YAML, but not a mapping: it cannot be a scenario."""


def loads(text: str, path: str = "<text>") -> Any:
    """Plain data from YAML text, read by the engine's strict reader (raises InputError)."""
    from adjudicator.scenario import check_card_counts

    node = strictyaml.parse(text, path)
    check_card_counts(node)      # before the table editor expands any `xN`
    return None if node is None else node.plain_data()


def document(text: str, path: str) -> dict[str, Any]:
    """The scenario document in a file's text, as Open reads it: the strict reader and
    its limits (size, nesting, values, a value's length, cards named), and a mapping at
    the top. Save checks the text it is about to write with it too, so that it never
    writes what Open would refuse. Raises InputError."""
    from adjudicator.errors import InputError

    data = loads(text, path)
    if data is None:
        raise InputError("the file is empty; a scenario needs at least `format: 1` and a `table`", path, 1, 1)
    if not isinstance(data, dict):
        raise InputError("a scenario file holds one mapping (format, table, events...), not a list or "
                         "a single value", path, 1, 1)
    return data


# --------------------------------------------------------------------------- emitting

def _printable(ch: str) -> bool:
    c = ord(ch)
    if ch in "\u2028\u2029\ufeff\x85":
        return False
    return 0x20 <= c <= 0x7E or 0xA0 <= c <= 0xD7FF or 0xE000 <= c <= 0xFFFD or 0x10000 <= c <= 0x10FFFF


def _double_quoted(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif _printable(ch):
            out.append(ch)
        else:
            c = ord(ch)
            out.append(f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}")
    out.append('"')
    return "".join(out)


def scalar(value: Any, block: bool = False) -> str:
    """One scalar as YAML that reads back as exactly `value` (`block`: not inside [...])."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return ".nan"
        if value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    text = str(value)
    if ((_PLAIN_BLOCK if block else _PLAIN).match(text) and not text.endswith(" ") and "  " not in text
            and _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str"):
        return text
    return _double_quoted(text)


def _flowable(value: Any) -> bool:
    if isinstance(value, dict):
        return not value
    if isinstance(value, list):
        return all(_flowable(v) for v in value)
    return True


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return scalar(value)


def _ordered(mapping: dict, order: tuple[str, ...]) -> list[tuple[Any, Any]]:
    known = [(k, mapping[k]) for k in order if k in mapping]
    rest = [(k, v) for k, v in mapping.items() if k not in order]
    return known + rest


def _order_for(path: tuple[str, ...]) -> tuple[str, ...]:
    """The key order of the mapping found at `path` (keys, '*' for any, '-' for items)."""
    if path == ():
        return TOP_ORDER
    if path == ("table",):
        return TABLE_ORDER
    if path == ("question",):
        return QUESTION_ORDER
    if len(path) >= 2 and path[-2:] == ("events", "-"):
        return EVENT_ORDER
    if len(path) >= 2 and path[-2:] == ("variations", "-"):
        return VARIATION_ORDER
    if path and path[-1] == "expect":
        return EXPECT_ORDER
    if len(path) >= 2 and path[-2] == "zones":
        return ZONE_SPEC_ORDER
    if path and path[-1] == "pending":
        return PENDING_ORDER
    return ()


def _emit_map(mapping: dict, indent: int, path: tuple[str, ...], lines: list[str],
              first_prefix: str | None = None) -> None:
    pad = " " * indent
    for i, (key, value) in enumerate(_ordered(mapping, _order_for(path))):
        lead = first_prefix if (i == 0 and first_prefix is not None) else pad
        k = scalar(key)
        if _flowable(value):
            shown = scalar(value, block=True) if not isinstance(value, (list, dict)) else _flow(value)
            lines.append(f"{lead}{k}: {shown}")
        elif isinstance(value, dict):
            lines.append(f"{lead}{k}:")
            _emit_map(value, indent + 2, path + (str(key),), lines)
        else:
            lines.append(f"{lead}{k}:")
            _emit_seq(value, indent + 2, path + (str(key),), lines)


def _emit_seq(items: list, indent: int, path: tuple[str, ...], lines: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if _flowable(item):
            lines.append(f"{pad}- {_flow(item)}")
        elif isinstance(item, dict):
            _emit_map(item, indent + 2, path + ("-",), lines, first_prefix=f"{pad}- ")
        else:
            lines.append(f"{pad}-")
            _emit_seq(item, indent + 2, path + ("-",), lines)


def dump(doc: Any) -> str:
    """The canonical YAML text of a scenario document (or any plain data)."""
    if isinstance(doc, dict) and doc:
        lines: list[str] = []
        _emit_map(doc, 0, (), lines)
        return "\n".join(lines) + "\n"
    return _flow(doc) + "\n"
