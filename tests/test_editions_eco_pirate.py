"""EcoFluxx and Pirate Fluxx: the catalogues (with their merges into the 5.0 records and
the Easy EcoFluxx option), the `cards` command, the scenario library, and the behaviour
of each new mechanic as small scenarios replayed through the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.catalogue import default_catalogue
from fluxx_judge.cli import _scenario_files, main
from adjudicator.editions import EASY_ECO_SHARED, easy_ecofluxx_deck, easy_ecofluxx_set_aside
from adjudicator.replay import _same_ruling, replay_file
from adjudicator.scenario import load_scenario
from tests.conftest import REPO, write_scenario, run_scenario as run

ECO_FILES = _scenario_files([str(REPO / "scenarios" / "eco")])[0]
PIRATE_FILES = _scenario_files([str(REPO / "scenarios" / "pirate")])[0]
BOOTY = {"Gold Doubloons", "Pieces of Eight", "Diamonds", "Rubies", "Emeralds", "Pearls"}
SHIPS = {"Sloop", "Schooner", "Frigate", "Galleon"}


@pytest.fixture(scope="module")
def cat():
    return default_catalogue()


# ----------------------------------------------------------------------------- catalogues
def test_eco_catalogue(cat):
    eco = cat.by_edition("eco")
    kinds = Counter(c.type for c in eco)
    assert kinds == {"keeper": 21, "goal": 26, "rule": 22, "action": 19, "creeper": 4, "basic": 1}
    assert sum(1 for c in eco if c.mechanic == "eats_goal") == 9          # of the seed's 11
    living = {c.name for c in eco if "living" in c.tags}
    assert len(living) == 16 and not living & {"Water", "Dirt", "Sunshine", "Air", "Poison"}
    assert cat.resolve("Scavenger").editions == ("eco", "faq")               # faq.yaml's record, not a copy
    assert cat.resolve("Deciduous Trees in Winter").name == "Winter"
    assert cat.resolve("Pollinators").name == "Pollination"


def test_pirate_catalogue(cat):
    pirate = cat.by_edition("pirate")
    names = {c.name for c in pirate}
    assert {c.name for c in pirate if "booty" in c.tags} == BOOTY
    assert {c.name for c in pirate if "ship" in c.tags} == SHIPS
    assert "Dinghy" in names and not cat.resolve("Dinghy").tags
    assert {c.name for c in pirate if c.type == "creeper"} == {"Scurvy", "Shackles"}   # exactly two, says the seed
    assert {c.name for c in pirate if c.type == "surprise"} == {"Stop That!", "That's Mine"}
    assert cat.resolve("Avast! Halt!", editions=["pirate"]).name == "Stop That!"
    assert cat.resolve("That Be Mine", editions=["pirate"]).name == "That's Mine"
    assert cat.resolve("Plunder!").name == "Plunder"
    assert "Skullduggery" not in names                                       # edition not stated anywhere


@pytest.mark.parametrize("edition", ["eco", "pirate"])
def test_records_are_sound(cat, edition):
    for c in cat.by_edition(edition):
        assert c.effect, c.name
        if c.certainty == "partial":
            assert c.note, c.name
    # generic cards merged into one record: no name is split by edition
    split = [k for k, c in cat.cards.items() if "(" in k and edition in c.editions and "stand-in" not in k]
    assert split == []


def test_generic_cards_merge_with_5_0(cat):
    for name in ("Draw 4", "Play All", "Keeper Limit 2", "No-Hand Bonus", "Trade Hands", "Steal a Keeper",
                 "Draw 3, Play 2 of Them", "Let's Do That Again!", "Basic Rules"):
        assert {"base", "eco"} <= set(cat.resolve(name).editions), name
    for name in ("Swap Plays for Draws", "Draw 2 and Use 'Em", "Use What You Take", "No-Hand Bonus", "Play 2"):
        assert {"base", "pirate"} <= set(cat.resolve(name).editions), name
    assert {"creeper-pack", "eco", "pirate"} <= set(cat.resolve("Trash Something").editions)
    assert {"eco", "star"} <= set(cat.resolve("Hand Limit 4").editions)
    # shared records carry no Eco-only tag
    for name in EASY_ECO_SHARED:
        assert "easy-set-aside" not in cat.resolve(name).tags, name


def test_easy_ecofluxx_set_aside(cat):
    aside = easy_ecofluxx_set_aside(cat)
    for name in ("Poison", "Camouflage", "Mice Eat Seeds", "Play All", "Winter", "Ferns", "Mammals", "Pollination",
                 "Herpetology", "Invertebrates", "Keeper Limit 1", "Draw 5", "Population Crash", "Keeper Limit 4",
                 "Draw 3, Play 2 of Them", "No-Hand Bonus", "Draw 4", "Composting", "Play 4",
                 "EcoFluxx Creeper (stand-in)"):
        assert name in aside, name
    assert sum(1 for n in aside if " Eat" in n) == 9
    deck = easy_ecofluxx_deck(cat)
    assert not set(deck) & set(aside)
    assert {"Mud", "Water", "Extinction", "Draw 2", "Play 3", "One, Two, Five!"} <= set(deck)


@pytest.mark.parametrize("edition,label,names", [
    ("eco", "EcoFluxx", ["Bears Eat Fish", "One, Two, Five!", "Extinction", "Poison", "Scavenger", "Draw 4"]),
    ("pirate", "Pirate Fluxx", ["Plunder", "Scurvy", "Shackles", "Captain's Hat", "Pieces of Eight", "Stop That!"]),
])
def test_cards_command_lists_the_edition(cat, capsys, edition, label, names):
    assert main(["cards", "--edition", edition]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(f"{len(cat.by_edition(edition))} cards in {label}")
    for name in names:
        assert name in out
    assert "[partial]" in out


# ----------------------------------------------------------------------------- the library
@pytest.mark.parametrize("path", ECO_FILES + PIRATE_FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_library_scenario_passes(path):
    verdict = replay_file(path)
    assert verdict.error is None, str(verdict.error)
    assert verdict.failures == []
    # a scenario may cite a record under an alias (a pack id), as its verdict does not
    assert all(_same_ruling(c, verdict.cites) for c in verdict.scenario.cites)
    prefix = "eco-" if "/eco/" in path else "pirate-"
    assert verdict.scenario.id.startswith(prefix)


def test_library_covers_the_edition_rulings():
    cited = set()
    for path in ECO_FILES + PIRATE_FILES:
        cited |= set(load_scenario(path).cites)    # the file's cites; each file's replay is checked above
    assert {"rule-pirate-booty-icon", "rule-pirate-ship-icon", "grab-keeper-cheating",
            "getting-rid-of-creepers"} <= cited


# ----------------------------------------------------------------------------- EcoFluxx mechanics
def test_eats_goal_poison_of_the_eaters_holder_protects_their_own_food(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          goals: [Snakes Eat Mice]
          keepers:
            Ann: [Snakes, Mice, Poison]
          hands:
            Ann: [Sunshine]
          draw_pile: ["? x5"]
        events:
          - play: Sunshine
            expect:
              winner: none
        """)


def test_eats_goal_any_listed_food_and_eco_creeper_blocks(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal]
          turn: Ann
          rules: [Play 2]
          goals: ["Birds Eat Insects, Worms or Seeds"]
          keepers:
            Ann: [Birds]
            Ben: [Worms]
            Cal: [Eco Creeper]
          hands:
            Ann: [Silver Lining, Water]
          draw_pile: ["? x5"]
        events:
          - play: Water
            expect:
              winner: none
              cites: [getting-rid-of-creepers]
          - play: Silver Lining
        expect:
          winner: Ann
        """)


def test_eco_creeper_does_not_block_a_goal_without_its_requirements(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          goals: [Mud]
          keepers:
            Ann: [Eco Creeper]
          hands:
            Ann: [Water]
          draw_pile: ["? x5"]
        events:
          - play: Water
        """)
    assert "getting-rid-of-creepers" not in v.cites      # nobody met Mud, so nothing was blocked


@pytest.mark.parametrize("first", ["Inflation", "One, Two, Five!"])
def test_numeral_rules_cannot_stand_together(tmp_path, first):
    """Rules that change printed numbers contradict each other (the X=X+1 tag, FAQ
    question 1420): a table with both could never be reached."""

    second = "One, Two, Five!" if first == "Inflation" else "Inflation"
    path = write_scenario(tmp_path, f"""
        format: 1
        table:
          players: [Ann, Ben]
          rules: [Draw 3, "{first}", "{second}"]
        """)
    v = replay_file(str(path))
    assert v.error is not None and "numerals" in str(v.error) and v.error.line == 4


def test_one_two_five_reads_the_printed_figure(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Draw 3, "One, Two, Five!", Play 2]
          hands:
            Ann: [Water]
          draw_pile: ["? x20"]
        events: []
        """)
    e = v.engine
    st = e.state
    draw3 = next(r for r in st.rules if st.defs[r].name == "Draw 3")
    play2 = next(r for r in st.rules if st.defs[r].name == "Play 2")
    assert e.core.num(draw3, "draw") == 5 and e.core.num(play2, "play") == 2
    assert e.core.num(st.basic, "draw") == 1


def test_extinction_with_no_living_keeper_is_discarded(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ben: [Water, Poison]
          hands:
            Ann: [Extinction]
          draw_pile: ["? x5"]
        events:
          - play: Extinction
            expect:
              zones:
                discard: [Extinction]
                Ben.keepers: [Water, Poison]
              cites: [rule-cards-always-playable]
        """)


def test_extinction_removes_both_cards(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Bears]
            Ben: [Fish]
          hands:
            Ann: [Extinction]
          draw_pile: ["? x5"]
        events:
          - play: Extinction
            choose: [Bears]
            expect:
              zones:
                Ann.keepers: []
                discard: []
        """)
    st = v.engine.state
    assert sorted(st.defs[c].name for c in st.removed) == ["Bears", "Extinction"]


def test_taxation_each_payer_chooses(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal, Dee]
          turn: Ann
          hands:
            Ann: [Taxation]
            Ben: [Water, Dirt]
            Cal: [Air]
          draw_pile: ["? x5"]
        events:
          - play: Taxation
            expect:
              pending: {by: Ben, choice: card}
          - choose: Dirt
        expect:
          zones:
            Ann.hand: [Dirt, Air]
            Ben.hand: [Water]
            Cal.hand: []
            Dee.hand: []
        """)


def test_population_crash_refills_once_and_reads_any_of_and_forbidden(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        reshuffle: [Water, Ferns]
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Leaves, Bears]
            Ben: [Flowers, Trees]
          hands:
            Ann: [Population Crash]
          draw_pile: [Dirt]
          discard: [Water, Ferns]
        events:
          - play: Population Crash
        expect:
          zones:
            Ann.keepers: [Bears]
            Ben.keepers: [Trees]
            discard: [Ferns, Leaves, Flowers, Population Crash, Water]
            draw_pile: [Dirt]
        """)


def test_population_crash_without_a_goal_does_nothing(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Leaves]
          hands:
            Ann: [Population Crash]
          draw_pile: [Dirt, Water]
        events:
          - play: Population Crash
        expect:
          zones:
            Ann.keepers: [Leaves]
        """)


def test_population_crash_stops_at_an_unknown_card(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          hands:
            Ann: [Population Crash]
          draw_pile: [Dirt, "?", Mud]
        events:
          - play: Population Crash
            expect:
              rejected: true
              zones:
                Ann.hand: [Population Crash]
        """)


def test_pollution_discards_every_copy(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Air, Bears]
            Ben: [Water, Dirt, Fish]
          hands:
            Ann: [Pollution]
          draw_pile: ["? x5"]
        events:
          - play: Pollution
        expect:
          zones:
            Ann.keepers: [Bears]
            Ben.keepers: [Fish]
            discard: {has: [Air, Water, Dirt, Pollution], size: 4}
        """)


def test_mass_migration_moves_one_keeper_each_way_at_once(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal]
          turn: Ann
          keepers:
            Ann: [Bears, Fish]
            Ben: [Birds]
            Cal: [Eco Creeper]
          hands:
            Ann: [Mass Migration]
          draw_pile: ["? x5"]
        events:
          - play: Mass Migration
            choose: [Cal, Fish]
        expect:
          zones:
            Ann.keepers: [Bears, Birds]
            Ben.keepers: []
            Cal.keepers: [Eco Creeper, Fish]
        """)


def test_composting_draws_from_the_bottom_of_the_discard_pile(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          editions: [eco]
          players: [Ann, Ben]
          turn: Ann
          rules: [Composting, Draw 2]
          discard: [Mud, Water, Eco Creeper, Dirt]
          draw_pile: [Air, Fish, "? x5"]
        events:
          - end_turn: true
            expect:
              pending: {by: Ben, choice: number}
          - choose: 1
        expect:
          turn: Ben
          zones:
            Ben.hand: [Dirt, Air]
            Ben.keepers: []
            discard: [Mud, Water, Eco Creeper]
        """)


def test_composting_creeper_from_the_discard_pile_is_not_a_draw(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          editions: [eco]
          players: [Ann, Ben]
          turn: Ann
          rules: [Composting]
          discard: [Mud, Eco Creeper]
          draw_pile: [Air, "? x5"]
        events:
          - end_turn: true
            choose: [1]
        expect:
          zones:
            Ben.hand: [Mud]
            Ben.keepers: [Eco Creeper]
        """)


# ----------------------------------------------------------------------------- Pirate mechanics
@pytest.mark.parametrize("ship", sorted(SHIPS))
def test_every_ship_meets_a_ship_goal(tmp_path, ship):
    run(tmp_path, f"""
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          goals: [Ship Goal (stand-in)]
          hands:
            Ann: [{ship}]
          draw_pile: ["? x5"]
        events:
          - play: {ship}
        expect:
          winner: Ann
          cites: [rule-pirate-ship-icon]
        """)


@pytest.mark.parametrize("booty", sorted(BOOTY))
def test_every_booty_meets_a_booty_goal(tmp_path, booty):
    run(tmp_path, f"""
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          goals: [Booty Goal (stand-in)]
          hands:
            Ann: [{booty}]
          draw_pile: ["? x5"]
        events:
          - play: {booty}
        expect:
          winner: Ann
          cites: [rule-pirate-booty-icon]
        """)


def test_plunder_once_a_turn_and_only_keepers(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Plunder]
          keepers:
            Ben: [Rum, Keg, Scurvy]
          hands:
            Ann: [Monkey]
          draw_pile: ["? x5"]
        events:
          - use: Plunder
            expect:
              pending: {by: Ann, choice: card}
          - choose: Keg
          - use: Plunder
            expect:
              rejected: true
        expect:
          zones:
            Ann.keepers: [Keg]
            Ben.keepers: [Rum, Scurvy]
        """)


def test_plunder_with_nothing_to_take_is_refused(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Plunder]
          keepers:
            Ben: [Shackles]
          hands:
            Ann: [Monkey]
          draw_pile: ["? x5"]
        events:
          - use: Plunder
            expect:
              rejected: true
        """)


def test_its_a_trap_answers_plunder(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Plunder]
          keepers:
            Ann: [Pearls]
            Ben: [Rum]
          hands:
            Ann: [Monkey]
            Ben: [It's A Trap!]
          draw_pile: ["? x5"]
        events:
          - use: Plunder
          - surprise: It's A Trap!
            by: Ben
        expect:
          zones:
            Ann.keepers: []
            Ben.keepers: [Rum, Pearls]
        """)


def test_scurvy_cured_when_passed_to_a_player_with_oranges(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ben
          keepers:
            Ann: [Scurvy]
            Ben: [Oranges]
          hands:
            Ann: [Rum]
          draw_pile: ["? x5"]
        events:
          - end_turn: true
          - use: Scurvy
        expect:
          zones:
            Ann.keepers: []
            Ben.keepers: [Oranges]
            discard: [Scurvy]
          cites: [getting-rid-of-creepers]
        """)


def test_shackles_without_booty_or_hat_stay(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Shackles, Galleon, Dinghy]
          hands:
            Ann: [Rum]
          draw_pile: ["? x5"]
        events:
          - use: Shackles
            expect:
              rejected: getting-rid-of-creepers
        """)


def test_the_captain_is_whoever_holds_the_hat(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Shackles]
            Ben: [Captain's Hat]
          hands:
            Ann: [Steal a Keeper]
          draw_pile: ["? x5"]
        events:
          - use: Shackles
            expect:
              rejected: getting-rid-of-creepers
          - play: Steal a Keeper
          - use: Shackles
        expect:
          zones:
            Ann.keepers: [Captain's Hat]
            Ben.keepers: [Shackles]
        """)
    from adjudicator.mechanics.pirate import captain

    assert captain(v.engine.core) == "Ann"


def test_free_the_prisoner_is_never_judged_met_and_shackles_do_not_block_it(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          goals: [Free the Prisoner]
          keepers:
            Ann: [Shackles]
          hands:
            Ann: [Key]
          draw_pile: ["? x5"]
        events:
          - play: Key
        expect:
          winner: none
        """)
    e = v.engine
    goal = e.state.goals[0]
    assert e.state.defs[goal].impl.requires(e, goal) == {"Shackles"}


def test_talk_like_a_pirate_is_judged_each_turn(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Talk Like a Pirate]
          draw_pile: [Rum, Keg, "? x5"]
        events:
          - end_turn: true
            expect:
              pending: {by: Ben, choice: table}
          - choose: yes
        expect:
          turn: Ben
          zones:
            Ben.hand: [Rum, Keg]
        """)
