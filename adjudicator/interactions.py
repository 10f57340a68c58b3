"""The rule-interaction graph: one networkx MultiDiGraph of how cards meet.

Nodes: cards (`card:KEY`), rule slots (`slot:draw`, `slot:play`, `slot:hand_limit`,
`slot:keeper_limit`, `slot:agenda`), concepts (`concept:turn_end`,
`concept:temporary_hand`, `concept:free_action`, `concept:play_count`, card types as
`concept:type:keeper`...), aliases (`alias:NAME`), rulings (`ruling:ID`) and scenarios
(`scenario:ID`, linked to the rulings it demonstrates and the cards it involves).
Two cards meet when a ruling names both, when a library scenario involves both,
or through a path of slots and concepts. Every edge's key is its relation, from `RELATIONS`; an edge carries
the id of the ruling that decides it in its `ruling` attribute ("" when none).

The core graph (cards, slots, concepts, aliases) is built from the catalogue and the
mechanics' declared metadata. What the engine asks of it (which rules a new rule
displaces, which are the same rule, what a rule governs) is worked out from the same
metadata without networkx (`RuleFacts`, `InteractionGraph`), so a replay or a check
never imports it; the graph's `sets` and `replaces` edges come from those facts. The full graph adds the rulings corpus and the scenario library, for the
`fluxx-judge graph` queries and the app.
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # networkx is imported where a graph is built or walked, not on import
    import networkx as nx

from adjudicator.errors import CatalogueError
from adjudicator.mechanics.base import META_RULE, RULE, SLOTS

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.catalogue import Catalogue

RELATIONS = {
    "sets": "governs",                      # rule -> slot
    "replaces": "replaces",                 # rule -> rule sharing a slot (derived)
    "alias_of": "is another name for",      # alias -> card
    "cancels": "can cancel",                # surprise -> concept:type:X / concept:free_action
    "overrides": "overrides",               # turn-ending card -> slot:play, concept:temporary_hand
    "modifies": "changes",                  # bonus -> concept:play_count / draw_count / numerals
    "coexists": "does not contradict",      # rule -> slot or concept it could seem to clash with
    "grants": "grants",                     # rule or keeper -> concept:free_action
    "is_a": "is a",                         # card -> concept:type:TYPE
    "cites": "decides about",               # ruling -> card / slot / concept
    "demonstrates": "demonstrates",         # scenario -> ruling
    "involves": "involves",                 # scenario -> card its events name or its rules in force
}
# topics of the rulings corpus that name a slot or concept
TOPIC_NODES = {
    "draw-rule": "slot:draw", "play-rule": "slot:play", "hand-limit": "slot:hand_limit",
    "keeper-limit": "slot:keeper_limit", "double-agenda": "slot:agenda", "inflation": "slot:numerals", "turn-end": "concept:turn_end",
    "temporary-hand": "concept:temporary_hand", "free-action": "concept:free_action",
    "surprise": "concept:response_window", "play-all": "slot:play", "bonus": "concept:play_count",
}
CONCEPTS = {
    "turn_end": "the end of a turn", "temporary_hand": "a temporary hand", "free_action": "a free action",
    "response_window": "the moment a Surprise may answer", "play_count": "the number of plays",
    "draw_count": "the number of draws", "numerals": "printed numbers", "creepers": "Creepers",
}
SLOT_WORDS = {"draw": "the Draw rule", "play": "the Play rule", "hand_limit": "the Hand Limit",
              "keeper_limit": "the Keeper Limit", "agenda": "the number of Goals",
              "numerals": "how printed numbers read"}


# the ruling that decides that two rules of one slot replace each other, where a
# ruling more particular than the general one exists
SLOT_RULINGS = {"agenda": "double-triple-agenda-exclusive", "numerals": "numeral-rules-contradict"}


def card_node(key: str) -> str:
    return f"card:{key}"


def _label(g: nx.MultiDiGraph, node: str) -> str:
    data = g.nodes[node]
    kind = data.get("kind")
    if kind == "slot":
        return SLOT_WORDS.get(data["name"], data["name"])
    if kind == "concept":
        name = data["name"]
        if name.startswith("type:"):
            return f"{name[5:].replace('_', ' ')} cards"
        return CONCEPTS.get(name, name.replace("_", " "))
    if kind == "ruling":
        return f"ruling {data['name']}"
    return data.get("name", node)


def _add(g: nx.MultiDiGraph, u: str, v: str, relation: str, ruling: str = "") -> None:
    if relation not in RELATIONS:
        raise CatalogueError(f"unknown relation {relation!r} between {u} and {v}")
    if not g.has_edge(u, v, key=relation):
        g.add_edge(u, v, key=relation, ruling=ruling or "")


def _concept(g: nx.MultiDiGraph, node: str) -> str:
    if node not in g:
        kind, _, name = node.partition(":")
        if kind == "slot":
            if name not in SLOTS:
                raise CatalogueError(f"unknown slot {name!r}")
            g.add_node(node, kind="slot", name=name)
        else:
            g.add_node(node, kind="concept", name=name)
    return node


@dataclass(frozen=True)
class RuleFacts:
    """What the rules core asks of the graph, worked out from the catalogue and the
    mechanics' metadata alone (no networkx): the slots each card's rule governs and,
    for each rule, the rules it replaces (one with the same job: a copy, an alias, an
    analogue; one in the same slot) with the ruling that says so. `build_graph` draws
    its `sets` and `replaces` edges from these same facts."""

    slots: dict[str, frozenset[str]]
    replaces: dict[str, dict[str, str]]


def rule_facts(catalogue: Catalogue) -> RuleFacts:
    """The `RuleFacts` of a catalogue. Raises CatalogueError naming the card when a
    rule is neither in a slot nor explicitly coexisting with one."""
    slots: dict[str, frozenset[str]] = {}
    by_slot: dict[str, list[str]] = {}
    by_job: dict[str, list[str]] = {}
    for card in catalogue:
        impl = card.impl
        if card.type == RULE:
            by_job.setdefault(impl.job(card), []).append(card.key)
        if card.type in (RULE, META_RULE):
            if impl.slot:
                slots[card.key] = frozenset({impl.slot})
                by_slot.setdefault(impl.slot, []).append(card.key)
            elif not impl.coexists:
                raise CatalogueError(f"card {card.name!r}: the New Rule mechanic {card.mechanic!r} declares neither a "
                                     "slot it governs nor what it coexists with")
    replaces: dict[str, dict[str, str]] = {}
    # the first word on a pair stands (as the graph keeps the first edge of a relation):
    # a rule with the job of one in play replaces it as the same rule
    for keys in by_job.values():
        for a, b in itertools.product(keys, repeat=2):
            replaces.setdefault(a, {}).setdefault(b, "same-rule-replaces")
    for slot, keys in by_slot.items():
        ruling = SLOT_RULINGS.get(slot, "rule-new-rule-replaces-contradicting")
        for a, b in itertools.permutations(keys, 2):
            replaces.setdefault(a, {}).setdefault(b, ruling)
    return RuleFacts(slots, replaces)


def build_graph(catalogue: Catalogue) -> nx.MultiDiGraph:
    """The core graph: cards, slots, concepts and aliases, from the catalogue and the
    mechanics' metadata (the rules' slots and replacements from `rule_facts`). Raises
    CatalogueError naming the card when a rule is neither in a slot nor explicitly
    coexisting with one."""
    import networkx as nx

    facts = rule_facts(catalogue)
    g = nx.MultiDiGraph()
    for slot in SLOTS:
        _concept(g, f"slot:{slot}")
    for name in CONCEPTS:
        _concept(g, f"concept:{name}")
    for card in catalogue:
        node = card_node(card.key)
        g.add_node(node, kind="card", key=card.key, name=card.name, type=card.type, mechanic=card.mechanic,
                   editions=",".join(card.editions))
        _add(g, node, _concept(g, f"concept:type:{card.type}"), "is_a")
        impl = card.impl
        for slot in sorted(facts.slots.get(card.key, ())):
            _add(g, node, f"slot:{slot}", "sets")
        for target, ruling in impl.coexists.items():
            _add(g, node, _concept(g, target), "coexists", ruling)
        for target, ruling in impl.modifies.items():
            _add(g, node, _concept(g, target), "modifies", ruling)
        for target, ruling in impl.overrides.items():
            _add(g, node, _concept(g, target), "overrides", ruling)
        if impl.ends_turn:
            _add(g, node, "concept:turn_end", "grants", "turn-ending-cards-list")
        if impl.free_action:
            _add(g, node, "concept:free_action", "grants", "rule-free-actions-anytime-not-plays")
        for target, ruling in impl.cancels.items():
            _add(g, node, _concept(g, target), "cancels", ruling)
        for alias in card.aliases:
            a = f"alias:{alias}"
            g.add_node(a, kind="alias", name=alias)
            _add(g, a, node, "alias_of", "mystery-play-analogues" if card.mechanic == "mystery_play" else "")
    for a, replaced in facts.replaces.items():
        for b, ruling in replaced.items():
            _add(g, card_node(a), card_node(b), "replaces", ruling)
    _add(g, "concept:turn_end", "slot:play", "overrides", "play-all-vs-turn-end")
    _add(g, "concept:turn_end", "concept:temporary_hand", "overrides", "turn-end-inside-d3p2")
    return g


def add_rulings(g: nx.MultiDiGraph, catalogue: Catalogue, rulings: Iterable[Any]) -> list[str]:
    """Add ruling nodes and their `cites` edges. Returns card names that a ruling names
    but the catalogue does not (yet) hold; those are left out, never guessed."""
    unresolved: list[str] = []
    for r in rulings:
        rn = f"ruling:{r.id}"
        g.add_node(rn, kind="ruling", name=r.id, question=r.question, ruling_kind=r.kind)
        for name in r.cards:
            card = catalogue.find(name)
            if card is None:
                unresolved.append(name)
                continue
            _add(g, rn, card_node(card.key), "cites", r.id)
        for topic in r.topics:
            if topic in TOPIC_NODES:
                _add(g, rn, TOPIC_NODES[topic], "cites", r.id)
    return sorted(set(unresolved))


def add_scenarios(g: nx.MultiDiGraph, scenarios: Iterable[tuple]) -> None:
    """Scenario nodes from (id, cited ruling ids[, card keys involved[, title]])."""
    for sid, cites, *more in scenarios:
        sn = f"scenario:{sid}"
        g.add_node(sn, kind="scenario", name=sid, title=str(more[1]) if len(more) > 1 else "")
        for rid in cites:
            if f"ruling:{rid}" in g:
                _add(g, sn, f"ruling:{rid}", "demonstrates", rid)
        for key in (more[0] if more else ()):
            if card_node(key) in g:
                _add(g, sn, card_node(key), "involves")


def validate(g: nx.MultiDiGraph, known_rulings: set[str] | None = None) -> None:
    """Fail fast on a broken graph, naming the card: every endpoint exists, every
    ruling id on an edge resolves, relations come from the vocabulary."""
    for u, v, key, data in g.edges(keys=True, data=True):
        for end in (u, v):
            if "kind" not in g.nodes[end]:
                raise CatalogueError(f"edge {u} -{key}-> {v}: endpoint {end} is not a known node")
        if key not in RELATIONS:
            raise CatalogueError(f"edge {u} -{key}-> {v}: {key!r} is not a declared relation")
        ruling = data.get("ruling", "")
        if ruling and known_rulings is not None and ruling not in known_rulings:
            who = g.nodes[u].get("name", u)
            raise CatalogueError(f"{who}: the ruling {ruling!r} on its {key!r} edge does not exist")


class InteractionGraph:
    """The engine's view of the graph: which rules displace which. Built from the
    catalogue's `RuleFacts`, so the rules core never imports networkx."""

    def __init__(self, facts: RuleFacts):
        self._slots = facts.slots
        self._replaces = facts.replaces

    def slots_of(self, key: str) -> frozenset[str]:
        return self._slots.get(key, frozenset())

    def displaced_by(self, key: str, in_play: Iterable[str]) -> set[str]:
        """The rules in play that a new rule `key` replaces (they share a slot)."""
        replaced = self._replaces.get(key, {})
        return {k for k in in_play if k in replaced}

    def same_job(self, a: str, b: str) -> bool:
        """Whether two New Rules are the same rule (a copy, an alias, an analogue)."""
        return self._replaces.get(a, {}).get(b) == "same-rule-replaces"

    def replace_ruling(self, new: str, old: str) -> str:
        """The ruling that decides that `new` replaces `old`."""
        return self._replaces.get(new, {}).get(old, "")


@functools.lru_cache(maxsize=4)
def _cached(catalogue_id: int, catalogue: Catalogue) -> InteractionGraph:
    return InteractionGraph(rule_facts(catalogue))


def graph_for(catalogue: Catalogue) -> InteractionGraph:
    """The engine's view of the core graph for a catalogue (worked out once)."""
    return _cached(id(catalogue), catalogue)


def involved_cards(data: dict, catalogue: Catalogue) -> list[str]:
    """The cards a scenario (as plain data) involves: those its events name (played,
    used, answered, chosen), in its variations too, and the rules in force at its start."""
    names: list[Any] = []
    given = data.get("table")
    table = given if isinstance(given, dict) else {}
    for zone in ("rules", "meta_rules"):
        names += table.get(zone) or []

    def walk_events(events: Any) -> None:
        for ev in events if isinstance(events, list) else []:
            if not isinstance(ev, dict):
                continue
            for key in ("play", "surprise", "use", "random", "against", "choose"):
                value = ev.get(key)
                names.extend(value if isinstance(value, list) else [value])

    walk_events(data.get("events"))
    stack = list(data.get("variations") or [])
    while stack:
        var = stack.pop()
        if isinstance(var, dict):
            walk_events(var.get("events"))
            stack += list(var.get("variations") or [])
    keys: list[str] = []
    for name in names:
        if isinstance(name, list):
            names.extend(name)
            continue
        card = catalogue.find(name) if isinstance(name, str) else None
        if card is not None and card.key not in keys:
            keys.append(card.key)
    return keys


# ---------------------------------------------------------------------------
# queries
# ---------------------------------------------------------------------------
@dataclass
class PathExplanation:
    sentence: str
    rulings: list[str]
    nodes: list[str] = field(default_factory=list)


def _edge_phrase(g: nx.MultiDiGraph, u: str, v: str, key: str, forward: bool) -> str:
    a, b = (u, v) if forward else (v, u)
    return f"{_label(g, a)} {RELATIONS[key]} {_label(g, b)}"


def explain_pair(catalogue: Catalogue, a: str, b: str, max_len: int = 3, *, graph: nx.MultiDiGraph,
                 limit: int = 12) -> list[PathExplanation]:
    """Every typed path (up to `max_len` edges) in `graph` between two cards, one
    sentence per path, with the rulings on its edges; plus the rulings that name both
    cards and the scenarios that involve both (when the graph holds them: see
    `rulings.knowledge.full_graph`)."""
    g = graph
    ka, kb = catalogue.resolve(a).key, catalogue.resolve(b).key
    na, nb = card_node(ka), card_node(kb)
    out: list[PathExplanation] = []
    # rulings that decide about both cards
    both = sorted(set(p for p, _, k in g.in_edges(na, keys=True) if k == "cites")
                  & set(p for p, _, k in g.in_edges(nb, keys=True) if k == "cites"))
    for rn in both:
        rid = g.nodes[rn]["name"]
        out.append(PathExplanation(f"Ruling {rid} decides how {_label(g, na)} and {_label(g, nb)} meet: "
                                   f"{g.nodes[rn].get('question', '')}", [rid], [na, rn, nb]))
    # library scenarios that involve both cards: the engine cites their rulings for the pair
    shared = sorted(set(p for p, _, k in g.in_edges(na, keys=True) if k == "involves")
                    & set(p for p, _, k in g.in_edges(nb, keys=True) if k == "involves"))
    for sn in shared[:6]:
        rids = sorted(g.nodes[r]["name"] for _, r, k in g.out_edges(sn, keys=True) if k == "demonstrates")
        title = g.nodes[sn].get("title", "")
        out.append(PathExplanation(f"The library scenario {g.nodes[sn]['name']} involves both {_label(g, na)} and "
                                   f"{_label(g, nb)}" + (f": {title}" if title else "."), rids, [na, sn, nb]))
    # a Surprise meets a card through the kind of card it cancels
    for x, y in ((na, nb), (nb, na)):
        kinds = {n for _, n, k in g.out_edges(y, keys=True) if k == "is_a"}
        for _, target, key, data in g.out_edges(x, keys=True, data=True):
            if key == "cancels" and target in kinds:
                rulings = [data["ruling"]] if data.get("ruling") else []
                out.append(PathExplanation(f"{_label(g, x)} can cancel {_label(g, target)} just played, and "
                                           f"{_label(g, y)} is one.", rulings, [x, target, y]))
    # structural paths through slots and concepts only: never through other cards,
    # rulings, scenarios or the card-type hubs
    skip = {n for n, d in g.nodes(data=True) if d.get("kind") in ("ruling", "scenario", "alias")
            or str(d.get("name", "")).startswith("type:")
            or (d.get("kind") == "card" and n not in (na, nb))}
    import networkx as nx

    view = nx.MultiGraph()
    for u, v, key, data in g.edges(keys=True, data=True):
        if u in skip or v in skip:
            continue
        view.add_edge(u, v, key=(key, u, v), ruling=data.get("ruling", ""))
    if na in view and nb in view:
        seen: set[tuple] = set()
        paths = sorted(nx.all_simple_edge_paths(view, na, nb, cutoff=max_len), key=len)
        for path in paths:
            signature = tuple((k[0], k[1], k[2]) for _, _, k in path)
            if signature in seen:
                continue
            seen.add(signature)
            phrases, rulings, nodes = [], [], [na]
            here = na
            for u, v, (key, src, dst) in path:
                there = v if u == here else u
                phrases.append(_edge_phrase(g, src, dst, key, True))
                r = view.get_edge_data(u, v)[(key, src, dst)]["ruling"]
                if r and r not in rulings:
                    rulings.append(r)
                nodes.append(there)
                here = there
            sentence = "; ".join(phrases)
            out.append(PathExplanation(sentence[0].upper() + sentence[1:] + ".", rulings, nodes))
            if len(out) >= limit:
                break
    return out


def neighbors(catalogue: Catalogue, card: str, relation: str | None = None, *, graph: nx.MultiDiGraph) -> list[dict]:
    """The edges of `graph` touching a card: relation, direction, the other end, the ruling."""
    g = graph
    node = card_node(catalogue.resolve(card).key)
    rows = []
    for u, v, key, data in itertools.chain(g.out_edges(node, keys=True, data=True), g.in_edges(node, keys=True, data=True)):
        if relation and key != relation:
            continue
        other = v if u == node else u
        rows.append({"relation": key, "direction": "out" if u == node else "in", "node": other,
                     "name": _label(g, other), "kind": g.nodes[other].get("kind"), "ruling": data.get("ruling", "")})
    rows.sort(key=lambda r: (r["relation"], r["direction"], r["name"]))
    return rows


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------
def _plain(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes are all strings (GraphML rejects lists and None)."""
    import networkx as nx

    h = nx.MultiDiGraph()
    h.graph.update({k: str(v) for k, v in g.graph.items()})
    for n, d in g.nodes(data=True):
        h.add_node(n, **{k: ("" if v is None else ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v))
                         for k, v in d.items()})
    for u, v, k, d in g.edges(keys=True, data=True):
        h.add_edge(u, v, key=k, relation=k, **{a: ("" if b is None else str(b)) for a, b in d.items()})
    return h


def export(g: nx.MultiDiGraph, fmt: str) -> str:
    import networkx as nx

    if fmt == "graphml":
        return "\n".join(nx.generate_graphml(_plain(g), named_key_ids=True)) + "\n"
    if fmt == "json":
        return json.dumps(nx.node_link_data(_plain(g), edges="edges"), indent=1) + "\n"
    if fmt == "dot":
        lines = ["digraph fluxx {", "  rankdir=LR;", '  node [fontname="Helvetica"];']

        def q(s: str) -> str:
            return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'

        shapes = {"card": "box", "slot": "ellipse", "concept": "diamond", "ruling": "note", "scenario": "folder",
                  "alias": "plaintext"}
        for n, d in g.nodes(data=True):
            lines.append(f"  {q(n)} [label={q(d.get('name', n))}, shape={shapes.get(d.get('kind'), 'ellipse')}];")
        for u, v, k, d in g.edges(keys=True, data=True):
            label = k + (f" ({d['ruling']})" if d.get("ruling") else "")
            lines.append(f"  {q(u)} -> {q(v)} [label={q(label)}];")
        lines.append("}")
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown export format {fmt!r} (graphml, json, dot)")
