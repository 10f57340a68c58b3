"""Start-up stays light: `--help` loads no corpus and no graph library; checking a
scenario never loads networkx, rules in play or not; the checked card catalogue
is kept in the user's cache and is checked again whenever it could be stale."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO

PROBE = """
import sys
{body}
print({{name: name in sys.modules for name in ("rulings.corpus", "networkx", "whoosh", "textual")}})
"""


def loaded_after(body: str, tmp_path) -> dict[str, bool]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(body=body)], cwd=REPO, capture_output=True, text=True,
                         env={"FLUXX_JUDGE_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert out.returncode == 0, out.stderr
    return eval(out.stdout.strip().splitlines()[-1])


def test_help_loads_no_corpus_graph_search_or_app(tmp_path):
    body = "from fluxx_judge.cli import build_parser\nbuild_parser().format_help()"
    assert loaded_after(body, tmp_path) == {"rulings.corpus": False, "networkx": False, "whoosh": False,
                                            "textual": False}


def test_check_never_loads_networkx(tmp_path):
    """The engine asks which rules displace which of facts worked out without the graph
    library (`interactions.RuleFacts`), even when rules are in play and placed."""
    plain = REPO / "scenarios" / "base" / "most-keepers-blocked-leader-nobody-wins.yaml"   # no rules
    rules = REPO / "scenarios" / "base" / "same-rule-second-double-agenda-keeps-goals.yaml"
    check = "from fluxx_judge.cli import main\nassert main(['check', {!r}]) == 0"
    assert loaded_after(check.format(str(plain)), tmp_path)["networkx"] is False
    assert loaded_after(check.format(str(rules)), tmp_path)["networkx"] is False


def test_the_checked_catalogue_is_cached_and_checked_again_when_stale(tmp_path, monkeypatch):
    from adjudicator import catalogue as C

    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    files = C.builtin_card_files()
    key = C._catalogue_key(files)
    fresh = C.load_catalogue(files)
    assert C._read_cached_catalogue(key) is None            # nothing cached yet
    C._write_cached_catalogue(key, [(path, C._record_nodes(text, path)) for path, text in files])
    again = C._read_cached_catalogue(key)
    assert again is not None and [c.__dict__ for c in again] == [c.__dict__ for c in fresh]
    # another key (a card file or a mechanic changed), or a damaged file: never trusted
    assert C._read_cached_catalogue("another") is None
    (tmp_path / "catalogue.json").write_text("{not json")
    assert C._read_cached_catalogue(key) is None
    changed = [(files[0][0], files[0][1] + "\n# edited\n"), *files[1:]]
    assert C._catalogue_key(changed) != key


def test_a_second_process_reads_the_cached_catalogue(tmp_path):
    body = ("from adjudicator import catalogue as C\nC.default_catalogue()\n"
            "import adjudicator.strictyaml as Y\nY.parse = None")
    loaded_after(body, tmp_path)                            # the first start writes the cache
    assert (tmp_path / "catalogue.json").is_file()
    # the second start never parses the card files (parse is gone) and still has every card
    check = ("import adjudicator.strictyaml as Y\nY.parse = None\n"
             "from adjudicator.catalogue import default_catalogue\nassert len(list(default_catalogue())) > 300")
    loaded_after(check, tmp_path)


def test_pilot_apps_run_at_the_tests_frame_rate_and_programs_at_the_users():
    """tests/conftest.py slows Textual's frames for the apps a test drives in this process
    only: a program a test starts (tmux's app, `serve`'s apps) gets the environment as
    the tester has it."""
    import os

    import textual.constants

    from tests.conftest import PILOT_FPS

    tester_set = os.environ.get("TEXTUAL_FPS")
    assert textual.constants.MAX_FPS == int(tester_set or PILOT_FPS)
    seen = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('TEXTUAL_FPS'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert seen == str(tester_set)
