"""fluxx-judge's rulings package: the paraphrased official rulings, their search, and import.

`rulings.corpus` loads and checks the built-in records, `rulings.search` indexes them
(with whoosh) for ranked, faceted search, `rulings.ingest` turns a user's own FAQ or
rulebook text into searchable imported records, and `rulings.cli` adds the `search`,
`ruling`, `rulings` and `ingest` subcommands to the `fluxx-judge` command.
"""

from rulings.corpus import Ruling, get, load_corpus, one_line, scenarios_citing

__all__ = ["Ruling", "get", "load_corpus", "one_line", "scenarios_citing"]
