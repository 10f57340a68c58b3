"""Editions at the table: which decks a table's cards come from, and edition-level deck
options that are not card facts.

`table_editions(cards)`: a table that declares no `editions:` is taken to be played with
the editions its cards come from: every edition of the smallest sets of editions that
print all of them (Milk, Cookies and Taxes: Fluxx 5.0 and its Creeper Pack; The
Captain: Star Fluxx; Milk alone, printed in one edition: that one). These limit what an
unseen card may be revealed as, and a name that matches cards of several editions (or
a typed name that matches several cards) prefers the table's: they never refuse a card
(a file written without `editions:` reads as it always has).

Easy EcoFluxx (seed rulebook 002, ruling `rule-eco-easy-variant`): a beginners' deck
that sets the more complicated cards aside. Cards only EcoFluxx prints carry the tag
`easy-set-aside`; cards shared with Fluxx 5.0 are one record across editions (their
tags are shared too), so the seed's names for those are listed here instead.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Iterable

from adjudicator.names import normalize

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import CardDef, Catalogue


def table_editions(cards: Iterable[CardDef]) -> tuple[str, ...] | None:
    """The editions these cards come from: the union of the smallest sets of editions
    that print every one of them, in the catalogue's order of editions. None when they
    say nothing (no card, or only cards that every edition could hold: unseen ones,
    declared ones).

    >>> from adjudicator.catalogue import default_catalogue
    >>> cat = default_catalogue()
    >>> table_editions(cat.resolve(n) for n in ("Milk", "Cookies", "Taxes"))
    ('base', 'creeper-pack')
    >>> table_editions([cat.resolve("The Captain"), cat.resolve("Play 3")])
    ('star',)
    >>> table_editions([cat.resolve("Keeper Limit 2")]), table_editions([])
    (('base', 'eco'), None)
    """
    from adjudicator.catalogue import EDITIONS

    sets = {frozenset(c.editions) for c in cards if c.editions}
    every = frozenset(EDITIONS)
    sets = {s for s in sets if s != every}
    if not sets:
        return None
    universe = sorted(frozenset().union(*sets), key=list(EDITIONS).index)
    for size in range(1, len(universe) + 1):
        covers = [set(combo) for combo in combinations(universe, size) if all(s.intersection(combo) for s in sets)]
        if covers:
            found = set().union(*covers)
            return tuple(e for e in EDITIONS if e in found)
    return None           # (not reached: the universe itself covers every set)

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
