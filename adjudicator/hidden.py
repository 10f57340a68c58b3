"""What a move must respect besides the cards' own "instead": cards lying under a
card, Keepers lying face down, and players out of everyone else's reach.

- **Cards under a card** (`State.under`: the Booty buried under Pirate Fluxx's
  Treasure Map, the Action kept with Let's Keep Doing That) are not in play: the
  card on top is what counts (a Keeper Limit, a Goal). They travel with it by every
  route: while it stays in play or in flight they stay under it (so a stolen Map
  takes its Booty along at the same instant), and when it goes anywhere else (a
  hand, the discard pile, out of the game) they go there too, just before it, so
  that it lands on top. `pile_goes_along` is asked by the core before it moves a
  card that has any.
- **Face-down Keepers** (`State.face_down`, EcoFluxx's Camouflage) count toward a
  Keeper Limit but have no power and meet no Goal until turned up (the figures leave
  them out: `Figures.showing`); they can be taken or traded like any Keeper, stay
  face down when they change tables, and the taker does not learn what they are
  (`face_down_moved`).
- **Players out of reach** (the effect `out_of_reach`, which I'll Be In My Bunk
  leaves on its player until their next turn, `State.lasting`): nobody else may
  take from them, give to them or change what they have. The Actions' choices
  offer only the players in reach (`Core.reachable`), and a move that would still
  take from or give to such a player does not happen (`shielded`).

The core asks these rules for every move (`Core.transfer`); cards never name one
another here: a card holds a pile because its mechanic says it can (`can_hold`,
`pile_rulings`), and a player is out of reach through an effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import KEEPER
from adjudicator.movement import HAND, META_RULES, RESOLVING, RULES, TABLE, TEMP_HAND, Move, under

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.core import Core

# where a card keeps the cards lying under it: in play, or on its way somewhere
KEEPS_PILE = frozenset({TABLE, RULES, META_RULES, RESOLVING})
# the zones that are a player's own: what an out-of-reach player has
PLAYER_ZONES = frozenset({HAND, TABLE, TEMP_HAND})

OUT_OF_REACH = "out_of_reach"


def pile_goes_along(core: Core, move: Move) -> None:
    """The cards under `move.card` go with it: they stay under it while it stays in
    play or in flight, and otherwise go where it goes, just before it."""
    st = core.state
    pile = st.under.get(move.card)
    if not pile or move.dst == move.src:
        return
    rulings = st.defs[move.card].impl.pile_rulings
    n = len(pile)
    what = f"the {n} cards lying under {core.name(move.card)}" if n != 1 else \
        f"the card lying under {core.name(move.card)}"
    if move.dst.kind in KEEPS_PILE:
        if move.dst.kind == TABLE and move.src.kind == TABLE and move.dst.player != move.src.player:
            core.say(f"{what[0].upper() + what[1:]} go{'es' if n == 1 else ''} with it to {move.dst.player} in the "
                     "same instant, still under it and still out of play.", *rulings)
        return
    cards = list(pile)
    for c in (reversed(cards) if move.top else cards):
        core.transfer(c, move.dst, by=move.by, cause=move.cause, src=under(move.card), top=move.top)
    core.say(f"{core.names(cards)}, lying under {core.name(move.card)}, go{'es' if n == 1 else ''} where it goes, "
             "just beneath it.", *rulings)


def face_down_moved(core: Core, move: Move) -> None:
    """A face-down Keeper has changed tables: it stays face down, and its new holder
    does not learn what it is."""
    to = move.dst.player
    core.say(f"{core.name(move.card)} was face down in front of {move.src.player} and stays face down in front of {to}: "
             f"the card changes hands like any Keeper, but what it is stays hidden from {to} until it is turned up.",
             "camouflaged-keeper-can-be-stolen")


def shielded(core: Core, move: Move) -> bool:
    """Whether `move` would take from or give to a player out of the reach of the
    player making it: then it does not happen, and the verdict says so."""
    src, dst, by = move.src, move.dst, move.by
    if by is None or src.player == dst.player:
        return False
    for zone in (src, dst):
        p = zone.player
        if p is None or p == by or zone.kind not in PLAYER_ZONES:
            continue
        why = core.out_of_reach(p, by)
        if why:
            core.say(f"{p} is out of reach ({core.names(why)}) until {p}'s next turn: {core.name(move.card)} "
                     "stays where it is, since nobody else may take from or give to that player.",
                     "in-my-bunk-shields-all-assets")
            return True
    return False


def explain_keeper_count(core: Core, player: str, limit: int, count: int) -> None:
    """Say once in a step how `player`'s Keepers, at or over a Keeper Limit, are
    counted when some lie face down or have cards under them."""
    st = core.state
    mine = [k for k in st.keepers[player] if st.defs[k].type == KEEPER]
    down = [k for k in mine if k in st.face_down]
    piles = [k for k in mine if st.under.get(k)]
    if not down and not piles:
        return
    parts = []
    if down:
        parts.append(f"the face-down {core.names(down)} count{'s' if len(down) == 1 else ''} like any Keeper, though "
                     "until turned up it gives no power and meets no Goal")
    if piles:
        parts.append(" and ".join(f"{core.name(k)} and the {len(st.under[k])} card(s) under it count as one Keeper, "
                                  f"{core.name(k)}" for k in piles))
    verdict = "over" if count > limit else "at"
    text = (f"{player} has {count} Keeper{'s' if count != 1 else ''}, {verdict} the Keeper Limit of {limit}: "
            + "; ".join(parts) + ".")
    if not any(e.text == text for e in core.log.entries):
        core.say(text, "face-down-keepers-count-for-keeper-limit")


def face_down_meets_no_goal(core: Core, met: dict[str, list[int]]) -> None:
    """Say, once a step, who would meet a Goal but for a Keeper of theirs lying face
    down (such a Keeper meets no Goal until it is turned up)."""
    st = core.state
    with st.turned_up():
        would, _ = core.goal_claims()
    for player, goals in would.items():
        missed = [g for g in goals if g not in met.get(player, [])]
        down = [k for k in st.keepers[player] if k in st.face_down]
        if not missed or not down:
            continue
        text = (f"{player} would meet {core.names(missed)} with the face-down {core.names(down)}, but a Keeper lying "
                "face down meets no Goal until it is turned up.")
        if not any(e.text == text for e in core.log.entries):
            core.say(text, "face-down-keepers-count-for-keeper-limit")


def face_out_not_owed(core: Core, player: str) -> None:
    """`player`'s turn ends under Play All with cards held face-out: say that they were
    never owed."""
    st = core.state
    out = [c for c in st.hands[player] if c in st.face_out]
    if out and core.play_quota(player)[0] == "all_but":
        core.say(f"{core.names(out)} {'is' if len(out) == 1 else 'are'} held face-out in {player}'s hand, already in a "
                 "played state: Play All does not reach such cards, only the cards held facing inward were owed.",
                 "face-out-cards-exempt-from-play-all")


def say_out_of_reach(core: Core, player: str, why: list[int]) -> None:
    """Say once in a step's explanation that `player` is left out of an effect."""
    text = (f"{player} is out of reach ({core.names(why)}) until {player}'s next turn: nothing of {player}'s may be "
            "taken, traded or changed by another player, and nothing is given to them, so this effect passes "
            f"{player} by.")
    if not any(e.text == text for e in core.log.entries):
        core.say(text, "in-my-bunk-shields-all-assets")
