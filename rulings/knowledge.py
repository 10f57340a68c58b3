"""The full knowledge graph: the engine's interaction graph of cards, slots and
concepts (`adjudicator.interactions.build_graph`), plus every ruling of the corpus and
every scenario of the library, linked to the cards they involve. `fluxx-judge graph`,
the card pages and the app's Cards screen ask it how two cards meet.
"""

from __future__ import annotations

import functools
import os

import networkx as nx

from adjudicator.interactions import add_rulings, add_scenarios, build_graph, involved_cards, validate


def library_path() -> str:
    """The folder of the built-in scenario library."""
    from scenarios import library_path as path

    return str(path())


def full_graph(catalogue=None) -> nx.MultiDiGraph:
    """The core graph plus the rulings corpus and the scenario library, validated
    (built once per catalogue; treat it as read-only)."""
    from adjudicator.catalogue import default_catalogue

    catalogue = catalogue or default_catalogue()
    return _full_cached(id(catalogue), catalogue)


@functools.lru_cache(maxsize=4)
def _full_cached(catalogue_id: int, catalogue) -> nx.MultiDiGraph:
    from rulings.corpus import load_corpus

    g = build_graph(catalogue).copy()
    records = list(load_corpus())
    g.graph["unresolved_cards"] = ",".join(add_rulings(g, catalogue, records))
    add_scenarios(g, library_scenarios(catalogue))
    validate(g, {r.id for r in records})
    return g


def library_scenarios(catalogue) -> list[tuple[str, list[str], list[str], str]]:
    """(id, cited rulings, card keys involved, title) for each library scenario."""
    from adjudicator.strictyaml import load_plain

    out = []
    for root, _, names in os.walk(library_path()):
        for n in sorted(names):
            if n.endswith((".yaml", ".yml")):
                try:
                    with open(os.path.join(root, n), encoding="utf-8") as fh:
                        data = load_plain(fh.read(), n)
                    out.append((str(data["id"]), [str(c) for c in data.get("cites", [])],
                                involved_cards(data, catalogue), str(data.get("title", ""))))
                except Exception:  # a broken file is reported by `check`, not here
                    continue
    return out
