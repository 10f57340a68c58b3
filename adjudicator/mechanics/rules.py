"""New Rules and the Basic Rules: the Draw, Play, limit and agenda rules and bonuses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mechanics.base import BASIC, CREEPER, META_RULE, RULE, Mechanic, Param, register
from adjudicator.mechanics.keepers import PayOff

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.mechanics.api import RulesCore

_RULES = frozenset({RULE, META_RULE})


@register
class BasicRules(Mechanic):
    name = "basic_rules"
    card_types = frozenset({BASIC})
    params = {"draw": Param("int"), "play": Param("int")}
    summary = "draw and play counts with no limits; never leaves the table"

    def draw_base(self, e: RulesCore, card: int) -> int | None:
        return e.num(card, "draw")

    def play_quota(self, e: RulesCore, card: int) -> tuple[str, int] | None:
        return ("n", e.num(card, "play"))


@register
class DrawRule(Mechanic):
    name = "draw_rule"
    card_types = _RULES
    params = {"draw": Param("int")}
    slot = "draw"
    summary = "sets how many cards a turn draws"
    rulings = ("rule-draw-rule-raised-catch-up",)

    def draw_base(self, e: RulesCore, card: int) -> int | None:
        return e.num(card, "draw")

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        st = e.state
        if by != st.active_player or st.phase != "play" or not st.drawn:
            return
        total = e.draw_total(by)
        owed = total - st.drawn
        if owed < 0:
            e.say(f"{by} has already drawn {st.drawn} this turn, more than the {total} the Draw rule now asks: "
                  "a lower Draw rule draws nothing more and takes nothing back.", "dice-override-lower-rule-card-no-extra")
        # a rule that changes numerals (Inflation...) is read into every Draw rule at once
        numerals = [r for r in e.rule_cards() if "numeral" in st.defs[r].impl.overridden]
        if owed <= 0 and not numerals:
            return
        cites = []
        text = ""
        if numerals:
            text += f"{e.name(card)} reads {e.num(card, 'draw')} with {e.names(numerals)} in force. "
            cites.append("double-vision-recounts-the-draw")
        bonus = total - e.draw_rule()
        if bonus > 0 and owed > 0:
            text += (f"The bonus of {bonus} that {by} draws by formula stays on top of whatever Draw rule is in force, "
                     f"so the turn's draw is now {total}. ")
            cites.append("formula-bonus-survives-draw-increase")
        text += (f"Only the cards drawn under the Draw rule count toward it: {by} has drawn {st.drawn} that way this "
                 "turn (cards that Actions or free actions gave are extras and count for nothing), so "
                 + (f"{owed} more." if owed > 0 else "nothing more is drawn."))
        cites.append("one-off-draws-not-counted-for-draw-rule")
        e.say(text, *cites)


@register
class PlayRule(Mechanic):
    name = "play_rule"
    card_types = _RULES
    params = {"play": Param("count"), "keep": Param("int", required=False, default=0)}
    slot = "play"
    summary = "sets how many cards a turn plays: N, All, or All but some"
    rulings = ("play-rule-raised-mid-turn", "play-more-than-hand", "play-all-includes-new-cards")

    def play_quota(self, e: RulesCore, card: int) -> tuple[str, int] | None:
        d = e.state.defs[card]
        if d.params["play"] == "all":
            keep = e.num(card, "keep") if d.params.get("keep") else 0
            return ("all_but", keep)
        return ("n", e.num(card, "play"))

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        st = e.state
        if by != st.active_player or st.phase != "play":
            return
        kind, value = e.play_quota(by)
        if kind == "n" and not st.temp_hands and st.played >= value:
            e.say(f"{by} has already made {st.played} play(s) this turn, as many as the Play rule now allows "
                  f"({value}): the plays are over, and none made is undone.", "dice-override-lower-rule-card-no-extra",
                  *(("play-rule-counts-whole-turn-when-lowered",) if st.played > 1 else ()))
        elif kind == "n" and st.played > 1:
            left = max(0, value - st.played)
            e.say(f"{e.name(card)} counts every play of the turn, the ones made before it arrived included: {by} has "
                  f"made {st.played}, so {left or 'no'} more {'play is' if left == 1 else 'plays are'} owed.",
                  "play-rule-counts-whole-turn-when-lowered")
        if self.draw_bonus(e, card, by):
            e.say(f"{by} began the turn with no cards and the Draw rule gives a single card, so {e.name(card)}'s own "
                  "clause gives one card more, drawn now.", "pab1-empty-hand-extra-card")

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
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

    def hand_limit(self, e: RulesCore, card: int) -> int | None:
        return e.num(card, "limit")


@register
class KeeperLimit(Mechanic):
    name = "keeper_limit"
    card_types = _RULES
    params = {"limit": Param("int")}
    slot = "keeper_limit"
    summary = "players not taking their turn may have at most this many Keepers (Creepers do not count)"
    rulings = ("rule-limits-only-off-turn", "keepers-unlimited-without-limit", "creepers-no-limit")

    def keeper_limit(self, e: RulesCore, card: int) -> int | None:
        return e.num(card, "limit")


@register
class Agenda(Mechanic):
    name = "agenda"
    card_types = _RULES
    params = {"goals": Param("int")}
    slot = "agenda"
    summary = "sets how many Goals may be in play at once"
    rulings = ("double-agenda-fill-slot", "double-agenda-removed-choice", "double-agenda-no-free-goal")

    def agenda(self, e: RulesCore, card: int) -> int | None:
        return e.num(card, "goals")

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
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

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        st = e.state
        if by == st.active_player and not st.hands[by]:
            e.say(f"No-Hand Bonus is only checked as a turn begins, so {by}, who played it with an empty hand, "
                  "gets nothing from it this turn.", "no-hand-bonus-not-on-playing-turn")

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
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
        want = e.state.defs[card].params["keeper"]
        # (the names in front of each player, as the Goals read them: a figure kept per table)
        return any([want in held for held in e.holdings().values()])

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        _joins_bonuses(e, card)

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "draw") if e.state.defs[card].params["draw"] and self._on(e, card) else 0

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
        return e.num(card, "play") if e.state.defs[card].params["play"] and self._on(e, card) else 0


def _bonus_rule(d) -> bool:
    """A rule that gives extra draws or plays on a condition of its own (a bonus), as
    opposed to a rule that sets the Draw or Play count itself."""
    return d.impl.slot is None and bool({"draw_bonus", "play_bonus"} & d.impl.overridden)


def _joins_bonuses(e, card) -> None:
    """A bonus rule arriving beside others: each depends on its own condition, so none
    replaces another and they add up."""
    st = e.state
    others = [r for r in e.rule_cards() if r != card and _bonus_rule(st.defs[r])]
    if not others:
        return
    cites = ["bonus-rules-add-up"]
    kinds = {type(st.defs[c].impl) for c in [card, *others]}
    if {PoorBonus, RichBonus} <= kinds:
        cites.append("poor-and-rich-bonus-coexist")
    e.say(f"{e.name(card)} depends on a condition of its own, so it replaces no other bonus: it stays beside "
          f"{e.names(others)}, and a player who meets several conditions gets every extra.", *cites)


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

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        _joins_bonuses(e, card)

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        if e.keeper_count(player) == 0 and _strict_extreme(e, player, most=False):
            e.say(f"{player} has no Keepers at all and everyone else has some: none is fewer than one, so {player} "
                  f"alone has the fewest and {e.name(card)} gives {e.num(card, 'draw')} more card.",
                  "poor-bonus-zero-keepers-is-fewest")

    def draw_bonus(self, e: RulesCore, card: int, player: str) -> int:
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

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        _joins_bonuses(e, card)

    def start_of_turn(self, e: RulesCore, card: int, player: str) -> None:
        if _strict_extreme(e, player, most=True):
            e.say(f"{player} has the most Keepers, so {e.name(card)} adds {e.num(card, 'play')} to whatever the Play "
                  "rule asks for as long as that stays so: the bonus is a formula, not a play to be spent, and cards "
                  "the hand gains later are counted by it too.", "rich-bonus-is-a-formula-not-used-up")

    def play_bonus(self, e: RulesCore, card: int, player: str) -> int:
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

    def numeral(self, e: RulesCore, card: int, target: int, value: int) -> int:
        return value + 1

    def on_enter(self, e: RulesCore, card: int, by: str) -> None:
        st = e.state
        e.say("Inflation: every number printed as a numeral on the other cards now counts one higher "
              "(the Basic Rules included, Goals and Actions too); numbers written in words do not change.",
              "rule-new-rule-immediate", "inflation-raises-numerals-on-goals-and-actions")
        for r in e.rule_cards():
            d = st.defs[r]
            if d.impl.slot == "play" and isinstance(d.params.get("play"), int) and "play" in d.numerals:
                e.say(f"{e.name(r)} now reads Play {e.num(r, 'play')}: the increase is a number, one more card, so it "
                      "never turns into Play All.", "lucky-charm-adds-one-numerically")
        if st.temp_hands:
            e.say(f"It acts at once, on the Action in progress too: {e.name(st.temp_hands[-1].source)}, which brought "
                  "Inflation out, now reads its numbers one higher.", "pandoras-box-counts-rules-as-they-land")
        began = [r for r in e.rule_cards() if isinstance(st.defs[r].impl, NoHandBonus)]
        if by == st.active_player and st.phase == "play" and st.started_empty and began:
            e.say(f"{e.names(began)} did {'its' if len(began) == 1 else 'their'} work as {by}'s turn began, before "
                  "Inflation arrived, and Inflation does not reach back: it gives no further card from "
                  f"{'it' if len(began) == 1 else 'them'}. The Draw rule is a count for the whole turn, so only its "
                  "difference is drawn.", "inflation-not-retroactive-to-no-hand-bonus")


@register
class SilverLining(Mechanic):
    name = "silver_lining"
    card_types = _RULES
    coexists = {"concept:creepers": ""}
    summary = "Creepers no longer stop anyone winning"

    def lifts_block(self, e: RulesCore, card: int, creeper: int) -> bool:
        return True

    def filter_winners(self, e: RulesCore, card: int, met: dict[str, list[int]]) -> dict[str, list[int]]:
        # narrows nothing; it explains a win that a Creeper would have stopped
        st = e.state
        for p, goals in met.items():
            needed = {n for g in goals for n in st.defs[g].impl.requires(e, g)}
            lifted = [c for c in st.keepers[p] if st.defs[c].type == CREEPER and st.defs[c].name not in needed]
            if not lifted:
                continue
            cites: list[str] = []
            text = f"{e.name(card)} is in play, so {e.names(lifted)} in front of {p} no longer stop{'s' if len(lifted) == 1 else ''} the win"
            owed = [c for c in lifted if isinstance(st.defs[c].impl, PayOff)
                    and any(st.defs[k].name == st.defs[c].params["keeper"] for k in st.keepers[p])]
            if owed:
                text += (f", and {p} need not pay {e.names(owed)} off with the {st.defs[owed[0]].params['keeper']} "
                         "before the win is checked: with Creepers made harmless, that discard may be skipped")
                cites.append("silver-lining-lets-money-win-through-taxes")
            e.claim_note(p, text + ".", *cites)
        return met


@register
class BakedPotato(Mechanic):
    name = "baked_potato"
    card_types = _RULES
    coexists = {"concept:creepers": ""}
    params = {"creeper": Param("str")}
    summary = "the named Creeper no longer blocks, but while it is out only its holder can win"

    def lifts_block(self, e: RulesCore, card: int, creeper: int) -> bool:
        named = e.state.defs[card].params["creeper"]
        try:
            return e.cat.resolve(named).key == e.state.defs[creeper].key
        except Exception:           # a name the catalogue does not know: compare names
            return e.state.defs[creeper].name == named

    def filter_winners(self, e: RulesCore, card: int, met: dict[str, list[int]]) -> dict[str, list[int]]:
        st = e.state
        want = st.defs[card].params["creeper"]
        holders = {p for p in st.players for k in st.keepers[p] if st.defs[k].name == want}
        if not holders:
            return met
        return {p: g for p, g in met.items() if p in holders}
