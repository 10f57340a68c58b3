"""An app served to browsers opens and saves only in its one folder (tui/confine.py), and
is told only of its own browser's kept work (tui/rescue.py); the desktop app keeps its
freedom and its own notices.

The rules on paths first (relative, absolute, `..`, `~`, dotfiles, dot-folders, links
out and in, the library and the rescue folder read only), then what a person does in a
confined app (Textual's pilot): Save As and Open outside the folder or to a dotfile are
refused with one line and write or read nothing; path completion lists the folder only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input

from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui import confine
from tui.app import FluxxJudgeApp
from tui.confine import Confinement, Refused
from tui.session import Session
from tui.widgets import OpenModal, PathSuggester, PromptModal

SECRET = "not-for-browsers: 7f3a"


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    """A confined process: its root holds a scenario, a folder, a dotfile, a dot-folder
    and links in and out; beside it, a file of secrets."""
    folder = tmp_path / "root"
    (folder / "sub").mkdir(parents=True)
    (folder / ".git").mkdir()
    (folder / "dispute.yaml").write_text("format: 1\ntable:\n  players: [Ann, Ben]\n", encoding="utf-8")
    (folder / "sub" / "inner.yaml").write_text("format: 1\ntable:\n  players: [Ann, Ben]\n", encoding="utf-8")
    (folder / ".bashrc").write_text("# the user's shell\n", encoding="utf-8")
    (tmp_path / "secrets.yaml").write_text(f"{SECRET}\n", encoding="utf-8")
    (folder / "out-link.yaml").symlink_to(tmp_path / "secrets.yaml")
    (folder / "out-dir").symlink_to(tmp_path)
    (folder / "in-link.yaml").symlink_to(folder / "dispute.yaml")
    (folder / "hidden-link.yaml").symlink_to(folder / ".bashrc")
    (tmp_path / "rescued").mkdir()
    monkeypatch.setattr(confine, "_active", None)
    confine.confine_to(folder, read_only=(tmp_path / "rescued",))
    return folder


def test_the_paths_a_confined_app_may_open_and_save(root):
    c = confine.active()
    real = str(root.resolve())
    assert c.writable("dispute.yaml") == c.readable("dispute.yaml") == f"{real}/dispute.yaml"
    assert c.writable(f"{root}/sub/new.yaml") == f"{real}/sub/new.yaml"          # absolute, inside
    assert c.writable("sub/../new.yaml") == f"{real}/new.yaml"
    assert c.readable("in-link.yaml") == f"{real}/dispute.yaml"                 # a link that stays inside
    outside = root.parent / "secrets.yaml"
    for text, why in (("../secrets.yaml", "is outside the folder this server shares"),
                      (str(outside), "is outside the folder this server shares"),
                      ("/etc/passwd", "is outside"), ("/", "is outside"), ("..", "is outside"),
                      ("out-link.yaml", "leads (through a link) outside"), ("out-dir/secrets.yaml", "leads (through"),
                      (".bashrc", "names starting with a dot"), ("sub/../.bashrc", "names starting with a dot"),
                      (".git/config", "names starting with a dot"), ("hidden-link.yaml", "names starting with a dot"),
                      ("~/.bashrc", "~ (a home folder) is not available here"), ("~", "~ (a home folder)"),
                      ("", "no file name given"), ("a\x00b", "NUL")):
        for check in (c.readable, c.writable):
            with pytest.raises(Refused, match=None) as refused:
                check(text)
            assert why in refused.value.message, (text, refused.value.message)
    # read only: the built-in library, and the browser's own kept work
    from scenarios import library_path

    some = next(Path(library_path()).rglob("*.yaml"))
    kept = root.parent / "rescued" / "kept.yaml"
    for path in (some, kept):
        assert c.readable(str(path)) == str(path.resolve())
        with pytest.raises(Refused):
            c.writable(str(path))
    # a root that holds the rescue folder under a dot-folder (--root ~): that folder is still readable
    home = Confinement.of(root.parent, read_only=(root / ".git" / "kept",))
    assert home.readable(f"{root}/.git/kept/x.yaml") == f"{root.resolve()}/.git/kept/x.yaml"
    for text in (f"{root}/.git/config", f"{root}/.git/kept/.x.yaml"):
        with pytest.raises(Refused, match="names starting with a dot"):
            home.readable(text)
    with pytest.raises(Refused, match="names starting with a dot"):
        home.writable(f"{root}/.git/kept/x.yaml")


def test_completion_lists_the_folder_only(root):
    c = confine.active()
    assert c.complete("d") == "dispute.yaml"
    assert c.complete("su") == "sub/" and c.complete("sub/") == "sub/inner.yaml"
    assert c.complete(f"{root}/su") == f"{root}/sub/"
    for nothing in ("", ".", ".b", ".git/", "../", "../sec", "/", "/et", "~", "~/", "out-d", "out-dir/", "hidden"):
        assert c.complete(nothing) is None, nothing


async def test_the_suggester_and_the_open_dialog_follow_the_confinement(root):
    assert await PathSuggester().get_suggestion("/et") is None
    assert await PathSuggester().get_suggestion("su") == "sub/"
    assert confine.path_exists("dispute.yaml") and not confine.path_exists("/etc/passwd")
    assert not confine.path_exists(".bashrc")


def test_session_open_and_save_refuse_what_is_outside(root):
    opened = Session.open(str(root.parent / "secrets.yaml"))
    assert opened.error is not None and "outside the folder this server shares" in str(opened.error)
    assert opened.error_text is None and SECRET not in str(opened.error)          # never read
    assert Session.open("dispute.yaml").error is None
    session = Session.open("dispute.yaml")
    session.doc["title"] = "changed"
    for target in ("../out.yaml", ".bashrc", "sub/.hidden.yaml", "out-link.yaml", "/tmp/x.yaml"):
        with pytest.raises(OSError) as refused:
            session.save(target)
        assert "outside" in str(refused.value) or "dot" in str(refused.value), target
    assert (root / ".bashrc").read_text(encoding="utf-8") == "# the user's shell\n"
    assert SECRET in (root.parent / "secrets.yaml").read_text(encoding="utf-8")
    assert not (root.parent / "out.yaml").exists()
    assert session.save("sub/kept.yaml") == (f"{root.resolve()}/sub/kept.yaml", True)
    assert Session().proposed_path() == f"{root.resolve()}/new-dispute.yaml"     # new scenarios go in the root


def test_the_desktop_app_keeps_its_freedom(tmp_path, monkeypatch):
    monkeypatch.setattr(confine, "_active", None)
    session = Session()
    session.doc["table"]["players"] = ["Ann", "Ben"]
    target = tmp_path / "anywhere" / ".hidden.yaml"
    target.parent.mkdir()
    assert session.save(str(target))[1] and Session.open(str(target)).error is None
    assert confine.path_exists(str(target))


async def save_as(pilot, text: str) -> str:
    """F6, `text` in the field, Enter; the notification that followed."""
    app = pilot.app
    await pilot.press("f6")
    await until(pilot, lambda: isinstance(app.screen, PromptModal))
    app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, PromptModal) and app._notifications)
    said = list(app._notifications)[-1].message
    app.clear_notifications()
    return said


async def test_a_confined_app_refuses_to_save_or_open_outside_its_folder(root):
    app = FluxxJudgeApp(start_mode="table")
    async with app.run_test(size=(110, 32)) as pilot:
        await pilot.pause()
        app.session.doc["table"]["players"] = ["Ann", "Ben"]
        app.session.touch()
        for target in ("../outside.yaml", ".bashrc"):       # (every kind of path: the tests above)
            said = await save_as(pilot, target)
            assert said.startswith("Not saved: ") and ("outside" in said or "dot" in said), said
        assert (root / ".bashrc").read_text(encoding="utf-8") == "# the user's shell\n"
        assert SECRET in (root.parent / "secrets.yaml").read_text(encoding="utf-8")
        assert not (root.parent / "outside.yaml").exists()
        said = await save_as(pilot, "kept.yaml")
        assert said == f"Saved to {root.resolve()}/kept.yaml" and (root / "kept.yaml").is_file()
        # Open: a file beside the folder, by its full path, is refused and never read
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, OpenModal))
        await pilot.pause()
        app.screen.query_one("#open-path", Input).value = str(root.parent / "secrets.yaml")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, OpenModal) and app._notifications)
        said = list(app._notifications)[-1].message
        assert "outside the folder this server shares" in said and SECRET not in said
        assert app.session.error_text is None


async def test_each_app_is_told_only_of_its_own_kept_work(tmp_path, monkeypatch):
    from tui.rescue import announce, keep, rescue_folder, served_folder

    monkeypatch.setattr(confine, "_active", None)
    work = Session()
    work.doc["table"]["players"] = ["Ann", "Ben"]
    desktop, ann, ben = keep(work), keep(work, served_folder("browser-of-ann-0123")), keep(work, served_folder("browser-of-ben-0123"))
    assert desktop.parent == rescue_folder() and ann.parent != ben.parent

    async def told(app: FluxxJudgeApp) -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            return "\n".join(n.message for n in app._notifications)

    shown = await told(FluxxJudgeApp(start_mode="table", served_rescues=served_folder("browser-of-ann-0123")))
    assert str(ann) in shown and str(ben) not in shown and str(desktop) not in shown
    assert "an app of this browser closed" in shown
    shown = await told(FluxxJudgeApp(start_mode="table"))
    assert str(desktop) in shown and str(ann) not in shown and str(ben) not in shown
    assert announce(served_folder("browser-of-ben-0123")) == [ben]                   # Ben's is still untold
    with pytest.raises(ValueError):
        served_folder("../../elsewhere")
    assert os.path.isdir(rescue_folder())
