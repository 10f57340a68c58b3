"""Every answer a decision allows, one at a time: what a search through the engine
tries at a pending decision.

Answers are generated lazily, never listed first: a choice of any number of 24 Goals
has sixteen million answers, and a search bounded in time and positions looks at the
first few. Copies of one title are interchangeable, so a choice of cards is a
combination of titles (a multiset), each generated once; a deal gives each player a
combination of what is left. Each answer comes as the event that gives it and the
same event as a scenario file writes it.

>>> [list(c) for c in combinations(["Milk", "Milk", "Bread"], 2)]
[['Bread', 'Milk'], ['Milk', 'Milk']]
>>> sum(1 for _ in combinations(["Goal %d" % i for i in range(24)], 3))
2024
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from adjudicator.decisions import ORDER
from adjudicator.names import split_copy
from adjudicator.events import Event

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.decisions import Decision
    from adjudicator.engine import Engine

Entry = dict[str, Any]


def combinations(names: Iterable[str], size: int) -> Iterator[tuple[str, ...]]:
    """Each combination of `size` of `names` (a multiset: equal names are one title),
    once, in sorted order."""
    counts = sorted(Counter(names).items())
    titles = [t for t, _ in counts]
    have = [n for _, n in counts]
    left = [0] * (len(have) + 1)         # left[i]: cards of titles i.. together
    for i in range(len(have) - 1, -1, -1):
        left[i] = left[i + 1] + have[i]
    picked: list[str] = []

    def pick(i: int, need: int) -> Iterator[tuple[str, ...]]:
        if need == 0:
            yield tuple(picked)
            return
        if i == len(titles) or left[i] < need:
            return
        for n in range(min(need, have[i]), -1, -1):     # as many of this title as may be, first
            picked.extend([titles[i]] * n)
            yield from pick(i + 1, need - n)
            del picked[len(picked) - n:]

    return pick(0, size) if 0 <= size <= left[0] else iter(())


def deals(names: list[str], players: list[str], each: int) -> Iterator[dict[str, list[str]]]:
    """Every way to give `each` of the cards to every player (copies of a title alike)."""
    if not players:
        yield {}
        return
    for hand in combinations(names, each):
        rest = list(names)
        for n in hand:
            rest.remove(n)
        for deal in deals(rest, players[1:], each):
            yield {players[0]: list(hand), **deal}


class Incomplete(str):
    """A note that a decision's answers were not all generated (a deal of a shape the
    search cannot list): the search reports it."""


def answers(engine: Engine, d: Decision) -> Iterator[tuple[Event, Entry] | Incomplete]:
    """The answers to `d`, each as (event, scenario entry); an `Incomplete` note comes
    first when only some can be listed."""
    # copies of a title are alike to the search: an answer names the title ("Milk"), not
    # the copy ("Milk #2"), and the engine takes the first copy among the options
    names = [split_copy(n)[0] for n in d.option_names] if d.option_names else [str(o) for o in d.options]
    if d.chance:
        of_cards = bool(d.options) and isinstance(d.options[0], int)
        for n in dict.fromkeys(names):
            key = engine.cat.resolve(n).key if of_cards and n != "?" else n
            yield Event("random", key), {"random": n}
        return
    values: Iterable[Any]
    if d.kind in ("yes_no", "table"):
        values = ["yes", "no"]
    elif d.kind in ("card", "player"):
        values = dict.fromkeys(names)
    elif d.kind == "number":
        values = dict.fromkeys(d.options)
    elif d.kind == ORDER:          # a few duties of one moment: every order of them
        values = (list(p) for p in permutations(names)
                  if [n for n in p if n in d.kept] == [n for n in names if n in d.kept])
    elif d.kind in ("discard", "discard_keepers", "cards"):
        sizes = [d.count or 0] if d.kind != "cards" else range(d.minimum, (d.count or len(names)) + 1)
        values = (list(c) for n in sizes for c in combinations(names, n))
    else:       # a deal
        st = engine.state
        players = list(d.recipients)
        cards = [st.defs[o].name if isinstance(o, int) else str(o) for o in d.options]
        if d.count and players and len(cards) == d.count * len(players):
            values = deals(sorted(cards), players, d.count)
        else:   # a deal of another shape: the engine's own default is tried
            yield Incomplete(f"{d.describe()} (one deal tried)")
            values = [{d.by: cards}]
    for v in values:
        yield Event("choose", answer=v), {"choose": v}
