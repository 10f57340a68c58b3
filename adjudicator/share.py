"""Share strings: a whole scenario as one short, URL-safe line (`fj1.…`).

A share string holds the scenario's plain data (every key of the file: table,
events, question, variations, declared cards, expectations, notes), so decoding
gives the same document; only comments and layout are not kept. Format `fj1`:

    "fj1." + base64url-without-padding( FLAG + BODY )

FLAG is 0 when BODY is the token stream itself and 1 when it is that stream
compressed with raw deflate (whichever is shorter), primed with a preset dictionary
(the word list, then data/share/prose-v1.txt: common words of dispute prose). The token stream is one value:

    0 null   1 false   2 true   3 int (zigzag varint)   4 text (varint length, UTF-8)
    5 word (varint: a line of data/share/words-v1.txt)   6 copies (word, varint N: "WORD xN")
    7 list (varint count, values)   8 mapping (varint count, key and value pairs)
    9 dotted (word, word: "WORD.WORD", e.g. `Ann.hand`)   10 decimal (as text)

The word list (data/share/words-v1.txt) holds the format's keys, common values and every card title the
catalogue had when `fj1` was fixed; both files are frozen (tests hold their digests), so old
strings keep their meaning whatever the catalogue becomes. Cards added later are
stored as text. A later format takes a new prefix and keeps decoding `fj1.`.

Decoding is bounded before anything grows: the string's length, the inflated size
(limits.MAX_FILE_BYTES), nesting, values and text lengths (the YAML reader's limits);
the document then goes through the strict scenario loader like any file.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import re
import zlib
from importlib import resources
from typing import Any

from adjudicator.errors import InputError
from adjudicator.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_SCALAR_CHARS

PREFIX = "fj1."
MAX_SHARE_CHARS = 100_000        # a share string; a real dispute needs a few hundred characters
SHOWN_AS = "share string"        # the "file" named in messages: "share string: cut short (...)"
_ANY_PREFIX = re.compile(r"^fj(\d+)\.")
_COPIES = re.compile(r"^(.*?) x(\d+)$")

_NULL, _FALSE, _TRUE, _INT, _TEXT, _WORD, _COPIES_TAG, _LIST, _MAP, _DOTTED, _DECIMAL = range(11)


class ShareError(InputError):
    """A share string that cannot be read: says what is wrong in one line."""

    def __init__(self, message: str):
        super().__init__(message, SHOWN_AS)


@functools.lru_cache(maxsize=None)
def words(version: int = 1) -> tuple[str, ...]:
    text = (resources.files("adjudicator") / "data" / "share" / f"words-v{version}.txt").read_text(encoding="utf-8")
    return tuple(line for line in text.split("\n") if line and not line.startswith("#"))


@functools.lru_cache(maxsize=None)
def _index(version: int = 1) -> dict[str, int]:
    return {w: i for i, w in enumerate(words(version))}


@functools.lru_cache(maxsize=None)
def _primer(version: int = 1) -> bytes:
    """The deflate preset dictionary: the words, then common words of dispute prose
    (most frequent last, where deflate reaches them with the shortest distances)."""
    text = (resources.files("adjudicator") / "data" / "share" / f"prose-v{version}.txt").read_text(encoding="utf-8")
    prose = [line for line in text.split("\n") if line and not line.startswith("#")]
    return ("\n".join(words(version)) + "\n" + " ".join(reversed(prose))).encode("utf-8")


def looks_like_share(text: str) -> bool:
    """Whether a command-line argument is a share string rather than a file name (a file
    that exists under such a name, say `fj1.yaml`, is read as the file)."""
    import os

    return bool(_ANY_PREFIX.match(text.strip())) and not os.path.exists(text)


# --------------------------------------------------------------------------- encoding

def _varint(n: int, out: bytearray) -> None:
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def _put(value: Any, out: bytearray, index: dict[str, int]) -> None:
    if value is None:
        out.append(_NULL)
    elif value is True or value is False:
        out.append(_TRUE if value else _FALSE)
    elif isinstance(value, int):
        out.append(_INT)
        _varint(value * 2 if value >= 0 else -value * 2 - 1, out)
    elif isinstance(value, float):
        out.append(_DECIMAL)
        _text(repr(value), out)
    elif isinstance(value, str):
        if value in index:
            out.append(_WORD)
            _varint(index[value], out)
            return
        m = _COPIES.match(value)
        if m and m.group(1) in index and not m.group(2).startswith("0") and len(m.group(2)) < 10:
            out.append(_COPIES_TAG)
            _varint(index[m.group(1)], out)
            _varint(int(m.group(2)), out)
            return
        head, dot, tail = value.partition(".")
        if dot and head in index and tail in index:
            out.append(_DOTTED)
            _varint(index[head], out)
            _varint(index[tail], out)
            return
        out.append(_TEXT)
        _text(value, out)
    elif isinstance(value, list):
        out.append(_LIST)
        _varint(len(value), out)
        for item in value:
            _put(item, out, index)
    elif isinstance(value, dict):
        out.append(_MAP)
        _varint(len(value), out)
        for key, item in value.items():
            _put(key, out, index)
            _put(item, out, index)
    else:
        raise TypeError(f"a scenario holds no {type(value).__name__}")


def _text(text: str, out: bytearray) -> None:
    data = text.encode("utf-8")
    _varint(len(data), out)
    out += data


def encode(doc: dict[str, Any]) -> str:
    """The share string of a scenario's plain data (as the strict reader reads a file)."""
    body = bytearray()
    _put(doc, body, _index(1))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _primer(1))
    packed = packer.compress(bytes(body)) + packer.flush()
    payload = b"\x01" + packed if len(packed) < len(body) else b"\x00" + bytes(body)
    return PREFIX + base64.urlsafe_b64encode(payload).decode("ascii").rstrip("=")


# --------------------------------------------------------------------------- decoding

class _Reader:
    def __init__(self, data: bytes, table: tuple[str, ...]):
        self.data = data
        self.at = 0
        self.table = table
        self.values = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise ShareError("cut short (copy the whole line)")
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                return n
            shift += 7
            if shift > 63:
                raise ShareError("damaged (a number is too long)")

    def word(self) -> str:
        i = self.varint()
        if i >= len(self.table):
            raise ShareError(f"damaged (it names word {i}; format fj1 has {len(self.table)})")
        return self.table[i]

    def text(self) -> str:
        n = self.varint()
        if n > MAX_SCALAR_CHARS * 4:
            raise ShareError(f"it holds a text longer than {MAX_SCALAR_CHARS:,} characters")
        if self.at + n > len(self.data):
            raise ShareError("cut short (copy the whole line)")
        raw = self.data[self.at:self.at + n]
        self.at += n
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ShareError("damaged (a text is not UTF-8)") from None

    def count(self) -> int:
        n = self.varint()
        if n > len(self.data) - self.at:      # every item takes at least one byte
            raise ShareError("damaged (a list is longer than the string)")
        return n

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ShareError(f"it nests more than {MAX_DEPTH} deep")
        self.values += 1
        if self.values > MAX_NODES:
            raise ShareError(f"it holds more than {MAX_NODES:,} values")
        tag = self.byte()
        if tag == _NULL:
            return None
        if tag in (_FALSE, _TRUE):
            return tag == _TRUE
        if tag == _INT:
            z = self.varint()
            return z // 2 if z % 2 == 0 else -(z + 1) // 2
        if tag == _TEXT:
            return self.text()
        if tag == _WORD:
            return self.word()
        if tag == _COPIES_TAG:
            return f"{self.word()} x{self.varint()}"
        if tag == _DOTTED:
            return f"{self.word()}.{self.word()}"
        if tag == _DECIMAL:
            try:
                number = float(self.text())
            except ValueError:
                raise ShareError("damaged (a bad decimal number)") from None
            if not math.isfinite(number):
                raise ShareError("damaged (a decimal number is not finite)")
            return number
        if tag == _LIST:
            return [self.value(depth + 1) for _ in range(self.count())]
        if tag == _MAP:
            out: dict[str, Any] = {}
            for _ in range(self.count()):
                key = self.value(depth + 1)
                if not isinstance(key, str):
                    raise ShareError("damaged (a key is not text)")
                if key in out:
                    raise ShareError(f"damaged (the key {key[:40]!r} appears twice)")
                out[key] = self.value(depth + 1)
            return out
        raise ShareError(f"damaged (unknown token {tag})")


def decode(text: str) -> dict[str, Any]:
    """The scenario document a share string holds. Raises ShareError naming what is wrong."""
    text = "".join(text.split())          # a line broken by a mail program still reads
    if len(text) > MAX_SHARE_CHARS:
        raise ShareError(f"it is {len(text):,} characters long; at most {MAX_SHARE_CHARS:,} are read")
    m = _ANY_PREFIX.match(text)
    if not m:
        raise ShareError(f"it does not start with {PREFIX!r}")
    if m.group(0) != PREFIX:
        raise ShareError(f"it is of format fj{m.group(1)[:6]}, newer than this fluxx-judge reads "
                         f"({PREFIX!r}); update fluxx-judge")
    body = text[len(PREFIX):]
    if not re.fullmatch(r"[A-Za-z0-9_-]*", body):
        bad = next(ch for ch in body if not (ch.isascii() and (ch.isalnum() or ch in "_-")))
        raise ShareError(f"it holds {bad!r}, which no share string contains (copy the whole line)")
    try:
        payload = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise ShareError("cut short or damaged (copy the whole line)") from None
    if not payload:
        raise ShareError("it is empty after its prefix")
    flag, data = payload[0], payload[1:]
    if flag == 1:
        unpacker = zlib.decompressobj(-15, _primer(1))
        try:
            data = unpacker.decompress(data, MAX_FILE_BYTES)
        except zlib.error:
            raise ShareError("damaged (it does not inflate)") from None
        if unpacker.unconsumed_tail:
            raise ShareError(f"it inflates to more than {MAX_FILE_BYTES:,} bytes")
        if not unpacker.eof:
            raise ShareError("cut short (copy the whole line)")
        if unpacker.unused_data:
            raise ShareError("damaged (it has bytes left over)")
    elif flag != 0:
        raise ShareError("damaged (unknown packing)")
    reader = _Reader(data, words(1))
    doc = reader.value()
    if reader.at != len(data):
        raise ShareError("damaged (it has bytes left over)")
    if not isinstance(doc, dict):
        raise ShareError("it does not hold a scenario (a scenario is a mapping)")
    return doc


def document_text(doc: dict[str, Any]) -> str:
    """The document as text the strict YAML reader reads back to the same data (JSON is
    YAML, and escapes every character exactly). Messages about a share string give
    lines of this text; `fluxx-judge share --show LINE` prints it."""
    return json.dumps(doc, ensure_ascii=True, indent=1)    # ASCII: no character YAML refuses
