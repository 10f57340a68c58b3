"""fluxx-judge's rulings package: the paraphrased official rulings, their search, and import.

`rulings.corpus` loads and checks the built-in records, `rulings.search` indexes them
(with whoosh) for ranked, faceted search, `rulings.ingest` turns a user's own FAQ or
rulebook text into searchable imported records, and `rulings.cli` adds the `search`,
`ruling`, `rulings` and `ingest` subcommands to the `fluxx-judge` command.
"""

from adjudicator import citations
from rulings.corpus import Ruling, get, load_corpus, one_line, scenarios_citing


class _Corpus:
    """The built-in and imported rulings, as the engine asks for them."""

    def one_line(self, ruling_id: str) -> str:
        return one_line(ruling_id)

    def known_ids(self) -> set[str]:
        from rulings.corpus import imported_rulings

        return set(load_corpus(strict=False).ids()) | {r.id for r in imported_rulings()}

    def suggest(self, ruling_id: str, ids: list[str]) -> list[str]:
        from rulings.corpus import suggest_ids

        return suggest_ids(ruling_id, ids)


citations.register(_Corpus())

__all__ = ["Ruling", "get", "load_corpus", "one_line", "scenarios_citing"]
