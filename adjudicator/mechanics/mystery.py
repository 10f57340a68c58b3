"""Mystery and Anatomy Fluxx systems: Dangers that knock players out, Secrets that
punish whoever lets them go, Meta Rules (The Final Act), and trivia rules whose
outcomes only the table can judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import DANGER, KEEPER, META_RULE, RULE, SECRET, Mechanic, Param, register

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore

_RULES = frozenset({RULE, META_RULE})


@register
class KnockOut(Mechanic):
    """A Danger that eliminates a player (the stand-in for Mystery Fluxx's Dangers,
    whose individual texts are not in our material)."""

    name = "knock_out"
    card_types = frozenset({DANGER})
    # who goes: the player's choice, or (`most: cards`) the one player holding more
    # cards, hand and Keepers together, than anyone else
    params = {"most": Param("str", required=False, default="")}
    summary = "knock out a player of your choice, or the one player with the most cards"
    rulings = ("rule-danger-played-like-action", "rule-danger-elimination")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        e.say(f"{e.name(card)} is a Danger: it was held in hand and played like an Action.", "rule-danger-played-like-action")
        options = [p for p in e.reachable(player) if p not in st.eliminated]
        if st.defs[card].params.get("most") == "cards":
            sizes = {p: len(st.hands[p]) + sum(1 for k in st.keepers[p] if st.defs[k].type == KEEPER) for p in options}
            top = max(sizes.values())
            leaders = [p for p in options if sizes[p] == top]
            if len(leaders) > 1:
                e.say(f"{' and '.join(leaders)} tie for the most cards in hand and Keepers ({top} each): no single "
                      f"player has more than everyone else, so {e.name(card)} knocks nobody out.",
                      "danger-tie-for-most-eliminates-nobody")
                return
            e.say(f"{leaders[0]} alone has the most cards in hand and Keepers ({top}).",
                  "danger-tie-for-most-eliminates-nobody")
            return e.eliminate(leaders[0], player)
        victim = e.choose("player", player, f"{player} picks who {e.name(card)} knocks out", options)
        e.eliminate(victim, player)


@register
class Secret(Mechanic):
    name = "secret"
    card_types = frozenset({SECRET})
    summary = "if it ever leaves your hand you must reveal it and suffer what it says"
    rulings = ("rule-secret-leaves-hand",)

    def on_reveal(self, e: RulesCore, card: int, holder: str) -> None:
        e.say(f"The penalty printed on {e.name(card)} is not in our material: {holder} carries out what the card says.",
              "rule-secret-leaves-hand")


@register
class FinalAct(Mechanic):
    """The Final Act: a Meta Rule that comes into force partway through the game; from
    then on knocked-out players stay out and two-player knock-outs win."""

    name = "final_act"
    card_types = frozenset({META_RULE})
    effects = frozenset({"no_rejoining"})
    coexists = {"concept:turn_end": "rule-meta-rules-persist"}
    summary = "once in force: no more re-entries, and knocking out the last opponent wins"
    rulings = ("rule-meta-rules-persist", "rule-danger-rejoin-limits", "rule-danger-two-player")

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        e.say(f"{e.name(card)} is now in force for the rest of the game: eliminated players can no longer come back.",
              "rule-meta-rules-persist", "rule-danger-rejoin-limits")


@register
class OpaqueMeta(Mechanic):
    """A Meta Rule our material names without its text: in force all game, never
    discarded, with no effect the engine can model."""

    name = "opaque_meta"
    card_types = _RULES
    coexists = {"concept:turn_end": "rule-meta-rules-persist"}
    summary = "in force for the whole game; its text is not in our material"


@register
class TriviaQuestion(Mechanic):
    """A rule under which the active player asks trivia: the next player answers the
    first question of a turn, the player after them the second, and so on; whether an
    answer is right is for the table to judge."""

    name = "trivia"
    card_types = _RULES
    free_action = True
    params = {"reward": Param("str", required=False, default="")}
    coexists = {"concept:free_action": "next-player-trivia-order"}
    summary = "ask a question of the next player in turn; the table judges the answer"
    rulings = ("next-player-trivia-order",)

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if len([p for p in e.seat_order(start=player) if p != player]) == 0:
            return ("there is nobody to ask", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = [p for p in e.seat_order(start=player) if p != player]
        answerer = others[st.questions % len(others)]
        st.questions += 1
        nth = {1: "first", 2: "second", 3: "third"}.get(st.questions, f"{st.questions}th")
        e.say(f"This is the {nth} question of {player}'s turn, so {answerer} answers it: the next player in turn order "
              "for the first question, the one after for each further question.", "next-player-trivia-order")
        right = e.choose("table", answerer, f"Did {answerer} answer {player}'s question correctly?", [])
        reward = st.defs[card].params["reward"]
        if right:
            e.say(f"The table accepts {answerer}'s answer. " + (reward or
                  f"What {e.name(card)} grants for it is not in our material; apply the printed card."))
        else:
            e.say(f"The table rejects {answerer}'s answer.")


@register
class TableJudged(Mechanic):
    """A rule about table talk (Heartbeat, Alternate Factlets): people judge it; the
    engine records the table's verdict and models nothing else."""

    name = "table_judged"
    card_types = _RULES
    free_action = True
    params = {"question": Param("str")}
    coexists = {"concept:free_action": "alternate-factlets-challenge"}
    summary = "an outcome only the table can judge"

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        q = e.state.defs[card].params["question"].format(player=player)
        ok = e.choose("table", player, q, [])
        e.say(f"The table rules: {'yes' if ok else 'no'}. The card's consequence is not in our material; apply the "
              "printed card.")
