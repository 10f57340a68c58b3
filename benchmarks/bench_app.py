"""App start-up benchmark: from launching the interpreter to the first screen painted, and
memory (peak RSS) at that point and after a first search (corpus loaded, index built).

Each run starts a fresh interpreter that starts the app as `fluxx-judge` does (through
the command line's `main`), headless, on the default screen (Rulings), with an empty
rulings cache so the search index is built as on a first launch. `run()` returns the
medians; `python benchmarks/bench_app.py` prints them.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5

CHILD = r"""
import json, resource, sys, time
started = time.time()
from tui.app import FluxxJudgeApp
from tui.screens import rulings as R
imported = time.time()
marks = {}

def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

mount = R.RulingsScreen.on_mount
def on_mount(self):
    mount(self)
    def painted():
        marks["ready"] = time.time()
        marks["ready_rss_mb"] = rss_mb()
        self.query_one("#query").value = "play all turn end"
    self.call_after_refresh(painted)
R.RulingsScreen.on_mount = on_mount

corpus_ready = R.RulingsScreen._corpus_ready
def _corpus_ready(self, corpus):
    corpus_ready(self, corpus)
    marks.setdefault("listed", time.time())
R.RulingsScreen._corpus_ready = _corpus_ready

show = R.RulingsScreen._show_result
def _show_result(self, generation, result):
    show(self, generation, result)
    if getattr(result, "hits", None) and "searched" not in marks:
        marks["searched"] = time.time()
        marks["searched_rss_mb"] = rss_mb()
        self.app.exit()
R.RulingsScreen._show_result = _show_result

run = FluxxJudgeApp.run
FluxxJudgeApp.run = lambda self, **kw: run(self, headless=True, size=(120, 40))   # no terminal here
from fluxx_judge.cli import main     # the way `fluxx-judge` starts the app
main([])
marks.update(started=started, imported=imported)
print("BENCH " + json.dumps(marks))
"""


def _one_run(cache: str) -> dict[str, float]:
    env = dict(os.environ, FLUXX_JUDGE_CACHE=cache, PYTHONPATH=str(ROOT))
    launched = time.time()
    out = subprocess.run([sys.executable, "-c", CHILD], cwd=str(ROOT), env=env, capture_output=True, text=True,
                         timeout=120)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"the app did not report (exit {out.returncode}): {out.stderr[-500:]}")
    m = json.loads(line[6:])
    return {
        "ready": m["ready"] - launched,
        "interpreter": m["started"] - launched,
        "import": m["imported"] - m["started"],
        "listed": m.get("listed", m["ready"]) - launched,
        "searched": m["searched"] - launched,
        "ready_rss_mb": m["ready_rss_mb"],
        "searched_rss_mb": m["searched_rss_mb"],
    }


def run(runs: int = RUNS) -> dict:
    samples = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="fluxx-judge-bench-") as cache:
            samples.append(_one_run(cache))

    def med(key: str, digits: int = 3) -> float:
        return round(statistics.median(s[key] for s in samples), digits)

    return {
        "app_ready_seconds": med("ready"),
        "app_ready_after_interpreter_seconds": round(med("ready") - med("interpreter"), 3),
        "app_import_seconds": med("import"),
        "app_rulings_listed_seconds": med("listed"),
        "app_first_search_seconds": med("searched"),
        "app_ready_rss_mb": med("ready_rss_mb", 1),
        "app_peak_rss_mb": med("searched_rss_mb", 1),
        "app_runs": runs,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:40} {value}")
