"""The rule-interaction graph: one networkx MultiDiGraph of how cards meet.

Nodes are cards (`card:KEY`), rule slots (`slot:draw`...), concepts (`concept:...`)
and aliases (`alias:NAME`). Edges carry their relation as the key: `sets` (a rule to
the slot it governs), `replaces` (derived: two rules that set one slot), `alias_of`,
`modifies` (a bonus to the quantity it changes), `coexists` (a stated
non-contradiction). The engine asks this graph which rules a new rule displaces;
there is no other table of contradictions.
"""

from __future__ import annotations

import functools
from typing import Iterable

import networkx as nx

from adjudicator.mechanics.base import RULE

RELATIONS = ("sets", "replaces", "alias_of", "cancels", "overrides", "modifies", "coexists", "cites", "demonstrates")


def card_node(key: str) -> str:
    return f"card:{key}"


class InteractionGraph:
    def __init__(self, graph: nx.MultiDiGraph):
        self.g = graph
        self._slots: dict[str, frozenset[str]] = {}
        for node, data in graph.nodes(data=True):
            if data.get("kind") == "card":
                slots = frozenset(v.split(":", 1)[1] for _, v, k in graph.out_edges(node, keys=True) if k == "sets")
                self._slots[data["key"]] = slots

    def slots_of(self, key: str) -> frozenset[str]:
        return self._slots.get(key, frozenset())

    def displaced_by(self, key: str, in_play: Iterable[str]) -> set[str]:
        """The rules in play that a new rule `key` replaces (they set a slot it sets)."""
        node = card_node(key)
        if node not in self.g:
            return set()
        replaced = {v.split(":", 1)[1] for _, v, k in self.g.out_edges(node, keys=True) if k == "replaces"}
        return {k for k in in_play if k in replaced and k != key}


def build_graph(catalogue) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    by_slot: dict[str, list[str]] = {}
    for card in catalogue:
        node = card_node(card.key)
        g.add_node(node, kind="card", key=card.key, name=card.name, type=card.type, mechanic=card.mechanic)
        impl = card.impl
        if card.type in (RULE, "meta_rule") and impl.slot:
            slot = f"slot:{impl.slot}"
            g.add_node(slot, kind="slot", name=impl.slot)
            g.add_edge(node, slot, key="sets")
            by_slot.setdefault(impl.slot, []).append(card.key)
        for quantity in impl.modifies:
            concept = f"concept:{quantity}"
            g.add_node(concept, kind="concept", name=quantity)
            g.add_edge(node, concept, key="modifies")
        for other in impl.coexists:
            concept = f"concept:{other}"
            g.add_node(concept, kind="concept", name=other)
            g.add_edge(node, concept, key="coexists")
        for alias in card.aliases:
            a = f"alias:{alias}"
            g.add_node(a, kind="alias", name=alias)
            g.add_edge(a, node, key="alias_of")
    for slot, keys in by_slot.items():
        for a in keys:
            for b in keys:
                if a != b:
                    g.add_edge(card_node(a), card_node(b), key="replaces", slot=slot)
    return g


@functools.lru_cache(maxsize=4)
def _cached(catalogue_id: int, catalogue) -> InteractionGraph:
    return InteractionGraph(build_graph(catalogue))


def graph_for(catalogue) -> InteractionGraph:
    return _cached(id(catalogue), catalogue)
