"""The unsaved scenario kept when the app loses its terminal.

A terminal can go away under the app: its window closed, an ssh connection dropped,
tmux killed. The app is then told by a hangup (SIGHUP), by a request to stop (SIGTERM),
or not at all: where the process that started it (`make run`, for one) is the
terminal's session leader, no signal may reach the app, and Textual's input thread,
reading nothing but end-of-file from then on, turns without end at full speed while
the screen writer waits for a terminal that no longer takes output.

`TerminalWatch`, started by `tui.app.run_app`, answers all three: the signals, and,
when the app runs in a terminal, a watchdog thread that looks every second whether
the terminal is still one. Either way the scenario the user was making, if it has
changes that are not saved, is written to the rescue folder (`rescue_folder`) under a
new name, never over anything, and the process ends. The next start of the app says
which scenarios were kept there (`announce`), once each.

An app served to a browser (`fluxx-judge serve`, `tui.app.run_served_app`) has the
browser tab for a terminal: the server hangs up on it (SIGHUP) when the tab closes or
the server stops, and its watchdog looks whether the server is still its parent (a
server that was killed tells no one). Its work is kept in the folder of its own browser
(`served_folder`), and only that browser's next app tells of it: the desktop app reads
`rescue_folder()` itself, never its `served/` subfolders, and a served app only its own.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from adjudicator.userdirs import data_dir

SEEN = ".announced"          # names of the kept files the app has already told of


def rescue_folder() -> Path:
    """Where unsaved scenarios are kept when the terminal goes (in the user's data)."""
    return data_dir() / "rescued"


BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def served_folder(browser: str) -> Path:
    """Where the unsaved work of the apps served to one browser is kept (`browser`: its id,
    `BROWSER_ID`, given by `fluxx-judge serve`)."""
    if not BROWSER_ID.fullmatch(browser):
        raise ValueError(f"not a browser id: {browser!r}")
    return rescue_folder() / "served" / browser


def keep(session: Any, folder: Path | None = None) -> Path | None:
    """Write `session`'s scenario to a new file in the rescue folder if it has unsaved
    changes; the file written, or None (nothing unsaved, or it could not be written:
    there is no one left to tell)."""
    from adjudicator.atomic_io import write_new

    try:
        if not session.changed:
            return None
        text = session.scenario_text()
        base = os.path.splitext(os.path.basename(session.path))[0] if session.path else "new-scenario"
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-.")[:60] or "scenario"
        folder = folder or rescue_folder()
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%d-%H%M%S")
        # apps killed together (a terminal window closed with its tabs) take the same
        # stamp: each name is claimed atomically, and a taken one means the next
        for n in range(1, 1000):
            try:
                return write_new(folder / f"{base}-{stamp}{'' if n == 1 else f'-{n}'}.yaml", text)
            except FileExistsError:
                continue
    except Exception:
        return None
    return None


def announce(folder: Path | None = None) -> list[Path]:
    """The kept scenarios not told of yet (oldest first), now marked as told."""
    folder = folder or rescue_folder()
    try:
        kept = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    except OSError:
        return []
    seen_file = folder / SEEN
    try:
        seen = set(seen_file.read_text(encoding="utf-8").splitlines())
    except OSError:
        seen = set()
    new = [p for p in kept if p.name not in seen]
    if new:
        from adjudicator.atomic_io import write_atomic

        try:
            # only the names still there are kept in the list
            write_atomic(seen_file, "".join(f"{p.name}\n" for p in kept))
        except OSError:
            pass
    return new


def terminal_alive(fd: int) -> bool:
    """Whether `fd` is still a terminal (after a hangup it no longer is)."""
    try:
        return os.isatty(fd)
    except (OSError, ValueError):
        return False


class TerminalWatch:
    """Keep the unsaved scenario and end the process when the terminal goes.

    `session` gives the app's current session when asked. `exit` ends the process
    (`os._exit`: the app's own threads may be stuck writing to the lost terminal, so
    nothing waits for them). `folder`: where to keep the work (default `rescue_folder()`).
    `alive`: what the watchdog asks instead of whether `fd` is still a terminal (a
    served app: whether the server is still there)."""

    INTERVAL = 1.0

    def __init__(self, session: Callable[[], Any], fd: int | None = None,
                 exit: Callable[[int], Any] = os._exit, folder: Path | None = None,
                 alive: Callable[[], bool] | None = None) -> None:
        self.session = session
        self.fd = sys.__stdin__.fileno() if fd is None and sys.__stdin__ is not None else fd
        self.exit = exit
        self.folder = folder
        self.alive = alive
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._previous: dict[int, Any] = {}
        self.kept: Path | None = None

    def start(self) -> "TerminalWatch":
        for sig in (signal.SIGHUP, signal.SIGTERM):
            self._previous[sig] = signal.signal(sig, self._on_signal)
        if self.alive is None and self.fd is not None and terminal_alive(self.fd):
            fd = self.fd
            self.alive = lambda: terminal_alive(fd)
        if self.alive is not None:
            threading.Thread(target=self._watch, name="terminal-watch", daemon=True).start()
        return self

    def stop(self) -> None:
        """The app ended by itself: stop watching and put the signals back."""
        self._stop.set()
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()

    def lost(self, code: int) -> None:
        """The terminal is gone: keep the scenario (once), then end with `code`."""
        with self._lock:
            if self._stop.is_set():
                return
            self._stop.set()
            try:
                self.kept = keep(self.session(), self.folder)
            finally:
                self.exit(code)

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.lost(128 + signum)

    def _watch(self) -> None:
        while not self._stop.wait(self.INTERVAL):
            if not self.alive():                     # type: ignore[misc]
                self.lost(129)                       # as a hangup would have
                return
