"""Solo Fluxx: one player against the deck, as a variant of the engine.

The standard game's rules core asks a few questions where Solo Fluxx differs
(`Core._knocked_out_rejoins`, `_score`, `_deck_ran_out`, `_rules_displaced`,
`_between_turns`); `SoloFluxx` answers them. An `Engine` made for a Solo table is a
`SoloFluxx` (`Engine.__new__` picks it), so every caller gets the variant without
asking for it.
"""

from __future__ import annotations

from adjudicator.decisions import GameEnded
from adjudicator.engine import Engine
from adjudicator.movement import GOALS_IN_PLAY, IN_FLIGHT, RULE, RULES_PILE, SCORED, TURN, Zone, table


class SoloFluxx(Engine):
    """The engine for a Solo Fluxx table: rules from the Rules deck between turns, one
    rule per category, Goals scored instead of won, the game over when a deck runs out."""

    def _knocked_out_rejoins(self, player: str) -> bool:
        st = self.state
        st.knock_out(player)
        st.waiting[player] = []
        self.say(f"Playing Solo, {player} will jump back in as soon as the next rule has been drawn.",
                 "rule-solo-elimination-rejoin")
        if player == st.active_player:
            self.end_turn(f"{player} was knocked out", immediately=True)
        return True

    def _score(self, met: dict[str, list[int]]) -> bool:
        self.solo_score(met)
        return True

    def _deck_ran_out(self) -> None:
        self.end_solo("the main deck has run out")

    def _rules_displaced(self, card: int) -> tuple[list[int], tuple[str, ...]]:
        st = self.state
        mine = self.solo_category(card)
        return [r for r in st.rules if self.solo_category(r) == mine], ("rule-solo-rule-slots",)

    def _between_turns(self, player: str) -> str | None:
        self.solo_rules_step(player)      # Solo turns alternate with a rule from the Rules deck
        return player

    def solo_category(self, rule: int) -> str:
        """Solo allows one rule of each category: draw, play, limit and other."""
        slots = self.graph.slots_of(self.state.defs[rule].key)
        for name, members in (("draw", {"draw"}), ("play", {"play"}), ("limit", {"hand_limit", "keeper_limit"})):
            if slots & members:
                return name
        return "other"

    def solo_rules_step(self, player: str) -> None:
        """Between two Solo turns the top card of the Rules deck goes into play."""
        st = self.state
        if not st.rules_pile:
            self.end_solo("the Rules deck has run out")
        rule = st.rules_pile[0]
        self.transfer(rule, IN_FLIGHT, src=Zone(RULES_PILE), cause=TURN)
        self.say(f"Between turns, {self.name(rule)} is turned up from the Rules deck and goes straight into play.",
                 "rule-solo-turn-alternation")
        self.place_rule(rule, player)
        if player in st.eliminated:
            st.bring_back(player)
            st.waiting.pop(player, None)
            self.say(f"A rule has been drawn, so {player} jumps right back in with a fresh hand of 3.",
                     "rule-solo-elimination-rejoin")
            self.deal_in(player)
        if self.hand_limit(player) is not None or self.keeper_limit(player) is not None:
            self.say(f"{player} complies with the limits before the next turn.", "rule-solo-limit-compliance")
            self.comply_with_limits(player)

    def solo_score(self, met: dict[str, list[int]]) -> None:
        st = self.state
        for player, goals in met.items():
            for g in goals:
                if g not in st.goals:
                    continue
                used = st.defs[g].impl.required_cards(self, g, player)
                self.transfer(g, Zone(SCORED), by=player, src=GOALS_IN_PLAY, cause=RULE)
                for k in used:
                    st.detach(k)
                    self.discard(k, player, src=table(player), cause=RULE)
                self.say(f"{player} meets {self.name(g)}: it moves to the Scored Goals pile ({len(st.scored)} so far) and "
                         f"the cards it needed are discarded ({self.names(used)}).", "rule-solo-goal-scoring")

    def end_solo(self, why: str) -> None:
        st = self.state
        st.ended = True
        self.say(f"Solo Fluxx ends because {why}; the score is {len(st.scored)} Goal{'s' if len(st.scored) != 1 else ''}.",
                 "rule-solo-end-and-score", "rule-reshuffle-discard-pile")
        raise GameEnded()
