"""`make bench`'s self-play against this engine's previous commit, side by side in one
run: per play, per turn and per turn with the legal moves listed, as
`benchmarks.compare_selfplay` measures them (the same 60 games a round on each engine,
rounds alternating, process CPU time, medians), on pure Python for both.

The previous engine is the `adjudicator` package as it stood before the newest commit
that changed it, or as committed at HEAD when the checkout holds changes to it not yet
committed; FLUXX_BENCH_PREVIOUS=COMMIT names another. It is exported with `git archive`
into a temporary folder, which goes when the benchmark ends. Outside a git checkout, or
where git cannot run, the benchmark says it was skipped and why.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path

from benchmarks.compare_selfplay import FIGURES, compare

REPO = Path(__file__).resolve().parent.parent
ENGINE = "adjudicator"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def previous_commit() -> tuple[str, str]:
    """The commit holding the engine to compare with, and why that one."""
    named = os.environ.get("FLUXX_BENCH_PREVIOUS")
    if named:
        return _git("rev-parse", "--verify", named + "^{commit}"), "named by FLUXX_BENCH_PREVIOUS"
    if _git("status", "--porcelain", "--", ENGINE):
        return _git("rev-parse", "HEAD"), "HEAD (the checkout's engine has changes not committed)"
    newest = _git("log", "-1", "--format=%H", "--", ENGINE)
    return _git("rev-parse", "--verify", newest + "^"), f"the parent of {newest[:10]}, the newest commit that changed it"


def _export(commit: str, into: Path) -> None:
    """The engine package at `commit`, written under `into`."""
    data = subprocess.run(["git", "archive", "--format=tar", commit, ENGINE], cwd=REPO, capture_output=True,
                          check=True, timeout=120).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def run(rounds: int = 3) -> dict:
    try:
        commit, why = previous_commit()
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"skipped: no previous engine to compare with ({type(exc).__name__}: not a git checkout, "
              "or git cannot run here)", flush=True)
        return {"previous_skipped": "no git checkout"}
    print(f"previous engine: {commit[:10]} ({why})", flush=True)
    with tempfile.TemporaryDirectory(prefix="fluxx-judge-previous-") as folder:
        try:
            _export(commit, Path(folder))
        except (OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
            print(f"skipped: the engine at {commit[:10]} could not be exported ({type(exc).__name__})", flush=True)
            return {"previous_skipped": f"export of {commit[:10]} failed"}
        out = compare(Path(folder), rounds=rounds)
    figures: dict = {"previous_commit": commit[:10]}
    for f in FIGURES[:3]:
        figures[f"previous_{f}"] = round(out["old"][f], 1)
        figures[f"now_{f}"] = round(out["new"][f], 1)
        figures[f"now_over_previous_{f}"] = out["ratio"][f]
    figures["previous_errors"] = out["old"]["errors"] + out["new"]["errors"]
    # engines that decide alike play the very same events in the same games
    figures["previous_same_events"] = out["old"]["events"] == out["new"]["events"]
    print("  now / previous: " + ", ".join(f"{f} {out['ratio'][f]}x" for f in FIGURES[:3]), flush=True)
    return figures
