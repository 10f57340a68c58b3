"""fluxx-judge's reference engine: a Fluxx rules engine that replays disputed plays.

The public entry points are `adjudicator.catalogue.default_catalogue()` (the cards),
`adjudicator.scenario.load_scenario()` (a scenario file), and
`adjudicator.replay.replay()` (play it through the engine and judge it).
"""

__version__ = "0.1.0"
