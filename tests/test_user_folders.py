"""No test reaches the user's own folders, whatever the environment says: the suite's
set-up (tests/conftest.py) points HOME, the XDG folders and fluxx-judge's overrides
into a temporary folder before anything runs, FLUXX_JUDGE_CACHE included (a user who
had set it once found test rulings, labelled official, in their own store)."""

from __future__ import annotations

import os
import subprocess
import sys

from adjudicator import userdirs
from tests.conftest import REPO, USER_FOLDERS

PROBE = """
import os, tests.conftest
from adjudicator import userdirs
from tui.session import default_folder
from tui.rescue import rescue_folder
print(os.environ['HOME']); print(userdirs.cache_dir()); print(userdirs.data_dir())
print(default_folder()); print(rescue_folder())
"""


def test_user_folders_set_in_the_environment_are_replaced(tmp_path):
    mine = tmp_path / "user"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for var in USER_FOLDERS:
        env[var] = str(mine / var.lower())
    env.pop("PYTEST_XDIST_WORKER", None)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    seen = out.stdout.split()
    assert len(seen) == 5
    for path in seen:
        assert not path.startswith(str(mine)), f"a test would use the user's folder {path}"
    assert not mine.exists()


def test_this_run_uses_private_folders():
    home = os.environ["HOME"]
    assert "fluxx-judge-tests-" in home
    for path in (userdirs.cache_dir(), userdirs.data_dir()):
        assert "fluxx-judge-tests-" in str(path) or "pytest" in str(path)
