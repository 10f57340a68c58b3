"""The list dialogs, driven as a user does: the Open dialog (Ctrl+O) lists the whole
library, narrows it as words are typed and opens what is chosen; a choice dialog shows
its groups as headings, narrows by words, skips headings with the arrows and returns the
chosen id. Labels show as typed (no markup), and a list never holds an entry twice."""

from __future__ import annotations

import pytest
from textual.widgets import Label, OptionList

from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
import tui.app as app_module
from tui.app import FluxxJudgeApp, library_scenarios
from tui.widgets import ChoiceModal, OpenModal


def shown(ol: OptionList) -> list[tuple[str | None, str, bool]]:
    """(id, text, disabled) of every entry of the list, in order."""
    return [(o.id, str(o.prompt), o.disabled) for o in ol.options]


def painted(ol: OptionList) -> str:
    """The text of the list's lines as painted."""
    return "\n".join(ol.render_line(y).text for y in range(ol.size.height))


def distinct(ol: OptionList) -> bool:
    return len({id(o) for o in ol.options}) == ol.option_count


async def open_dialog(pilot) -> OpenModal:
    await pilot.press("ctrl+o")
    await until(pilot, lambda: isinstance(pilot.app.screen, OpenModal))
    await pilot.pause()
    return pilot.app.screen


@pytest.mark.slow(6)
async def test_the_open_dialog_lists_the_users_own_then_the_library_narrows_and_opens(tmp_path, monkeypatch):
    """The library alone while the user has no file of their own; then (issue 27: Open
    listed only the library, and there were no recent files) the user's own disputes in
    the folder Save proposes first, newest first, each by its question; a file opened
    comes back in the palette."""
    from tui.recent import recent

    folder = tmp_path / "My disputes"
    monkeypatch.setenv("FLUXX_JUDGE_SCENARIOS", str(folder))     # not made yet: nothing of the user's own
    library = library_scenarios()
    assert len(library) > 100
    app = FluxxJudgeApp(start_mode="table")     # a light first screen: the dialogs are what is tested
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await open_dialog(pilot)
        ol = dialog.query_one("#open-library", OptionList)
        assert shown(ol) == [(path, title, False) for path, title in library]
        assert ol.highlighted == 0 and library[0][1][:20] in painted(ol)
        for width in (12, 40, 66, 68, 90):          # the list's height as Textual's own list sums it
            assert ol.get_content_height(ol.size, ol.size, width) == \
                OptionList.get_content_height(ol, ol.size, ol.size, width)
        # words narrow the list (every word, any case); the count says how many are left
        await pilot.press(*"DRAW play")
        wanted = [(p, t, False) for p, t in library if "draw" in t.lower() and "play" in t.lower()]
        assert 0 < len(wanted) < len(library)
        assert shown(ol) == wanted and ol.highlighted == 0 and distinct(ol)
        assert str(dialog.query_one("#open-count", Label).content) == \
            f"The built-in library ({len(wanted)} of {len(library)}):"
        await pilot.press("ctrl+u")                 # the words gone, the whole list is back
        assert shown(ol) == [(p, t, False) for p, t in library] and distinct(ol)
        await pilot.press(*"draw play")
        # Down goes to the list, the arrows move in it, Enter opens that scenario
        await pilot.press("down")
        assert ol.has_focus
        await pilot.press("down")
        assert ol.highlighted == 1
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, OpenModal) and app.session.path is not None)
        assert app.session.path == wanted[1][0]
        # Enter in the field opens the first entry left
        await open_dialog(pilot)
        await pilot.press(*"draw play", "enter")
        await until(pilot, lambda: app.session.path == wanted[0][0])
        # the user's own files come first
        folder.mkdir()
        older = own_file(folder, "older.yaml", "Who wins the Moon?", 30)
        newer = own_file(folder, "newer.yaml", "Does Taxes stop Ann winning?", 1)
        (folder / ".hidden.yaml").write_text("format: 1\n", encoding="utf-8")
        (folder / "notes.txt").write_text("not a scenario", encoding="utf-8")
        dialog = await open_dialog(pilot)
        ol = dialog.query_one("#open-library", OptionList)
        entries = shown(ol)
        assert entries[:3] == [(None, f"Yours, newest first ({folder})", True),
                               (newer, "Does Taxes stop Ann winning?  (newer.yaml)", False),
                               (older, "Who wins the Moon?  (older.yaml)", False)]
        assert entries[3] == (None, "The built-in library", True) and len(entries) == 4 + len(library)
        assert ol.highlighted == 1 and distinct(ol)
        assert str(dialog.query_one("#open-count", Label).content) == \
            f"Yours (2), then the built-in library ({len(library)}):"
        await pilot.press(*"moon")
        assert [e[0] for e in shown(ol) if not e[2]][0] == older      # words narrow both, the user's first
        await pilot.press("enter")
        await until(pilot, lambda: app.session.path == older)
        await until(pilot, lambda: recent()[:1] == [older])
        # the palette offers it again, by its name and question
        await pilot.press("ctrl+p")
        await until(pilot, lambda: bool(app.screen.query("CommandInput")))
        app.screen.query_one("CommandInput").value = "recent older"      # one search, not one a key

        def offered() -> bool:
            lists = app.screen.query(OptionList)
            return bool(lists) and lists.first().option_count > 0 and \
                "older.yaml: Who wins the Moon?" in str(lists.first().get_option_at_index(0).prompt)

        await until(pilot, offered)


def own_file(folder, name: str, question: str, age: int) -> str:
    """A scenario file of the user's, last changed `age` minutes ago."""
    import os
    import time

    path = folder / name
    path.write_text(f"format: 1\nquestion: {question}\ntable:\n  players: [Ann, Ben]\n", encoding="utf-8")
    os.utime(path, (time.time() - 60 * age,) * 2)
    return str(path)


async def test_the_open_dialog_shows_titles_as_typed(monkeypatch):
    titles = [("/nowhere/a.yaml", "[bold]Bold[/] \\ not markup  (a)"), ("/nowhere/b.yaml", "[red]x  (b)"),
              ("/nowhere/c.yaml", "a title long enough to be wrapped over two lines of the list, "
                                  "and then some more words  (c)")]
    monkeypatch.setattr(app_module, "library_scenarios", lambda: titles)
    app = FluxxJudgeApp(start_mode="table")     # a light first screen: the dialogs are what is tested
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(pilot)
        ol = dialog.query_one("#open-library", OptionList)
        text = painted(ol)
        assert "[bold]Bold[/] \\ not markup  (a)" in text and "[red]x  (b)" in text
        assert "then some more words  (c)" in text and ol.virtual_size.height == 4    # wrapped, not cut
        await pilot.press(*"[bold]")
        assert [o.id for o in ol.options] == ["/nowhere/a.yaml"]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, OpenModal))
        assert app.session.path is None


CHOICES = [("a1", "Ann plays [b]Milk[/b]", "Ann"), ("a2", "Ann plays Bread", "Ann"),
           ("b1", "Ben plays Milk", "Ben"), ("a3", "Ann discards Sleep", "Ann"), ("x", "Type any event", "")]


async def test_a_choice_dialog_groups_narrows_and_returns_the_choice():
    app = FluxxJudgeApp(start_mode="table")     # a light first screen: the dialogs are what is tested
    chosen: list = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(ChoiceModal("Pick", CHOICES, filtered=True), chosen.append)
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.pause()
        ol = app.screen.query_one("#choice-list", OptionList)
        assert shown(ol) == [(None, "Ann", True), ("a1", "Ann plays [b]Milk[/b]", False), ("a2", "Ann plays Bread", False),
                             (None, "Ben", True), ("b1", "Ben plays Milk", False),
                             (None, "Ann", True), ("a3", "Ann discards Sleep", False), ("x", "Type any event", False)]
        assert "Ann plays [b]Milk[/b]" in painted(ol) and distinct(ol)
        assert ol.highlighted == 1                      # the first entry, not its heading
        # the arrows skip headings
        await pilot.press("down", "down")
        assert ol.get_option_at_index(ol.highlighted).id == "b1"
        await pilot.press("up")
        assert ol.get_option_at_index(ol.highlighted).id == "a2"
        # words narrow by label or group; the groups left keep their headings, once each
        await pilot.press(*"ann")
        assert shown(ol) == [(None, "Ann", True), ("a1", "Ann plays [b]Milk[/b]", False), ("a2", "Ann plays Bread", False),
                             ("a3", "Ann discards Sleep", False)]
        assert distinct(ol) and ol.highlighted == 1
        await pilot.press(*["backspace"] * 3, *"milk")
        assert shown(ol) == [(None, "Ann", True), ("a1", "Ann plays [b]Milk[/b]", False),
                             (None, "Ben", True), ("b1", "Ben plays Milk", False)]
        await pilot.press(*["backspace"] * 4)
        assert len(shown(ol)) == 8 and distinct(ol)
        await pilot.press(*"ben", "enter")
        await until(pilot, lambda: chosen == ["b1"])
        # Esc gives nothing
        app.push_screen(ChoiceModal("Pick", CHOICES), chosen.append)
        await until(pilot, lambda: isinstance(app.screen, ChoiceModal))
        await pilot.press("escape")
        await until(pilot, lambda: chosen == ["b1", None])
