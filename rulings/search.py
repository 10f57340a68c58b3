"""Ranked, faceted search over the rulings (built-in plus imported): the public entry.

`search(query, limit, filters)` is all a caller needs. The work is split by job:
rulings.lexicon (analyser, table talk, card names), rulings.index_store (the whoosh
index and what is derived with it, kept on disk), rulings.query (filters, spelling,
the whoosh query) and rulings.ranking (running it, highlights, the result objects).

Queries are plain words, card names and facets (`card:NAME`, `topic:`, `edition:`,
`kind:`, the value straight after the colon; quote values with spaces). Anything else
(unbalanced quotes, other words before a colon, huge pastes) is plain words; an error
whoosh raises on a query reaches the caller as a QueryError instead of an empty,
silent result.
"""

from __future__ import annotations

from typing import Any, Mapping

from rulings import index_store
from rulings import query as query_mod
from rulings import ranking
from rulings.index_store import MANIFEST, SCHEMA_VERSION, edition_key, make_schema, stats  # noqa: F401
from rulings.lexicon import recognise_cards  # noqa: F401
from rulings.query import MAX_QUERY_CHARS, QueryError  # noqa: F401
from rulings.ranking import HL_CLOSE, HL_OPEN, Hit, SearchResult  # noqa: F401

verify = index_store.verify


def search(query: str, limit: int = 10, filters: Mapping[str, Any] | None = None) -> SearchResult:
    """Ranked rulings for `query` (see the module docstring and rulings.query)."""
    if not isinstance(query, str):
        query = "" if query is None else str(query)
    try:
        limit = max(1, min(int(limit), 1000))
    except (TypeError, ValueError):
        limit = 10
    loaded = index_store.load()
    parsed = query_mod.parse(query, filters)
    result = SearchResult(query=query, filters={k: list(v) for k, v in parsed.filters.items()})
    if len(query) > MAX_QUERY_CHARS:
        result.warnings.append(f"query cut to its first {MAX_QUERY_CHARS} characters")
    if loaded.store_problem:
        result.warnings.append(loaded.store_problem)
    filter_q = query_mod.filter_query(parsed, loaded, result.warnings)
    with loaded.lock:
        searcher = loaded.searcher()
        fixes = query_mod.corrections(parsed, loaded)
        built = query_mod.build(parsed, loaded, searcher.reader(), fixes)
        result.cards_recognised = built.cards
        result.searched_terms = built.searched
        if built.query is not None or filter_q is not None:
            try:
                result.hits = ranking.run(searcher, built if built.query is not None else None,
                                          limit, filter_q, loaded.tokens)
            except Exception as exc:  # whoosh's own failure on this query: say so, do not hide it
                raise QueryError(f"the search engine could not run {query!r}: {type(exc).__name__}: {exc}") from exc
    result.corrections, result.corrected_query = query_mod.suggestion(
        fixes, query, parsed, result.hits[0] if result.hits else None)
    result.suggestion = result.corrected_query
    return result


def ensure_index() -> dict[str, Any]:
    """Build or open the index now; returns where it lives and how many records it holds."""
    loaded = index_store.load()
    return {"folder": str(loaded.folder) if loaded.folder else None, "hash": loaded.digest,
            "docs": loaded.docs(), "built": loaded.built}


def forget_loaded(lexicon: bool = False) -> None:
    """Drop in-process index state (the next search re-reads or rebuilds from disk);
    with lexicon=True also the card-name lexicon and vocabulary (after they changed)."""
    index_store.forget(lexicon_too=lexicon)
