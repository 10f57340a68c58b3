"""Hostile input within bounds: every generated hostile file (tests/hostile_files.py)
through `fluxx-judge check` and `fluxx-judge replay`, and FAQ-style files near 1 MB
through `fluxx-judge ingest`, each in its own process; the worst wall time and the
worst peak memory (RSS) of any one run.

Target: no input up to 1 MB takes more than 2 s or 300 MB. Run alone with
`python -m benchmarks.bench_hostile` (prints every file's figures).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent))      # (last: a compiled engine first on the path stays first)

from tests.hostile_files import hostile_files  # noqa: E402


def _measure(argv: list[str]) -> tuple[float, float, int]:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, proc.returncode


def faq_files() -> list[tuple[str, bytes]]:
    """FAQ-style text files near 1 MB for `fluxx-judge ingest`."""
    qa = "Q: " + "word " * 60 + "Milk Cookies Time Portal?\nA: " + "answer " * 60 + "\n"
    return [("faq-1000-questions.txt", (qa * 1_000).encode()),
            ("faq-2700-questions.txt", (qa * 2_700)[:990_000].encode()),
            ("faq-titles.txt", ("Q: a\n" * 190_000).encode()),
            ("faq-one-line.txt", ("x" * 990_000).encode()),
            ("faq-bold-marks.txt", ("**Q:** " * 140_000).encode())]


def run(verbose: bool = False) -> dict:
    exe = [sys.executable, "-m", "fluxx_judge"]
    baseline, base_rss, _ = _measure(exe + ["--help"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in hostile_files(random.Random(1)):
            path = os.path.join(tmp, name)
            with open(path, "wb") as fh:
                fh.write(data)
            for command in ("check", "replay"):
                wall, rss, code = _measure(exe + [command, path])
                rows.append((wall, rss, f"{command} {name} ({len(data):,} bytes)", code))
                if verbose:
                    print(f"{wall:6.2f} s {rss:7.1f} MB  exit {code}  {command} {name} ({len(data):,} bytes)")
        os.environ["FLUXX_JUDGE_CACHE"] = os.path.join(tmp, "cache")
        for name, data in faq_files():
            path = os.path.join(tmp, name)
            with open(path, "wb") as fh:
                fh.write(data)
            wall, rss, code = _measure(exe + ["ingest", path])
            rows.append((wall, rss, f"ingest {name} ({len(data):,} bytes)", code))
            if verbose:
                print(f"{wall:6.2f} s {rss:7.1f} MB  exit {code}  ingest {name} ({len(data):,} bytes)")
    worst_time = max(rows)
    worst_rss = max(rows, key=lambda r: r[1])
    return {
        "hostile_runs": len(rows),
        "hostile_worst_seconds": round(worst_time[0], 2),
        "hostile_worst_seconds_run": worst_time[2],
        "hostile_worst_rss_mb": round(worst_rss[1], 1),
        "hostile_worst_rss_run": worst_rss[2],
        "hostile_startup_seconds": round(baseline, 2),
        "hostile_bad_exit_codes": sorted({r[3] for r in rows} - {0, 1}),
    }


if __name__ == "__main__":
    for key, value in run(verbose=True).items():
        print(f"{key}: {value}")
