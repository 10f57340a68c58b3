"""Events that pause at a decision and go on from there when it is answered.

The engine carries out each event inside a continuation (a greenlet): when the rules
need a choice that no answer given so far makes, `Engine.choose` hands the decision
back to the caller and the event stops where it stands, its stack intact. The answer
goes back in at that very line, so an event with seven decisions is carried out once,
not seven times.

A paused event keeps a reference to its engine, and its engine to it (the pending
decision), and the garbage collector cannot see into a paused stack; so the pool keeps
the newest `LIMIT` paused events and retires older ones (their stacks unwound, the
engine left exactly as it was). An answer to a retired decision is still right: the
engine then carries the event out again from its snapshot with every answer so far.

>>> run = Continuation(lambda x: x + Pause.wait("how many more?"))
>>> run.start(1)
Pause('how many more?')
>>> run.resume(2)
3
>>> run.done
True
"""

from __future__ import annotations

import weakref
from collections import deque
from typing import Any, Callable

from greenlet import GreenletExit, getcurrent, greenlet

LIMIT = 64                       # paused events kept at once; older ones are retired

_paused: deque[weakref.ref[greenlet]] = deque()


class Pause:
    """What a paused continuation hands back: the question it waits on."""

    __slots__ = ("question",)

    def __init__(self, question: Any):
        self.question = question

    def __repr__(self) -> str:
        return f"Pause({self.question!r})"

    @staticmethod
    def wait(question: Any) -> Any:
        """Pause the running continuation with `question`; returns what `resume` gives.
        Raises `Retired` (a GreenletExit) when the pool retires it instead."""
        here = getcurrent()
        assert isinstance(here, _Runner) and here.parent is not None
        return here.parent.switch(Pause(question))


Retired = GreenletExit


class _Runner(greenlet):
    """A greenlet the pool can tell from any other."""


class Continuation:
    """One event's run: `start` it; it returns a `Pause` or the function's result (or
    raises what the function raised); `resume` a paused one with an answer."""

    __slots__ = ("_glet",)

    def __init__(self, fn: Callable[..., Any]):
        self._glet = _Runner(fn)

    @property
    def done(self) -> bool:
        return self._glet.dead

    @property
    def paused(self) -> bool:
        return bool(self._glet) and not self._glet.dead

    def here(self) -> bool:
        """Whether the code running now is this run's own."""
        return getcurrent() is self._glet

    def start(self, *args: Any) -> Any:
        return self._switch(*args)

    def resume(self, value: Any = None) -> Any:
        assert self.paused
        return self._switch(value)

    def retire(self) -> None:
        """Unwind a paused run (its `finally` blocks run; the function must leave no
        trace of it, see `Engine._carry_out`)."""
        if self.paused:
            self._glet.parent = getcurrent()
            self._glet.throw(Retired)

    def _switch(self, *args: Any) -> Any:
        self._glet.parent = getcurrent()
        out = self._glet.switch(*args)
        if isinstance(out, Pause):
            _keep(self._glet)
        return out


def _keep(glet: greenlet) -> None:
    """Count a newly paused run; retire the oldest beyond LIMIT."""
    live = [r for r in _paused if (g := r()) is not None and not g.dead]   # runs that ended by themselves go
    live.append(weakref.ref(glet))
    _paused.clear()
    _paused.extend(live)
    while len(_paused) > LIMIT:
        old = _paused.popleft()()
        if old is not None and not old.dead:
            old.parent = getcurrent()
            old.throw(Retired)
