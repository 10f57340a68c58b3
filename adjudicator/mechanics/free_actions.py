"""Free actions granted by New Rules: optional, taken on your own turn, not plays,
and never while a temporary hand is being played."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.decisions import Rejected
from adjudicator.mechanics.actions import made_to_play_a_surprise
from adjudicator.mechanics.base import CREEPER, GOAL, KEEPER, META_RULE, RULE, UNKNOWN, Mechanic, Param, register
from adjudicator.movement import DRAW, hand, table

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore
    from adjudicator.catalogue import CardDef

_RULES = frozenset({RULE, META_RULE})


def _draw_ending_the_turn(e, card: int, player: str, n: int) -> None:
    """The draw of a free action that ends the turn with it: Creepers drawn now stay
    until the player's next turn, since no moment of this turn is left for a power
    that would send them away."""
    st = e.state
    before = set(st.keepers[player])
    e.draw(player, n, why=e.name(card))
    came = [k for k in st.keepers[player] if k not in before and st.defs[k].type == CREEPER]
    if came:
        e.say(f"{player} draws {e.names(came)} with {e.name(card)}: the turn ends with this draw, so "
              f"{'it stays' if len(came) == 1 else 'they stay'} in front of {player} until their next turn, whatever "
              "would otherwise let them be given away or discarded during a turn.",
              "gowi-or-swap-creepers-stay-until-next-turn")
    e.end_turn(e.name(card), immediately=True)


@register
class GetOnWithIt(Mechanic):
    name = "get_on_with_it"
    card_types = _RULES
    params = {"draw": Param("int")}
    free_action = True
    ends_turn = True
    coexists = {"slot:play": "gowi-swap-dont-contradict-play-all"}
    overrides = {"slot:play": "play-all-vs-turn-end", "concept:temporary_hand": "gowi-inside-temp-hand"}
    summary = "before your last play: discard your hand, draw a new one, and your turn ends"
    rulings = ("get-on-with-it-empty-hand", "get-on-with-it-play-1", "gowi-swap-dont-contradict-play-all")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if not e.state.hands[player]:
            return (f"{e.name(card)} needs a hand to throw away, and {player}'s hand is empty", "get-on-with-it-empty-hand")
        if e.plays_left() <= 0:
            return (f"{e.name(card)} must come before your final play, and {player} has no play left to give up",
                    "get-on-with-it-empty-hand")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        cards = list(st.hands[player])
        for c in cards:
            e.discard(c, player, src=hand(player))
        cites = ("get-on-with-it-play-1",) if e.play_quota(player) == ("n", 1) else ()
        e.say(f"{player} gives up the remaining plays and discards their hand ({len(cards)} cards).", *cites)
        _draw_ending_the_turn(e, card, player, e.num(card, "draw"))


@register
class SwapPlaysForDraws(Mechanic):
    name = "swap_plays_for_draws"
    card_types = _RULES
    free_action = True
    ends_turn = True
    coexists = {"slot:play": "gowi-swap-dont-contradict-play-all"}
    overrides = {"slot:play": "swap-plays-vs-play-all", "concept:temporary_hand": "gowi-inside-temp-hand"}
    summary = "give up every play you can still make and draw that many instead; your turn ends"
    rulings = ("swap-plays-hand-cap", "swap-plays-vs-play-all", "gowi-swap-dont-contradict-play-all")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if e.plays_left() <= 0:
            return (f"{player} has no play left that could be swapped (only plays that can really be made count)",
                    "swap-plays-hand-cap")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        n = e.plays_left()
        kind, keep = e.play_quota(player)
        cites = ["swap-plays-hand-cap"]
        if kind == "all_but":
            cites.append("swap-plays-vs-play-all")
        st = e.state
        bonus = [c for c in e.rule_cards() + st.keepers[player] if st.defs[c].impl.play_bonus(e, c, player)]
        also = ""
        if bonus:
            also = (f" The extra play{'s' if len(bonus) > 1 else ''} from {e.names(bonus)} {'is' if len(bonus) == 1 else 'are'}"
                    " part of the Play count and swapped like any other.")
            cites.append("swap-plays-converts-rich-bonus-play")
        e.say(f"{player} can still actually make {n} play(s) (the Play rule and the cards in hand both limit it) "
              f"and swaps them for {n} draw(s); no plays remain.{also}", *cites)
        _draw_ending_the_turn(e, card, player, n)


@register
class MysteryPlay(Mechanic):
    name = "mystery_play"
    card_types = _RULES
    free_action = True
    once_per_turn = True
    coexists = {"slot:play": "rule-free-actions-anytime-not-plays"}
    summary = "once a turn, play the top card of the draw pile at once (not one of your plays)"
    rulings = ("mystery-play-must-play-drawn", "mystery-play-surprise-too-late")
    closes_windows_ruling = ("mystery-play-surprise-too-late",)


    def job(self, card: CardDef) -> str:
        # every Mystery Play analogue does the one job, whatever gates it (FAQ: combining decks)
        return "mystery_play"

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        if not st.draw_pile and not st.discard:
            return ("there is no card to take: both the draw pile and the discard pile are empty", "no-cards-left-to-draw")
        if st.draw_pile and st.defs[st.draw_pile[0]].type == UNKNOWN:
            return ("the top card of the draw pile is unknown ('?'): name it in the scenario to judge this", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        loop = e.effect_loop(f"{player}'s {e.name(card)}")
        while True:
            if not st.draw_pile and not e.reshuffle():
                e.say("Nothing is left to take from the draw pile.", "no-cards-left-to-draw")
                return
            top = st.draw_pile[0]
            if st.defs[top].type != "creeper":
                break
            if not loop.again():        # Creepers that leave as they come, round and round
                return
            e.place_in_front(player, top, DRAW, by=player)
            e.say(f"{player} turns up the Creeper {e.name(top)}: it goes in front of them like any Creeper drawn, and "
                  "the next card is taken instead.", "rule-creeper-drawn-auto-play")
            e.checkpoint()
        if st.defs[top].type == UNKNOWN:
            raise Rejected("the next card of the draw pile is unknown ('?'): name it in the scenario to judge this")
        e.say(f"{player} turns up {e.name(top)} and must play it at once; it cannot go into the hand. It is played "
              "like any card, so the other players may answer it with a Surprise.",
              "mystery-play-must-play-drawn", "mystery-play-card-open-to-surprises")
        made_to_play_a_surprise(e, top, player)
        e.play_card(player, top, DRAW, counted=False, how=" from the top of the draw pile")


@register
class GoalMill(Mechanic):
    name = "goal_mill"
    card_types = _RULES
    free_action = True
    once_per_turn = True
    coexists = {"slot:play": "rule-free-actions-anytime-not-plays"}
    summary = "once a turn, discard Goals from your hand and draw as many"

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        if not any(st.defs[c].type == GOAL for c in st.hands[player]):
            return (f"{player} has no Goal in hand to mill", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        goals = [c for c in st.hands[player] if st.defs[c].type == GOAL]
        picked = e.choose("cards", player, f"{player} picks the Goals to discard", goals, count=len(goals), minimum=1)
        for c in picked:
            e.discard(c, player, src=hand(player))
        e.say(f"{player} discards {e.names(picked)}.")
        e.draw(player, len(picked), why=e.name(card))


@register
class Recycling(Mechanic):
    name = "recycling"
    card_types = _RULES
    params = {"draw": Param("int")}
    free_action = True
    once_per_turn = True
    coexists = {"slot:play": "rule-free-actions-anytime-not-plays"}
    summary = "once a turn, discard one of your Keepers and draw cards"

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        if not any(st.defs[k].type == KEEPER for k in st.keepers[player]):
            return (f"{player} has no Keeper to recycle", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        mine = [k for k in st.keepers[player] if st.defs[k].type == KEEPER]
        k = e.choose("card", player, f"{player} picks a Keeper to recycle", mine)
        move = e.discard(k, player, src=table(player))
        e.say(f"{player} discards {e.name(move.card)} by choice to pay for {e.name(card)}: only a Keeper given up this "
              "way earns the cards; one lost to a Limit or to another card earns nothing.",
              "forced-loss-earns-no-sacrifice-reward")
        e.draw(player, e.num(card, "draw"), why=e.name(card))
