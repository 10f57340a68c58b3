"""Fuzzing the other inputs players type or bring: search queries and FAQ text for
`ingest`. Whatever arrives, the answer is results (possibly none) or a clear
message, never an exception escaping to the user."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings.ingest import parse_text
from rulings.search import search
from tests.conftest import examples

QUERY_BITS = st.sampled_from(['"', "'", ":", "card:", "topic:", "edition:", "kind:", "AND", "OR", "NOT", "(", ")",
                              "*", "?", "~", "^", "[", "]", "{", "}", "\\", "play all", "time portal", "surprise",
                              "imediately", "agnda", "\x00", "\u2019", "ü", " ", "-", "+", "/", "<", ">", "card:",
                              "x" * 50])


@pytest.mark.slow(4)
@settings(max_examples=examples(120))
@given(st.lists(QUERY_BITS | st.text(max_size=12), max_size=12).map("".join))
def test_search_never_raises(query):
    result = search(query, limit=5)
    assert isinstance(result.hits, list)


def test_search_huge_query():
    result = search("play all " * 2000, limit=3)
    assert isinstance(result.hits, list)


LINES = st.sampled_from(["Q: Can I play it?", "A: Yes.", "**Q:** What now?", "**A:** Nothing.", "- Q: A title?",
                         "", "   ", "Q:", "A:", "Q: x\nA:", "## FREQUENTLY ASKED QUESTIONS", "\x00", "\ufeff",
                         "Q: " + "long " * 300, "A: " + "answer " * 300, "**Q:**", "…", "A: see above."])


@settings(max_examples=examples(150))
@given(st.lists(LINES | st.text(max_size=40), max_size=40).map("\n".join))
def test_ingest_parser_never_raises(text):
    result = parse_text(text, "fuzz.txt")
    assert len(result.answered) + len(result.unanswered) == len(result.items)
