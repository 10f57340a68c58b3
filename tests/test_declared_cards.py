"""Cards the catalogue lacks (format 1.1, item 8): `cards:` declares them for one
scenario. A declared card works exactly as its `like` card; a plain Keeper or Creeper
and a Goal with `needs` work as such; clashes and malformed declarations are refused
with file, line and column; loader and JSON Schema agree on the shape."""

from __future__ import annotations

import copy
import re

import pytest

from adjudicator import strictyaml
from adjudicator.errors import InputError
from adjudicator.replay import replay
from adjudicator.scenario import parse_scenario
from tests.conftest import schema_validator
from tui.scenario_io import dump

BASE = {
    "format": 1, "id": "declared",
    "cards": [{"name": "Hand Swap", "type": "action", "like": "Trade Hands"},
              {"name": "The Shotgun", "type": "keeper"},
              {"name": "The Chainsaw", "type": "keeper", "aliases": ["Chainsaw"]},
              {"name": "Zombie Hunter", "type": "goal", "needs": ["The Shotgun", "Chainsaw"]},
              {"name": "Zombie", "type": "creeper"}],
    "table": {"players": ["Ann", "Ben", "Cal", "Dan"], "turn": "Ben", "goals": ["Zombie Hunter"],
              "keepers": {"Ben": ["The Shotgun"], "Dan": ["Zombie"]},
              "hands": {"Ben": ["Chainsaw", "Hand Swap", "Milk"], "Cal": ["Bread"]}, "draw_pile": ["? x5"]},
}


def load(doc):
    text = dump(doc)
    return parse_scenario(strictyaml.parse(text, "d.yaml"), "d.yaml"), text


def test_a_declared_goal_uses_the_keeper_goal_mechanic_with_declared_keepers():
    doc = copy.deepcopy(BASE)
    doc["events"] = [{"play": "The Chainsaw"}]
    sc, _ = load(doc)
    goal = sc.catalogue.resolve("Zombie Hunter")
    assert goal.mechanic == "keeper_goal" and goal.params["needs"] == ["The Shotgun", "The Chainsaw"]
    verdict = replay(sc)
    assert verdict.engine.state.winner == "Ben"
    setup = " ".join(e.text for e in verdict.steps[0].entries)
    assert "Zombie Hunter is a Goal: all of The Shotgun, The Chainsaw" in setup
    assert "Hand Swap works like Trade Hands" in setup
    declared = {d["name"]: d for d in verdict.to_json()["declared"]}
    assert declared["Hand Swap"]["like"] == "Trade Hands"
    assert declared["Zombie Hunter"]["needs"] == ["The Shotgun", "The Chainsaw"]


def test_a_declared_action_is_ruled_as_its_like_card_with_four_players():
    doc = copy.deepcopy(BASE)
    doc["events"] = [{"play": "Hand Swap"}, {"choose": "Cal"}]
    sc, _ = load(doc)
    card = sc.catalogue.resolve("Hand Swap")
    like = sc.catalogue.resolve("Trade Hands")
    assert (card.type, card.mechanic, card.params) == (like.type, like.mechanic, like.params)
    st = replay(sc).engine.state
    assert sorted(st.name(c) for c in st.hands["Cal"]) == ["Milk", "The Chainsaw"]
    assert [st.name(c) for c in st.hands["Ben"]] == ["Bread"]
    assert [st.name(c) for c in st.discard] == ["Hand Swap"]


def test_the_default_catalogue_is_left_alone():
    from adjudicator.catalogue import default_catalogue

    load(copy.deepcopy(BASE))
    assert default_catalogue().find("Hand Swap") is None


@pytest.mark.parametrize("card, message", [
    ({"name": "Milk", "type": "keeper"}, "already a card of the catalogue (Milk)"),
    ({"name": "Shotgun", "type": "keeper", "aliases": ["the sun"]}, "already a card of the catalogue (The Sun)"),
    ({"name": "The Shotgun", "type": "keeper"}, "declared twice"),
    ({"name": "Swap", "type": "action"}, "needs `like: CARD`"),
    ({"name": "Swap", "type": "action", "like": "Milk"}, "a card works like a card of its own type"),
    ({"name": "Swap", "type": "action", "like": "Trade Handz"}, "did you mean"),
    ({"name": "Hunt", "type": "goal"}, "needs `like: GOAL` or `needs"),
    ({"name": "Hunt", "type": "goal", "needs": ["Zombie"]}, "`needs` names Keepers"),
    ({"name": "Hunt", "type": "goal", "needs": ["Milk"], "like": "Toast"}, "give one or the other"),
    ({"name": "Axe", "type": "keeper", "needs": ["Milk"]}, "`needs` belongs to a Goal"),
    ({"name": "Axe", "type": "weapon"}, "unknown card type"),
    ({"name": "Axe", "type": "keeper", "power": 3}, "unknown key 'power'"),
    # a name in copy syntax would be read as copies of another card wherever a list names it
    ({"name": "Zombie x3", "type": "creeper"}, "would read as 3 copies of 'Zombie' in every list"),
    ({"name": "? x2", "type": "keeper"}, "would read as 2 copies of '?'"),
    ({"name": "Axe", "type": "keeper", "aliases": ["Axe X 2"]}, "may not end in ` xN`"),
    # one Keeper counts once toward a Goal: a second mention is a mistake, not a second copy
    ({"name": "Hunt", "type": "goal", "needs": ["Milk", "Milk"]}, "Milk is already in needs (line"),
])
def test_bad_declarations_are_refused_where_they_stand_and_the_schema_agrees(card, message):
    doc = copy.deepcopy(BASE)
    doc["cards"].append(card)
    with pytest.raises(InputError, match=re.escape(message)) as info:
        load(doc)
    assert info.value.path == "d.yaml" and info.value.line and info.value.line > 1 and info.value.col
    shape_only = {"declared twice", "already a card", "did you mean", "own type", "names Keepers"}
    if "already in needs" in message:          # the same Keeper under two names is the loader's alone
        assert not load_ok({**card, "needs": ["Chainsaw", "The Chainsaw"]})
    if not any(s in message for s in shape_only):
        assert list(schema_validator().iter_errors(doc)), f"the schema accepts what the loader refuses: {card}"


def load_ok(card) -> bool:
    doc = copy.deepcopy(BASE)
    doc["cards"].append(card)
    try:
        load(doc)
    except InputError:
        return False
    return True


def test_a_name_like_copies_was_misread_before_it_was_refused():
    """What the refusal prevents: `Zombie x3` on the table is three Zombies, not the declared card."""
    from adjudicator.position import split_entry

    assert split_entry("Zombie x3") == ("Zombie", 3, None)
    assert load_ok({"name": "Zombie 3", "type": "creeper"})


def test_the_schema_accepts_every_good_declaration():
    assert not list(schema_validator().iter_errors(BASE))


async def _enter(pilot, text: str) -> None:
    """Fill the dialog's text field at once (typing key by key is slow) and press Enter."""
    from textual.widgets import Input

    pilot.app.screen.query_one(Input).value = text
    await pilot.pause()
    await pilot.press("enter")


async def _choose(pilot, option_id: str) -> None:
    from test_tui_support import until

    await until(pilot, lambda: pilot.app.screen.__class__.__name__ == "ChoiceModal")
    choice = pilot.app.screen.query_one("#choice-list")
    choice.highlighted = next(i for i, o in enumerate(choice.options) if o.id == option_id)
    await pilot.press("enter")


@pytest.mark.slow(8)
async def test_the_table_editor_declares_a_card_and_offers_it_like_any_other(tmp_path, monkeypatch):
    from test_tui_support import _private_cache, until  # noqa: F401
    from test_tui_table import problems, table_screen
    from tui.widgets.zones import ZoneList
    from tui.app import FluxxJudgeApp
    from tui.widgets import CardPicker, PromptModal

    monkeypatch.chdir(tmp_path)
    start = tmp_path / "three.yaml"
    start.write_text("format: 1\ntable:\n  players: [Ann, Ben, Cal]\n", encoding="utf-8")
    app = FluxxJudgeApp(open_file=str(start), start_mode="table")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await table_screen(pilot)
        # a renamed Action: name, kind, works like
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        await _enter(pilot, "Hand Swap")
        await _choose(pilot, "action")
        await until(pilot, lambda: isinstance(pilot.app.screen, CardPicker))
        await _enter(pilot, "trade hands")
        await until(pilot, lambda: bool(app.session.doc.get("cards")))
        assert app.session.doc["cards"] == [{"name": "Hand Swap", "type": "action", "like": "Trade Hands"}]
        # a plain Keeper, then a Goal that needs it
        for name in ("The Shotgun",):
            await pilot.press("ctrl+k")
            await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
            await _enter(pilot, name)
            await _choose(pilot, "keeper")
            await _choose(pilot, "plain")
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        await _enter(pilot, "Zombie Hunter")
        await _choose(pilot, "goal")
        await _choose(pilot, "needs")
        await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        await _enter(pilot, "The Shotgun, Milk")
        await until(pilot, lambda: len(app.session.doc.get("cards", [])) == 3)
        assert app.session.doc["cards"][2] == {"name": "Zombie Hunter", "type": "goal",
                                               "needs": ["The Shotgun", "Milk"]}
        # the declared cards are found by the picker and judged by the engine like any card
        for zone_name, typed in (("hands.Ann", "hand swa"), ("goals", "zombie hun")):
            await until(pilot, lambda: any(z.zone == zone_name for z in screen.query(ZoneList)))
            next(z for z in screen.query(ZoneList) if z.zone == zone_name).focus()
            await pilot.press("a")
            await until(pilot, lambda: isinstance(pilot.app.screen, CardPicker))
            await _enter(pilot, typed)
            await until(pilot, lambda: isinstance(pilot.app.screen, type(screen)))
        table = app.session.table
        assert table["hands"]["Ann"] == ["Hand Swap"] and table["goals"] == ["Zombie Hunter"]
        await until(pilot, lambda: screen.seen_version == app.session.version and not problems(screen))
        # a name the catalogue has is refused
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(pilot.app.screen, PromptModal))
        await _enter(pilot, "Milk")
        await until(pilot, lambda: not isinstance(pilot.app.screen, PromptModal))
        assert len(app.session.doc["cards"]) == 3
    from tui import position

    position.use_declared(None)     # the next test's documents start from the built-in catalogue


def test_declared_rules_take_the_place_of_their_like_cards():
    doc = {"format": 1,
           "cards": [{"name": "Max Hand 2", "type": "rule", "like": "Hand Limit 2"},
                     {"name": "Double Play", "type": "rule", "like": "Play 2"}],
           "table": {"players": ["Ann", "Ben", "Cal"], "rules": ["Hand Limit 1", "Max Hand 2"]}}
    with pytest.raises(InputError, match="govern the same thing"):
        load(doc)
    doc["table"]["rules"] = ["Max Hand 2", "Play 3"]
    doc["table"]["hands"] = {"Ann": ["Double Play", "Milk", "Bread"]}
    doc["events"] = [{"play": "Double Play"}]
    st = replay(load(doc)[0]).engine.state
    assert [st.name(c) for c in st.rules] == ["Max Hand 2", "Double Play"]
    assert [st.name(c) for c in st.discard] == ["Play 3"]


@pytest.mark.parametrize("word, kind", [
    ("Keeper", "keeper"), ("KEEPER", "keeper"), ("Goal", "goal"), ("New Rule", "rule"), ("new  rule", "rule"),
    ("NewRule", "rule"), ("rule", "rule"), ("Action", "action"), ("Creeper", "creeper"), ("Surprise", "surprise"),
    ("Ungoal", "ungoal"), ("Meta Rule", "meta_rule"), ("meta_rule", "meta_rule"), ("Danger", "danger"),
    ("Secret", "secret"),
])
def test_card_types_as_printed_are_read_and_the_schema_agrees(word, kind):
    """Format 1.2, item 4: `type:` in the words printed on the cards, whatever the case or
    spacing."""
    like = {"keeper": None, "creeper": None, "goal": "Milk & Cookies", "rule": "Play 2", "action": "Trade Hands",
            "surprise": "Canceled Plans", "ungoal": None, "meta_rule": None, "danger": None, "secret": None}[kind]
    card = {"name": "Declared One", "type": word}
    if like:
        card["like"] = like
    doc = copy.deepcopy(BASE)
    doc["cards"].append(card)
    assert not list(schema_validator().iter_errors(doc)) or not like and kind not in ("keeper", "creeper")
    if like or kind in ("keeper", "creeper"):
        sc, _ = load(doc)
        assert sc.catalogue.resolve("Declared One").type == kind
