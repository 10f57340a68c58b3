"""Surprises: two functions each. Out of turn (`surprise:`) one cancels a card of the
kind it names just after it is played; played on your own turn (`play:`) it is a
play with its in-turn effect. Any Surprise also cancels another Surprise (that part
lives in `adjudicator.responses`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from adjudicator.mechanics.base import ACTION, DANGER, GOAL, KEEPER, RULE, SURPRISE, Mechanic, register
from adjudicator.movement import CANCEL, GOALS_IN_PLAY, IN_FLIGHT, hand

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore
    from adjudicator.state import Window

_SURPRISE = frozenset({SURPRISE})
_KIND_WORDS = {KEEPER: "a Keeper", GOAL: "a Goal", RULE: "a New Rule", ACTION: "an Action"}


class SurpriseMechanic(Mechanic):
    card_types = _SURPRISE
    counters: ClassVar[str] = ""                 # the card type its out-of-turn side cancels

    def cannot_answer(self, e: RulesCore, card: int | None, window: Window, player: str) -> tuple[str, ...] | None:
        """Why this Surprise cannot answer `window`: (reason, ruling, more cites...) or None."""
        st = e.state
        name = st.defs[card].name if card is not None else self.name
        target = st.defs[window.card].name
        if window.kind == "use" and not (window.kept and window.card_type == self.counters):
            # (a free action is no card of that kind, unless it uses a real one kept under its card)
            return (f"{name} cancels only {_KIND_WORDS.get(self.counters, self.counters)} card just played; "
                    f"{target}'s free action is not a card play, so it cannot be stopped this way",
                    "stop-that-vs-free-action", "no-burning-surprises")
        if window.card_type != self.counters:
            return (f"{name} cancels only {_KIND_WORDS.get(self.counters, self.counters)} just played; {target} is "
                    f"{_KIND_WORDS.get(window.card_type, 'a ' + window.card_type)}, so it would have no effect, and a "
                    "Surprise may not be played out of turn for no effect", "no-burning-surprises",
                    "surprise-can-stop-win")
        return None

    def answer_reason(self, e: RulesCore, card: int, window: Window) -> str:
        return f"{e.name(card)} cancels {_KIND_WORDS[self.counters]} just played"

    def extra_cites(self, e: RulesCore, card: int, window: Window) -> tuple[str, ...]:
        """Rulings that decide this particular cancel (beyond the two functions)."""
        return ()

    def cancel(self, e: RulesCore, card: int, window: Window, player: str) -> None:
        """Where the canceled card goes once the table is restored: the discard pile
        (a canceled free action leaves its rule or Keeper where it is)."""
        if window.kind != "use":
            e.discard(window.card, player, cause=CANCEL, src=IN_FLIGHT)

    def discard_or_random(self, e: RulesCore, player: str, card_type: str, what: str) -> None:
        """Every other player gives up a card of `card_type` of their choice, or a card
        at random; someone holding none loses a random card."""
        st = e.state
        for p in e.reachable(player):
            if p == player or not st.hands[p]:
                continue
            kinds = [c for c in st.hands[p] if st.defs[c].type == card_type]
            if kinds and not e.choose("yes_no", p, f"{p}: give up a random card instead of choosing {what}?", []):
                lost = e.choose("card", p, f"{p} picks {what} to discard", kinds)
                how = "chooses"
            else:
                lost = e.chance(p, f"a random card from {p}'s hand", list(st.hands[p]))
                how = "loses at random"
            e.discard(lost, p, src=hand(p))
            e.say(f"{p} {how} {e.name(lost)}.", "cancel-in-turn-discard-choice")


@register
class CanceledPlans(SurpriseMechanic):
    name = "canceled_plans"
    counters = GOAL
    cancels = {"concept:type:goal": "surprise-can-stop-win"}
    summary = "out of turn: cancel a Goal just played; in turn: discard the Goals, others lose a Goal or a random card"

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        gone = list(st.goals)
        with e.atomic():
            for g in gone:
                e.discard(g, player, src=GOALS_IN_PLAY)
        e.say(f"The Goal{'s' if len(gone) != 1 else ''} in play ({e.names(gone)}) are discarded.")
        self.discard_or_random(e, player, GOAL, "a Goal")


@register
class StopThat(SurpriseMechanic):
    name = "stop_that"
    counters = ACTION
    cancels = {"concept:type:action": "stop-that-vs-free-action"}
    summary = "out of turn: cancel an Action just played; in turn: others lose an Action or a random card"

    def cannot_answer(self, e: RulesCore, card: int | None, window: Window, player: str) -> tuple[str, ...] | None:
        if window.kind == "play" and window.card_type == DANGER:
            return None
        return super().cannot_answer(e, card, window, player)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        self.discard_or_random(e, player, ACTION, "an Action")


@register
class Veto(SurpriseMechanic):
    name = "veto"
    counters = RULE
    cancels = {"concept:type:rule": "vetoed-rule-old-stays"}
    summary = "out of turn: cancel a New Rule just played (it never takes effect); in turn: discard up to 2 New Rules"

    def answer_reason(self, e, card, window) -> str:
        return (f"{e.name(card)} cancels a New Rule just played: it never took effect, so any rule it would have "
                "replaced stays, and anything discarded because of it comes back")

    def extra_cites(self, e, card, window) -> tuple[str, ...]:
        before = window.before
        rule = e.state.defs[window.card].key
        replaced = before is not None and e.graph.displaced_by(rule, [before.defs[r].key for r in before.rules])
        return ("vetoed-rule-old-stays",) if replaced else ("surprise-cancel-rule-for-everyone",)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        if not st.rules:
            e.say("There is no New Rule in play to discard.", "rule-cards-always-playable")
            return
        picked = e.choose("cards", player, f"{player} may discard up to 2 New Rules", list(st.rules), count=2, minimum=0)
        e.discard_rules(picked, player)
        e.say(f"{player} discards {e.names(picked)}: they applied while in play and stop now.", "veto-own-hand-limit")


@register
class ThatsMine(SurpriseMechanic):
    name = "thats_mine"
    counters = KEEPER
    cancels = {"concept:type:keeper": "surprise-can-stop-win"}
    summary = "out of turn: a Keeper just played goes in front of you instead; in turn: steal a Keeper"

    def cannot_answer(self, e: RulesCore, card: int | None, window: Window, player: str) -> tuple[str, ...] | None:
        if window.kind == "play" and window.card_type == ACTION:
            return ("That's Mine catches only a Keeper being put into play from outside play; a Keeper moved, traded, "
                    "stolen or dealt out by an Action cannot be intercepted (at most the Action itself can be canceled "
                    "with the right Surprise)", "thats-mine-no-intercept", "no-burning-surprises")
        return super().cannot_answer(e, card, window, player)

    def answer_reason(self, e, card, window) -> str:
        return f"{e.name(card)} takes a Keeper just played"

    def cancel(self, e: RulesCore, card: int, window: Window, player: str) -> None:
        st = e.state
        # the Keeper never lands before the player who played it, so none of their
        # loose attaching Creepers gets a chance at it
        kd = st.defs[window.card]
        loose = [c for c in st.keepers[window.by] if st.defs[c].impl.attaches and c not in st.attachments
                 and st.defs[c].impl.can_attach_to(st.defs[c], kd)]
        e.place_in_front(player, window.card, IN_FLIGHT, by=player)
        if loose:
            e.say(f"{e.name(window.card)} goes in front of {player} instead, as though played there directly: it "
                  f"never lands before {window.by}, so {window.by}'s {e.names(loose)} cannot latch onto it, and "
                  f"{player} gets the Keeper alone.", "hijacked-keeper-arrives-without-creeper")
        else:
            e.say(f"{e.name(window.card)} goes in front of {player} instead.")

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        targets = [k for p in e.reachable(player, st.players) if p != player for k in st.keepers[p]
                   if st.defs[k].type == KEEPER]
        if not targets:
            e.say("Nobody else has a Keeper to steal.", "rule-cards-always-playable")
            return
        target = e.choose("card", player, f"{player} picks a Keeper to steal", targets)
        move = e.steal(target, player)
        e.say(f"{player} steals {e.name(move.card)} from {move.src.player}.")
        e.checkpoint()


@register
class ItsATrap(SurpriseMechanic):
    name = "its_a_trap"
    when_countered = ("its-a-trap-countered-steal-goes-ahead",)
    counters = "steal"
    cancels = {"concept:free_action": "stop-that-vs-free-action"}
    summary = "out of turn: cancel any action stealing one of your Keepers and steal one back; in turn: others discard, you draw 2"

    def cannot_answer(self, e: RulesCore, card: int | None, window: Window, player: str) -> tuple[str, ...] | None:
        if player in window.victims:
            return None
        st = e.state
        name = st.defs[card].name if card is not None else "This Surprise"
        before = window.before
        if before is not None and player in before.keepers:
            lost = set(before.keepers[player]) - set(st.keepers[player])
            gained = set(st.keepers[player]) - set(before.keepers[player])
            if lost and gained:
                return (f"{name} answers only a steal; {e.name(window.card)} swapped Keepers with {player} "
                        f"({player} gave {e.names(sorted(lost))} and got {e.names(sorted(gained))}), and a swap is "
                        "not a steal", "exchange-keepers-is-not-a-steal-for-its-a-trap", "no-burning-surprises")
        return (f"{name} answers only an action that is taking one of {player}'s Keepers; "
                f"{e.name(window.card)} takes none (nobody receives a Keeper of {player}'s through it), so it would "
                "have no effect", "no-burning-surprises", "stop-that-vs-free-action", "its-a-trap-takes-from-receiver")

    def answer_reason(self, e, card, window) -> str:
        return f"{e.name(card)} springs on an action stealing one of your Keepers"

    def extra_cites(self, e, card, window) -> tuple[str, ...]:
        if window.kind == "use":
            return ("stop-that-vs-free-action",)
        if window.into_hand:          # a Keeper taken into a hand is taken all the same
            return ("zap-a-card-counts-as-a-steal",)
        return ("surprise-chain-parity",) if window.card_type == SURPRISE else ()

    def cancel(self, e: RulesCore, card: int, window: Window, player: str) -> None:
        st = e.state
        super().cancel(e, card, window, player)
        # the trap springs on whoever would have received the Keepers: the one acting, or
        # someone else (Beam Us Up! sends them to the Teleporter's owner)
        receivers = [r for v, r in window.takers if v == player and r != player]
        thief = receivers[0] if receivers else window.by
        cites = ("its-a-trap-takes-from-receiver",)
        if thief != window.by:
            e.say(f"Your Keepers would have gone to {thief}, not to {window.by} who played "
                  f"{e.name(window.card)}: the trap takes from {thief}.", *cites)
        targets = [k for k in st.keepers[thief] if st.defs[k].type == KEEPER]
        if targets:
            k = e.choose("card", player, f"{player} steals one of {thief}'s Keepers", targets)
            move = e.move_to(k, player, by=player)
            e.say(f"Instead, {player} steals {e.name(move.card)} from {thief}.", *cites)
        else:
            e.say(f"{thief} has no Keeper for {player} to take.", *cites)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        st = e.state
        for p in e.reachable(player):
            if p == player or not st.hands[p]:
                continue
            lost = e.choose("card", p, f"{p} discards a card of their choice", list(st.hands[p]))
            e.discard(lost, p, src=hand(p))
            e.say(f"{p} discards {e.name(lost)}.")
        e.draw(player, 2, why=e.name(card))


class _BroadSurprise(SurpriseMechanic):
    """Surprises the FAQ describes only as able to stop any game action; their in-turn
    text is not in our material, so the engine refuses to guess it."""

    counters = "any"

    def cannot_answer(self, e: RulesCore, card: int | None, window: Window, player: str) -> tuple[str, ...] | None:
        if window.kind == "use" or window.card_type in (ACTION, DANGER):
            return None
        return super().cannot_answer(e, card, window, player)

    def answer_reason(self, e, card, window) -> str:
        return f"{e.name(card)} can stop any game action, free actions included"

    def extra_cites(self, e, card, window) -> tuple[str, ...]:
        return ("stop-that-vs-free-action",)

    def play(self, e: RulesCore, card: int, player: str) -> None:
        e.say(f"The seeds are silent on the in-turn side of {e.name(card)}: our material (the online FAQ) only says its "
              "out-of-turn side can stop any game action. The engine applies no in-turn effect; check the printed card.",
              "stop-that-vs-free-action")


@register
class Skullduggery(_BroadSurprise):
    name = "broad_surprise"
    cancels = {"concept:free_action": "stop-that-vs-free-action", "concept:type:action": "stop-that-vs-free-action"}
    summary = "out of turn: cancel any game action (an Action card or a free action); in-turn side unknown"
