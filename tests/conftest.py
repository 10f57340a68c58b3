"""Shared test helpers: paths to the repo, the shared source material, scenario builders,
the hypothesis profiles and the one compiled scenario-schema validator.

Hypothesis profiles: `ci` (the default, used by `make test`) is derandomized, so every
run draws the same examples and a green suite stays green; `fuzz` (`make fuzz`) draws
fresh random seeds and many more examples. Property tests size themselves with
`examples(n)`: n under `ci`, n times the fuzz factor under `fuzz`.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import gc
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"

# The user's own folders are out of every test's reach, whatever the environment says:
# before anything runs, HOME, the XDG folders and fluxx-judge's own overrides point into
# one temporary folder for the whole run (the pytest-xdist workers, started from this
# process, inherit it; so does every program a test starts). Each test then gets a cache
# folder of its own (`_private_cache`). The folder goes when the run ends.
USER_FOLDERS = {"HOME": "home", "XDG_CONFIG_HOME": "home/.config", "XDG_CACHE_HOME": "home/.cache",
                "XDG_DATA_HOME": "home/.local/share", "XDG_STATE_HOME": "home/.local/state",
                "XDG_DOCUMENTS_DIR": "home/Documents", "FLUXX_JUDGE_CACHE": "home/.cache/fluxx-judge",
                "FLUXX_JUDGE_SCENARIOS": "home/Documents/fluxx-judge"}
_RUN_HOME = "FLUXX_JUDGE_TEST_RUN_HOME"      # set by the controller for its workers


def _private_user_folders() -> Path | None:
    """Point the user's folders at a new temporary folder; return it if this process made it."""
    import tempfile

    # a pytest-xdist worker, or this module imported a second time (as tests.conftest)
    ours = os.environ.get("PYTEST_XDIST_WORKER") or os.environ.get(_RUN_HOME + "_PID") == str(os.getpid())
    inherited = os.environ.get(_RUN_HOME) if ours else None
    made = None
    if inherited is None:
        inherited = made = tempfile.mkdtemp(prefix="fluxx-judge-tests-")
        os.environ[_RUN_HOME] = made
        os.environ[_RUN_HOME + "_PID"] = str(os.getpid())
    for var, sub in USER_FOLDERS.items():
        os.environ[var] = str(Path(inherited) / sub)
    (Path(inherited) / "home" / "Documents").mkdir(parents=True, exist_ok=True)
    return Path(made) if made else None


_MADE_RUN_HOME = _private_user_folders()


def _end_worker_at_once() -> None:
    """A pytest-xdist worker whose session has ended leaves without tearing down its
    interpreter: freeing, one by one, everything the run loaded (Textual, whoosh,
    hypothesis, the catalogue, frozen out of the cycle collector's sight) kept the
    controller waiting up to a second at the end of every run. Its results have been
    sent to the controller by then. Registered as this file is imported, it runs after
    every exit handler registered later (the tests', the app's, the engine's), once the
    output is flushed; a worker stopped before its session ended exits as usual."""
    if _SESSION_ENDED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


_SESSION_ENDED: list[bool] = []
if os.environ.get("PYTEST_XDIST_WORKER"):
    atexit.register(_end_worker_at_once)


# The app tests that run Textual in this process (`App.run_test()`) run it at 10 frames a
# second, not 60: a pilot presses keys far faster than anyone types, and at 60 each burst
# of changes is composed and drawn several times over, which no test looks at (a quarter
# of the app tests' CPU time when they run alone; about 3 s of a whole run, whose busy
# workers draw fewer frames anyway). Textual reads TEXTUAL_FPS once, when
# textual.screen is first imported, so the variable is set for that import and removed
# again: the apps a test starts as programs (tmux, `serve` and its browser) run at the
# rate a user's do. A TEXTUAL_FPS the tester set is left as it is.
PILOT_FPS = "10"


def _pilot_frame_rate(config) -> None:
    distributed_controller = not hasattr(config, "workerinput") and config.getoption("numprocesses", None)
    if "TEXTUAL_FPS" in os.environ or distributed_controller:     # (the controller runs no test)
        return
    os.environ["TEXTUAL_FPS"] = PILOT_FPS
    try:
        import textual.screen  # noqa: F401
    finally:
        del os.environ["TEXTUAL_FPS"]


def pytest_configure(config):
    """`make test-compiled` runs the whole suite on the compiled engine
    (FLUXX_ENGINE_BUILD=compiled): a run that would load the pure Python one instead
    stops at once, so it cannot pass for what it is not."""
    _pilot_frame_rate(config)
    if os.environ.get("FLUXX_ENGINE_BUILD") == "compiled":
        from adjudicator.engine import is_compiled

        if not is_compiled():
            pytest.exit("FLUXX_ENGINE_BUILD=compiled, but the pure Python engine was loaded: build the compiled "
                        "one (`make compiled`) and put its folder first on PYTHONPATH, with PYTHONSAFEPATH=1 "
                        "(`make test-compiled` does all three)", returncode=4)


def pytest_report_header(config):
    from adjudicator.engine import is_compiled

    return "engine: compiled (tools/compile_engine.py)" if is_compiled() else "engine: pure Python (the reference)"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _SESSION_ENDED.append(True)


def pytest_unconfigure(config):
    if _MADE_RUN_HOME is not None and not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(_MADE_RUN_HOME, ignore_errors=True)

def pytest_terminal_summary(terminalreporter):
    """Figures that tests report with `record_property("figure", ...)` (the relevance
    set's), printed after the run; they travel with the reports from parallel workers."""
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) == "call":
                for key, value in getattr(report, "user_properties", ()):
                    if key == "figure":
                        terminalreporter.write_line(str(value))


def pytest_collection_finish(session):
    """Python's cycle collector, set for a long test process. With its defaults (a young
    collection every 700 new objects) it took 19 s of a 96 s serial run, 15 s of them in
    68 full collections that walked everything the run had loaded (Textual, whoosh,
    hypothesis, the catalogue...) again and again: what collection loaded is frozen out of
    its sight, and it runs about 9 times less often (14 full collections), for about 7 s
    in all. What the tests check is unchanged (a test that needs garbage gone calls
    gc.collect() itself); each pytest-xdist worker does the same after collecting."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def pytest_collection_modifyitems(items):
    """The longest tests first, each marked `@pytest.mark.slow(seconds)` with about how
    long it takes alone: `make test` hands tests to its pytest-xdist workers one at a
    time (--maxschedchunk=1) in this order, so the long ones start at once, side by
    side, and the many short ones fill in after them; none is left to run alone at the
    end. The app's pilot tests (the async ones) spend much of their time waiting for the
    app: they are spread evenly through the first two thirds of the short ones, so that
    while one waits the others compute. (Together at the end, they left a core idle for a
    tenth of the run's last 12 s; together anywhere, they do the same there.) The rest
    keep pytest's order."""
    import inspect

    def seconds(item) -> float:
        mark = item.get_closest_marker("slow")
        return mark.args[0] if mark and mark.args else 0

    slow: list = []
    waiting: list = []
    computing: list = []
    for item in items:
        (slow if seconds(item) else waiting if inspect.iscoroutinefunction(getattr(item, "obj", None))
         else computing).append(item)
    slow.sort(key=seconds, reverse=True)       # stable: ties keep their order
    stride = (2 * len(computing) / 3) / max(1, len(waiting))
    spread: list = []
    placed = 0          # waiting tests placed so far: the k-th goes before computing test k * stride
    for i, item in enumerate(computing):
        while placed < len(waiting) and placed * stride <= i:
            spread.append(waiting[placed])
            placed += 1
        spread.append(item)
    spread += waiting[placed:]
    items[:] = slow + spread
    if os.environ.get("FLUXX_ENGINE_BUILD") == "compiled":
        # a test that watches the engine's own calls by patching a method of Engine or Core
        # cannot see into compiled code, which calls the compiled method directly
        for item in items:
            mark = item.get_closest_marker("patches_engine")
            if mark is not None:
                item.add_marker(pytest.mark.skip(reason=f"patches {mark.args[0]} to watch the engine's own calls, "
                                                        "which the compiled build makes directly"))


def safe_yaml(text: str):
    """Plain data from a YAML text the tests read (the shared checklists, the relevance
    set): PyYAML's safe loader in its libyaml build where present, about ten times
    faster than the pure Python one, which every test process would otherwise run."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", derandomize=True, database=None, deadline=None, max_examples=100,
                          suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("fuzz", derandomize=False, database=None, deadline=None,
                          max_examples=100 * int(os.environ.get("FLUXX_FUZZ_FACTOR", "20")),
                          suppress_health_check=_QUIET, print_blob=True)
# This module is imported twice (as pytest's conftest and as tests.conftest by the tests
# that use its helpers); only the first import picks the profile, and never over one
# that --hypothesis-profile (make fuzz) has already loaded.
if settings.get_current_profile_name() == "default":
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(n: int) -> int:
    """`n` examples under the ci profile, proportionally more under fuzz."""
    return max(1, n * settings.default.max_examples // 100)


def fuzzing() -> bool:
    """True under the fuzz profile (random seeds): loops outside hypothesis scale with it."""
    return not settings.default.derandomize


@functools.lru_cache(maxsize=1)
def schema_validator():
    """docs/scenario.schema.json compiled once per test session."""
    import jsonschema

    schema = json.loads((REPO / "docs" / "scenario.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Each test has a cache and data folder of its own (the rulings index and the
    imported rulings live there): nothing one test leaves there reaches another."""
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path_factory.mktemp("cache")))


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder `make` fills once per test run, shared by every pytest-xdist worker (the
    first to ask makes it, under a lock; the others wait and reuse it). Tests must only
    read it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent                  # the run's own temporary folder, above the workers'
    folder, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def write_scenario(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def run_scenario(tmp_path: Path, text: str):
    """Replay scenario text and require that it loads and every expectation holds."""
    from adjudicator.replay import replay_file

    verdict = replay_file(str(write_scenario(tmp_path, text)))
    assert verdict.error is None, str(verdict.error)
    assert verdict.all_failures == [], verdict.all_failures
    return verdict
