"""An Action made of parts: "X, and also Y".

Many cards of the other Fluxx editions are an existing effect plus a small extra (a
Steal a Keeper that also lets the thief draw a card). Such a card is one record: its
`mechanic` is the main part, `also` names the parts carried out after it, in order,
and `params` holds the arguments of every part (each argument belongs to exactly one
part; the catalogue checks that). `Composed` is the mechanic the catalogue gives such
a card: its `play` (and what is left of it after a cancel) runs each part in turn on
the same card; every other question is answered by the main part. Composition is for
the cards that are carried out when played (Actions, and the in-turn sides of
Surprises and Dangers): every part must be such a mechanic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from adjudicator.mechanics.base import ACTION, DANGER, SURPRISE, Mechanic

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef
    from adjudicator.mechanics.api import RulesCore

PLAYABLE = frozenset({ACTION, DANGER, SURPRISE})
_OWN = frozenset({"play", "after_inner_cancel", "job"})


class Composed(Mechanic):
    """The main mechanic followed by the `also` parts (one per card, never registered)."""

    def __init__(self, main: Mechanic, extras: tuple[Mechanic, ...]):
        self.main = main
        self.extras = extras
        parts = (main, *extras)
        # what the main part declares stands for the card, but for what the parts add up to
        for name in dir(Mechanic):
            if not name.startswith("_") and not callable(getattr(Mechanic, name)):
                setattr(self, name, getattr(main, name))
        setattr(self, "name", "+".join(m.name for m in parts))
        setattr(self, "params", {k: v for m in parts for k, v in m.params.items()})
        setattr(self, "summary", "; then ".join(m.summary for m in parts if m.summary))
        setattr(self, "rulings", tuple(dict.fromkeys(r for m in parts for r in m.rulings)))
        setattr(self, "ends_turn", any(m.ends_turn for m in parts))
        setattr(self, "overrides", {k: v for m in parts for k, v in m.overrides.items()})

    def job(self, card: CardDef) -> str:
        return "+".join(m.job(card) for m in (self.main, *self.extras))

    def play(self, e: RulesCore, card: int, player: str) -> None:
        for part in (self.main, *self.extras):
            if e.state.game_over:
                return
            part.play(e, card, player)

    def after_inner_cancel(self, e: RulesCore, card: int, player: str) -> None:
        for part in (self.main, *self.extras):
            part.after_inner_cancel(e, card, player)


def _delegate(name: str) -> Callable[..., Any]:
    def ask_main(self: Composed, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.main, name)(*args, **kwargs)
    ask_main.__name__ = name
    return ask_main


for _name, _value in vars(Mechanic).items():
    if callable(_value) and not _name.startswith("_") and _name not in _OWN:
        setattr(Composed, _name, _delegate(_name))
