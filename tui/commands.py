"""Command palette providers: cards, rulings and library scenarios (Ctrl+P).

Each provider loads what it lists in a thread when the palette opens, so the palette
itself never waits on the catalogue, the corpus or the library.
"""

from __future__ import annotations

import asyncio
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class CardCommands(Provider):
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
                          partial(self.app.show_cards, card.name), help=card.effect)


class RulingCommands(Provider):
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
                yield Hit(score, matcher.highlight(text), partial(self.app.open_ruling, rid), help=summary)


class ScenarioCommands(Provider):
    """The built-in scenario library: opens one in Replay."""

    async def startup(self) -> None:
        from tui.app import library_scenarios

        try:
            self.scenarios = await asyncio.to_thread(library_scenarios)
        except Exception:
            self.scenarios = []

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for path, title in self.scenarios:
            text = f"scenario {title}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.app.open_scenario, path, "replay"),
                          help="open in Replay")

    async def discover(self) -> Hits:
        for path, title in self.scenarios[:5]:
            yield DiscoveryHit(f"scenario {title}", partial(self.app.open_scenario, path, "replay"),
                               help="open in Replay")
