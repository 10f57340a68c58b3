"""`fluxx-judge serve`: the app in a web browser (a phone at the table).

Every browser tab that opens the page gets its own app process (fluxx_judge/serve_tabs.py),
at most `--max-apps` at once. The page needs nothing from the internet: the terminal's
script, style sheet and font come with textual-serve, and our page
(`serve_page/app_index.html`) is textual-serve's own with the web-font link replaced by
the bundled font. From textual-serve we use those files, its protocol and its
DownloadManager; the routes, the checks and the app processes are ours:

- who may come in (fluxx_judge/serve_access.py): the token in the printed URL, then in a
  cookie; Host and Origin the server's own;
- what the apps may touch: the one folder `--root` (the user's scenario folder by
  default), given to each app on its command line (tui/confine.py);
- the page's websocket and static URLs follow the address the browser used, so a page
  served on `--host 0.0.0.0` works on a phone that reached it as `192.168.1.20:8000`;
- the server binds before it says where it is, so a port in use is one clear line; Ctrl+C
  (or SIGTERM) hangs up on every tab's app, each keeps its unsaved work for its own
  browser, and the server stops without a traceback.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fluxx_judge.serve_access import ALL_INTERFACES, PAGE_HEADERS, Access, guard, is_loopback

PAGE_FOLDER = Path(__file__).resolve().parent / "serve_page"
SHUTDOWN_WAIT = 1.0
BROWSER_COOKIE_AGE = 400 * 24 * 3600        # the longest a browser keeps a cookie


class ServeError(Exception):
    """The server could not start (the message is one line for the user)."""


@dataclass(frozen=True)
class ServeConfig:
    host: str
    port: int
    max_apps: int
    token: str
    root: Path


def build_app(config: ServeConfig):
    """The aiohttp application, and the `Tabs` that hold its apps."""
    import aiohttp_jinja2
    import jinja2
    import textual_serve
    from aiohttp import web

    from fluxx_judge.serve_tabs import Tabs, new_browser_id
    from tui.rescue import BROWSER_ID

    access = Access(config.host, config.port, config.token)
    tabs = Tabs(config.root, config.max_apps, access.browser_cookie)
    app = web.Application(middlewares=[guard(access)])
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(PAGE_FOLDER), autoescape=True)

    async def index(request: web.Request) -> web.Response:
        # The URLs as the browser reached us (scheme and host:port of the request).
        base = f"{request.scheme}://{request.host}"
        ws = ("wss:" if request.scheme == "https" else "ws:") + base.split(":", 1)[1]
        font_size = request.query.get("fontsize", "16")
        context: dict[str, Any] = {
            "font_size": int(font_size) if font_size.isdigit() and 6 <= int(font_size) <= 64 else 16,
            "app_websocket_url": f"{ws}/ws/{config.token}",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": "fluxx-judge"},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers.update(PAGE_HEADERS)
        if request.cookies.get(access.cookie) != config.token:
            response.set_cookie(access.cookie, config.token, httponly=True, samesite="Strict", path="/")
        if not BROWSER_ID.fullmatch(request.cookies.get(access.browser_cookie, "")):
            response.set_cookie(access.browser_cookie, new_browser_id(), httponly=True, samesite="Strict", path="/",
                                max_age=BROWSER_COOKIE_AGE)
        return response

    static = Path(textual_serve.__file__).resolve().parent / "static"
    app.add_routes([
        web.get("/", index, name="index"),
        web.get("/ws/{token}", tabs.handle, name="websocket"),
        web.get("/ws", tabs.handle, name="websocket-cookie"),
        web.get("/download/{key}", tabs.handle_download, name="download"),
        web.static("/static", static, name="static"),
    ])
    return app, tabs


def urls_to_show(host: str, port: int, token: str) -> list[str]:
    """Where a browser can reach the server, token included: the address itself, or this machine's names."""
    if host not in ALL_INTERFACES:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/?token={token}"]
    names = [socket.gethostname()]
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        names += sorted({str(i[4][0]) for i in infos if not str(i[4][0]).startswith("127.")})
    except OSError:
        pass
    return [f"http://{n}:{port}/?token={token}" for n in names] + [f"http://localhost:{port}/?token={token}"]


def reach_lines(config: ServeConfig) -> list[str]:
    """Who can reach the server, and what keeps strangers out, in plain words."""
    files = f"open and save scenario files in {config.root} (and nowhere else) as you"
    if config.host in ALL_INTERFACES:
        return ["Listening on every network interface: anyone who can reach this machine on the network (the "
                "local network, and beyond it wherever a router forwards this port) can connect. The token in "
                "the address is what keeps strangers out: the address is a password. Give it only to the people "
                f"you let in; each of them can use the app and {files}. Without the token the server answers "
                "403.",
                ]
    if is_loopback(config.host):
        return ["Only this machine can connect, and only with the token in the address (the address is a "
                "password: other accounts on this machine cannot get in without it). `--host 0.0.0.0` lets a "
                f"phone on the same network in. Whoever has the address can use the app and {files}."]
    return [f"Anyone who can reach {config.host} on the network can connect; the token in the address is what "
            f"keeps strangers out (the address is a password). Whoever has it can use the app and {files}."]


async def _serve(config: ServeConfig, announce, out) -> None:
    from aiohttp import web

    app, tabs = build_app(config)
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
        site = web.TCPSite(runner, None if config.host in ("", None) else config.host, config.port)
        try:
            await site.start()
        except OSError as exc:
            port, host = config.port, config.host
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} is already in use on {host or 'all interfaces'}; "
                                 f"choose another with --port") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        except socket.gaierror as exc:
            raise ServeError(f"unknown host {config.host!r}: {exc.strerror}") from None
        announce()
        await stop.wait()
        # Every app is hung up on first, and each keeps its unsaved work for its own browser
        # before it ends (its tab then closes); left to aiohttp, a tab's handler is only
        # cancelled after SHUTDOWN_WAIT.
        kept = await tabs.end_all()
        if kept:
            from tui.rescue import rescue_folder

            print(f"fluxx-judge serve: the unsaved work of {kept} tab(s) was kept (in {rescue_folder() / 'served'}); "
                  "each browser is told of its own when it opens the app again.", file=out)
    finally:
        await runner.cleanup()


def prepare_root(root: str | None) -> Path:
    """The folder the apps open and save in: `--root`, which must exist, or the user's
    scenario folder (tui.session.default_folder), made if missing."""
    from tui.session import default_folder

    folder = Path(root).expanduser() if root else default_folder()
    if root is None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ServeError(f"cannot make the scenario folder {folder}: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise ServeError(f"--root {folder}: {'not a folder' if folder.exists() else 'no such folder'}")
    return folder.resolve()


def _no_bad_requests(record: logging.LogRecord) -> bool:
    """Leave out of the log what aiohttp says of a request it could not parse (a line too
    long, bytes that are not HTTP): it answers 400, and the request is one client's problem,
    not a traceback holding the client's bytes."""
    from aiohttp.http_exceptions import HttpProcessingError

    return not (record.exc_info and isinstance(record.exc_info[1], HttpProcessingError))


def serve(host: str = "localhost", port: int = 8000, max_apps: int = 8, token: str | None = None,
          root: str | None = None, out=sys.stdout) -> int:
    """Serve the app on host:port until Ctrl+C; 0 on a clean stop."""
    from fluxx_judge.serve_access import new_token, token_problem

    logging.basicConfig(level=logging.WARNING, format="fluxx-judge serve: %(message)s")
    logging.getLogger("aiohttp.server").addFilter(_no_bad_requests)
    if token is not None and (problem := token_problem(token)):
        print(f"fluxx-judge: --token: {problem}", file=sys.stderr)
        return 2
    try:
        config = ServeConfig(host, port, max_apps, token or new_token(), prepare_root(root))
    except ServeError as exc:
        print(f"fluxx-judge: {exc}", file=sys.stderr)
        return 2

    def announce() -> None:
        urls = urls_to_show(host, port, config.token)
        if host in ALL_INTERFACES:
            print(f"fluxx-judge in a browser: open {' or '.join(urls[:-1])} on a phone on the same network "
                  f"(this machine's name{'' if len(urls) < 3 else ' or address'}), or {urls[-1]} here", file=out)
        else:
            print(f"fluxx-judge in a browser: open {urls[0]}", file=out)
        for line in reach_lines(config):
            print(line, file=out)
        print(f"Each browser tab runs its own app (at most {max_apps} at once). Ctrl+C stops the server and every "
              "tab's app; unsaved work is kept, and each browser is told of its own when it opens the app again.",
              file=out, flush=True)

    try:
        asyncio.run(_serve(config, announce, out))
    except ServeError as exc:
        print(f"fluxx-judge: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:           # a second Ctrl+C while stopping
        pass
    print("fluxx-judge serve: stopped.", file=out)
    return 0
