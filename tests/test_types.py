"""The engine package type-checks: mypy (pinned in the test extra, configured under
[tool.mypy] in pyproject.toml) reports no error in `adjudicator`.

mypy runs as a subprocess of the same interpreter, from the repository root so that it
reads the project's configuration; its cache (.mypy_cache there) keeps reruns fast."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

_ERROR = re.compile(r"^\S+\.py:\d+(:\d+)?: error: ")


@pytest.mark.slow(5)
def test_mypy_passes_on_the_engine_package():
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300)
    out = (run.stdout + run.stderr).strip()
    if "No module named mypy" in out:
        raise AssertionError("mypy is not installed: it comes with the test extra (pip install -e '.[test]')")
    errors = [line for line in out.splitlines() if _ERROR.match(line)]
    assert run.returncode == 0 and not errors, (
        f"mypy exited {run.returncode} with {len(errors)} error(s):\n" + "\n".join(errors or [out]))
    # the configuration names the package: a bare `mypy` checks all of `adjudicator`, not nothing
    checked = re.search(r"no issues found in (\d+) source files", out)
    assert checked and int(checked.group(1)) >= 20, f"mypy did not check the engine package:\n{out}"
