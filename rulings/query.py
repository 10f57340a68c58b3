"""From what a player typed to a whoosh query: filters, words, card names, table talk,
spelling suggestions.

`parse()` pulls the facets out of the text, in their own syntax only (`card:`,
`topic:`, `edition:`, `kind:` in lower case with the value straight after the colon,
quoted when it has spaces); every other word counts, whatever colons, quotes or `AND OR
NOT` stand around it, and whoosh's own query syntax is never exposed. `build()` turns
the rest into one whoosh query:

* the words over question and answer (field boosts), with whoosh's BM25F
  down-weighting words that stand in many rulings; no word is ever removed for being
  common;
* card names, aliases, nicknames and plurals (longest match; a misspelt name through
  its likely spelling) as card-facet terms, a one-word name also as a word;
* the table talk of rulings/vocabulary.yaml (words, phrases, `same:` groups), lighter
  than typed words: each entry's words share its boost, and a stem already typed is
  never searched twice (see talk_query);
* topics named by the words typed or by their table talk, or implied by a recognised
  card's type and mechanic;
* for rulings.ranking, scored on whoosh's candidates: pairs of consecutive words
  (closeness), card names written out, and the rest of the question (`situation`),
  which decides how far a named card's rulings are favoured.

`corrections()` asks whoosh's spelling corrector (over the unstemmed words of every
ruling plus card names and aliases) about the words found nowhere that are not
ordinary English, preferring a correction that makes a card name with its neighbours
("tiem portal" -> "time portal"); `suggestion()` shows them unless the words as typed
already find a good hit.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from whoosh.query import And, Or, Phrase, Term

from rulings import english, lexicon
from rulings.index_store import Loaded, edition_key
from rulings.lexicon import ANALYZER, STOP, WORD, card_key

MAX_QUERY_CHARS = 1000
MAX_TERMS = 48
FILTER_FIELDS = ("card", "topic", "edition", "kind")
FIELD_BOOSTS = {"question": 2.0, "answer": 1.0}
# In a big index a word standing in more than COMMON_SHARE of the rulings (and in more
# than COMMON_MIN_DOCS of them; a fiftieth of 10,000 records is 200) is scored on whoosh's best candidates instead of
# walking its long posting list (see ranking.run); it still counts, with the small
# weight BM25 gives such a word, and a query made only of such words runs as usual.
COMMON_SHARE = 0.02
COMMON_MIN_DOCS = 50
COMMON_MIN_INDEX = 1000
CARD_BOOST = 4.0
TOPIC_BOOST = 2.0
EXPANSION_BOOST = 1.0
PHRASE_EXPANSION_BOOST = 1.5
TALK_SHARE = 0.5         # an entry's words share its boost: each gets boost / n ** TALK_SHARE
IMPLIED_BOOST = 0.2      # words a recognised card brings (a tie-breaker)
NAME_PHRASE_BOOST = 2.0
COORDINATION = 0.9       # OrGroup.factory(COORDINATION): a bonus for matching more words
GOOD_HIT_SHARE = 0.5     # did-you-mean stays silent when the best hit holds this share of the words

# A facet is one of FILTER_FIELDS, in lower case, a colon and its value at once (no
# space): `card:wormhole`, `topic:surprise`, `card:"time portal"`. Anything else with a
# colon ("cards: how many", "bonus:") is plain words.
_FACET_RE = re.compile(r"""(?<![\w:'"-])(card|topic|edition|kind):(?:"([^"]*)"|'([^']*)'|([^\s"'][^\s"]*))""")
_TRAILING = ".,;:?)]}"


class QueryError(ValueError):
    """A query whoosh could not run; the message says what to change."""


@dataclass
class Parsed:
    words: list[str]
    phrases: list[list[str]]
    filters: dict[str, list[str]]


def parse(query: str, filters: Mapping[str, Any] | None = None) -> Parsed:
    """The facets (from `filters` and from the text, see _FACET_RE), the plain words
    (every other word of the text, lower-cased) and the quoted phrases."""
    text = (query or "")[:MAX_QUERY_CHARS]
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")
    found: dict[str, list[str]] = {}
    for name, value in (filters or {}).items():
        if name not in FILTER_FIELDS or value is None:
            continue
        values = [value] if isinstance(value, str) else list(value)
        found.setdefault(name, []).extend(str(v) for v in values if str(v).strip())

    def take(m: re.Match) -> str:
        quoted = m.group(2) if m.group(2) is not None else m.group(3)
        value = quoted if quoted is not None else m.group(4).rstrip(_TRAILING)
        if value.strip():
            found.setdefault(m.group(1), []).append(value.strip())
        return " "

    text = _FACET_RE.sub(take, text)
    phrases: list[list[str]] = []
    if text.count('"') >= 2:
        def phrase(m: re.Match) -> str:
            ws = [w.lower() for w in WORD.findall(m.group(1))]
            if len(ws) > 1:
                phrases.append(ws)
            return " " + m.group(1) + " "
        text = re.sub(r'"([^"]*)"', phrase, text)
    words = [w.lower() for w in WORD.findall(text)][:MAX_TERMS]
    return Parsed(words=words, phrases=phrases[:8], filters=found)


# --------------------------------------------------------------------------- filters

def filter_query(parsed: Parsed, loaded: Loaded, warnings: list[str]):
    clauses = []
    for name, values in parsed.filters.items():
        terms: list[Any] = []
        for v in values:
            if name == "card":
                keys = set()
                for _, ks in loaded.lexicon.find(v):
                    keys |= ks
                keys.add(card_key(v))
                terms.extend(Term("cards", k) for k in sorted(keys) if k)
                if not keys & loaded.facet_keys:
                    close = difflib.get_close_matches(card_key(v), sorted(loaded.facet_keys), n=1, cutoff=0.7)
                    warnings.append(f"no ruling mentions the card {v!r}"
                                    + (f" - did you mean {loaded.lexicon.display.get(close[0], close[0])!r}?" if close else ""))
                continue
            if name == "edition":
                value, fieldname, known = edition_key(v), "editions", loaded.editions
                from rulings.index_store import _edition_table

                if value not in known and value in set(_edition_table().values()):
                    warnings.append(f"no ruling is about edition {v!r} yet")
                    terms.append(Term(fieldname, value))
                    continue
            elif name == "kind":
                value = v.strip().lower().replace(" ", "-")
                # a ruling's kind, or its basis (official, derived, no-ruling-yet)
                fieldname = "basis" if value in loaded.bases or value in ("official", "derived", "no-ruling-yet") else "kind"
                known = loaded.kinds | loaded.bases | {"official", "derived", "no-ruling-yet"}
            else:
                value, fieldname, known = v.strip().lower(), "topics", loaded.topics
            if value not in known:
                close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
                warnings.append(f"unknown {name} {v!r}" + (f" - did you mean {close[0]!r}?" if close else ""))
            terms.append(Term(fieldname, value))
        if terms:
            clauses.append(Or(terms) if len(terms) > 1 else terms[0])
    if not clauses:
        return None
    return And(clauses) if len(clauses) > 1 else clauses[0]


# --------------------------------------------------------------------------- spelling

@dataclass(frozen=True)
class Fix:
    word: str           # the likely spelling
    makes_name: bool    # with its neighbours it spells a card name ("tiem portal")


def corrections(parsed: Parsed, loaded: Loaded) -> dict[str, Fix]:
    """Likely spellings for the words that are nowhere: in no ruling or card name
    (the index's spelling vocabulary, whoosh's ListCorrector over it), in no table-talk
    entry, not an inflection of a known word, and not ordinary English
    (rulings.english): "showed", "kids" or "easier" are never typos, however close to a
    word of the rulings. A spelling that makes a card name with its neighbours is
    preferred ("tiem portal" -> "time portal")."""
    counts = loaded.words
    known = counts.__contains__
    words = [w.replace("'", "") for w in parsed.words]
    fixes: dict[str, Fix] = {}
    names = {tuple(p.split()) for p in loaded.lexicon.names()}
    vocab = loaded.vocab
    talk = set(vocab.words) | {w for phrase in vocab.phrases for w in phrase.split()}
    checked = 0
    for i, w in enumerate(words):
        if checked >= 12:
            break
        if w in fixes:
            continue
        if w in STOP or len(w) < 3 or not w.isalpha() or known(w) or w in talk:
            continue
        if any(known(v) for v in (w + "s", w + "es", w + "ed", w + "ing", *((w[:-1],) if w.endswith("s") else ()))):
            continue  # an inflection of a known word, not a typo
        if english.is_english(w):
            continue
        checked += 1
        if w not in loaded.spelling:  # whoosh's corrector is the slow part: once per word
            maxdist = 1 if len(w) <= 4 else 2  # counting a swap of neighbours as one edit
            loaded.spelling[w] = [o for o in loaded.corrector().suggest(w, limit=20, maxdist=2, prefix=1)
                                  if o not in STOP and o != w and _distance(w, o) <= maxdist]
        options = loaded.spelling[w]
        if not options:
            continue
        before, after = words[i - 1] if i else None, words[i + 1] if i + 1 < len(words) else None

        def makes_name(o: str) -> bool:
            return any(n in names for n in ((before, o), (o, after), (o,)) if None not in n)

        best = min(options, key=lambda o: (not makes_name(o), _distance(w, o), -counts.get(o, 0), o))
        fixes[w] = Fix(best, makes_name(best))
    return fixes


def suggestion(fixes: Mapping[str, Fix], query: str, parsed: Parsed, best_hit) -> tuple[dict[str, str], str | None]:
    """The did-you-mean shown: ({wrong: right}, the query with them), or ({}, None).
    Silent when the words as typed already find a good hit (the best hit holds at
    least GOOD_HIT_SHARE of the other words typed), unless a fix spells a card name."""
    if not fixes:
        return {}, None
    if not any(f.makes_name for f in fixes.values()) and best_hit is not None:
        others = set(lexicon.stems(" ".join(w for w in parsed.words if w.replace("'", "") not in fixes)))
        if others:
            text = " ".join((best_hit.title, best_hit.answer, " ".join(best_hit.cards)))
            if len(others & set(lexicon.stems(text))) >= GOOD_HIT_SHARE * len(others):
                return {}, None
    shown = {w: f.word for w, f in fixes.items()}
    corrected = query[:MAX_QUERY_CHARS]
    for wrong, right in shown.items():
        corrected = re.sub(rf"(?i)(?<![\w']){re.escape(wrong)}(?![\w'])", right, corrected)
    return shown, corrected


def _distance(a: str, b: str) -> int:
    """Edit distance counting a swap of neighbours as one edit (tiem -> time)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


# --------------------------------------------------------------------------- the query

def text_query(loaded: Loaded, text: str, scale: float | None = COORDINATION, boost: float = 1.0):
    """OR-grouped query over question and answer for plain words: each word's stem in
    both fields (FIELD_BOOSTS), with whoosh's coordination bonus for matching more of
    them unless scale is None; None when no word is left after the stop words."""
    stems = list(dict.fromkeys(lexicon.stems(" ".join(re.sub(r"[^a-z0-9]+", " ", _plain(w)) for w in text.split()))))
    if not stems:
        return None
    words = [Or([Term(f, st, boost=b) for f, b in FIELD_BOOSTS.items()]) for st in stems[:MAX_TERMS]]
    return Or(words, boost=boost, scale=scale) if len(words) > 1 else Or(words[0].subqueries, boost=boost)


def talk_query(entries: list[tuple[str, bool]], typed: set[str]):
    """The rulings' words for the table talk met (rulings.lexicon.Vocabulary.talk), over
    question and answer like the words typed but lighter: an entry is one thing the
    player said, so its words share its boost (PHRASE_EXPANSION_BOOST for a phrase,
    EXPANSION_BOOST for a word), and a stem already typed or already given is not
    searched again (it would count twice)."""
    weights: dict[str, float] = {}
    for text, phrase in entries:
        new = [st for st in dict.fromkeys(lexicon.stems(re.sub(r"[^a-z0-9]+", " ", text.lower())))
               if st not in typed and st not in weights]
        for st in new:
            weights[st] = (PHRASE_EXPANSION_BOOST if phrase else EXPANSION_BOOST) / len(new) ** TALK_SHARE
    if not weights:
        return None
    return Or([Or([Term(f, st, boost=b) for f, b in FIELD_BOOSTS.items()], boost=w)
               for st, w in list(weights.items())[:MAX_TERMS]])


def topics_in(loaded: Loaded, words: list[str]) -> list[str]:
    """Topic tags named in the words ("hand limit" -> hand-limit, "surprises" ->
    surprise), the longest first: "free action" names free-action, not also action."""
    stems = lexicon.stems(" ".join(words))
    taken = [False] * len(stems)
    found = []
    for topic, tstems in sorted(loaded.topic_stems.items(), key=lambda t: -len(t[1])):
        n = len(tstems)
        for i in range(len(stems) - n + 1) if n else ():
            if stems[i:i + n] == list(tstems) and not any(taken[i:i + n]):
                taken[i:i + n] = [True] * n
                found.append(topic)
                break
    return sorted(found)


@dataclass
class Built:
    query: Any                      # None: nothing to search for
    cards: list[str]                # display names of the cards recognised
    searched: list[str]             # stems of the typed words searched for
    common: list[tuple[str, str, float]]   # (field, stem, boost) scored on the candidates
    highlight: set[str]             # stems to mark in the hits
    pairs: list[tuple[str, str]]    # consecutive stems of the typed words (proximity)
    names: list[tuple[str, ...]]    # stems of the card names recognised
    card_keys: list[str] = field(default_factory=list)   # facet keys of the cards recognised
    # the rest of the question: the stems of the words besides card names and filler (a
    # named card's rulings are weighed against it, see ranking._about)
    situation: list[str] = field(default_factory=list)
    brought: list[str] = field(default_factory=list)   # topics only the cards named bring


def split_common(q, reader, common: list[tuple[str, str, float]], df: dict | None = None):
    """`q` without the terms of very common words (collected into `common` with their
    boost); None when nothing else is left."""
    if reader.doc_count() < COMMON_MIN_INDEX:
        return q
    threshold = max(COMMON_MIN_DOCS, COMMON_SHARE * reader.doc_count())
    if df is None:
        df = {}

    def frequency(fieldname: str, text: str) -> int:
        key = (fieldname, text)
        if key not in df:
            df[key] = reader.doc_frequency(fieldname, text)
        return df[key]

    def walk(node, boost: float):
        if isinstance(node, Term):
            if node.fieldname in FIELD_BOOSTS and frequency(node.fieldname, node.text) > threshold:
                common.append((node.fieldname, _s(node.text), boost * node.boost))
                return None
            return node
        subs = getattr(node, "subqueries", None)
        if subs is None or isinstance(node, Phrase):
            return node
        kept = [k for k in (walk(sub, boost * node.boost) for sub in subs) if k is not None]
        if not kept:
            return None
        if isinstance(node, Or):  # rebuilt rather than copied: whoosh copies deeply
            return Or(kept, boost=node.boost, minmatch=node.minmatch, scale=node.scale)
        node = node.copy()
        node.subqueries = kept
        return node

    return walk(q, 1.0)


def build(parsed: Parsed, loaded: Loaded, reader, fixes: Mapping[str, Fix] | None = None) -> Built:
    # Card names in the query become card terms: the facet (boosted) and the name
    # itself. Their words (play, all, draw, 3) leave the bag of words, where they would
    # favour any ruling that merely repeats them. A misspelt word whose likely spelling
    # makes a card name with its neighbours counts as that name ("tiem portal").
    fixes = fixes or {}
    spellings = {w: f.word for w, f in fixes.items()}
    spelt = [fixes[k].word if (k := w.replace("'", "")) in fixes and fixes[k].makes_name else w
             for w in parsed.words]
    card_keys: list[str] = []
    brought: list[str] = []
    consumed: set[int] = set()
    names: list[tuple[str, ...]] = []
    for start, end, phrase, keys in loaded.lexicon.spans(spelt):
        known = sorted(k for k in keys if k in loaded.facet_keys)
        if not known:
            continue
        consumed.update(range(start, end))
        # the name as typed and as printed ("thats mine" is written "That's Mine")
        for written in (phrase, *(loaded.lexicon.display.get(k, k) for k in known)):
            toks = tuple(lexicon.stems(written))
            if toks and toks not in names:
                names.append(toks)
        for k in known:
            if k not in card_keys:
                card_keys.append(k)
    cards = [loaded.lexicon.display.get(k, k) for k in card_keys]
    plain = [w for i, w in enumerate(parsed.words) if i not in consumed]
    vocab = loaded.vocab

    clauses: list[Any] = []
    searched: list[str] = []
    if plain:
        q = text_query(loaded, " ".join(plain))
        if q is not None:
            clauses.append(q)
            searched = sorted({_s(t) for _, t in q.all_terms()})
    for toks in names:
        if len(toks) == 1:  # a one-word name (Veto!) still counts where it is written
            clauses.extend(Term(f, toks[0], boost=NAME_PHRASE_BOOST * b)
                           for f, b in (("question", 1.5), ("answer", 1.0)))
    if parsed.words:
        by_phrase, by_word = vocab.expansions(parsed.words)
        if spellings:  # a likely spelling counts too, lightly; the query is not rewritten
            by_word = " ".join([by_word, *spellings.values()]).strip()
        q = talk_query(vocab.talk(parsed.words) + [(w, False) for w in spellings.values()],
                       set(lexicon.stems(" ".join(map(_plain, plain)))))
        if q is not None:
            clauses.append(q)
        implied = {t for k in card_keys for t in loaded.implied.get(k, ())}
        # topics named in the words typed or in their table talk ("keeper power" -> free action)
        named = set(topics_in(loaded, parsed.words)) | set(topics_in(loaded, by_phrase.split())) \
            | set(topics_in(loaded, by_word.split()))
        brought = sorted(implied - named)
        topic_terms = sorted(named | implied)
        if topic_terms:
            clauses.append(Or([Term("topics", t, boost=TOPIC_BOOST) for t in topic_terms]))
        # a card also brings the words of what it does ("Time Portal" asks about turn ends)
        implied_words = " ".join(vocab.topic_words[t] for t in sorted(implied) if t in vocab.topic_words)
        q = text_query(loaded, implied_words, boost=IMPLIED_BOOST) if implied_words else None
        if q is not None:
            clauses.append(q)
    for ws in parsed.phrases:
        quoted = lexicon.stems(" ".join(ws))
        if len(quoted) > 1:
            clauses.append(Phrase("question", quoted, boost=2.0))
    if card_keys:
        clauses.append(Or([Term("cards", k, boost=CARD_BOOST) for k in card_keys]))
    # proximity: consecutive words of the question standing close together in a ruling
    # (scored on the candidates, see ranking.run: whoosh's sloppy phrases cost 5x here)
    stems = lexicon.stems(" ".join(map(_plain, plain)))[:MAX_TERMS]
    pairs = [p for p in dict.fromkeys(zip(stems, stems[1:])) if p[0] != p[1]]
    marks = {_s(t) for f, t in (Or(clauses).all_terms() if clauses else ()) if f in FIELD_BOOSTS}
    marks.update(t for toks in names for t in toks)
    situation = _situation(plain, vocab)
    if not clauses:
        return Built(None, cards, searched, [], marks, pairs, names, card_keys, situation, brought)
    common: list[tuple[str, str, float]] = []
    full = Or(clauses) if len(clauses) > 1 else clauses[0]
    rare = split_common(full, reader, common, loaded.frequencies)
    if rare is None:
        # nothing but common words: whoosh searches the least common of them (a word in
        # every record still finds them) and the others are scored on its candidates
        ranked = sorted(common, key=lambda c: loaded.frequencies.get((c[0], c[1]), 0))
        keep = {c[1] for c in ranked[:1]}
        seeds = [c for c in common if c[1] in keep]
        common = [c for c in common if c[1] not in keep]
        terms = [Term(f, t, boost=b) for f, t, b in seeds]
        rare = Or(terms) if len(terms) > 1 else terms[0]
    return Built(rare, cards, searched, common, marks, pairs, names, card_keys, situation, brought)


def _situation(plain: list[str], vocab) -> list[str]:
    """The stems of the words typed besides card names that say something about the
    situation (not filler): what a ruling about a named card must agree with."""
    stems = (lexicon.stem(_plain(w)) for w in plain if _plain(w) not in vocab.filler)
    return list(dict.fromkeys(st for st in stems if st))[:MAX_TERMS]


def _plain(word: str) -> str:
    """A typed word in lower case without its apostrophes ("it's" is "its", "keeper's"
    "keepers"): a stray "s" is no word."""
    return word.lower().replace("'", "").replace("\u2019", "")


def _s(t) -> str:
    return t.decode() if isinstance(t, bytes) else str(t)
