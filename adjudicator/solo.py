"""Solo Fluxx: one player against the deck, as a variant of the game.

The rules core asks its variant a few questions where Solo Fluxx differs from the
standard game (`adjudicator.variants.Variant`); `SoloFluxx` answers them. A Solo table
is played under it because `variants.variant_for` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from adjudicator.decisions import GameEnded
from adjudicator.variants import Variant
from adjudicator.mechanics.base import RULE as RULE_CARD
from adjudicator.movement import (
    DISCARD, GOALS_IN_PLAY, IN_FLIGHT, RULE, RULES_DISCARD_PILE, RULES_PILE, SCORED, TURN, Move, Zone, table,
)


if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.core import Core


class SoloFluxx(Variant):
    """Solo Fluxx: rules from the Rules deck between turns, one rule per category, Goals
    scored instead of won, the game over when a deck runs out."""

    name: ClassVar[str] = "solo"
    replaces_moves: ClassVar[bool] = True

    def replace_move(self, core: Core, move: Move) -> Move | None:
        """A New Rule on its way to the discard pile, from play or from a hand, goes to
        the Rules deck's own discard pile instead."""
        if move.dst.kind != DISCARD or core.state.defs[move.card].type != RULE_CARD:
            return None
        core.say(f"In Solo Fluxx the New Rules have their own discard pile: {core.name(move.card)} goes there, not "
                 "onto the main discard pile.", "solo-zapped-new-rule-goes-to-hand")
        return move.instead(dst=RULES_DISCARD_PILE)

    def knocked_out_rejoins(self, core: Core, player: str) -> bool:
        st = core.state
        st.knock_out(player)
        st.waiting[player] = []
        core.say(f"Playing Solo, {player} will jump back in as soon as the next rule has been drawn.",
                 "rule-solo-elimination-rejoin")
        if player == st.active_player:
            core.end_turn(f"{player} was knocked out", immediately=True)
        return True

    def score(self, core: Core, met: dict[str, list[int]]) -> bool:
        self.solo_score(core, met)
        return True

    def deck_ran_out(self, core: Core) -> None:
        self.end_solo(core, "the main deck has run out")

    def rules_displaced(self, core: Core, card: int) -> tuple[list[int], tuple[str, ...]]:
        st = core.state
        mine = self.solo_category(core, card)
        return [r for r in st.rules if self.solo_category(core, r) == mine], ("rule-solo-rule-slots",)

    def between_turns(self, core: Core, player: str) -> str | None:
        self.solo_rules_step(core, player)      # Solo turns alternate with a rule from the Rules deck
        return player

    def solo_category(self, core: Core, rule: int) -> str:
        """Solo allows one rule of each category: draw, play, limit and other."""
        slots = core.graph.slots_of(core.state.defs[rule].key)
        for name, members in (("draw", {"draw"}), ("play", {"play"}), ("limit", {"hand_limit", "keeper_limit"})):
            if slots & members:
                return name
        return "other"

    def solo_rules_step(self, core: Core, player: str) -> None:
        """Between two Solo turns the top card of the Rules deck goes into play."""
        st = core.state
        if not st.rules_pile:
            self.end_solo(core, "the Rules deck has run out")
        rule = st.rules_pile[0]
        core.transfer(rule, IN_FLIGHT, src=Zone(RULES_PILE), cause=TURN)
        core.say(f"Between turns, {core.name(rule)} is turned up from the Rules deck and goes straight into play.",
                 "rule-solo-turn-alternation")
        core.place_rule(rule, player)
        if player in st.eliminated:
            st.bring_back(player)
            st.waiting.pop(player, None)
            core.say(f"A rule has been drawn, so {player} jumps right back in with a fresh hand of 3.",
                     "rule-solo-elimination-rejoin")
            core.deal_in(player)
        if core.hand_limit(player) is not None or core.keeper_limit(player) is not None:
            core.say(f"{player} complies with the limits before the next turn.", "rule-solo-limit-compliance")
            core.comply_with_limits(player)

    def solo_score(self, core: Core, met: dict[str, list[int]]) -> None:
        st = core.state
        for player, goals in met.items():
            for g in goals:
                if g not in st.goals:
                    continue
                used = st.defs[g].impl.required_cards(core, g, player)
                core.transfer(g, Zone(SCORED), by=player, src=GOALS_IN_PLAY, cause=RULE)
                for k in used:
                    st.detach(k)
                core.discard_each(used, player, src=table(player), cause=RULE)
                core.say(f"{player} meets {core.name(g)}: it moves to the Scored Goals pile ({len(st.scored)} so far) and "
                         f"the cards it needed are discarded ({core.names(used)}).", "rule-solo-goal-scoring")

    def end_solo(self, core: Core, why: str) -> None:
        st = core.state
        st.ended = True
        core.say(f"Solo Fluxx ends because {why}; the score is {len(st.scored)} Goal{'s' if len(st.scored) != 1 else ''}.",
                 "rule-solo-end-and-score", "rule-reshuffle-discard-pile")
        raise GameEnded()


SOLO = SoloFluxx()
