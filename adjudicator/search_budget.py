"""The bounds of a search through the engine: CPU time, positions, a cancel flag, and a
guard for one engine step that never comes back.

`Budget` counts the positions a search makes and the CPU time of the thread it runs
in (`time.thread_time`: a loaded machine, or the app's other threads, do not eat into
it); `check()` raises `Cut` once a bound is reached or the caller cancelled, and the
search asks it at every expansion, at each option of a decision it enumerates and
around each engine step.

A check between steps cannot stop a step that runs forever (an engine loop on some
table), so while a step runs `StepGuard` watches the searching thread's CPU clock
from a thread of its own and, once the step has gone past the budget's deadline by
its grace, raises `StepOverrun` in the searching thread (the interpreter's
asynchronous exception, `PyThreadState_SetAsyncExc`). It is raised only while a step is
under way, and one still pending when the step ends by itself is withdrawn; the search
turns it into a time cut. Where it lands in code that cannot raise (a garbage
collector's callback, an object's finalizer: the interpreter reports it there and goes
on), the step goes on too, so while the same step is still under way
`REFIRE_SECONDS` of its CPU time later, it is raised again. The engine that was interrupted may
be left mid-step, so a search runs on an engine of its own (`adjudicator.analysis`).
"""

from __future__ import annotations

import ctypes
import functools
import math
import threading
import time
from typing import Callable

POLL_SECONDS = 0.02              # how often the guard reads the searching thread's clock
REFIRE_SECONDS = 0.2             # CPU time of a step still under way before an interruption is raised again


class Cut(Exception):
    """A bound of the search is reached: `why` is "time", "positions" or "cancelled"."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class StepOverrun(BaseException):
    """Raised inside an engine step that ran past the time bound (see `StepGuard`).
    A BaseException: no `except Exception` in the engine holds it up."""


def check_bounds(seconds: float, positions: int) -> str | None:
    """Why these bounds cannot bound a search, or None: both must be finite and above 0."""
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        return f"--seconds must be a finite number above 0 (not {seconds})"
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        return f"--positions must be a whole number of at least 1 (not {positions})"
    return None


class Budget:
    """What a search may still spend: positions, CPU seconds of this thread, and the
    caller's patience (`cancelled`, asked at every check)."""

    def __init__(self, seconds: float, positions: int, cancelled: Callable[[], bool] | None = None):
        problem = check_bounds(seconds, positions)
        if problem:
            raise ValueError(problem)
        self.clock = time.thread_time
        self.started = self.clock()
        self.seconds = seconds
        self.deadline = self.started + seconds
        self.limit = positions
        self.used = 0
        self.cancelled = cancelled
        self.cut = ""                    # the bound that stopped the search, once one has

    def check(self) -> None:
        """Raise `Cut` if the time is up or the caller cancelled."""
        if self.cancelled is not None and self.cancelled():
            self._stop("cancelled")
        if self.clock() > self.deadline:
            self._stop("time")

    def check_step(self) -> None:
        """`check`, and the position bound too: before an engine step (which, if the
        engine accepts it, the search counts in `used`)."""
        if self.used >= self.limit:
            self._stop("positions")
        self.check()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def _stop(self, why: str) -> None:
        self.cut = self.cut or why
        raise Cut(why)


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
_set_async_exc.restype = ctypes.c_int


class StepGuard:
    """Interrupts an engine step of the searching thread that runs `grace` CPU seconds
    past `budget.deadline` (or goes on after the caller cancelled). Use as a context
    manager around the whole search, and `arm()`/`disarm()` around each step."""

    def __init__(self, budget: Budget, grace: float):
        self.budget = budget
        self.grace = grace
        self.thread = threading.get_ident()
        # the searching thread's CPU clock, read from the guard's thread (where a system
        # has none to read, the process's, which runs at least as fast)
        clock_id = getattr(time, "pthread_getcpuclockid", None)
        self.read: Callable[[], float] = (
            time.process_time if clock_id is None else functools.partial(time.clock_gettime, clock_id(self.thread)))
        self.limit = budget.deadline + grace - budget.clock() + self.read()   # on the clock read here
        self.lock = threading.Lock()
        self.armed = False
        self.fired_at: float | None = None   # when it last raised, on `read`'s clock
        self.stop = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="analysis-step-guard", daemon=True)

    def __enter__(self) -> StepGuard:
        self.watcher.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.watcher.join()
        self._withdraw()

    def arm(self) -> None:
        with self.lock:
            self.armed = True

    def disarm(self) -> None:
        with self.lock:
            self.armed = False
        self._withdraw()

    def _withdraw(self) -> None:
        """Take back an interruption raised but not yet delivered (the step ended first)."""
        with self.lock:
            if self.fired_at is not None:
                _set_async_exc(self.thread, ctypes.py_object())   # NULL: clears what is pending

    def _watch(self) -> None:
        budget = self.budget
        while not self.stop.wait(POLL_SECONDS):
            now = self.read()
            late = now > self.limit
            quit_ = budget.cancelled is not None and budget.cancelled()
            if not (late or quit_):
                continue
            with self.lock:
                # (a step that took its interruption has ended and disarmed the guard: one
                # still armed so long after was not interrupted, the exception was lost)
                if self.armed and (self.fired_at is None or now - self.fired_at > REFIRE_SECONDS):
                    self.fired_at = now
                    budget.cut = budget.cut or ("time" if late else "cancelled")
                    _set_async_exc(self.thread, ctypes.py_object(StepOverrun))
