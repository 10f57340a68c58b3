"""Running a built query and shaping the answer: whoosh scores and highlights, we
package the hits.

whoosh scores everything (BM25F with the field and table-talk boosts of rulings.query)
and marks the matched words with its own highlighter (a context fragment around the
matches, each match between HL_OPEN and HL_CLOSE). On its best candidates `run` adds
closeness and the very common words, and weighs what the cards named give a ruling
against what the rest of the question gives it (_about). An error whoosh raises
reaches the caller as a QueryError; nothing is swallowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from whoosh import highlight
from whoosh.query import Every, Or, Phrase, Term
from whoosh.query.compound import PreloadedOr

from rulings import corpus as corpus_mod
from rulings.lexicon import ANALYZER, stems
from rulings.query import CARD_BOOST, NAME_PHRASE_BOOST, TOPIC_BOOST

HL_OPEN, HL_CLOSE = "**", "**"
FRAGMENT_CHARS = 170
RERANK = 40   # candidates on which proximity and very common words are scored
PROXIMITY_BOOST = 4.0    # per pair of consecutive query words standing close together
PROXIMITY_SLOP = 3
NAME_BOOST = 2.0         # per card name written out in full
UNNAMED = 0.1            # a ruling about cards the question does not name loses this share
ABOUT_MARGIN = 0.0       # agreement within this share of the best costs a card's rulings nothing
ABOUT_FLOOR = 0.3        # the share of its card score a ruling about a named card always keeps


@dataclass
class Hit:
    id: str
    score: float
    title: str
    answer: str
    marks: frozenset[str]
    cards: list[str]
    topics: list[str]
    kind: str
    editions: list[str]
    basis: str = "official"
    imported: bool = False
    origin: str | None = None
    line: int | None = None
    _highlight: str | None = field(default=None, repr=False, compare=False)

    @property
    def question(self) -> str:
        return self.title

    @property
    def highlight(self) -> str:
        """The stretch of the answer (else the question) around the matched words,
        marked by whoosh's highlighter; made when first asked for."""
        if self._highlight is None:
            frag = _fragment(self.answer, self.marks) or _fragment(self.title, self.marks)
            if not frag:
                frag = corpus_mod.first_sentence(self.answer) or self.title
            self._highlight = " ".join(frag.split())
        return self._highlight

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "score": round(self.score, 4), "question": self.title,
               "highlight": self.highlight, "cards": self.cards, "topics": self.topics,
               "kind": self.kind, "basis": self.basis, "editions": self.editions}
        if self.imported:
            out.update(imported=True, origin=self.origin, line=self.line)
        return out


@dataclass
class SearchResult:
    query: str
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None       # the query with suggested spellings, or None
    corrected_query: str | None = None  # same text, ready to run; never run implicitly
    corrections: dict[str, str] = field(default_factory=dict)
    filters: dict[str, list[str]] = field(default_factory=dict)
    cards_recognised: list[str] = field(default_factory=list)
    searched_terms: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __iter__(self):
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_json() for h in self.hits],
                "suggestion": self.suggestion, "corrected_query": self.corrected_query,
                "corrections": self.corrections, "filters": self.filters,
                "cards_recognised": self.cards_recognised, "warnings": self.warnings}


class _Marks(highlight.Formatter):
    """Matched words between HL_OPEN and HL_CLOSE; fragments joined with an ellipsis."""

    between = " ... "

    def format_token(self, text, token, replace=False):
        return HL_OPEN + highlight.get_text(text, token, replace) + HL_CLOSE


def _flat(q):
    """The query as one flat union of its leaves (terms and phrases, each carrying the
    product of the boosts above it), which whoosh runs with its pre-loaded array union:
    about 2.5 times faster here than its tree of binary unions on long questions."""
    leaves = []

    def walk(node, boost: float) -> None:
        subs = getattr(node, "subqueries", None)
        if isinstance(node, Term):  # built anew: whoosh's copy() is a deep copy
            leaves.append(Term(node.fieldname, node.text, boost=boost * node.boost))
            return
        if subs is None or isinstance(node, Phrase):
            leaf = node.copy()
            leaf.boost = boost * node.boost
            leaves.append(leaf)
            return
        if not isinstance(node, Or):
            raise TypeError(f"only unions can be flattened, not {type(node).__name__}")
        for sub in subs:
            walk(sub, boost * node.boost)

    walk(q, 1.0)
    return PreloadedOr(leaves) if len(leaves) > 1 else leaves[0]


def _fragment(text: str, marks: frozenset[str]) -> str:
    if not text or not marks:
        return ""
    return highlight.highlight(text, marks, ANALYZER, highlight.ContextFragmenter(maxchars=FRAGMENT_CHARS, surround=50),
                               _Marks(), top=1)


def _bm25(tf: int, df: int, docs: int, length: float, avg: float, b: float = 0.75, k1: float = 1.2) -> float:
    """whoosh's BM25F weight of one term in one field (the same formula and defaults)."""
    idf = math.log(1 + (docs - df + 0.5) / (df + 0.5))
    return idf * (tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * length / avg)) if tf else 0.0


def run(searcher, built, limit: int, filter_q=None, tokens: dict | None = None) -> list[Hit]:
    """The best `limit` rulings for `built.query` (None: every ruling the filter keeps).
    whoosh finds the best RERANK candidates; on them are scored the very common words
    (built.common), closeness, card names written out, how far a ruling about a named
    card agrees with the rest of the question (see _about), and a ruling about cards
    the question names none of loses UNNAMED of its score (not a reference list, which
    is about a kind of card rather than its cards)."""
    q = built.query if built is not None else None
    common = built.common if built is not None else []
    pairs = built.pairs if built is not None else []
    names = [n for n in built.names if len(n) > 1] if built is not None else []
    singles = [n[0] for n in built.names if len(n) == 1] if built is not None else []
    brought = built.brought if built is not None else []
    card_keys = set(built.card_keys) if built is not None else set()
    marks = frozenset(built.highlight) if built is not None else frozenset()
    rerank = bool(common or pairs or names or singles or card_keys)
    collector = searcher.collector(limit=max(limit, RERANK) if rerank else limit,
                                   filter=filter_q, optimize=False)
    collector.replace = 0  # nothing for whoosh to re-plan in a flat union
    searcher.search_with_collector(_flat(q) if q is not None else Every(), collector)
    results = collector.results()
    rows = []
    reader = searcher.reader()
    docs = reader.doc_count()
    for hit in results:
        stored = hit.fields()
        score = float(hit.score or 0.0)
        # what the cards named give the ruling: the card terms, their names written out,
        # the topics only they bring (all in whoosh's score already, worked out again)
        card_part = cards_part = 0.0
        mine: set[str] = set()
        if rerank:
            q_toks = _tokens(tokens, hit.docnum, "question", stored.get("question", ""))
            a_toks = _tokens(tokens, hit.docnum, "answer", stored.get("answer", ""))
            for pair in pairs:
                if _near(q_toks, pair, PROXIMITY_SLOP):
                    score += PROXIMITY_BOOST * 1.5
                elif _near(a_toks, pair, PROXIMITY_SLOP):
                    score += PROXIMITY_BOOST
            for seq in names:
                if _near(q_toks, seq, 0):
                    card_part += NAME_BOOST * 1.5
                elif _near(a_toks, seq, 0):
                    card_part += NAME_BOOST
            score += card_part
            mine = card_keys.intersection(stored.get("cards", "").split(",")) if card_keys else set()
            for key in mine:
                card_part += CARD_BOOST * _whoosh_bm25(reader, searcher, hit.docnum, "cards", key)
            for word in singles:  # a one-word name written out (Taxes, Veto!) is the card too
                for fieldname, toks, boost in (("question", q_toks, 1.5), ("answer", a_toks, 1.0)):
                    tf = toks.count(word)
                    if tf:
                        card_part += NAME_PHRASE_BOOST * boost * _whoosh_bm25(reader, searcher, hit.docnum,
                                                                               fieldname, word, tf)
            if brought:
                have = set(stored.get("topics", "").split(","))
                cards_part = sum(TOPIC_BOOST * _whoosh_bm25(reader, searcher, hit.docnum, "topics", t)
                                 for t in brought if t in have)
        if common:
            for fieldname, stem, boost in common:
                toks = _tokens(tokens, hit.docnum, fieldname, stored.get(fieldname, ""))
                tf = toks.count(stem)
                if tf:
                    score += boost * _bm25(tf, reader.doc_frequency(fieldname, stem), docs,
                                           reader.doc_field_length(hit.docnum, fieldname, 1),
                                           searcher.avg_field_length(fieldname, 1) or 1)
        if rerank and not card_part and stored.get("cards") and stored.get("kind") != "reference":
            score *= 1 - UNNAMED   # its cards are a situation the question does not mention
        rows.append([score, stored, card_part + cards_part, len(mine)])
    if card_keys and built.situation:
        _about(rows, len(card_keys))
    rows.sort(key=lambda row: -row[0])
    hits = []
    for score, stored, _, _ in rows[:limit]:
        display = stored.get("display") or {}
        hits.append(Hit(
            id=stored["id"], score=score, title=stored.get("question", ""),
            answer=stored.get("answer", ""), marks=marks, cards=list(display.get("cards", [])),
            topics=[t for t in stored.get("topics", "").split(",") if t],
            kind=stored.get("kind", ""), basis=stored.get("basis", "official"),
            editions=list(display.get("editions", [])), imported=stored.get("origin") == "imported",
            origin=display.get("origin"), line=display.get("line")))
    return hits


def _about(rows: list[list], named: int) -> None:
    """A card named in the question favours the rulings about it only as far as they
    agree with the rest of the question. Each candidate's score is split into what the
    cards named give it (row[2]: the card terms, the names written out, the topics only
    the cards bring) and the rest, what the other words give it; the rest, against the
    best rest among the candidates, is the ruling's agreement with the question. A
    ruling keeps that share of its card part, and at least ABOUT_FLOOR of it (the whole
    of it within ABOUT_MARGIN of the best). A ruling about every card named is about
    what the question asks, their meeting ("10 Cards in Hand, Trade Hands, who wins"):
    it keeps more, in the measure of the named cards it is about (row[3]).
    So in "double agenda out and both of us meet a goal at once, who wins" the words
    about ties decide between the ruling on ties and the card's own, in "does Draw 2 and
    Use 'Em count as one play" the ruling on an Action's one play comes before the
    card's others, and "Double Agenda trashed" still finds the card's."""
    best = max((row[0] - row[2] for row in rows), default=0.0)
    if best <= 0:
        return
    for row in rows:
        if row[2]:
            share = ABOUT_FLOOR + (1 - ABOUT_FLOOR) * min(1.0, max(0.0, row[0] - row[2]) / best + ABOUT_MARGIN)
            if named > 1:
                share += (1 - share) * max(0, row[3] - 1) / (named - 1)
            row[0] -= row[2] * (1 - share)


def _whoosh_bm25(reader, searcher, docnum: int, fieldname: str, text: str, tf: int = 1) -> float:
    """whoosh's BM25F score of a term found `tf` times in a field (its own idf and defaults)."""
    idf = math.log(reader.doc_count_all() / (reader.doc_frequency(fieldname, text) + 1)) + 1
    length = reader.doc_field_length(docnum, fieldname, 1)
    avg = searcher.avg_field_length(fieldname, 1) or 1
    return idf * (tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / avg)))


def _near(toks: list[str], seq: tuple[str, ...], slop: int) -> bool:
    """True when the stems of `seq` occur in order, each within `slop` words of the last."""
    first, i = seq[0], -1
    while True:
        try:                    # (list.index: each start is found at C speed; most texts have none)
            i = toks.index(first, i + 1)
        except ValueError:
            return False
        pos = i
        for nxt in seq[1:]:
            window = toks[pos + 1: pos + 2 + slop]
            if nxt not in window:
                break
            pos = pos + 1 + window.index(nxt)
        else:
            return True


def _tokens(cache: dict | None, docnum: int, fieldname: str, text: str) -> list[str]:
    key = (docnum, fieldname)
    if cache is not None and key in cache:
        return cache[key]
    toks = stems(text)
    if cache is not None:
        cache[key] = toks
    return toks
