"""Names: card-name matching, suggestions, and names that could deceive a reader.

Names match regardless of case, punctuation, spacing, "&" versus "and", and curly
versus straight quotes. Apostrophes vanish ("That's" -> "thats") so that "thats mine"
finds That's Mine; every other punctuation mark is a word break.

`name_problem()` says why a name must be refused: control, invisible or
text-direction characters (which make two different names print alike or reorder
what follows), letters from more than one script (Latin "Ann" against a Cyrillic
"А" in "Аnn"), or a length beyond `limits.MAX_NAME_CHARS`. `skeleton()` is the form
two names share when a reader could confuse them (case, Unicode form, look-alike
letters), for refusing a second name that only looks different.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from typing import Callable

from adjudicator.limits import MAX_NAME_CHARS, MAX_SUGGEST_CHARS

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "`": "'"})
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize(name: str) -> str:
    """The key two names share exactly when the format says they are the same name."""
    if len(name) <= 64:                 # card and player names: asked again and again
        return _normal_form(name)
    return _normalize(name)


def _normalize(name: str) -> str:
    text = name.translate(_QUOTES).lower().replace("&", " and ").replace("'", "")
    return " ".join(_NON_WORD.split(text)).strip()


_normal_form = functools.lru_cache(maxsize=4096)(_normalize)


def suggest(word: str, candidates: dict[str, str], limit: int = 3,
            first: Callable[[str], bool] | None = None) -> list[str]:
    """Nearest display names for `word`, given a map of normal form -> display name;
    those for which `first(normal form)` holds come before the others."""
    key = normalize(word[:MAX_SUGGEST_CHARS])   # bounded work, however long the word
    close = difflib.get_close_matches(key, list(candidates), n=limit * 3, cutoff=0.6)
    if not close:
        # a typo in one word of a long name: compare word by word
        close = [k for k in candidates if any(
            difflib.SequenceMatcher(None, w, kw).ratio() > 0.8
            for w in key.split() for kw in k.split() if len(w) > 3)]
    if first is not None:
        close.sort(key=lambda k: not first(k))       # stable: nearest first within each side
    seen: list[str] = []
    for k in close:
        shown = candidates[k]
        if shown not in seen:
            seen.append(shown)
    return seen[:limit]


# Scripts that one name may mix (Japanese writes Han, Hiragana and Katakana together).
_SCRIPT_GROUPS = {"CJK": "JAPANESE-CHINESE", "HIRAGANA": "JAPANESE-CHINESE", "KATAKANA": "JAPANESE-CHINESE",
                  "HANGUL": "KOREAN"}
# Letters that print like Latin ones (the usual Cyrillic and Greek look-alikes).
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ζ": "z", "μ": "u", "0": "o", "1": "l", "ı": "i"})


_UPPER_LOOKALIKES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "Ѕ": "S", "І": "I", "Ј": "J", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X"})


def _script(ch: str) -> str | None:
    if not unicodedata.category(ch).startswith("L"):
        return None
    try:
        first = unicodedata.name(ch).split()[0]
    except ValueError:
        return "UNKNOWN"
    return _SCRIPT_GROUPS.get(first, first)


def name_problem(name: str, limit: int = MAX_NAME_CHARS) -> str | None:
    """Why `name` cannot be used as a name, or None when it is fine."""
    if len(name) <= 64 and limit == MAX_NAME_CHARS:     # card and player names: asked at every table read
        return _known_name_problem(name)
    return _name_problem(name, limit)


def _name_problem(name: str, limit: int = MAX_NAME_CHARS) -> str | None:
    if len(name) > limit:
        return f"the name is {len(name):,} characters long; names are at most {limit}"
    for i, ch in enumerate(name, 1):
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn") or cat in ("Zl", "Zp") or (cat == "Zs" and ch != " "):
            what = ("a text-direction mark" if unicodedata.bidirectional(ch) in
                    ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "AL", "R") and cat == "Cf"
                    else "an invisible or control character")
            return f"the name holds {what} (U+{ord(ch):04X} at character {i}); retype it with visible letters only"
    scripts: dict[str, int] = {}
    for i, ch in enumerate(name, 1):
        script = _script(ch)
        if script is not None:
            scripts.setdefault(script, i)
    if len(scripts) > 1:
        (a, _), (b, at) = list(scripts.items())[:2]
        return (f"the name mixes {a.title()} and {b.title()} letters (from character {at}), so it can look like "
                "a different name; write it in one script")
    return None


_known_name_problem = functools.lru_cache(maxsize=4096)(_name_problem)


def skeleton(name: str) -> str:
    """The form two names share when a reader could take one for the other."""
    text = unicodedata.normalize("NFKC", name).translate(_UPPER_LOOKALIKES).casefold()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.translate(_LOOKALIKES).split())


COPY_MARK = re.compile(r"^(.*?)\s*#\s*(\d+)$")


def split_copy(text: str) -> tuple[str, int | None]:
    """A card named with its copy (format 1.2, item 1): 'Unseen Force #2' -> ('Unseen
    Force', 2); a plain name -> (name, None).

    >>> split_copy("Unseen Force #2"), split_copy("Milk"), split_copy("Milk #0")
    (('Unseen Force', 2), ('Milk', None), ('Milk', 0))
    """
    if "#" not in text:          # (most names: no copy named, and no pattern to run)
        return text, None
    m = COPY_MARK.match(text.strip())
    if not m or len(m.group(2)) > 4:
        return text, None
    return m.group(1), int(m.group(2))
