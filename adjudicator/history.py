"""What has happened in the game, as typed entries: each game action (a card played,
a free action used, a Surprise played out of turn) with its kind, the card, who made
it and the step it came in. Rules read the history by kind and by what the card's
mechanic declares, never by the words of an explanation: a card declared `like:`
another reads exactly as that card does.
"""

from __future__ import annotations

from typing import NamedTuple

PLAY, USE, SURPRISE = "play", "use", "surprise"
KINDS = (PLAY, USE, SURPRISE)
KEPT = 60          # entries kept: enough for any window still open


class Happened(NamedTuple):
    """One game action: `kind` (play, use, surprise), the card's catalogue key and
    printed name, the player who made it, and the step (`State.serial`). (A named
    tuple, as unchangeable as a frozen dataclass and built faster: one is built for
    every card played or free action used.)"""

    kind: str
    card: str
    name: str
    by: str
    serial: int

    def words(self) -> str:
        """The action as the verdict names it ("Ann's use of Mystery Play")."""
        if self.kind == SURPRISE:
            return f"{self.by}'s {self.name}"
        return f"{self.by}'s {'use' if self.kind == USE else 'play'} of {self.name}"
