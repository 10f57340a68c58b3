"""Ordinary English words: did-you-mean leaves them alone (rulings.query.suggest).

`is_english(word)` answers from rulings/english-words.txt, a plain list of about 45,000
lower-case words read once per process, and only when a query holds a word that no
ruling, card name or table-talk entry contains (a few milliseconds).

The list was made once from the English word-frequency table that pyspellchecker
0.9.1 ships (MIT licence; word counts from the OpenSubtitles corpus), and is kept here
as data rather than as a dependency: the package is 7 MB for the one table, and reading
its 160,000 counts takes 0.13 s, a third of a cold search's budget. Kept: every word
counted at least MIN_COUNT times (rarer entries are mostly names and obscure words that
would hide typos: at 50, one typo in 20 of the rulings' own words is some rare word,
at 100 one in 30), apostrophes dropped as queries are matched without them (dont,
thats). To make it again, from that package's en.json.gz:

    python -m rulings.english path/to/spellchecker/resources/en.json.gz
"""

from __future__ import annotations

import functools
import sys
from importlib import resources

FILE = "english-words.txt"
MIN_COUNT = 100


@functools.lru_cache(maxsize=1)
def words() -> frozenset[str]:
    text = (resources.files("rulings") / FILE).read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def is_english(word: str) -> bool:
    """True for an ordinary English word (lower case, apostrophes dropped)."""
    return word.lower().replace("'", "").replace("\u2019", "") in words()


def generate(counts: dict[str, int], min_count: int = MIN_COUNT) -> list[str]:
    """The list's lines from a word -> count table."""
    words = {w.lower().replace("'", "") for w, n in counts.items() if n >= min_count}
    kept = sorted(w for w in words if w.isalpha() and w.isascii())
    header = [f"# English words for did-you-mean (rulings/english.py): pyspellchecker 0.9.1's",
              f"# English frequency table (MIT), words counted at least {min_count} times; {len(kept)} words."]
    return header + kept


def main(argv: list[str]) -> int:
    import gzip
    import json
    from pathlib import Path

    if len(argv) != 1:
        print("usage: python -m rulings.english path/to/en.json.gz", file=sys.stderr)
        return 2
    with gzip.open(argv[0], "rt", encoding="utf-8") as fh:
        counts = json.load(fh)
    out = Path(__file__).with_name(FILE)
    out.write_text("\n".join(generate(counts)) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
