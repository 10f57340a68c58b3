"""Helpers shared by the tests of `fluxx-judge serve` (this module holds no tests of its own).

`serving` runs the real server as a subprocess on a free localhost port, waits (bounded)
for it to print its address (token and all), and always stops it with SIGINT (the Ctrl+C
path), killing it only if it does not stop in time.

`AppScreen` reads one tab's app over a raw websocket, as textual-serve's page would get
it: Textual's web driver writes the screen as terminal output (text between escape
sequences; absolute cursor moves `ESC [ row ; col H`), so the text a person would read
is there once the escapes are taken out, and the cursor moves and the lines written
from the first column say how big the app thinks its screen is.

Reading a real browser: textual-serve draws the terminal with xterm.js on a WebGL canvas,
so the page's DOM holds no text. An init script (`CATCH_TERMINAL`) catches the xterm
`Terminal` object as textual-serve's page stores it (`this.terminal = new Terminal(...)`)
and `READ_SCREEN` reads the screen through xterm's public buffer API.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, proc: subprocess.Popen, port: int, folder: Path) -> None:
        self.proc, self.port = proc, port
        self.folder = folder                # its working folder; its scenario folder is folder/scenarios
        self.lines: list[str] = []          # what the server printed so far
        self.url = ""                       # the address it printed first, token and all
        self.output = ""

    @property
    def token(self) -> str:
        return urllib.parse.parse_qs(urllib.parse.urlsplit(self.url).query).get("token", [""])[0]


@contextmanager
def serving(tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    """Run `fluxx-judge serve --host 127.0.0.1 --port P` until the block ends, then Ctrl+C it.
    `s.url` is the address the server printed (with its token)."""
    port = free_port()
    env = dict(os.environ, FLUXX_JUDGE_SCENARIOS=str(tmp_path / "scenarios"), PYTHONUNBUFFERED="1", **(env or {}))
    proc = subprocess.Popen([sys.executable, "-m", "fluxx_judge", "serve", "--host", "127.0.0.1", "--port", str(port),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            text=True, env=env, cwd=tmp_path)
    served = Served(proc, port, tmp_path)
    reader = threading.Thread(target=lambda: served.lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        end = time.monotonic() + START_TIMEOUT
        while not served.url:
            printed = re.search(r"open (http://\S+)", "".join(served.lines))
            if printed:
                served.url = printed.group(1)
            elif proc.poll() is not None:
                reader.join(5)
                raise AssertionError(f"the server stopped at once:\n{''.join(served.lines)}")
            elif time.monotonic() > end:
                raise AssertionError(f"the server did not say where it is within {START_TIMEOUT:.0f} s")
            else:
                time.sleep(0.05)
        yield served
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        reader.join(5)
        served.output = "".join(served.lines)
        proc.stdout.close()


def descendants(pid: int) -> set[int]:
    """The processes under `pid` (Linux /proc)."""
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = list(Path(f"/proc/{p}/task").iterdir())
        except OSError:
            continue                # (it has ended since its parent listed it)
        for task in tasks:
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += kids - found
            found |= kids
    return found


def app_processes(pid: int) -> set[int]:
    """The app processes under the server `pid` (any process running fluxx_judge's code)."""
    found = set()
    for p in descendants(pid):
        try:
            if b"fluxx_judge" in Path(f"/proc/{p}/cmdline").read_bytes():
                found.add(p)
        except OSError:
            pass
    return found


def run(coroutine, timeout: float = 90.0):
    """Run a test's websocket conversation, bounded as a whole (a closing handshake with a
    server that goes on drawing could otherwise wait for ever)."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


def request(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
    """(status, body, headers) of a GET, whatever the status."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode("utf-8"), dict(resp.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace"), dict(exc.headers)


def websocket_url(page: str) -> str:
    """The websocket URL a page of the server hands its script."""
    found = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert found, page
    return found.group(1)


ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b.")
CURSOR = re.compile(r"\x1b\[(\d+);(\d+)H")


class AppScreen:
    """One tab's app over a raw websocket (aiohttp): keys in, screen text out."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.raw = ""
        self.start = 0
        self.texts: list[str] = []          # text messages (pong, open_url...)
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode
        self._plain, self._plain_start, self._stripped = "", 0, 0

    def mark(self) -> None:
        """What comes after this is what `wait_for` and `furthest` look at."""
        self.start = self._stripped = len(self.raw)
        self._plain_start = len(self._plain)

    def text(self) -> str:
        # the escapes are taken out of what came since the last look, up to an escape that
        # may not have arrived whole yet
        cut = len(self.raw)
        last = self.raw.rfind("\x1b", max(self._stripped, cut - 64))
        if last != -1:
            cut = last
        self._plain += ANSI.sub("", self.raw[self._stripped:cut])
        self._stripped = cut
        return self._plain[self._plain_start:]

    def furthest(self) -> tuple[int, int]:
        """How big the app's screen is, as drawn in its last full repaint (and after it)
        since `mark`: the furthest row it moved the cursor to, and the longest line it
        wrote from the first column (a full repaint starts at the top left, and writes
        every line whole, each after a move to its first cell)."""
        raw = self.raw[self.start:]
        raw = raw[max(raw.rfind("\x1b[1;1H"), 0):]
        rows = max((int(r) for r, _ in CURSOR.findall(raw)), default=0)
        lines = re.findall(r"\x1b\[\d+;1H((?:(?!\x1b\[\d+;\d+H)[^\n])*)", raw)
        return rows, max((len(ANSI.sub("", line)) for line in lines), default=0)

    async def receive(self, timeout: float) -> bool:
        """Take the next message; False when the tab was closed."""
        import aiohttp

        message = await self.ws.receive(timeout=timeout)
        if message.type == aiohttp.WSMsgType.BINARY:
            self.raw += self._decode(message.data)
        elif message.type == aiohttp.WSMsgType.TEXT:
            self.texts.append(message.data)
        else:
            return False
        return True

    async def wait_until(self, condition, what: str, timeout: float = 30.0, closed_ok: bool = False) -> None:
        """Read until `condition()` holds (or, with `closed_ok`, the tab closes); AssertionError after `timeout`."""
        end = time.monotonic() + timeout
        while not condition():
            left = end - time.monotonic()
            try:
                if left <= 0:
                    raise asyncio.TimeoutError
                if not await self.receive(left):
                    if closed_ok:
                        return
                    raise asyncio.TimeoutError
            except asyncio.TimeoutError:
                raise AssertionError(f"the app never showed {what}; it showed:\n{self.text()[-3000:]}") from None

    async def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        await self.wait_until(lambda: all(t in self.text() for t in texts), repr(texts), timeout)
        return self.text()

    async def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Read until the app has drawn nothing for `quiet` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if not await self.receive(quiet):
                    return
            except asyncio.TimeoutError:
                return

    async def send(self, *message) -> None:
        await self.ws.send_str(json.dumps(list(message)))

    async def keys(self, text: str) -> None:
        await self.send("stdin", text)


F2, F6, CTRL_O, CTRL_U, CTRL_W, ENTER = "\x1bOQ", "\x1b[17~", "\x0f", "\x15", "\x17", "\r"


CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {configurable: true, set(value) {
  window.__fluxxTerminal = value;
  Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
}});
"""
READ_SCREEN = """() => {
  const t = window.__fluxxTerminal;
  if (!t) return null;
  const b = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""


def chromium_path() -> str | None:
    return os.environ.get("FLUXX_JUDGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


# Headless chromium on a machine without a GPU otherwise emulates one in software
# (SwiftShader) for the page's WebGL: about 2.3 s of the browser test's 9.5 s of CPU.
# Without it the page draws as it does in any browser that has no WebGL (xterm.js's
# other renderers); the test reads what the terminal holds, not its pixels.
CHROMIUM_ARGS = ["--disable-gpu", "--disable-software-rasterizer"]


