"""`fluxx-judge serve`: the app in a real browser (Debian's headless chromium driven by
playwright), and the server's own promises: a page that loads nothing from the internet,
URLs that follow the address the browser used, one clear line for a port in use, a
clean stop on Ctrl+C that keeps each tab's unsaved work for its own browser.

The server's guards (token, Host, Origin, sizes, malformed messages, the bound on apps,
the one folder) are tests/test_serve_access.py's; the helpers are tests/serve_support.py's.
Keys go to xterm's own input element, as a person's typing does; a tap is a mouse click
on the cell that shows the words.
"""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fluxx_judge.serve import SHUTDOWN_WAIT
from serve_support import (CATCH_TERMINAL, CHROMIUM_ARGS, CTRL_W, ENTER, F2, READ_SCREEN, STOP_TIMEOUT, AppScreen,
                           app_processes, chromium_path, request, run, serving, websocket_url)


def get(url: str, host: str | None = None) -> str:
    status, body, _ = request(url, {"Host": host} if host else None)
    assert status == 200, (status, body)
    return body


def test_the_page_loads_nothing_from_elsewhere_and_follows_the_address_used(tmp_path):
    with serving(tmp_path) as s:
        page = get(s.url)
        base = f"http://127.0.0.1:{s.port}/"
        # what a browser that reached the server by another of its names is given
        by_name = get(s.url, host=f"localhost:{s.port}")
        for path in ("static/js/textual.js", "static/css/xterm.css", "static/fonts/RobotoMono-VariableFont_wght.ttf"):
            assert f"{base}{path}" in page
            with urllib.request.urlopen(base + path, timeout=10) as resp:
                assert resp.status == 200
    urls = set(re.findall(r"""(?:https?|wss?)://[^\s"'<>)]+""", page))
    assert urls and all(u.startswith((base, f"ws://127.0.0.1:{s.port}/")) for u in urls), urls
    assert s.token and f'data-session-websocket-url="ws://127.0.0.1:{s.port}/ws/{s.token}"' in page
    assert f'data-session-websocket-url="ws://localhost:{s.port}/ws/{s.token}"' in by_name
    assert f"http://localhost:{s.port}/static/js/textual.js" in by_name
    # textual-serve's script and style sheet themselves fetch nothing from elsewhere either
    import textual_serve

    static = Path(textual_serve.__file__).parent / "static"
    script = (static / "js" / "textual.js").read_text(encoding="utf-8")
    assert not re.search(r"""(fetch|import|src=|url\()\s*\(?["']https?://""", script)
    assert "@import" not in (static / "css" / "xterm.css").read_text(encoding="utf-8")
    # the server said where it is, token and all, and stopped cleanly on Ctrl+C
    assert re.search(rf"open http://127\.0\.0\.1:{s.port}/\?token=[A-Za-z0-9_-]{{32}}\n", s.output), s.output
    assert "Traceback" not in s.output and s.proc.returncode == 0, s.output


def test_a_port_in_use_is_one_clear_line(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "fluxx_judge", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.strip() == f"fluxx-judge: port {port} is already in use on 127.0.0.1; choose another with --port"
    assert done.stdout == ""


async def ask(tab: AppScreen, question: str) -> None:
    """Write the question in dispute on the Table screen: an unsaved change."""
    await tab.keys(F2)
    await tab.wait_for("Question (Ctrl+W)")
    await tab.keys(CTRL_W)
    await tab.wait_for("The question in dispute")
    tab.mark()
    await tab.keys(question + ENTER)
    await tab.wait_for("What does the question ask?")     # then the kind of answer it wants
    await tab.keys("turn" + ENTER)
    await tab.wait_for(f"Question (Ctrl+W) {question}")


@pytest.mark.slow(5)
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from Linux's /proc")
def test_each_tabs_unsaved_work_is_kept_and_told_to_its_own_browser_only(tmp_path):
    """A tab that closes, and every tab when Ctrl+C stops the server, keeps its unsaved
    work for its own browser (the browser cookie); that browser's next app tells of it,
    another browser's does not. A tab past --max-apps is refused. Ctrl+C closes the tabs at
    once and leaves no app process behind."""
    import os

    import aiohttp

    def served_folder(browser: str) -> Path:        # where a browser's kept work goes (tui.rescue.served_folder)
        return Path(os.environ["FLUXX_JUDGE_CACHE"]) / "rescued" / "served" / browser

    closing = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    ann, ben = "browser-of-ann-0123456789", "browser-of-ben-0123456789"

    async def tabs_then_ctrl_c(s) -> tuple[str, str, set[int], float]:
        url = websocket_url(get(s.url)) + "?width=100&height=30"

        def browser(name: str) -> dict[str, str]:
            return {"Cookie": f"fluxx-judge-browser-{s.port}={name}"}

        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http:
            async with http.ws_connect(url, headers=browser(ann)) as ws:         # Ann's tab closes unsaved
                first = AppScreen(ws)
                await first.wait_for("Search the rulings")
                await ask(first, "Ann 1?")
            async with http.ws_connect(url, headers=browser(ann)) as a, http.ws_connect(url, headers=browser(ben)) as b:
                ann_tab, ben_tab = AppScreen(a), AppScreen(b)
                await ann_tab.wait_for("Search the rulings", "Unsaved work kept")
                await ben_tab.wait_for("Search the rulings")
                await ben_tab.settle()
                assert "Unsaved work kept" not in ben_tab.text()
                async with http.ws_connect(url) as third:                        # one too many for --max-apps 2
                    said = await third.receive(timeout=30)
                    assert (await third.receive(timeout=30)).type in closing
                await ask(ann_tab, "Ann 2?")
                await ask(ben_tab, "Ben?")
                apps = app_processes(s.proc.pid)
                s.proc.send_signal(signal.SIGINT)
                start = time.monotonic()
                for tab in (ann_tab, ben_tab):
                    await tab.wait_until(lambda: False, "its tab closed", timeout=STOP_TIMEOUT, closed_ok=True)
                return said.data.decode(), apps, time.monotonic() - start

    with serving(tmp_path, "--max-apps", "2") as s:
        said, apps, took = run(tabs_then_ctrl_c(s))
        s.proc.wait(STOP_TIMEOUT)
    assert "2 app(s) already open here" in said and "the server's limit" in said and "Close a tab" in said
    assert len(apps) == 2, apps
    # closed by the server at once, each app having kept its work first
    assert took < SHUTDOWN_WAIT, f"the tabs were closed {took:.1f} s after Ctrl+C"
    kept = {who: sorted(p.read_text(encoding="utf-8") for p in served_folder(who).glob("*.yaml")) for who in (ann, ben)}
    assert [("Ann 1?" in t, "Ann 2?" in t) for t in kept[ann]] == [(True, False), (False, True)]
    assert len(kept[ben]) == 1 and "Ben?" in kept[ben][0] and "Ann" not in kept[ben][0]
    assert "the unsaved work of 2 tab(s) was kept" in s.output
    assert s.proc.returncode == 0 and "Traceback" not in s.output and "stopped." in s.output, s.output
    end = time.monotonic() + 10
    while (left := {p for p in apps if Path(f"/proc/{p}").exists()}) and time.monotonic() < end:
        time.sleep(0.1)
    assert not left, f"app processes {sorted(left)} outlived the server"

def test_a_bad_port_is_refused_by_the_parser():
    done = subprocess.run([sys.executable, "-m", "fluxx_judge", "serve", "--port", "70000"],
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "70000 is not a port number" in done.stderr and "Traceback" not in done.stderr


def test_the_help_says_one_app_per_tab_and_warns_about_the_network():
    done = subprocess.run([sys.executable, "-m", "fluxx_judge", "serve", "--help"], capture_output=True, text=True,
                          timeout=30)
    words = " ".join(done.stdout.split())
    assert "Each browser tab that opens the page gets its own app" in words
    assert "--host 0.0.0.0" in words and "anyone who can reach this machine can connect" in words
    assert "the token is what keeps strangers out" in words and "the address is a password" in words
    assert "--root" in words and "never hidden files, nothing outside it" in words


# -- the real browser --------------------------------------------------------------------

@pytest.mark.slow(13)
def test_the_app_in_a_real_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the `test` extra has it)")
    browser_exe = chromium_path()
    if browser_exe is None:
        pytest.skip("no chromium here (`make test` installs Debian's chromium where apt-get may run as root)")
    with serving(tmp_path) as s, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_exe, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.set_default_timeout(30_000)
            page.add_init_script(CATCH_TERMINAL)
            page.goto(s.url)

            def screen() -> str:
                return page.evaluate(READ_SCREEN) or ""

            def wait_for(*texts: str, timeout: float = 40.0) -> str:
                end = time.monotonic() + timeout
                shown = ""
                while time.monotonic() < end:
                    shown = screen()
                    if all(t in shown for t in texts):
                        return shown
                    time.sleep(0.1)
                if page.evaluate("() => !window.__fluxxTerminal"):
                    raise AssertionError("the page never made its xterm Terminal: textual-serve's page has changed")
                size = page.evaluate("() => [window.__fluxxTerminal.cols, window.__fluxxTerminal.rows]")
                raise AssertionError(f"the browser never showed {texts!r}; its terminal of {size} showed:\n{shown!r}\n"
                                     f"the server said:\n{''.join(s.lines)[-3000:]}")

            wait_for("F4 Rulings", "Search the rulings")          # the app opens on the Rulings screen
            page.locator(".xterm-helper-textarea").focus()
            page.keyboard.type("simplify rounding")
            wait_for("lets-simplify-rounding", "rulings found")  # the search answered with a ruling's id
            page.keyboard.press("Control+o")
            wait_for("Open a scenario file")
            page.keyboard.type("Jackpot! is played")
            wait_for("(1 of ")
            page.keyboard.press("Enter")
            shown = wait_for("step 0 of 1", "Answer: Jackpot! ends up")     # the scenario opened in Replay
            assert "rule-action-discard-after-use" in shown
            # a tap on the top bar's "Rulings" tab (a phone has no F keys) goes back to the search
            top = shown.splitlines()[0]
            box = page.locator(".xterm-screen").bounding_box()
            cols, rows = page.evaluate("() => [window.__fluxxTerminal.cols, window.__fluxxTerminal.rows]")
            page.mouse.click(box["x"] + (top.index("Rulings") + 2.5) * box["width"] / cols,
                             box["y"] + 0.5 * box["height"] / rows)
            shown = wait_for("lets-simplify-rounding", "rulings found")
            assert "step 0 of 1" not in shown
            # a phone's touch screen, held upright (issue 27), opening the address without its token: the
            # cookie the desktop page was given carries it (a phone page is a browser context of its own, so
            # the cookie is handed over). The app fits the narrow screen, the top bar is a menu, Open is a
            # tap, a swipe scrolls.
            cookies = page.context.cookies()
            assert cookies, "the page that opened with the token was given no cookie"
            page.close()
            phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            phone.context.add_cookies(cookies)
            phone.set_default_timeout(30_000)
            phone.add_init_script(CATCH_TERMINAL)
            phone.goto(f"http://127.0.0.1:{s.port}/")
            page = phone
            shown = wait_for("Menu", "Search the")
            cols, rows = phone.evaluate("() => [window.__fluxxTerminal.cols, window.__fluxxTerminal.rows]")
            assert 20 <= cols <= 60 and rows >= 20, (cols, rows)
            assert max(len(line) for line in shown.splitlines()) <= cols
            assert "F2" not in shown.splitlines()[0]
            box = phone.locator(".xterm-screen").bounding_box()

            def point(row: int, col: float) -> tuple[float, float]:
                return box["x"] + col * box["width"] / cols, box["y"] + (row + 0.5) * box["height"] / rows

            phone.touchscreen.tap(*point(0, shown.splitlines()[0].index("Open") + 2))
            shown = wait_for("Open a scenario file", "The built-in library")
            listed = shown.splitlines()
            first = next(i for i, line in enumerate(listed) if "The built-in library (" in line)
            touch = phone.context.new_cdp_session(phone)
            x, y = point(first + 4, cols / 2)
            touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            for i in range(1, 7):
                touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                    {"x": x, "y": y - i * box["height"] / rows}]})
            touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            end = time.monotonic() + 20
            while screen().splitlines()[first + 1:first + 6] == listed[first + 1:first + 6]:
                assert time.monotonic() < end, "a swipe up did not scroll the list"
                time.sleep(0.1)
        finally:
            browser.close()
    assert "Traceback" not in s.output and s.proc.returncode == 0, s.output
