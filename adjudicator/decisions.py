"""Decisions: how the engine asks a player (or chance, or the table) to choose.

When a rule needs a choice the engine raises `NeedDecision` with a `Decision` naming
who decides, what kind of answer (the kinds of the scenario format) and the legal
options. The event is later re-run from the snapshot taken before it, with the
answers given so far, so the table stays plain data that can be copied at any step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ORDER = "order"      # several duties of one moment, in the order their player picks (format 1.2, item 3)
KINDS = ("discard", "discard_keepers", "card", "cards", "player", "deal", "yes_no", "number", "table", ORDER)


def keep_order(order: list[Any], kept: tuple[Any, ...]) -> list[Any]:
    """`order` with the options of `kept` put back in their own order (an `order`
    decision's duties that a sequence fixes among themselves).

    >>> keep_order(["B", "x", "A"], ("A", "B"))
    ['A', 'x', 'B']
    """
    fixed = iter([o for o in kept if o in order])
    return [next(fixed) if o in kept else o for o in order]


@dataclass
class Decision:
    kind: str
    by: str
    prompt: str
    options: list[Any] = field(default_factory=list)   # card ids, player names or numbers
    count: int | None = None        # exact number of cards (discard...) or max (cards)
    minimum: int = 0
    chance: bool = False            # answered by `random:` or the seeded generator
    option_names: list[str] = field(default_factory=list)
    cites: tuple[str, ...] = ()     # the rulings that say who makes this choice
    fate: tuple[str, str] | None = None   # what becomes of the card(s) picked, and of the others
    kept: tuple[str, ...] = ()      # for an order: options that keep this order among themselves
    recipients: tuple[str, ...] = ()   # for a deal: the players who may be given cards, in seat order from `by`

    def describe(self) -> str:
        who = "chance" if self.chance else self.by
        return f"{who} must decide ({'random' if self.chance else self.kind}): {self.prompt}"

    def outcome(self, picked: Any) -> str:
        """An answer told by what it does to every option: "Toast goes; Baked Goods
        stays" (or "Ann chooses Toast" when the decision does not say what follows)."""
        from adjudicator.names import normalize

        chosen = list(picked) if isinstance(picked, (list, tuple)) else [picked]
        shown = {normalize(n): n for n in self.option_names}
        chosen = [shown.get(normalize(str(c)), str(c)) for c in chosen]
        if self.fate is None or self.kind not in ("card", "cards", "discard", "discard_keepers"):
            who = "chance picks" if self.chance else f"{self.by} chooses"
            return f"{who} {', '.join(chosen) or 'nothing'}"
        rest = list(self.option_names)
        for c in chosen:
            if c in rest:
                rest.remove(c)
        picked_fate, rest_fate = self.fate
        parts = [f"{_and(chosen) or 'nothing'} {_verb(picked_fate, len(chosen))}"]
        if rest:
            parts.append(f"{_and(rest)} {_verb(rest_fate, len(rest))}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "choice": "random" if self.chance else self.kind, "prompt": self.prompt,
                "options": self.option_names or [str(o) for o in self.options],
                "count": self.count, "minimum": self.minimum, "cites": list(self.cites),
                "fate": list(self.fate) if self.fate else None}


def _and(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _verb(fate: str, n: int) -> str:
    """A fate written for one card ("goes", "is discarded") agreed with `n` cards."""
    if n == 1:
        return fate
    head, _, rest = fate.partition(" ")
    plural = {"is": "are", "goes": "go", "stays": "stay", "was": "were", "has": "have"}.get(head)
    if plural:
        return f"{plural} {rest}".strip()
    return fate


@dataclass
class Answer:
    value: Any
    verb: str = "choose"            # choose | random
    line: int | None = None
    written: bool = False           # typed by a person: numbers name no card (ids are the engine's own)


class NeedDecision(Exception):
    def __init__(self, decision: Decision):
        super().__init__(decision.describe())
        self.decision = decision


class Rejected(Exception):
    """The event is not allowed now: the table is left exactly as it was."""

    def __init__(self, reason: str, ruling: str | None = None, cites: tuple[str, ...] = ()):
        super().__init__(reason)
        self.reason = reason
        self.ruling = ruling
        self.cites = tuple(dict.fromkeys(((ruling,) if ruling else ()) + tuple(cites)))


class GameEnded(Exception):
    """Raised when a player wins or everyone loses: nothing more of the event happens."""


class BadAnswer(Exception):
    """A scripted answer that does not fit the decision it was given to. `forbidden`:
    a well-formed answer that the rules do not allow (a card that is not an option, the
    wrong number of cards), which is refused while the decision stays pending; without
    it the answer is malformed, a fault in the scenario."""

    def __init__(self, message: str, forbidden: bool = False):
        super().__init__(message)
        self.forbidden = forbidden
