"""Events: the plays and answers a replay feeds the engine, one per scenario step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERBS = ("play", "surprise", "use", "choose", "random", "end_turn", "join", "leave")


@dataclass
class Event:
    verb: str
    card: str | None = None          # catalogue key of the card named (play/surprise/use/random)
    copy: int | None = None          # which copy of it, `NAME #K` (format 1.2, item 1); None: any that fits
    by: str | None = None            # default: the active player
    against: str | None = None       # surprise: catalogue key of the card it answers
    answers: list[Any] = field(default_factory=list)   # inline `choose:` answers
    answer: Any = None               # the answer of a `choose:` event
    note: str = ""
    line: int | None = None
    written: bool = False            # typed by a person (a scenario file): a bare number is never a card

    @property
    def key(self) -> str:
        """The catalogue key of the card a play, surprise, use or random names; the
        loader and the table's move list never make one of those without it."""
        if self.card is None:
            raise KeyError(f"`{self.verb}` names no card")
        return self.card

    def describe(self) -> str:
        if self.verb == "end_turn":
            text = "end_turn"
        elif self.verb == "choose":
            text = f"choose: {self.answer!r}"
        elif self.verb in ("join", "leave"):
            text = f"{self.verb}: {self.answer}"
        else:
            text = f"{self.verb}: {self.card}" + (f" #{self.copy}" if self.copy is not None else "")
        if self.by:
            text += f" by {self.by}"
        if self.against:
            text += f" against {self.against}"
        return text
