"""The user's own disputes and recent files (tui/recent.py): bounded, kept whole, read as
data only, and a served app sees only what is inside its root."""

from __future__ import annotations

import json
import os

from adjudicator.userdirs import data_dir
from tui import confine, recent
from test_tui_support import _private_cache  # noqa: F401 (an autouse fixture)


def scenario(path, question: str = "Who wins?") -> str:
    path.write_text(f"format: 1\nquestion: {question}\ntable:\n  players: [Ann]\n", encoding="utf-8")
    return str(path)


def test_recent_files_are_bounded_most_recent_first_and_only_files_that_still_exist(tmp_path):
    paths = [scenario(tmp_path / f"d{i}.yaml") for i in range(recent.MAX_RECENT + 3)]
    for p in paths:
        recent.remember(p)
    recent.remember(paths[0])                          # again: moves to the front, not listed twice
    assert recent.recent() == [paths[0], *reversed(paths[-(recent.MAX_RECENT - 1):])]
    os.remove(paths[-1])
    assert paths[-1] not in recent.recent()
    stored = json.loads((data_dir() / recent.RECENT_FILE).read_text(encoding="utf-8"))
    assert len(stored) == recent.MAX_RECENT
    assert not [n for n in os.listdir(data_dir()) if n.endswith(".tmp")]      # written whole, nothing left over


def test_a_recent_list_that_is_not_a_list_of_paths_is_read_as_none(tmp_path):
    good = scenario(tmp_path / "good.yaml")
    file = data_dir() / recent.RECENT_FILE
    data_dir().mkdir(parents=True, exist_ok=True)
    for bad in ('{"__class__": "os.system"}', "not json", json.dumps([good, 3, None, "relative.yaml", "/x\x00y",
                                                                     "/" + "a" * 5000, {"path": good}])):
        file.write_text(bad, encoding="utf-8")
        assert recent.recent() in ([], [good])
    assert recent.recent() == [good]
    file.write_text(json.dumps([good]) + " " * recent.MAX_RECENT_BYTES, encoding="utf-8")     # too large
    assert recent.recent() == []
    os.chmod(file, 0o666)                                          # others could have written it
    file.write_text(json.dumps([good]), encoding="utf-8")
    assert recent.recent() == []
    os.chmod(file, 0o600)
    recent.remember(good)
    assert recent.recent() == [good]


def test_the_folder_lists_scenarios_newest_first_with_their_question(tmp_path):
    old = scenario(tmp_path / "old.yaml", "Is the turn over?")
    os.utime(old, (1_000_000, 1_000_000))
    new = scenario(tmp_path / "new.yml", "Who wins?")
    (tmp_path / "broken.yaml").write_text("format: 1\ntable: [", encoding="utf-8")
    os.utime(tmp_path / "broken.yaml", (1_000, 1_000))
    (tmp_path / ".hidden.yaml").write_text("format: 1\n", encoding="utf-8")
    (tmp_path / "sub.yaml").mkdir()
    found = recent.own_scenarios(tmp_path)
    assert [(f.path, f.words) for f in found[:2]] == [(new, "Who wins?"), (old, "Is the turn over?")]
    assert found[2].label.startswith("(cannot be read: ") and found[2].label.endswith("(broken.yaml)")
    assert len(found) == 3


def test_a_served_app_lists_only_inside_its_root(tmp_path, monkeypatch):
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    inside, outside = scenario(root / "in.yaml"), scenario(elsewhere / "out.yaml")
    (root / "link.yaml").symlink_to(outside)                     # a link that leads out of the root
    recent.remember(outside)
    recent.remember(inside)
    monkeypatch.setattr(confine, "_active", None)
    confine.confine_to(root)
    assert recent.recent() == [inside]
    assert [f.path for f in recent.own_scenarios(root)] == [inside]
    assert "(not available here)" in recent.recent_label(outside)


async def test_a_recent_file_whose_question_looks_like_markup_is_listed_as_written(tmp_path):
    """The palette read entries and their help as markup: a recent file whose question was
    '[red]does [/b] crash?' broke the palette (MarkupError) once it was remembered."""
    from textual.command import CommandPalette

    from test_tui_support import until
    from tui.app import FluxxJudgeApp

    recent.remember(scenario(tmp_path / "odd.yaml", '"[red]does [/b] crash?"'))
    app = FluxxJudgeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.query("CommandInput"))
        shown = lambda: [str(app.screen.query_one("CommandList").get_option_at_index(i).prompt)
                         for i in range(app.screen.query_one("CommandList").option_count)]
        await until(pilot, lambda: any("[/b]" in p for p in shown()))          # offered before anything is typed
        app.screen.query_one("CommandInput").value = "recent crash"
        await until(pilot, lambda: any("[red]does [/b] crash?" in p for p in shown()))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
