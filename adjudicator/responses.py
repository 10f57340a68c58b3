"""Response windows and Surprise chains.

Every game action (a card play, a free action, a Surprise) opens response windows:
one for each card played within it, each holding the table as it was just before.
They stay open until the next game action. A Surprise played out of turn answers
one of them: the table goes back to that snapshot, the canceled card goes where the
Surprise says (usually the discard pile), a play it used stays used, and the
Surprise opens its own window so that it can be countered in turn. Canceling a
Surprise restores the table from just before it, which is how a chain resolves by
parity: each Surprise negates the one beneath it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from adjudicator.decisions import Rejected
from adjudicator.mechanics.base import ACTION, DANGER, SURPRISE
from adjudicator.history import KEPT, USE, Happened
from adjudicator.movement import CANCEL, IN_FLIGHT, zone_list, zone_of
from adjudicator.state import State, Window

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.core import Core
    from adjudicator.pending import Pending
    from adjudicator.mechanics.surprises import SurpriseMechanic
    from adjudicator.events import Event


def is_surprise_window(w: Window) -> bool:
    return w.kind == "surprise" or w.card_type == SURPRISE


def surprise_side(d: CardDef) -> SurpriseMechanic:
    """The out-of-turn side of the Surprise `d`: its mechanic, which must be one of the
    Surprise mechanics (every built-in Surprise card names one)."""
    from adjudicator.mechanics.surprises import SurpriseMechanic   # loaded with the catalogue already

    impl = d.impl
    if not isinstance(impl, SurpriseMechanic):
        raise TypeError(f"{d.name} is a Surprise whose mechanic {d.mechanic!r} has no out-of-turn side")
    return impl


class Windows:
    """A part of the rules core (`adjudicator.core.Core`): response windows, which
    Surprise may answer what, cancels and chains. It changes the table through the core
    (a cancel puts back the table a window holds) and asks the Surprises' mechanics,
    handing them the core."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.resume: Pending | None = None      # the waiting play the running Surprise answers
        self.resumed: Pending | None = None     # a waiting play a cancel brought back
        self.preempted: Pending | None = None   # an event set aside because a Surprise came before it
        self.event_turn = 0                      # the turn the running event belongs to

    # -- opening windows -----------------------------------------------------
    def open_game_action(self, kind: str, card_key: str, player: str) -> None:
        """A new game action begins (a card played or a free action used): the windows
        of the previous one close, and the history records it."""
        st = self.core.state
        st.windows = []
        self.record(kind, card_key, player)

    def record(self, kind: str, card_key: str, player: str) -> None:
        """Add a game action to the history (`adjudicator.history`)."""
        st = self.core.state
        st.history.append(Happened(kind, card_key, self.core.cat.get(card_key).name, player, st.serial))
        del st.history[:-KEPT]

    def open_window(self, kind: str, card: int, player: str, before: State, counted: bool = False,
                    in_temp: bool = False, kept: bool = False) -> Window:
        st = self.core.state
        w = Window(kind, card, player, st.defs[card].type if kind != "surprise" else SURPRISE, before, st.serial,
                   counted=counted, in_temp=in_temp, kept=kept)
        st.windows.append(w)
        return w

    def note_victim(self, player: str, receiver: str, into_hand: bool = False) -> None:
        """The action being resolved takes a Keeper from `player` and gives it to
        `receiver`, who need not be the one acting (It's A Trap! may answer, and takes
        from the receiver); `into_hand`: it went into a hand."""
        st = self.core.state
        for i in range(len(st.windows) - 1, -1, -1):
            w = st.windows[i]
            if w.kind == "use" or w.card_type not in ("keeper", "goal", "rule"):
                victims = w.victims if player in w.victims else w.victims + (player,)
                takers = w.takers if (player, receiver) in w.takers else w.takers + ((player, receiver),)
                st.windows[i] = replace(w, victims=victims, takers=takers,   # windows are shared with snapshots
                                        into_hand=w.into_hand or into_hand)
                return

    # -- answering -------------------------------------------------------------
    def surprise_out_of_turn(self, player: str, ev: "Event") -> None:
        st = self.core.state
        d = self.core.cat.get(ev.key)
        impl = surprise_side(d)
        copy = st.copy_of(d.key, ev.copy) if ev.copy is not None else None     # `NAME #K` (format 1.2, item 1)
        if self._surprise_in_reach(player, d.key, st, copy) is None and not any(
                w.before is not None and self._surprise_in_reach(player, d.key, w.before, copy) is not None
                for w in st.windows):
            raise Rejected(f"{player} has no {d.name}" + (f" #{ev.copy}" if ev.copy is not None else "") + " to play")
        target = self._pick_target(player, ev, impl)
        # the Surprise is played from the hand as it was when the target was played
        card = self._surprise_in_reach(player, d.key, target.before, copy) if target.before is not None else None
        if card is None:
            later_turn = target.before is not None and target.before.turn_number != st.turn_number
            raise Rejected(f"{player} did not yet hold this {d.name} when {self.core.name(target.card)} was played: a card "
                           "received through that very play, or later, arrives too late to stop it",
                           "trade-hands-received-stop-that",
                           ("surprise-too-late",) + (("turn-ending-window-before-turn-ends",) if later_turn else ()))
        # a Surprise answering another Surprise is a plain counter, unless it answers it
        # on its own terms (It's A Trap! against an in-turn That's Mine stealing from you)
        own_terms = is_surprise_window(target) and target.kind == "play" and not impl.cannot_answer(self.core, card, target, player)
        counter = is_surprise_window(target) and not own_terms
        if target.shown and not counter:
            raise Rejected(f"{d.name} comes too late: {self.core.name(target.card)} has already been carried out and its "
                           "outcome seen (cards taken at random, or dealt out from the pile). A Surprise against an "
                           "action must come right after it is played, before any of its effect, not once its outcome "
                           "is known (the FAQ rules so for Random Tax; the engine applies it to every such effect)",
                           "random-tax-surprise-timing", ("surprise-too-late",))
        # the window is part of the turn in which its card was played, even when that card
        # ended the turn: a Surprise in it by the next player is played out of turn
        turn_of = target.before.active_player if target.before is not None else st.active_player
        if player == turn_of and not (is_surprise_window(target) and target.by != player):
            own = ["no-out-of-turn-function-own-turn"]
            if target.card_type == "goal":
                own.append("canceled-plans-own-goal")
            if target.card_type == "rule":
                own.append("veto-own-hand-limit")
            raise Rejected(f"{player} cannot use the out-of-turn side of {d.name} on {player}'s own turn: a Surprise played "
                           "from your hand on your turn is a play for its in-turn side, and you may not cancel your "
                           "own play; only a Surprise aimed at you can be countered", own[0], tuple(own[1:]))
        if target.by == player:
            raise Rejected(f"{player} cannot cancel their own {self.core.name(target.card)}", "no-out-of-turn-function-own-turn")
        if counter:
            reason = "any Surprise can cancel another Surprise"
            cites: tuple[str, ...] = ("rule-surprise-cancels-surprise", "counter-surprise-any-time")
        else:
            problem = impl.cannot_answer(self.core, card, target, player)
            if problem:
                raise Rejected(problem[0], problem[1], tuple(problem[2:]))
            reason = impl.answer_reason(self.core, card, target)
            cites = ("rule-surprise-two-functions",) + impl.extra_cites(self.core, card, target)
        preempted = self.preempted
        if preempted is not None:
            self.core.say(f"{player}'s {d.name} answers {self.core.name(target.card)}, whose window is still open: it comes before "
                     f"`{preempted.event.describe()}`, which is set aside (and, with the table changed, has to be made "
                     "again if it still stands).", "turn-ending-window-before-turn-ends")
        elif turn_of != st.active_player:
            self.core.say(f"{turn_of}'s turn is ending, but the response window of {self.core.name(target.card)} closes before "
                     f"the turn ends: {player}'s {d.name} is played out of turn, within {turn_of}'s turn.",
                     "turn-ending-window-before-turn-ends", "rule-surprise-two-functions")
        self._cancel(player, card, target, reason, cites, counter)
        base = target
        while base.target is not None:       # a chain of Surprises belongs to the turn of the play beneath it
            base = base.target
        if base.before is not None:
            self.event_turn = base.before.turn_number

    def _surprise_in_reach(self, player: str, key: str, st: State, card: int | None = None) -> int | None:
        """The copy of the Surprise `player` can play: from the hand, or for the active
        player also from a temporary hand (counter-from-temp-hand)."""
        pools = [st.hands[player]]
        if player == st.active_player:
            pools += [t.cards for t in reversed(st.temp_hands) if t.owner == player]
        for pool in pools:
            for c in pool:
                if (card is None and st.defs[c].key == key) or c == card:
                    return c
        return None

    def _pick_target(self, player: str, ev: "Event", impl: SurpriseMechanic) -> Window:
        st = self.core.state
        d = self.core.cat.get(ev.key)
        if ev.against:
            for w in reversed(st.windows):
                if st.defs[w.card].key == ev.against:
                    return w
            raise self._too_late(d.name, self.core.cat.get(ev.against).name, ev.against)
        if not st.windows:
            raise Rejected(f"{d.name} has nothing to answer: no card or action was just played", "surprise-too-late",
                           ("no-burning-surprises",))
        for w in reversed(st.windows):
            if is_surprise_window(w) or not impl.cannot_answer(self.core, None, w, player):
                return w
        return st.windows[-1]

    def _too_late(self, surprise: str, target: str, key: str) -> Rejected:
        st = self.core.state
        idx = next((i for i in range(len(st.history) - 1, -1, -1) if st.history[i].card == key), None)
        cites = ["surprise-too-late"]
        if idx is None:
            return Rejected(f"{surprise} can only answer a card just played, and {target} was not just played "
                            "(a card already in play cannot be canceled)", "surprise-too-late",
                            ("canceled-plans-just-played",))
        closing = st.history[idx + 1] if idx + 1 < len(st.history) else None
        what = closing.words() if closing else "a later action"
        if closing is not None and closing.kind == USE:
            # a free action that plays a card closes the window; the mechanic names the ruling
            cites.extend(self.core.cat.get(closing.card).impl.closes_windows_ruling)
        if self.core.cat.get(key).type == "goal":
            cites.append("canceled-plans-just-played")
        return Rejected(f"{surprise} came too late: it had to answer {target} at once, but {what} came first and "
                        f"closed that window; once a later card is played or a resulting action taken, an earlier "
                        "play can no longer be canceled", cites[0], tuple(cites[1:]))

    def _cancel(self, player: str, card: int, target: Window, reason: str, cites: tuple[str, ...], counter: bool) -> None:
        """Undo `target` and let the Surprise `card` take its place."""
        now = self.core.state
        before_surprise = now.snapshot()
        assert target.before is not None    # only a window holding the table from before its card is answered
        restored = target.before.clone()
        restored.serial, restored.history = now.serial, now.history
        restored.rng = now.rng
        self.core.state = st = restored
        d = st.defs[card]
        victim = st.defs[target.card]
        self.core.discard(card, player, cause=CANCEL, src=zone_of(st, card))
        if target.kind != "use":             # a free action's card stays where it is; a card is lifted on its way
            _lift(st, target.card)
        if target.counted:
            frames = [t for t in st.temp_hands if t.owner == target.by]
            if target.in_temp and frames:
                frames[-1].made += 1
            else:
                st.played += 1
        if target.kind == "use":
            st.free_used.append(target.card)
        what = "Surprise" if counter else {"keeper": "Keeper", "goal": "Goal", "rule": "New Rule", "surprise": "Surprise",
                                                             "action": "Action"}.get(victim.type, victim.type)
        if target.kind == "use":
            what = f"use of {victim.name}" if target.kept else "free action"
        self.core.say(f"{player} plays {d.name} against {target.by}'s {victim.name} ({reason}): the {what} is canceled as "
                 "though it had never been played.", *cites)
        if counter:
            self.core.discard(target.card, player, cause=CANCEL, src=IN_FLIGHT)
            self.core.say(f"{victim.name} is discarded; what it had canceled stands again, as each Surprise negates the one "
                     "beneath it.", "surprise-chain-parity", *victim.impl.when_countered)
        else:
            if self.resume is not None and self.resume.decision is not None and self.resume.event.verb != "end_turn":
                self.core.say(f"{d.name} comes before any of {victim.name}'s effect, which was still waiting "
                         f"({self.resume.decision.describe()}): none of it happens.",
                         "surprise-cancel-rule-for-everyone" if victim.type == "rule" else "random-tax-surprise-timing")
            surprise_side(d).cancel(self.core, card, target, player)
            if target.kept:
                self._kept_card_stays(target)
            if target.counted and target.by == st.active_player:
                self.core.say(f"The play {target.by} spent on {victim.name} stays spent, and no other card replaces it.",
                         "canceled-play-not-replaced", "canceled-card-lost-play-used")
        if target.resume is None:           # (a resumed play goes on instead)
            self._finish_interrupted(target, [w for w in now.windows if w.kind == "use" and w.serial == target.serial
                                              and w is not target])
        if player == st.active_player:
            self.core.say(f"Countering a Surprise costs {player} no play.", "counter-surprise-not-a-play",
                     "counter-surprise-no-in-turn-use")
        st.windows = [Window("surprise", card, player, SURPRISE, before_surprise, st.serial, target=target,
                             resume=self.resume)]
        if target.resume is not None:       # the effect goes on from its decision; nothing more to settle now
            self._resume_waiting(target.resume, (card, target.card) if counter else (card,))
            return
        self.core.close_finished_temp_hands()
        self.core.checkpoint()
        if now.winner and not st.winner:
            self.core.say(f"{now.winner}'s win is undone: the Surprise came in time, so nobody has won and play goes on.",
                     "surprise-can-stop-win")

    def _kept_card_stays(self, target: Window) -> None:
        """A canceled use of a card kept under another (the Action kept with Let's Keep
        Doing That) leaves that card where it lies: it is not discarded, and the use
        is spent for the turn."""
        st = self.core.state
        top = next((t for t, pile in st.under.items() if target.card in pile), None)
        if top is None:
            return
        self.core.say(f"{self.core.name(target.card)} is not discarded: it stays under {self.core.name(top)}, and "
                      "this use of it is spent for the turn.", *st.defs[top].impl.use_canceled_rulings)

    def _finish_interrupted(self, target: Window, uses: list[Window]) -> None:
        """The canceled card was played by an Action still being carried out (Scavenger,
        Let's Do That Again!, Use What You Take) or by a free action (`uses`: Mystery
        Play, Play All +1): the table was restored from the middle of it. What is left of
        it is carried out (`after_inner_cancel`), then an Action goes to the discard pile
        as any finished Action does, unless a temporary hand it opened is still in use: a
        cancel never loses a card."""
        st = self.core.state
        for c in list(reversed(st.resolving)):        # the innermost Action first
            if c == target.card or c not in self.core.state.resolving:
                continue
            st = self.core.state
            if st.defs[c].type in (ACTION, DANGER, SURPRISE):
                if not any(t.source == c for t in st.temp_hands):
                    self.core.say(f"{self.core.name(c)} had played {self.core.name(target.card)}; with that card canceled, what is "
                             f"left of {self.core.name(c)} is carried out and it is over.", "conserve-cards-on-cancel")
                    st.defs[c].impl.after_inner_cancel(self.core, c, target.by)
                self.core.finish_action(c)
            else:
                self.core.discard(c, target.by, cause=CANCEL, src=IN_FLIGHT)
                self.core.say(f"{self.core.name(c)}, which was on its way when {self.core.name(target.card)} was canceled, goes to the "
                         "discard pile.", "conserve-cards-on-cancel")
        for w in uses:        # a free action that played the card (Play All +1) finishes too
            if target.kind == "play" and w.card in self.core.state.in_play():
                self.core.say(f"{self.core.name(target.card)} was played by {w.by}'s use of {self.core.name(w.card)}; what is left of "
                         "that free action is carried out.", "conserve-cards-on-cancel")
                self.core.state.defs[w.card].impl.after_inner_cancel(self.core, w.card, w.by)

    def _resume_waiting(self, waiting: Pending, discarded: tuple[int, ...]) -> None:
        """The canceled Surprise had answered a play whose effect was waiting for a
        decision: that play stands again and its effect goes on from the same decision.
        It will be re-run from its own snapshot, where the Surprises now discarded must be
        in the discard pile too."""
        snap = waiting.snapshot.clone()
        for c in discarded:
            snap.to_discard(c, zone_list(snap, zone_of(snap, c)))
        self.resumed = replace(waiting, snapshot=snap, answers=list(waiting.answers))
        what = waiting.event.describe()
        assert waiting.decision is not None     # it was waiting on this decision
        self.core.say(f"The canceled Surprise had come before any effect of `{what}`; that play stands again and its effect "
                 f"goes on from where it stood: {waiting.decision.describe()}.", "surprise-chain-parity")


def _lift(st: State, card: int) -> None:
    """Lift a card out of whatever zone holds it into the zone of cards on their way
    somewhere (the caller then puts it where it goes)."""
    zone = zone_list(st, zone_of(st, card))
    if zone is not st.resolving:
        st.move(card, zone, st.resolving)
