"""Card-name matching: the normal form the scenario format promises, and suggestions.

Names match regardless of case, punctuation, spacing, "&" versus "and", and curly
versus straight quotes. Apostrophes vanish ("That's" -> "thats") so that "thats mine"
finds That's Mine; every other punctuation mark is a word break.
"""

from __future__ import annotations

import difflib
import re

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "`": "'"})
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize(name: str) -> str:
    """The key two names share exactly when the format says they are the same name."""
    text = name.translate(_QUOTES).lower().replace("&", " and ").replace("'", "")
    return " ".join(_NON_WORD.split(text)).strip()


def suggest(word: str, candidates: dict[str, str], limit: int = 3) -> list[str]:
    """Nearest display names for `word`, given a map of normal form -> display name."""
    key = normalize(word)
    close = difflib.get_close_matches(key, list(candidates), n=limit * 3, cutoff=0.6)
    if not close:
        # a typo in one word of a long name: compare word by word
        close = [k for k in candidates if any(
            difflib.SequenceMatcher(None, w, kw).ratio() > 0.8
            for w in key.split() for kw in k.split() if len(w) > 3)]
    seen: list[str] = []
    for k in close:
        shown = candidates[k]
        if shown not in seen:
            seen.append(shown)
    return seen[:limit]
