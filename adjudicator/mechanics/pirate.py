"""Pirate Fluxx: Plunder (the New Rule that makes taking another player's Keeper
legal), the Captain's Hat (its holder is the Captain), and the two Creepers with their
ways out: Scurvy (cured by Limes or Oranges, passed on after a while) and Shackles
(paid off with a Booty Keeper, or handed on by the Captain).

The Booty and Ship icons are Keeper tags (`booty`, `ship`); Goals name them as
`tag:booty` / `tag:ship`. The seed rulebook (`shared/seeds/003_*`) gives these cards
only in its FAQ answers, so the details each mechanic adds are stated in the card
records' notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import GOAL, KEEPER, RULE, Mechanic, Param, register
from adjudicator.movement import table, under
from adjudicator.mechanics.keepers import BlockingCreeper

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.mechanics.api import RulesCore


def captain(e) -> str | None:
    """The Captain: whoever has a working Captain's Hat in front of them."""
    st = e.state
    for p in st.players:
        if p in st.eliminated:
            continue
        if e.with_effect("captain", p):
            return p
    return None


_SAFE = "unplunderable"      # the tag of a Keeper printed "cannot be Plundered"
_ICON_RULINGS = {"booty": "rule-pirate-booty-icon", "ship": "rule-pirate-ship-icon"}
_ICON_WORDS = {"booty": "Booty", "ship": "a Ship"}


def _goals_asking_for(e, icon: str) -> list[int]:
    """Goals in play that ask for a Keeper with the icon: a `tag:` entry, or a list of
    alternatives made of exactly the Keepers that carry it."""
    st = e.state
    carriers = {d.name for d in e.cat if d.type == KEEPER and icon in d.tags}
    out = []
    for g in st.goals:
        p_ = st.defs[g].params
        entries = list(p_.get("needs") or []) + list(p_.get("any_of") or [])
        if f"tag:{icon}" in entries or (carriers and set(p_.get("any_of") or []) == carriers):
            out.append(g)
    return out


@register
class IconKeeper(Mechanic):
    """A Keeper printed with an icon (Booty, Ship), or one that looks like it should be
    and is not (the Dinghy is a boat, not a Ship). Matching is by tag; this mechanic
    only explains it when the Keeper comes into play while a Goal asks for the icon."""

    name = "icon_keeper"
    card_types = frozenset({KEEPER})
    params = {"icon": Param("str", required=False, default=""), "lacks": Param("str", required=False, default="")}
    summary = "a Keeper with an icon that Goals can ask for"
    rulings = ("rule-pirate-booty-icon", "rule-pirate-ship-icon")

    def on_placed(self, e: RulesCore, card: int, owner: str) -> None:
        p_ = e.state.defs[card].params
        if p_["icon"]:
            goals = _goals_asking_for(e, p_["icon"])
            if goals:
                word = _ICON_WORDS.get(p_["icon"], p_["icon"])
                e.say(f"{e.name(card)} carries the {p_['icon'].title()} icon, so it counts as {word} for "
                      f"{e.names(goals)}.", _ICON_RULINGS.get(p_["icon"], ""))
        if p_["lacks"]:
            goals = _goals_asking_for(e, p_["lacks"])
            if goals:
                word = _ICON_WORDS.get(p_["lacks"], p_["lacks"])
                e.say(f"{e.name(card)} has no {p_['lacks'].title()} icon: it does not count as {word} for "
                      f"{e.names(goals)}.", _ICON_RULINGS.get(p_["lacks"], ""))


@register
class CaptainsHat(Mechanic):
    """The Captain's Hat: its holder is the Captain (Shackles read it)."""

    name = "captain_hat"
    card_types = frozenset({KEEPER})
    effects = frozenset({"captain"})
    summary = "its holder is the Captain"


@register
class TreasureMap(Mechanic):
    """The Treasure Map, as far as the official FAQ gives it: Booty may lie hidden
    under it, out of play (the Map and its pile count as one Keeper, the Map); its
    holder may uncover that Booty at any time, on any turn (a free action); and the
    Booty goes with the Map when it is lost or stolen (the core carries a pile along
    with its card by every route). How Booty comes to be hidden there is not in our
    material, nor whether part of it can be uncovered: the engine uncovers all of it."""

    name = "treasure_map"
    card_types = frozenset({KEEPER})
    free_action = True
    off_turn = True
    summary = "Booty may lie hidden under it and goes with it; its holder may uncover that Booty at any time"
    rulings = ("treasure-map-booty-goes-with-stolen-map", "face-down-keepers-count-for-keeper-limit",
               "share-the-wealth-mixes-buried-booty")
    pile_rulings = ("treasure-map-booty-goes-with-stolen-map",)

    def can_hold(self, card: CardDef, other: CardDef) -> bool:
        return other.type == KEEPER and "booty" in other.tags

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if not e.state.under.get(card):
            return (f"no Booty lies hidden under {e.name(card)}", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        booty = list(st.under[card])
        with e.atomic():
            for c in booty:
                e.place_in_front(player, c, under(card), by=player)
        e.say(f"{player} uncovers the Booty hidden under {e.name(card)}: {e.names(booty)} now "
              f"{'stands' if len(booty) == 1 else 'stand'} face up in front of {player}, in play like any Keeper. "
              "The Map's holder may do so at any time; the rest of its text is not in our material.",
              "treasure-map-booty-goes-with-stolen-map")


@register
class Plunder(Mechanic):
    """Plunder: on your turn, once, you may take a Keeper another player has in front of
    them. Without a card like this, grabbing a Keeper is cheating."""

    name = "plunder"
    card_types = frozenset({RULE})
    free_action = True
    once_per_turn = True
    coexists = {"slot:play": "rule-free-actions-anytime-not-plays"}
    summary = "once a turn, take a Keeper from another player"
    rulings = ("grab-keeper-cheating", "rule-free-actions-anytime-not-plays")

    def _keepers(self, e, player, quiet=True):
        st = e.state
        return [k for p in e.reachable(player, quiet=quiet) if p != player for k in st.keepers[p]
                if st.defs[k].type == KEEPER]

    def _targets(self, e, player, quiet=True):
        # a Keeper printed "cannot be Plundered" (the Treasure Map) is passed over
        return [k for k in self._keepers(e, player, quiet) if _SAFE not in e.state.defs[k].tags]

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if not self._targets(e, player):
            if self._keepers(e, player):
                return (f"the only Keepers the others have cannot be Plundered "
                        f"({e.names(self._keepers(e, player))})", "treasure-map-booty-goes-with-stolen-map")
            return ("no other player has a Keeper to plunder", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        safe = [k for k in self._keepers(e, player, quiet=False) if k not in self._targets(e, player)]
        if safe:
            e.say(f"{e.names(safe)} cannot be Plundered, so {'it is' if len(safe) == 1 else 'they are'} not among the "
                  "Keepers to choose from; an Action that takes Keepers can still take it.",
                  "treasure-map-booty-goes-with-stolen-map")
        target = e.choose("card", player, f"{player} picks the Keeper to plunder", self._targets(e, player))
        move = e.steal(target, player)
        e.say(f"{player} plunders {e.name(move.card)} from {move.src.player}: with {e.name(card)} on the table taking another "
              "player's Keeper is allowed, where otherwise it would be cheating.", "grab-keeper-cheating")


@register
class Scurvy(BlockingCreeper):
    """Scurvy: blocks its holder. It is discarded as soon as its holder has one of the
    curing Keepers (Limes, Oranges) in front of them, and a holder who began their turn
    with it may pass it to another player (a free action)."""

    name = "scurvy"
    params = {"cured_by": Param("names")}
    free_action = True
    summary = "blocks; cured by the named Keepers; may be passed on by a holder who began the turn with it"
    rulings = ("getting-rid-of-creepers",)

    def on_checkpoint(self, e: RulesCore, card: int, owner: str) -> None:
        st = e.state
        cures = set(st.defs[card].params["cured_by"])
        fruit = next((k for k in st.keepers[owner] if st.defs[k].name in cures), None)
        if fruit is None:
            return
        e.discard(card, owner, src=table(owner))
        e.say(f"{owner} has {e.name(fruit)}, which cures {e.name(card)}: it is discarded ({e.name(fruit)} stays).",
              "getting-rid-of-creepers")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if card not in e.state.held_at_start:
            return (f"{player} may pass {e.name(card)} on only after having it a while: the engine reads that as a turn "
                    f"of theirs that began with {e.name(card)} already in front of them", "getting-rid-of-creepers")
        if len(e.reachable(player, quiet=True)) < 2:
            return ("there is nobody to pass it to", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        to = e.choose("player", player, f"{player} picks who gets {e.name(card)}",
                      [p for p in e.reachable(player) if p != player])
        e.place_in_front(to, card, table(player), by=player)
        e.say(f"{player} has had {e.name(card)} a while and passes it on to {to}.", "getting-rid-of-creepers")


@register
class Shackles(BlockingCreeper):
    """Shackles: blocks its holder, who may discard it by also discarding one of their
    Keepers with the Booty icon; a holder who is the Captain instead chooses who gets
    the Shackles."""

    name = "shackles"
    params = {"cost_tag": Param("str")}
    free_action = True
    summary = "blocks; discarded at the cost of a Booty Keeper, or handed on by a holder who is the Captain"
    rulings = ("getting-rid-of-creepers",)

    def _payments(self, e, card, player):
        st = e.state
        tag = st.defs[card].params["cost_tag"]
        return [k for k in st.keepers[player] if st.defs[k].type == KEEPER and tag in st.defs[k].tags]

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if captain(e) == player:
            if len(e.reachable(player, quiet=True)) < 2:
                return ("there is nobody to give the Shackles to", None)
            return None
        if not self._payments(e, card, player):
            tag = e.state.defs[card].params["cost_tag"]
            return (f"{player} has no {tag.title()} Keeper to pay for discarding {e.name(card)}, and is not the Captain",
                    "getting-rid-of-creepers")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        if captain(e) == player:
            to = e.choose("player", player, f"The Captain, {player}, decides who has {e.name(card)}",
                          [p for p in e.reachable(player) if p != player])
            e.place_in_front(to, card, table(player), by=player)
            e.say(f"{player} is the Captain and so decides who has {e.name(card)}: {to}.", "getting-rid-of-creepers")
            return
        pay = e.choose("card", player, f"{player} picks the Booty Keeper that pays for discarding {e.name(card)}",
                       self._payments(e, card, player))
        with e.atomic():
            for c in (card, pay):
                e.discard(c, player, src=table(player))
        e.say(f"{player} pays {e.name(pay)} to be rid of {e.name(card)}: both are discarded. Only a Keeper given up "
              f"this way frees {player}; one lost to a Limit or to another card leaves {e.name(card)} where it is.",
              "getting-rid-of-creepers", "forced-loss-earns-no-sacrifice-reward")


@register
class UnjudgedGoal(Mechanic):
    """A Goal of which our material gives only part of the requirement: the engine
    cannot tell who meets it, so nobody wins by it here. The Creepers it is known to
    need do not block it."""

    name = "unjudged_goal"
    card_types = frozenset({GOAL})
    params = {"needs_creepers": Param("names", required=False, default=[]),
              "needs": Param("names", required=False, default=[])}
    summary = "part of the requirement is unknown: the engine never declares a winner by it"

    def requires(self, e: RulesCore, card: int) -> frozenset[str]:
        return frozenset(e.state.defs[card].params["needs_creepers"])
