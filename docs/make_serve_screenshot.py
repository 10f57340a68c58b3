"""Take the README's picture of the served app (docs/img/serve-phone.png).

    .venv/bin/python docs/make_serve_screenshot.py

Starts `fluxx-judge serve` on a free localhost port, opens it in Debian's headless
chromium (playwright, as tests/test_serve.py does) at a phone's landscape size and pixel
density, searches the rulings and saves what the browser shows.

Headless chromium's software WebGL draws xterm's WebGL renderer at twice its size on a
screen of pixel density 2, so WebGL is turned off here and xterm draws with its canvas
renderer, as a browser without WebGL does.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.serve_support import CATCH_TERMINAL, READ_SCREEN, chromium_path, serving  # noqa: E402

OUT = ROOT / "docs" / "img" / "serve-phone.png"
PHONE = {"width": 844, "height": 390}       # a common phone, held sideways (CSS pixels)


def main() -> int:
    exe = chromium_path()
    if exe is None:
        print("no chromium: apt-get install chromium", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp)) as s, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, headless=True, args=["--disable-webgl", "--disable-webgl2"])
        try:
            page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            page.add_init_script(CATCH_TERMINAL)
            page.goto(s.url)

            def wait_for(text: str) -> None:
                end = time.monotonic() + 60
                while text not in (page.evaluate(READ_SCREEN) or ""):
                    if time.monotonic() > end:
                        raise SystemExit(f"never saw {text!r}")
                    time.sleep(0.1)

            wait_for("Search the rulings")
            page.locator(".xterm-helper-textarea").focus()
            page.keyboard.type("play all time portal")
            wait_for("rulings found")
            time.sleep(0.5)                  # let the last frame reach the canvas
            page.screenshot(path=str(OUT))
        finally:
            browser.close()
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
