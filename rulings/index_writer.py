"""Writing the search index in one bulk pass: whoosh's own segment, codec and files,
without whoosh's per-document pipeline.

whoosh's `add_document` analyses each field through a chain of generators of token
objects, puts every posting into a sorting pool, and at commit sorts the pool and
reads each posting's field length back from the lengths it has just written; in pure
Python that is about a millisecond per ruling, most of a 10,000-record build.
`BulkWriter` is whoosh's SegmentWriter with that path replaced: fields analysed by
lexicon.ANALYZER go through `lexicon.analyse` (the same stems and positions, each
stretch of text tokenised and each word stemmed once), their postings are kept per
field and term in document order (nothing to sort but the terms), each with its
document's field length (whoosh reads it back from its one-byte lengths column; the
codec keeps only the bytes of a block's shortest and longest, so the exact length
gives the same bytes), and posting blocks are filled a block at a time. Other fields
(keywords) are indexed by whoosh's own field code, once per distinct value. Stored
fields, lengths and columns go through whoosh's per-document writer, and the commit
(segment files, compound file, table of contents) is whoosh's.

What it writes reads back exactly as what `add_document` writes:
tests/test_search_index_writer.py compares every term, posting, weight, value, block
statistic, field length and stored field of the two. (The bytes may differ where
postings share a value: pickle writes a shared object once.)
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping

from whoosh import formats
from whoosh.codec.whoosh3 import W3PostingsWriter
from whoosh.system import pack_uint
from whoosh.writing import SegmentWriter

from rulings import lexicon


class BulkWriter(SegmentWriter):
    """A SegmentWriter for a whole index at once: `add(fields)` per document, then
    `commit(merge=False)`. Documents carry no boosts; fields with term vectors or
    separate spelling words are not supported (the schema is checked up front)."""

    def __init__(self, ix, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        self._fast: dict[str, type] = {}
        for name, field in self.schema.items():
            if field.vector or field.separate_spelling():
                self.cancel()
                raise TypeError(f"BulkWriter cannot index field {name!r} (vectors or spelling words)")
            # exact types: a subclass (Characters) encodes more than these do
            if field.analyzer is lexicon.ANALYZER and type(field.format) in (formats.Positions, formats.Frequency):
                self._fast[name] = type(field.format)
        # field -> term (text or bytes) -> (docnums, [(weight, value bytes)]), docnums
        # ascending; the (weight, value bytes) pairs are shared, so a posting costs a
        # 4-byte docnum and a reference (a tuple per posting was five times that)
        self._postings: dict[str, dict[Any, tuple[array, list]]] = defaultdict(dict)
        # field -> docnum -> the field's length there (when not 0)
        self._lengths: dict[str, dict[int, int]] = defaultdict(dict)
        # (field, value) -> [(term bytes, (weight, value bytes))] and the field's length
        self._keywords: dict[tuple[str, str], tuple[list, int]] = {}
        # field -> frequency or positions -> (weight, value bytes), made once each
        self._values: dict[str, dict] = defaultdict(dict)

    def add(self, fields: Mapping[str, Any]) -> None:
        """Index one document: field name -> value, as whoosh's add_document takes them."""
        self._check_state()
        names = sorted(fields)
        if any(n.startswith("_") for n in names):
            raise ValueError("BulkWriter takes no boosts or custom stored values")
        self._check_fields(self.schema, names)
        docnum = self.docnum
        pdw = self.perdocwriter
        pdw.start_doc(docnum)
        try:
            for name in names:
                value = fields[name]
                if value is None:
                    continue
                field = self.schema[name]
                length = 0
                if field.indexed:
                    if name in self._fast and isinstance(value, str):
                        length = self._add_analysed(name, field, value, docnum)
                    else:
                        length = self._add_indexed(name, field, value, docnum)
                pdw.add_field(name, field, value if field.stored else None, length)
                if field.column_type:
                    pdw.add_column_value(name, field.column_type, field.to_column_value(value))
        except BaseException:
            pdw.cancel_doc()
            raise
        pdw.finish_doc()
        self._added = True
        self.docnum += 1

    def _post(self, name: str, term, docnum: int, wv: tuple) -> None:
        terms = self._postings[name]
        entry = terms.get(term)
        if entry is None:
            entry = terms[term] = (array("I"), [])
        entry[0].append(docnum)
        entry[1].append(wv)

    def _add_indexed(self, name: str, field, value, docnum: int) -> int:
        """Postings from whoosh's own field.index (keywords): a field's few distinct
        values are each indexed once. Returns the field's length in this document."""
        key = (name, value) if isinstance(value, str) else None
        made = self._keywords.get(key) if key else None
        if made is None:
            items = list(field.index(value))
            length = sum(item[1] for item in items) if field.scorable else 0
            made = ([(tbytes, (weight, vbytes)) for tbytes, _freq, weight, vbytes in items], length)
            if key:
                self._keywords[key] = made
        pairs, length = made
        for tbytes, wv in pairs:
            self._post(name, tbytes, docnum, wv)
        if length:
            self._lengths[name][docnum] = length
        return length

    def _add_analysed(self, name: str, field, value: str, docnum: int) -> int:
        """Postings of a text field analysed by lexicon.ANALYZER, with the weights and
        value bytes whoosh's Positions and Frequency formats give (each distinct pair
        made once and shared). Terms are kept as text until the flush (text sorts as
        its UTF-8 bytes do). Returns the field's length in this document."""
        first, stems = lexicon.analyse(value)
        length = len(stems) if field.scorable else 0
        if length:
            self._lengths[name][docnum] = length
        post = self._post
        made = self._values[name]
        fmt = field.format
        if self._fast[name] is formats.Frequency:
            for st, n in Counter(stems).items():
                wv = made.get(n)
                if wv is None:
                    wv = made[n] = (n * fmt.field_boost, pack_uint(n))
                post(name, st, docnum, wv)
            return length
        positions: dict[str, list[int]] = {}
        for pos, st in enumerate(stems, first):
            ps = positions.get(st)
            if ps is None:
                positions[st] = [pos]
            else:
                ps.append(pos)
        for st, ps in positions.items():
            key = tuple(ps)
            wv = made.get(key)
            if wv is None:
                wv = made[key] = (len(ps) * fmt.field_boost, fmt.encode(ps))
            post(name, st, docnum, wv)
        return length

    def _flush_segment(self) -> None:
        # what SegmentWriter does with its sorted pool, from the postings kept per term
        self.perdocwriter.close()
        fw = self.fieldwriter
        for name in sorted(self._postings):
            terms = self._postings[name]
            fw.start_field(name, self.schema[name])
            lengths = self._lengths.get(name, {})
            for term in sorted(terms):
                fw.start_term(term.encode("utf-8") if isinstance(term, str) else term)
                ids, wvs = terms[term]
                lens = [lengths.get(d, 0) for d in ids]
                pw: Any = getattr(fw, "_postwriter", None)
                if type(pw) is W3PostingsWriter and not pw._byteids:
                    _add_blocks(pw, ids, wvs, lens)
                else:  # another codec: one posting at a time
                    for docnum, (weight, vbytes), length in zip(ids, wvs, lens):
                        fw.add(docnum, weight, vbytes, length)
                fw.finish_term()
            fw.finish_field()
        fw.close()
        self._postings.clear()
        self._lengths.clear()


def _add_blocks(pw: W3PostingsWriter, ids: array, wvs: list, lengths: list) -> None:
    """Fill `pw`'s blocks a block at a time with what W3PostingsWriter.add_posting would
    gather one posting at a time: the ids, the weights (single precision), the non-empty
    values, the shortest and longest non-zero length, the highest weight (from 0). A
    full block is written when more postings follow; finish_postings writes the last."""
    limit = pw._blocklimit
    for start in range(0, len(ids), limit):
        if start:
            pw._write_block()
        end = start + limit
        weights = [wv[0] for wv in wvs[start:end]]
        pw._ids = ids[start:end]
        pw._weights = array("f", weights)
        pw._values = [wv[1] for wv in wvs[start:end] if wv[1]]
        block_lengths = [n for n in lengths[start:end] if n]
        pw._minlength = min(block_lengths) if block_lengths else None
        pw._maxlength = max(block_lengths) if block_lengths else 0
        top = max(weights)
        pw._maxweight = top if top > 0 else 0


def write(ix, documents: Iterable[Mapping[str, Any]]) -> None:
    """Add `documents` to the empty index `ix` as one segment, committed."""
    writer = BulkWriter(ix)
    try:
        for doc in documents:
            writer.add(doc)
    except BaseException:
        writer.cancel()
        raise
    writer.commit(merge=False)
