"""The words search knows: the text analyser, players' table talk, and card names.

* `ANALYZER` stems (Snowball's English stemmer) and drops stop words; every text field
  and query goes through it.
  `analyse()` gives the same stems and positions without whoosh's token objects (a
  word's stem is worked out once per process): the index is built and queries are
  stemmed through it.
* `vocabulary()` reads rulings/vocabulary.yaml, the ways players say things ("too
  late", "trashed", "both of us", "his turn") mapped to the rulings' own words, the
  nicknames and shorthand of cards (potato, d3p2), and the filler words that say
  nothing about a situation, kept as data; it is stored with the index too
  (`Vocabulary.to_json`), so a search on a built index neither parses it nor imports
  the YAML library.
* `CardLexicon` recognises card names, aliases, analogues, nicknames and shorthand in
  free text (longest match first; a name's last word may be in the plural). It is
  built once per index and stored with it (`to_json`), so opening an index does not
  derive it again.
* `implied_topics()` names what a card is about through its type and mechanic (Time
  Portal ends the turn, Play 3 is a New Rule), from the same declarations the
  interaction graph reads.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from itertools import chain
from typing import Any, Iterable

from whoosh.analysis import STOP_WORDS, StemmingAnalyzer
from whoosh.lang.snowball.english import EnglishStemmer

from rulings import corpus as corpus_mod

# Numbers matter (Draw 3, Play 2): keep one-character tokens, drop only filler words.
# Besides whoosh's list: pronouns, the forms of "be" and "have", modal verbs, and the
# short forms a query spells without its apostrophe ("dont", "thats"); the "s" and "t"
# a text's "it's" and "don't" leave are no words either.
STOP = frozenset(STOP_WORDS | {"i", "do", "does", "did", "my", "me", "what", "how", "which",
                               "so", "there", "they", "their", "its", "it's", "get", "gets", "got",
                               "s", "t", "was", "were", "been", "being", "has", "had", "having",
                               "he", "she", "him", "her", "hers", "his", "them", "theirs", "our", "ours",
                               "yours", "would", "could", "should", "might", "shall", "these", "those",
                               "im", "ive", "id", "youre", "theyre", "hes", "shes", "thats", "theres",
                               "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont",
                               "cant", "cannot", "couldnt", "shouldnt", "wouldnt"})
# whoosh's default token pattern, its group made non-capturing so findall gives words
TOKEN = re.compile(r"\w+(?:\.?\w+)*")
# The irregular forms of the verbs rulings and players use, each with its plain form:
# a suffix stemmer cannot see that "stole" and "stolen" are "steal", or "drew" "draw",
# so "who gets a stolen keeper" missed the rulings on stealing; nor that "goes" is
# "go" (Porter2 gives "goe"). "Left" stays (as often the side of the table as the past
# of "leave"), and so does "gone" (a card gone has left play; table talk says so).
IRREGULAR = {form: base for base, forms in {
    "steal": "stole stolen", "take": "took taken", "give": "gave given", "draw": "drew drawn",
    "win": "won", "lose": "lost", "run": "ran", "come": "came", "go": "went goes",
    "throw": "threw thrown", "deal": "dealt", "pay": "paid", "hold": "held", "keep": "kept",
    "choose": "chose chosen", "make": "made", "say": "said", "tell": "told", "hide": "hid hidden",
    "stick": "stuck", "break": "broke broken", "shoot": "shot", "begin": "began begun",
    "forget": "forgot forgotten", "see": "saw seen", "know": "knew known", "wear": "wore worn",
    "sit": "sat", "send": "sent", "spend": "spent", "meet": "met", "write": "wrote written",
    "dig": "dug", "lay": "laid", "undo": "undid undone", "redraw": "redrew redrawn",
    "withdraw": "withdrew withdrawn", "override": "overrode overridden", "forbid": "forbade forbidden",
    "bring": "brought", "buy": "bought", "catch": "caught", "think": "thought", "fight": "fought",
    "fall": "fell fallen", "lead": "led", "find": "found", "feel": "felt", "feed": "fed",
    "mean": "meant", "stand": "stood", "understand": "understood", "strike": "struck",
    "swing": "swung", "sweep": "swept", "sell": "sold", "slide": "slid", "tear": "tore torn",
    "teach": "taught", "wake": "woke woken", "build": "built", "blow": "blew blown",
    "freeze": "froze frozen", "hang": "hung", "rise": "rose risen", "ride": "rode ridden",
    "shake": "shook shaken", "bite": "bit bitten", "fly": "flew flown", "grow": "grew grown",
    "sink": "sank sunk", "spin": "spun", "mistake": "mistook mistaken", "overtake": "overtook overtaken",
}.items() for form in forms.split()}
_SNOWBALL = EnglishStemmer().stem


def stem_word(word: str) -> str:
    """A lower-case word's stem: its plain form's (IRREGULAR), by the Snowball English
    stemmer (Porter2). Module-level, as whoosh pickles the analyser with the index."""
    return _SNOWBALL(IRREGULAR.get(word, word))


# The Snowball English stemmer (Porter2) rather than whoosh's default Porter: players'
# inflections meet the rulings' ("stopped" and "stop", "winning" and "win", "using"
# and "use", "tied" and "tie"), and short words keep their form ("has", "his", "this")
ANALYZER = StemmingAnalyzer(expression=TOKEN, stoplist=STOP, minsize=1, stemfn=stem_word)
WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*")
NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9", "ten": "10", "zero": "0"}


def _chain():
    """ANALYZER's stop words, size bounds and stemmer, read from its own filters so the
    fast path cannot drift from it (tests/test_search_index_writer.py compares the two)."""
    from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StopFilter

    tok, low, stop, stem_filter = ANALYZER.items
    if not ((type(tok), type(low), type(stop), type(stem_filter)) == (
            RegexTokenizer, LowercaseFilter, StopFilter, StemFilter) and tok.expression is TOKEN
            and not tok.gaps and stop.renumber and stem_filter.lang is None):
        raise RuntimeError("lexicon.ANALYZER changed: update lexicon.analyse to match it")
    return stop.stops, stop.min, stop.max, stem_filter.stemfn, stem_filter.ignore


_STOPS, _MIN, _MAX, _STEMFN, _NO_STEM = _chain()


@functools.lru_cache(maxsize=100_000)
def _indexed_as(token: str) -> str | None:
    """One token as ANALYZER indexes it (lower-cased, stemmed), or None when it is
    dropped (a stop word, or outside the size bounds)."""
    w = token.lower()
    if len(w) < _MIN or (_MAX is not None and len(w) > _MAX) or w in _STOPS:
        return None
    return w if w in _NO_STEM else _STEMFN(w)


@functools.lru_cache(maxsize=100_000)
def _stretch(chunk: str) -> tuple[str | None, ...]:
    """_indexed_as for each token of a stretch of text without white space."""
    return tuple(map(_indexed_as, TOKEN.findall(chunk)))


def analyse(text: str) -> tuple[int, list[str]]:
    """(position of the first kept word, the kept words' stems) for `text`, exactly as
    ANALYZER numbers them: the first word kept keeps its place among all the words,
    and each later one follows it by one (whoosh's StopFilter renumbers).

    A token (word characters and inner dots) never holds white space, so the text's
    tokens are those of its white-space-separated stretches in turn; stretches repeat
    ("card,", "turn."), and each is tokenised once: the regular expression over the
    whole text was most of the cost."""
    forms = list(chain.from_iterable(map(_stretch, text.split())))
    kept = [f for f in forms if f is not None]
    if not kept or forms[0] is not None:
        return 0, kept
    return forms.index(kept[0]), kept


def stems(text: str) -> list[str]:
    """The stems ANALYZER gives `text` (stop words dropped)."""
    return analyse(text)[1]


@functools.lru_cache(maxsize=20000)
def stem(word: str) -> str:
    toks = stems(word)
    return toks[0] if toks else ""


@functools.lru_cache(maxsize=50_000)
def norm(text: str) -> str:
    """A name's normal form (the engine's, so names match the catalogue's); card names
    repeat across thousands of rulings, so each is worked out once."""
    try:
        from adjudicator.names import normalize
    except Exception:  # pragma: no cover - the engine package mid-edit
        text = text.replace("\u2019", "'").lower().replace("&", " and ").replace("'", "")
        return " ".join(re.split(r"[^a-z0-9]+", text)).strip()
    return normalize(text)


card_key = norm


def numbers(words: list[str]) -> list[str]:
    return [NUMBER_WORDS.get(w, w) for w in words]


# --------------------------------------------------------------------------- table talk

SECTIONS = ("words", "phrases", "shorthand", "topic_words")


@dataclass(frozen=True)
class Vocabulary:
    words: dict[str, str]
    phrases: dict[str, str]
    shorthand: dict[str, str]
    topic_words: dict[str, str]
    filler: frozenset[str] = frozenset()   # words that say nothing about the situation

    def expansions(self, words: list[str]) -> tuple[str, str]:
        """Rulings' words for the table talk in `words`: (from phrases, from single
        words), leaving out words already typed."""
        have = set(words)
        joined = " " + " ".join(w.replace("\u2019", "'") for w in words) + " "
        from_phrases: list[str] = []
        for phrase, exp in self.phrases.items():
            if f" {phrase} " in joined:
                from_phrases.extend(exp.split())
        from_words: list[str] = []
        for w in words:
            from_words.extend(self.words.get(w, "").split())
        p = [w for w in dict.fromkeys(from_phrases) if w not in have]
        return " ".join(p), " ".join(w for w in dict.fromkeys(from_words) if w not in have and w not in p)

    def talk(self, words: list[str]) -> list[tuple[str, bool]]:
        """(the rulings' words, from a phrase?) for each table-talk entry met in `words`:
        every phrase standing in them, then every word with an entry of its own."""
        joined = " " + " ".join(w.replace("\u2019", "'") for w in words) + " "
        found = [(exp, True) for phrase, exp in self.phrases.items() if f" {phrase} " in joined]
        return found + [(self.words[w], False) for w in dict.fromkeys(words) if w in self.words]

    def to_json(self) -> dict[str, Any]:
        return {"words": self.words, "phrases": self.phrases, "shorthand": self.shorthand,
                "topic_words": self.topic_words, "filler": sorted(self.filler)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Vocabulary":
        return cls(**{k: dict(data[k]) for k in SECTIONS}, filler=frozenset(data.get("filler", ())))


class VocabularyError(corpus_mod.CorpusError):
    """rulings/vocabulary.yaml is broken; the message says where."""


def parse_vocabulary(text: str, name: str = "vocabulary.yaml") -> Vocabulary:
    import yaml  # only here: a process searching a built index takes the vocabulary from it

    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506
    except yaml.YAMLError as exc:
        raise VocabularyError(f"{name}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise VocabularyError(f"{name}: must hold a mapping with {', '.join(SECTIONS)}, filler")
    parts = {}
    for section in SECTIONS:
        table = data.get(section) or {}
        if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in table.items()):
            raise VocabularyError(f"{name}: {section} must map text to text (quote words such as yes, no, on)")
        parts[section] = {k.lower().strip(): v.strip() for k, v in table.items()}
    for n, group in enumerate(data.get("same") or (), 1):
        members = [m.strip().lower() for m in group.split(",")] if isinstance(group, str) else []
        if len([m for m in members if m]) < 2:
            raise VocabularyError(f"{name}: same, group {n}: list two or more ways of saying one thing, "
                                  f"separated by commas (\"at once, immediately\"), not {group!r}")
        for m in members:  # each way of saying it stands for all the others
            others = " ".join(o for o in members if o != m)
            table = parts["phrases"] if " " in m else parts["words"]
            table[m] = f"{table.get(m, '')} {others}".strip()
    filler = data.get("filler") or ""
    if not isinstance(filler, str):
        raise VocabularyError(f"{name}: filler must be text, words separated by spaces")
    unknown = sorted(set(data) - set(parts) - {"filler", "same"})
    if unknown:
        raise VocabularyError(f"{name}: unknown section(s) {', '.join(map(str, unknown))}")
    return Vocabulary(**parts, filler=frozenset(filler.lower().split()))


@functools.lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    entry = resources.files("rulings") / "vocabulary.yaml"
    return parse_vocabulary(entry.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- card names

class CardLexicon:
    """Recognises card names and aliases in free text (longest match first).

    A phrase maps to the facet keys it stands for: itself, the catalogue card it is an
    alias of, and the card it is an analogue of when a reference ruling lists analogues
    (a ruling whose id ends in "-analogues": its first card is the generic name and the
    others are other editions' versions of it, e.g. Wormhole for Mystery Play).
    """

    def __init__(self) -> None:
        self.phrases: dict[tuple[str, ...], set[str]] = {}
        self.display: dict[str, str] = {}
        self.max_len = 1

    def add(self, phrase: str, *keys_of: str, own_key: bool = True) -> None:
        words = numbers(norm(phrase).split())
        if not words:
            return
        keys = {card_key(k) for k in ((phrase,) if own_key else ()) + keys_of if card_key(k)}
        for k, name in zip([card_key(phrase), *map(card_key, keys_of)], [phrase, *keys_of]):
            self.display.setdefault(k, name)
        variants = {tuple(words)}
        trimmed = [w for w in words if w not in ("of", "them", "the", "a", "an")]
        if len(trimmed) >= 2 and trimmed != words:
            variants.add(tuple(trimmed))
        for v in variants:
            self.phrases.setdefault(v, set()).update(keys)
            self.max_len = max(self.max_len, len(v))

    def find(self, text: str) -> list[tuple[str, set[str]]]:
        """(matched phrase, facet keys) for each card name in `text`, longest first."""
        return [(phrase, keys) for _, _, phrase, keys in self.spans(norm(text).split())]

    def spans(self, words: list[str]) -> list[tuple[int, int, str, set[str]]]:
        """(start, end, phrase, facet keys) for card names in a list of words, the
        longest first at each place; a name's last word may be in the plural."""
        words = numbers([norm(w) for w in words])
        out, i = [], 0
        while i < len(words):
            for n in range(min(self.max_len, len(words) - i), 0, -1):
                keys = self.phrases.get(tuple(words[i:i + n])) or self._plural(words[i:i + n])
                if keys:
                    out.append((i, i + n, " ".join(words[i:i + n]), set(keys)))
                    i += n
                    break
            else:
                i += 1
        return out

    def _plural(self, words: list[str]) -> set[str] | None:
        """The keys of a name whose last word is written in the plural ("two
        malfunctions", "hand limits", the engineer's -> engineers)."""
        last = words[-1]
        if len(last) < 4 or not last.endswith("s"):
            return None
        for single in (last[:-1], last[:-2] if last.endswith("es") else None):
            keys = single and self.phrases.get((*words[:-1], single))
            if keys:
                return keys
        return None

    def names(self) -> list[str]:
        """Every phrase it recognises, as words (for spelling suggestions)."""
        return sorted(" ".join(p) for p in self.phrases)

    def other_names(self) -> dict[str, list[str]]:
        """facet key -> the other names (aliases, analogues) that reach it."""
        table: dict[str, list[str]] = {}
        for words, keys in self.phrases.items():
            phrase = " ".join(words)
            for k in keys:
                if k != phrase:
                    shown = self.display.get(phrase, phrase)
                    table.setdefault(k, [])
                    if shown not in table[k]:
                        table[k].append(shown)
        return table

    def to_json(self) -> dict[str, Any]:
        return {"phrases": [[list(k), sorted(v)] for k, v in sorted(self.phrases.items())],
                "display": self.display, "max_len": self.max_len}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "CardLexicon":
        lex = cls()
        lex.phrases = {tuple(k): set(v) for k, v in data["phrases"]}
        lex.display = dict(data["display"])
        lex.max_len = int(data["max_len"])
        return lex

    def digest(self) -> str:
        items = sorted((" ".join(k), sorted(v)) for k, v in self.phrases.items())
        return hashlib.sha256(json.dumps(items).encode()).hexdigest()


STAND_IN = "(stand-in)"   # a ruling's card standing for every card of a kind (Danger, Ungoal)


def build_lexicon(rulings: Iterable[corpus_mod.Ruling], catalogue) -> CardLexicon:
    lex = CardLexicon()
    rulings = list(rulings)
    ruling_keys = {card_key(c) for c in {c for r in rulings for c in (*r.cards, *r.cards_as_written)}}
    # adding a name again changes nothing, so each is added (and resolved) once
    resolved_as: dict[str, str] = {}
    added: set[str] = set()
    for r in rulings:
        for written in r.cards_as_written:
            if written not in resolved_as:
                resolved = resolved_as[written] = corpus_mod.resolve_cards([written], catalogue)[0]
                lex.add(written, resolved) if resolved != written else lex.add(written)
        for c in r.cards:
            if c not in added:
                added.add(c)
                lex.add(c)
                if c.endswith(STAND_IN):  # "Ungoal (stand-in)" stands for any Ungoal: "ungoal" names it
                    lex.add(c[:-len(STAND_IN)].strip(), c, own_key=False)
        if r.id.endswith("-analogues") and r.cards:
            generic = r.cards[0]
            for other in r.cards[1:]:
                lex.add(other, generic)
    for short, name in vocabulary().shorthand.items():
        if lex.find(name):
            lex.add(short, name, own_key=False)
    if catalogue is not None:
        try:
            for alias, name in catalogue.aliases().items():
                lex.add(alias, name)
            for name in catalogue.names():
                # single plain words (Time, Love, Milk) are only cards when a ruling says so
                if len(norm(name).split()) > 1 or card_key(name) in ruling_keys:
                    lex.add(name)
        except Exception as exc:  # a catalogue mid-edit: names from the rulings only
            corpus_mod.log_problem(f"card names from the catalogue left out of search: {exc}")
    return lex


@functools.lru_cache(maxsize=1)
def catalogue():
    """The engine's card catalogue, or None; looked up once per process (a broken card
    file must not cost a failed load on every query)."""
    return corpus_mod._catalogue()


@functools.lru_cache(maxsize=1)
def builtin_lexicon() -> CardLexicon:
    return build_lexicon(corpus_mod.load_corpus(), catalogue())


def recognise_cards(text: str, as_names: bool = True) -> list[str]:
    """Card names (display form) or facet keys mentioned in `text`."""
    lex = builtin_lexicon()
    keys: list[str] = []
    for _, ks in lex.find(text):
        for k in sorted(ks):
            if k not in keys:
                keys.append(k)
    return [lex.display.get(k, k) for k in keys] if as_names else keys


# a card's type -> the topic of the rulings about cards of that type
TYPE_TOPICS = {"action": "action", "rule": "new-rule", "keeper": "keeper", "goal": "goal",
               "surprise": "surprise", "creeper": "creeper", "danger": "danger",
               "meta_rule": "meta-rule", "secret": "secret", "ungoal": "ungoal"}


def implied_topics(card_names: Iterable[str]) -> set[str]:
    """Topics a card brings with it through its type and what its mechanic declares
    (the metadata the interaction graph is built from): Time Portal ends the turn,
    That's Mine is a Surprise, Play 3 a New Rule, and so on."""
    cat = catalogue()
    if cat is None:
        return set()
    topics: set[str] = set()
    for name in card_names:
        card = cat.find(name)
        if card is None:
            continue
        impl = card.impl
        if impl.ends_turn:
            topics.add("turn-end")
        if impl.free_action:
            topics.add("free-action")
        if card.mechanic == "temp_hand":
            topics.add("temporary-hand")
        if card.type in TYPE_TOPICS:  # Draw 3, Play 2 is an Action: rulings on Actions concern it
            topics.add(TYPE_TOPICS[card.type])
    return topics


def forget() -> None:
    builtin_lexicon.cache_clear()
    catalogue.cache_clear()
    vocabulary.cache_clear()
