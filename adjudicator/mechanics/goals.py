"""Goals: who meets them. A Creeper in front of a player blocks them unless the Goal
names it as needed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import CREEPER, GOAL, KEEPER, UNGOAL, Mechanic, Param, register

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore

_GOALS = frozenset({GOAL, UNGOAL})


def _has(e, player: str, wanted: str) -> bool:
    """A Keeper/Creeper named `wanted` (or any with the tag, written `tag:NAME`) in front of player."""
    return wanted in e.holdings()[player]


def _count_any(e, player: str, wanted: list[str]) -> int:
    """How many of `wanted` a player has: each named card once, and every card that
    carries a wanted tag (`tag:NAME`)."""
    st = e.state
    total = 0
    for w in wanted:
        if w.startswith("tag:"):
            total += sum(1 for k in e.showing(player) if w[4:] in st.defs[k].tags)
        elif _has(e, player, w):
            total += 1
    return total


@register
class KeeperGoal(Mechanic):
    name = "keeper_goal"
    card_types = _GOALS
    params = {
        "needs": Param("names", required=False, default=[]),
        "needs_creepers": Param("names", required=False, default=[]),
        "nobody_has": Param("names", required=False, default=[]),
        "any_of": Param("names", required=False, default=[]),
        "any_count": Param("int", required=False, default=0),
    }
    summary = "one player has all the named Keepers (and Creepers) in front of them"
    rulings = ("rule-keepers-in-play-for-goals-powers", "thanksgiving-keepers-in-front")

    def requires(self, e: RulesCore, card: int) -> frozenset[str]:
        return frozenset(e.state.defs[card].params["needs_creepers"])

    def win_cites(self, e: RulesCore, card: int) -> tuple[str, ...]:
        # "N or more of these": like any Goal, all of them in front of one player
        st = e.state
        p_ = st.defs[card].params
        many = p_["any_count"] >= 2
        out = ("rule-keepers-in-play-for-goals-powers",) + (("thanksgiving-keepers-in-front",) if many else ())
        # a Creeper the Goal names counts toward it in every copy, and no copy counts against it
        if any(sum(1 for k in st.keepers[p] if st.defs[k].name == n) > 1 for p in st.players for n in p_["needs_creepers"]):
            out += ("extra-copy-of-required-creeper-does-not-block",)
        winner = st.winner
        if winner is not None and p_["needs_creepers"]:
            # the needed Creeper counts wherever it is attached among the winner's Keepers
            on = [st.attachments.get(c) for c in st.keepers[winner] if st.defs[c].name in p_["needs_creepers"]]
            if any(k is not None and st.defs[k].name not in p_["needs"] for k in on):
                out += ("goal-creeper-need-not-sit-on-named-keeper",)
        if len(st.goals) > 1:
            # with several Goals out, each is a way to win, the older as much as the newer
            out += ("double-agenda-either-goal-wins",)
            if winner is not None and self._shares_a_keeper(e, card, winner):
                out += ("one-keeper-serves-both-goals",)
        return out

    def _shares_a_keeper(self, e, card, player) -> bool:
        """Whether a card this Goal needs from `player` also serves another Goal in play
        that `player` meets: one Keeper may count for several Goals at once."""
        st = e.state
        mine = set(self.required_cards(e, card, player))
        for g in st.goals:
            impl = st.defs[g].impl
            if g != card and player in impl.winners(e, g) and mine & set(impl.required_cards(e, g, player)):
                return True
        return False

    def why_nobody_wins(self, e: RulesCore, card: int) -> tuple[str, ...] | None:
        """Why a player who has what the Goal asks for does not meet it: a card it says
        nobody may have is on the table (each Goal keeps all its conditions, whatever
        the other Goals in play ask for), or a Creeper it does not name blocks them (a
        Goal that needs one Creeper excuses that Creeper only)."""
        p_ = e.state.defs[card].params
        if not p_["nobody_has"] and not p_["needs_creepers"]:
            return None         # (most Goals: neither can happen, and this is asked at every checkpoint)
        return self._barred(e, card) or self._other_creeper(e, card)

    def _barred(self, e, card):
        st = e.state
        p_ = st.defs[card].params
        wanted = p_["needs"] + p_["needs_creepers"]
        if not p_["nobody_has"] or not wanted:
            return None
        holdings = e.holdings()
        claimants = [p for p in st.players if p not in st.eliminated and holdings[p].issuperset(wanted)]
        barred = [(n, p) for n in p_["nobody_has"] for p in st.players if _has(e, p, n)]
        if not claimants or not barred:
            return None
        others = [g for g in st.goals if g != card]
        text = (f"{' and '.join(claimants)} {'has' if len(claimants) == 1 else 'have'} what {e.name(card)} asks for, "
                f"but it also asks that nobody has {barred[0][0]}, and {barred[0][1]} does: nobody meets it.")
        if others:
            text += (f" The other Goal in play ({e.names(others)}) changes nothing: two Goals at once each keep every "
                     "condition printed on them.")
            return (text, "double-agenda-goal-keeps-all-its-conditions")
        return (text, "rule-keepers-in-play-for-goals-powers")

    def _other_creeper(self, e, card):
        st = e.state
        p_ = st.defs[card].params
        if not p_["needs_creepers"] or st.defs[card].type == UNGOAL:
            return None
        holdings = e.holdings()
        stuck = [p for p in st.players if p not in st.eliminated
                 and holdings[p].issuperset(p_["needs"]) and holdings[p].issuperset(p_["needs_creepers"])
                 and e.blocked(p, card)]
        if not stuck:
            return None
        named = set(p_["needs_creepers"])
        parts = []
        for p in stuck:
            others = [k for k in st.keepers[p] if st.defs[k].type == CREEPER and st.defs[k].name not in named]
            parts.append(f"{p} has everything {e.name(card)} asks for, but {e.names(others) or 'a Creeper'} in front "
                         f"of {p}, which it does not name, still blocks the win")
        return ("; ".join(parts) + ": a Goal that needs one Creeper excuses that Creeper only.",
                "unlisted-creeper-blocks-despite-required-one")

    def required_cards(self, e: RulesCore, card: int, player: str) -> list[int]:
        st = e.state
        p_ = st.defs[card].params
        out: list[int] = []

        def take(wanted: str) -> None:
            tag = wanted[4:] if wanted.startswith("tag:") else None
            for k in e.showing(player):
                if k not in out and ((tag in st.defs[k].tags) if tag else st.defs[k].name == wanted):
                    out.append(k)
                    return

        for name in p_["needs"] + p_["needs_creepers"]:
            take(name)
        extra = e.num(card, "any_count") if p_["any_count"] else 0
        for name in p_["any_of"]:
            if extra and sum(1 for k in out if any(st.defs[k].name == n for n in p_["any_of"])) < extra:
                take(name)
        return out

    def winners(self, e: RulesCore, card: int) -> set[str]:
        st = e.state
        p_ = st.defs[card].params
        if p_["nobody_has"] and any(_has(e, p, n) for n in p_["nobody_has"] for p in st.players):
            return set()
        need_any = e.num(card, "any_count") if p_["any_count"] else 0
        out = set()
        holdings = e.holdings()
        for p in st.players:
            held = holdings[p]
            if not held.issuperset(p_["needs"]) or not held.issuperset(p_["needs_creepers"]):
                continue
            if need_any and _count_any(e, p, p_["any_of"]) < need_any:
                continue
            if st.defs[card].type == UNGOAL or not e.blocked(p, card):
                out.add(p)
        return out


@register
class MostCardsGoal(Mechanic):
    name = "most_cards_goal"
    card_types = _GOALS
    params = {"threshold": Param("int")}
    summary = "once someone holds the threshold, the one player with the most cards in hand wins"
    rulings = ("most-goal-blocked-leader",)

    def winners(self, e: RulesCore, card: int) -> set[str]:
        return _single_most(e, card, self._sizes(e), e.num(card, "threshold"))

    def _sizes(self, e):
        st = e.state
        return {p: len(st.hands[p]) for p in st.players if p not in st.eliminated}

    def win_cites(self, e: RulesCore, card: int) -> tuple[str, ...]:
        return ("most-goal-blocked-leader",) + _contested(e, card, self._sizes(e))

    def why_nobody_wins(self, e: RulesCore, card: int) -> tuple[str, ...] | None:
        return _blocked_most(e, card, self._sizes(e), "cards in hand")


@register
class MostKeepersGoal(Mechanic):
    name = "most_keepers_goal"
    card_types = _GOALS
    params = {"threshold": Param("int")}
    summary = "once someone has the threshold of Keepers, the one player with the most wins"
    rulings = ("most-goal-blocked-leader",)

    def winners(self, e: RulesCore, card: int) -> set[str]:
        return _single_most(e, card, self._sizes(e), e.num(card, "threshold"))

    def _sizes(self, e):
        st = e.state
        # (a Keeper lying face down meets no Goal: it is not counted here, though a Keeper Limit counts it)
        return {p: len([k for k in e.showing(p) if st.defs[k].type == KEEPER]) for p in st.players
                if p not in st.eliminated}

    def win_cites(self, e: RulesCore, card: int) -> tuple[str, ...]:
        return ("most-goal-blocked-leader",) + _contested(e, card, self._sizes(e))

    def why_nobody_wins(self, e: RulesCore, card: int) -> tuple[str, ...] | None:
        return _blocked_most(e, card, self._sizes(e), "Keepers")


def _single_most(e, card: int, sizes: dict[str, int], threshold: int) -> set[str]:
    """"The most" is found over every player still in the game first. A single
    leader who is blocked (a Creeper) means nobody wins; among players tied for the
    most, the blocked ones drop out and a single one left wins."""
    if not sizes:
        return set()
    top = max(sizes.values())
    if top < threshold:
        return set()
    leaders = [p for p, n in sizes.items() if n == top and not e.blocked(p, card)]
    return {leaders[0]} if len(leaders) == 1 else set()


def _contested(e, card: int, sizes: dict[str, int]) -> tuple[str, ...]:
    """The ruling that the one with more wins, when more than one player has reached
    the Goal's number."""
    return ("most-villains-goal-tie-continues",) if sum(1 for n in sizes.values()
                                                       if n >= e.num(card, "threshold")) > 1 else ()


def _blocked_most(e, card: int, sizes: dict[str, int], what: str) -> tuple[str, ...] | None:
    """Why a "the most" Goal has no winner although someone reached its number: the
    leaders that are left are all blocked, or blocking leaves no single leader."""
    if not sizes or max(sizes.values()) < e.num(card, "threshold"):
        return None
    top = max(sizes.values())
    leaders = [p for p, n in sizes.items() if n == top]
    blocked = [p for p in leaders if e.blocked(p, card)]
    if not blocked and len(leaders) > 1:
        return (f"{' and '.join(leaders)} tie for the most {what} ({top}): with no single player ahead, nobody meets "
                f"{e.name(card)} yet and play goes on until one of them, or someone else, has the most alone.",
                "most-villains-goal-tie-continues", "rule-tie-game-continues")
    if not blocked or len(leaders) - len(blocked) == 1:
        return None
    if len(leaders) == 1:
        text = (f"{leaders[0]} has the most {what} ({top}) but is blocked by a Creeper, so nobody meets "
                f"{e.name(card)}: the most is counted over every player before the block is applied.")
    else:
        free = [p for p in leaders if p not in blocked]
        text = (f"{', '.join(leaders)} tie for the most {what} ({top}); the blocked {', '.join(blocked)} drop out, "
                f"which leaves {'nobody' if not free else ' and '.join(free)}, so nobody meets {e.name(card)} yet.")
    return (text, "most-goal-blocked-leader")
