"""The command palette's fuzzy search (tui.commands.QuickFuzzySearch) against Textual's:
the same entries match, with the typed letters in order, and a run typed whole scores the
same; and the long entries that made Textual's search take seconds (the rulings'
questions) are answered. (Scores otherwise differ a little either way: Textual's search
does not try a letter near the end of an entry, "card t" never reaching the "t" of "two".)"""

from __future__ import annotations

import pytest
from textual.fuzzy import FuzzySearch

from rulings.corpus import load_corpus
from tui.commands import QuickFuzzySearch
from tui.position import card_labels

# short enough for Textual's exhaustive search to stay quick on the card names
QUERIES = ["pa", "pl al", "tm", "hnd", "dr", "ga", "keep", "pt", "rule", "cr pg", "Card T", "x", "zz"]


@pytest.mark.parametrize("query", QUERIES)
def test_the_same_card_names_match_as_with_textuals_search(query):
    exact, quick = FuzzySearch(), QuickFuzzySearch()
    for label in sorted({f"card {label}" for label, _ in card_labels()}):
        best, _ = exact.match(query, label)
        score, offsets = quick.match(query, label)
        assert (score > 0) == (best > 0), (query, label)
        if query.lower() in label.lower():
            assert score == best, (query, label)
        if score:
            assert len(offsets) == len(query) and list(offsets) == sorted(set(offsets))
            assert "".join(label.lower()[o] for o in offsets) == query.lower()


def test_long_queries_over_the_rulings_are_answered():
    quick = QuickFuzzySearch()
    texts = [f"ruling {r.id}: {r.title}" for r in load_corpus()]
    for query in ("ruling play all", "card page wo", "card page wormhole", "hand limit"):
        hits = [t for t in texts if quick.match(query, t)[0] > 0]
        assert hits, query
    assert not any(quick.match("qqqqqqqqqqqq", t)[0] for t in texts)
