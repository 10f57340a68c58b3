"""Events that pause at a decision and go on from there when it is answered.

The engine carries out each event inside a continuation (a greenlet): when the rules
need a choice that no answer given so far makes, `Engine.choose` hands the decision
back to the caller and the event stops where it stands, its stack intact. The answer
goes back in at that very line, so an event with seven decisions is carried out once,
not seven times.

A paused event keeps a reference to its engine, and its engine to it (the pending
decision), and the garbage collector cannot see into a paused stack; so each thread's
pool keeps its newest `LIMIT` paused events and retires older ones (their stacks
unwound). A paused event whose continuation nobody keeps any more is collected and
unwound the same way, since no frame of a paused stack names its own runner. An answer to a retired decision is still right: the engine then carries the
event out again from its snapshot with every answer so far. A run belongs to the
thread that started it (a greenlet cannot switch across threads): answered from
another thread, the event is carried out again there in the same way.

Runs are carried out by runners (`_Runner`, a greenlet each) that go on to the next
run once theirs has ended: starting a greenlet costs about ten times what switching
to a waiting one does, and most events end without a decision.

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
        self.paused: deque[weakref.ref[Continuation]] = deque()
        self.idle: list[_Runner] = []       # runners whose run has ended, waiting for the next


_pool = _Pool()
IDLE = 4                         # idle runners kept in each thread


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
        parent = getcurrent().parent
        assert isinstance(getcurrent(), _Runner) and parent is not None
        try:
            # (no local names the runner itself: a paused frame that did would keep its
            # greenlet alive once its continuation is dropped, beyond the collector's reach)
            return parent.switch(Pause(question))
        except Retired:
            getcurrent().retiring = True  # (collected without `_retire`: the same)
            raise


Retired = GreenletExit


def retiring() -> bool:
    """Whether the code running now is a retired run unwinding (see the module's
    docstring): `finally` blocks leave the engine's state alone then."""
    return getattr(getcurrent(), "retiring", False)


class _Runner(greenlet):
    """A greenlet that carries out runs one after another (starting a greenlet costs
    ten times what switching to a waiting one does): a run that ends, returning or
    raising, hands back its outcome and the runner waits for the next run; one that
    pauses keeps its runner until it ends, or is retired, and then the runner ends too."""

    retiring = False

    def __init__(self) -> None:
        super().__init__(_serve)


class _Ended:
    """What a runner hands back when its run has ended: its result, or what it raised."""

    __slots__ = ("value", "error")

    def __init__(self, value: Any, error: BaseException | None):
        self.value, self.error = value, error


def _serve(job: list[Any]) -> Any:
    """A runner's life: carry out each run it is given, [function, arguments], a list
    it empties (the first one stays referenced by the greenlet's start for as long as
    the runner lives: emptied, it holds nothing of that run)."""
    while True:
        fn, args = job
        job.clear()
        try:
            ended = _Ended(fn(*args), None)
        except GreenletExit:
            raise                       # retired or collected: the runner ends with its run
        except BaseException as error:  # (handed to whoever started or resumed the run)
            ended = _Ended(None, error)
        del fn, args                    # an idle runner holds on to nothing of its last run
        if getcurrent().retiring:       # a retired run that ended quietly: so does its runner
            return ended
        job = getcurrent().parent.switch(ended)


class Continuation:
    """One event's run: `start` it; it returns a `Pause` or the function's result (or
    raises what the function raised); `resume` a paused one with an answer."""

    __slots__ = ("_fn", "_glet", "_thread_id", "_started", "__weakref__")

    def __init__(self, fn: Callable[..., Any]):
        self._fn: Callable[..., Any] | None = fn
        self._glet: _Runner | None = None     # the runner while the run is under way or paused
        self._thread_id = threading.get_ident()
        self._started = False

    @property
    def done(self) -> bool:
        return self._started and self._glet is None

    @property
    def paused(self) -> bool:
        return self._glet is not None

    def resumable(self) -> bool:
        """Paused, and in this thread (a run cannot go on in another one)."""
        return self._glet is not None and self._thread_id == threading.get_ident()

    def here(self) -> bool:
        """Whether the code running now is this run's own."""
        return self._glet is not None and getcurrent() is self._glet

    def start(self, *args: Any) -> Any:
        assert not self._started
        idle = _pool.idle
        glet = idle.pop() if idle else _Runner()
        self._glet, self._started = glet, True
        fn, self._fn = self._fn, None
        return self._switch(glet, [fn, args])

    def resume(self, value: Any = None) -> Any:
        glet = self._glet
        assert glet is not None
        return self._switch(glet, value)

    def retire(self) -> None:
        """Unwind a paused run of this thread (its `finally` blocks run, asking
        `retiring()`)."""
        if self.resumable():
            _retire(self)

    def _switch(self, glet: _Runner, value: Any) -> Any:
        glet.parent = getcurrent()
        out = glet.switch(value)
        if isinstance(out, Pause):
            _keep(self)
            return out
        self._glet = None               # the run has ended
        if not glet.dead:
            idle = _pool.idle
            if len(idle) < IDLE:
                idle.append(glet)
        if isinstance(out, _Ended):
            value, error = out.value, out.error
            out.value = out.error = None     # (the idle runner still holds the box, emptied)
            if error is not None:
                raise error
            return value
        return out                      # (the run raised GreenletExit: the value it ended with)


def _retire(run: Continuation) -> None:
    glet = run._glet
    assert glet is not None
    run._glet = None
    glet.retiring = True
    glet.parent = getcurrent()
    glet.throw(Retired)


def _keep(run: Continuation) -> None:
    """Count a newly paused run of this thread; retire the oldest beyond LIMIT."""
    paused = _pool.paused
    paused.append(weakref.ref(run))
    if len(paused) <= LIMIT:
        return
    live = [r for r in paused if (c := r()) is not None and c.paused]   # runs that ended by themselves go
    paused.clear()
    paused.extend(live)
    while len(paused) > LIMIT:
        old = paused.popleft()()
        if old is not None and old.resumable():
            _retire(old)
