"""The app as `fluxx-judge serve` runs it for one browser tab; not a command for users.

    python -m fluxx_judge.served_app --root FOLDER --browser ID

The server starts one such process per tab (fluxx_judge/serve_tabs.py), directly, with
the folder its apps may open and save in and the id of the browser the tab belongs to.
Both come from the server's own command line and cookies it made, never from what the
browser sends: see `tui.app.run_served_app`.
"""

from __future__ import annotations

import argparse


def parser() -> argparse.ArgumentParser:
    """The served app's command line (`fluxx_judge.serve_tabs.app_argv` writes it)."""
    out = argparse.ArgumentParser(prog="python -m fluxx_judge.served_app",
                                  description="The app for one browser tab of `fluxx-judge serve`.")
    out.add_argument("--root", required=True, help="the one folder the app opens and saves in")
    out.add_argument("--browser", required=True, help="the id of the browser the tab belongs to")
    return out


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from tui.app import run_served_app

    return run_served_app(args.root, args.browser)


if __name__ == "__main__":
    raise SystemExit(main())
