"""Star Fluxx: the catalogue (every card but the five Surprises, which live in
surprises.yaml), its merges with Fluxx 5.0, and the behaviour of each Star mechanic,
as small scenarios replayed through the engine."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from adjudicator.decisions import keep_order
from adjudicator.catalogue import default_catalogue
from fluxx_judge.cli import _scenario_files, main
from adjudicator.engine import Engine
from adjudicator.events import Event
from adjudicator.replay import _same_ruling, replay_file
from adjudicator.scenario import load_scenario
from adjudicator.systems import follow_attachments
from adjudicator.state import State
from tests.conftest import REPO, write_scenario, run_scenario as run

SURPRISES = {"Canceled Plans", "Veto!", "Stop That!", "That's Mine", "It's A Trap!"}   # Belay That! = Stop That!
# The reference lists 100 cards with the Basic Rules: 25 Keepers, 3 Creepers, 33 Goals,
# 17 New Rules and 21 Actions, 5 of which are the Surprises. Without those: 95.
EXPECTED = {"keeper": 25, "creeper": 3, "goal": 33, "rule": 17, "action": 16, "basic": 1}
STAR_FILES = _scenario_files([str(REPO / "scenarios" / "star")])[0]


@pytest.fixture(scope="module")
def cat():
    return default_catalogue()


def star_cards(cat):
    return [c for c in cat.by_edition("star") if c.type != "surprise"]


# ----------------------------------------------------------------------------- catalogue
def test_star_catalogue_counts(cat):
    cards = star_cards(cat)
    assert len(cards) == 95
    assert Counter(c.type for c in cards) == EXPECTED
    assert all(c.name not in SURPRISES for c in cards)


def test_cards_command_lists_the_edition(cat, capsys):
    assert main(["cards", "--edition", "star"]) == 0
    out = capsys.readouterr().out
    surprises = sum(1 for c in cat.by_edition("star") if c.type == "surprise")
    assert out.strip().endswith(f"{95 + surprises} cards in Star Fluxx")
    for name in ("Time Portal", "Cute Fuzzy Alien Creature", "That Computer Controls the Life Support System!",
                 "Draw 3, Play 2 of Them", "Hand Limit 4", "Mystery Play"):
        assert name in out
    assert "Wormhole" in out


def test_cards_shared_with_5_0_are_merged(cat):
    for name in ("Draw 2", "Draw 5", "Play All", "Hand Limit 2", "Keeper Limit 4", "Double Agenda", "Get On With It!",
                 "Draw 2 and Use 'Em", "Draw 3, Play 2 of Them", "Exchange Keepers", "Let's Simplify",
                 "Steal a Keeper", "Trade Hands", "Trash a New Rule", "Rules Reset", "Basic Rules"):
        card = cat.resolve(name)
        assert {"base", "star"} <= set(card.editions), name
    wormhole = cat.resolve("Wormhole", editions=["star"])
    assert wormhole.name == "Mystery Play" and "star" in wormhole.editions
    assert cat.resolve("Teleport Chamber").name == "Teleporter"
    assert not [k for k in cat.cards if "(" in k and "star" in cat.cards[k].editions]


def test_keeper_groups_and_partial_records(cat):
    brains = {c.name for c in star_cards(cat) if "brains" in c.tags}
    equipment = {c.name for c in star_cards(cat) if "equipment" in c.tags}
    assert brains == {"Bug-Eyed Monster", "Energy Being", "Cute Fuzzy Alien Creature", "Expendable Crewman",
                      "The Captain", "The Doctor", "The Engineer", "The Scientist", "Time Traveler"}
    assert equipment == {"The Computer", "Holographic Projection", "Laser Pistol", "Laser Sword", "Space Station",
                         "Starship", "Teleporter", "Intergalactic Travel Guide", "The Robot"}
    for c in star_cards(cat):
        assert c.effect
        if c.certainty == "partial":
            assert c.note, c.name


def test_turn_ending_actions_are_in_the_graph(cat):
    from adjudicator.interactions import build_graph

    g = build_graph(cat)
    for name in ("Time Portal", "What Do You Want?", "Brain Transference"):
        node = f"card:{name}"
        assert g.has_edge(node, "concept:turn_end", key="grants")
        assert g[node]["concept:temporary_hand"]["overrides"]["ruling"] == "turn-end-inside-d3p2"


# ----------------------------------------------------------------------------- the library
@pytest.mark.parametrize("path", STAR_FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_star_scenario_passes(path):
    verdict = replay_file(path)
    assert verdict.error is None, str(verdict.error)
    assert verdict.failures == []
    # a scenario may cite a record under an alias (a pack id), as its verdict does not
    assert all(_same_ruling(c, verdict.cites) for c in verdict.scenario.cites)


def test_the_faq_rulings_are_demonstrated():
    cited = set()
    for path in STAR_FILES:
        cited |= set(load_scenario(path).cites)    # the file's cites; each file's replay is checked above
    assert {"turn-end-inside-d3p2", "play-all-vs-turn-end", "turn-end-still-limits", "turn-ending-cards-list"} <= cited


# ----------------------------------------------------------------------------- mechanics
def test_bonus_keeper_counts_only_for_its_holder(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          rules: [Hand Limit 2, Keeper Limit 3]
          keepers:
            Ann: [The Computer]
          hands:
            Ann: [Monolith]
        events: []
        """)
    e = v.engine
    assert e.core.draw_total("Ann") == 2 and e.core.draw_total("Ben") == 1
    assert e.core.play_quota("Ann") == ("n", 2) and e.core.play_quota("Ben") == ("n", 1)
    assert (e.core.hand_limit("Ann"), e.core.keeper_limit("Ann")) == (3, 4)
    assert (e.core.hand_limit("Ben"), e.core.keeper_limit("Ben")) == (2, 3)


def test_cute_fuzzy_creature_stays_put_at_the_start_of_a_scenario(tmp_path):
    # Cal's turn ended before the position was written down: the Creature does not move again
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal]
          turn: Ann
          hands:
            Ann: [Monolith]
          keepers:
            Cal: [Cute Fuzzy Alien Creature]
          draw_pile: ["? x5"]
        events:
          - play: Monolith
        expect:
          zones:
            Cal.keepers: [Cute Fuzzy Alien Creature]
            Ann.keepers: [Monolith]
        """)


def test_holographic_projection_works_only_on_its_holders_turn(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ben
          goals: [Strange Powers]
          hands:
            Ben: [Monolith]
          keepers:
            Ann: [Holographic Projection, Unseen Force]
            Ben: [Energy Being]
          draw_pile: ["? x5"]
        events:
          - play: Monolith
        expect:
          winner: none
        """)


def test_holographic_projection_is_switched_off_by_malfunction(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ben
          hands:
            Ann: [Strange Powers]
          keepers:
            Ann: [Holographic Projection, Unseen Force]
            Ben: [Energy Being]
          draw_pile: [Malfunction, Monolith, "? x5"]
        events:
          - end_turn: true
            expect:
              zones:
                Ann.keepers: [Holographic Projection, Unseen Force, Malfunction]
          - play: Strange Powers
        expect:
          winner: none
        """)


def test_laser_sword_only_reaches_its_holders_keepers(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Laser Sword]
            Ben: [Starship]
          draw_pile: [Evil, The Robot, Monolith, "? x5"]
        events:
          - end_turn: true
          - play: The Robot
          - use: Laser Sword
            by: Ann
            expect:
              rejected: true
        expect:
          zones:
            Ben.keepers: [Starship, Evil, The Robot]
        """)


def test_expendable_crewman_takes_the_laser_pistol_shot(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Laser Pistol]
            Ben: [Starship, Expendable Crewman]
          draw_pile: [Evil, The Robot, Monolith, "? x5"]
        events:
          - end_turn: true
            choose: [Starship]
          - play: The Robot
          - use: Laser Pistol
            by: Ann
        expect:
          zones:
            Ben.keepers: [Starship, Evil, The Robot]
            discard: [Expendable Crewman]
        """)


def test_steal_named_and_cures_creeper_refuse_what_they_cannot_do(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ben
          keepers:
            Ann: [The Scientist, The Doctor]
            Ben: [Starship]
          draw_pile: [Brain Parasites, Monolith, "? x5"]
        events:
          - end_turn: true
            choose: [The Doctor]
            expect:
              zones:
                Ann.keepers: [The Scientist, The Doctor, Brain Parasites]
          - use: The Scientist
            expect:
              rejected: true
          - use: The Doctor
            expect:
              rejected: true
        """)


def test_unseen_force_and_teleporter_need_something_to_act_on(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          keepers:
            Ann: [Unseen Force]
            Ben: [Teleporter]
          draw_pile: ["? x5"]
        events:
          - use: Unseen Force
            expect:
              rejected: true
          - use: Teleporter
            expect:
              rejected: true
          - use: Teleporter
            by: Ben
            expect:
              rejected: true
        """)


def test_attaching_creeper_follows_a_stolen_keeper(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          played: 1
          hands:
            Ann: [Steal a Keeper]
          keepers:
            Ann: [Monolith]
            Ben: [Starship, Energy Being]
          draw_pile: [Brain Parasites, The Robot, Small Moon, "? x5"]
        events:
          - end_turn: true
          - play: The Robot
          - play: Steal a Keeper
            by: Ann
            choose: [Energy Being]
        expect:
          zones:
            Ann.keepers: [Monolith, Energy Being, Brain Parasites]
            Ben.keepers: [Starship, The Robot]
        """)
    st = v.engine.state
    (creeper, keeper), = st.attachments.items()
    assert (st.name(creeper), st.name(keeper)) == ("Brain Parasites", "Energy Being")


def test_time_portal_never_offers_creepers_or_unknown_cards(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          hands:
            Ann: [Time Portal]
          discard: [Evil, Monolith]
          draw_pile: [Malfunction, Starship, "?"]
        events:
          - play: Time Portal
        expect:
          pending: {by: Ann, choice: card}
        """)
    assert sorted(v.engine.pending.decision.option_names) == ["Monolith", "Starship"]


def test_what_do_you_want_goal_to_hand_and_turn_ending_action_ends_one_turn(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal]
          turn: Ann
          hands:
            Ann: [What Do You Want?, What Do You Want?]
          discard: [Space Dock, Time Portal, Monolith]
          draw_pile: [Starship, The Stars, Small Moon, "? x5"]
        events:
          - play: What Do You Want?
            choose: [Space Dock]
            expect:
              turn: Ben
              zones:
                Ann.hand: [What Do You Want?, Space Dock]
          - play: Starship
            by: Ben
          - play: The Stars
            by: Cal
          - play: What Do You Want?
            by: Ann
            choose: [Time Portal, Monolith]
            expect:
              turn: Ben
              zones:
                Ann.hand: [Space Dock, Small Moon, Monolith]
                discard: {has: [Time Portal, What Do You Want?]}
        """)


def test_beam_us_up_ignores_a_malfunctioning_teleporter(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          played: 1
          hands:
            Ann: [Beam Us Up!]
          keepers:
            Ann: [The Captain]
            Ben: [Teleporter, The Doctor]
          draw_pile: [Malfunction, Monolith, Starship, "? x5"]
        events:
          - end_turn: true
          - play: Monolith
          - play: Beam Us Up!
            by: Ann
        expect:
          zones:
            Ben.keepers: [Teleporter, Malfunction, Monolith]
            Ben.hand: [The Doctor]
            Ann.hand: [Starship, The Captain]
        """)


def test_beam_us_up_teleporter_victims_are_noted(tmp_path):
    v = run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben, Cal]
          turn: Ann
          hands:
            Ann: [Beam Us Up!]
          keepers:
            Ben: [Energy Being]
            Cal: [Teleporter]
          draw_pile: ["? x5"]
        events:
          - play: Beam Us Up!
        expect:
          zones:
            Cal.hand: [Energy Being]
        """)
    windows = getattr(v.engine.state, "windows", [])
    if windows:
        assert "Ben" in windows[-1].victims


def test_distress_call_counts_creepers_drawn_during_the_call(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          hands:
            Ann: [Distress Call]
          draw_pile: [Evil, Monolith, Starship, The Stars, Small Moon, "? x5"]
        events:
          - play: Distress Call
        expect:
          zones:
            Ann.keepers: [Evil]
            Ann.hand: [Monolith, Starship]
            Ben.hand: [The Stars]
        """)


def test_sledgehammer_on_a_lone_player_with_only_creepers(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          hands:
            Ann: [Sonic Sledgehammer]
          keepers:
            Ben: [Evil]
          draw_pile: ["? x5"]
        events:
          - play: Sonic Sledgehammer
        expect:
          zones:
            Ben.keepers: [Evil]
            discard: [Sonic Sledgehammer]
        """)


def test_space_jackpot_with_few_cards_discards_what_there_is(tmp_path):
    run(tmp_path, """
        format: 1
        id: t
        title: t
        table:
          players: [Ann, Ben]
          turn: Ann
          hands:
            Ann: [Space Jackpot!]
          draw_pile: [Monolith]
        events:
          - play: Space Jackpot!
        expect:
          zones:
            Ann.hand: []
            discard: {has: [Monolith, Space Jackpot!]}
        """)


# ----------------------------------------------------------------------------- random play
def _star_position(seed: int) -> Engine:
    rng = random.Random(seed)
    cat = default_catalogue()
    deck = [c for c in cat.by_edition("star") if c.type != "basic"]
    rng.shuffle(deck)
    defs = list(deck) + [cat.resolve("Basic Rules")]
    players = ["Ann", "Ben", "Cal"][: rng.randint(2, 3)]
    st = State(defs=defs, players=players, hands={p: [] for p in players}, keepers={p: [] for p in players})
    st.basic = len(deck)
    for c, d in enumerate(deck):
        r = rng.random()
        if d.type == "keeper" and r < 0.3:
            st.keepers[rng.choice(players)].append(c)
        elif d.type not in ("creeper", "rule") and r < 0.4:
            st.hands[rng.choice(players)].append(c)
        elif r < 0.5:
            st.discard.append(c)
        else:
            st.draw_pile.append(c)
    st.rng = type(st.rng)(seed)        # the table's own seeded generator
    e = Engine(cat, st)
    st.drawn = e.core.draw_total(st.active_player)
    return e


def _answer(e: Engine, rng: random.Random):
    d = e.pending.decision
    opts = list(d.options)
    if d.kind in ("discard", "discard_keepers"):
        return rng.sample(opts, d.count)
    if d.kind == "cards":
        return rng.sample(opts, rng.randint(d.minimum, min(d.count or len(opts), len(opts))))
    if d.kind in ("yes_no", "table"):
        return rng.random() < 0.5
    if d.kind == "order":
        return keep_order(rng.sample(opts, len(opts)), d.kept)
    if d.kind == "deal":
        order = e.core.seat_order(start=d.by)
        each = d.count or 1
        return {p: opts[i * each:(i + 1) * each] for i, p in enumerate(order) if opts[i * each:(i + 1) * each]}
    return rng.choice(opts)


@pytest.mark.parametrize("seed", range(16))
def test_random_star_play_keeps_every_card(seed):
    e = _star_position(seed)
    rng = random.Random(seed)
    total = len(e.state.every_card())
    for _ in range(40):
        if e.state.game_over:
            break
        if e.pending is not None:
            if e.pending.decision.chance:
                e.answer_by_chance()
            else:
                assert e.submit(Event("choose", answer=_answer(e, rng))).status != "rejected"
        else:
            options = e.candidate_events()
            rng.shuffle(options)
            for ev in options:
                result = e.try_event(ev)
                if result is not None and result.status != "rejected":
                    e.submit(ev)
                    break
            else:
                raise AssertionError("nothing legal to do")
        cards = e.state.every_card()
        assert len(cards) == total and len(set(cards)) == total
        if e.pending is None:
            # an attached Creeper is with its Keeper once the checkpoint has settled the table
            settled = Engine(e.cat, e.state.clone())
            follow_attachments(settled.core)
            st = settled.state
            for creeper, keeper in st.attachments.items():
                assert st.owner_of_keeper(creeper) == st.owner_of_keeper(keeper) is not None
