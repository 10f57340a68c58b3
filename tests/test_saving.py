"""Nothing lost, nothing clobbered: the canonical emitter round-trips generated
positions, and every saving trap a user met is closed, in the session (plain logic)
and in the app (pilot tests of the dialogs).

The writer itself (atomic, through symlinks, never over a folder or a FIFO, no temp
file left) is tested in test_atomic_io.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import strictyaml
from adjudicator.atomic_io import WriteError, write_atomic
from adjudicator.scenario import parse_scenario
from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tests.conftest import REPO, examples
from tests.test_property_play import random_position
from tui import session as S
from tui.app import FluxxJudgeApp
from tui.scenario_io import dump, loads
from tui.session import ChangedOnDisk, FileExists, FolderMissing, Session
from tui.widgets import ConfirmModal, PromptModal, UnsavedModal

SCENARIO = "format: 1\nid: mine\ntable:\n  players: [Ann, Ben]\n  hands:\n    Ann: [Milk, Bread]\nevents:\n  - play: Milk\n"


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


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_generated_positions_round_trip(seed):
    doc = position_doc(seed)
    text = dump(doc)
    again = loads(text)
    assert again == doc
    assert dump(again) == text
    sc = parse_scenario(strictyaml.parse(text, "gen.yaml"), "gen.yaml")
    assert [r.card.name for r in sc.position.draw_pile] == doc["table"]["draw_pile"]


CHILD = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
from adjudicator.atomic_io import write_atomic
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


def opened(tmp_path: Path, name: str = "mine.yaml") -> tuple[Path, Session]:
    path = tmp_path / name
    path.write_text(SCENARIO, encoding="utf-8")
    return path, Session.open(str(path))


# --------------------------------------------------------------------------- the session

def test_the_default_folder_is_the_users_never_the_checkout(tmp_path, monkeypatch):
    monkeypatch.delenv("FLUXX_JUDGE_SCENARIOS", raising=False)
    docs = tmp_path / "Documents"
    docs.mkdir()
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(docs))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert S.default_folder() == docs / "fluxx-judge"
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(tmp_path / "no-such-folder"))
    assert S.default_folder() == tmp_path / "data" / "fluxx-judge" / "scenarios"
    checkout = S._checkout()
    monkeypatch.setenv("XDG_DOCUMENTS_DIR", str(checkout))                  # documents inside the checkout
    monkeypatch.setenv("XDG_DATA_HOME", str(checkout / "data"))
    assert not str(S.default_folder()).startswith(str(checkout) + os.sep)


def test_a_new_or_library_scenario_is_proposed_in_the_default_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_SCENARIOS", str(tmp_path / "mine"))
    s = Session()
    assert s.proposed_path() == str(tmp_path / "mine" / "new-dispute.yaml")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "new-dispute.yaml").write_text("x")
    assert s.proposed_path() == str(tmp_path / "mine" / "new-dispute-2.yaml")      # never over another file
    from scenarios import library_path

    lib = next(Path(library_path()).rglob("*.yaml"))
    assert Session.open(str(lib)).proposed_path() == str(tmp_path / "mine" / lib.name)
    path, own = opened(tmp_path)
    assert own.proposed_path() == str(path)                                        # its own file stays its own


def test_a_new_scenario_goes_into_a_missing_default_folder_without_asking(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_SCENARIOS", str(tmp_path / "new" / "folder"))
    s = Session()
    written, wrote = s.save(s.proposed_path())
    assert wrote and Path(written).read_text().startswith("format: 1\nid: new-dispute")


def test_a_missing_folder_is_asked_about_then_created(tmp_path):
    _, s = opened(tmp_path)
    target = tmp_path / "a" / "b" / "copy.yaml"
    with pytest.raises(FolderMissing) as asked:
        s.save(str(target))
    assert "does not exist" in asked.value.message and str(tmp_path / "a" / "b") in asked.value.message
    assert not (tmp_path / "a").exists()
    s.save(str(target), create_folder=True)
    assert target.read_text() == SCENARIO
    assert [p.name for p in (tmp_path / "a" / "b").iterdir()] == ["copy.yaml"]        # no temp file


def test_save_as_over_an_existing_file_asks_first(tmp_path):
    _, s = opened(tmp_path)
    other = tmp_path / "other.yaml"
    other.write_text("precious\n")
    with pytest.raises(FileExists):
        s.save(str(other))
    assert other.read_text() == "precious\n"
    s.save(str(other), overwrite=True)
    assert other.read_text() == SCENARIO


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(tmp_path):
    path, s = opened(tmp_path)
    path.write_text(SCENARIO + "# edited in another editor\n")
    with pytest.raises(ChangedOnDisk):
        s.save()                              # no edit in the app: still not overwritten
    s.doc["title"] = "mine"
    with pytest.raises(ChangedOnDisk):
        s.save()
    assert path.read_text().endswith("# edited in another editor\n")
    s.save(overwrite=True)
    assert "title: mine" in path.read_text()
    path.write_text(path.read_text())          # the same bytes again: nothing changed
    s.doc["title"] = "again"
    s.save()


def test_saving_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text(SCENARIO)
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    s = Session.open(str(link))
    s.doc["title"] = "through the link"
    written, _ = s.save()
    assert link.is_symlink() and written == str(real)
    assert "through the link" in real.read_text()


def test_unwritable_targets_are_clear_errors_and_leave_nothing(tmp_path):
    _, s = opened(tmp_path)
    with pytest.raises(WriteError, match="is a folder"):
        s.save(str(tmp_path))
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(WriteError, match="FIFO"):
        s.save(str(fifo), overwrite=True)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(WriteError, match="not a folder"):
        s.save(str(blocker / "x.yaml"), create_folder=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "mine.yaml", "pipe.yaml"]


@pytest.mark.parametrize("grow, limit", [
    (lambda doc: doc.update(question="Who wins? " * 2_500), "values are at most 20,000"),
    (lambda doc: doc.update(events=[{"end_turn": True, "note": "n" * 19_000} for _ in range(60)]),
     "files of at most 1 MB are read"),
    (lambda doc: doc["table"].update(discard=["Milk x500"] * 11), "more than 5,000 cards"),
])
def test_save_refuses_what_open_would_refuse_and_names_the_limit(tmp_path, grow, limit):
    path, s = opened(tmp_path)
    before = path.read_bytes()
    grow(s.doc)
    s.touch()
    for target in (None, str(tmp_path / "other.yaml")):
        with pytest.raises(WriteError, match=limit) as info:
            s.save(target)
        assert "not saved: the file could not be opened again" in str(info.value)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["mine.yaml"]
    assert s.changed                                    # the work is still there to be trimmed
    assert Session.open(str(path)).error is None        # and what was on disk still opens


def test_what_if_lines_are_saved_and_count_as_changes(tmp_path):
    from tui import variations

    path, s = opened(tmp_path)
    empty = variations.branch(s.doc, (), 0)
    assert not s.changed                               # a branch with no event of its own is nothing yet
    variations.set_events(s.doc, empty, [{"play": "Bread"}])
    assert s.changed and "1 what-if line" in s.unsaved_summary()
    s.save()
    again = Session.open(str(path))
    assert again.doc["variations"] == [{"after": 0, "title": "what if 1", "events": [{"play": "Bread"}]}]
    assert [line.name for line in variations.lines(again.doc)] == ["the scenario", "what if 1"]


# --------------------------------------------------------------------------- the app

def footer_keys(app) -> set[str]:
    """The keys the footer shows in full on the screen (not cut off at its right edge)."""
    from textual.widgets._footer import FooterKey

    width = app.size.width
    return {k.key for k in app.screen.query(FooterKey) if k.region.width and k.region.right <= width}


async def test_every_save_is_confirmed_and_save_as_is_in_the_footer(tmp_path):
    path, _ = opened(tmp_path)
    app = FluxxJudgeApp(open_file=str(path), start_mode="table")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "ready", False))
        await until(pilot, lambda: footer_keys(app))
        assert {"ctrl+s", "f6"} <= footer_keys(app)
        assert "F5 Cards" in str(app.screen.query_one("ModeBar").render())      # the screens: in the top bar
        for _ in range(2):                            # the second save is confirmed too, never silent
            await pilot.press("ctrl+s")
            await until(pilot, lambda: any("Saved" in (n.title or "") for n in app._notifications))
            assert str(path) in next(n.message for n in app._notifications if n.title == "Saved")
            app.clear_notifications()
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, PromptModal) and app.screen.query("Input"))
        assert app.screen.query_one("Input").value == str(path)     # not moved back into some other folder


async def test_the_app_asks_before_clobbering(tmp_path):
    path, _ = opened(tmp_path)
    other = tmp_path / "other.yaml"
    other.write_text("precious\n")
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "ReplayScreen")
        app.action_save_as()
        await until(pilot, lambda: isinstance(app.screen, PromptModal) and app.screen.query("Input"))
        app.screen.query_one("Input").value = str(other)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal) and app.screen.query("Label"))
        await pilot.press("n")                            # no: the name can be changed
        await until(pilot, lambda: isinstance(app.screen, PromptModal) and app.screen.query("Input"))
        assert other.read_text() == "precious\n"
        await pilot.press("escape")
        path.write_text(SCENARIO + "# changed elsewhere\n")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal) and app.screen.query("Label"))
        assert "changed on disk" in str(app.screen.query_one("Label").render())
        await pilot.press("n")
        assert path.read_text().endswith("# changed elsewhere\n")


async def test_new_open_and_quit_ask_about_unsaved_branches(tmp_path):
    path, _ = opened(tmp_path)
    app = FluxxJudgeApp(open_file=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "ReplayScreen" and app.screen.verdict)
        await pilot.press("end", "b")
        await until(pilot, lambda: len(app.screen.lines) == 2 and not app.screen.busy)
        app.screen.append_event(1, {"play": "Bread"})
        await until(pilot, lambda: app.session.changed and not app.screen.busy)
        for key in ("ctrl+n", "ctrl+q"):
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, UnsavedModal))
            assert "1 what-if line" in app.screen.summary
            await pilot.press("escape")
        app.open_scenario(str(path))
        await until(pilot, lambda: isinstance(app.screen, UnsavedModal))
        await pilot.press("s")                            # save first, then open
        await until(pilot, lambda: not app.session.changed and app.screen.__class__.__name__ == "ReplayScreen")
        assert "variations:" in path.read_text()
