"""Cards the online FAQ rules on that belong to other decks (Holiday, Wonderland,
Firefly, Hundred Acre Wood...). Where our material gives only part of a card, the
mechanic does that part and says plainly in the verdict what the seeds leave open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.decisions import BadAnswer
from adjudicator.mechanics.base import ACTION, EFFECTS, KEEPER, META_RULE, RULE, Mechanic, Param, register
from adjudicator.movement import DISCARD_PILE, DRAW, IN_FLIGHT, RULES_IN_PLAY, under
from adjudicator.mechanics.free_actions import MysteryPlay

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.mechanics.api import RulesCore

_RULES = frozenset({RULE, META_RULE})
_ACTIONS = frozenset({ACTION})


@register
class TurnEnder(Mechanic):
    """Actions whose known effect is that the turn ends at once (Clean Cup!, and the
    leave-the-room cards, which end it implicitly)."""

    name = "turn_ender"
    card_types = _ACTIONS
    # `until_next_turn`: a static effect (EFFECTS) the card leaves on its player until
    # their next turn begins (I'll Be In My Bunk: `out_of_reach`)
    params = {"leaves_room": Param("bool", required=False, default=False),
              "until_next_turn": Param("str", required=False, default="")}
    ends_turn = True
    overrides = {"slot:play": "play-all-vs-turn-end", "concept:temporary_hand": "turn-end-inside-d3p2"}
    summary = "the turn ends at once (the rest of the card's text is not in our material)"

    def lasting_effects(self, card: CardDef) -> frozenset[str]:
        effect = card.params.get("until_next_turn") or ""
        return frozenset({effect}) if effect in EFFECTS else frozenset()

    def play(self, e: RulesCore, card: int, player: str) -> None:
        if e.state.defs[card].params["leaves_room"]:
            e.say(f"{e.name(card)} sends {player} out of the room for a few minutes: the card does not say so in as "
                  "many words, but the turn cannot go on.", "turn-ending-cards-list")
        for effect in sorted(self.lasting_effects(e.state.defs[card])):
            e.lasting_effect(player, effect, card)
            if effect == "out_of_reach":
                e.say(f"Until {player}'s next turn begins, {player} is out of everyone else's reach: nobody may take "
                      f"{player}'s Keepers or cards in hand, trade hands with {player} or otherwise change what "
                      f"{player} has, and {player} is given nothing either.", "in-my-bunk-shields-all-assets")
        e.end_turn(e.name(card), immediately=True)


@register
class UnknownEffect(Mechanic):
    """A card whose effect our material does not give: it resolves with no modelled
    effect, and the verdict says so."""

    name = "unknown_effect"
    card_types = _ACTIONS
    params = {"known": Param("str", required=False, default="")}
    summary = "effect not in our material"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        known = e.state.defs[card].params["known"]
        e.say(f"The seeds are silent on what {e.name(card)} does" + (f" beyond this: {known}" if known else "") +
              ". The engine applies no effect; check the printed card.")


@register
class OpaqueRule(Mechanic):
    """A New Rule our material only names: it sits in play without contradicting any
    rule; its free action, if it has one, cannot be judged."""

    name = "opaque_rule"
    card_types = _RULES
    params = {"known": Param("str", required=False, default=""), "free": Param("bool", required=False, default=False)}
    coexists = {"concept:temporary_hand": "gowi-inside-temp-hand"}
    summary = "named in the FAQ; its text is not in our material"

    free_action = True

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        d = e.state.defs[card]
        if not d.params["free"]:
            return (f"{d.name} gives no free action that the engine knows of", None)
        return (f"the seeds do not give the numbers of {d.name}'s free action ({d.params['known']}); the engine cannot "
                "judge its use", None)


@register
class PlayAllPlusOne(Mechanic):
    """Play All, then one card from the top of the draw pile (a mandatory Mystery Play
    you may time), then the turn ends."""

    name = "play_all_plus"
    card_types = _RULES
    params = {"extra": Param("int")}
    slot = "play"
    free_action = True
    ends_turn = True
    summary = "play every card in hand, then play the top card of the draw pile; the turn then ends"
    rulings = ("play-all-plus-bonus", "turn-ending-cards-list")

    def play_quota(self, e: RulesCore, card: int) -> tuple[str, int] | None:
        return ("all_but", 0)

    def turn_duty(self, e: RulesCore, card: int, player: str) -> str | None:
        # the +1 must be taken while there is a card to take; with both piles empty it
        # cannot be, and the turn may end without it
        if card not in e.state.free_used and self.cannot_use(e, card, player) is None:
            return f"the +1 of {e.name(card)} is not optional: take it (use: {e.name(card)}) to end the turn"
        return None

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        if not st.draw_pile and not st.discard:
            return ("there is no card left to take from the draw pile", "no-cards-left-to-draw")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        for _ in range(e.num(card, "extra")):
            if not st.draw_pile and not e.reshuffle():
                break
            top = st.draw_pile[0]
            e.say(f"{player} takes the +1 of {e.name(card)}: {e.name(top)} from the top of the draw pile is played at "
                  "once, like a Mystery Play tacked onto Play All.", "play-all-plus-bonus")
            e.play_card(player, top, DRAW, counted=False, how=" from the top of the draw pile")
            if st.game_over:
                return
        e.end_turn(e.name(card), immediately=True)

    def after_inner_cancel(self, e: RulesCore, card: int, player: str) -> None:
        # the card the +1 played was canceled; taking the +1 still ends the turn
        if not e.state.game_over and e.state.phase == "play":
            e.end_turn(e.name(card), immediately=True)


@register
class GiftGiveaway(Mechanic):
    """Everyone lifts one of their Keepers, then everyone gives the lifted Keeper to
    another player, players left with no Keepers served first. Two phases: nobody
    passes on a gift just received."""

    name = "gift_giveaway"
    card_types = _ACTIONS
    summary = "each player lifts one of their Keepers, then gives it away; the Keeperless are gifted first"
    rulings = ("gift-giveaway-no-regift", "gift-giveaway-holding-keeper")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        order = e.reachable(player)      # (a player out of reach neither lifts nor receives)
        if len(order) < 2:   # Solo, or everyone else eliminated: no one to give a Keeper to
            e.say(f"{e.name(card)} has nothing to act on (nobody else is at the table to receive a gift); "
                  "it is still a legal play and still uses the play.", "rule-cards-always-playable")
            return
        held: dict[str, int | None] = {}     # None: lifted and already given away
        with e.atomic():
            lifted: dict[str, int] = {}
            for p in order:
                mine = [k for k in st.keepers[p] if st.defs[k].type == KEEPER]
                if mine:
                    lifted[p] = held[p] = e.choose("card", p, f"{p} lifts one of their Keepers to give away", mine)
            e.say("First everyone lifts a Keeper (" + ", ".join(f"{p}: {e.name(k)}" for p, k in lifted.items()) +
                  "); a player holding one aloft still counts as having it.", "gift-giveaway-holding-keeper")
            # the table may say where every lifted Keeper went at once (a `deal` answer)
            given = None
            if held and e.next_answer_is_mapping():
                dealt = e.choose("deal", player, "who received each lifted Keeper", list(lifted.values()),
                                 recipients=tuple(order))
                given = {k: q for q, ks in dealt.items() for k in ks}
            received: set[str] = set()
            for p in order:
                if p not in held:
                    continue
                k = lifted[p]
                empty = [q for q in order if q != p and q not in received and q not in held
                         and not any(st.defs[x].type == KEEPER for x in st.keepers[q])]
                # players who already gave theirs away and now have none join the queue
                empty += [q for q in order if q != p and q not in received and q in held and held[q] is None
                          and not any(st.defs[x].type == KEEPER for x in st.keepers[q]) and q not in empty]
                options = empty or [q for q in order if q != p]
                if given is None:
                    to = e.choose("player", p, f"{p} gives {e.name(k)} to", options)
                elif given[k] in options:
                    to = given[k]
                else:
                    raise BadAnswer(f"{p} cannot give {e.name(k)} to {given[k]}: it must go to one of "
                                    f"{', '.join(options)}" + (" (players with no Keepers come first)" if empty else ""),
                                    forbidden=True)
                e.move_to(k, to, by=p)
                held[p] = None
                received.add(to)
                e.say(f"{p} gives {e.name(k)} to {to}" + (" (who had no Keepers, so came first)" if empty else "") + ".")
            givers = [p for p in order if p not in held]
            if givers:
                e.say(f"{', '.join(givers)} had no Keeper to lift and so gives nothing, even after receiving one.",
                      "gift-giveaway-no-regift")


@register
class StaysInPlay(Mechanic):
    """Let's Keep Doing That: an Action that stays on the table and works like a New
    Rule once there. As it is played it takes an Action from the discard pile and
    keeps it under itself (a second copy first sends the old one and its Action to the
    discard pile); once a turn its holder may use that Action, which stays under it.
    An anti-Action Surprise may cancel that use (a real Action card is used): the
    Action then stays where it is, and cannot be used again that turn. The card's
    full text is not in our material: this is what the FAQ gives."""

    name = "action_stays_in_play"
    card_types = _ACTIONS
    summary = "stays in play as a rule, keeping an Action from the discard pile that can be used once a turn"
    coexists = {"slot:play": "stop-that-vs-free-action"}
    free_action = True
    once_per_turn = True
    stays_as_rule = True
    rulings = ("lkdt-action-cancelled-but-stays-attached", "same-rule-replaces")
    pile_rulings = ("same-rule-replaces",)
    use_canceled_rulings = ("lkdt-action-cancelled-but-stays-attached",)

    def can_hold(self, card: CardDef, other: CardDef) -> bool:
        # an Action carried out from under it (one that must itself stay in play cannot be)
        return other.type == ACTION and not other.impl.stays_as_rule

    def used_card(self, e: RulesCore, card: int) -> int | None:
        pile = e.state.under.get(card)
        return pile[0] if pile else None

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        old = [r for r in st.rules if r != card and st.defs[r].key == st.defs[card].key]
        for r in old:
            e.discard(r, player, src=RULES_IN_PLAY)
        if old:
            e.say(f"{e.name(card)} is the same card as the {e.names(old)} in play, which is discarded with the Action "
                  "it kept; the new copy then takes any Action from the discard pile, that one included.",
                  "same-rule-replaces")
        e.transfer(card, RULES_IN_PLAY, by=player, src=IN_FLIGHT)
        e.say(f"{e.name(card)} stays in play and from now on works like a New Rule: Stop That! cannot cancel it "
              "there.", "stop-that-vs-free-action", "rule-action-discard-after-use")
        options = [c for c in st.discard if self.can_hold(st.defs[card], st.defs[c])]
        if not options:
            e.say(f"There is no Action in the discard pile for {e.name(card)} to keep, so it keeps none. The seeds do "
                  "not give its full text.", "rule-cards-always-playable")
            return
        kept = e.choose("card", player, f"{player} picks the Action from the discard pile that {e.name(card)} keeps",
                        options, fate=("is kept", "stays in the discard pile"))
        e.transfer(kept, under(card), by=player, src=DISCARD_PILE)
        e.say(f"{e.name(card)} takes {e.name(kept)} from the discard pile and keeps it: once a turn {player} may use "
              f"it (use: {e.name(card)}), and it stays with {e.name(card)}. The seeds do not give the card's full text.",
              "lkdt-action-cancelled-but-stays-attached", "same-rule-replaces")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        pile = st.under.get(card)
        if not pile:
            return (f"{e.name(card)} keeps no Action to use", None)
        if pile[0] in st.free_used:
            return (f"the use of {e.name(pile[0])} kept with {e.name(card)} was canceled this turn: it stays there, "
                    "but it cannot be used again this turn", "lkdt-action-cancelled-but-stays-attached")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        action = st.under[card][0]
        e.say(f"{player} uses the {e.name(action)} kept with {e.name(card)}: it is carried out as if played, and "
              "stays with it. A real Action card is used, so a Surprise that cancels Actions may cancel this use.",
              "lkdt-action-cancelled-but-stays-attached")
        st.defs[action].impl.play(e, action, player)


@register
class Scavenge(Mechanic):
    name = "scavenge"
    card_types = _ACTIONS
    summary = "look down the discard pile from the top and play the first Keeper found"
    rulings = ("lets-do-that-again-order",)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        found = next((c for c in st.discard if st.defs[c].type == KEEPER), None)
        if found is None:
            e.say("No Keeper in the discard pile.", "rule-cards-always-playable")
            return
        e.say(f"Going down the discard pile from the top, the first Keeper is {e.name(found)}.", "lets-do-that-again-order")
        e.play_card(player, found, DISCARD_PILE, counted=False, how=" from the discard pile")


@register
class JudgedBonus(Mechanic):
    """A Draw/Play bonus the table has to judge each turn (an age, a date, revealing a
    fear): asked as the turn begins, granted for that turn."""

    name = "judged_bonus"
    card_types = _RULES
    params = {"question": Param("str"), "draw": Param("int", required=False, default=0),
              "play": Param("int", required=False, default=0), "optional": Param("bool", required=False, default=False),
              "keeper": Param("str", required=False, default="")}
    coexists = {"slot:draw": "extra-draw-play-not-tied", "slot:play": "play-all-plus-bonus"}
    modifies = {"concept:play_count": "play-all-plus-bonus"}
    summary = "extra draws/plays for a player the table judges eligible"

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        d = st.defs[card]
        holder = d.params["keeper"] and any(st.defs[k].name == d.params["keeper"] for k in st.keepers[player])
        ok = holder or e.choose("table", player, d.params["question"].format(player=player), [])
        if ok and d.params["optional"]:
            ok = e.choose("yes_no", player, f"{player} may take the {d.name}: take it?", [])
        if ok:
            st.grant(d.key)
            e.say(f"{d.name} applies to {player} this turn.", "play-all-plus-bonus")

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
        st = e.state
        return e.num(card, "draw") if player == st.active_player and st.defs[card].key in st.claims else 0

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
        st = e.state
        return e.num(card, "play") if player == st.active_player and st.defs[card].key in st.claims else 0


@register
class HolderBonus(Mechanic):
    """A bonus for whoever has a Keeper with a given tag (Martian Technology, Monsters)."""

    name = "holder_bonus"
    card_types = _RULES
    params = {"tag": Param("str"), "draw": Param("int", required=False, default=0),
              "play": Param("int", required=False, default=0)}
    coexists = {"slot:draw": "extra-draw-play-not-tied", "slot:play": "play-all-plus-bonus"}
    modifies = {"concept:play_count": "play-all-plus-bonus"}
    summary = "extra draws and plays for a player with a Keeper of the given kind"

    def _has(self, e, card, player):
        tag = e.state.defs[card].params["tag"]
        return any(tag in e.state.defs[k].tags for k in e.state.keepers[player])

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "draw") if e.state.defs[card].params["draw"] and self._has(e, card, player) else 0

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "play") if e.state.defs[card].params["play"] and self._has(e, card, player) else 0


@register
class PowerKeeper(Mechanic):
    """A Keeper whose power adds to its holder's plays (and draws)."""

    name = "power_keeper"
    card_types = frozenset({KEEPER})
    params = {"draw": Param("int", required=False, default=0), "play": Param("int", required=False, default=0)}
    modifies = {"concept:play_count": "play-bonus-sources-list"}
    summary = "a Keeper that adds to its holder's plays"

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "draw") if e.state.defs[card].params["draw"] else 0

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "play") if e.state.defs[card].params["play"] else 0


@register
class GatedMysteryPlay(MysteryPlay):
    """A Mystery Play analogue that needs a condition: a card in play, or a token act."""

    name = "gated_mystery_play"
    params = {"needs_in_play": Param("str", required=False, default=""), "act": Param("str", required=False, default="")}
    coexists = {"slot:play": "mystery-play-analogues"}
    summary = "Mystery Play, once its condition is met"
    rulings = ("mystery-play-analogues", "mystery-play-must-play-drawn")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        st = e.state
        need = st.defs[card].params["needs_in_play"]
        if need:
            tag = need[4:] if need.startswith("tag:") else None
            present = any((tag in st.defs[k].tags) if tag else st.defs[k].name == need
                          for p in st.players for k in st.keepers[p])
            if not present:
                what = f"a {tag.replace('-', ' ')} Keeper" if tag else need
                return (f"{e.name(card)} works only while {what} is in play", "mystery-play-analogues")
        return super().cannot_use(e, card, player)

    def use(self, e: RulesCore, card: int, player: str) -> None:
        act = e.state.defs[card].params["act"]
        if act and not e.choose("table", player, f"Did {player} {act}?", []):
            e.say(f"{player} did not {act}, so {e.name(card)} does nothing.", "mystery-play-analogues")
            return
        super().use(e, card, player)


@register
class KeeperMysteryPlay(GatedMysteryPlay):
    """A Keeper whose power is a Mystery Play (the Infinity Gauntlet)."""

    name = "keeper_mystery_play"
    card_types = frozenset({KEEPER})
    coexists = {}
