"""`make bench`: run every benchmark, compare with the targets, write
benchmarks/results.json and print a table.

Each benchmark runs in a process of its own: a process's peak memory is the most it
ever held, and a child forked from a big process starts with that peak, so a
benchmark run after the 10,000-record search build in one process reported its
memory as 305 MB (the app's is about 75 MB)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent))      # (last: the compiled engine, when asked for, comes first)

# metric -> (target, "max" or "min")
TARGETS = {
    "scenario_replay_median_ms": (5.0, "max"),
    "check_library_wall_seconds": (2.0, "max"),
    "search_1000_query_p95_ms": (10.0, "max"),
    "search_10000_query_p95_ms": (25.0, "max"),
    "search_10000_index_build_seconds": (4.0, "max"),
    "search_10000_cold_process_seconds": (0.4, "max"),
    "moves_with_reveals_median_ms": (250.0, "max"),
    "app_ready_seconds": (1.5, "max"),
    "app_peak_rss_mb": (150.0, "max"),
    "open_dialog_list_cpu_ms": (80.0, "max"),
    "open_dialog_filter_key_cpu_ms": (40.0, "max"),
    "hostile_worst_seconds": (2.0, "max"),
    "hostile_worst_rss_mb": (300.0, "max"),
    "analysis_positions_per_second": (1_000, "min"),
    "analysis_disputes_answered_4_events_1s_share": (0.9, "min"),
    "analysis_peak_rss_mb": (300.0, "max"),
    "analysis_memory_growth_5_to_50_searches_mb": (5.0, "max"),
    "decisions_7_over_1_replay": (2.0, "max"),
    "cli_help_median_seconds": (0.1, "max"),
    "check_one_scenario_median_seconds": (0.2, "max"),
    # self-play against the peer simulator, ours / theirs (bench_peer: needs PEER=DIR)
    "peer_ratio_per_play": (1.0, "min"),
    "peer_ratio_per_play_with_legal": (3.0, "min"),
}
# what a missed target means where it is not the build's to meet: issue 28 allows a compiled
# build of the engine core as the accelerator for these, pure Python staying the reference
COMPILED_TARGETS = {"peer_ratio_per_play", "peer_ratio_per_play_with_legal"}
MODULES = ["bench_selfplay", "bench_previous", "bench_peer", "bench_decisions", "bench_engine", "bench_search", "bench_app", "bench_dialogs", "bench_hostile", "bench_analysis"]


_MARK = "benchmark results: "
# (the checkout goes last on the path: `make bench-compiled` puts the compiled engine
# first, which a checkout put in front of it would hide, as it once did)
_CHILD = f"""
import json, os, sys
sys.path.append({str(HERE.parent)!r})
if os.environ.get("FLUXX_ENGINE_BUILD") == "compiled":
    from adjudicator.engine import is_compiled
    if not is_compiled():
        sys.exit("FLUXX_ENGINE_BUILD=compiled, but the pure Python engine was loaded: run `make bench-compiled`")
import importlib
figures = importlib.import_module("benchmarks." + sys.argv[1]).run()
print({_MARK!r} + json.dumps(figures))
"""


def run_alone(name: str) -> dict[str, object]:
    """One benchmark's figures, from a process of its own; what it prints passes through
    as it comes, so a long benchmark shows it is moving."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, name], cwd=HERE.parent, stdout=subprocess.PIPE,
                            text=True, env=env)
    figures: dict[str, object] | None = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(_MARK):
            figures = json.loads(line[len(_MARK):])
        else:
            print(f"    {line.rstrip()}", flush=True)
    proc.wait()
    if figures is None:     # a broken benchmark is reported, not hidden (its traceback went to stderr)
        return {f"{name}_error": f"exited with {proc.returncode} and no figures"}
    return figures


def main() -> int:
    results: dict[str, object] = {}
    for number, name in enumerate(MODULES, 1):
        print(f"[{number}/{len(MODULES)}] {name}...", flush=True)
        start = time.perf_counter()
        figures = run_alone(name)
        results.update(figures)
        results[f"{name}_seconds"] = round(time.perf_counter() - start, 2)
        shown = ", ".join(f"{k} {v}" for k, v in figures.items() if k in TARGETS) or "no target figures"
        print(f"[{number}/{len(MODULES)}] {name}: {results[f'{name}_seconds']} s ({shown})", flush=True)
    from adjudicator.engine import is_compiled

    build = "compiled" if is_compiled() else "pure Python"
    machine = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
               "engine": build}
    verdicts = {}
    for metric, (target, kind) in TARGETS.items():
        value = results.get(metric)
        if isinstance(value, (int, float)):
            verdicts[metric] = "met" if (value >= target if kind == "min" else value <= target) else "MISSED"
        else:
            verdicts[metric] = "not measured"
    out = {"machine": machine, "results": results, "targets": {k: {"target": t, "kind": k2, "verdict": verdicts[k]}
                                                               for k, (t, k2) in TARGETS.items()}}
    (HERE / "results.json").write_text(json.dumps(out, indent=2) + "\n")
    print(f"{'metric':32} {'value':>12} {'target':>10}  verdict")
    for metric, (target, kind) in TARGETS.items():
        value = results.get(metric, "-")
        sign = ">=" if kind == "min" else "<="
        print(f"{metric:32} {value!s:>12} {sign}{target!s:>8}  {verdicts[metric]}")
    for k, v in results.items():
        if k not in TARGETS:
            print(f"  {k}: {v}")
    missed = sorted(m for m in COMPILED_TARGETS if verdicts[m] == "MISSED")
    if build == "pure Python" and missed:
        print(f"engine: pure Python (the reference). Issue 28 sets {' and '.join(missed)} for the compiled "
              "build: `make compiled`, then `make bench-compiled PEER=DIR`")
    else:
        print(f"engine: {build}")
    print(f"written to {HERE / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
