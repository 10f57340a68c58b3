"""What the table settles first at every checkpoint, by whatever route it changed:
attached Creepers follow their Keepers (Creepers that attach themselves: the Creeper
Pack, Star Fluxx), Secrets that left a hand are revealed (Secrets), and a change to the
set of Goals is noticed (cards that react to it: the Radioactive Potato).

Each step is a function of the rules core, and `SETTLING` lists them in the order the
checkpoint runs them; the cards' own part goes through their mechanics' hooks
(`attaches`, `can_attach_to`, `switches_off_power`, `on_reveal`, `on_goal_change`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from adjudicator.mechanics.base import SECRET

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.core import Core


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
            del st.attachments[creeper]
            if owner is not None and creeper in st.discard:
                core.take_from_play(keeper, owner)
                st.to_discard(keeper, st.resolving)
                core.say(f"{core.name(creeper)} was discarded while attached to {core.name(keeper)}, and nothing "
                         "detached it first, so the Keeper goes with it.", "attached-pair-discarded-together")
            continue
        if owner is None:
            del st.attachments[creeper]
            st.to_discard(creeper, st.keepers[holder])
            core.say(f"{core.name(keeper)} left play, so the {core.name(creeper)} attached to it is discarded too.",
                     "attached-pair-discarded-together")
        elif owner != holder:
            st.move(creeper, st.keepers[holder], st.keepers[owner])
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
            st.attachments[creeper] = k
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


SETTLING: tuple[Callable[[Core], None], ...] = (follow_attachments, reveal_secrets, notice_goal_change)
