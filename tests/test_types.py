"""Every package type-checks: mypy (pinned in the test extra, configured under
[tool.mypy] in pyproject.toml) reports no error in any package the wheel ships.

mypy runs as a subprocess of the same interpreter, from the repository root so that it
reads the project's configuration; its cache (.mypy_cache there) keeps reruns fast."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import REPO

_ERROR = re.compile(r"^\S+\.py:\d+(:\d+)?: error: ")


def test_mypy_is_configured_for_every_package():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    assert sorted(config["tool"]["mypy"]["packages"]) == sorted(shipped)


@pytest.mark.slow(5)
def test_mypy_passes_on_every_package():
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300)
    out = (run.stdout + run.stderr).strip()
    if "No module named mypy" in out:
        raise AssertionError("mypy is not installed: it comes with the test extra (pip install -e '.[test]')")
    errors = [line for line in out.splitlines() if _ERROR.match(line)]
    assert run.returncode == 0 and not errors, (
        f"mypy exited {run.returncode} with {len(errors)} error(s):\n" + "\n".join(errors or [out]))
    # the configuration names the packages: a bare `mypy` checks all of them, not nothing
    checked = re.search(r"no issues found in (\d+) source files", out)
    assert checked and int(checked.group(1)) >= 120, f"mypy did not check every package:\n{out}"
