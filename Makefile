# Two commands for a newcomer: `make run` and `make test`.
# Both build .venv from nothing when it is missing, install the project, then act.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

BROWSER := $(VENV)/.browser-tried

.PHONY: run test fuzz bench bench-compare compiled test-compiled bench-compiled lock uv clean

# Installs are exact: uv.lock pins every package (the project's and the tests'), and
# requirements.lock is the same pins with their hashes, exported from it for installers
# that do not read uv.lock. `make` installs what requirements.lock says, nothing else: uv
# (from PyPI, itself pinned, fetched by the system's pip beside the venv, .venv/uv) syncs
# the venv to it; where uv cannot be had, pip installs the same file with its hashes.
# The project itself goes in editable, built by the locked hatchling (no isolated build
# environment, which would fetch whatever hatchling is newest). `make lock` refreshes
# both files on purpose; tests/test_lock.py checks that they agree with pyproject.toml.
#
# uv writes no bytecode, and where PYTHONDONTWRITEBYTECODE is set (it is in this
# machine's environment) no process writes any either, so each of the test suite's many
# Python processes would compile Textual, Rich, whoosh, networkx... anew: they are
# compiled here, once, on every core, with the project's own packages (not the tools no
# test process imports as Python: pip, setuptools, mypy and mypyc, which run as native
# code, pygments' lexers, the installed packages' own tests). A file that does not
# compile is only left uncompiled.
UV_VERSION := 0.13.9
UV := $(VENV)/uv/bin/uv
LOCK := requirements.lock
NO_BYTECODE := /site-packages/(pip|setuptools|pkg_resources|_distutils_hack|mypy|mypyc)/|/pygments/lexers/|/tests?/
PIP_QUIET := --quiet --disable-pip-version-check
$(STAMP): pyproject.toml uv.lock $(LOCK)
	@test -x $(PY) || $(PYTHON) -m venv --without-pip $(VENV)
	@{ $(MAKE) --no-print-directory uv && \
	   $(UV) pip sync --quiet --python $(PY) --require-hashes $(LOCK) && \
	   $(UV) pip install --quiet --python $(PY) --no-deps --no-build-isolation -e . ; } || \
	 { echo "uv could not be used: installing with pip instead" && \
	   $(PY) -m ensurepip --upgrade >/dev/null && \
	   $(PY) -m pip install $(PIP_QUIET) --require-hashes --no-deps -r $(LOCK) && \
	   $(PY) -m pip install $(PIP_QUIET) --no-deps --no-build-isolation -e . ; }
	@$(PY) -m compileall -q -j 0 -x '$(NO_BYTECODE)' $(VENV)/lib adjudicator rulings tui fluxx_judge scenarios >/dev/null || true
	@touch $(STAMP)

# uv itself, pinned, beside the venv (fetched again only when its version changes)
uv:
	@test -x $(UV) && $(UV) --version | grep -qF ' $(UV_VERSION)' || \
	 $(PYTHON) -m pip install $(PIP_QUIET) --root-user-action=ignore --upgrade --no-deps --no-compile --target $(VENV)/uv uv==$(UV_VERSION)

# Refresh the lock on purpose: the newest releases that pyproject.toml allows, pinned.
# Commit uv.lock and requirements.lock together, after `make test` passes on them.
lock: uv
	$(UV) lock --upgrade --python $(PYTHON)
	$(UV) export --frozen --extra test --no-emit-project --no-header --format requirements-txt --quiet -o $(LOCK)

run: $(STAMP)
	$(VENV)/bin/fluxx-judge

# The browser test (tests/test_serve.py) drives Debian's chromium. Where it is missing and
# this is root with apt-get, install it, once: the stamp records the try, so a machine that
# cannot install it is not asked again and the test reports itself skipped with the reason.
$(BROWSER): | $(STAMP)
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Debian's chromium for the browser test..."; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  { apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; } || \
	  echo "Could not install chromium: the browser test will be skipped."; \
	else echo "No chromium and no way to install it here: the browser test will be skipped."; fi
	@touch $@

# Derandomized (hypothesis profile `ci`): the same examples every run; spread by
# pytest-xdist over three workers (more than the two cores: the app, browser and terminal tests
# spend much of their time waiting), handed out one test at a time, the longest first
# (tests/conftest.py orders them), so that no worker is left alone with a long one at the end.
test: $(STAMP) $(BROWSER)
	$(PY) -m pytest -q -n 3 --maxschedchunk=1

# The same properties with fresh random seeds and FLUXX_FUZZ_FACTOR (default 20) times
# the examples. A failure prints the example (and a @reproduce_failure blob): add it to
# the test as an @example(...) or a plain test so `make test` keeps checking it.
FUZZ_TESTS := $(shell grep -l -e '^from hypothesis' -e 'fuzzing()' tests/test_*.py)
fuzz: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider --hypothesis-profile=fuzz $(FUZZ_TESTS)

# PEER=DIR: a checkout of the peer simulator fluxx_sim (with numpy for DIR/.venv/bin/python)
# to run self-play side by side with (benchmarks/bench_peer.py); without it that part is skipped
bench: $(STAMP)
	$(if $(PEER),FLUXX_PEER=$(PEER) )$(PY) -m benchmarks

# self-play against an older checkout, side by side (CPU time, then instructions counted
# by valgrind, which the load hardly moves): make bench-compare OLD=../old
OLD ?= ../old
bench-compare: $(STAMP)
	$(PY) -m benchmarks.compare_selfplay --old $(OLD)
	$(PY) -m benchmarks.instructions --old $(OLD)

# The compiled engine: the engine core's modules compiled to C by mypyc (which comes with the
# pinned mypy) from the very same typed source, into build/compiled (tools/compile_engine.py;
# needs a C compiler and Python's headers, about a minute). An accelerator only: the pure
# Python engine is the reference, and `make run` and `make test` neither build nor load this.
# A process runs it with the folder first on its path and PYTHONSAFEPATH=1 (so that the
# sources in the current folder do not come first).
COMPILED := $(CURDIR)/build/compiled
ENGINE_SOURCES := $(wildcard adjudicator/*.py adjudicator/mechanics/*.py)
RUN_COMPILED := FLUXX_ENGINE_BUILD=compiled PYTHONSAFEPATH=1 PYTHONPATH=$(COMPILED)
$(COMPILED)/.built: $(STAMP) $(ENGINE_SOURCES) tools/compile_engine.py
	$(PY) tools/compile_engine.py --out $(COMPILED)
	@touch $@

compiled: $(COMPILED)/.built

# the whole suite on the compiled engine (tests/conftest.py stops a run that loaded the
# pure Python one); --import-mode=append keeps the checkout's own sources behind it
test-compiled: $(COMPILED)/.built $(BROWSER)
	$(RUN_COMPILED) $(PY) -m pytest -q -n 3 --maxschedchunk=1 --import-mode=append

bench-compiled: $(COMPILED)/.built
	$(if $(PEER),FLUXX_PEER=$(PEER) )$(RUN_COMPILED) $(PY) -m benchmarks

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
