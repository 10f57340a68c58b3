"""`fluxx-judge serve`: the app in a real browser (Debian's headless chromium driven by
playwright), and the server's own promises: a page that loads nothing from the internet,
URLs that follow the address the browser used, one clear line for a port in use, and a
clean stop on Ctrl+C.

Each test starts the server as a subprocess on a free localhost port, waits (bounded)
for it to say where it is, and always stops it with SIGINT (the Ctrl+C path), killing
it only if it does not stop in time.

Reading the browser: textual-serve draws the terminal with xterm.js on a WebGL canvas,
so the page's DOM holds no text. An init script catches the xterm `Terminal` object as
textual-serve's page stores it (`this.terminal = new Terminal(...)`) and the test reads
the screen through xterm's public buffer API (`buffer.active.getLine(y).translateToString()`).
Keys go to xterm's own input element, as a person's typing does; a tap is a mouse click
on the cell that shows the words.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, proc: subprocess.Popen, port: int) -> None:
        self.proc, self.port = proc, port
        self.url = f"http://127.0.0.1:{port}/"
        self.output = ""


@contextmanager
def serving(tmp_path: Path, *args: str):
    """Run `fluxx-judge serve --host 127.0.0.1 --port P` until the block ends, then Ctrl+C it."""
    port = free_port()
    env = dict(os.environ, FLUXX_JUDGE_SCENARIOS=str(tmp_path / "scenarios"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "fluxx_judge", "serve", "--host", "127.0.0.1", "--port", str(port),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            text=True, env=env, cwd=tmp_path)
    served = Served(proc, port)
    try:
        end = time.monotonic() + START_TIMEOUT
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError(f"the server stopped at once:\n{proc.stdout.read()}")
                time.sleep(0.1)
        else:
            raise AssertionError(f"the server did not listen on port {port} within {START_TIMEOUT:.0f} s")
        yield served
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        served.output = proc.stdout.read()
        proc.stdout.close()


def get(url: str, host: str | None = None) -> str:
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.read().decode("utf-8")


def test_the_page_loads_nothing_from_elsewhere_and_follows_the_address_used(tmp_path):
    with serving(tmp_path) as s:
        page = get(s.url)
        # what a phone that reached the machine by its network address is given
        from_phone = get(s.url, host=f"192.168.1.20:{s.port}")
        for path in ("static/js/textual.js", "static/css/xterm.css", "static/fonts/RobotoMono-VariableFont_wght.ttf"):
            assert f"http://127.0.0.1:{s.port}/{path}" in page
            with urllib.request.urlopen(s.url + path, timeout=10) as resp:
                assert resp.status == 200
    urls = set(re.findall(r"""(?:https?|wss?)://[^\s"'<>)]+""", page))
    assert urls and all(u.startswith((f"http://127.0.0.1:{s.port}/", f"ws://127.0.0.1:{s.port}/")) for u in urls), urls
    assert f'data-session-websocket-url="ws://127.0.0.1:{s.port}/ws"' in page
    assert f'data-session-websocket-url="ws://192.168.1.20:{s.port}/ws"' in from_phone
    assert f"http://192.168.1.20:{s.port}/static/js/textual.js" in from_phone
    # textual-serve's script and style sheet themselves fetch nothing from elsewhere either
    import textual_serve

    static = Path(textual_serve.__file__).parent / "static"
    script = (static / "js" / "textual.js").read_text(encoding="utf-8")
    assert not re.search(r"""(fetch|import|src=|url\()\s*\(?["']https?://""", script)
    assert "@import" not in (static / "css" / "xterm.css").read_text(encoding="utf-8")
    # the server said where it is, and stopped cleanly on Ctrl+C
    assert f"open http://127.0.0.1:{s.port}/" in s.output
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


def descendants(pid: int) -> set[int]:
    """The processes under `pid` (Linux /proc)."""
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += kids - found
            found |= kids
    return found


@pytest.mark.slow(6)
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from Linux's /proc")
def test_a_tab_past_the_limit_is_refused_and_ctrl_c_closes_the_open_tab_and_its_app(tmp_path):
    import asyncio

    import aiohttp

    from fluxx_judge.serve import SHUTDOWN_WAIT

    closing = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)

    async def two_tabs_then_ctrl_c(s: Served) -> tuple[str, set[int], float]:
        url = f"ws://127.0.0.1:{s.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
            async with http.ws_connect(url) as tab:
                await tab.receive(timeout=30)               # the first tab's app draws
                async with http.ws_connect(url) as second:  # one too many for --max-apps 1
                    said = await second.receive(timeout=30)
                    assert (await second.receive(timeout=30)).type in closing
                apps = descendants(s.proc.pid)
                s.proc.send_signal(signal.SIGINT)
                start = time.monotonic()
                while (await tab.receive(timeout=STOP_TIMEOUT)).type not in closing:
                    pass
                return said.data.decode(), apps, time.monotonic() - start

    with serving(tmp_path, "--max-apps", "1") as s:
        said, apps, took = asyncio.run(two_tabs_then_ctrl_c(s))
        s.proc.wait(STOP_TIMEOUT)
    assert "1 app(s) already open here" in said and "the server's limit" in said and "Close a tab" in said
    assert apps, "the tab started no app process"
    # closed by the server at once, not left to aiohttp's cancelling after its shutdown wait
    assert took < SHUTDOWN_WAIT, f"the tab was closed {took:.1f} s after Ctrl+C"
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
    assert "--host 0.0.0.0" in words and "anyone who can reach this machine can use the app" in words


# -- the real browser --------------------------------------------------------------------

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


@pytest.mark.slow(11)
def test_the_app_in_a_real_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the `test` extra has it)")
    browser_exe = chromium_path()
    if browser_exe is None:
        pytest.skip("no chromium here (`make test` installs Debian's chromium where apt-get may run as root)")
    with serving(tmp_path) as s, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_exe, headless=True)
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
                raise AssertionError(f"the browser never showed {texts!r}; it showed:\n{shown}")

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
        finally:
            browser.close()
    assert "Traceback" not in s.output and s.proc.returncode == 0, s.output
