"""Edition-level deck options that are not card facts.

Easy EcoFluxx (seed rulebook 002, ruling `rule-eco-easy-variant`): a beginners' deck
that sets the more complicated cards aside. Cards only EcoFluxx prints carry the tag
`easy-set-aside`; cards shared with Fluxx 5.0 are one record across editions (their
tags are shared too), so the seed's names for those are listed here instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.names import normalize

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import Catalogue

# The seed's set-aside list, for the cards EcoFluxx shares with other editions.
EASY_ECO_SHARED = ("Draw 3, Play 2 of Them", "Draw 4", "Draw 5", "Play 4", "Play All", "No-Hand Bonus")
# "all Keeper Limits", "all Creepers", "all Eats Goals": every card of these kinds in the deck.
_ALL_OF_MECHANIC = ("keeper_limit", "eats_goal")
_ALL_OF_TYPE = ("creeper",)


def easy_ecofluxx_set_aside(catalogue: Catalogue) -> list[str]:
    """Names of the EcoFluxx cards the Easy EcoFluxx variant sets aside, sorted."""
    shared = {normalize(n) for n in EASY_ECO_SHARED}
    out = set()
    for card in catalogue.by_edition("eco"):
        if ("easy-set-aside" in card.tags or normalize(card.name) in shared
                or card.mechanic in _ALL_OF_MECHANIC or card.type in _ALL_OF_TYPE):
            out.add(card.name)
    return sorted(out)


def easy_ecofluxx_deck(catalogue: Catalogue) -> list[str]:
    """Names of the EcoFluxx cards that stay in an Easy EcoFluxx deck, sorted."""
    aside = set(easy_ecofluxx_set_aside(catalogue))
    return sorted(c.name for c in catalogue.by_edition("eco") if c.name not in aside and c.type != "basic")
