"""Keys typed ahead of a dialog, held until the dialog can take them.

A key that opens a dialog (n adds a player, a adds a card, Ctrl+W asks the question...)
does so through a message or a worker that the app handles after the key itself, and
Textual hands every later key to whatever has the focus when that key arrives. So a
quick "n Enter" gave the Enter to the seats list, not to the dialog on its way, and the
next "n" then replaced the proposed name: a player named "n".

`TypeAhead` holds the keys typed from the moment a key whose action opens a dialog is
pressed (an action the node defining the binding lists in its `DIALOG_ACTIONS`) until
a new screen has been mounted on top (its widget with the focus is then the one that
takes them), and hands them over in the order they were typed. An action that decides
not to open its dialog says so (`App.release_keys`); a dialog that never comes (a bug, a
slow worker) holds them at most `HOLD_LIMIT` seconds. Handing them over follows the same
rule: after a held key that may change the screen (any but a letter typed into a field:
Enter closing the dialog, say), the keys after it wait until the screen has changed, or
`SETTLE` seconds if it does not; and so do the keys typed after an Enter or an Esc in a
dialog ("ann hand", Enter, a: the a goes to the zone chosen, not to the closing dialog). Nothing typed is lost or reordered: held keys go
through the app's own handling, bindings included, as if typed then.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Awaitable, Callable

from textual import events
from textual.screen import ModalScreen
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual.timer import Timer

HOLD_LIMIT = 3.0        # seconds a dialog may take to come before the keys go where the focus is
SETTLE = 0.15           # seconds a held key handed over may take to change the screen
CLOSING = ("enter", "escape")     # keys that close a dialog: the keys after them wait for it to go
CHECK_EVERY = 0.02      # seconds between looks at the screen stack while holding


def opens_dialog(app: App, key: events.Key) -> bool:
    """Whether `key`, pressed now, runs an action that opens a dialog: an action listed in
    the `DIALOG_ACTIONS` of the node whose binding takes the key."""
    focused = app.focused
    if key.is_printable and isinstance(focused, Input):
        return False                     # typed into the field, no binding runs
    try:
        bindings = app.screen.active_bindings
    except Exception:
        return False
    for name in (key.key, *key.aliases):
        active = bindings.get(name)
        if active is not None and active.enabled:
            return active.binding.action in getattr(active.node, "DIALOG_ACTIONS", ())
    return False


class TypeAhead:
    """The app's keys held while a dialog is on its way (see the module's docstring).
    `handle` is the app's own handling of a key typed (Textual's `App.on_event`)."""

    def __init__(self, app: App, handle: Callable[[events.Key], Awaitable[None]]) -> None:
        self.app = app
        self.handle = handle
        self.held: list[events.Key] = []
        self.below: Screen | None = None         # the screen the dialog will open over
        self.since = 0.0
        self.limit = HOLD_LIMIT
        self.timer: Timer | None = None

    @property
    def holding(self) -> bool:
        return self.below is not None

    async def key(self, key: events.Key) -> bool:
        """Take a key typed (not yet handed to any widget). True: it is held for the dialog
        on its way; False: the app handles it now (and holds the keys after it if it opens
        a dialog)."""
        if self.holding or self.held:
            self.held.append(key)
            await self.check()
            return True
        if opens_dialog(self.app, key):
            self.start()
        elif key.key in CLOSING and isinstance(self.app.screen, ModalScreen):
            self.start(SETTLE)           # it may close the dialog: the keys after it go to what is under it
        return False

    def start(self, limit: float = HOLD_LIMIT) -> None:
        self.below = self.app.screen
        self.since = time.monotonic()
        self.limit = limit
        if self.timer is None:
            self.timer = self.app.set_interval(CHECK_EVERY, self.check, name="type-ahead")

    def _arrived(self) -> bool:
        """A new screen is on top, mounted, with its focus set (or nothing to focus)."""
        top = self.app.screen
        return top is not self.below and top.is_mounted and (top.focused is not None or not top.focus_chain)

    async def check(self) -> None:
        """Hand the held keys over once the dialog is there, or once it is too late."""
        if self.holding and (self._arrived() or time.monotonic() - self.since > self.limit):
            await self.release()

    async def release(self) -> None:
        """Stop holding: the held keys go, in order, where the focus now is. A held key
        that itself opens a dialog starts a new hold, which keeps the keys after it."""
        self.below = None
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        while self.held and not self.holding:
            key = self.held.pop(0)
            if opens_dialog(self.app, key):
                self.start()
            elif self.held and not (key.is_printable and isinstance(self.app.focused, Input)):
                self.start(SETTLE)          # it may close the dialog: the keys after it wait for that
            await self.handle(key)
