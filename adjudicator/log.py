"""The explanation log: each line the engine says with the rulings behind it, the
result of one step, and the part of the engine that writes the lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

from adjudicator.catalogue import Catalogue
from adjudicator.decisions import Decision
from adjudicator.events import Event
from adjudicator.state import State


@dataclass
class Entry:
    """One line of explanation, with the rulings that decide it."""

    text: str
    cites: tuple[str, ...] = ()
    kind: str = ""                    # "reveal": an unseen card was revealed


def cites_of(entries: Iterable[Entry]) -> list[str]:
    """The rulings cited by explanation lines, each once, in first-cited order."""
    return list(dict.fromkeys(c for e in entries for c in e.cites))


@dataclass
class StepResult:
    event: Event
    status: str                       # done | waiting | rejected
    entries: list[Entry]
    reason: str = ""
    ruling: str | None = None
    decision: Decision | None = None
    turn_over: bool = False

    @property
    def cites(self) -> list[str]:
        return cites_of(self.entries)


class Log:
    """A part of the rules core (`adjudicator.core.Core`): the explanation of the run
    under way, each line said with the rulings that decide it. It reads the table only
    to name cards (`core.state`)."""

    def __init__(self, core: TableHolder) -> None:
        self.core = core
        self.entries: list[Entry] = []

    def say(self, text: str, *cites: str, kind: str = "") -> None:
        """One line of the explanation. `kind` marks a line that decides an outcome
        ("win", "turn_end"), so that a verdict can put it first."""
        # (most lines cite no empty slot: their cites are kept as given)
        self.entries.append(Entry(text, cites if all(cites) else tuple(filter(None, cites)), kind))

    def name(self, card: int) -> str:
        """A card as the explanation names it ("Unseen Force #2" where the table holds
        more than one copy of it)."""
        st = self.core.state            # (`State.label`, read in place: asked for every card named)
        return st.copy_labels.get(card) or st.defs[card].name

    def names(self, cards: Iterable[int]) -> str:
        cards = list(cards)
        if not cards:
            return "nothing"
        st = self.core.state
        labels, defs = st.copy_labels, st.defs
        return ", ".join([labels.get(c) or defs[c].name for c in cards])


class TableHolder(Protocol):
    """What a part of the rules core reads: the table as it now stands, and the cards."""

    state: State
    cat: Catalogue


class NamingTable(TableHolder, Protocol):
    """A table holder that also names cards (the rules core, through its Log)."""

    def name(self, card: int) -> str: ...
    def names(self, cards: Iterable[int]) -> str: ...
