"""`fluxx-judge graph ...`: ask the interaction graph how two cards meet, list a
card's neighbours, or export the whole graph."""

from __future__ import annotations

import json
import sys


def add_commands(sub) -> None:
    p = sub.add_parser("graph", help="query or export the rule-interaction graph")
    gsub = p.add_subparsers(dest="graph_command", metavar="QUERY", required=True)
    q = gsub.add_parser("explain", help="every typed path between two cards, with the rulings")
    q.add_argument("card_a")
    q.add_argument("card_b")
    q.add_argument("--max-len", type=int, default=3)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_explain)
    q = gsub.add_parser("neighbors", help="the edges touching one card")
    q.add_argument("card")
    q.add_argument("--relation")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_neighbors)
    q = gsub.add_parser("export", help="the whole graph as GraphML, node-link JSON or DOT")
    q.add_argument("--format", choices=["graphml", "json", "dot"], default="graphml")
    q.add_argument("-o", "--output", help="file to write (default: standard output)")
    q.set_defaults(func=cmd_export)


def _card(cat, name: str):
    from adjudicator.catalogue import UnknownName

    try:
        return cat.resolve(name)
    except UnknownName as exc:
        print(f"fluxx-judge: {exc}", file=sys.stderr)
        return None


def cmd_explain(args) -> int:
    from adjudicator.catalogue import default_catalogue
    from adjudicator.interactions import explain_pair
    from rulings.knowledge import full_graph

    cat = default_catalogue()
    a, b = _card(cat, args.card_a), _card(cat, args.card_b)
    if a is None or b is None:
        return 2
    paths = explain_pair(cat, a.name, b.name, max_len=args.max_len, graph=full_graph(cat))
    if args.json:
        print(json.dumps([{"sentence": p.sentence, "rulings": p.rulings, "nodes": p.nodes} for p in paths], indent=2))
        return 0
    if not paths:
        print(f"The graph knows no connection between {a.name} and {b.name} within {args.max_len} steps.")
        return 0
    print(f"How {a.name} meets {b.name}:")
    for p in paths:
        print(f"- {p.sentence}" + (f"  [{', '.join(p.rulings)}]" if p.rulings else ""))
    return 0


def cmd_neighbors(args) -> int:
    from adjudicator.catalogue import default_catalogue
    from adjudicator.interactions import RELATIONS, neighbors
    from rulings.knowledge import full_graph

    cat = default_catalogue()
    card = _card(cat, args.card)
    if card is None:
        return 2
    if args.relation and args.relation not in RELATIONS:
        print(f"fluxx-judge: unknown relation {args.relation!r}; one of {', '.join(RELATIONS)}", file=sys.stderr)
        return 2
    rows = neighbors(cat, card.name, args.relation, graph=full_graph(cat))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for r in rows:
        arrow = "->" if r["direction"] == "out" else "<-"
        print(f"{r['relation']:<12} {arrow} {r['name']}" + (f"  [{r['ruling']}]" if r["ruling"] else ""))
    return 0


def cmd_export(args) -> int:
    from adjudicator.interactions import export
    from rulings.knowledge import full_graph

    text = export(full_graph(), args.format)
    if args.output:
        from adjudicator.atomic_io import write_atomic

        written = write_atomic(args.output, text)
        print(f"wrote {written}")
    else:
        sys.stdout.write(text)
    return 0
