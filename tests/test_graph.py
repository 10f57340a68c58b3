"""The rule-interaction graph: replacement and aliases as the engine uses them,
validation, export round trips, and the seeds' interaction questions."""

import networkx as nx
import pytest

from adjudicator.catalogue import default_catalogue, load_catalogue
from adjudicator.errors import CatalogueError
from adjudicator.interactions import (
    RELATIONS, build_graph, explain_pair, export, graph_for, neighbors, validate,
)
from rulings.knowledge import full_graph


@pytest.fixture(scope="module")
def cat():
    return default_catalogue()


@pytest.fixture(scope="module")
def full(cat):
    return full_graph(cat)


def test_replacement_comes_from_shared_slots(cat):
    g = graph_for(cat)
    assert g.displaced_by("Draw 2", ["Draw 3", "Play 2", "Hand Limit 1"]) == {"Draw 3"}
    assert g.displaced_by("Play All", ["Play 4", "Get On With It!", "Swap Plays for Draws"]) == {"Play 4"}
    assert g.displaced_by("Get On With It!", ["Play All"]) == set()
    assert g.displaced_by("Party Bonus", ["Play All", "Draw 5"]) == set()


def test_aliases_are_edges(cat, full):
    assert full.has_edge("alias:Wormhole", "card:Mystery Play", key="alias_of")
    assert full["alias:Wormhole"]["card:Mystery Play"]["alias_of"]["ruling"] == "mystery-play-analogues"


def test_every_relation_is_declared_and_every_rule_placed(full):
    assert {k for _, _, k in full.edges(keys=True)} <= set(RELATIONS)
    for n, d in full.nodes(data=True):
        if d.get("kind") == "card" and d["type"] == "rule":
            rels = {k for _, _, k in full.out_edges(n, keys=True)}
            assert rels & {"sets", "coexists"}, n


def test_graphml_round_trip(full, tmp_path):
    path = tmp_path / "g.graphml"
    path.write_text(export(full, "graphml"))
    back = nx.read_graphml(path, force_multigraph=True)
    assert set(back.nodes) == set(full.nodes)
    typed = lambda g: sorted((u, v, d.get("relation", k)) for u, v, k, d in g.edges(keys=True, data=True))
    assert typed(back) == sorted((u, v, k) for u, v, k in full.edges(keys=True))


def test_json_and_dot_exports(full):
    import json

    data = json.loads(export(full, "json"))
    assert len(data["nodes"]) == full.number_of_nodes() and len(data["edges"]) == full.number_of_edges()
    dot = export(full, "dot")
    assert dot.startswith("digraph fluxx {") and '"card:Play All" -> "slot:play"' in dot


def _cat(text):
    return load_catalogue([("c.yaml", text)])


def test_validation_rule_without_slot_or_coexists():
    from adjudicator.mechanics.base import Mechanic, register, REGISTRY

    class Loner(Mechanic):
        name = "test_loner_rule"
        card_types = frozenset({"rule"})
    if "test_loner_rule" not in REGISTRY:
        register(Loner)
    cat = _cat("- {name: Lonely Rule, type: rule, editions: [base], mechanic: test_loner_rule, effect: x}")
    with pytest.raises(CatalogueError, match="'Lonely Rule'"):
        build_graph(cat)


def test_validation_unknown_ruling_names_the_card():
    g = build_graph(_cat("- {name: Draw 2, type: rule, editions: [base], mechanic: draw_rule, params: {draw: 2}, effect: x}"))
    g.add_edge("card:Draw 2", "slot:draw", key="coexists", ruling="no-such-ruling")
    with pytest.raises(CatalogueError, match="Draw 2.*no-such-ruling"):
        known = {d.get("ruling") for _, _, d in build_graph(default_catalogue()).edges(data=True)}
        validate(g, known_rulings=known)


def test_validation_unknown_relation_and_missing_endpoint():
    g = build_graph(_cat("- {name: Milk, type: keeper, editions: [base], effect: x}"))
    bad = g.copy()
    bad.add_edge("card:Milk", "slot:draw", key="likes", ruling="")
    with pytest.raises(CatalogueError, match="'likes' is not a declared relation"):
        validate(bad)
    bad = g.copy()
    bad.add_edge("card:Milk", "card:Nowhere", key="replaces", ruling="")
    with pytest.raises(CatalogueError, match="card:Nowhere is not a known node"):
        validate(bad)


@pytest.mark.parametrize("a,b,ruling", [
    ("Get On With It", "Play All", "gowi-swap-dont-contradict-play-all"),
    ("Swap Plays for Draws", "Play All", "gowi-swap-dont-contradict-play-all"),
    ("Swap Plays for Draws", "Play All But 1", "swap-plays-vs-play-all"),
    ("Party Bonus", "Play All", "play-all-plus-bonus"),
    ("Rich Bonus", "Play All", "play-all-plus-bonus"),
    ("Get On With It", "Play All", "play-all-vs-turn-end"),
    ("Draw 2", "Draw 3", "rule-new-rule-replaces-contradicting"),
    ("Get On With It", "Draw 3, Play 2 of Them", "gowi-inside-temp-hand"),
    ("Double Agenda", "Triple Agenda", "double-triple-agenda-exclusive"),
    ("Time Portal", "Play All", "play-all-vs-turn-end"),
    ("Play All But 1", "Rich Bonus", "play-all-plus-bonus"),
])
def test_interaction_questions_answered_with_rulings(cat, full, a, b, ruling):
    paths = explain_pair(cat, a, b, graph=full)
    assert any(ruling in p.rulings for p in paths), [p.sentence for p in paths]


def test_neighbors_filter(cat, full):
    rows = neighbors(cat, "Double Agenda", "sets", graph=full)
    assert [r["node"] for r in rows] == ["slot:agenda"]


def test_graph_cli(capsys):
    from fluxx_judge.cli import main

    assert main(["graph", "explain", "get on with it", "play all"]) == 0
    out = capsys.readouterr().out
    assert "play-all-vs-turn-end" in out and "gowi-swap-dont-contradict-play-all" in out
    assert main(["graph", "neighbors", "Nope Card"]) == 2


@pytest.mark.parametrize("surprise,card,ruling", [
    ("Canceled Plans", "Toast", "surprise-can-stop-win"),
    ("That's Mine", "Milk", "surprise-can-stop-win"),
    ("Veto!", "Play 3", "vetoed-rule-old-stays"),
    ("Belay That!", "Trade Hands", "stop-that-vs-free-action"),
])
def test_which_surprise_stops_which_card(cat, full, surprise, card, ruling):
    paths = explain_pair(cat, surprise, card, graph=full)
    assert any("can cancel" in p.sentence and ruling in p.rulings for p in paths), [p.sentence for p in paths]


def test_cancels_edges_come_from_the_surprise_mechanics(full):
    assert full.has_edge("card:Stop That!", "concept:type:action", key="cancels")
    assert not full.has_edge("card:Stop That!", "concept:type:keeper", key="cancels")
    assert full.has_edge("alias:Belay That!", "card:Stop That!", key="alias_of")


def test_double_and_triple_agenda_replace_each_other(cat):
    g = graph_for(cat)
    assert g.displaced_by("Triple Agenda", ["Double Agenda"]) == {"Double Agenda"}
    assert g.replace_ruling("Triple Agenda", "Double Agenda") == "double-triple-agenda-exclusive"


def test_the_engines_rule_facts_are_the_graphs_edges():
    """What the engine asks without networkx (`rule_facts`) is what the graph says:
    every card's `sets` edges are its slots, every `replaces` edge a replacement with
    the same ruling, and nothing else."""
    from adjudicator.catalogue import default_catalogue
    from adjudicator.interactions import build_graph, card_node, rule_facts

    cat = default_catalogue()
    g = build_graph(cat)
    facts = rule_facts(cat)
    slots, replaces = {}, {}
    for card in cat:
        out = list(g.out_edges(card_node(card.key), keys=True, data=True))
        got = frozenset(v.split(":", 1)[1] for _, v, k, _ in out if k == "sets")
        if got:
            slots[card.key] = got
        rep = {g.nodes[v]["key"]: d["ruling"] for _, v, k, d in out if k == "replaces"}
        if rep:
            replaces[card.key] = rep
    assert slots == facts.slots
    assert replaces == facts.replaces
    assert any(r == "same-rule-replaces" for rep in replaces.values() for r in rep.values())
