"""Take the pictures of the served app (docs/img/serve-*.png), and time issue 27's three
disputes built on a phone.

    .venv/bin/python docs/make_serve_screenshot.py            # the pictures and the three disputes
    .venv/bin/python docs/make_serve_screenshot.py rulings    # the README's picture alone

Starts `fluxx-judge serve` on a free localhost port and opens it in Debian's headless
chromium (playwright, as tests/test_serve.py does) as a phone: 390x844 CSS pixels held
upright, 844x390 sideways, pixel density 2, a touch screen. `rulings` searches the
rulings sideways (docs/img/serve-phone.png). The disputes are built from a blank table
with taps (the top bar's Menu, Open and Save; the footer's keys; a zone) and the phone's
keyboard for names and words, never Ctrl or an F key; a swipe scrolls the zones. Each
prints how long it took from the first tap to the answer on the screen, and each answer
is saved upright and sideways.

Headless chromium's software WebGL draws xterm's WebGL renderer at twice its size on a
screen of pixel density 2, so WebGL is turned off here and xterm draws with its canvas
renderer, as a browser without WebGL does.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.serve_support import CATCH_TERMINAL, READ_SCREEN, chromium_path, serving  # noqa: E402

IMG = ROOT / "docs" / "img"
UPRIGHT = {"width": 390, "height": 844}     # a common phone (CSS pixels)
SIDEWAYS = {"width": 844, "height": 390}


class Phone:
    """One tab of the served app on a touch screen: read its terminal, tap words, type."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.touch = page.context.new_cdp_session(page)

    def screen(self) -> str:
        return self.page.evaluate(READ_SCREEN) or ""

    def wait_for(self, *texts: str, timeout: float = 60.0) -> str:
        end = time.monotonic() + timeout
        shown = ""
        while time.monotonic() < end:
            shown = self.screen()
            if all(t in shown for t in texts):
                return shown
            time.sleep(0.05)
        raise SystemExit(f"never saw {texts!r}; the phone showed:\n{shown}")

    def wait_gone(self, text: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while text in self.screen():
            if time.monotonic() > end:
                raise SystemExit(f"{text!r} stayed on the screen:\n{self.screen()}")
            time.sleep(0.05)

    def _cell(self, row: float, col: float) -> tuple[float, float]:
        box = self.page.locator(".xterm-screen").bounding_box()
        cols, rows = self.page.evaluate("() => [window.__fluxxTerminal.cols, window.__fluxxTerminal.rows]")
        return box["x"] + col * box["width"] / cols, box["y"] + (row + 0.5) * box["height"] / rows

    def find(self, words: str, last: bool = False) -> tuple[int, int] | None:
        rows = self.screen().splitlines()
        hits = [(y, line.index(words)) for y, line in enumerate(rows) if words in line]
        return (hits[-1] if last else hits[0]) if hits else None

    def tap(self, words: str, last: bool = False) -> None:
        """Tap the middle of the first (or `last`) place the screen shows `words`."""
        at = self.find(words, last)
        if at is None:
            raise SystemExit(f"no {words!r} to tap; the phone showed:\n{self.screen()}")
        self.page.touchscreen.tap(*self._cell(at[0], at[1] + len(words) / 2))

    def swipe_up(self, row: int, rows: int = 6) -> None:
        """A finger going up `rows` rows from `row`: the panel there scrolls down."""
        x, y = self._cell(row, 20)
        _, step = self._cell(1, 20)
        step -= self._cell(0, 20)[1]
        self.touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for i in range(1, rows + 1):
            self.touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - i * step}]})
        self.touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.settle()

    def settle(self) -> None:
        """Wait until the screen stops moving (a scroll is animated)."""
        before, end = None, time.monotonic() + 10
        while time.monotonic() < end:
            time.sleep(0.25)
            now = self.screen()
            if now == before:
                return
            before = now

    def tap_key(self, words: str, then: str, last: bool = True) -> None:
        """Tap `words` (the last place they show: a key in the footer) and wait for `then`.
        A tap in the instant a screen or the footer is redrawn can be lost (see
        docs/walkthrough.md): tapped again then, as a person would."""
        self.wait_for(words)
        for _ in range(3):
            self.tap(words, last=last)
            try:
                self.wait_for(then, timeout=1.5)
                return
            except SystemExit:
                continue
        self.wait_for(then)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def enter(self) -> None:
        self.page.keyboard.press("Enter")

    # -- what a dispute is built with
    def menu(self, entry: str) -> None:
        self.tap_key("Menu", "Tap or Enter: go", last=False)
        self.wait_for(entry)
        self.tap(entry, last=True)
        self.wait_gone("Tap or Enter: go")

    def new_table(self, players: int) -> None:
        self.menu("New scenario")
        self.wait_for("no players yet")
        for _ in range(players):
            self.tap_key("n Add", "Name of the new player")      # the footer's key, for the seats
            self.enter()                                  # the name proposed: Ann, Ben...
            self.wait_gone("Name of the new player")

    def cards(self, zone: str, *names: str) -> None:
        """Go to the zone (the menu's "Go to a zone", then its name), then add each card."""
        self.menu("Go to a zone...")
        self.wait_for("Type part of a name")
        self.type(zone.lower().replace("'s", ""))
        time.sleep(0.2)
        self.enter()
        self.wait_for(f"\u2501 {zone} ")                # its border is drawn heavy: it has the keyboard
        for name in names:
            typed, _, card = name.partition("=")         # what is typed = the card it must find
            self.tap_key("a Add card", "Type to search")
            self.type(typed)
            self.wait_for(card or typed, "Up/Down: pick")   # the picker has matched the last letter typed
            time.sleep(0.2)
            self.enter()
            self.wait_gone("Add a card to")

    def question(self, text: str, kind: str) -> None:
        self.menu("The question...")
        self.wait_for("The question in dispute")
        self.type(text)
        self.enter()
        self.wait_for("What does the question ask?")
        self.type(kind)
        time.sleep(0.2)
        self.enter()
        self.wait_gone("What does the question ask?")

    def add_event(self, words: str, narrow: str) -> None:
        self.tap_key("a Add event", "Add an event")
        self.wait_for(words)
        self.type(narrow)
        time.sleep(0.3)
        self.enter()
        self.wait_gone("Add an event")


def launch(pw: Any, exe: str) -> Any:
    return pw.chromium.launch(executable_path=exe, headless=True, args=["--disable-webgl", "--disable-webgl2"])


def new_phone(browser: Any, url: str, viewport: dict[str, int]) -> Phone:
    page = browser.new_page(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.add_init_script(CATCH_TERMINAL)
    page.goto(url)
    phone = Phone(page)
    phone.wait_for("Search the")
    return phone


def snap(phone: Phone, name: str) -> str:
    time.sleep(0.6)                                      # let the last frame reach the canvas
    phone.page.screenshot(path=str(IMG / name))
    return f"docs/img/{name}"


def rulings(browser: Any, url: str) -> list[str]:
    """The README's picture: the rulings searched, sideways."""
    phone = new_phone(browser, url, SIDEWAYS)
    phone.page.locator(".xterm-helper-textarea").focus()
    phone.type("play all time portal")
    phone.wait_for("rulings found")
    return [snap(phone, "serve-phone.png")]


def creeper(phone: Phone) -> str:
    phone.new_table(2)
    phone.cards("Ann's hand", "milk & cookies=Milk & Cookies")
    phone.cards("Ann's table", "milk=Milk", "cookies=Cookies", "taxes=Taxes")
    phone.cards("Ben's hand", "? x3")
    phone.question("Does Ann win when she plays Milk & Cookies?", "winner")
    phone.menu("Replay")
    phone.add_event("Ann plays Milk & Cookies", "milk")
    return phone.wait_for("Answer: Nobody wins: Ann meets Milk", "Creeper Taxes", "step 1 of 1")


def keeper_limit(phone: Phone) -> str:
    phone.new_table(2)
    phone.cards("Rules", "play 2=Play 2")
    phone.cards("Ann's hand", "keeper limit 2=Keeper Limit 2", "bread=Bread")
    phone.cards("Ann's table", "milk=Milk", "cookies=Cookies", "sleep=Sleep")
    phone.cards("Ben's table", "time=Time", "money=Money", "love=Love")
    phone.question("Ann plays Keeper Limit 2 with three Keepers out: must she discard now?", "must")
    phone.wait_for("What must which player do?")
    phone.type("ann")
    time.sleep(0.2)
    phone.enter()
    phone.menu("Replay")
    phone.add_event("Ann plays Keeper Limit 2", "limit")
    return phone.wait_for("Answer: Ann has nothing to do", "step 1 of 1")


def captain_trap(phone: Phone) -> str:
    phone.new_table(2)
    phone.cards("Ben's table", "scientist=The Scientist")
    phone.cards("Ann's table", "captain=The Captain", "robot=The Robot")
    phone.cards("Ben's hand", "? x3")
    phone.question("May Ben spring It's A Trap! on The Captain's power?", "legal")
    phone.menu("Replay")
    phone.add_event("Ann uses The Captain", "captain")
    phone.add_event("Ben reveals It's A Trap!", "trap")
    phone.add_event("The Robot", "robot")
    return phone.wait_for("Answer: Yes: Ben may play the", "step 2 of 2")


DISPUTES = (("creeper", creeper), ("keeper-limit", keeper_limit), ("captain-trap", captain_trap))


def disputes(browser: Any, url: str) -> list[str]:
    saved = []
    for name, build in DISPUTES:
        phone = new_phone(browser, url, UPRIGHT)
        start = time.monotonic()
        shown = build(phone)
        took = time.monotonic() - start
        answer = next(line for line in shown.splitlines() if "Answer:" in line).strip()
        print(f"{name}: built from a blank table and answered in {took:.0f} s ({answer[:60]}...)")
        saved.append(snap(phone, f"serve-{name}-upright.png"))
        phone.page.set_viewport_size(SIDEWAYS)
        phone.wait_for("F2 Table")                      # the tabs again: wide enough
        saved.append(snap(phone, f"serve-{name}-sideways.png"))
        phone.page.close()
    return saved


def main(which: list[str]) -> int:
    exe = chromium_path()
    if exe is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp)) as s, sync_playwright() as pw:
        browser = launch(pw, exe)
        try:
            saved = rulings(browser, s.url)
            if "rulings" not in which:
                saved += disputes(browser, s.url)
        finally:
            browser.close()
    for path in saved:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
