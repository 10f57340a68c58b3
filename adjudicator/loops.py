"""Bounds for an effect that repeats one step until something turns up (Mystery Play
turning cards over until one is not a Creeper).

Such an effect can come back to where it was: a Creeper turned up, cured at once
(Scurvy before Limes), reshuffled into the draw pile and turned up again, for ever.
`EffectLoop.again()` is asked before each further round: once the table is back in a
position it was in at an earlier round of the same effect, or the rounds outnumber
the cards in the game (a cycle through a shuffle that never returns to one order),
it says so in the verdict and answers False, and the effect ends there. The official
material does not cover an effect that cannot end; the verdict says that too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore
    from adjudicator.state import State


def zones_key(st: State) -> tuple[object, ...]:
    """Where every card is, in order, and what is attached to what: two tables with
    the same key look the same to any effect that moves cards."""
    return (tuple(tuple(st.hands[p]) for p in st.players), tuple(tuple(st.keepers[p]) for p in st.players),
            tuple(st.rules), tuple(st.meta_rules), tuple(st.goals), tuple(st.draw_pile), tuple(st.discard),
            tuple(st.resolving), tuple(st.removed), tuple(sorted(st.attachments.items())),
            tuple(tuple(t.cards) for t in st.temp_hands), tuple(sorted((c, tuple(v)) for c, v in st.under.items())))


class EffectLoop:
    """One effect's rounds; `again()` before each round after the first."""

    __slots__ = ("core", "what", "seen", "rounds", "limit")

    def __init__(self, core: RulesCore, what: str):
        self.core = core
        self.what = what
        self.seen: set[tuple[object, ...]] = set()
        self.rounds = 0
        self.limit = 2 * len(core.state.defs) + 8

    def again(self) -> bool:
        """Whether the effect may go round once more (False: it ends here, said)."""
        key = zones_key(self.core.state)
        self.rounds += 1
        if key not in self.seen and self.rounds <= self.limit:
            self.seen.add(key)
            return True
        how = ("the table is back exactly where it was earlier in this same effect" if key in self.seen else
               f"it has gone round {self.rounds - 1} times, more than there are cards in the game")
        self.core.say(f"{self.what} could go on for ever: {how}, so nothing new can come of going on. The official "
                      f"rules do not cover an effect that cannot end; the engine ends {self.what} here, with nothing "
                      "more turned up.")
        return False
