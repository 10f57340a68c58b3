"""Command palette providers: cards, rulings, recent files and library scenarios (Ctrl+P).

Each provider loads what it lists in a thread when the palette opens, so the palette
itself never waits on the catalogue, the corpus or the library; and each scores what is
typed with `QuickFuzzySearch`, whose time stays bounded on long entries.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import FuzzySearch, Matcher
from textual.markup import escape


class QuickFuzzySearch(FuzzySearch):
    """Textual's fuzzy search with a bounded cost. Textual scores every way the typed
    letters can fall, in order, in an entry: a number that grows exponentially with the
    entry's length (over the rulings, whose questions run to 300 characters, "ruling play
    all" took 16 s and "card page wo" 11 s, with the palette frozen meanwhile). This one
    scores, with Textual's own scoring, one way per place where the first letter can
    start: from there each letter continues the run when it can, else goes to the nearest
    word start, else to its nearest occurrence, never so far that the rest of what was
    typed no longer fits. An entry matches exactly when Textual's would (the letters in
    order); a typed run found whole is scored as Textual scores it."""

    def _match(self, query: str, candidate: str) -> Iterable[tuple[float, Sequence[int]]]:
        if not self.case_sensitive:
            query, candidate = query.lower(), candidate.lower()
        if not query or query in candidate:
            yield from super()._match(query, candidate)
            return
        # the last place each letter can take with the rest still fitting after it
        latest = [0] * len(query)
        limit = len(candidate)
        for i in range(len(query) - 1, -1, -1):
            limit = candidate.rfind(query[i], 0, limit)
            if limit < 0:
                yield 0.0, ()
                return
            latest[i] = limit
        word_starts: dict[str, list[int]] = {}          # by letter, in order
        for w in sorted(self.get_first_letters(candidate)):
            word_starts.setdefault(candidate[w], []).append(w)
        start = candidate.find(query[0])
        while 0 <= start <= latest[0]:
            offsets = [start]
            for i in range(1, len(query)):
                letter, after = query[i], offsets[-1] + 1
                if candidate[after] == letter:            # after <= latest[i] always holds
                    offsets.append(after)
                    continue
                starts = word_starts.get(letter, [])
                k = bisect_left(starts, after)
                at = starts[k] if k < len(starts) and starts[k] <= latest[i] else candidate.find(letter, after)
                offsets.append(at)
            yield self.score(candidate, offsets), offsets
            start = candidate.find(query[0], start + 1)


class PlainMatcher(Matcher):
    """Textual's matcher, highlighting an entry as the plain text it is: Textual's reads it
    as markup, and an entry can be a user's own words (a recent file's question with
    `[/b]` in it broke the palette)."""

    def highlight(self, candidate: str) -> Content:
        content = Content(candidate)
        score, offsets = self.fuzzy_search.match(self.query, candidate)
        if not score:
            return content
        for offset in offsets:
            if not candidate[offset].isspace():
                content = content.stylize(self.match_style, offset, offset + 1)
        return content


class QuickProvider(Provider):
    """A palette provider whose matcher is a `QuickFuzzySearch` and whose entries are
    plain text, never markup."""

    def matcher(self, user_input: str, case_sensitive: bool = False) -> Matcher:
        matcher = PlainMatcher(user_input, match_style=self.match_style, case_sensitive=case_sensitive)
        matcher.fuzzy_search = QuickFuzzySearch(case_sensitive)
        return matcher


class CardCommands(QuickProvider):
    """Every card and alias: opens the Cards screen on it."""

    async def startup(self) -> None:
        from tui.position import card_labels

        try:
            self.cards = await asyncio.to_thread(card_labels)
        except Exception:
            self.cards = []

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, card in self.cards:
            score = matcher.match(f"card {label}")
            if score > 0:
                shown = label if label == card.name else f"{label} ({card.name})"
                yield Hit(score, matcher.highlight(f"card {shown}"),
                          partial(self.app.show_cards, card.name), help=escape(card.effect))


class RulingCommands(QuickProvider):
    """Every ruling, by id or question: opens it."""

    async def startup(self) -> None:
        def load() -> list[tuple[str, str, str]]:
            from rulings.corpus import load_corpus

            return [(r.id, f"ruling {r.id}: {r.title}", r.one_line()) for r in load_corpus()]

        try:
            self.rulings = await asyncio.to_thread(load)
        except Exception:
            self.rulings = []

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        wanted = query.strip().lower().removeprefix("ruling").strip()
        for rid, text, summary in self.rulings:
            score = matcher.match(text)
            if rid == wanted:
                score += 1000                 # the exact id comes first
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.app.open_ruling, rid), help=escape(summary))


class ScenarioCommands(QuickProvider):
    """The scenario files opened or saved lately (`tui.recent`), then the built-in
    library: opens one in Replay."""

    async def startup(self) -> None:
        from tui.app import library_scenarios

        def load_recent() -> list[tuple[str, str]]:
            from tui.recent import recent, recent_label

            return [(path, recent_label(path)) for path in recent()]

        try:
            self.recent = await asyncio.to_thread(load_recent)
        except Exception:
            self.recent = []
        try:
            self.scenarios = await asyncio.to_thread(library_scenarios)
        except Exception:
            self.scenarios = []

    def _entries(self) -> Iterable[tuple[str, str, str]]:
        for path, label in self.recent:
            yield path, f"recent {label}", "open in Replay (opened or saved lately)"
        for path, title in self.scenarios:
            yield path, f"scenario {title}", "open in Replay"

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for path, text, tip in self._entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.app.open_scenario, path, "replay"), help=escape(tip))

    async def discover(self) -> Hits:
        shown = [e for e in self._entries() if e[1].startswith("recent ")][:8]
        shown += [e for e in self._entries() if e[1].startswith("scenario ")][:5]
        for path, text, tip in shown:
            yield DiscoveryHit(Content(text), partial(self.app.open_scenario, path, "replay"), help=escape(tip),
                               text=text)
