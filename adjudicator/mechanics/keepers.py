"""Keepers and Creepers: plain Keepers, Creepers that block wins, and the Creeper
Pack's Creepers with their own duties (War, Taxes, Death, Radioactive Potato)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar
from adjudicator.mechanics.base import CREEPER, KEEPER, UNKNOWN, Mechanic, Param, register
from adjudicator.movement import table

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore


def kept_from_out_of_reach(e: RulesCore, card: int, holder: str, to: str, what: str) -> bool:
    """`card` would pass from `holder` to `to` because `what` happened: when `to` is out
    of reach, say so and return True (the card stays where it is)."""
    why = e.out_of_reach(to, holder)
    if not why:
        return False
    e.say(f"{what}, but {to} is out of reach ({e.names(why)}) until {to}'s next turn: nothing may be given to them, "
          f"so {e.name(card)} stays with {holder}; our material does not say whether it would pass on to someone "
          "else.", "in-my-bunk-shields-all-assets")
    return True


@register
class Unknown(Mechanic):
    name = "unknown"
    card_types = frozenset({UNKNOWN})
    summary = "a card nobody can see; it can be moved but never played"


@register
class Keeper(Mechanic):
    name = "keeper"
    card_types = frozenset({KEEPER})
    summary = "stays in front of its owner; Goals ask for it"


@register
class BlockingCreeper(Mechanic):
    name = "blocking_creeper"
    card_types = frozenset({CREEPER})
    summary = "its holder cannot win unless the Goal needs it"
    rulings: ClassVar[tuple[str, ...]] = ("rule-creeper-placement",)   # subclasses cite more

    def blocks_win(self, e: RulesCore, card: int, owner: str, goal: int) -> bool:
        return True       # (unless a rule in force lifts the block: Engine.blocked asks the rules first)


@register
class PassesOn(BlockingCreeper):
    """War: whoever holds it and a named Keeper must give that Keeper to another player."""

    name = "passes_keeper_on"
    params = {"keeper": Param("str")}
    summary = "blocks; its holder must hand the named Keeper to another player"

    def on_checkpoint(self, e: RulesCore, card: int, owner: str) -> None:
        st = e.state
        want = st.defs[card].params["keeper"]
        held = [k for k in st.keepers[owner] if st.defs[k].name == want]
        others = [p for p in e.reachable(owner) if p != owner]
        for k in held:
            if not others:
                return
            to = e.choose("player", owner, f"{owner} has {e.name(card)} and {want}: choose who receives {want}", others)
            e.move_to(k, to, by=owner)
            e.say(f"{owner} has both {e.name(card)} and {want}, so {want} goes to {to}.")


@register
class PayOff(BlockingCreeper):
    """Taxes: its holder may discard it together with a named Keeper, at any time."""

    name = "pay_off"
    params = {"keeper": Param("str")}
    free_action = True
    summary = "blocks; its holder may discard it together with the named Keeper"
    off_turn = True

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        want = st.defs[card].params["keeper"]
        if not any(st.defs[k].name == want for k in st.keepers[player]):
            return (f"{e.name(card)} can only be paid off together with {want}, which {player} does not have", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        want = st.defs[card].params["keeper"]
        keeper = next(k for k in st.keepers[player] if st.defs[k].name == want)
        for c in (card, keeper):
            e.discard(c, player, src=table(player))
        e.say(f"{player} discards {e.name(card)} together with {want}.")


@register
class Death(BlockingCreeper):
    """Death: at the start of its holder's turn another card they have in play goes;
    when it is their only card in play they may discard it."""

    name = "death"
    free_action = True
    summary = "blocks; costs its holder another card in play each turn; can go when it is alone"

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = [k for k in st.keepers[player] if k != card]
        if not others:
            return
        victim = e.choose("card", player, f"{e.name(card)}: {player} discards another card they have in play", others)
        move = e.discard(victim, player, src=table(player))
        e.say(f"{e.name(card)} claims {e.name(move.card)} from {player} at the start of the turn.")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if [k for k in e.state.keepers[player] if k != card]:
            return (f"{e.name(card)} can be discarded only when it is the only card {player} has in play", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        e.discard(card, player, src=table(player))
        e.say(f"{player} discards {e.name(card)}, the only card they had in play.")


@register
class MovesOnGoalChange(BlockingCreeper):
    """Radioactive Potato: each time the Goal changes it moves one seat against turn order."""

    name = "moves_on_goal_change"
    summary = "blocks (unless a rule says otherwise); moves to the previous player whenever the Goal changes"

    def on_goal_change(self, e: RulesCore, card: int, owner: str) -> None:
        st = e.state
        n = len(st.players)
        seat = st.players.index(owner)
        # the nearest player still in the game, counting seats against turn order
        to = next((st.players[(seat - i) % n] for i in range(1, n)
                   if st.players[(seat - i) % n] not in st.eliminated), None)
        if to is None or to == owner:
            return
        if kept_from_out_of_reach(e, card, owner, to, "The Goal changed"):
            return
        e.move_to(card, to)
        e.say(f"The Goal changed, so {e.name(card)} moves from {owner} to {to} (against turn order).",
              "potato-moves-on-every-goal-change")
