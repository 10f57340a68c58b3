"""The app processes of `fluxx-judge serve`: one per browser tab, and how many may run.

The protocol is textual-serve's (1.1.3, pinned), as its `AppService` and Textual's web
driver speak it: the app writes a `__GANGLION__` line, then packets `KIND LENGTH PAYLOAD`
(one byte, four bytes big-endian, the bytes) on its standard output: D for screen output,
M for JSON meta (exit, open_url, deliver_file_start), P for packed binary (a file being
delivered); the server writes D packets (keys) and M packets (resize, focus, blur, a
file's next chunk) to its standard input. The browser sends JSON lists: ["stdin", text],
["resize", {"width": W, "height": H}], ["ping", x], ["focus"], ["blur"].

What this module adds to textual-serve's way:
- every size a browser gives (the websocket URL's width and height, each resize) is
  clamped to COLUMNS and ROWS, and a message of any other shape is dropped (`read_message`),
  its contents never logged;
- the app is started directly (no shell) as `python -m fluxx_judge.served_app` with the
  root folder and the browser's id, in a session of its own, so that a Ctrl+C in the
  server's terminal reaches the server only, which then ends each app in order;
- a tab ends with a hangup (SIGHUP): the tab was the app's terminal, and the app keeps its
  unsaved work for that browser (tui/rescue.py) before it ends; an app still running after
  END_WAIT is killed. A browser's new tab waits for its tabs that are ending, so that it
  can tell of what they kept;
- `AppSlots` counts an app from before its process starts until the process has ended,
  not until its websocket closes: `--max-apps` bounds the processes;
- what the app writes on its standard error is not copied into the server's log (an
  app's error report holds the user's data); the log says only that a tab's app failed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import secrets
import signal
import sys
import time
import uuid
from importlib.metadata import version
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger("fluxx-judge.serve")

COLUMNS = (20, 500)          # the terminal's width in cells, least and most
ROWS = (10, 200)             # and its height
DEFAULT_SIZE = (80, 24)
END_WAIT = 5.0               # seconds an app has to keep its work and end after the hangup
SLOT_WAIT = 1.5              # seconds a new tab waits, when all slots are taken, for an app that is ending
MAX_MESSAGE = 256 * 1024     # bytes in one websocket message from a browser (a long paste)
MAX_PING = 64                # characters of a ping's payload echoed back


def clamp(value: Any, bounds: tuple[int, int], default: int) -> int:
    """`value` as a whole number within `bounds`; `default` for anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return default
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 12):
            return default
        value = int(text)
    if isinstance(value, float) and not math.isfinite(value):
        return default
    return max(bounds[0], min(bounds[1], int(value)))


def size_from(width: Any, height: Any) -> tuple[int, int]:
    return clamp(width, COLUMNS, DEFAULT_SIZE[0]), clamp(height, ROWS, DEFAULT_SIZE[1])


def read_message(text: str) -> tuple[str, Any] | None:
    """A browser's websocket message as (kind, argument), or None for anything malformed."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, argument = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(argument, str):
        return kind, argument
    if kind == "resize" and isinstance(argument, dict) and "width" in argument and "height" in argument:
        return kind, size_from(argument["width"], argument["height"])
    if kind == "ping" and isinstance(argument, str) and len(argument) <= MAX_PING:
        return kind, argument
    if kind in ("focus", "blur"):
        return kind, None
    return None


class AppSlots:
    """At most `limit` app processes, each counted until it has ended."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.taken = 0
        self._freed = asyncio.Condition()

    async def take(self, wait: float) -> bool:
        """Take a slot, waiting up to `wait` seconds for an app to end; False if none came free."""
        async with self._freed:
            if self.taken >= self.limit:
                if wait <= 0:
                    return False
                try:
                    await asyncio.wait_for(self._freed.wait_for(lambda: self.taken < self.limit), wait)
                except TimeoutError:
                    return False
            self.taken += 1
            return True

    async def give_back(self) -> None:
        async with self._freed:
            self.taken -= 1
            self._freed.notify()


def app_argv(root: Path, browser: str) -> list[str]:
    """The command that runs one tab's app: this Python's served app (fluxx_judge/served_app.py)."""
    # (joined with '=': a browser id is random URL-safe text, and one in 64 begins with '-',
    # which argparse would take for an option of its own: that tab's app would not start)
    return [sys.executable, "-m", "fluxx_judge.served_app", f"--root={root}", f"--browser={browser}"]


def app_environment(width: int, height: int) -> dict[str, str]:
    """What Textual's web driver reads (as textual-serve sets it), over the server's environment."""
    return dict(os.environ, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver", TEXTUAL_FPS="60",
                TEXTUAL_COLOR_SYSTEM="truecolor", TERM_PROGRAM="textual",
                TERM_PROGRAM_VERSION=version("textual-serve"), COLUMNS=str(width), ROWS=str(height))


class Tab:
    """One browser tab's app process, joined to the tab's websocket."""

    def __init__(self, tabs: "Tabs", ws: web.WebSocketResponse, browser: str) -> None:
        self.tabs, self.ws, self.browser = tabs, ws, browser
        self.app_service_id = uuid.uuid4().hex      # the name textual-serve's DownloadManager knows it by
        self.process: asyncio.subprocess.Process | None = None
        self.started: asyncio.Future[bool]          # set by begin(): whether the process started
        self.since = time.time()
        self._output: asyncio.Task | None = None
        self._ending: asyncio.Task | None = None

    def begin(self, width: int, height: int) -> None:
        """Start the app, in a task of its own that holds the tab's slot until the process
        has ended, whatever becomes of the websocket's handler."""
        self.started = asyncio.get_running_loop().create_future()
        self.tabs.keep_task(asyncio.create_task(self._live(width, height)))

    async def _live(self, width: int, height: int) -> None:
        try:
            try:
                self.process = await asyncio.create_subprocess_exec(
                    *self.tabs.argv(self.browser), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.DEVNULL, env=app_environment(width, height), start_new_session=True)
            except OSError as exc:
                log.warning("a tab's app could not be started: %s", exc.strerror or exc)
                self.started.set_result(False)
                return
            self._output = asyncio.create_task(self._forward_output())
            self.started.set_result(True)
            await self.process.wait()
        finally:
            self.tabs.open.discard(self)
            await self.tabs.slots.give_back()

    # -- from the app to the browser --------------------------------------------------
    async def _forward_output(self) -> None:
        process = self.process
        assert process is not None and process.stdout is not None     # started with a pipe (`_live`)
        out = process.stdout
        try:
            for _ in range(10):
                line = await out.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            else:
                line = b""
            if line != b"__GANGLION__\n":
                status = await process.wait()
                if self._ending is None:            # not hung up on before it was ready: it failed
                    log.warning("a tab's app did not start (exit status %s)", status)
                return
            while True:
                kind = await out.readexactly(1)
                size = int.from_bytes(await out.readexactly(4), "big")
                payload = await out.readexactly(size)
                await self._from_app(kind, payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except Exception as exc:    # the app wrote what is not the protocol: its tab is closed
            log.warning("a tab's app wrote what the server cannot read (%s): its tab is closed", type(exc).__name__)
        finally:
            await self._close_ws(b"the app ended")

    async def _from_app(self, kind: bytes, payload: bytes) -> None:
        if self.ws.closed:
            return                               # the tab is gone: the output is read and dropped
        try:
            if kind == b"D":
                await self.ws.send_bytes(payload)
            elif kind == b"M":
                meta = json.loads(payload)
                if isinstance(meta, dict):
                    await self._meta(meta)
            elif kind == b"P":
                from textual_serve._binary_encode import load

                unpacked: Any = load(payload)
                if unpacked[0] == "deliver_chunk":
                    await self.tabs.downloads.chunk_received(unpacked[1], unpacked[2])
        except (ConnectionError, RuntimeError):     # the tab closed meanwhile
            pass

    async def _meta(self, meta: dict[str, Any]) -> None:
        kind = meta.get("type")
        if kind == "exit":
            await self._close_ws(b"the app ended")
        elif kind == "open_url" and str(meta.get("url", "")).startswith(("https://", "http://")):
            await self.ws.send_str(json.dumps(["open_url", {"url": meta["url"], "new_tab": meta.get("new_tab")}]))
        elif kind == "deliver_file_start":
            try:
                # the manager reads only `app_service_id` and `send_meta` of its app service
                await self.tabs.downloads.create_download(
                    app_service=self,  # type: ignore[arg-type]
                    delivery_key=str(meta["key"]), file_name=Path(meta["path"]).name,
                    open_method=meta["open_method"], mime_type=meta["mime_type"], encoding=meta["encoding"],
                    name=meta.get("name"))
            except KeyError:
                return
            await self.ws.send_str(json.dumps(["deliver_file_start", str(meta["key"])]))

    async def _close_ws(self, message: bytes) -> None:
        if not self.ws.closed:
            try:
                await self.ws.close(message=message)
            except (ConnectionError, RuntimeError):
                pass

    # -- from the browser to the app --------------------------------------------------
    async def _send(self, kind: bytes, payload: bytes) -> bool:
        stdin = self.process.stdin if self.process else None
        if stdin is None or stdin.is_closing():
            return False
        try:
            stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def send_meta(self, data: dict[str, Any]) -> bool:
        return await self._send(b"M", json.dumps(data).encode("utf-8"))

    async def from_browser(self, text: str) -> None:
        message = read_message(text)
        if message is None:
            return
        kind, argument = message
        if kind == "stdin":
            await self._send(b"D", argument.encode("utf-8", "replace"))
        elif kind == "resize":
            await self.send_meta({"type": "resize", "width": argument[0], "height": argument[1]})
        elif kind == "ping":
            try:
                await self.ws.send_json(["pong", argument])
            except (ConnectionError, RuntimeError):
                pass
        else:
            await self.send_meta({"type": kind})

    # -- the end ----------------------------------------------------------------------
    def end(self) -> asyncio.Task:
        """Hang up on the app (it keeps its unsaved work, then ends); one task, whoever asks."""
        if self._ending is None:
            self._ending = asyncio.create_task(self._end())
        return self._ending

    async def _end(self) -> None:
        await self.tabs.downloads.cancel_app_downloads(self.app_service_id)
        if not await self.started:
            return
        process = self.process
        assert process is not None            # it started
        if process.returncode is None:
            try:
                process.send_signal(signal.SIGHUP)
                await asyncio.wait_for(process.wait(), END_WAIT)
            except ProcessLookupError:
                pass
            except TimeoutError:
                log.warning("a tab's app did not end within %.0f s of its hangup: killed", END_WAIT)
                process.kill()
                await process.wait()
        if self._output is not None:
            await self._output

    def kept_work(self) -> bool:
        """Whether the app kept unsaved work as it ended."""
        from tui.rescue import served_folder

        try:
            return any(p.stat().st_mtime >= self.since for p in served_folder(self.browser).glob("*.yaml"))
        except OSError:
            return False


class Tabs:
    """Every tab of the server: their apps, the slots they hold, the files they deliver."""

    def __init__(self, root: Path, max_apps: int, browser_cookie: str) -> None:
        from textual_serve.download_manager import DownloadManager

        self.root = root
        self.slots = AppSlots(max_apps)
        self.browser_cookie = browser_cookie
        self.downloads = DownloadManager()
        self.open: set[Tab] = set()
        self._tasks: set[asyncio.Task] = set()      # asyncio keeps only weak references to tasks
        self.stopping = False

    def argv(self, browser: str) -> list[str]:
        return app_argv(self.root, browser)

    def browser_of(self, request: web.Request) -> str:
        """The browser's id from its cookie (set with the page), else a new one for this tab alone."""
        from tui.rescue import BROWSER_ID

        given = request.cookies.get(self.browser_cookie, "")
        return given if BROWSER_ID.fullmatch(given) else new_browser_id()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket of one tab (its access already checked, fluxx_judge/serve_access.py)."""
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        browser = self.browser_of(request)
        # the same browser's tabs that are ending keep their work first: this tab's app tells of it
        earlier = [t.end() for t in self.open if t.browser == browser and t._ending is not None]
        if earlier:
            await asyncio.wait(earlier, timeout=END_WAIT + 1)
        if self.stopping:
            await ws.close(message=b"the server is stopping")
            return ws
        # all slots taken: worth waiting only while an app is ending (a reload, a tab just closed)
        ending = any(t._ending is not None for t in self.open)
        if not await self.slots.take(SLOT_WAIT if ending else 0):
            limit = self.slots.limit
            await ws.send_bytes(f"\r\n  fluxx-judge: {limit} app(s) already open here,\r\n"
                                f"  the server's limit (one per browser tab).\r\n"
                                f"  Close a tab, then reload this page.\r\n".encode())
            await ws.close()
            return ws
        tab = Tab(self, ws, browser)
        self.open.add(tab)
        tab.begin(*size_from(request.query.get("width"), request.query.get("height")))
        try:
            if not await asyncio.shield(tab.started):
                await ws.close(message=b"the app could not start")
                return ws
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    await tab.from_browser(message.data)
        finally:
            await asyncio.shield(tab.end())
        return ws

    def keep_task(self, task: asyncio.Task) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def end_all(self) -> int:
        """Hang up on every app and wait until each has ended (the server is stopping);
        the number of tabs whose unsaved work was kept."""
        self.stopping = True
        tabs = list(self.open)
        if tabs:
            await asyncio.wait([tab.end() for tab in tabs], timeout=END_WAIT + 1)
        return sum(tab.kept_work() for tab in tabs)

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file an app delivers to its browser (a screenshot from the palette)."""
        from urllib.parse import quote

        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="no such download") from None
        response = web.StreamResponse()
        response.content_type = meta.mime_type
        if meta.encoding:
            response.charset = meta.encoding
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        response.headers["Content-Disposition"] = f"{disposition}; filename*=UTF-8''{quote(meta.file_name)}"
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response


def new_browser_id() -> str:
    return secrets.token_urlsafe(16)
