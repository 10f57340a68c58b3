"""A strict YAML reader: safe loading, every value with its line and column.

PyYAML's safe loader silently keeps the last of duplicate keys, turns `4.10` into
4.1 and `yes` into True. This module composes the node tree with the safe loader
(nothing is ever constructed from tags, so nothing in a file is executed) and
builds plain values itself, so that it can refuse duplicate keys, unknown tags and
values of the wrong kind, each with the file, line and column of the offender.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from adjudicator.errors import InputError

try:  # libyaml is much faster when present; both are safe loaders
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_SCALAR_TAGS = {
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", _STR,
}


@dataclass
class Node:
    """A value read from YAML, with where it stood. `value` holds plain Python data
    for scalars, a dict of str -> Node for mappings and a list of Node for sequences."""

    value: Any
    line: int
    col: int
    path: str
    plain: bool = False          # an unquoted scalar (so YAML chose its type)
    source: str = ""             # the scalar exactly as written
    key_nodes: dict[str, "Node"] = field(default_factory=dict)

    def error(self, message: str) -> InputError:
        return InputError(message, self.path, self.line, self.col)

    # -- typed accessors: each refuses the wrong kind with a message naming the fix
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    def is_seq(self) -> bool:
        return isinstance(self.value, list)

    def as_map(self, what: str) -> dict[str, "Node"]:
        if not isinstance(self.value, dict):
            raise self.error(f"{what} must be a mapping (key: value lines), not {describe(self)}")
        return self.value

    def as_seq(self, what: str) -> list["Node"]:
        if not isinstance(self.value, list):
            raise self.error(f"{what} must be a list (like [a, b]), not {describe(self)}")
        return self.value

    def as_str(self, what: str) -> str:
        if isinstance(self.value, str):
            if not self.value.strip():
                raise self.error(f"{what} is empty")
            return self.value
        if self.plain and isinstance(self.value, (int, float, bool)) or self.value is None and self.plain and self.source:
            raise self.error(
                f"{what} {self.source!r} reads as {type_word(self.value)} in YAML; "
                f"put it in quotes: \"{self.source}\"")
        raise self.error(f"{what} must be text, not {describe(self)}")

    def as_int(self, what: str, minimum: int | None = 0, maximum: int | None = 10_000) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.error(f"{what} must be a whole number, not {describe(self)}")
        if minimum is not None and self.value < minimum:
            raise self.error(f"{what} must be at least {minimum}, not {self.value}")
        if maximum is not None and self.value > maximum:
            raise self.error(f"{what} must be at most {maximum}, not {self.value}")
        return self.value

    def as_bool(self, what: str) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"{what} must be true or false, not {describe(self)}")
        return self.value

    def plain_data(self) -> Any:
        """The value with positions stripped (for answers and free text)."""
        if isinstance(self.value, dict):
            return {k: v.plain_data() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain_data() for v in self.value]
        return self.value


def type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "a true/false value"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if value is None:
        return "nothing (null)"
    return "text"


def describe(node: Node) -> str:
    if isinstance(node.value, dict):
        return "a mapping"
    if isinstance(node.value, list):
        return "a list"
    if node.value is None:
        return "an empty value"
    return f"{type_word(node.value)} ({node.source or node.value!r})"


def _scalar(node: yaml.ScalarNode) -> Any:
    tag = node.tag
    if tag == _STR:
        return node.value
    constructor = yaml.constructor.SafeConstructor()
    return constructor.construct_object(node, deep=True)


def _build(node: yaml.Node, path: str, depth: int = 0) -> Node:
    line, col = node.start_mark.line + 1, node.start_mark.column + 1
    if depth > 100:
        raise InputError("nesting is too deep", path, line, col)
    if isinstance(node, yaml.ScalarNode):
        if node.tag not in _SCALAR_TAGS:
            raise InputError(f"unsupported tag {node.tag!r}; remove it", path, line, col)
        try:
            value = _scalar(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise InputError(f"cannot read value {node.value!r}: {exc}", path, line, col) from None
        if isinstance(value, float) and value != value:  # .nan
            value = node.value
        plain = node.style is None or node.style == ""
        return Node(value, line, col, path, plain=plain, source=node.value)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _SEQ:
            raise InputError(f"unsupported tag {node.tag!r}; remove it", path, line, col)
        return Node([_build(item, path, depth + 1) for item in node.value], line, col, path)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _MAP:
            raise InputError(f"unsupported tag {node.tag!r}; remove it", path, line, col)
        result: dict[str, Node] = {}
        keys: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = _build(key_node, path, depth + 1)
            if isinstance(key.value, (dict, list)):
                raise key.error("a key must be a plain word, not a list or mapping")
            if key.source == "<<" and key.plain:
                raise key.error("merge keys (<<) are not supported; write the keys out")
            name = key.source if isinstance(key.value, (bool, int, float)) or key.value is None else str(key.value)
            if name in result:
                first = keys[name]
                raise key.error(f"duplicate key {name!r} (first given at line {first.line}); keep only one")
            keys[name] = key
            result[name] = _build(value_node, path, depth + 1)
        return Node(result, line, col, path, key_nodes=keys)
    raise InputError("unsupported YAML construct", path, line, col)  # pragma: no cover


def parse(text: str, path: str) -> Node | None:
    """Parse one YAML document; None for an empty file. Raises InputError."""
    if "\x00" in text:
        pos = text.index("\x00")
        line = text.count("\n", 0, pos) + 1
        raise InputError("the file contains binary data (a NUL byte); is it really a YAML file?", path, line, 1)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        col = exc.start - (text.rfind("\n", 0, exc.start) + 1) + 1
        raise InputError("the text holds a character that is not valid Unicode; retype or delete it", path, line, col) from None
    try:
        docs = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(f"not valid YAML: {problem}", path, *where) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", path) from None
    except RecursionError:
        raise InputError("not valid YAML: nesting is too deep", path) from None
    docs = [d for d in docs if d is not None]
    if not docs:
        return None
    if len(docs) > 1:
        second = docs[1]
        raise InputError("more than one YAML document (---) in the file; keep one per file",
                         path, second.start_mark.line + 1, second.start_mark.column + 1)
    try:
        return _build(docs[0], path)
    except RecursionError:
        raise InputError("nesting is too deep", path) from None


def read_file(path: str) -> Node | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError("the file is not UTF-8 text (is it binary?)", path, line, 1) from None
    return parse(text, path)


def check_keys(node: Node, allowed: list[str], what: str, required: tuple[str, ...] = ()) -> dict[str, Node]:
    """A mapping whose keys must come from `allowed`, with a did-you-mean for the rest."""
    import difflib

    mapping = node.as_map(what)
    for key in mapping:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f" - did you mean {close[0]!r}?" if close else f"; allowed keys: {', '.join(allowed)}"
            raise node.key_nodes[key].error(f"unknown key {key!r} in {what}{hint}")
    for key in required:
        if key not in mapping:
            raise node.error(f"{what} is missing the required key {key!r}")
    return mapping


def load_plain(text: str, path: str = "<text>"):
    """Plain data from YAML text, read exactly as the strict reader reads it."""
    node = parse(text, path)
    return None if node is None else node.plain_data()
