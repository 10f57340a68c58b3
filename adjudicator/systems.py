"""Parts of the rules that only some decks bring to the table, behind hooks.

Attaching Creepers (the Creeper Pack, Star Fluxx), Secrets and Dangers (Mystery and
Anatomy Fluxx) and cards that react to a change of Goal (the Radioactive Potato) each
add steps to the game that a table without such cards never takes. Each is a
`System`: it says which cards use it (`used_by`), and answers the questions the rules
core asks at fixed points:

- `settle`: at every checkpoint, before anything else (in the order of `SYSTEMS`);
- `after_limits`: at every checkpoint, after the limit discards;
- `turn_ended`: once a player's turn has ended, before the next one starts.

The core asks only the systems that the game's cards use (`present`), worked out
again only when the card definitions grow (`Core.systems`); a game that holds unseen cards ('?') may turn up
any card, so it has them all. The cards' own part goes through their mechanics' hooks
(`attaches`, `can_attach_to`, `switches_off_power`, `on_reveal`, `on_goal_change`).

Solo Fluxx, which changes the turn itself, is a variant of the engine instead
(`adjudicator.solo.SoloFluxx`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Sequence

from adjudicator.decisions import GameEnded, Rejected
from adjudicator.mechanics.base import CREEPER, DANGER, KEEPER, SECRET, UNKNOWN
from adjudicator.movement import hand, table

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.core import Core


class System:
    """A part of the rules that a game has only when some of its cards use it."""

    name: ClassVar[str] = ""

    @classmethod
    def used_by(cls, d: CardDef) -> bool:
        """Whether card `d` needs this system in the game."""
        raise NotImplementedError

    def settle(self, core: Core) -> None:
        """At every checkpoint, before anything else."""

    def after_limits(self, core: Core) -> None:
        """At every checkpoint, once the players have complied with the limits."""

    def turn_ended(self, core: Core, player: str) -> None:
        """`player`'s turn has ended (the next has not started)."""


class Attachments(System):
    """Creepers that attach themselves to a Keeper, and follow it."""

    name = "attachments"

    @classmethod
    def used_by(cls, d: CardDef) -> bool:
        return d.impl.attaches

    def settle(self, core: Core) -> None:
        follow_attachments(core)

    def after_limits(self, core: Core) -> None:
        follow_attachments(core)          # a Keeper discarded for a limit takes its Creeper along


class Secrets(System):
    """Secrets: a Secret that leaves the hand it was in is revealed."""

    name = "secrets"

    @classmethod
    def used_by(cls, d: CardDef) -> bool:
        return d.type == SECRET

    def settle(self, core: Core) -> None:
        reveal_secrets(core)


class GoalWatch(System):
    """Cards in play that react when the Goal changes."""

    name = "goal_watch"

    @classmethod
    def used_by(cls, d: CardDef) -> bool:
        return "on_goal_change" in d.impl.overridden

    def settle(self, core: Core) -> None:
        notice_goal_change(core)


class KnockOuts(System):
    """Dangers that knock players out, who may come back later."""

    name = "knock_outs"

    @classmethod
    def used_by(cls, d: CardDef) -> bool:
        return d.type == DANGER

    def after_limits(self, core: Core) -> None:
        check_last_standing(core)

    def turn_ended(self, core: Core, player: str) -> None:
        # a knocked-out player may come back once everyone else has had a turn since the
        # knock-out: the turn in which it happened does not count
        st = core.state
        for name, out in st.waiting.items():
            if player not in out and st.knocked_in.get(name) != st.turn_number:
                out.append(player)

    @staticmethod
    def eliminate(core: Core, player: str, by: str) -> None:
        """Knock `player` out of the game: their hand and Keepers are discarded."""
        st = core.state
        if player in st.eliminated:
            return
        final = core.with_effect("no_rejoining")
        held = list(st.hands[player])
        keepers = [k for k in st.keepers[player] if st.defs[k].type == KEEPER]
        for c in held:
            core.discard(c, by, src=hand(player))
        for c in keepers:
            core.discard(c, by, src=table(player))
        gone = held + keepers
        for c in gone:
            st.detach(c)
        core.say(f"{player} is knocked out of the game and discards their hand and Keepers ({len(gone)} card{'s' if len(gone) != 1 else ''}).",
                 "rule-danger-elimination")
        if any(st.defs[k].type == CREEPER for k in st.keepers[player]):
            core.say("The rulebook names only the hand and the Keepers, so the seeds are silent on Creepers: the "
                     f"engine leaves {player}'s Creepers in front of them.", "rule-danger-elimination")
        if core.variant.knocked_out_rejoins(core, player):
            return
        if st.two_player and not final:
            core.say(f"In a game begun with two players, knocking out the opponent is no win before The Final Act: "
                     f"{player} jumps straight back in.", "rule-danger-two-player")
            core.deal_in(player)
            return
        st.knock_out(player)
        st.waiting[player] = []
        st.knocked_in[player] = st.turn_number
        if player == st.active_player:
            core.end_turn(f"{player} was knocked out", immediately=True)

    @staticmethod
    def rejoin(core: Core, name: str) -> None:
        """A knocked-out player comes back into the game (`join:`), when the rules allow."""
        st = core.state
        if core.with_effect("no_rejoining"):
            raise Rejected(f"The Final Act is in force, so {name} cannot come back into the game",
                           "rule-danger-rejoin-limits", ("rule-meta-rules-persist",))
        missing = [p for p in st.players if p not in st.eliminated and p not in st.waiting.get(name, [])]
        if missing:
            raise Rejected(f"{name} may come back only once every other player has had a turn since the knock-out "
                           "(the turn in which it happened does not count); still to play: "
                           f"{', '.join(missing)}", "rule-danger-rejoin-wait",
                           ("rule-jumping-in", "eliminated-player-waits-for-a-full-round"))
        if not st.draw_pile:
            raise Rejected(f"{name} may come back only if at least one card can be drawn before the discard pile is "
                           "reshuffled, and the draw pile is empty", "rule-danger-rejoin-limits")
        st.bring_back(name)
        st.waiting.pop(name, None)
        st.knocked_in.pop(name, None)
        core.say(f"{name} jumps back into the game with a fresh hand of 3: every other player has had a turn since "
                 "the knock-out, the knocker's next one included.", "rule-danger-rejoin-wait", "rule-jumping-in",
                 "eliminated-player-waits-for-a-full-round")
        core.deal_in(name)
        core.checkpoint()


KNOCK_OUTS = KnockOuts()
SYSTEMS: tuple[System, ...] = (Attachments(), Secrets(), GoalWatch(), KNOCK_OUTS)

def present(defs: Sequence[CardDef], eliminated: Sequence[str] = ()) -> tuple[System, ...]:
    """The systems the cards of a game (`defs`) use, in `SYSTEMS` order; a game that
    holds unseen cards may turn up any card, so it has every one. Players already
    out (`eliminated`) bring the knock-outs.

    >>> from adjudicator.catalogue import default_catalogue
    >>> cat = default_catalogue()
    >>> [s.name for s in present([cat.resolve("Milk"), cat.resolve("Malfunction")])]
    ['attachments']
    >>> [s.name for s in present([cat.resolve("Milk")], eliminated=["Cal"])]
    ['knock_outs']
    >>> len(present([cat.resolve("?")])) == len(SYSTEMS)
    True
    """
    if any(d.type == UNKNOWN for d in defs):
        return SYSTEMS
    found = tuple(s for s in SYSTEMS if any(type(s).used_by(d) for d in defs))
    if eliminated and KNOCK_OUTS not in found:
        found += (KNOCK_OUTS,)
    return found


# -- the steps ----------------------------------------------------------------------

def follow_attachments(core: Core) -> None:
    """Keep attached Creepers with their Keepers: a Creeper follows its Keeper to
    another player and is discarded when the Keeper leaves play; discarding the
    Creeper by an effect that does not detach it discards its Keeper too; and an
    attaching Creeper whose holder has a Keeper it can go on is attached to it at
    once, however that Keeper arrived (a choice when several fit)."""
    st = core.state
    for creeper, keeper in list(st.attachments.items()):
        holder = st.owner_of_keeper(creeper)
        owner = st.owner_of_keeper(keeper)
        if holder is None:                    # the Creeper itself has left play
            st.detach(creeper)
            if owner is not None and creeper in st.discard:
                core.discard(keeper, src=table(owner))
                core.say(f"{core.name(creeper)} was discarded while attached to {core.name(keeper)}, and nothing "
                         "detached it first, so the Keeper goes with it.", "attached-pair-discarded-together")
            continue
        if owner is None:
            st.detach(creeper)
            core.discard(creeper, src=table(holder))
            core.say(f"{core.name(keeper)} left play, so the {core.name(creeper)} attached to it is discarded too.",
                     "attached-pair-discarded-together")
        elif owner != holder:
            core.transfer(creeper, table(owner), src=table(holder))
            core.say(f"{core.name(creeper)} stays attached to {core.name(keeper)} and moves with it to {owner}.",
                     "attached-pair-discarded-together")
    defs = st.defs
    for p in core.seat_order():
        for creeper in [c for c in st.keepers[p] if defs[c].impl.attaches]:
            impl = defs[creeper].impl
            if creeper in st.attachments or creeper not in st.keepers[p]:
                continue
            fits = [k for k in st.keepers[p] if impl.can_attach_to(st.defs[creeper], st.defs[k])]
            if not fits:
                continue
            k = core.choose("card", p, f"{p} picks the Keeper {core.name(creeper)} attaches to", fits)
            st.attach(creeper, k)
            core.say(f"{core.name(creeper)} attaches to {p}'s {core.name(k)} at once" +
                     (", switching off its power." if impl.switches_off_power else "."),
                     "rule-creeper-placement", "creeper-attaches-when-keeper-arrives")


def notice_goal_change(core: Core) -> None:
    """Cards that react when the Goal changes (Radioactive Potato) react to every
    change to the set of Goals in play since the last checkpoint, by any route: a
    Goal replaced, added, or gone (Double Agenda leaving, the last Goal trashed)."""
    st = core.state
    now = frozenset(st.goals)
    if st.goals_seen is None or st.goals_seen == now:
        st.goals_seen = now
        return
    st.goals_seen = now
    # collected first: a card that moves must not react twice
    reactors = [(k, p) for p in st.players for k in st.keepers[p]
                if "on_goal_change" in st.defs[k].impl.overridden]
    for k, p in reactors:
        if k in st.keepers[p]:
            st.defs[k].impl.on_goal_change(core, k, p)


def reveal_secrets(core: Core) -> None:
    """A Secret that has left the hand it was in, by any route, is revealed and its
    holder must carry it out."""
    st = core.state
    now = {c: p for p in st.players for c in st.hands[p] if st.defs[c].type == SECRET}
    for card, holder in list(st.secrets.items()):
        if now.get(card) != holder and holder in st.players:
            where = next((f"{p}'s hand" for p in st.players if card in st.hands[p]), None) or \
                ("the discard pile" if card in st.discard else "play")
            core.say(f"{core.name(card)} has left {holder}'s hand (it is now in {where}): {holder} must reveal it "
                     "and carry out what it says.", "rule-secret-leaves-hand")
            st.secrets = {c: p for c, p in st.secrets.items() if c != card}
            st.defs[card].impl.on_reveal(core, card, holder)
    st.secrets = now


def check_last_standing(core: Core) -> None:
    """Only one player is left in the game: they win."""
    st = core.state
    if st.eliminated and not st.game_over:
        standing = [p for p in st.players if p not in st.eliminated]
        if len(standing) == 1:
            st.winner = standing[0]
            core.say(f"Only {standing[0]} is left in the game, so {standing[0]} wins.", "rule-danger-elimination")
            raise GameEnded()
