"""A strict YAML reader: safe loading, every value with its line and column.

PyYAML's safe loader silently keeps the last of duplicate keys, turns `4.10` into
4.1 and `yes` into True. This module composes the node tree with the safe loader
(nothing is ever constructed from tags, so nothing in a file is executed) and
builds plain values itself, so that it can refuse duplicate keys, unknown tags and
values of the wrong kind, each with the file, line and column of the offender.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

import yaml

from adjudicator.errors import InputError
from adjudicator.limits import MAX_DEPTH, MAX_DIGITS, MAX_FILE_BYTES, MAX_NODES, MAX_SCALAR_CHARS, size_text

_Loader: type[yaml.CSafeLoader] | type[yaml.SafeLoader]
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
                f"{what} {clip(self.source)!r} reads as {type_word(self.value)} in YAML; "
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
    return f"{type_word(node.value)} ({clip(node.source) or node.value!r})"


_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_NUMBER_LIKE = re.compile(r"^[-+]?(0[box])?[0-9_.,:a-fA-F]+([eE][-+]?[0-9]+)?$")


def _scalar_value(tag: str, text: str) -> Any:
    if tag == _STR:
        return text
    construct = yaml.constructor.SafeConstructor.yaml_constructors[tag]
    return construct(_CONSTRUCTOR, yaml.ScalarNode(tag, text))


def clip(text: str, width: int = 40) -> str:
    """Text as it goes into a message: long values shortened with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _key_form(name: str) -> str:
    """Keys that differ only by case or Unicode normalisation are the same key."""
    return unicodedata.normalize("NFKC", name).casefold()


class _Mark(Protocol):
    """Where the parser found something (0-based), as both PyYAML parsers mark it."""

    line: int
    column: int


def _position(mark: _Mark | None) -> tuple[int, int]:
    """The 1-based (line, column) of a parser mark; the parser marks every event."""
    assert mark is not None, "PyYAML emitted an event without a position"
    return mark.line + 1, mark.column + 1


def _implicit_tag(text: str, implicit: tuple[bool, bool]) -> str:
    """The tag YAML gives an untagged (or `!`) scalar: str, int, bool, null..."""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, text, implicit)
    return tag


_COPY_COMMENT = re.compile(r"^[ \t]+#[ \t]*(\d{1,4})[ \t]*\r?$")
_TOO_DEEP = f"nesting is too deep: more than {MAX_DEPTH} lists or mappings inside one another"


class _Builder:
    """Builds Nodes from the parser's events with an explicit stack (no recursion, so
    nesting cannot overflow the C stack), refusing what the limits forbid as it goes."""

    def __init__(self, path: str, text: str = ""):
        self.path = path
        self.text = text
        self.nodes = 0
        self.stack: list[_Frame] = []
        self.root: Node | None = None
        self.documents = 0

    def fail(self, message: str, mark: _Mark | None) -> InputError:
        return InputError(message, self.path, *_position(mark))

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail("more than one YAML document (---) in the file; keep one per file", event.start_mark)
            return
        if isinstance(event, yaml.AliasEvent):
            raise self.fail(f"aliases (*{clip(event.anchor or '', 20)}) are not allowed in these files; "
                            "write the value out in full", event.start_mark)
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if event.anchor is not None:
                raise self.fail(f"anchors (&{clip(event.anchor, 20)}) are not allowed in these files; "
                                "write each value out in full", event.start_mark)
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise self.fail(f"more than {MAX_NODES:,} values in one file; that is far beyond any scenario",
                                event.start_mark)
        if isinstance(event, yaml.ScalarEvent):
            self.add(self.scalar(event))
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(self.stack) >= MAX_DEPTH:
                raise self.fail(_TOO_DEEP, event.start_mark)
            is_map = isinstance(event, yaml.MappingStartEvent)
            want = _MAP if is_map else _SEQ
            if event.tag is not None and event.tag not in ("!", want):
                raise self.fail(f"unsupported tag {clip(event.tag)!r}; remove it", event.start_mark)
            line, col = _position(event.start_mark)
            self.stack.append(_Frame(Node({} if is_map else [], line, col, self.path)))
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            self.add(self.stack.pop().node)

    def scalar(self, event: yaml.ScalarEvent) -> Node:
        mark = event.start_mark
        text = event.value
        if len(text) > MAX_SCALAR_CHARS:
            raise self.fail(f"a value of {len(text):,} characters; values are at most {MAX_SCALAR_CHARS:,}", mark)
        plain = event.style is None or event.style == ""
        tag = event.tag
        if tag is None or tag == "!":
            tag = _implicit_tag(text, event.implicit)
        if tag not in _SCALAR_TAGS:
            raise self.fail(f"unsupported tag {clip(tag)!r}; remove it", mark)
        if tag != _STR and _NUMBER_LIKE.match(text) and sum(ch.isdigit() for ch in text) > MAX_DIGITS:
            raise self.fail(f"a number of {sum(ch.isdigit() for ch in text):,} digits; numbers have at most "
                            f"{MAX_DIGITS} digits", mark)
        try:
            value = _scalar_value(tag, text)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise self.fail(f"cannot read value {clip(text)!r}: {clip(str(exc), 80)}", mark) from None
        if isinstance(value, float) and value != value:  # .nan
            value = text
        if plain and isinstance(value, str):
            copy = self._copy_mark(event)
            if copy:
                value = text = f"{value} #{copy}"
        return Node(value, *_position(mark), self.path, plain=plain, source=text)

    def _copy_mark(self, event: yaml.ScalarEvent) -> str | None:
        """The scenario format writes one copy among several as `NAME #K` (1.2, item 1),
        which YAML would read as a name and a comment: a plain text followed on its
        line by nothing but `#` and a number keeps that number as part of it."""
        end = event.end_mark
        if end is None or not self.text:
            return None
        stop = self.text.find("\n", end.index)
        rest = self.text[end.index:stop if stop >= 0 else len(self.text)]
        m = _COPY_COMMENT.match(rest)
        return m.group(1) if m else None

    def add(self, node: Node) -> None:
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        parent = frame.node
        if isinstance(parent.value, list):
            parent.value.append(node)
        elif frame.key is None:
            self.key(frame, node)
        else:
            parent.value[self.key_name(frame.key)] = node
            frame.key = None

    def key_name(self, key: Node) -> str:
        return key.source if isinstance(key.value, (bool, int, float)) or key.value is None else str(key.value)

    def key(self, frame: "_Frame", key: Node) -> None:
        if isinstance(key.value, (dict, list)):
            raise key.error("a key must be a plain word, not a list or mapping")
        if key.source == "<<" and key.plain:
            raise key.error("merge keys (<<) are not supported; write the keys out")
        name = self.key_name(key)
        form = _key_form(name)
        if form in frame.forms:
            other = frame.forms[form]
            first = frame.node.key_nodes[other]
            if other == name:
                raise key.error(f"duplicate key {clip(name)!r} (first given at line {first.line}); keep only one")
            raise key.error(f"duplicate key {clip(name)!r}: it is {clip(other)!r} (line {first.line}) "
                            "written differently (case or Unicode form); keep only one")
        frame.forms[form] = name
        frame.node.key_nodes[name] = key
        frame.key = key


@dataclass
class _Frame:
    """A list or mapping being built: for a mapping, the key awaiting its value and the
    keys seen so far by their case- and form-folded spelling."""

    node: Node
    key: Node | None = None
    forms: dict[str, str] = field(default_factory=dict)


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def parse(text: str, path: str) -> Node | None:
    """Parse one YAML document; None for an empty file. Raises InputError."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise InputError(f"the text is {size_text(size)}; files of at most {size_text(MAX_FILE_BYTES)} are read",
                         path, *_where(text, min(len(text), MAX_FILE_BYTES)))
    if "\x00" in text:
        line, _ = _where(text, text.index("\x00"))
        raise InputError("the file contains binary data (a NUL byte); is it really a YAML file?", path, line, 1)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError("the text holds a character that is not valid Unicode; retype or delete it", path,
                         *_where(text, exc.start)) from None
    builder = _Builder(path, text)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = exc.problem or exc.context or "malformed YAML"
        if "nesting" in problem and "depth" in problem:
            # the parser's own depth limit (libyaml's, from PyYAML 6.0.4) can fire before ours,
            # when a flow collection opens many levels before its first event: one message
            raise InputError(_TOO_DEEP, path, *where) from None
        raise InputError(f"not valid YAML: {problem}", path, *where) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {clip(str(exc), 120)}", path) from None
    return builder.root


def read_file(path: str) -> Node | None:
    """Parse a YAML file: a regular file of at most MAX_FILE_BYTES of UTF-8 text."""
    from adjudicator.textfiles import read_text, shown_path

    return parse(read_text(path), shown_path(path))


def check_keys(node: Node, allowed: list[str], what: str, required: tuple[str, ...] = ()) -> dict[str, Node]:
    """A mapping whose keys must come from `allowed`, with a did-you-mean for the rest."""
    import difflib

    mapping = node.as_map(what)
    for key in mapping:
        if key not in allowed:
            close = difflib.get_close_matches(key[:40], allowed, n=1, cutoff=0.6)
            hint = f" - did you mean {close[0]!r}?" if close else f"; allowed keys: {', '.join(allowed)}"
            raise node.key_nodes[key].error(f"unknown key {clip(key)!r} in {what}{hint}")
    for key in required:
        if key not in mapping:
            raise node.error(f"{what} is missing the required key {key!r}")
    return mapping


def from_plain(value: Any, path: str, line: int = 1, col: int = 1) -> Node:
    """A Node tree for plain data read from elsewhere (JSON), every node placed at
    `line` and `col`, so that the readers written for YAML check it the same way.
    Only JSON's kinds are taken (text, numbers, true/false, null, lists, mappings with
    text keys); depth and size are the caller's to bound."""
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise InputError("a mapping key that is not text", path, line, col)
        return Node({k: from_plain(v, path, line, col) for k, v in value.items()}, line, col, path,
                    key_nodes={k: Node(k, line, col, path) for k in value})
    if isinstance(value, list):
        return Node([from_plain(v, path, line, col) for v in value], line, col, path)
    if value is None or isinstance(value, (str, int, float, bool)):
        return Node(value, line, col, path, source=value if isinstance(value, str) else "")
    raise InputError(f"a value of an unknown kind ({type(value).__name__})", path, line, col)


def load_plain(text: str, path: str = "<text>") -> Any:
    """Plain data from YAML text, read exactly as the strict reader reads it."""
    node = parse(text, path)
    return None if node is None else node.plain_data()
