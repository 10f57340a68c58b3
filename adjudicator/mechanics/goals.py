"""Goals: who meets them. A Creeper in front of a player blocks them unless the Goal
names it as needed."""

from __future__ import annotations

from adjudicator.mechanics.base import GOAL, UNGOAL, Mechanic, Param, register

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
            total += sum(1 for k in st.keepers[player] if w[4:] in st.defs[k].tags)
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

    def requires(self, e, card):
        return frozenset(e.state.defs[card].params["needs_creepers"])

    def win_cites(self, e, card):
        # "N or more of these": like any Goal, all of them in front of one player
        st = e.state
        p_ = st.defs[card].params
        many = p_["any_count"] >= 2
        # a Creeper the Goal names counts toward it in every copy, and no copy counts against it
        spare = any(sum(1 for k in st.keepers[p] if st.defs[k].name == n) > 1
                    for p in st.players for n in p_["needs_creepers"])
        return (("rule-keepers-in-play-for-goals-powers",) + (("thanksgiving-keepers-in-front",) if many else ())
                + (("extra-copy-of-required-creeper-does-not-block",) if spare else ()))

    def why_nobody_wins(self, e, card):
        """A player has every card the Goal asks for, but a card it says nobody may have
        is on the table: each Goal keeps all its conditions, whatever the other Goals in
        play ask for."""
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

    def required_cards(self, e, card, player):
        st = e.state
        p_ = st.defs[card].params
        out: list[int] = []

        def take(wanted: str) -> None:
            tag = wanted[4:] if wanted.startswith("tag:") else None
            for k in st.keepers[player]:
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

    def winners(self, e, card):
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

    def winners(self, e, card):
        return _single_most(e, card, self._sizes(e), e.num(card, "threshold"))

    def _sizes(self, e):
        st = e.state
        return {p: len(st.hands[p]) for p in st.players if p not in st.eliminated}

    def win_cites(self, e, card):
        return ("most-goal-blocked-leader",) + _contested(e, card, self._sizes(e))

    def why_nobody_wins(self, e, card):
        return _blocked_most(e, card, self._sizes(e), "cards in hand")


@register
class MostKeepersGoal(Mechanic):
    name = "most_keepers_goal"
    card_types = _GOALS
    params = {"threshold": Param("int")}
    summary = "once someone has the threshold of Keepers, the one player with the most wins"
    rulings = ("most-goal-blocked-leader",)

    def winners(self, e, card):
        return _single_most(e, card, self._sizes(e), e.num(card, "threshold"))

    def _sizes(self, e):
        st = e.state
        return {p: e.keeper_count(p) for p in st.players if p not in st.eliminated}

    def win_cites(self, e, card):
        return ("most-goal-blocked-leader",) + _contested(e, card, self._sizes(e))

    def why_nobody_wins(self, e, card):
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
