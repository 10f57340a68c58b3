"""Variants of the game, chosen by one function (`variant_for`), as python-chess picks
a board's variant.

The rules core (`adjudicator.core.Core`) asks its variant the few questions where a
variant changes the game itself; `Variant` answers them as the standard game does.
Solo Fluxx (`adjudicator.solo.SoloFluxx`) is the other variant. Parts of the rules that
only some decks bring (attaching Creepers, Secrets, Dangers) are systems instead
(`adjudicator.systems`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.core import Core
    from adjudicator.movement import Move
    from adjudicator.state import State


class Variant:
    """The standard game: every question answered as the rulebook's standard game does."""

    name: ClassVar[str] = "standard"
    # whether `replace_move` may replace a move (asked of every move only when it may)
    replaces_moves: ClassVar[bool] = False

    def knocked_out_rejoins(self, core: Core, player: str) -> bool:
        """The variant's own way with a knocked-out player (True: handled)."""
        return False

    def score(self, core: Core, met: dict[str, list[int]]) -> bool:
        """Score Goals instead of winning by them (True: scored)."""
        return False

    def deck_ran_out(self, core: Core) -> None:
        """Both piles are needed to draw: the standard game reshuffles; a variant may
        end the game here."""

    def rules_displaced(self, core: Core, card: int) -> tuple[list[int], tuple[str, ...]]:
        """The rules in play that the new rule `card` displaces, and the rulings that say so."""
        st = core.state
        displaced = core.graph.displaced_by(st.defs[card].key, [st.defs[r].key for r in st.rules])
        return [r for r in st.rules if st.defs[r].key in displaced], ()

    def between_turns(self, core: Core, player: str) -> str | None:
        """What happens between `player`'s turn and the next: the player whose turn is
        next, or None to go on as usual."""
        return None

    def replace_move(self, core: Core, move: Move) -> Move | None:
        """The variant's own replacement of a move (asked when `replaces_moves`)."""
        return None


STANDARD = Variant()


def variant_for(state: State) -> Variant:
    """The variant a table is played under: Solo Fluxx for a Solo table, else the
    standard game.

    >>> from adjudicator.state import State
    >>> variant_for(State(defs=[], players=["Ann", "Ben"], hands={}, keepers={})).name
    'standard'
    """
    if state.solo:
        from adjudicator.solo import SOLO

        return SOLO
    return STANDARD
