"""Mechanics: how cards behave, each written once and registered by name.

Importing the modules below registers every mechanic; `load_all()` makes sure that
has happened before a catalogue is checked against the registry.
"""

from adjudicator.mechanics.base import REGISTRY, Mechanic, Param, register

__all__ = ["REGISTRY", "Mechanic", "Param", "register", "load_all"]


def load_all() -> None:
    from adjudicator.mechanics import actions, faq, free_actions, goals, keepers, mystery, rules, star, surprises  # noqa: F401
    from adjudicator.mechanics import eco, pirate  # noqa: F401
