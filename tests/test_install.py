"""`pip install .` (not editable) works: run from another directory, the installed
command finds its built-in cards, scenarios and rulings through importlib.resources."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import REPO, made_once


def _build_and_unpack(folder):
    wheel_dir, site = folder / "wheel", folder / "site"
    # hatchling comes with the test extra, so no isolated build environment is made (seconds saved)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                            "-w", str(wheel_dir), str(REPO)], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{build.stderr[-2000:]}")
    wheel = next(wheel_dir.glob("fluxx_judge-*.whl"))
    with zipfile.ZipFile(wheel) as whl:      # a pure-Python wheel installs by unpacking it
        assert all(not n.endswith((".so", ".pyd")) for n in whl.namelist())
        whl.extractall(site)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel is built and unpacked once for the whole run (the workers share it);
    each worker runs it from a folder of its own."""
    site = made_once(tmp_path_factory, "installed", _build_and_unpack) / "site"
    return tmp_path_factory.mktemp("install"), site


def _run(installed, *args):
    tmp, site = installed
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run([sys.executable, "-m", "fluxx_judge", *args], cwd=tmp, env=env, capture_output=True, text=True)


def test_installed_package_is_the_one_running(installed):
    tmp, site = installed
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", "import adjudicator, scenarios, rulings; print(adjudicator.__file__);"
                          "print(scenarios.library_path())"], cwd=tmp, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert all(line.startswith(str(site)) for line in out.stdout.split())


def test_installed_check_finds_builtin_scenarios(installed):
    """The installed command's library is the installed package's own: every file of
    scenarios/ is found there (the whole library is replayed by tests/test_library.py,
    so here one folder of it is replayed through the installed command)."""
    tmp, site = installed
    env = dict(os.environ, PYTHONPATH=str(site))
    listed = subprocess.run([sys.executable, "-c", "from fluxx_judge.cli import _scenario_files, builtin_scenarios_dir;"
                             "print(chr(10).join(_scenario_files([builtin_scenarios_dir()])[0]))"],
                            cwd=tmp, env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    files = listed.stdout.split()
    assert len(files) == len(list((REPO / "scenarios").rglob("*.yaml")))
    assert all(f.startswith(str(site / "scenarios")) for f in files)
    out = _run(installed, "check", str(site / "scenarios" / "solo"))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-1]
    assert int(last.split()[0]) == len(list((REPO / "scenarios" / "solo").glob("*.yaml"))) and last.endswith(" 0 failed")


def test_installed_cards_and_rulings(installed):
    out = _run(installed, "cards", "--edition", "base")
    assert out.returncode == 0 and "100 cards" in out.stdout
    out = _run(installed, "rulings", "--json")
    assert out.returncode == 0, out.stderr
    import json

    assert len(json.loads(out.stdout)) == len(list((REPO / "rulings" / "data").glob("*.yaml")))
