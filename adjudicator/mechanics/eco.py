"""EcoFluxx: the "Eats" Goals and Poison, Creepers that stop every player from winning,
One, Two, Five! (a numeral remap), and the Eco Actions (Extinction, Taxation,
Population Crash, Pollution, Mass Migration) and Composting.

The seed rulebook (`shared/seeds/002_*`) names several of these cards without their
text; the readings below follow the public implementation summarised in
`shared/reference/cards-ecofluxx.md`, and each card record says which parts are ours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import ACTION, CREEPER, GOAL, KEEPER, RULE, Mechanic, Param, register
from adjudicator.movement import DISCARD_PILE, DRAW, FINISH, IN_FLIGHT, OUT_OF_GAME, hand, table

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore

_ACTIONS = frozenset({ACTION})
_RULES = frozenset({RULE})


def _nothing(e, card, what):
    e.say(f"{e.name(card)} has nothing to act on ({what}); it is still a legal play and still uses the play.",
          "rule-cards-always-playable")


def _holds(e, player: str, name: str) -> list[int]:
    st = e.state
    return [k for k in e.showing(player) if st.defs[k].name == name]


# =============================================================================
# Goals
# =============================================================================
def poisoned(e, player: str) -> bool:
    """Whether `player` has a working card that makes their food uneatable (Poison)."""
    return bool(e.with_effect("food_uneatable", player))


@register
class EatsGoal(Mechanic):
    """An "Eats" Goal (This Eats That): won by the player who has the eater Keeper while
    at least one of the listed foods is on the table.

    Reading (the seeds give none): the food may be in front of any player, the eater's
    holder included; food in front of a player who has Poison does not count. A Creeper
    blocks as for any Goal."""

    name = "eats_goal"
    card_types = frozenset({GOAL})
    params = {"eater": Param("str"), "food": Param("names")}
    summary = "the player with the eater wins while any listed food is on the table, unless its holder has Poison"
    rulings = ("rule-keepers-in-play-for-goals-powers",)

    def edible(self, e, card) -> list[int]:
        """Food Keepers on the table that count (not protected by Poison)."""
        st = e.state
        foods = set(st.defs[card].params["food"])
        return [k for p in st.players if p not in st.eliminated and not poisoned(e, p)
                for k in e.showing(p) if st.defs[k].name in foods]

    def win_cites(self, e: RulesCore, card: int) -> tuple[str, ...]:
        return ("rule-keepers-in-play-for-goals-powers",)

    def winners(self, e: RulesCore, card: int) -> set[str]:
        st = e.state
        eater = st.defs[card].params["eater"]
        holders = [p for p in st.players if p not in st.eliminated and _holds(e, p, eater)]
        if not holders or not self.edible(e, card):
            return set()
        return {p for p in holders if not e.blocked(p, card)}


# =============================================================================
# Keepers and Creepers
# =============================================================================
@register
class Poison(Mechanic):
    """Poison: while it is in front of a player, food they have cannot be eaten (it does
    not count for any "Eats" Goal, whoever has the eater)."""

    name = "poison"
    card_types = frozenset({KEEPER})
    effects = frozenset({"food_uneatable"})
    summary = "food Keepers of its holder do not count for the Eats Goals"


@register
class EveryoneBlocker(Mechanic):
    """An EcoFluxx Creeper: wherever it is, no player can win (unless the Goal needs it,
    or a rule such as Silver Lining says Creepers do not block)."""

    name = "eco_creeper"
    card_types = frozenset({CREEPER})
    summary = "while it is in play nobody can win, unless the Goal needs it"
    rulings = ("getting-rid-of-creepers", "rule-creeper-placement")

    def blocks_everyone(self, e: RulesCore, card: int, owner: str, goal: int) -> bool:
        text = (f"{e.name(card)} is on the table (in front of {owner}): it stops every player, not only {owner}, from "
                f"winning {e.name(goal)}.")
        if not any(entry.text == text for entry in e.entries):
            e.say(text, "getting-rid-of-creepers")
        return True


@register
class ForestFire(EveryoneBlocker):
    """Forest Fire: an EcoFluxx Creeper that burns its holder's Keepers, one as each of
    their turns begins, and that its holder may discard whenever they have no Keeper
    left (at once, even on another player's turn)."""

    name = "forest_fire"
    free_action = True
    off_turn = True
    summary = ("nobody can win while it is in play; burns one of its holder's Keepers as their turn begins; may be "
               "discarded whenever its holder has no Keeper")
    rulings = ("forest-fire-discarded-once-keepers-gone", "getting-rid-of-creepers")

    @staticmethod
    def _fuel(e, card, player):
        st = e.state
        return [k for k in st.keepers[player] if st.defs[k].type == KEEPER]

    def _may_go(self, e, card, player, how):
        e.say(f"{player} has no Keeper left {how}, so {player} may discard {e.name(card)} at once.",
              "forest-fire-discarded-once-keepers-gone")

    def on_placed(self, e: RulesCore, card: int, owner: str) -> None:
        if not self._fuel(e, card, owner):
            self._may_go(e, card, owner, f"as {e.name(card)} arrives")

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        fuel = self._fuel(e, card, player)
        if not fuel:
            return self._may_go(e, card, player, "for it to burn")
        burnt = e.choose("card", player, f"{e.name(card)}: {player} picks the Keeper it burns", fuel)
        move = e.discard(burnt, player, src=table(player))
        e.say(f"{e.name(card)} burns {e.name(move.card)} in front of {player} as the turn begins.",
              "forest-fire-discarded-once-keepers-gone")
        if not self._fuel(e, card, player):
            self._may_go(e, card, player, "once it has burnt")

    def cannot_use(self, e: RulesCore, card: int, player: str) -> tuple[str, str | None] | None:
        if self._fuel(e, card, player):
            return (f"{player} may discard {e.name(card)} only once they have no Keeper left",
                    "forest-fire-discarded-once-keepers-gone")
        return None

    def use(self, e: RulesCore, card: int, player: str) -> None:
        e.discard(card, player, src=table(player))
        e.say(f"{player}, with no Keeper left, discards {e.name(card)}.", "forest-fire-discarded-once-keepers-gone")


# =============================================================================
# New Rules
# =============================================================================
@register
class NumeralRemap(Mechanic):
    """One, Two, Five!: a numeral printed as `from` on another card reads as `to`.

    The remap works on the printed figure: a 3 that Inflation has raised to 4 still came
    from a printed 3 and becomes 5 plus Inflation's one, whichever rule was played first;
    a printed 2 that Inflation makes 3 is not remapped. The numeral hook is given the
    value read so far, so the printed figure is found again by running the rules played
    before this one on each numeral the card prints."""

    name = "numeral_remap"
    card_types = _RULES
    params = {"from": Param("int", numeral_ok=False), "to": Param("int", numeral_ok=False)}
    slot = "numerals"
    coexists = {"slot:draw": "", "slot:play": "", "slot:hand_limit": "", "slot:keeper_limit": ""}
    modifies = {"concept:numerals": ""}
    summary = "a numeral printed as one figure on other cards reads as another"

    def numeral(self, e: RulesCore, card: int, target: int, value: int) -> int:
        st = e.state
        src, dst = st.defs[card].params["from"], st.defs[card].params["to"]
        order = st.rules + st.meta_rules
        before = [r for r in order[:order.index(card)] if r != target] if card in order else []
        if target < 0 or target >= len(st.defs):
            printed = [value] if not before else []
        else:
            d = st.defs[target]
            printed = [v for n, v in d.params.items() if n in d.numerals and isinstance(v, int)]
        for p in printed:
            v = p
            for r in before:
                v = st.defs[r].impl.numeral(e, r, target, v)
            if v == value:
                return value + (dst - src) if p == src else value
        return value

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        d = e.state.defs[card]
        e.say(f"{d.name}: every {d.params['from']} printed as a numeral on another card now reads as "
              f"{d.params['to']}; numbers written in words do not change.", "rule-new-rule-immediate")


@register
class Composting(Mechanic):
    """Composting: players may take their draws from the bottom of the discard pile as
    well as from the draw pile. The engine offers the choice for the Draw rule's cards
    as a turn begins (how many come from the bottom of the discard pile); other draws
    come from the draw pile. Two copies in play act as one."""

    name = "composting"
    card_types = _RULES
    coexists = {"slot:draw": ""}
    summary = "a turn's draws may come from the bottom of the discard pile"

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        first = next(r for r in st.rules if st.defs[r].mechanic == self.name)
        if card != first or not st.discard:
            return
        most = min(e.draw_total(player), len(st.discard))
        if most <= 0:
            return
        n = e.choose("number", player, f"{e.name(card)}: how many of {player}'s draws come from the bottom of the "
                     "discard pile (the rest come from the draw pile)?", list(range(most + 1)))
        got = 0
        while got < n and st.discard:
            c = st.discard[-1]
            if st.defs[c].type == CREEPER:
                e.place_in_front(player, c, DISCARD_PILE, by=player)
                e.say(f"{player} takes the Creeper {e.name(c)} from the bottom of the discard pile: it goes in front "
                      "of them and does not count as a card drawn.", "rule-creeper-drawn-auto-play")
                continue
            e.take_into_hand(c, player, by=player, src=DISCARD_PILE)
            got += 1
        st.drawn += got
        if got:
            e.say(f"{player} draws {got} card(s) from the bottom of the discard pile ({e.name(card)}).")


# =============================================================================
# Actions
# =============================================================================
@register
class Extinction(Mechanic):
    """Extinction: a living Keeper in play, and this card, leave the game."""

    name = "extinction"
    card_types = _ACTIONS
    params = {"tag": Param("str")}
    summary = "a living Keeper in play and this card are removed from the game"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        tag = st.defs[card].params["tag"]
        targets = [k for p in e.reachable(player) for k in st.keepers[p]
                   if st.defs[k].type == KEEPER and tag in st.defs[k].tags]
        if not targets:
            _nothing(e, card, "no living Keeper in play")
            e.say(f"With nothing made extinct, {e.name(card)} does not leave the game: it is discarded like any "
                  "other Action and stays in circulation.", "extinction-without-target-is-discarded")
            return
        target = e.choose("card", player, f"{player} picks the living Keeper that goes extinct", targets)
        with e.atomic():
            move = e.transfer(target, OUT_OF_GAME, by=player)
            e.transfer(card, OUT_OF_GAME, by=player, cause=FINISH)    # (from wherever it is being carried out)
        e.say(f"{e.name(move.card)} goes extinct: it leaves the game from in front of {move.src.player}, and "
              f"{e.name(card)} leaves "
              "the game with it. Neither goes to the discard pile, so no reshuffle brings them back.")


@register
class Taxation(Mechanic):
    """Taxation: every other player gives you a card of their own choosing from their hand."""

    name = "taxation"
    card_types = _ACTIONS
    summary = "every other player gives you a card of their choice from their hand"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        payers = [p for p in e.reachable(player) if p != player and st.hands[p]]
        if not payers:
            return _nothing(e, card, "every other hand is empty")
        with e.atomic():
            for p in payers:
                c = e.choose("card", p, f"{p} picks the card from their hand they give {player}", list(st.hands[p]))
                e.take_into_hand(c, player, by=p, src=hand(p))
                e.say(f"{p} chooses a card and gives it to {player}.")


def pictured(e, goal: int) -> set[str]:
    """Names of the Keepers a Goal shows (what it needs, any of, forbids, eats)."""
    st = e.state
    d = st.defs[goal]
    names: list[str] = []
    for key in ("needs", "any_of", "nobody_has", "food"):
        names.extend(d.params.get(key) or [])
    if d.params.get("eater"):
        names.append(d.params["eater"])
    out: set[str] = set()
    for n in names:
        if n.startswith("tag:"):
            out |= {c.name for c in e.cat if c.type == KEEPER and n[4:] in c.tags}
        else:
            out.add(n)
    return out


def _turned_creepers(e, card: int, turned: list[int]) -> None:
    st = e.state
    creepers = [c for c in turned if st.defs[c].type == CREEPER]
    if creepers:
        one = len(creepers) == 1
        e.say(f"{e.names(creepers)} {'was' if one else 'were'} turned over, not drawn: nobody takes a Creeper that a "
              f"card only turns up, so {'it stays' if one else 'they stay'} on the discard pile with the rest.",
              "pandoras-box-turned-creepers-discarded")


@register
class PopulationCrash(Mechanic):
    """Population Crash: cards are turned over from the draw pile onto the discard pile
    until a Goal shows; every Keeper that Goal pictures is discarded from the table.
    The draw pile is refilled from the discard pile at most once; if no Goal turns up,
    nothing else happens."""

    name = "population_crash"
    card_types = _ACTIONS
    summary = "turn cards over until a Goal shows; the Keepers it pictures are discarded from the table"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        from adjudicator.decisions import Rejected

        st = e.state
        turned: list[int] = []
        refilled = False
        goal = None
        while goal is None:
            if not st.draw_pile:
                if refilled or not e.reshuffle():
                    break
                refilled = True
            top = st.draw_pile[0]
            if st.defs[top].type == "unknown":
                raise Rejected(f"{e.name(card)} turns up a card nobody can see ('?'): name the cards of the draw pile "
                               "down to the next Goal to judge it")
            e.discard(top, player, src=DRAW)
            turned.append(top)
            if st.defs[top].type == GOAL:
                goal = top
        if goal is None:
            e.say(f"{e.name(card)} turns over {e.names(turned)} and no Goal shows: nothing else happens.")
            _turned_creepers(e, card, turned)
            return
        e.say(f"{e.name(card)} turns over {e.names(turned)} onto the discard pile; the first Goal is {e.name(goal)}.")
        _turned_creepers(e, card, turned)
        names = pictured(e, goal)
        gone = [(p, k) for p in e.reachable(player) for k in st.keepers[p]
                if st.defs[k].type == KEEPER and st.defs[k].name in names]
        if not gone:
            e.say(f"None of the Keepers {e.name(goal)} pictures is in play.")
            return
        with e.atomic():
            lost = [(p, e.discard(k, player).card) for p, k in gone]
        e.say("The population crashes: " + "; ".join(f"{p} loses {e.name(k)}" for p, k in lost) + ".")


@register
class DiscardNamed(Mechanic):
    """Pollution: every copy of the named Keepers in play is discarded."""

    name = "discard_named"
    card_types = _ACTIONS
    params = {"keepers": Param("names")}
    summary = "discard the named Keepers wherever they are in play"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        names = set(st.defs[card].params["keepers"])
        gone = [(p, k) for p in e.reachable(player) for k in st.keepers[p] if st.defs[k].name in names]
        if not gone:
            return _nothing(e, card, f"none of {', '.join(st.defs[card].params['keepers'])} in play")
        with e.atomic():
            lost = [(p, e.discard(k, player).card) for p, k in gone]
        e.say("Discarded: " + "; ".join(f"{e.name(k)} from {p}" for p, k in lost) + ".")


@register
class MassMigration(Mechanic):
    """Mass Migration: the player picks a direction; every player with a Keeper passes
    one of their choice to the neighbour that way, all at once."""

    name = "mass_migration"
    card_types = _ACTIONS
    summary = "every player passes a Keeper of their choice to the next player in the chosen direction"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        order = e.reachable(player)      # (a player out of reach neither passes nor receives)
        movers = [p for p in order if any(st.defs[k].type == KEEPER for k in st.keepers[p])]
        if len(order) < 2 or not movers:
            return _nothing(e, card, "no Keeper to pass on" if len(order) >= 2 else "nobody to pass to")
        left, right = order[1], order[-1]
        to = e.choose("player", player, f"{player} chooses the direction: the player their own Keepers pass to",
                      list(dict.fromkeys([left, right])))
        step = 1 if to == left else -1
        picks = {}
        for p in movers:
            mine = [k for k in st.keepers[p] if st.defs[k].type == KEEPER]
            picks[p] = e.choose("card", p, f"{p} picks the Keeper that migrates", mine)
        with e.atomic():
            for p, k in picks.items():
                nxt = order[(order.index(p) + step) % len(order)]
                move = e.move_to(k, nxt, by=p)          # each player passes on their own Keeper
                e.say(f"{p}'s {e.name(move.card)} migrates to {nxt}.")
