"""Actions: resolved as written, then discarded. Everything an Action sets off is
part of its one play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import math

from adjudicator.decisions import BadAnswer
from adjudicator.mechanics.base import ACTION, CREEPER, DANGER, KEEPER, RULE, SURPRISE, Mechanic, Param, register
from adjudicator.movement import DISCARD_PILE, DRAW, EXCHANGE, IN_FLIGHT, hand, table, under

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore

_ACTIONS = frozenset({ACTION, DANGER, SURPRISE})


def _keepers_of(e, players, types):
    st = e.state
    return [k for p in players for k in st.keepers[p] if st.defs[k].type in types]


def worn_out_of_reach(e, players) -> None:
    """An Action taking Keepers from the table of `players`: say that the Keepers they
    wear, held face-out in the hand (a worn Magic Ring), are not among them: they are
    in a hand, out of play (a hand swap takes them with the hand)."""
    st = e.state
    if not st.face_out:
        return
    for p in players:
        worn = [c for c in st.hands[p] if c in st.face_out and st.defs[c].type == KEEPER]
        if worn:
            e.say(f"{e.names(worn)}, worn face-out in {p}'s hand, {'is' if len(worn) == 1 else 'are'} in a hand, not in "
                  "play: an Action that takes Keepers from the table cannot reach it.", "worn-magic-ring-out-of-play")


def made_to_play_a_surprise(e, card: int, player: str) -> None:
    """A Surprise that a card makes its player play at once, on their own turn, is
    played for its in-turn side: what its out-of-turn side answers cannot be happening."""
    if e.state.defs[card].type == SURPRISE:
        e.say(f"{e.name(card)} is a Surprise that {player} is made to play during their own turn, so its in-turn side "
              "applies: what its out-of-turn side answers is not happening here.",
              "surprise-dealt-by-dreams-and-omens-is-in-turn")


def _nothing(e, card, what):
    e.say(f"{e.name(card)} has nothing to act on ({what}); it is still a legal play and still uses the play.",
          "rule-cards-always-playable")


@register
class Trash(Mechanic):
    name = "trash"
    card_types = _ACTIONS
    params = {"types": Param("names")}
    summary = "discard one card of the given kinds from the table"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        types = set(st.defs[card].params["types"])
        targets = _keepers_of(e, e.reachable(player, st.players), types) + ([r for r in st.rules] if RULE in types else [])
        if not targets:
            return _nothing(e, card, "no such card in play")
        target = e.choose("card", player, f"{player} picks the card {e.name(card)} discards", targets)
        owner = st.owner_of_keeper(target)
        with e.atomic():
            move = e.discard(target, by=player)
        if move.discards:       # (a card in force may have sent it elsewhere, and said so)
            gone = move.card
            cites: tuple[str, ...] = ("trash-own-keeper",) if owner == player else ()
            why = ""
            if owner == player and all(st.owner_of_keeper(t) == player for t in targets if t != target) \
                    and all(t not in st.rules for t in targets):
                # the card must trash something: with nothing else on the table, its player's own goes
                why = (f" ({player}'s own were the only ones on the table, and {e.name(card)} must trash something; "
                       "had another player had one, it could have been chosen instead)")
                cites += ("trash-a-keeper-forced-onto-own-keepers",)
            e.say(f"{e.name(gone)} is discarded" + (f" from in front of {owner}{why}." if owner else " from the rules in play."),
                  *cites, *(("limit-removed-before-turn-end",) if st.defs[gone].impl.slot in ("hand_limit", "keeper_limit")
                            else ()))
            if owner is None:
                e.say(f"What {e.name(gone)} did stops with it: the game keeps no memory of a rule that is gone, so the "
                      "table is judged from now on as if it had never been in play.", "no-lingering-effects-once-a-card-leaves")


@register
class Steal(Mechanic):
    name = "steal"
    card_types = _ACTIONS
    params = {"types": Param("names")}
    summary = "move one card of the given kinds from another player's table to yours"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        types = set(st.defs[card].params["types"])
        others = e.reachable(player, [p for p in st.players if p != player])
        if KEEPER in types:
            worn_out_of_reach(e, others)
        targets = _keepers_of(e, others, types)
        if not targets:
            return _nothing(e, card, "nobody else has one")
        target = e.choose("card", player, f"{player} picks what to steal", targets)
        move = e.steal(target, player)
        e.say(f"{player} takes {e.name(move.card)} from {move.src.player}: taking another player's Keeper needs a card that "
              "allows it, and this one does.", "grab-keeper-cheating")
        e.checkpoint()


@register
class RotateHands(Mechanic):
    name = "rotate_hands"
    card_types = _ACTIONS
    summary = "every hand passes to the next player in the direction the player chooses"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        order = e.reachable(player)   # player first (a player out of reach keeps their hand)
        if len(order) < 2:
            return _nothing(e, card, "nobody to pass to")
        left, right = order[1], order[-1]
        to = e.choose("player", player, f"{player} chooses the direction: the player their own hand passes to "
                      "(left or right, never across)", list(dict.fromkeys([left, right])),
                      cites=("rotate-hands-left-or-right-only",))
        step = 1 if to == left else -1
        with e.atomic():
            e.pass_zones([(hand(p), hand(order[(i + step) % len(order)])) for i, p in enumerate(order)])
            e.say(f"Every hand passes one seat on around the table, {player}'s to {to}: the direction is the "
                  "player's choice, left or right.", "rotate-hands-left-or-right-only")


@register
class RulesReset(Mechanic):
    name = "rules_reset"
    card_types = _ACTIONS
    summary = "discard every New Rule; the Basic Rules and the Goals stay"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        if not st.rules:
            return _nothing(e, card, "no New Rules in play")
        gone = list(st.rules)
        e.discard_rules(gone, player)
        e.say(f"All New Rules are discarded ({e.names(gone)}); the Basic Rules remain.", "rule-basic-rules-never-discarded")


@register
class RandomTax(Mechanic):
    name = "random_tax"
    card_types = _ACTIONS
    params = {"each": Param("int")}
    summary = "take cards at random from every other player's hand"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        n = e.num(card, "each")
        for p in e.reachable(player):
            if p == player:
                continue
            for _ in range(n):
                if not st.hands[p]:
                    break
                c = e.chance(p, f"a random card from {p}'s hand for {player}", list(st.hands[p]))
                e.take_into_hand(c, player, by=player, src=hand(p))
                e.say(f"{player} takes a random card from {p}: {e.name(c)}.")
        e.checkpoint()


@register
class Showdown(Mechanic):
    name = "showdown"
    card_types = _ACTIONS
    params = {"games": Param("int")}
    summary = "a contest with one opponent: the winner takes the loser's whole hand"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = [p for p in e.reachable(player) if p != player]
        if not others:
            return _nothing(e, card, "no opponent")
        rival = e.choose("player", player, f"{player} picks an opponent for {e.name(card)}", others)
        games = e.num(card, "games")     # a numeral: Inflation makes the match longer
        needed = games // 2 + 1
        e.say(f"The match is best of {games}: {player} and {rival} throw until one of them has won {needed} games; "
              "a tied throw is thrown again and is not a game"
              + (f"; should it stand at {needed - 1} games each, they throw on until one of them has {needed}." if games % 2 == 0
                 else "."), "rps-showdown-under-inflation")
        winner = e.choose("player", player, f"who was first to win {needed} games of the showdown between {player} "
                          f"and {rival}?", [player, rival])
        loser = rival if winner == player else player
        with e.atomic():
            taken = list(st.hands[loser])
            for c in taken:
                e.take_into_hand(c, winner, by=winner, src=hand(loser))
        e.say(f"{winner} wins the showdown and takes {loser}'s hand ({len(taken)} cards).")
        if any(t.owner == player for t in st.temp_hands):
            # played out of a temporary hand: "your hand" is still the real one, set aside
            e.say(f"{player}'s hand here means the real hand set aside for "
                  f"{e.name(st.temp_hands[-1].source)}, never the temporary one, which {player} goes on playing from.",
                  "rps-showdown-loser-gives-up-real-hand")


@register
class UseWhatYouTake(Mechanic):
    name = "use_what_you_take"
    card_types = _ACTIONS
    summary = "take a random card from an opponent's hand and play it at once as your own"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = [p for p in e.reachable(player) if p != player and st.hands[p]]
        if not others:
            return _nothing(e, card, "every other hand is empty")
        victim = e.choose("player", player, f"{player} picks whose hand to take a card from", others)
        taken = e.chance(victim, f"a random card from {victim}'s hand", list(st.hands[victim]))
        if st.defs[taken].type == "unknown":
            e.take_into_hand(taken, player, by=player, src=hand(victim))
            e.say(f"{player} takes an unknown card from {victim}; nobody can say what it is, so it cannot be "
                  "played: it stays in their hand. Name it in the scenario to judge the rest.")
            return
        e.say(f"{player} takes {e.name(taken)} from {victim} and must play it at once.", "use-what-you-take-keeper")
        made_to_play_a_surprise(e, taken, player)
        e.play_card(player, taken, hand(victim), counted=False, how=f" (taken from {victim})")


@register
class Zap(Mechanic):
    name = "zap"
    card_types = _ACTIONS
    summary = "take any card in play into your hand (a Creeper goes in front of you)"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        targets = [k for p in e.reachable(player, st.players) for k in st.keepers[p]] + list(st.rules) + list(st.goals)
        if not targets:
            return _nothing(e, card, "nothing in play")
        target = e.choose("card", player, f"{player} picks a card in play to take", targets)
        with e.atomic():
            e.detach(target)
            owner = st.owner_of_keeper(target)
            if st.defs[target].type == CREEPER:
                move = e.transfer(target, table(player), by=player)
                e.say(f"{player} takes {e.name(move.card)}: a Creeper cannot be held, so it goes in front of them, "
                      "and since it was never drawn nothing is drawn to replace it.",
                      "rule-creeper-drawn-auto-play", "zapped-creeper-put-down-without-a-draw")
            else:
                move = e.take_into_hand(target, player, by=player)
                e.say(f"{player} takes {e.name(move.card)} into their hand" + (f" from {owner}." if owner else "; it is no longer in play."),
                      "rule-in-play-definition")


@register
class DiscardAndDraw(Mechanic):
    name = "discard_and_draw"
    card_types = _ACTIONS
    summary = "discard your hand and draw as many cards"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        cards = list(st.hands[player])
        for c in cards:
            e.discard(c, player, src=hand(player))
        e.say(f"{player} discards their hand ({len(cards)} cards).")
        e.draw(player, len(cards), why=e.name(card))
        e.checkpoint()


@register
class TempHandAction(Mechanic):
    name = "temp_hand"
    card_types = _ACTIONS
    params = {"draw": Param("int"), "play": Param("int")}
    summary = "set your hand aside, draw cards into a temporary hand and play some of them"
    rulings = ("rule-nested-action-example", "rule-d3p2-creeper-redraw", "rule-action-whole-effect-one-play")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        outer = [t.source for t in st.temp_hands if t.owner == player]
        if outer:
            e.say(f"{e.name(card)} gets a temporary hand of its own, never merged with the one of "
                  f"{e.name(outer[-1])} nor with {player}'s set-aside hand: it is finished and discarded first, then "
                  f"{e.name(outer[-1])} is completed and discarded, and {player}'s own hand comes back last.",
                  "nested-temporary-hands-finish-inside-out")
        e.open_temp_hand(player, card, "draw", "play")


@register
class TodaysSpecial(Mechanic):
    name = "todays_special"
    card_types = _ACTIONS
    params = {"draw": Param("int"), "birthday": Param("int"), "holiday": Param("int"), "other": Param("int")}
    summary = "a temporary hand whose plays depend on what day it is"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        if e.choose("table", player, f"Is it {player}'s birthday today?", []):
            day, why = "birthday", "a birthday"
        elif e.choose("table", player, "Is today a holiday or a special anniversary?", []):
            day, why = "holiday", "a holiday"
        else:
            day, why = "other", "an ordinary day"
        e.say(f"The table agrees it is {why}: {e.num(card, day)} of the cards will be played.")
        e.open_temp_hand(player, card, "draw", day)


@register
class EmptyTheTrash(Mechanic):
    name = "empty_the_trash"
    card_types = _ACTIONS
    summary = "shuffle the discard pile into the draw pile; this card starts a new discard pile"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        # the discard pile goes on top of the draw pile as it lies, then the whole is shuffled
        for c in st.discard[::-1]:
            e.transfer(c, DRAW, by=player, src=DISCARD_PILE, top=True)
        e.shuffle(DRAW)
        e.say(f"The discard pile is shuffled into the draw pile ({len(st.draw_pile)} cards now).")


@register
class EverybodyGets(Mechanic):
    name = "everybody_gets"
    card_types = _ACTIONS
    params = {"each": Param("int")}
    summary = "draw cards for every player, look at them and deal them out as you choose"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        order = e.reachable(player)       # (a player out of reach is given nothing)
        each = e.num(card, "each")
        drawn = e.draw(player, each * len(order), into=st.resolving, why=e.name(card))
        if not drawn:
            return
        e.say(f"{player} looks at the drawn cards ({e.names(drawn)}) and decides who gets which, face down.",
              "everybody-gets-1-look")
        if len(set(order)) == 1:
            deal = {player: list(drawn)}
        else:
            deal = e.choose("deal", player, f"{player} deals {e.names(drawn)}: {each} to each player", list(drawn),
                            count=each, recipients=tuple(order))
            full = len(drawn) == each * len(order)
            beyond = [p for p in deal if p not in order]
            if beyond:
                raise BadAnswer(f"{e.name(card)}: {', '.join(beyond)} cannot be dealt anything (out of reach, or not "
                                "at the table)", forbidden=True)
            for p in order:
                got = len(deal.get(p, []))
                if full and got != each:
                    raise BadAnswer(f"{e.name(card)}: every player gets exactly {each}; {p} was given {got}",
                                    forbidden=True)
        with e.atomic():
            for p, cards in deal.items():
                for c in cards:
                    e.take_into_hand(c, p, by=player, src=IN_FLIGHT)
                e.say(f"{p} gets {len(cards)} card(s).")
        if len(set(order)) > 1:
            e.effect_shown()       # the players have seen what they were dealt: a Surprise now is too late


def arrival_power_holds(e, card: int, holder: str) -> None:
    """`card` has just reached `holder` in a swap, whose two moves are one moment: its
    power already works for `holder` when the Goals are checked. Say so where that
    stops someone else who would meet a Goal if the power came a moment later."""
    st = e.state
    if not st.defs[card].impl.overridden and not st.defs[card].impl.effects:
        return        # (a plain Keeper: no power to come a moment later)
    met, _ = e.goal_claims()
    with st.powerless(card):
        would, _ = e.goal_claims()
    for p, goals in would.items():
        missed = [g for g in goals if g not in met.get(p, [])]
        if p != holder and missed:
            e.say(f"{p} would meet {e.names(missed)} if {e.name(card)} did nothing yet for {holder}; but both Keepers "
                  f"change hands in one moment, so {e.name(card)} works for {holder} from the instant of the swap, "
                  "and the Goals are checked with it in force.", "received-power-acts-at-moment-of-exchange")


@register
class ExchangeKeepers(Mechanic):
    name = "exchange_keepers"
    card_types = _ACTIONS
    summary = "swap one of your Keepers for one of another player's"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = e.reachable(player, [p for p in st.players if p != player])
        worn_out_of_reach(e, others)
        theirs = _keepers_of(e, others, {KEEPER})
        mine = _keepers_of(e, [player], {KEEPER})
        if not theirs or not mine:
            return _nothing(e, card, "both players need a Keeper")
        take = e.choose("card", player, f"{player} picks the Keeper to take", theirs)
        give = e.choose("card", player, f"{player} picks the Keeper to give", mine)
        with e.atomic():
            # a swap is no taking: It's A Trap! cannot answer it (exchange-keepers-is-not-a-steal-for-its-a-trap)
            took = e.move_to(take, player, by=player, cause=EXCHANGE)
            owner = took.src.player
            assert owner is not None
            gave = e.move_to(give, owner, by=player, cause=EXCHANGE)
            # (said before the table settles: the swap may win the game)
            e.say(f"{player} swaps {e.name(gave.card)} for {owner}'s {e.name(took.card)}; {owner} has no say in the "
                  f"trade: {player} picks both Keepers.", "trading-post-target-has-no-say")
            arrival_power_holds(e, gave.card, owner)


@register
class DrawCards(Mechanic):
    name = "draw_cards"
    card_types = _ACTIONS
    params = {"draw": Param("int")}
    summary = "draw extra cards"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        e.draw(player, e.num(card, "draw"), why=e.name(card))


@register
class PlayFromDiscard(Mechanic):
    name = "play_from_discard"
    card_types = _ACTIONS
    params = {"types": Param("names")}
    summary = "play a card of the given kinds from the discard pile at once"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        types = set(st.defs[card].params["types"])
        options = [c for c in st.discard if st.defs[c].type in types]
        # an Action still being carried out (the one whose temporary hand this card came
        # from) reaches the discard pile only once it is done, so it is no option
        unfinished = [c for c in st.resolving if c != card and st.defs[c].type in types]
        if unfinished:
            e.say(f"{e.names(unfinished)} {'is' if len(unfinished) == 1 else 'are'} still being carried out, so "
                  f"{'it has' if len(unfinished) == 1 else 'they have'} not reached the discard pile yet and "
                  f"{e.name(card)} cannot pick {'it' if len(unfinished) == 1 else 'them'}.",
                  "compound-action-not-in-discard-while-resolving")
        if not options:
            return _nothing(e, card, "no such card in the discard pile")
        pick = e.choose("card", player, f"{player} picks a card from the discard pile to play", options)
        e.play_card(player, pick, DISCARD_PILE, counted=False, how=" from the discard pile")


@register
class Simplify(Mechanic):
    name = "simplify"
    card_types = _ACTIONS
    summary = "discard up to half the New Rules in play, rounded up"
    rulings = ("lets-simplify-rounding",)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        if not st.rules:
            return _nothing(e, card, "no New Rules in play")
        most = math.ceil(len(st.rules) / 2)
        picked = e.choose("cards", player, f"{player} may discard up to {most} of the {len(st.rules)} New Rules",
                          list(st.rules), count=most, minimum=0)
        e.discard_rules(picked, player)
        e.say(f"{player} discards {e.names(picked)} ({len(picked)} of at most {most}: half of {len(st.rules) + len(picked)}, "
              "rounded up).", "lets-simplify-rounding")


@register
class DiscardSlots(Mechanic):
    name = "discard_slots"
    card_types = _ACTIONS
    params = {"slots": Param("names")}
    summary = "discard every rule that sets one of the given slots (No Limits)"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        slots = set(st.defs[card].params["slots"])
        gone = [r for r in st.rules if e.graph.slots_of(st.defs[r].key) & slots]
        if not gone:
            return _nothing(e, card, "no such rule in play")
        e.discard_rules(gone, player)
        e.say(f"{e.names(gone)} discarded; a rule stops applying the moment it leaves play.", "limit-removed-before-turn-end")


@register
class TradeHands(Mechanic):
    name = "trade_hands"
    card_types = _ACTIONS
    summary = "swap hands with another player"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        others = [p for p in e.reachable(player) if p != player]
        if not others:
            return _nothing(e, card, "nobody to trade with")
        other = e.choose("player", player, f"{player} picks who to trade hands with", others)
        with e.atomic():
            e.pass_zones([(hand(player), hand(other)), (hand(other), hand(player))])
        cites = ("trade-hands-empty-opponents", "rule-played-card-must-be-followed") if not st.hands[player] else ()
        e.say(f"{player} and {other} swap hands ({player} now holds {len(st.hands[player])}, {other} {len(st.hands[other])}).", *cites)


@register
class ShareTheWealth(Mechanic):
    name = "share_the_wealth"
    card_types = _ACTIONS
    summary = "gather every Keeper, shuffle them and deal them out one at a time from you"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        order = e.reachable(player)        # (a player out of reach keeps their Keepers and gets none)
        pool = _keepers_of(e, e.reachable(player, st.players), {KEEPER})
        if not pool:
            return _nothing(e, card, "no Keepers in play")
        with e.atomic():
            for k in list(pool):
                e.transfer(k, IN_FLIGHT, by=player, src=table(st.holder_of(k)))
            for k in list(pool):
                # cards lying under a Keeper gathered (the Booty buried under a Treasure Map) are mixed in
                buried = list(st.under.get(k, ()))
                if buried:
                    for c in buried:
                        e.transfer(c, IN_FLIGHT, by=player, src=under(k))
                    pool += buried
                    e.say(f"{e.names(buried)}, buried under {e.name(k)}, {'is' if len(buried) == 1 else 'are'} "
                          f"gathered and shuffled in with the rest: nothing stays bundled with {e.name(k)}.",
                          "share-the-wealth-mixes-buried-booty")
            # one at a time from the player who played it, in seat order: the first few get one more
            counts = {p: len(pool) // len(order) + (1 if i < len(pool) % len(order) else 0)
                      for i, p in enumerate(order)}
            if e.next_answer_is_mapping():
                # the table says where each Keeper ended up (a `deal` answer), checked against the dealing order
                deal = e.choose("deal", player, f"the shuffled Keepers dealt one at a time from {player}: " +
                                ", ".join(f"{p} {n}" for p, n in counts.items()), list(pool),
                                recipients=tuple(order))
                wrong = [f"{p} gets {counts[p]}, not {len(deal.get(p, []))}" for p in order
                         if len(deal.get(p, [])) != counts[p]]
                if wrong:
                    raise BadAnswer(f"{e.name(card)} deals one card at a time starting with {player}, so "
                                    + "; ".join(wrong), forbidden=True)
                for p in order:
                    for c in deal.get(p, []):
                        e.transfer(c, table(p), by=player, src=IN_FLIGHT)
            else:
                i = 0
                while pool:
                    to = order[i % len(order)]
                    c = e.chance(player, f"the next shuffled Keeper, dealt to {to}", list(pool))
                    pool.remove(c)
                    e.transfer(c, table(to), by=player, src=IN_FLIGHT)
                    i += 1
        e.say(f"Every Keeper is gathered, shuffled and dealt out again one at a time, starting with {player}, who "
              "so gets any surplus: " + ", ".join(f"{p} gets {n}" for p, n in counts.items()) + ". The deal is one "
              "event: nobody can win partway through it, and the Goals are checked once every card is out.",
              "redistributed-cards-dealt-from-active-player", "mix-it-all-up-deal-all-then-check")


@register
class AnotherTurn(Mechanic):
    name = "another_turn"
    card_types = _ACTIONS
    summary = "take another turn after this one (never more than two in a row)"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        # one extra turn per card: a card (any copy of it) that has already given one in
        # this run of turns gives no more, however it came to be played again
        st = e.state
        key = st.defs[card].key
        if key in st.extra_turn_cards:
            e.say(f"{e.name(card)} has already given {player} an extra turn in this run of turns: played again, or "
                  "another copy of it, it gives no more (two turns in a row through one card at most).",
                  "take-another-turn-never-more-than-two")
            return
        others = len(st.extra_turn_cards)
        st.extra_turn_cards.append(key)
        st.another_turn += 1
        if others:
            e.say(f"{e.name(card)} is another card granting an extra turn: each card gives one, so {player} is owed "
                  f"{st.another_turn} more turn{'s' if st.another_turn > 1 else ''} after this one.",
                  "two-extra-turn-cards-two-extra-turns")
        else:
            e.say(f"{player} will take another turn once this one ends.")


@register
class DiscardAllOfType(Mechanic):
    name = "discard_all_of_type"
    card_types = _ACTIONS
    params = {"types": Param("names")}
    summary = "discard every card of the given kinds in play"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        types = set(st.defs[card].params["types"])
        gone = _keepers_of(e, e.reachable(player, st.players), types)
        if not gone:
            return _nothing(e, card, "none in play")
        with e.atomic():
            for c in gone:
                e.discard(c, player)
        e.say(f"Discarded: {e.names(gone)}.")


@register
class MoveCreeper(Mechanic):
    name = "move_creeper"
    card_types = _ACTIONS
    summary = "move a Creeper from in front of one player to another"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        creepers = _keepers_of(e, e.reachable(player, st.players), {CREEPER})
        if not creepers:
            return _nothing(e, card, "no Creepers in play")
        # a Creeper moves to another player: with nobody else at the table (Solo) it cannot
        creepers = [c for c in creepers if any(p != st.owner_of_keeper(c) for p in e.reachable(player))]
        if not creepers:
            return _nothing(e, card, "nobody else is at the table to receive a Creeper")
        c = e.choose("card", player, f"{player} picks a Creeper to move", creepers)
        owner = st.owner_of_keeper(c)
        assert owner is not None            # a Creeper in front of someone (`creepers`)
        to = e.choose("player", player, f"{player} picks who receives {e.name(c)}",
                      [p for p in e.reachable(player, e.seat_order()) if p != owner])
        e.detach(c)
        e.place_in_front(to, c, table(owner), by=player)
        e.say(f"{e.name(c)} moves from {owner} to {to}.")
        if st.defs[c].impl.free_action:
            e.say(f"Whatever {e.name(c)} itself says about when or to whom its holder may pass it on or be rid of it "
                  f"governs only that way out; {e.name(card)} moves it by its own power.",
                  "creeper-move-limit-binds-only-its-own-move")
        e.checkpoint()
