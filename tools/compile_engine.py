"""Build the compiled engine: the engine core's modules compiled to C extensions by
mypyc (which comes with the pinned mypy), from the very same typed source.

    python tools/compile_engine.py [--out build/compiled]

The pure Python engine stays the reference: `make run` and `make test` never build
or load this. The build is a copy of the `adjudicator` package in OUT with the modules
of `CORE` compiled beside their sources; a process runs it with OUT first on its
path (`PYTHONPATH=build/compiled`, as `make test-compiled` and `make bench-compiled`
do), and every other module, the cards' mechanics among them, stays interpreted.
Needs a C compiler and Python's headers; about a minute on two cores.

`is_compiled()` in `adjudicator.engine` says which build a process is running.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The modules a step of the game runs through. Left out, and so interpreted:
# - the cards' mechanics: their hooks are untyped, and an interpreted class cannot
#   subclass a compiled one;
# - continuations: its runners are greenlets, and compiled code switching them crashed;
# - pending: the engine keeps weak references to a Pending, which a compiled class lacks;
# - decisions: mypyc 1.13 leaks the attribute dict of an exception raised from a
#   compiled class of Exception (NeedDecision, Rejected...);
# - systems, interactions: little time goes there, and tests replace a system's step
#   and read the interaction graph's signatures, which compiled objects do not allow.
CORE = ("state", "quantities", "core", "movement", "log", "answers", "responses", "engine",
        "history", "events", "loops", "variants", "solo")


def _copy_package(out: Path) -> None:
    """A copy of the `adjudicator` package (sources and data) in the empty folder `out`."""
    shutil.copytree(ROOT / "adjudicator", out / "adjudicator", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    shutil.copy2(ROOT / "pyproject.toml", out / "pyproject.toml")      # mypy's configuration


def _build(out: Path, jobs: int, opt: str) -> None:
    """Compile `CORE` in place in `out` (run there, in a process of its own)."""
    os.chdir(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            from setuptools import setup   # type: ignore[import-not-found]
        except ImportError:                  # Python 3.11's own distutils does the same
            from distutils.core import setup
        from mypyc.build import mypycify   # type: ignore[import-untyped]

    sys.argv = [sys.argv[0], "build_ext", "--inplace", "--build-temp", "tmp", f"--parallel={jobs}"]
    modules = mypycify(["--config-file", "pyproject.toml", *[f"adjudicator/{m}.py" for m in CORE]],
                       opt_level=opt, target_dir="tmp/mypyc")
    setup(name="fluxx-judge-compiled-engine", packages=[], py_modules=[], ext_modules=modules)


def build(out: Path, jobs: int = 2, opt: str = "3") -> int:
    """Build in a folder beside `out`, then put it in place of `out`: a process running
    the previous build keeps a whole one until then."""
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        print("compile_engine: no C compiler (cc or gcc) found: the compiled engine needs one; "
              "the pure Python engine works without it", file=sys.stderr)
        return 1
    work = out.with_name(out.name + ".building")
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    _copy_package(work)
    done = subprocess.run([sys.executable, __file__, "--out", str(work), "--jobs", str(jobs), "--opt", opt, "--inside"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout[-3000:] + done.stderr[-5000:], file=sys.stderr)
        print(f"compile_engine: the build failed (exit {done.returncode})", file=sys.stderr)
        return 1
    check = subprocess.run([sys.executable, "-c", "from adjudicator.engine import is_compiled; "
                            "raise SystemExit(0 if is_compiled() else 1)"],
                           env=dict(os.environ, PYTHONPATH=str(work)), cwd=work, capture_output=True, text=True)
    if check.returncode != 0:
        print(check.stderr[-3000:], file=sys.stderr)
        print("compile_engine: the build does not load as the compiled engine", file=sys.stderr)
        return 1
    shutil.rmtree(work / "tmp", ignore_errors=True)         # (the C sources and objects)
    # The modules left interpreted are byte-compiled here, once: where PYTHONDONTWRITEBYTECODE
    # is set (it is on this machine) no process writes their bytecode, and each process
    # would compile them from source (0.07 s of every `check FILE`, a third of its target).
    compiled = subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", str(work / "adjudicator")],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        print(compiled.stdout[-3000:] + compiled.stderr[-3000:], file=sys.stderr)
        print("compile_engine: the interpreted modules did not byte-compile", file=sys.stderr)
        return 1
    if out.exists():
        shutil.rmtree(out)
    work.rename(out)
    print(f"compiled engine built in {out} ({len(CORE)} modules); run with PYTHONPATH={out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python tools/compile_engine.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "compiled")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--opt", default="3", choices=("0", "1", "2", "3"),
                    help="the C compiler's optimisation level (0 builds fastest, for trying a change)")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inside:
        _build(args.out.resolve(), args.jobs, args.opt)
        return 0
    return build(args.out.resolve(), args.jobs, args.opt)


if __name__ == "__main__":
    sys.exit(main())
