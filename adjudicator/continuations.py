"""Events that pause at a decision and go on from there when it is answered.

The engine carries out each event inside a continuation (a greenlet): when the rules
need a choice that no answer given so far makes, `Engine.choose` hands the decision
back to the caller and the event stops where it stands, its stack intact. The answer
goes back in at that very line, so an event with seven decisions is carried out once,
not seven times.

A paused event keeps a reference to its engine, and its engine to it (the pending
decision), and the garbage collector cannot see into a paused stack; so each thread's
pool keeps its newest `LIMIT` paused events and retires older ones (their stacks
unwound). An answer to a retired decision is still right: the engine then carries the
event out again from its snapshot with every answer so far. A run belongs to the
thread that started it (a greenlet cannot switch across threads): answered from
another thread, the event is carried out again there in the same way.

A retired stack unwinds by `Retired` (GreenletExit), possibly later and in its own
thread; code that cleans up engine state in a `finally` block asks `retiring()` first
and leaves the engine alone then, since that run is gone.

>>> run = Continuation(lambda x: x + Pause.wait("how many more?"))
>>> run.start(1)
Pause('how many more?')
>>> run.resume(2)
3
>>> run.done
True
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from typing import Any, Callable

from greenlet import GreenletExit, getcurrent, greenlet

LIMIT = 64                       # paused events kept at once in each thread; older ones are retired


class _Pool(threading.local):
    def __init__(self) -> None:
        self.paused: deque[weakref.ref[greenlet]] = deque()


_pool = _Pool()


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
        Raises `Retired` (a GreenletExit) when it is retired instead, or collected."""
        here = getcurrent()
        assert isinstance(here, _Runner) and here.parent is not None
        try:
            return here.parent.switch(Pause(question))
        except Retired:
            here.retiring = True          # (collected without `_retire`: the same)
            raise


Retired = GreenletExit


def retiring() -> bool:
    """Whether the code running now is a retired run unwinding (see the module's
    docstring): `finally` blocks leave the engine's state alone then."""
    return getattr(getcurrent(), "retiring", False)


class _Runner(greenlet):
    """A greenlet the pool can tell from any other."""

    retiring = False


class Continuation:
    """One event's run: `start` it; it returns a `Pause` or the function's result (or
    raises what the function raised); `resume` a paused one with an answer."""

    __slots__ = ("_glet", "_thread")

    def __init__(self, fn: Callable[..., Any]):
        self._glet = _Runner(fn)
        self._thread = threading.get_ident()

    @property
    def done(self) -> bool:
        return self._glet.dead

    @property
    def paused(self) -> bool:
        return bool(self._glet) and not self._glet.dead

    def resumable(self) -> bool:
        """Paused, and in this thread (a run cannot go on in another one)."""
        return self._thread == threading.get_ident() and self.paused

    def here(self) -> bool:
        """Whether the code running now is this run's own."""
        return getcurrent() is self._glet

    def start(self, *args: Any) -> Any:
        return self._switch(*args)

    def resume(self, value: Any = None) -> Any:
        assert self.paused
        return self._switch(value)

    def retire(self) -> None:
        """Unwind a paused run of this thread (its `finally` blocks run, asking
        `retiring()`)."""
        if self.resumable():
            _retire(self._glet)

    def _switch(self, *args: Any) -> Any:
        self._glet.parent = getcurrent()
        out = self._glet.switch(*args)
        if isinstance(out, Pause):
            _keep(self._glet)
        return out


def _retire(glet: greenlet) -> None:
    glet.retiring = True
    glet.parent = getcurrent()
    glet.throw(Retired)


def _keep(glet: greenlet) -> None:
    """Count a newly paused run of this thread; retire the oldest beyond LIMIT."""
    paused = _pool.paused
    paused.append(weakref.ref(glet))
    if len(paused) <= LIMIT:
        return
    live = [r for r in paused if (g := r()) is not None and not g.dead]   # runs that ended by themselves go
    paused.clear()
    paused.extend(live)
    while len(paused) > LIMIT:
        old = paused.popleft()()
        if old is not None and not old.dead:
            _retire(old)
