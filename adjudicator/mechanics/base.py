"""The mechanic contract: what a mechanic declares and the hooks the engine calls.

Hooks receive the rules core through one narrow typed interface
(`adjudicator.mechanics.api.RulesCore`): the table, the derived quantities,
decisions, the explanation log and the primitives that move cards; never the event
driver above it.

A mechanic is written once and registered by name; every card that behaves that way
names it in the catalogue with its arguments. Declared metadata (the rule slot it
sets, what it modifies, whether it is a free action...) feeds the interaction graph,
which is where the engine learns which rules displace which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.mechanics.api import RulesCore
    from adjudicator.movement import Move

# card types
KEEPER, GOAL, RULE, ACTION, CREEPER, SURPRISE = "keeper", "goal", "rule", "action", "creeper", "surprise"
UNGOAL, META_RULE, DANGER, SECRET, BASIC, UNKNOWN = "ungoal", "meta_rule", "danger", "secret", "basic", "unknown"
CARD_TYPES = (KEEPER, GOAL, RULE, ACTION, CREEPER, SURPRISE, UNGOAL, META_RULE, DANGER, SECRET, BASIC)

# rule slots (what a rule governs; two rules with one slot contradict each other)
SLOTS = ("draw", "play", "hand_limit", "keeper_limit", "agenda", "numerals")


@dataclass(frozen=True)
class Param:
    """One declared argument of a mechanic. kind: int | str | bool | names | count."""

    kind: str
    required: bool = True
    default: Any = None
    numeral_ok: bool = True      # may be printed as a digit (and so be inflated)


class Mechanic:
    """Base class; subclasses set the class attributes and override the hooks they use."""

    name: ClassVar[str] = ""
    card_types: ClassVar[frozenset[str]] = frozenset()
    params: ClassVar[dict[str, Param]] = {}
    summary: ClassVar[str] = ""
    # graph metadata
    slot: ClassVar[str | None] = None
    # graph node -> ruling id (or "") that says so
    coexists: ClassVar[dict[str, str]] = {}      # slots/concepts it explicitly does not contradict
    modifies: ClassVar[dict[str, str]] = {}      # quantities it changes: concept:play_count...
    overrides: ClassVar[dict[str, str]] = {}     # what it overrides (a turn end: the Play rule...)
    free_action: ClassVar[bool] = False
    off_turn: ClassVar[bool] = False             # its free action may be used on others' turns too
    cancels: ClassVar[dict[str, str]] = {}       # Surprises: the kinds of card or action they stop
    once_per_turn: ClassVar[bool] = False
    ends_turn: ClassVar[bool] = False
    rulings: ClassVar[tuple[str, ...]] = ()      # rulings that decide how it behaves
    # a free action that plays a card: the rulings a Surprise that comes after it, too
    # late for the card before, is refused with
    closes_windows_ruling: ClassVar[tuple[str, ...]] = ()
    # a Surprise: the rulings on what stands when it is itself canceled by another
    when_countered: ClassVar[tuple[str, ...]] = ()
    # a card that holds cards under it (`can_hold`): the rulings on how they go with it
    pile_rulings: ClassVar[tuple[str, ...]] = ()
    # a free action that uses a card kept under this one (`used_card`): the rulings on
    # what becomes of that card when a Surprise cancels the use
    use_canceled_rulings: ClassVar[tuple[str, ...]] = ()
    # an Action that stays in play among the New Rules once played (Let's Keep Doing That)
    stays_as_rule: ClassVar[bool] = False

    effects: ClassVar[frozenset[str]] = frozenset()  # static effects it imposes while in force (EFFECTS)
    # the hooks below this class overrides (filled in by `register`): the engine asks a
    # card only the questions its mechanic answers, so a table of plain Keepers costs
    # nothing to consult
    overridden: ClassVar[frozenset[str]] = frozenset()

    def job(self, card: "CardDef") -> str:
        """What a rule does, as a key: two New Rules with one job are the same rule (a
        copy, an alias or another edition's analogue), and a new one replaces the old.
        By default the job is the mechanic with its arguments; an analogue family that
        works the same with other arguments overrides it."""
        return f"{self.name}:{sorted(card.params.items())!r}"

    # -- playing and using -------------------------------------------------
    def play(self, e: "RulesCore", card: int, player: str) -> None:
        """Resolve an Action (or a Surprise's in-turn side)."""

    def cannot_use(self, e: "RulesCore", card: int, player: str) -> tuple[str, str | None] | None:
        """Why this free action cannot be used now: (reason, ruling id), or None."""
        return ("this card has no free action", None)

    def use(self, e: "RulesCore", card: int, player: str) -> None:
        """Carry out a free action."""

    def used_card(self, e: "RulesCore", card: int) -> int | None:
        """The real card this free action uses, lying under this one (the Action kept
        with Let's Keep Doing That), or None: its use opens that card's response
        window, which a Surprise against that kind of card may answer."""
        return None

    def lasting_effects(self, card: "CardDef") -> frozenset[str]:
        """The effects (EFFECTS) this card leaves on its player until their next turn
        begins, once carried out (I'll Be In My Bunk: `out_of_reach`)."""
        return frozenset()

    def can_hold(self, card: "CardDef", other: "CardDef") -> bool:
        """Whether `other` may lie under `card` in play (the Treasure Map's Booty, the
        Action kept with Let's Keep Doing That)."""
        return False

    def after_inner_cancel(self, e: "RulesCore", card: int, player: str) -> None:
        """What is left of this Action's effect when a card it played is canceled by a
        Surprise (the table is restored from the moment that card was played). Nothing
        by default: the Action ends there and is discarded."""

    # -- rules in play -----------------------------------------------------
    def on_enter(self, e: "RulesCore", card: int, by: str) -> None:
        """A rule has just been put in play."""

    def on_leave(self, e: "RulesCore", card: int, by: str) -> None:
        """A rule has just left play."""

    # derived quantities: None means "this rule says nothing about it". These answers
    # (and `power_active`) are kept per face-up table (Quantities.face_up), so they may
    # read only what is face up: the rules, the cards in front of players and their
    # attachments, the players in, whose turn it is, whether it began with an empty
    # hand, and the bonuses granted this turn; never hands or piles. The rule-level
    # ones, draw_base, play_quota, hand_limit, keeper_limit, agenda and `numeral`, are
    # kept per set of rules in force (Quantities.rules_in_force): they read the rules
    # alone (a player's bonus comes from draw_bonus, limit_bonus and play_bonus).
    def draw_base(self, e: "RulesCore", card: int) -> int | None:
        return None

    def play_quota(self, e: "RulesCore", card: int) -> tuple[str, int] | None:
        """('n', N) for Play N, ('all_but', k) for Play All But k (0: Play All)."""
        return None

    def hand_limit(self, e: "RulesCore", card: int) -> int | None:
        return None

    def keeper_limit(self, e: "RulesCore", card: int) -> int | None:
        return None

    def agenda(self, e: "RulesCore", card: int) -> int | None:
        return None

    def draw_bonus(self, e: "RulesCore", card: int, player: str) -> int:
        """Extra draws for `player` (a rule for anyone, or a Keeper for its owner)."""
        return 0

    def limit_bonus(self, e: "RulesCore", card: int, player: str) -> int:
        """How much higher `player`'s Hand and Keeper Limits are (a Keeper's power)."""
        return 0

    def play_bonus(self, e: "RulesCore", card: int, player: str) -> int:
        return 0

    def turn_duty(self, e: "RulesCore", card: int, player: str) -> str | None:
        """Something this rule still requires before `player`'s turn may end, or None."""
        return None

    def start_of_turn(self, e: "RulesCore", card: int, player: str) -> None:
        """A rule's or a card-in-front-of-you's start-of-turn duty (No-Hand Bonus, Death)."""

    # -- goals ---------------------------------------------------------------
    def winners(self, e: "RulesCore", card: int) -> set[str]:
        return set()

    def filter_winners(self, e: "RulesCore", card: int, met: dict[str, list[int]]) -> dict[str, list[int]]:
        """A rule in play that narrows who may win (You Also Need a Baked Potato)."""
        return met

    def claims(self, e: "RulesCore", card: int, owner: str, met: dict[str, list[int]]) -> dict[str, list[int]]:
        """A card in front of `owner` that changes who meets which Goal (Holographic
        Projection lends its holder another player's Keeper): returns the new claims."""
        return met

    def win_cites(self, e: "RulesCore", card: int) -> tuple[str, ...]:
        """Rulings that decide how this Goal is met, cited when someone meets it."""
        return ()

    def why_nobody_wins(self, e: "RulesCore", card: int) -> tuple[str, ...] | None:
        """When this Goal would be met but for a rule that stops every claimant (the one
        player with the most is blocked): (explanation, ruling ids...), else None."""
        return None

    def required_cards(self, e: "RulesCore", card: int, player: str) -> list[int]:
        """The cards in front of `player` this Goal needed (discarded when it is scored
        in Solo Fluxx)."""
        return []

    def requires(self, e: "RulesCore", card: int) -> frozenset[str]:
        """Creepers this goal names as needed (so they do not block it)."""
        return frozenset()

    # -- keepers and creepers ------------------------------------------------
    def blocks_win(self, e: "RulesCore", card: int, owner: str, goal: int) -> bool:
        """A card in front of `owner` stops `owner` meeting `goal`."""
        return False

    def blocks_everyone(self, e: "RulesCore", card: int, owner: str, goal: int) -> bool:
        """A card in front of anyone stops every player meeting `goal` (EcoFluxx Creepers)."""
        return False

    def lifts_block(self, e: "RulesCore", card: int, creeper: int) -> bool:
        """A rule in play that stops `creeper` blocking wins (Silver Lining: every
        Creeper; You Also Need a Baked Potato: the Potato). The engine asks every rule
        in force before it asks a Creeper whether it blocks."""
        return False

    def numeral(self, e: "RulesCore", card: int, target: int, value: int) -> int:
        """A rule in play that changes how numerals printed on other cards read
        (Inflation adds one; One, Two, Five! reads a 3 as 5). `target` is the card
        whose number is being read."""
        return value

    def on_reveal(self, e: "RulesCore", card: int, holder: str) -> None:
        """A Secret has left `holder`'s hand: carry out what it says."""

    def used_once_per_turn(self, card: "CardDef") -> bool:
        """Whether this card's free action may be used at most once per turn."""
        return self.once_per_turn

    def can_attach_to(self, creeper: "CardDef", keeper: "CardDef") -> bool:
        """For a Creeper that attaches itself: whether it can go on that Keeper. The
        engine keeps every such Creeper attached whenever its holder has a Keeper it
        can go on (checked at every checkpoint, so every route a Keeper takes counts)."""
        return False

    attaches: ClassVar[bool] = False

    def on_placed(self, e: "RulesCore", card: int, owner: str) -> None:
        """A Keeper or Creeper has just come into play in front of `owner` (a Creeper
        may attach itself to a Keeper here: `e.state.attach(creeper, keeper)`)."""

    def power_active(self, e: "RulesCore", card: int) -> bool:
        """Whether this card's power works now (a Malfunction may switch it off)."""
        return not any(e.state.defs[c].impl.switches_off_power for c, k in e.state.attachments.items() if k == card)

    switches_off_power: ClassVar[bool] = False

    def on_checkpoint(self, e: "RulesCore", card: int, owner: str) -> None:
        """A card in front of `owner` reacts to the table (War hands Peace over)."""

    def on_goal_change(self, e: "RulesCore", card: int, owner: str) -> None:
        """A card in front of `owner` reacts to the Goal changing (Radioactive Potato)."""

    def on_turn_end(self, e: "RulesCore", card: int, holder: str, player: str) -> None:
        """A card in front of `holder` acts as `player`'s turn ends: once `player` has
        met the limits, before the next turn begins (Cute Fuzzy Alien Creature); a
        `turn_end_duty` of the ending player's own, in the order they choose."""

    # its `on_turn_end` is a duty its holder carries out as their own turn ends, which
    # they may see to before or after the Limits (format 1.2, item 3)
    turn_end_duty: ClassVar[bool] = False

    # -- replacement effects -------------------------------------------------
    def replace_move(self, e: "RulesCore", card: int, holder: str | None, move: "Move") -> "Move | None":
        """A card's "instead": asked before any card moves for the rules (the rules in
        force, the cards in front of players with `holder`, and the moving card itself,
        see `adjudicator.movement`). Return the move as it happens instead (and say
        why), or None to let it happen. Each card replaces a move at most once."""
        return None


REGISTRY: dict[str, Mechanic] = {}
# The static effects a card may impose while it is in force (a rule in play, or a
# Keeper whose power works). Other mechanics and the engine ask for an effect through
# `Engine.with_effect`, never for the card or mechanic that has it, so another card
# with the same effect (another edition's, a declared one) works the same at once.
EFFECTS = {
    "food_uneatable": "food Keepers of its holder do not count for the Eats Goals (Poison)",
    "captain": "its holder is the Captain (Captain's Hat)",
    "takes_the_loss": "when another player would take or discard one of its holder's Keepers, it goes instead "
                      "(Expendable Crewman)",
    "returns_named_action": "the Action it names, played by its holder, comes back to the hand instead of the discard "
                            "pile",
    "no_rejoining": "a knocked-out player cannot come back into the game (The Final Act)",
    "first_play_random": "the first card played each turn is taken at random from the hand (First Play Random)",
    "out_of_reach": "nobody else may take from, give to or change what its player has (left by I'll Be In My Bunk "
                    "until that player's next turn)",
}
# the per-table questions worth skipping for mechanics that leave them at the default
HOOKS = ("draw_base", "play_quota", "hand_limit", "keeper_limit", "agenda", "draw_bonus", "limit_bonus", "play_bonus",
         "turn_duty", "start_of_turn", "winners", "filter_winners", "claims", "why_nobody_wins", "blocks_win",
         "blocks_everyone", "lifts_block", "numeral", "power_active", "on_checkpoint", "on_goal_change", "on_turn_end",
         "replace_move")


def register(cls: type[Mechanic]) -> type[Mechanic]:
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no mechanic name")
    if cls.name in REGISTRY:
        raise ValueError(f"mechanic {cls.name!r} registered twice")
    if cls.slot is not None and cls.slot not in SLOTS:
        raise ValueError(f"mechanic {cls.name!r} declares unknown slot {cls.slot!r}")
    unknown = cls.effects - EFFECTS.keys()
    if unknown:
        raise ValueError(f"mechanic {cls.name!r} declares unknown effects {sorted(unknown)}")
    cls.overridden = frozenset(hook for hook in HOOKS if getattr(cls, hook) is not getattr(Mechanic, hook))
    REGISTRY[cls.name] = cls()
    return cls
