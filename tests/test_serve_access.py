"""What `fluxx-judge serve` lets in, and what it lets a browser do to its apps.

Against a real server (one per module, `--max-apps 2`, tests/serve_support.py), as a
page of another site or a client without the printed address would try it:
- the page and the websocket need the token; another site's Origin and a Host that is
  not the server's (DNS rebinding) are refused, websocket included;
- every size a browser gives is clamped, and the app survives what used to kill it;
  malformed messages, and requests that are not HTTP, leave no traceback in the log;
- churning connections never runs more app processes than --max-apps;
- a served app opens nothing outside its folder (here: a file of secrets beside it).
The rules themselves (Host names for each --host, sizes, messages, what the server
prints for --host 0.0.0.0, a bad --token or --root) are checked without a server.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import aiohttp
import pytest

from serve_support import CTRL_O, ENTER, AppScreen, app_processes, request, run, serving, websocket_url

SECRET = "not-for-browsers: 7f3a"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "secrets.yaml").write_text(f"{SECRET}\n", encoding="utf-8")     # beside the root, not in it
    with serving(folder, "--max-apps", "2") as s:
        yield s


def base(s) -> str:
    return f"http://127.0.0.1:{s.port}/"


async def handshake(url: str, headers: dict[str, str] | None = None) -> int:
    """The HTTP status a websocket handshake gets (101: the tab is open; closed at once)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        try:
            async with http.ws_connect(url, headers=headers or {}):
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def test_the_page_and_its_websocket_need_the_token(server):
    status, body, _ = request(base(server))
    assert status == 403 and "printed" in body and "?token=" in body
    assert request(base(server) + "?token=" + "x" * 32)[0] == 403
    status, page, headers = request(server.url)
    assert status == 200 and server.token
    ws = websocket_url(page)
    assert ws.endswith(f"/ws/{server.token}")
    # after a visit with the token, the page keeps it in a cookie: a reload needs no token in the URL
    cookie = headers["Set-Cookie"].split(";")[0]
    assert cookie == f"fluxx-judge-token-{server.port}={server.token}" and "HttpOnly" in headers["Set-Cookie"]
    assert request(base(server), {"Cookie": cookie})[0] == 200
    assert headers["X-Frame-Options"] == "DENY"
    # the websocket: no token, a wrong one, one that only starts right
    no_token = ws.rsplit("/", 1)[0]
    for url in (no_token, no_token + "/" + "y" * 32, ws[:-1]):
        assert run(handshake(url)) == 403, url
    assert run(handshake(no_token, {"Cookie": cookie})) == 101


def test_another_sites_page_is_refused(server):
    ws = websocket_url(request(server.url)[1])
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}", f"https://127.0.0.1:{server.port}"):
        assert run(handshake(ws, {"Origin": origin})) == 403, origin
        assert request(server.url, {"Origin": origin})[0] == 403, origin
    assert run(handshake(ws, {"Origin": f"http://127.0.0.1:{server.port}"})) == 101


def test_a_host_that_is_not_the_servers_is_refused(server):
    ws = websocket_url(request(server.url)[1])
    for host in (f"evil.example:{server.port}", f"127.0.0.1.evil.example:{server.port}", f"127.0.0.1:{server.port + 1}",
                 "127.0.0.1", f"192.168.1.20:{server.port}", ""):
        status, body, _ = request(server.url, {"Host": host})
        assert status == 403 and "token" not in body.lower(), host
        assert run(handshake(ws, {"Host": host})) == 403, host
    assert request(server.url, {"Host": f"localhost:{server.port}"})[0] == 200


def test_requests_that_are_not_http_get_400_and_leave_no_traceback(server):
    import socket

    for data in (b"GARBAGE \x00\xff\r\n\r\n", b"GET / HTTP/1.1\r\nCookie: " + b"a" * 20_000 + b"\r\n\r\n",
                 b"GET /" + b"b" * 20_000 + b" HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(data)
            assert raw.recv(100).startswith(b"HTTP/1.0 400 Bad Request")
    time.sleep(0.2)
    log = "".join(server.lines)
    assert "Traceback" not in log and "aaaaaaaa" not in log and "bbbbbbbb" not in log, log


@pytest.mark.slow(4)
def test_sizes_are_clamped_malformed_messages_dropped_and_files_outside_refused(server):
    async def tab() -> tuple[tuple[int, int], tuple[int, int], list[str], str]:
        url = websocket_url(request(server.url)[1])
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http:
            # the URL's size: a negative width (it used to kill the app) and a height past the bound
            async with http.ws_connect(url + "?width=-5&height=40000") as ws:
                app = AppScreen(ws)
                await app.wait_until(lambda: app.furthest()[0] > 150, "its screen drawn down to row 150")
                await app.settle()
                first = app.furthest()
                for bad in ("nonsense", "[", "[]", "[1, 2]", '{"a": 1}', '["resize"]', '["stdin", 5]', "[" * 100_000,
                            '["resize", {"width": -3, "height": "x"}]', '["resize", {"width": 1e309, "height": 1e999}]',
                            '["resize", {"width": [1], "height": {}}]', '["ping", "' + "x" * 1000 + '"]'):
                    await ws.send_str(bad)
                await ws.send_bytes(b"\x00\xff binary")
                await app.send("ping", "still there?")
                app.mark()
                await app.send("resize", {"width": 40000, "height": 12})        # a width past the bound
                await app.wait_for("Search the rulings")
                await app.settle()
                huge = app.furthest()
                await app.send("resize", {"width": 100, "height": 30})
                # a file outside the server's folder, by its full path: refused, never read
                await app.keys(CTRL_O)
                await app.wait_for("Open a scenario file")
                app.mark()
                await app.keys(f"{server.folder / 'secrets.yaml'}{ENTER}")
                shown = await app.wait_for("outside the folder this server", "shares")
                await app.settle()
                return first, huge, app.texts, shown + app.text()

    first, huge, texts, shown = run(tab())
    assert first[0] <= 200 and first[1] <= 20 and first[0] > 100, first          # 20 columns, 200 rows at most
    assert huge == (12, 500), huge                                                  # 500 columns at most
    assert texts == [json.dumps(["pong", "still there?"])]
    assert SECRET not in shown
    log = "".join(server.lines)
    assert "Traceback" not in log and "nonsense" not in log and "x" * 100 not in log, log


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from Linux's /proc")
def test_connect_close_churn_never_runs_more_apps_than_max_apps(server):
    """Tabs that open and close at once, three at a time: an app counts until its process
    has ended, not until its websocket has closed."""
    url = websocket_url(request(server.url)[1]) + "?width=80&height=24"
    most, done = [0], threading.Event()

    def count() -> None:
        while not done.is_set():
            most[0] = max(most[0], len(app_processes(server.proc.pid)))
            time.sleep(0.002)

    async def churn() -> None:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
            async def one() -> None:
                async with http.ws_connect(url):
                    pass
            for _ in range(5):
                await asyncio.gather(*(one() for _ in range(3)))

    counter = threading.Thread(target=count, daemon=True)
    counter.start()
    try:
        run(churn())
        end = time.monotonic() + 10
        while app_processes(server.proc.pid) and time.monotonic() < end:
            time.sleep(0.02)
    finally:
        done.set()
        counter.join()
    assert 1 <= most[0] <= 2, most[0]
    assert not app_processes(server.proc.pid)


# -- the rules, without a server ---------------------------------------------------------

def test_the_host_names_each_address_answers_to():
    from fluxx_judge.serve_access import Access

    names = frozenset({"table-laptop", "table-laptop.local"})
    everywhere, here, lan = (Access(h, 8000, "t" * 20, names) for h in ("0.0.0.0", "127.0.0.1", "192.168.1.20"))
    for ok in ("192.168.1.20:8000", "[fe80::1]:8000", "localhost:8000", "table-laptop:8000", "TABLE-LAPTOP.local:8000",
               "10.0.0.7:8000"):
        assert everywhere.host_allowed(ok), ok
    for bad in ("evil.example:8000", "192.168.1.20:8001", "192.168.1.20", "table-laptop.evil.example:8000",
                "192.168.1.20:8000@evil", "", None, "a b:8000"):
        assert not everywhere.host_allowed(bad), bad
    assert here.host_allowed("127.0.0.1:8000") and here.host_allowed("localhost:8000") and here.host_allowed("[::1]:8000")
    assert not here.host_allowed("192.168.1.20:8000") and not here.host_allowed("table-laptop:8000")
    assert lan.host_allowed("192.168.1.20:8000") and lan.host_allowed("table-laptop:8000")
    assert not lan.host_allowed("10.0.0.7:8000") and not lan.host_allowed("evil.example:8000")
    assert Access("localhost", 80, "t" * 20, names).host_allowed("localhost")


def test_sizes_and_messages_from_a_browser():
    from fluxx_judge.serve_tabs import COLUMNS, ROWS, read_message, size_from

    assert size_from("-5", "40000") == (COLUMNS[0], ROWS[1]) == (20, 200)
    assert size_from("20000", "-1") == (500, 10)
    assert size_from(None, "x") == size_from("1e9", "٣") == size_from(True, "9" * 5000) == (80, 24)
    assert read_message('["resize", {"width": -3, "height": 1e400}]') == ("resize", (20, 24))
    assert read_message('["resize", {"width": 120.7, "height": 40}]') == ("resize", (120, 40))
    assert read_message('["stdin", "q"]') == ("stdin", "q") and read_message('["focus"]') == ("focus", None)
    for bad in ("", "nonsense", "[", "[" * 100_000, "{}", "[]", "[3]", '["stdin"]', '["stdin", 5]', '["resize", 1]',
                '["resize", {"width": 5}]', '["ping", "' + "x" * 65 + '"]', '["quit"]', '["exit"]'):
        assert read_message(bad) is None, bad[:20]


@pytest.mark.parametrize("browser", ["-Ab3_x", "--help", "plain-id_09"])
def test_every_browser_id_reaches_the_tabs_app(tmp_path, browser):
    """A browser id is random URL-safe text, and one in 64 begins with '-': the command
    that starts its tab's app still gives the app that id and folder (an id read as an
    option left that tab's app exiting at once, status 2, and the page blank)."""
    import sys

    from fluxx_judge import served_app
    from fluxx_judge.serve_tabs import app_argv

    argv = app_argv(tmp_path, browser)
    assert argv[:3] == [sys.executable, "-m", "fluxx_judge.served_app"]
    args = served_app.parser().parse_args(argv[3:])
    assert (args.root, args.browser) == (str(tmp_path), browser)


def test_what_the_server_says_for_every_interface():
    from fluxx_judge.serve import ServeConfig, reach_lines

    words = " ".join(reach_lines(ServeConfig("0.0.0.0", 8000, 8, "t" * 20, Path("/srv/scenarios"))))
    assert "anyone who can reach this machine on the network" in words
    assert "The token in the address is what keeps strangers out: the address is a password" in words
    assert "in /srv/scenarios (and nowhere else)" in words
    here = " ".join(reach_lines(ServeConfig("localhost", 8000, 8, "t" * 20, Path("/srv/scenarios"))))
    assert "Only this machine can connect" in here and "password" in here


def test_a_bad_token_or_root_is_one_line(capsys, tmp_path):
    from fluxx_judge.serve import serve

    (tmp_path / "a-file").write_text("", encoding="utf-8")
    for kwargs, said in (({"token": "short"}, "--token: a token is 16 to 200 characters"),
                         ({"token": "has spaces in it, sixteen"}, "--token: a token is 16 to 200 characters"),
                         ({"root": str(tmp_path / "none")}, f"--root {tmp_path / 'none'}: no such folder"),
                         ({"root": str(tmp_path / "a-file")}, f"--root {tmp_path / 'a-file'}: not a folder")):
        assert serve(port=1, **kwargs) == 2
        out, err = capsys.readouterr()
        assert err.startswith(f"fluxx-judge: {said}") and err.count("\n") == 1 and out == "", err
