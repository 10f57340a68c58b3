"""`fluxx-judge serve`: the app in a web browser (a phone at the table), through textual-serve.

Every browser tab that opens the page gets its own app: textual-serve starts one
`fluxx-judge` process per connection and ends it when the tab closes. The page needs
nothing from the internet: the terminal's JavaScript and font come with textual-serve,
and our page (`serve_page/app_index.html`) is textual-serve's own with the web-font link
replaced by the bundled font.

Two changes to textual-serve's `Server`:
- the page's websocket and static URLs follow the address the browser used, so a page
  served on `--host 0.0.0.0` works on a phone that reached it as `192.168.1.20:8000`
  (textual-serve writes the listening address into them, which a phone cannot reach);
- the server binds before it says where it is, so a port in use is one clear line, and
  Ctrl+C (or SIGTERM) closes the apps and stops without a traceback.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import shlex
import signal
import socket
import sys
import weakref
from pathlib import Path
from typing import Any

PAGE_FOLDER = Path(__file__).resolve().parent / "serve_page"
ALL_INTERFACES = ("0.0.0.0", "::", "")
LOOPBACK = ("localhost", "::1", "ip6-localhost")
SHUTDOWN_WAIT = 1.0


class ServeError(Exception):
    """The server could not start (the message is one line for the user)."""


def app_command() -> str:
    """The shell command textual-serve runs for each browser tab: this Python's fluxx-judge app."""
    return f"{shlex.quote(sys.executable)} -m fluxx_judge"


def _make_server(host: str, port: int, max_apps: int):
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class FluxxServer(Server):
        apps_running = 0

        async def handle_websocket(self, request):
            # One app process per tab, and at most `max_apps` of them: each holds the
            # engine and the rulings index in memory.
            if self.apps_running >= max_apps:
                ws = web.WebSocketResponse()
                await ws.prepare(request)
                await ws.send_bytes(f"\r\n  fluxx-judge: {max_apps} app(s) already open here,\r\n"
                                    f"  the server's limit (one per browser tab).\r\n"
                                    f"  Close a tab, then reload this page.\r\n".encode())
                await ws.close()
                return ws
            self.apps_running += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.apps_running -= 1

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request) -> dict[str, Any]:
            # The URLs as the browser reached us (scheme and host:port of the request).
            base = f"{request.scheme}://{request.host}"
            ws = ("wss:" if request.scheme == "https" else "ws:") + base.split(":", 1)[1]
            font_size = request.query.get("fontsize", "16")
            return {
                "font_size": int(font_size) if font_size.isdigit() and 6 <= int(font_size) <= 64 else 16,
                "app_websocket_url": f"{ws}{request.app.router['websocket'].url_for()}",
                "config": {"static": {"url": f"{base}/static/"}},
                "application": {"name": self.title},
            }

        async def on_startup(self, app) -> None:      # textual-serve prints its logo here
            pass

    return FluxxServer(app_command(), host=host, port=port, title="fluxx-judge",
                       templates_path=PAGE_FOLDER)


def urls_to_show(host: str, port: int) -> list[str]:
    """Where a browser can reach the server: the address itself, or this machine's names."""
    if host not in ALL_INTERFACES:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    names = [socket.gethostname()]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        names += sorted({i[4][0] for i in infos if not i[4][0].startswith("127.")})
    except OSError:
        pass
    return [f"http://{n}:{port}/" for n in names] + [f"http://localhost:{port}/"]


async def _serve(host: str, port: int, max_apps: int, announce) -> None:
    from aiohttp import web

    server = _make_server(host, port, max_apps)
    app = await server._make_app()      # textual-serve 1.1.3 (pinned exactly) builds its routes here
    tabs: weakref.WeakSet = weakref.WeakSet()

    async def note_tab(request, response) -> None:
        if isinstance(response, web.WebSocketResponse):
            tabs.add(response)

    app.on_response_prepare.append(note_tab)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_WAIT)
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):     # not on this platform / not the main thread
            pass
    try:
        site = web.TCPSite(runner, None if host in ("", None) else host, port)
        try:
            await site.start()
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} is already in use on {host or 'all interfaces'}; "
                                 f"choose another with --port") from None
            if exc.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
                raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        except socket.gaierror as exc:
            raise ServeError(f"unknown host {host!r}: {exc.strerror}") from None
        announce()
        await stop.wait()
        # Close every open tab first: its handler then tells its app to quit (textual-serve's
        # AppService.stop). Left to aiohttp, a handler is only cancelled after SHUTDOWN_WAIT,
        # and its app left to find its input closed on its own.
        await asyncio.gather(*(ws.close(message=b"the server stopped") for ws in list(tabs)),
                             return_exceptions=True)
    finally:
        await runner.cleanup()


def serve(host: str = "localhost", port: int = 8000, max_apps: int = 8, out=sys.stdout) -> int:
    """Serve the app on host:port until Ctrl+C; 0 on a clean stop."""
    logging.basicConfig(level=logging.WARNING, format="fluxx-judge serve: %(message)s")

    def announce() -> None:
        urls = urls_to_show(host, port)
        if host in ALL_INTERFACES:
            print(f"fluxx-judge in a browser: open {' or '.join(urls[:-1])} on a phone on the same network "
                  f"(this machine's name{'' if len(urls) < 3 else ' or address'}), or {urls[-1]} here", file=out)
        else:
            print(f"fluxx-judge in a browser: open {urls[0]}", file=out)
        if host in ALL_INTERFACES:
            print("Listening on every network interface: anyone who can reach this machine on the network can "
                  "use the app, and open and save scenario files here as you.", file=out)
        elif host in LOOPBACK or host.startswith("127."):
            print("Only this machine can connect; `--host 0.0.0.0` lets a phone on the same network in.", file=out)
        else:
            print(f"Anyone who can reach {host} on the network can use the app, and open and save scenario files "
                  "here as you.", file=out)
        print(f"Each browser tab runs its own app (at most {max_apps} at once). Ctrl+C stops the server and "
              "closes every tab's app: save your work first.", file=out, flush=True)

    try:
        asyncio.run(_serve(host, port, max_apps, announce))
    except ServeError as exc:
        print(f"fluxx-judge: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:           # a second Ctrl+C while stopping
        pass
    print("fluxx-judge serve: stopped.", file=out)
    return 0
