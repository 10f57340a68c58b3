"""The rulings subcommands of `fluxx-judge`: search, ruling, rulings, card and ingest.

`add_commands(subparsers)` registers them on the engine CLI's argparse subparsers; each
sets `func(args) -> int` (the exit code) and prints to stdout. None of them imports the
TUI. Exit codes: 0 success, 1 nothing usable (an ingest that read nothing, a failed
replay), 2 bad input (an unknown ruling id, with a did-you-mean).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def _json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _wrap(text: str, indent: str = "    ", width: int = 88) -> str:
    return textwrap.fill(" ".join(text.split()), width=width, initial_indent=indent,
                         subsequent_indent=indent)


def _guard(func):
    """Report the package's own errors as one line and exit code 1, never a traceback."""

    def run(args: argparse.Namespace) -> int:
        from rulings.corpus import CorpusError

        try:
            return func(args)
        except CorpusError as exc:
            _out(f"error: {exc}")
            return EXIT_FAIL
        except BrokenPipeError:  # `fluxx-judge rulings | head`
            return EXIT_OK
        except OSError as exc:  # e.g. a data directory that cannot be written
            _out(f"error: {exc}")
            return EXIT_FAIL

    run.__name__ = func.__name__
    run.__doc__ = func.__doc__
    return run


# --------------------------------------------------------------------------- search

@_guard
def cmd_search(args: argparse.Namespace) -> int:
    from rulings import search

    query = " ".join(args.query)
    filters = {k: v for k, v in (("card", args.card), ("topic", args.topic),
                                 ("edition", args.edition), ("kind", args.kind)) if v}
    try:
        result = search.search(query, limit=args.limit, filters=filters)
    except search.QueryError as exc:
        if args.json:
            _json({"query": query, "error": str(exc)})
        else:
            _out(f"error: {exc}")
        return EXIT_FAIL
    if args.json:
        _json(result.to_json())
        return EXIT_OK
    for warning in result.warnings:
        _out(f"note: {warning}")
    if result.suggestion:
        _out(f"did you mean: {result.suggestion}")
    if not result.hits:
        _out("no rulings match" + (f" {query!r}" if query.strip() else ""))
        return EXIT_OK
    for n, hit in enumerate(result.hits, 1):
        from rulings.corpus import BASIS_WORDS

        tag = " [imported]" if hit.imported else ""
        basis = BASIS_WORDS.get(hit.basis, hit.basis)
        _out(f"{n:2}. {hit.id}  ({basis}; {hit.kind}, score {hit.score:.1f}){tag}")
        _out(_wrap(hit.title))
        if hit.highlight:
            _out(_wrap(hit.highlight, indent="      > "))
        if hit.cards:
            _out(f"      cards: {', '.join(hit.cards)}")
    return EXIT_OK


# --------------------------------------------------------------------------- ruling

def _replay(paths: list[str]) -> tuple[int, list[dict[str, Any]]]:
    try:
        from adjudicator.replay import replay_file
    except ImportError as exc:
        _out(f"cannot replay scenarios: the engine's replay is not available ({exc})")
        return EXIT_FAIL, []
    failures, rows = 0, []
    for path in paths:
        try:
            outcome = replay_file(path)
        except Exception as exc:  # the engine's own errors carry file/line details
            failures += 1
            rows.append({"path": path, "ok": False, "detail": f"{type(exc).__name__}: {exc}"})
            continue
        ok = outcome if isinstance(outcome, bool) else None
        for attr in ("ok", "passed", "success"):
            if ok is None and hasattr(outcome, attr):
                value = getattr(outcome, attr)
                ok = bool(value() if callable(value) else value)
        ok = True if ok is None else ok
        failures += not ok
        rows.append({"path": path, "ok": ok, "detail": _replay_detail(outcome, ok)})
    return (EXIT_OK if not failures else EXIT_FAIL), rows


def _replay_detail(outcome: Any, ok: bool) -> str:
    error = getattr(outcome, "error", None)
    if error:
        return str(error)
    problems = getattr(outcome, "failures", None)
    if problems:
        return "; ".join(str(p) for p in problems)
    return "passed" if ok else "failed"


@_guard
def cmd_ruling(args: argparse.Namespace) -> int:
    from rulings import corpus

    try:
        ruling = corpus.get(args.id)
    except corpus.UnknownRuling as exc:
        if args.json:
            _json({"error": str(exc), "suggestions": exc.suggestions})
        else:
            _out(f"error: {exc}")
        return EXIT_USAGE
    related = []
    for rid in ruling.related:
        try:
            related.append({"id": rid, "summary": corpus.one_line(rid)})
        except KeyError:
            related.append({"id": rid, "summary": "(missing)"})
    opened_as = args.id if args.id != ruling.id else None
    scenarios = corpus.scenarios_citing(ruling.id)
    replays: list[dict[str, Any]]
    code, replays = EXIT_OK, []
    if args.replay:
        if scenarios:
            code, replays = _replay([s.path for s in scenarios])
    if args.json:
        data = ruling.to_json()
        data.update(summary=ruling.one_line(), related=related, opened_as=opened_as,
                    scenarios=[s.to_json() for s in scenarios])
        if args.replay:
            data["replay"] = replays
        _json(data)
        return code
    from rulings.corpus import BASIS_WORDS

    if opened_as:
        _out(f"{opened_as} is an alias: this is the record for it, {ruling.id}")
    _out(f"{ruling.id}  ({BASIS_WORDS.get(ruling.basis, ruling.basis)}; {ruling.kind}"
         f"{', imported' if ruling.imported else ''})")
    _out("Q: " + textwrap.fill(ruling.title, 85, subsequent_indent="   "))
    answer = ruling.answer or "(no answer was printed for this question)"
    _out("A: " + textwrap.fill(answer, 85, subsequent_indent="   "))
    if ruling.applies_via:
        _out(textwrap.fill(f"applies via: {ruling.applies_via}", 88, subsequent_indent="    "))
    if ruling.stated_editions:
        _out(f"editions: {', '.join(ruling.stated_editions)}")
    if ruling.cards:
        _out(f"cards: {', '.join(ruling.cards)}")
    if ruling.topics:
        _out(f"topics: {', '.join(ruling.topics)}")
    if ruling.aliases:
        _out(f"also opens as: {', '.join(ruling.aliases)}")
    if ruling.sources:
        _out("sources:")
        for s in ruling.sources:
            _out(f"  - {s.cite()}")
            if s.page:
                _out(f"    page: {s.page}")
    if ruling.rests_on:
        _out("rests on:")
        for rid in ruling.rests_on:
            try:
                _out(f"  - {rid}: {corpus.one_line(rid)}")
            except KeyError:
                _out(f"  - {rid}: (missing)")
    if related:
        _out("related:")
        for r in related:
            _out(f"  - {r['id']}: {r['summary']}")
    if scenarios:
        _out("demonstrated by:")
        for ref in scenarios:
            _out(f"  - {ref.id}: {ref.title}")
    elif not ruling.imported:
        _out("demonstrated by: no scenario cites this ruling yet")
    if args.replay:
        if not scenarios:
            _out("nothing to replay")
        for row in replays:
            _out(f"replay {'ok  ' if row['ok'] else 'FAIL'} {row['path']}")
            if not row["ok"] or args.verbose:
                _out(_wrap(row["detail"], indent="       "))
    return code


# --------------------------------------------------------------------------- rulings

@_guard
def cmd_rulings(args: argparse.Namespace) -> int:
    from rulings import corpus

    items = list(corpus.load_corpus())
    if args.kind:
        items = [r for r in items if r.kind == args.kind]
    if args.by_edition:
        rows = edition_coverage(items)
        if args.json:
            _json(rows)
            return EXIT_OK
        width = max((len(r["edition"]) for r in rows), default=7)
        _out(f"{'edition':<{width}}  {'key':<19}  records  mechanical")
        for row in rows:
            _out(f"{row['edition']:<{width}}  {row['key']:<19}  {row['records']:>7}  {row['mechanical']:>10}")
        _out(f"{len(items)} rulings; a ruling counts once under each edition it names")
        return EXIT_OK
    if args.json:
        _json([{k: v for k, v in r.to_json().items() if k in
                ("id", "kind", "basis", "question", "answer", "cards", "topics", "editions", "sources",
                 "related", "rests_on", "aliases", "applies_via")}
               for r in items])
        return EXIT_OK
    width = max((len(r.id) for r in items), default=10)
    for r in items:
        title = r.title if len(r.title) <= 100 else r.title[:97] + "..."
        _out(f"{r.id:<{width}}  {r.kind:<10}  {title}")
    _out(f"{len(items)} rulings")
    return EXIT_OK


def edition_coverage(items: list) -> list[dict[str, Any]]:
    """Rulings per edition, grouped under the keys the `edition:` facet uses (a ruling's
    own `editions`, then its sources'), most first."""
    from rulings.index_store import edition_key

    try:
        from adjudicator.catalogue import EDITIONS
    except Exception:  # pragma: no cover - the engine mid-edit
        EDITIONS = {}
    rows: dict[str, dict[str, Any]] = {}
    for r in items:
        for key in dict.fromkeys(edition_key(e) for e in r.editions):
            name = next(e for e in r.editions if edition_key(e) == key)
            row = rows.setdefault(key, {"edition": EDITIONS.get(key, name) if key != "faq" else "Online FAQ",
                                        "key": key, "records": 0, "mechanical": 0})
            row["records"] += 1
            row["mechanical"] += r.kind == "mechanical"
    return sorted(rows.values(), key=lambda row: (-row["records"], row["key"]))


# --------------------------------------------------------------------------- card

@_guard
def cmd_card(args: argparse.Namespace) -> int:
    from rulings.card_page import UnknownCard, card_page

    name = " ".join(args.name)
    try:
        page = card_page(name)
    except UnknownCard as exc:
        if args.json:
            _json({"error": str(exc), "suggestions": exc.suggestions})
        else:
            _out(f"error: {exc}")
        return EXIT_USAGE
    if args.json:
        _json(page.to_json())
        return EXIT_OK
    for line in page.lines():
        _out(line if len(line) <= 100 else textwrap.fill(line, 100, subsequent_indent="      "))
    return EXIT_OK


# --------------------------------------------------------------------------- ingest

@_guard
def cmd_ingest(args: argparse.Namespace) -> int:
    from rulings import ingest, paths

    if not args.files and not args.clear:
        _out("error: give one or more files to import, or --clear")
        return EXIT_USAGE
    cleared = ingest.clear_store() if args.clear else None
    reports = ingest.ingest_files(args.files) if args.files else []
    warnings = list(getattr(reports, "warnings", []))
    if args.json:
        _json({"cleared": cleared, "store": str(paths.imported_store_path()),
               "files": [r.to_json() for r in reports], "warnings": warnings})
    else:
        for warning in warnings:
            _out(f"warning: {warning}")
        if cleared is not None:
            _out(f"cleared {cleared} imported ruling(s)")
        for r in reports:
            if r.error:
                _out(f"{r.path}: cannot read ({r.error})")
                continue
            ed = f", edition {r.edition}" if r.edition else ""
            merged = f", {r.titles_merged} title-list entr{'y' if r.titles_merged == 1 else 'ies'} merged" \
                if r.titles_merged else ""
            _out(f"{r.path}: {r.found} question(s), {r.answered} answered, "
                 f"{len(r.unanswered)} unanswered{merged}{ed}")
            for line, question in r.unanswered:
                q = question if len(question) <= 90 else question[:87] + "..."
                _out(f"  unanswered (line {line}): {q}")
        if reports:
            _out(f"stored in {paths.imported_store_path()}")
    if any(r.error for r in reports):
        return EXIT_FAIL
    return EXIT_OK


# --------------------------------------------------------------------------- wiring

def add_commands(subparsers) -> None:
    """Register search, ruling, rulings and ingest on an argparse subparsers object."""
    p = subparsers.add_parser("search", help="search the rulings",
                              description="Ranked search over the rulings. Filters can also be "
                              "typed in the query: card:\"time portal\" topic:surprise edition:star "
                              "kind:official. Editions are the ones `fluxx-judge cards --edition` takes.")
    p.add_argument("query", nargs="*", help="words to look for")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--limit", type=int, default=10, help="how many hits (default 10)")
    p.add_argument("--card", action="append", help="only rulings about this card (repeatable)")
    p.add_argument("--topic", action="append", help="only rulings with this topic (repeatable)")
    p.add_argument("--edition", action="append", help="only rulings from this edition (repeatable)")
    p.add_argument("--kind", action="append", help="only rulings of this kind (repeatable): mechanical, "
                   "judgement, reference, unanswered, or official, derived, no-ruling-yet")
    p.set_defaults(func=cmd_search)

    p = subparsers.add_parser("ruling", help="show one ruling",
                              description="Show a ruling with its cards, related rulings and the "
                              "scenarios that demonstrate it.")
    p.add_argument("id", help="ruling id, e.g. play-all-vs-turn-end")
    p.add_argument("--json", action="store_true", help="print the ruling as JSON")
    p.add_argument("--replay", action="store_true", help="replay the scenarios that cite it")
    p.add_argument("--verbose", "-v", action="store_true", help="show replay details")
    p.set_defaults(func=cmd_ruling)

    p = subparsers.add_parser("rulings", help="list every built-in ruling")
    p.add_argument("--json", action="store_true", help="print them as a JSON list")
    p.add_argument("--kind", choices=["mechanical", "judgement", "reference", "unanswered"],
                   help="only rulings of this kind")
    p.add_argument("--by-edition", action="store_true",
                   help="count the rulings per edition (the keys edition: takes) instead of listing them")
    p.set_defaults(func=cmd_rulings)

    p = subparsers.add_parser("card", help="one card's page: editions, names, effect, rulings, scenarios",
                              description="Everything about one card: its type, editions, other names "
                              "and analogues, what it does, its mechanic, every ruling about it, the "
                              "scenarios that show it and the cards it meets. Any name or alias works.")
    p.add_argument("name", nargs="+", help="the card's name or one of its aliases, e.g. wormhole")
    p.add_argument("--json", action="store_true", help="print the page as JSON")
    p.set_defaults(func=cmd_card)

    p = subparsers.add_parser("ingest", help="import Q&As from your own FAQ or rulebook text",
                              description="Read plain-text FAQ or rulebook files and make their "
                              "questions and answers searchable. The text is kept in your user "
                              "data directory, never in the project.")
    p.add_argument("files", nargs="*", metavar="FILE", help="text files to import")
    p.add_argument("--clear", action="store_true", help="forget everything imported before")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_ingest)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (`python -m rulings.cli ...`), handy before the engine's
    CLI wires these commands in."""
    parser = argparse.ArgumentParser(prog="fluxx-judge")
    sub = parser.add_subparsers(dest="command", required=True)
    add_commands(sub)
    args = parser.parse_args(argv)
    from adjudicator.text import output_closed, use_printable_output

    if output_closed():
        return EXIT_USAGE
    use_printable_output()
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
