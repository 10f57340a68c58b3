"""The interaction graph as the app's screens use it: built once, in a worker, on first need.

`ask(name, *args)` calls `adjudicator.interactions.<name>(catalogue, *args)`, handing it
the shared full graph when the function accepts one, so that a query never rebuilds
the graph; `has(name)` tells whether the graph module offers that query yet.
"""

from __future__ import annotations

import functools
import inspect
import threading
from typing import Any

_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _full_graph() -> Any:
    from rulings.knowledge import full_graph as build

    from tui.position import catalogue

    return build(catalogue())


def full_graph() -> Any:
    with _lock:  # two screens asking at once build it once
        return _full_graph()


def has(name: str) -> bool:
    """Whether the graph module offers this query yet."""
    try:
        from adjudicator import interactions
    except Exception:
        return False
    return callable(getattr(interactions, name, None))


def ask(name: str, *args: Any, **kwargs: Any) -> Any:
    from adjudicator import interactions

    from tui.position import catalogue

    fn = getattr(interactions, name)
    try:
        takes_graph = "graph" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        takes_graph = False
    if takes_graph:
        graph = full_graph()
        if graph is not None:
            kwargs["graph"] = graph
    return fn(catalogue(), *args, **kwargs)


def relation_words() -> dict[str, str]:
    try:
        from adjudicator.interactions import RELATIONS

        return dict(RELATIONS) if isinstance(RELATIONS, dict) else {}
    except Exception:
        return {}
