"""Decisions: how the engine asks a player (or chance, or the table) to choose.

When a rule needs a choice the engine raises `NeedDecision` with a `Decision` naming
who decides, what kind of answer (the kinds of the scenario format) and the legal
options. The event is later re-run from the snapshot taken before it, with the
answers given so far, so the table stays plain data that can be copied at any step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("discard", "discard_keepers", "card", "cards", "player", "deal", "yes_no", "number", "table")


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

    def describe(self) -> str:
        who = "chance" if self.chance else self.by
        return f"{who} must decide ({'random' if self.chance else self.kind}): {self.prompt}"

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "choice": "random" if self.chance else self.kind, "prompt": self.prompt,
                "options": self.option_names or [str(o) for o in self.options],
                "count": self.count, "minimum": self.minimum}


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


class BadAnswer(Exception):
    """A scripted answer that does not fit the decision it was given to. `forbidden`:
    a well-formed answer that the rules do not allow (a card that is not an option, the
    wrong number of cards), which is refused while the decision stays pending; without
    it the answer is malformed, a fault in the scenario."""

    def __init__(self, message: str, forbidden: bool = False):
        super().__init__(message)
        self.forbidden = forbidden
