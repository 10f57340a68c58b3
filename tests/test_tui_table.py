"""Table screen pilot tests: build a position from nothing and save it; problems; bad files."""

from __future__ import annotations

import os

import pytest
from textual.widgets import Input

from adjudicator.scenario import load_scenario
from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp
from tui.screens.table import TableScreen, ZoneList
from tui.widgets import CardPicker, PromptModal


async def table_screen(pilot) -> TableScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, TableScreen) and pilot.app.screen.ready)
    return pilot.app.screen


def zone(screen: TableScreen, name: str) -> ZoneList:
    return next(z for z in screen.query(ZoneList) if z.zone == name)


async def add_card(pilot, screen: TableScreen, zone_name: str, typed: str) -> None:
    await until(pilot, lambda: any(z.zone == zone_name for z in screen.query(ZoneList)))
    zone(screen, zone_name).focus()
    await pilot.press("a")
    await until(pilot, lambda: isinstance(pilot.app.screen, CardPicker))
    await pilot.press(*typed)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, TableScreen))


async def add_player(pilot, screen: TableScreen) -> None:
    screen.query_one("#players").focus()
    await pilot.press("n")
    await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, TableScreen))


def problems(screen: TableScreen) -> list[str]:
    return [p.message for p in screen.problems]


@pytest.mark.slow(9)
async def test_build_a_position_from_nothing_and_save_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = FluxxJudgeApp(start_mode="table")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_screen(pilot)
        await until(pilot, lambda: problems(screen))
        assert "a table seats 1 to 8 players, not 0" in problems(screen)[0]
        await add_player(pilot, screen)                      # the suggested name: Ann
        await add_player(pilot, screen)                      # then Ben
        assert app.session.table["players"] == ["Ann", "Ben"]
        await add_card(pilot, screen, "rules", "pla 2")
        await add_card(pilot, screen, "goals", "tim mony")          # a typo still finds Time is Money
        await add_card(pilot, screen, "hands.Ann", "wormh")         # an alias finds Mystery Play
        await add_card(pilot, screen, "hands.Ann", "milk")
        await add_card(pilot, screen, "hands.Ben", "war")           # a Creeper in a hand cannot be
        table = app.session.table
        assert table["rules"] == ["Play 2"] and table["goals"] == ["Time is Money"]
        assert table["hands"] == {"Ann": ["Mystery Play", "Milk"], "Ben": ["War"]}
        await until(pilot, lambda: any("Creeper" in m for m in problems(screen)))
        bad = next(p for p in screen.problems if "Creeper" in p.message)
        assert (bad.zone, bad.index) == ("hands.Ben", 0)
        assert screen.query_one("#problems").option_count == len(screen.problems)
        assert zone(screen, "hands.Ben").entries == ["War"]             # still shown, not refused
        # move the Creeper to Ben's table: the problem goes away
        zone(screen, "hands.Ben").focus()
        await pilot.press("m")
        await until(pilot, lambda: pilot.app.screen.__class__.__name__ == "ChoiceModal")
        choice = pilot.app.screen.query_one("#choice-list")
        choice.highlighted = next(i for i, o in enumerate(choice.options) if o.id == "keepers.Ben")
        await pilot.press("enter")
        await until(pilot, lambda: table.get("keepers") == {"Ben": ["War"]} and not problems(screen))
        assert "Ben" not in table.get("hands", {})
        # Ben's turn, one play made, then reorder and remove with the keyboard
        screen.query_one("#players").focus()
        await pilot.press("home", "down", "t")
        assert table["turn"] == "Ben"
        zone(screen, "hands.Ann").focus()
        await pilot.press("home", "right_square_bracket")
        assert table["hands"]["Ann"] == ["Milk", "Mystery Play"]
        await pilot.press("d")
        assert table["hands"]["Ann"] == ["Milk"]
        # save: no file yet, so it asks for a name
        target = tmp_path / "my-dispute.yaml"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        pilot.app.screen.query_one(Input).value = "my-dispute.yaml"   # relative to the working folder
        await pilot.press("enter")
        await until(pilot, lambda: target.exists())
        sc = load_scenario(str(target))
        assert sc.id == "my-dispute"
        assert sc.position.players == ["Ann", "Ben"] and sc.position.turn == "Ben"
        assert [c.card.name for c in sc.position.keepers["Ben"]] == ["War"]
        assert not app.session.changed
        # saving again with nothing changed leaves the file alone
        stamp = os.stat(target).st_mtime_ns
        await pilot.press("ctrl+s")
        await pilot.pause(0.1)
        assert os.stat(target).st_mtime_ns == stamp


async def typed_quickly(pilot, *keys: tuple[str, str | None]) -> None:
    """Keys reaching the app back to back, as a person typing fast sends them (the
    pilot's `press` lets the app settle after each key)."""
    from textual import events

    for key, character in keys:
        pilot.app.post_message(events.Key(key, character))
    await pilot.pause(0.05)


async def test_keys_typed_ahead_of_a_dialog_reach_it_and_new_gives_the_seats_the_keyboard():
    """Issue 27: "n Enter" typed quickly seated a player named "n" (the Enter went to the
    seats before the name dialog came, the next "n" replaced the proposed name); after
    Ctrl+N from a table where a zone had the keyboard, n did nothing."""
    app = FluxxJudgeApp(start_mode="table")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_screen(pilot)
        await typed_quickly(pilot, ("n", "n"), ("enter", None), ("n", "n"), ("enter", None))
        await until(pilot, lambda: app.session.table["players"] == ["Ann", "Ben"] and not app.typeahead.held)
        assert isinstance(app.screen, TableScreen)
        # a card typed at once after `a`, Enter included
        await until(pilot, lambda: any(z.zone == "rules" for z in screen.query(ZoneList)))
        zone(screen, "rules").focus()
        await typed_quickly(pilot, ("a", "a"), *[(c, c) for c in "play 2"], ("enter", None))
        await until(pilot, lambda: app.session.table.get("rules") == ["Play 2"])
        assert isinstance(app.screen, TableScreen)
        zone(screen, "rules").focus()
        await pilot.press("ctrl+n")
        await until(pilot, lambda: app.screen.__class__.__name__ == "UnsavedModal")
        await pilot.press("d")                                  # drop the unsaved table
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.session.table == {"players": []})
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, PromptModal))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.table["players"] == ["Ann"])


async def test_an_impossible_position_is_shown_with_all_its_problems(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("format: 1\ntable:\n  players: [Ann, Ben]\n  rules: [Draw 2, Draw 3]\n"
                    "  hands:\n    Ann: [War, Milkk]\n  discard: [Bread]\n  keepers:\n    Ben: [Bread]\n",
                    encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path), start_mode="table")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_screen(pilot)
        await until(pilot, lambda: len(screen.problems) >= 3)
        text = " | ".join(problems(screen))
        assert "Draw 2 and Draw 3 cannot both be in play" in text
        assert "War is a Creeper in Ann's hand" in text
        assert "did you mean 'Milk'" in text
        assert zone(screen, "hands.Ann").entries == ["War", "Milkk"]
        assert zone(screen, "rules").option_count == 2
        # the same problems, in the same order, as the loader's Position of the file
        # (whose first it refuses), each at the card the file names
        from adjudicator import strictyaml
        from adjudicator.errors import InputError
        from adjudicator.position import Position

        from_file = Position.read(strictyaml.read_file(str(path)).value["table"]).problems()
        assert [(p.code, p.zone, p.index, p.message) for p in screen.problems] == \
               [(p.code, p.zone, p.index, p.message) for p in from_file]
        assert [(p.zone, p.index) for p in screen.problems] == [("hands.Ann", 1), ("rules", 1), ("hands.Ann", 0)]
        try:
            load_scenario(str(path))
        except InputError as exc:
            assert (exc.message, exc.line) == (from_file[0].message, 6)
        else:
            raise AssertionError("the loader accepted an impossible position")


async def test_a_broken_file_shows_a_readable_error(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("format: 1\ntable:\n  players: [Ann, Ben\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(path), start_mode="table")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_screen(pilot)
        err = screen.query_one("#table-error")
        await until(pilot, lambda: err.display)
        shown = str(err.render())
        assert "broken.yaml:" in shown and "not valid YAML" in shown
        assert path.read_text(encoding="utf-8") == "format: 1\ntable:\n  players: [Ann, Ben\n"


def test_renaming_a_player_reaches_the_what_if_lines():
    from tui.position import rename_player

    doc = {"question": {"text": "What must he do?", "ask": {"must": "Ben"}},
           "table": {"players": ["Ann", "Ben"], "hands": {"Ben": ["Milk"]}},
           "events": [{"play": "Milk", "by": "Ben"}],
           "variations": [{"after": 0, "events": [{"end_turn": True, "by": "Ben"}], "expect": {"turn": "Ben"},
                           "variations": [{"after": 1, "events": [{"play": "Bread", "by": "ben"}]}]}]}
    rename_player(doc, "Ben", "Bob")
    assert "Ben" not in str(doc) and "ben" not in str(doc)
    assert doc["variations"][0]["variations"][0]["events"][0]["by"] == "Bob"
    assert doc["question"]["ask"] == {"must": "Bob"}


def test_a_huge_copy_count_is_refused_never_a_crash():
    from adjudicator.limits import MAX_COPIES
    from tui.position import split_copies

    assert split_copies("Milk x3") == ("Milk", 3)
    assert split_copies("Milk x" + "9" * 5000) == ("Milk", MAX_COPIES + 1)   # int() would refuse 4,300+ digits
    assert split_copies("? x0007") == ("?", 7)
