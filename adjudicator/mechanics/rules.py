"""New Rules and the Basic Rules: the Draw, Play, limit and agenda rules and bonuses."""

from __future__ import annotations

from adjudicator.mechanics.base import BASIC, META_RULE, RULE, Mechanic, Param, register

_RULES = frozenset({RULE, META_RULE})


@register
class BasicRules(Mechanic):
    name = "basic_rules"
    card_types = frozenset({BASIC})
    params = {"draw": Param("int"), "play": Param("int")}
    summary = "draw and play counts with no limits; never leaves the table"

    def draw_base(self, e, card):
        return e.num(card, "draw")

    def play_quota(self, e, card):
        return ("n", e.num(card, "play"))


@register
class DrawRule(Mechanic):
    name = "draw_rule"
    card_types = _RULES
    params = {"draw": Param("int")}
    slot = "draw"
    summary = "sets how many cards a turn draws"
    rulings = ("rule-draw-rule-raised-catch-up",)

    def draw_base(self, e, card):
        return e.num(card, "draw")

    def on_enter(self, e, card, by):
        st = e.state
        if by == st.active_player and st.drawn > e.draw_total(by):
            e.say(f"{by} has already drawn {st.drawn} this turn, more than the {e.draw_total(by)} the Draw rule now asks: "
                  "a lower Draw rule draws nothing more and takes nothing back.", "dice-override-lower-rule-card-no-extra")


@register
class PlayRule(Mechanic):
    name = "play_rule"
    card_types = _RULES
    params = {"play": Param("count"), "keep": Param("int", required=False, default=0)}
    slot = "play"
    summary = "sets how many cards a turn plays: N, All, or All but some"
    rulings = ("play-rule-raised-mid-turn", "play-more-than-hand", "play-all-includes-new-cards")

    def play_quota(self, e, card):
        d = e.state.defs[card]
        if d.params["play"] == "all":
            keep = e.num(card, "keep") if d.params.get("keep") else 0
            return ("all_but", keep)
        return ("n", e.num(card, "play"))

    def on_enter(self, e, card, by):
        st = e.state
        kind, n = e.play_quota(by)
        if by == st.active_player and kind == "n" and not st.temp_hands and st.played >= n:
            e.say(f"{by} has already made {st.played} play(s) this turn, as many as the Play rule now allows "
                  f"({n}): the plays are over, and none made is undone.", "dice-override-lower-rule-card-no-extra")

    def draw_bonus(self, e, card, player):
        # Play All But 1's extra clause: a turn begun with no cards that would draw just
        # one card draws one more.
        st = e.state
        d = st.defs[card]
        if d.params["play"] == "all" and d.params.get("keep") and st.started_empty and player == st.active_player:
            if e.draw_rule() + sum(st.defs[r].impl.draw_bonus(e, r, player) for r in e.rule_cards() if r != card) == 1:
                return 1
        return 0


@register
class HandLimit(Mechanic):
    name = "hand_limit"
    card_types = _RULES
    params = {"limit": Param("int")}
    slot = "hand_limit"
    summary = "players not taking their turn may hold at most this many cards"
    rulings = ("rule-limits-only-off-turn", "rule-new-limit-immediate-compliance", "hand-limit-is-cap")

    def hand_limit(self, e, card):
        return e.num(card, "limit")


@register
class KeeperLimit(Mechanic):
    name = "keeper_limit"
    card_types = _RULES
    params = {"limit": Param("int")}
    slot = "keeper_limit"
    summary = "players not taking their turn may have at most this many Keepers (Creepers do not count)"
    rulings = ("rule-limits-only-off-turn", "keepers-unlimited-without-limit", "creepers-no-limit")

    def keeper_limit(self, e, card):
        return e.num(card, "limit")


@register
class Agenda(Mechanic):
    name = "agenda"
    card_types = _RULES
    params = {"goals": Param("int")}
    slot = "agenda"
    summary = "sets how many Goals may be in play at once"
    rulings = ("double-agenda-fill-slot", "double-agenda-removed-choice", "double-agenda-no-free-goal")

    def agenda(self, e, card):
        return e.num(card, "goals")

    def on_enter(self, e, card, by):
        e.say(f"{e.name(card)} opens room for {e.num(card, 'goals')} Goals; it plays no Goal itself, and a Goal put "
              "in the new slot costs a play as usual.", "double-agenda-no-free-goal")


@register
class NoHandBonus(Mechanic):
    name = "no_hand_bonus"
    card_types = _RULES
    params = {"draw": Param("int")}
    coexists = {"slot:draw": "no-hand-bonus-draws-separate"}
    summary = "at the start of a turn with an empty hand, draw a fresh hand before the Draw rule"
    rulings = ("no-hand-bonus-draws-separate", "no-hand-bonus-not-on-playing-turn")

    def on_enter(self, e, card, by):
        st = e.state
        if by == st.active_player and not st.hands[by]:
            e.say(f"No-Hand Bonus is only checked as a turn begins, so {by}, who played it with an empty hand, "
                  "gets nothing from it this turn.", "no-hand-bonus-not-on-playing-turn")

    def start_of_turn(self, e, card, player):
        st = e.state
        if not st.hands[player]:
            n = e.num(card, "draw")
            e.say(f"{player} starts the turn with no cards: No-Hand Bonus gives {n} cards before the Draw rule, "
                  "and they do not count as the turn's draws.", "no-hand-bonus-draws-separate")
            e.draw(player, n, why=e.name(card))


@register
class KeeperBonus(Mechanic):
    """Party Bonus and its kin: while a named Keeper is on the table, everyone draws
    and plays extra on their own turn."""

    name = "keeper_bonus"
    card_types = _RULES
    params = {"keeper": Param("str"), "draw": Param("int", required=False, default=0),
              "play": Param("int", required=False, default=0)}
    coexists = {"slot:draw": "extra-draw-play-not-tied", "slot:play": "play-all-plus-bonus"}
    modifies = {"concept:draw_count": "extra-draw-play-not-tied", "concept:play_count": "play-all-plus-bonus"}
    summary = "extra draws and plays for everyone while a named Keeper is in play"
    rulings = ("play-all-plus-bonus", "play-all-but-1-plus-bonus", "extra-draw-play-not-tied")

    def _on(self, e, card):
        st = e.state
        want = st.defs[card].params["keeper"]
        return any(st.defs[k].name == want for p in st.players for k in st.keepers[p])

    def draw_bonus(self, e, card, player):
        return e.num(card, "draw") if e.state.defs[card].params["draw"] and self._on(e, card) else 0

    def play_bonus(self, e, card, player):
        return e.num(card, "play") if e.state.defs[card].params["play"] and self._on(e, card) else 0


def _strict_extreme(e, player, most: bool) -> bool:
    counts = {p: e.keeper_count(p) for p in e.state.players if p not in e.state.eliminated}
    mine = counts.pop(player, 0)
    if not counts:
        return False
    return mine > max(counts.values()) if most else mine < min(counts.values())


@register
class PoorBonus(Mechanic):
    name = "poor_bonus"
    card_types = _RULES
    params = {"draw": Param("int")}
    coexists = {"slot:draw": ""}
    modifies = {"concept:draw_count": ""}
    summary = "the one player with strictly fewest Keepers draws extra"

    def draw_bonus(self, e, card, player):
        return e.num(card, "draw") if _strict_extreme(e, player, most=False) else 0


@register
class RichBonus(Mechanic):
    name = "rich_bonus"
    card_types = _RULES
    params = {"play": Param("int")}
    coexists = {"slot:play": "play-all-plus-bonus"}
    modifies = {"concept:play_count": "play-all-plus-bonus"}
    summary = "the one player with strictly most Keepers plays extra"
    rulings = ("play-all-plus-bonus",)

    def play_bonus(self, e, card, player):
        return e.num(card, "play") if _strict_extreme(e, player, most=True) else 0


@register
class FirstPlayRandom(Mechanic):
    name = "first_play_random"
    card_types = _RULES
    effects = frozenset({"first_play_random"})
    coexists = {"slot:play": ""}
    summary = "the first card of a turn with more than one play is picked at random"


@register
class Inflation(Mechanic):
    name = "inflation"
    card_types = _RULES
    slot = "numerals"
    coexists = {"slot:draw": "", "slot:play": "", "slot:hand_limit": "", "slot:keeper_limit": ""}
    modifies = {"concept:numerals": ""}
    summary = "every numeral printed on other cards counts one higher"

    def numeral(self, e, card, target, value):
        return value + 1

    def on_enter(self, e, card, by):
        st = e.state
        e.say("Inflation: every number printed as a numeral on the other cards now counts one higher "
              "(the Basic Rules included); numbers written in words do not change.", "rule-new-rule-immediate")
        for r in e.rule_cards():
            d = st.defs[r]
            if d.impl.slot == "play" and isinstance(d.params.get("play"), int) and "play" in d.numerals:
                e.say(f"{e.name(r)} now reads Play {e.num(r, 'play')}: the increase is a number, one more card, so it "
                      "never turns into Play All.", "lucky-charm-adds-one-numerically")
        if st.temp_hands:
            e.say(f"It acts at once, on the Action in progress too: {e.name(st.temp_hands[-1].source)}, which brought "
                  "Inflation out, now reads its numbers one higher.", "pandoras-box-counts-rules-as-they-land")


@register
class SilverLining(Mechanic):
    name = "silver_lining"
    card_types = _RULES
    coexists = {"concept:creepers": ""}
    summary = "Creepers no longer stop anyone winning"

    def lifts_block(self, e, card, creeper):
        return True


@register
class BakedPotato(Mechanic):
    name = "baked_potato"
    card_types = _RULES
    coexists = {"concept:creepers": ""}
    params = {"creeper": Param("str")}
    summary = "the named Creeper no longer blocks, but while it is out only its holder can win"

    def lifts_block(self, e, card, creeper):
        named = e.state.defs[card].params["creeper"]
        try:
            return e.cat.resolve(named).key == e.state.defs[creeper].key
        except Exception:           # a name the catalogue does not know: compare names
            return e.state.defs[creeper].name == named

    def filter_winners(self, e, card, met):
        st = e.state
        want = st.defs[card].params["creeper"]
        holders = {p for p in st.players for k in st.keepers[p] if st.defs[k].name == want}
        if not holders:
            return met
        return {p: g for p, g in met.items() if p in holders}
