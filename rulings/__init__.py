"""fluxx-judge's rulings package: the paraphrased official rulings, their search, and import.

`rulings.corpus` loads and checks the built-in records, `rulings.search` indexes them
(with whoosh) for ranked, faceted search, `rulings.ingest` turns a user's own FAQ or
rulebook text into searchable imported records, and `rulings.cli` adds the `search`,
`ruling`, `rulings` and `ingest` subcommands to the `fluxx-judge` command.
"""

from typing import Any

from adjudicator import citations


class _Corpus:
    """The built-in and imported rulings, as the engine asks for them."""

    def one_line(self, ruling_id: str) -> str:
        from rulings.corpus import one_line

        return one_line(ruling_id)

    def excerpt(self, ruling_id: str, outcome: str) -> str:
        from rulings.corpus import excerpt

        return excerpt(ruling_id, outcome)

    def known_ids(self) -> set[str]:
        from rulings.corpus import citable_ids, imported_rulings

        return citable_ids() | {r.id for r in imported_rulings()}

    def knows(self, ruling_id: str) -> bool:
        from rulings.corpus import is_record_file

        # a built-in record's file is named by its id: most cited ids are found with one
        # look at the folder, without reading every record for aliases
        return is_record_file(ruling_id) or ruling_id in self.known_ids()

    def record_id(self, ruling_id: str) -> str:
        from rulings.corpus import record_id

        return record_id(ruling_id)

    def suggest(self, ruling_id: str, ids: list[str]) -> list[str]:
        from rulings.corpus import suggest_ids

        return suggest_ids(ruling_id, ids)


citations.register(_Corpus())

__all__ = ["Ruling", "get", "load_corpus", "one_line", "scenarios_citing"]


def __getattr__(name: str) -> Any:
    """`rulings.get` and the rest load the corpus module on first use, so that importing
    the package (as `fluxx-judge --help` does, for its subcommands) stays cheap."""
    if name in __all__:
        from rulings import corpus

        return getattr(corpus, name)
    raise AttributeError(f"module 'rulings' has no attribute {name!r}")
