"""Nothing lost: the canonical emitter round-trips generated positions, and a saving
process killed midway leaves the previous file intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import strictyaml
from adjudicator.scenario import parse_scenario
from tests.conftest import REPO
from tests.test_property_play import random_position
from tui.scenario_io import dump, loads, write_atomic


def position_doc(seed: int) -> dict:
    """A scenario document for a random reachable position."""
    engine = random_position(seed)
    s = engine.state
    n = s.name
    table = {"players": list(s.players), "turn": s.active_player, "drawn": s.drawn, "played": s.played,
             "rules": [n(c) for c in s.rules], "goals": [n(c) for c in s.goals],
             "hands": {p: [n(c) for c in s.hands[p]] for p in s.players if s.hands[p]},
             "keepers": {p: [n(c) for c in s.keepers[p]] for p in s.players if s.keepers[p]},
             "draw_pile": [n(c) for c in s.draw_pile], "discard": [n(c) for c in s.discard]}
    return {"format": 1, "id": f"generated-{seed}", "title": f"Generated position {seed}", "table": table,
            "events": [{"end_turn": True}], "expect": {"winner": "none"}}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_generated_positions_round_trip(seed):
    doc = position_doc(seed)
    text = dump(doc)
    again = loads(text)
    assert again == doc
    assert dump(again) == text
    sc = parse_scenario(strictyaml.parse(text, "gen.yaml"), "gen.yaml")
    assert [r.card.name for r in sc.position["draw_pile"]] == doc["table"]["draw_pile"]


CHILD = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from tui.scenario_io import write_atomic
text = sys.argv[3] * int(sys.argv[4])
if sys.argv[5] == "pause":      # stop inside the save, after the data is written, before the rename
    real_fsync = os.fsync
    def paused(fd):
        real_fsync(fd)
        print("writing", flush=True)
        time.sleep(60)
    os.fsync = paused
print("ready", flush=True)
write_atomic(sys.argv[2], text)
print("done", flush=True)
"""


def test_killing_a_save_midway_leaves_the_old_file(tmp_path):
    """Kills at assorted moments never leave a half-written file; the first lands, by
    construction, inside the save (no timing involved), so the old file must survive it."""
    target = tmp_path / "table.yaml"
    old = "format: 1\ntable:\n  players: [Ann]\n"
    target.write_text(old)
    new_line = "# padding line to make the save take a while\n"
    for delay in ("pause", 0.0, 0.002, 0.005, 0.01, 0.02, 0.05):
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(REPO), str(target), new_line, "400000",
                                 "pause" if delay == "pause" else "run"], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        if delay == "pause":
            assert proc.stdout.readline().strip() == "writing"
        else:
            time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        content = target.read_text()
        assert content in (old, new_line * 400000), "a killed save left a half-written file"
        if delay == "pause":
            assert content == old
            assert list(tmp_path.glob(".table.yaml.*.fluxx-tmp")), "the killed save left its temporary file"
        target.write_text(old)
    write_atomic(str(target), "format: 1\n")          # the next save clears what killed saves left
    assert not list(tmp_path.glob(".table.yaml.*")) and target.read_text() == "format: 1\n"


def test_write_atomic_leaves_no_partial_file_on_error(tmp_path, monkeypatch):
    target = tmp_path / "t.yaml"
    target.write_text("before\n")

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    try:
        write_atomic(str(target), "after\n")
    except OSError:
        pass
    assert target.read_text() == "before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.yaml"]
