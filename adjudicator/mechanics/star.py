"""Star Fluxx: the Keepers with powers, the Creepers that attach themselves to a
Keeper, and the Star Actions (three of which end the turn at once).

Powers work only while their Keeper is in front of its holder and no Malfunction is
attached to it (`power_active`); once-a-turn powers are free actions (`use: CARD`).
An attached Creeper is recorded in `state.attachments` (Creeper -> Keeper); the
checkpoint makes it follow its Keeper and discards it when the Keeper leaves play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import (
    ACTION, CREEPER, DANGER, GOAL, KEEPER, SURPRISE, UNKNOWN, Mechanic, Param, register,
)
from adjudicator.mechanics.keepers import BlockingCreeper, kept_from_out_of_reach
from adjudicator.movement import DISCARD_PILE, DRAW, FINISH, HAND, IN_FLIGHT, TABLE as TABLE_ZONE, TURN, Zone, hand, table

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore
    from adjudicator.catalogue import CardDef
    from adjudicator.movement import Move

_KEEPER = frozenset({KEEPER})
_ACTIONS = frozenset({ACTION, DANGER, SURPRISE})
_TURN_END_OVERRIDES = {"slot:play": "play-all-vs-turn-end", "concept:temporary_hand": "turn-end-inside-d3p2"}


# =============================================================================
# helpers shared by the Star cards
# =============================================================================
def _attached_to(e, keeper: int) -> list[int]:
    return [c for c, k in e.state.attachments.items() if k == keeper]


def _turn_ends(e, card: int, player: str, inside: bool) -> None:
    """A turn-ending Action: whatever is left of a temporary hand is discarded, then the
    player meets the limits and the next turn begins."""
    if e.state.game_over:
        return
    e.say(f"{e.name(card)} ends {player}'s turn at once, whatever the Play rule still asks.",
          "turn-ending-cards-list", *(("turn-end-inside-d3p2",) if inside else ()))
    e.end_turn(e.name(card), immediately=True)


def _set_aside(inside: bool) -> str:
    return "their set-aside hand (the real hand, not the temporary one)" if inside else "their hand"


# =============================================================================
# Keepers with powers
# =============================================================================
@register
class BonusKeeper(Mechanic):
    """The Computer: its holder draws and plays extra on their turn, and their Hand and
    Keeper Limits are higher."""

    name = "bonus_keeper"
    card_types = _KEEPER
    params = {"draw": Param("int", required=False, default=0), "play": Param("int", required=False, default=0),
              "limit": Param("int", required=False, default=0)}
    modifies = {"concept:draw_count": "extra-draw-play-not-tied", "concept:play_count": "play-bonus-sources-list"}
    summary = "its holder draws and plays extra on their turn, and their Hand and Keeper Limits are higher"
    rulings = ("play-bonus-sources-list", "play-all-plus-bonus", "rule-keepers-in-play-for-goals-powers")

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        if not self.power_active(e, card):
            return
        p_ = e.state.defs[card].params
        if p_["draw"] or p_["play"]:
            e.say(f"{e.name(card)}: while it works, {player} draws {e.num(card, 'draw')} and plays "
                  f"{e.num(card, 'play')} more this turn, and neither extra is optional; only the higher Limits are "
                  "a choice.", "computer-extra-draw-and-play-required")

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "draw")

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "play")

    def limit_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "limit")


@register
class PassesAtTurnEnd(Mechanic):
    """Cute Fuzzy Alien Creature: when its holder's turn ends it moves to the next
    player; discarded from play (by any card, a Limit included) it goes on top of the
    draw pile instead.

    It moves as its holder's turn ends, once they have met the limits and before the
    next turn begins; a player it puts over a Limit, off their turn at that moment,
    complies at once."""

    name = "passes_at_turn_end"
    card_types = _KEEPER
    turn_end_duty = True
    summary = "moves to the next player whenever its holder's turn ends; if discarded it goes on top of the draw pile"

    def replace_move(self, e: RulesCore, card: int, holder: str | None, move: Move) -> Move | None:
        if move.card != card or move.src.kind != TABLE_ZONE or not move.discards:
            return None
        e.say(f"{e.name(card)} is not discarded: it goes on top of the draw pile instead.")
        return move.instead(dst=DRAW, top=True)

    def on_turn_end(self, e: RulesCore, card: int, holder: str, player: str) -> None:
        if holder != player or not self.power_active(e, card):
            return
        order = e.seat_order(start=holder)
        if len(order) < 2:
            return
        to = order[1]
        if kept_from_out_of_reach(e, card, holder, to, f"{holder}'s turn ended"):
            return
        riders = _attached_to(e, card)
        e.transfer(card, table(to), src=table(holder), cause=TURN)     # (what is attached goes along)
        e.say(f"{holder}'s turn ended, so {e.name(card)} moves on to the next player, {to}" +
              (f", with the attached {e.names(riders)}." if riders else "."))
        e.checkpoint()          # (the receiver is off turn now: a Limit binds them at once)


@register
class BorrowsKeeperForWin(Mechanic):
    """Holographic Projection: on its holder's own turn one Keeper of another player
    counts as theirs for the Goal. A Goal met that way is the holder's alone: the
    projected Keeper's real owner, meeting the same Goal, does not tie (FAQ 1265)."""

    name = "borrows_keeper_for_win"
    card_types = _KEEPER
    summary = "on your own turn, count one Keeper another player has as yours for the Goal"
    rulings = ("rule-keepers-in-play-for-goals-powers", "holographic-projection-no-tie")

    def claims(self, e: RulesCore, card: int, owner: str, met: dict[str, list[int]]) -> dict[str, list[int]]:
        st = e.state
        if owner != st.active_player or st.phase != "play" or st.game_over or not self.power_active(e, card):
            return met
        for g in st.goals:
            if g in met.get(owner, []) or st.defs[g].type != GOAL:
                continue
            for other in e.seat_order(start=owner):
                lent = next((k for k in st.keepers[other] if other != owner and st.defs[k].type == KEEPER
                             and self._meets_with(e, g, owner, k)), None)
                if lent is None:
                    continue
                met = {p: [x for x in gs if x != g] for p, gs in met.items()}
                met = {p: gs for p, gs in met.items() if gs}
                met.setdefault(owner, []).append(g)
                e.claim_note(owner, f"{owner}'s {e.name(card)} lets them count {other}'s {e.name(lent)} as their own "
                                    f"on their turn, and {e.name(g)} met that way is theirs alone: nobody ties with "
                                    "them on it.", "rule-keepers-in-play-for-goals-powers",
                             "holographic-projection-no-tie")
                break
        return met

    def on_turn_end(self, e: RulesCore, card: int, holder: str, player: str) -> None:
        # the holder's turn is over: whatever the Limits took away just now, the
        # projection went dark at the same moment, before any win is looked for
        st = e.state
        if holder != player or not self.power_active(e, card):
            return
        for g in st.goals:
            if st.defs[g].type != GOAL or holder in st.defs[g].impl.winners(e, g):
                continue
            lent = next((k for other in e.seat_order(start=holder) if other != holder for k in st.keepers[other]
                         if st.defs[k].type == KEEPER and self._meets_with(e, g, holder, k)), None)
            if lent is not None:
                e.say(f"With {e.name(lent)} lent by {e.name(card)}, {holder} would now meet {e.name(g)}, but the "
                      f"turn is over: the Limit discards and the projection going dark come at the same moment and "
                      "the win is looked for afterwards, when it lends nothing.",
                      "projection-off-and-limit-discard-together")
                return

    @staticmethod
    def _meets_with(e, goal: int, owner: str, lent: int) -> bool:
        """Whether `owner` meets `goal` with `lent` counted among their Keepers (for a
        moment only: the card never leaves its real owner)."""
        st = e.state
        with st.borrowed(lent, st.keepers[owner]):
            return owner in st.defs[goal].impl.winners(e, goal)


class _FreePower(Mechanic):
    """A Keeper power used as a free action on its holder's turn."""

    card_types = _KEEPER
    free_action = True

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if not self.power_active(e, card):
            return (f"{e.name(card)} has a Malfunction attached: its power does not work until the Malfunction is gone",
                    "rule-keepers-in-play-for-goals-powers")
        return self.nothing_to_do(e, card, player)

    def nothing_to_do(self, e, card, player):
        return None


@register
class Laser(_FreePower):
    """Laser Pistol and Laser Sword: once a turn, discard a Keeper (any, or only your
    own) other than this one that has a Creeper attached; the Creeper goes with it."""

    name = "laser"
    params = {"own_only": Param("bool", required=False, default=False)}
    once_per_turn = True
    summary = "once a turn, discard a Keeper that has a Creeper attached (the Creeper goes with it)"

    def _targets(self, e, card, player, quiet=True):
        st = e.state
        owners = [player] if st.defs[card].params["own_only"] else e.reachable(player, quiet=quiet)
        attached = set(st.attachments.values())
        return [k for p in owners for k in st.keepers[p] if k != card and st.defs[k].type == KEEPER and k in attached]

    def nothing_to_do(self, e, card, player):
        if not self._targets(e, card, player):
            whose = "of yours" if e.state.defs[card].params["own_only"] else "in play"
            return (f"no Keeper {whose} other than {e.name(card)} has a Creeper attached", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        target = e.choose("card", player, f"{player} picks the Keeper {e.name(card)} discards",
                          self._targets(e, card, player, quiet=False))
        owner = st.owner_of_keeper(target)
        move = e.discard(target, player)
        e.say(f"{e.name(card)} discards {owner}'s {e.name(move.card)}.")


@register
class Expendable(Mechanic):
    """Expendable Crewman: whoever else would take or discard one of its holder's other
    Keepers must take or discard the Crewman instead, by whatever card or power."""

    name = "expendable"
    card_types = _KEEPER
    effects = frozenset({"takes_the_loss"})
    summary = "another player who would take or discard one of your Keepers takes or discards this one instead"

    def replace_move(self, e: RulesCore, card: int, holder: str | None, move: Move) -> Move | None:
        st = e.state
        if (holder is None or move.card == card or move.src != table(holder) or move.by in (None, holder)
                or st.defs[move.card].type != KEEPER or not (move.takes or move.discards)
                or not self.power_active(e, card)):
            return None
        e.say(f"{holder}'s {e.name(card)} steps in: {move.by} must take or discard it instead of "
              f"{e.name(move.card)}.")
        return move.instead(card=card)


@register
class Teleporter(_FreePower):
    """Teleporter: once a turn, move one of your other Keepers to another player (its
    attached Creepers go along). Beam Us Up! also reads it."""

    name = "teleporter"
    once_per_turn = True
    summary = "once a turn, move one of your other Keepers to another player"

    def _mine(self, e, card, player):
        st = e.state
        return [k for k in st.keepers[player] if k != card and st.defs[k].type == KEEPER]

    def nothing_to_do(self, e, card, player):
        if not self._mine(e, card, player):
            return (f"{player} has no other Keeper to teleport", None)
        if len(e.reachable(player, quiet=True)) < 2:
            return ("there is nobody to teleport a Keeper to", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        k = e.choose("card", player, f"{player} picks the Keeper to teleport", self._mine(e, card, player))
        to = e.choose("player", player, f"{player} picks who receives {e.name(k)}",
                      [p for p in e.reachable(player) if p != player])
        e.move_to(k, to, by=player)
        riders = _attached_to(e, k)
        e.say(f"{player} teleports {e.name(k)} to {to}" + (f", with the attached {e.names(riders)}." if riders else "."))


@register
class StealNamed(_FreePower):
    """The Captain and The Scientist: once a turn, take one of the named Keepers from
    another player."""

    name = "steal_named"
    params = {"keepers": Param("names")}
    once_per_turn = True
    summary = "once a turn, take one of the named Keepers from another player"
    rulings = ("grab-keeper-cheating",)

    def _targets(self, e, card, player, quiet=True):
        st = e.state
        names = set(st.defs[card].params["keepers"])
        return [k for p in e.reachable(player, quiet=quiet) if p != player for k in st.keepers[p]
                if st.defs[k].name in names]

    def nothing_to_do(self, e, card, player):
        if not self._targets(e, card, player):
            return (f"nobody else has any of {', '.join(e.state.defs[card].params['keepers'])}", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        target = e.choose("card", player, f"{player} picks the Keeper {e.name(card)} takes",
                          self._targets(e, card, player, quiet=False))
        owner = st.owner_of_keeper(target)
        move = e.steal(target, player)
        e.say(f"{player}'s {e.name(card)} takes {e.name(move.card)} from {owner}: a card that allows taking another "
              "player's Keeper.", "grab-keeper-cheating")


@register
class CuresCreeper(_FreePower):
    """The Doctor and The Engineer: on your turn, discard the named Creeper attached to
    one of your Keepers (for the Doctor, not when it is attached to the Doctor)."""

    name = "cures_creeper"
    params = {"creeper": Param("str"), "exempt_self": Param("bool", required=False, default=False),
              "once": Param("bool", required=False, default=False)}
    summary = "on your turn, discard the named Creeper attached to one of your Keepers (once a turn, if it says so)"

    def used_once_per_turn(self, card: CardDef) -> bool:
        return bool(card.params["once"])

    def _targets(self, e, card, player):
        st = e.state
        p_ = st.defs[card].params
        mine = st.keepers[player]
        return [c for c in mine if st.defs[c].name == p_["creeper"] and st.attachments.get(c) in mine
                and not (p_["exempt_self"] and st.attachments.get(c) == card)]

    def nothing_to_do(self, e, card, player):
        if not self._targets(e, card, player):
            st = e.state
            p_ = st.defs[card].params
            extra = f" (one attached to {e.name(card)} itself cannot be removed this way)" if p_["exempt_self"] else ""
            loose = [c for c in st.keepers[player] if st.defs[c].name == p_["creeper"] and c not in st.attachments]
            if loose:
                # a loose one has broken nothing, so there is nothing to repair; it still blocks
                return (f"no {p_['creeper']} is attached to one of {player}'s Keepers{extra}: the loose "
                        f"{p_['creeper']} is attached to nothing, so there is nothing to detach, and it stays (and "
                        "still blocks a win)", "detach-and-discard-needs-an-attached-creeper")
            return (f"no {p_['creeper']} is attached to one of {player}'s Keepers{extra}", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        c = e.choose("card", player, f"{player} picks the Creeper {e.name(card)} removes", self._targets(e, card, player))
        host = st.attachments[c]            # the targets are attached Creepers
        e.detach(c)
        e.discard(c, player, src=table(player))
        e.say(f"{e.name(card)} detaches {e.name(c)} from {e.name(host)} and discards it.")


@register
class ReturnsCard(Mechanic):
    """Time Traveler: the named Action, played by its holder, returns to their hand
    instead of the discard pile (and Sonic Sledgehammer spares its holder)."""

    name = "returns_card"
    card_types = _KEEPER
    effects = frozenset({"returns_named_action"})
    params = {"card": Param("str")}
    summary = "the named Action you play comes back to your hand instead of the discard pile"

    def replace_move(self, e: RulesCore, card: int, holder: str | None, move: Move) -> Move | None:
        st = e.state
        if (holder is None or move.cause != FINISH or move.by != holder or not move.discards
                or st.defs[move.card].name != st.defs[card].params["card"] or not self.power_active(e, card)):
            return None
        e.say(f"{holder} has {e.name(card)} in play: {e.name(move.card)} returns to {holder}'s hand instead of the "
              "discard pile.", "rule-keepers-in-play-for-goals-powers")
        return move.instead(dst=hand(holder), top=False)


@register
class TakeRandomCard(_FreePower):
    """Unseen Force: once a turn, take a random card from another player's hand."""

    name = "take_random_card"
    once_per_turn = True
    summary = "once a turn, take a random card from another player's hand into yours"

    def nothing_to_do(self, e, card, player):
        if not [p for p in e.reachable(player, quiet=True) if p != player and e.state.hands[p]]:
            return ("every other player's hand is empty", None)
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        victims = [p for p in e.reachable(player) if p != player and st.hands[p]]
        victim = e.choose("player", player, f"{player} picks whose hand {e.name(card)} reaches into", victims)
        taken = e.chance(victim, f"a random card from {victim}'s hand", list(st.hands[victim]))
        e.take_into_hand(taken, player, by=player, src=hand(victim))
        e.say(f"{player} takes a random card from {victim}'s hand: {e.name(taken)}.")


# =============================================================================
# Creepers that attach themselves
# =============================================================================
@register
class AttachingCreeper(BlockingCreeper):
    """Brain Parasites, Evil, Malfunction: blocks its holder's wins and is attached to
    one of the holder's Keepers (with the tag, if one is given) whenever the holder has
    one; the engine's checkpoint attaches it, asking the holder when several fit, and
    makes it follow its Keeper."""

    name = "attaching_creeper"
    params = {"tag": Param("str", required=False, default="")}
    attaches = True
    summary = "blocks wins; attaches to one of its holder's Keepers (of a kind) and follows it"
    rulings = ("rule-creeper-placement", "rule-creeper-drawn-auto-play", "creeper-attaches-when-keeper-arrives")

    def can_attach_to(self, creeper: CardDef, keeper: CardDef) -> bool:
        tag = creeper.params.get("tag", "")
        return keeper.type == KEEPER and (not tag or tag in keeper.tags)

    def on_placed(self, e: RulesCore, card: int, owner: str) -> None:
        st = e.state
        if not any(self.can_attach_to(st.defs[card], st.defs[k]) for k in st.keepers[owner]):
            tag = st.defs[card].params["tag"]
            kind = {"brains": "Keeper with brains", "equipment": "piece of equipment"}.get(tag, "Keeper")
            e.say(f"{owner} has no {kind} for {e.name(card)} to attach to, so it stays in front of them on its own "
                  "until one arrives.", "rule-creeper-placement", "creeper-attaches-when-keeper-arrives")


@register
class Malfunction(AttachingCreeper):
    """Malfunction: an attaching Creeper whose Keeper's power stops working."""

    name = "malfunction"
    switches_off_power = True
    summary = "blocks wins; attaches to a piece of equipment and switches its power off"


# =============================================================================
# Actions
# =============================================================================
@register
class DrawThenDiscard(Mechanic):
    """Space Jackpot!: draw cards, then discard some of your choice from your hand."""

    name = "draw_then_discard"
    card_types = _ACTIONS
    params = {"draw": Param("int"), "discard": Param("int")}
    summary = "draw cards, then discard some of your choice from your hand"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        e.draw(player, e.num(card, "draw"), why=e.name(card))
        hand = st.hands[player]
        n = min(e.num(card, "discard"), len(hand))
        if not n:
            return
        picked = e.choose("discard", player, f"{player} discards {n} card(s) from their hand", list(hand), count=n)
        for c in picked:
            e.discard(c, player, src=Zone(HAND, player))
        e.say(f"{player} discards {e.names(picked)}.")


@register
class TimePortal(Mechanic):
    """Time Portal: take any card but a Creeper from the discard pile (order kept) or
    the draw pile (shuffled afterwards) into your hand; your turn ends at once. From a
    temporary hand the card joins the set-aside hand and the rest of the temporary hand
    is discarded. With Time Traveler the Portal itself returns to your hand."""

    name = "time_portal"
    card_types = _ACTIONS
    ends_turn = True
    overrides = _TURN_END_OVERRIDES
    summary = "take any non-Creeper card from the discard or draw pile into your hand; your turn ends at once"
    rulings = ("turn-ending-cards-list", "turn-end-inside-d3p2", "play-all-vs-turn-end", "turn-end-still-limits")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        inside = bool(st.temp_hands)
        options = [c for c in st.discard + st.draw_pile if st.defs[c].type not in (CREEPER, UNKNOWN)]
        if options:
            e.say(f"{e.name(card)} searches the discard pile and the draw pile, and nowhere else: a card held in a hand "
                  "or lying on the table is out of its reach.", "face-down-dreams-and-omens-cards-not-searchable")
            pick = e.choose("card", player, f"{player} looks through the discard pile or the draw pile for any card "
                            "but a Creeper", options)
            if pick in st.discard:
                e.take_into_hand(pick, player, by=player, src=DISCARD_PILE)
                where = "the discard pile, leaving its order as it was"
                cites: tuple[str, ...] = ("discard-pile-public",)
            else:
                e.take_into_hand(pick, player, by=player, src=DRAW)
                e.shuffle(DRAW)
                where = "the draw pile, which is then shuffled"
                cites = ()
            e.say(f"{player} takes {e.name(pick)} from {where}, shows it and adds it to {_set_aside(inside)}.",
                  *cites, *(("turn-end-inside-d3p2",) if inside else ()))
        else:
            e.say(f"There is no card but Creepers and unknown cards to take; {e.name(card)} still ends the turn.",
                  "rule-cards-always-playable")
        e.finish_action(card, player)
        _turn_ends(e, card, player, inside)


@register
class WhatDoYouWant(Mechanic):
    """What Do You Want?: take any card from the discard pile. A New Rule, Action or
    Surprise is played at once; a Keeper or Goal goes into your (set-aside) hand; a
    Creeper goes to another player. Then your turn ends at once."""

    name = "what_do_you_want"
    card_types = _ACTIONS
    ends_turn = True
    overrides = _TURN_END_OVERRIDES
    summary = "take any card from the discard pile (rules and actions are played at once); your turn ends at once"
    rulings = ("turn-ending-cards-list", "turn-end-inside-d3p2", "play-all-vs-turn-end", "discard-pile-public")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        inside = bool(st.temp_hands)
        turn = st.turn_number
        options = [c for c in st.discard if st.defs[c].type != UNKNOWN]
        if not options:
            e.say(f"The discard pile holds nothing to take; {e.name(card)} still ends the turn.", "rule-cards-always-playable")
        else:
            pick = e.choose("card", player, f"{player} picks a card from the discard pile", options)
            e.transfer(pick, IN_FLIGHT, by=player, src=DISCARD_PILE)   # in flight while its destination is decided
            e.say(f"{player} looks through the discard pile, as anyone may, and picks {e.name(pick)}.",
                  "discard-pile-public")
            kind = st.defs[pick].type
            if kind in (KEEPER, GOAL):
                e.take_into_hand(pick, player, by=player, src=IN_FLIGHT)
                e.say(f"{e.name(pick)} is shown and goes into {_set_aside(inside)}.",
                      *(("turn-end-inside-d3p2",) if inside else ()))
            elif kind == CREEPER:
                others = [p for p in e.reachable(player) if p != player] or [player]
                to = e.choose("player", player, f"{player} picks who is given {e.name(pick)}", others)
                e.say(f"A Creeper is never held: {player} gives {e.name(pick)} to {to}.")
                e.place_in_front(to, pick, IN_FLIGHT, by=player)
                e.checkpoint()
            else:
                e.say(f"{e.name(pick)} must be played at once.")
                e.play_card(player, pick, IN_FLIGHT, counted=False, how=" from the discard pile")
        e.finish_action(card, player)
        if st.turn_number == turn:
            _turn_ends(e, card, player, inside)

    def after_inner_cancel(self, e: RulesCore, card: int, player: str) -> None:
        # the card it played was canceled; the turn still ends, as the card says
        e.finish_action(card, player)
        _turn_ends(e, card, player, bool(e.state.temp_hands))


@register
class ReturnTaggedKeepers(Mechanic):
    """Beam Us Up!: every Keeper of a kind goes back to its owner's hand, or all of them
    to the hand of whoever has the gatherer Keeper (the Teleporter) working."""

    name = "return_tagged_keepers"
    card_types = _ACTIONS
    params = {"tag": Param("str"), "gatherer": Param("str", required=False, default="")}
    summary = "every Keeper of a kind returns to its owner's hand, or all go to the gatherer's holder"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        p_ = st.defs[card].params
        beings = [(p, k) for p in e.reachable(player) for k in st.keepers[p]
                  if st.defs[k].type == KEEPER and p_["tag"] in st.defs[k].tags]
        if not beings:
            e.say(f"{e.name(card)} finds no such Keeper in play; it is still a legal play and still uses the play.",
                  "rule-cards-always-playable")
            return
        gatherers = [(p, k) for p in e.seat_order(start=player) for k in st.keepers[p]
                     if p_["gatherer"] and st.defs[k].name == p_["gatherer"] and st.defs[k].impl.power_active(e, k)]
        holder = gatherers[0][0] if gatherers else None
        broken = [k for p in st.players for k in st.keepers[p]
                  if p_["gatherer"] and st.defs[k].name == p_["gatherer"] and not st.defs[k].impl.power_active(e, k)]
        if broken and holder is None:
            e.say(f"The {p_['gatherer']} in play is switched off by a Malfunction, so it gathers nothing: "
                  f"{e.name(card)} goes exactly as if there were no {p_['gatherer']}.",
                  "malfunctioning-teleporter-gathers-nothing")
        if len(gatherers) > 1:
            if broken:
                e.say(f"{e.names(broken)} in front of {', '.join(dict.fromkeys(str(st.owner_of_keeper(k)) for k in broken))} "
                      "is switched off by a Malfunction and gathers nothing: only the working ones count.",
                      "malfunctioning-teleporter-gathers-nothing")
            self._in_groups(e, card, player, beings, gatherers)
            return
        with e.atomic():
            for p, k in beings:
                e.take_into_hand(k, holder or p, by=player)
            e.say("Keepers that return to a hand are no longer in play.", "rule-in-play-definition")
            if holder:
                e.say(f"{holder} has the {p_['gatherer']} working, so every one of them goes to {holder}'s hand: "
                      f"{e.names(k for _, k in beings)}.")
            else:
                for p in dict.fromkeys(p for p, _ in beings):
                    back = [k for q, k in beings if q == p]
                    e.say(f"{e.names(back)} {'goes' if len(back) == 1 else 'go'} back to {p}'s hand.")


    GROUP = 6

    def _in_groups(self, e: RulesCore, card: int, player: str, beings: list[tuple[str, int]],
                   gatherers: list[tuple[str, int]]) -> None:
        """Several gatherers working (decks combined): the card's player takes their pick
        of the first six; then, in turn order from the next player round the table, each
        gatherer beams up the next group of up to six for its holder, who picks it, until
        none is left (the card's player's own gatherers come round last)."""
        st = e.state
        gatherer = st.defs[gatherers[0][1]].name
        left = [k for _, k in beings]
        slots = [p for p in e.seat_order(start=player)[1:] + [player] for q, _ in gatherers if q == p]
        order = [player]
        while len(order) * self.GROUP < len(left):
            order += slots
        groups: list[tuple[str, list[int]]] = []
        for p in order:
            if not left:
                break
            if len(left) <= self.GROUP:
                group = list(left)
            else:
                group = e.choose("cards", p, f"{p} picks the {self.GROUP} Keepers {p} beams up", list(left),
                                 count=self.GROUP, cites=("several-transporters-six-apiece",),
                                 fate=(f"goes to {p}", "waits for the next group"))
            left = [k for k in left if k not in group]
            groups.append((p, group))
        e.say(f"{len(gatherers)} {gatherer}s are working ({', '.join(p for p, _ in gatherers)}): {player}, who played "
              f"{e.name(card)}, takes their pick of the first {self.GROUP}; then, in turn order, each {gatherer} "
              f"beams up the next group of up to {self.GROUP} for its holder, round the table until none is left.",
              "several-transporters-six-apiece")
        with e.atomic():
            for p, group in groups:
                for k in group:
                    e.take_into_hand(k, p, by=player)
            e.say("Keepers that return to a hand are no longer in play.", "rule-in-play-definition")
            for p, group in groups:
                e.say(f"{e.names(group)} {'goes' if len(group) == 1 else 'go'} to {p}'s hand.",
                      "several-transporters-six-apiece")


@register
class TradePlaces(Mechanic):
    """Brain Transference: you and a chosen player swap hands and everything in front
    of you (the printed card swaps seats); your turn ends at once."""

    name = "trade_places"
    card_types = _ACTIONS
    ends_turn = True
    overrides = _TURN_END_OVERRIDES
    summary = "swap hands and everything in front of you with another player; your turn ends at once"
    rulings = ("turn-ending-cards-list", "turn-end-inside-d3p2", "play-all-vs-turn-end")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        inside = bool(st.temp_hands)
        others = [p for p in e.reachable(player) if p != player]
        if others:
            other = e.choose("player", player, f"{player} picks who to trade places with", others)
            with e.atomic():
                e.pass_zones([(hand(player), hand(other)), (hand(other), hand(player))])
                e.pass_zones([(table(player), table(other)), (table(other), table(player))])
                e.say(f"{player} and {other} trade places: each takes over the other's hand and everything in front of "
                      "them; the seating stays as it was (the printed card swaps seats, the FAQ says trade places). "
                      f"{player} holds the new position as if it had always been {player}'s, and it is checked for a win "
                      "before the turn ends.", "brain-transference-new-position-checked-first",
                      *(("turn-end-inside-d3p2",) if inside else ()))
                if st.another_turn:
                    e.say(f"The extra turn {player} earned stays with {player}, in the new position, and comes "
                          "straight after this one.", "extra-turn-stays-with-transferred-player")
                limit = next((n for r in e.rule_cards() if (n := st.defs[r].impl.hand_limit(e, r)) is not None), None)
                if limit is not None:
                    limit += sum(st.defs[k].impl.limit_bonus(e, k, other) for k in st.keepers[other])
                    if len(st.hands[other]) > limit:
                        e.say(f"Nobody discarded before the trade: {other} now holds {player}'s {len(st.hands[other])} "
                              f"cards and, as it is not {other}'s turn, cuts them to the Hand Limit of {limit} before "
                              f"{other}'s own next turn.", "brain-transference-big-hand-limit-later")
        else:
            e.say("There is nobody to trade places with.", "rule-cards-always-playable")
        e.finish_action(card, player)
        _turn_ends(e, card, player, inside)


@register
class Sledgehammer(Mechanic):
    """Sonic Sledgehammer: every player loses one Keeper, picked by the player of the
    card; someone with no Keeper loses a random card from hand; the holder of the
    sparing Keeper (Time Traveler) loses nothing."""

    name = "sledgehammer"
    card_types = _ACTIONS
    params = {"spared_by": Param("str", required=False, default="")}
    summary = "every player loses a Keeper you pick (or a random card); the holder of the sparing Keeper loses nothing"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        spared = st.defs[card].params["spared_by"]
        losses: list[tuple[str, int, bool]] = []
        for p in e.reachable(player):
            if spared and any(st.defs[k].name == spared for k in st.keepers[p]):
                e.say(f"{p} has the {spared} and loses nothing.")
                continue
            mine = [k for k in st.keepers[p] if st.defs[k].type == KEEPER]
            if mine:
                crew = e.with_effect("takes_the_loss", p) if p != player else []
                if crew:
                    k = crew[0]
                    e.say(f"{p}'s {e.name(k)} steps in: it is the Keeper {p} loses, since {player}, who picks, is "
                          f"taking one of {p}'s Keepers and the {e.name(k)} goes in its place.",
                          "sonic-sledgehammer-and-expendable-crewman")
                else:
                    k = e.choose("card", player, f"{player} picks the Keeper {p} loses", mine)
                    if p == player and e.with_effect("takes_the_loss", p):
                        e.say(f"Among {player}'s own Keepers the pick is free: the Crewman steps in only for Keepers "
                              "someone else takes or destroys.", "sonic-sledgehammer-and-expendable-crewman")
                losses.append((p, k, True))
            elif st.hands[p]:
                c = e.chance(p, f"a random card from {p}'s hand", list(st.hands[p]))
                losses.append((p, c, False))
        with e.atomic():
            for p, c, from_table in losses:
                if from_table:
                    e.say(f"{p} loses {e.name(c)} from the table.")
                    e.discard(c, player)
                else:
                    e.discard(c, player, src=hand(p))
                    e.say(f"{p} has no Keeper and loses a random card from hand: {e.name(c)}.")


@register
class DistressCall(Mechanic):
    """Distress Call: everyone draws; a player with Creepers draws until they have drawn
    a number for each Creeper in front of them (counted again as Creepers arrive)."""

    name = "distress_call"
    card_types = _ACTIONS
    params = {"each": Param("int"), "per_creeper": Param("int")}
    summary = "everyone draws; players with Creepers draw more for each Creeper"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        for p in e.reachable(player):
            got = 0
            while True:
                creepers = sum(1 for k in st.keepers[p] if st.defs[k].type == CREEPER)
                want = max(e.num(card, "each"), e.num(card, "per_creeper") * creepers)
                if got >= want:
                    break
                asked = want - got
                drawn = e.draw(p, asked, why=e.name(card))
                got += len(drawn)
                if len(drawn) < asked:
                    break                           # both piles are empty
            if creepers:
                e.say(f"{p} has {creepers} Creeper(s) and so draws {got} card(s) in all.")
