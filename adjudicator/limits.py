"""The bounds every reader enforces, in one place.

A scenario file, an imported FAQ or anything the app opens is refused, with the file,
line and column and the limit it broke, before it can cost more than a few seconds or
a few hundred megabytes. The figures are far above anything a real dispute needs (a
whole game of Fluxx uses about a hundred cards) and far below what hurts.
"""

from __future__ import annotations

MAX_FILE_BYTES = 1_000_000       # a scenario, an imported FAQ page, a file the app opens
MAX_DEPTH = 32                   # nested lists and mappings (a scenario needs about 6)
MAX_NODES = 50_000               # values of every kind in one YAML file (a scenario has a few hundred)
MAX_SCALAR_CHARS = 20_000        # one value (a long note is a few hundred)
MAX_DIGITS = 30                  # digits in one number
MAX_NAME_CHARS = 100             # a card name, a player name, an id (the longest card name has 47)
MAX_TABLE_CARDS = 1_000          # cards on the table, copies and `? xN` counted
MAX_CARD_REFS = 5_000            # cards named anywhere in one scenario, copies counted
MAX_COPIES = 500                 # N in one `NAME xN`
MAX_EVENTS = 1_000               # events in one scenario (a dispute needs a few dozen)
MAX_INGEST_LINES = 50_000        # lines in one imported FAQ file (the official FAQ page has 400)
MAX_INGEST_QUESTIONS = 5_000     # questions in one imported FAQ file (the whole online FAQ has about 2,300)
MAX_SUGGEST_CHARS = 64           # only this much of an unknown name is compared for suggestions


def size_text(n: int) -> str:
    """A byte count for messages: '1 MB', '250 KB', '12 bytes'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}".rstrip("0").rstrip(".") + " MB"
    if n >= 1_000:
        return f"{n / 1_000:.1f}".rstrip("0").rstrip(".") + " KB"
    return f"{n} bytes"
