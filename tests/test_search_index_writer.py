"""The search index's bulk writer against whoosh's own: `lexicon.analyse` gives exactly
what ANALYZER gives, and `index_writer.BulkWriter` writes exactly the index whoosh's
`add_document` writes (every term, posting, weight, value, length, block statistic and
stored field), over the built-in rulings plus imported ones made to be awkward."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from whoosh.filedb.filestore import RamStorage

from rulings import corpus, index_store, index_writer, ingest, lexicon, search
from tests.conftest import examples

PIECES = ["the", "a", "I", "it's", "Play", "ALL", "3", "3.5", "e.g.", "U.S.A", "don't", "draws",
          "Time", "portal", "creepers", "keeper's", "café", "İstanbul", "straße", "ﬁne", "x_y",
          "__", "1st", "...", ",", ";", "—", "\u2019s", "  ", "\n", "Ⅻ", "٣", "ǅ", "K",
          # white space str.split() knows besides the ASCII kind (analyse splits on it)
          "\u00a0", "\u2028", "\x1c", "\u3000", "\u1680", "\x85"]


@settings(max_examples=examples(300))
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=40)
       .map(lambda parts: " ".join(parts)))
@example("the a an")             # nothing kept
@example("the Play all of it")   # the first kept word keeps its place (1), the next follow it
@example("")
def test_analyse_gives_what_the_analyzer_gives(text):
    tokens = [(t.pos, t.text) for t in lexicon.ANALYZER(text, positions=True)]
    first, stems = lexicon.analyse(text)
    assert [(first + i, s) for i, s in enumerate(stems)] == tokens
    assert lexicon.stems(text) == [t for _, t in tokens]


def _awkward_faq(n: int, seed: int = 3) -> str:
    """Q&As in the online-FAQ shape: words drawn from the built-in rulings (so common
    words stand in more than a block of 128 records) mixed with card names, numbers,
    dotted abbreviations, accents and questions that are nothing but stop words."""
    words = sorted({w for r in corpus.load_corpus() for w in re.findall(r"[A-Za-z']+", r.question + " " + r.answer)})
    extra = ["Time Portal", "Play All", "Draw 3, Play 2 of Them", "e.g.", "3.5", "café", "Wormhole", "the", "of"]
    rng = random.Random(seed)
    out = ["Q: What if the the a an?", "A: The it is of the.", "Q: Is Time Portal, e.g. in 3.5 café, a keeper's card?",
           "A: Yes: Draw 3, Play 2 of Them and Play All end with it (question 0)."]
    for i in range(n):
        q = " ".join(rng.choice(words + extra) for _ in range(rng.randint(3, 14)))
        out.append(f"Q: {q} (question {i + 1})?")
        out.append("A: " + " ".join(rng.choice(words + extra) for _ in range(rng.randint(1, 60))) + ".")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def rulings(tmp_path_factory):
    cache = tmp_path_factory.mktemp("writer-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("FLUXX_JUDGE_CACHE", str(cache))
    try:
        faq = cache / "awkward-faq.txt"
        faq.write_text(_awkward_faq(400), encoding="utf-8")
        report = ingest.ingest_files([faq])
        assert report[0].error is None and report[0].found == 402
        yield [*corpus.load_corpus(), *ingest.imported_rulings()]
    finally:
        search.forget_loaded()
        mp.undo()


def _whoosh_built(rulings):
    lex = lexicon.build_lexicon(rulings, lexicon.catalogue())
    aliases, cat = lex.other_names(), lexicon.catalogue()
    # whoosh's own RamStorage keeps the writer's scratch files in one fixed folder
    # (<tmp>/MAIN.tmp) that two test runs at once would share: the project's private one
    storage = index_store._RamStorage()
    ix = storage.create_index(index_store.make_schema())
    writer = ix.writer()
    for r in rulings:
        writer.add_document(**index_store.document(r, aliases, cat))
    writer.commit()
    storage.drop_scratch()
    return ix


def _postings(reader, fieldname, text):
    m = reader.postings(fieldname, text)
    out = []
    while m.is_active():
        out.append((m.id(), m.weight(), m.value(), m.block_min_length(), m.block_max_length(),
                    m.block_max_weight()))
        m.next()
    return out


def test_bulk_writer_writes_what_whoosh_writes(rulings):
    mine = index_store.build(rulings, lexicon.build_lexicon(rulings, lexicon.catalogue()))[1]
    theirs = _whoosh_built(rulings)
    with mine.reader() as a, theirs.reader() as b:
        assert a.doc_count_all() == b.doc_count_all() == len(rulings)
        terms = list(a.all_terms())
        assert terms == list(b.all_terms())
        blocks = 0
        for fieldname, text in terms:
            ia, ib = a.term_info(fieldname, text), b.term_info(fieldname, text)
            assert (ia.weight(), ia.doc_frequency(), ia.min_length(), ia.max_length(), ia.max_weight(),
                    ia.min_id(), ia.max_id()) == (ib.weight(), ib.doc_frequency(), ib.min_length(),
                                                  ib.max_length(), ib.max_weight(), ib.min_id(), ib.max_id())
            assert _postings(a, fieldname, text) == _postings(b, fieldname, text), (fieldname, text)
            blocks += ia.doc_frequency() > 128
        assert blocks > 10  # postings running over several blocks were compared
        for fieldname, field in index_store.make_schema().items():
            assert a.field_length(fieldname) == b.field_length(fieldname)
            if field.scorable:
                assert a.max_field_length(fieldname) == b.max_field_length(fieldname)
                assert a.min_field_length(fieldname) == b.min_field_length(fieldname)
            assert [a.doc_field_length(d, fieldname) for d in range(len(rulings))] == \
                   [b.doc_field_length(d, fieldname) for d in range(len(rulings))]
        assert list(a.iter_docs()) == list(b.iter_docs())


def test_bulk_writer_refuses_what_it_cannot_write():
    from whoosh.fields import TEXT, Schema

    ix = RamStorage().create_index(Schema(body=TEXT(vector=True)))
    with pytest.raises(TypeError, match="vectors"):
        index_writer.BulkWriter(ix)
    writer = index_writer.BulkWriter(RamStorage().create_index(index_store.make_schema()))
    with pytest.raises(ValueError, match="boost"):
        writer.add({"id": "x", "_boost": 2.0})
    writer.cancel()
