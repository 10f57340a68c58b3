"""An event the engine has begun and not finished: the table it started from, the
answers given so far, the decision it waits for, and its paused run.

The driver (`adjudicator.engine.Engine`) keeps one while a decision waits; a response
window remembers the play a Surprise answered while that play's effect was waiting
(`Window.resume`), so the play can go on if the Surprise is itself canceled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.continuations import Continuation
from adjudicator.decisions import Answer, Decision
from adjudicator.events import Event
from adjudicator.state import State


@dataclass
class Pending:
    event: Event
    snapshot: State
    answers: list[Answer] = field(default_factory=list)
    decision: Decision | None = None
    shown: int = 0                     # explanation entries already reported
    start_turn: int = 0
    resume: Pending | None = None      # for a Surprise answering a play mid-effect: that play, waiting
    live: LiveRun | None = field(default=None, compare=False, repr=False)   # the paused run, to go on from


@dataclass
class LiveRun:
    """A run paused at its decision: the continuation, the engine's run context at the
    pause, and the pending event it belongs to (a copy of that pending, as an analysis
    makes, carries the event out again instead)."""

    run: Continuation
    context: tuple[Any, ...]
    owner: Callable[[], Pending | None]      # a weak reference to it
