"""The dispute desk, engine and command-line side (format 1.1, items 2, 4 and 5):
unseen cards revealed, grouped legal moves with reveals, `fluxx-judge moves`, the
question answered first, refusals as answers, who decides and what each option
does, variations, typed events, and cards that meet through the library."""

from __future__ import annotations

import re

import json
import random
from collections import Counter

import jsonschema
import pytest

from adjudicator import strictyaml
from adjudicator.catalogue import default_catalogue
from fluxx_judge.cli import main
from adjudicator.errors import InputError
from adjudicator.events import Event
from adjudicator.moves import legal_moves
from adjudicator.replay import replay, replay_file
from adjudicator.scenario import parse_scenario
from adjudicator.typed_events import EventHints, TypedEventError, parse_typed_event
from tests.conftest import REPO, write_scenario

SCHEMA = json.loads((REPO / "docs" / "scenario.schema.json").read_text())


def load(text: str, name: str = "t.yaml"):
    return parse_scenario(strictyaml.parse(text, name), name)


def run(text: str):
    verdict = replay(load(text))
    assert verdict.error is None, verdict.error
    return verdict


# Play All and Time Portal, with Ben's and Cal's hands unseen
PLAY_ALL = """
format: 1
id: play-all-time-portal-unseen
question: Under Play All, does Time Portal end Ann's turn before she plays Bread?
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  rules: [Play All]
  goals: [Time is Money]
  hands:
    Ann: [Time Portal, The Moon, Bread]
    Ben: ["? x3"]
    Cal: [Stop That!, "? x2"]
  keepers:
    Ann: [Time]
  draw_pile: [Milk, Sleep, "? x10"]
  discard: [Love, Dreams]
events:
  - play: Time Portal
    choose: [Dreams]
"""

# That's Mine answered by a counter-Surprise; both Surprises come out of unseen hands.
# The deck mixes Fluxx 5.0 and Star Fluxx (Dee's Captain says so): a table of Fluxx 5.0
# cards alone would offer no Surprise to reveal (adjudicator.editions.table_editions)
THATS_MINE = """
format: 1
id: thats-mine-countered-unseen
question: Ben took my Moon with That's Mine and I countered with Veto! - who keeps it?
table:
  players: [Ann, Ben, Cal, Dee]
  turn: Ann
  rules: [Play 2]
  hands:
    Ann: [The Moon, Bread, "?"]
    Ben: ["? x2"]
    Cal: ["? x2"]
    Dee: [Milk, The Captain]
  draw_pile: ["? x10"]
events:
  - play: The Moon
  - surprise: That's Mine
    by: Ben
  - surprise: Veto!
    by: Ann
    disputed: true
  - play: Bread
"""


def counts(engine) -> Counter:
    st = engine.state
    return Counter("?" if st.defs[c].key == "?" else "known" for c in st.every_card() if c != st.basic)


# --------------------------------------------------------------------------- unseen cards

def test_a_surprise_revealed_from_an_unseen_hand_runs_as_usual():
    v = run(THATS_MINE)
    texts = [e.text for e in v.steps[2].entries]
    assert texts[0] == "Ben reveals one of the unseen cards ('?') in their hand: it is That's Mine."
    assert v.steps[3].entries[0].text.startswith("Ann reveals one of the unseen cards")
    st = v.engine.state
    assert [st.name(c) for c in st.keepers["Ann"]] == ["The Moon", "Bread"]
    assert [st.name(c) for c in st.hands["Ben"]] == ["?"]
    assert not v.failures
    assert "Revealed from unseen hands: step 2: Ben reveals one of the unseen cards ('?') in their hand: it is " \
           "That's Mine; step 3: Ann reveals" in v.summary()
    assert v.to_json()["steps"][2]["explanation"][0]["kind"] == "reveal"


def test_reveals_keep_every_card_and_turn_one_unknown_into_one_known():
    sc = load(THATS_MINE)
    from adjudicator.replay import start_engine

    engine, _ = start_engine(sc)
    before = counts(engine)
    for i, sev in enumerate(sc.events[:3]):
        engine.submit(sev.event)
    after = counts(engine)
    assert sum(after.values()) == sum(before.values())
    assert after["?"] == before["?"] - 2 and after["known"] == before["known"] + 2


def test_a_reveal_is_refused_when_the_title_is_already_on_the_table():
    text = THATS_MINE.replace("Dee: [Milk, The Captain]", "Dee: [Milk, The Captain]\n  discard: [That's Mine]")
    v = run(text)
    step = v.steps[2]
    assert step.status == "rejected"
    assert "That's Mine cannot be one of Ben's unseen cards" in step.reason and "discard" in step.reason
    # the refusal changed nothing: Ben still holds two unseen cards
    assert step.table["hands"]["Ben"] == ["?", "?"]


def test_a_card_received_after_the_play_cannot_be_revealed_against_it():
    # Ann's Trade Hands gives Ben her unseen card: revealing it against Trade Hands is too late
    text = """
    format: 1
    id: received-too-late
    table:
      players: [Ann, Ben, Cal]
      turn: Ann
      rules: [Play 2]
      hands:
        Ann: [Trade Hands, "?"]
        Ben: [Milk]
      draw_pile: ["? x10"]
    events:
      - play: Trade Hands
        choose: [Ben]
      - surprise: Stop That!
        by: Ben
    """
    import textwrap

    v = run(textwrap.dedent(text))
    assert v.steps[2].status == "rejected"
    assert v.steps[2].ruling in ("trade-hands-received-stop-that", "surprise-too-late")


def test_hidden_cards_never_break_the_legal_events_list():
    v = run(PLAY_ALL.replace("events:\n  - play: Time Portal\n    choose: [Dreams]\n", ""))
    engine = v.engine
    engine.state.hands["Ann"].append(engine.state.hands["Ben"][0])   # Ann holds a '?' too
    engine.state.hands["Ben"].pop(0)
    events = engine.legal_events()
    assert all(ev.card != "?" for ev in events)
    groups = legal_moves(engine)
    titles = [g.title for g in groups]
    assert "Ann's plays" in titles
    assert any(t.startswith("Ann reveals a Keeper to play") for t in titles)
    reveal_names = {n for g in groups if g.kind == "reveal_play" for n in g.names}
    # titles already on the table are never offered as reveals
    assert {"Stop That!", "Milk", "Time", "Love", "Time Portal"}.isdisjoint(reveal_names)
    assert "Cookies" in reveal_names


def test_reveal_groups_say_what_the_surprise_cancels():
    v = run(THATS_MINE.replace("  - surprise: That's Mine\n    by: Ben\n  - surprise: Veto!\n    by: Ann\n"
                               "    disputed: true\n  - play: Bread\n", ""))
    groups = {g.title: g for g in legal_moves(v.engine)}
    ben = groups["Ben reveals a Surprise that cancels a Keeper (The Moon)"]
    assert "That's Mine" in ben.names
    assert ben.text().startswith("Ben reveals a Surprise that cancels a Keeper (The Moon): ")
    assert all(m.reveal and m.entry["by"] == "Ben" for m in ben.moves)
    # every move offered is one the engine accepts
    for g in groups.values():
        for m in g.moves:
            r = v.engine.try_event(m.event)
            assert r is not None and r.status != "rejected", m.words


# --------------------------------------------------------------------------- moves

def test_moves_command_text_and_json(tmp_path, capsys):
    path = write_scenario(tmp_path, THATS_MINE.replace("  - surprise: Veto!\n    by: Ann\n    disputed: true\n"
                                                         "  - play: Bread\n", ""))
    assert main(["moves", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Surprises that can answer a Surprise (That's Mine)" in out or "Ann reveals a Surprise" in out
    assert "{surprise: Veto!, by: Ann, against: That's Mine}" in out and "Ann reveals Veto! against That's Mine" in out
    assert main(["moves", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    words = [m["words"] for g in data["groups"] for m in g["moves"]]
    assert "Ann plays Bread" in words
    sc = load(path.read_text())
    verdict = replay(sc)
    same = [m.words for g in legal_moves(verdict.engine) for m in g.moves]
    assert words == same


def test_moves_lists_the_answers_of_a_pending_decision(tmp_path, capsys):
    path = REPO / "scenarios" / "base" / "double-agenda-trashed-remover-picks-goal.yaml"
    text = path.read_text().split("  - choose: Toast")[0]
    p = write_scenario(tmp_path, text)
    assert main(["moves", str(p)]) == 0
    out = capsys.readouterr().out
    assert "Ann must decide" in out
    assert "{choose: Toast}" in out and "Toast goes; Baked Goods stays" in out
    assert "[double-agenda-removed-choice]" in out


# --------------------------------------------------------------------------- the question

def test_replay_opens_with_the_question_and_its_answer(tmp_path, capsys):
    path = write_scenario(tmp_path, PLAY_ALL)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "Question: Under Play All, does Time Portal end Ann's turn before she plays Bread?"
    # a plain question: the verdict picks the kind the disputed event settles (the turn)
    assert out[3] == "Answer: Ann's turn is over; it is now Ben's turn."
    head = "\n".join(out[:out.index("Step by step:")])
    assert "play-all-vs-turn-end" in head and "   Rulings:" in head
    assert "play-all-vs-turn-end: " in head           # with its one-line answer
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["question"].startswith("Under Play All")
    assert data["answer"]["outcome"] == "done" and data["answer"]["step"] == 1
    assert any(r["id"] == "play-all-vs-turn-end" and r["answer"] for r in data["answer"]["rulings"])


def test_the_marked_event_is_the_disputed_one():
    v = run(THATS_MINE)
    assert v.scenario.disputed_event == 3
    assert v.answer.event == "Ann plays the Surprise Veto!"
    assert v.answer.outcome == "done"
    assert "rule-surprise-cancels-surprise" in [r.id for r in v.answer.rulings]
    assert any("reveals" in e.text for e in v.answer.lines)


def test_at_most_one_disputed_event():
    text = THATS_MINE.replace("  - play: Bread\n", "  - play: Bread\n    disputed: true\n")
    with pytest.raises(InputError) as exc:
        load(text)
    assert exc.value.line == 23 and "only one event may be disputed" in str(exc.value)


def test_a_refusal_is_an_answer_without_expectations(tmp_path, capsys):
    text = PLAY_ALL + "  - play: Bread\n    by: Ann\n"
    path = write_scenario(tmp_path, text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Answer: No: Ann may not play Bread: " in out
    for word in ("FAIL", "expected otherwise", "did not hold", "expectation did not"):
        assert word not in out
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.startswith("PASS play-all-time-portal-unseen")
    # once the file states an expectation, an unexpected refusal fails it again
    path = write_scenario(tmp_path, text + "expect:\n  turn: Ben\n", "e.yaml")
    assert main(["replay", str(path)]) == 1
    assert "FAIL event 2" in capsys.readouterr().out
    assert main(["check", str(path)]) == 1


def test_a_waiting_disputed_event_names_who_decides_and_the_ruling():
    path = REPO / "scenarios" / "base" / "double-agenda-trashed-remover-picks-goal.yaml"
    text = path.read_text().split("  - choose: Toast")[0]
    # asked plainly, the question of a waiting event is what the one who decides must do
    plain = re.sub(r"question:\n  text: .*\n  ask: .*\n", "question: Who picks the Goal that stays?\n", text)
    v = run(plain)
    step = v.steps[2]
    assert step.status == "waiting"
    assert "double-agenda-removed-choice" in step.cites
    assert v.answer.outcome == "waiting" and v.answer.kind == "must"
    assert v.answer.text.startswith("Ann must decide now: ")
    assert "double-agenda-removed-choice" in [r.id for r in v.answer.rulings]
    d = v.engine.pending.decision
    assert d.outcome("Toast") == "Toast goes; Baked Goods stays"
    assert parse_typed_event("Toast goes; Baked Goods stays", v.engine) == {"choose": "Toast"}
    assert parse_typed_event("Ann chooses toast", v.engine) == {"choose": "Toast"}
    with pytest.raises(TypedEventError, match="it is Ann, not Ben, who must decide"):
        parse_typed_event("Ben chooses Toast", v.engine)
    # once answered, the explanation says what became of each Goal
    done = replay_file(str(path))
    line = next(e.text for e in done.steps[3].entries if "Goal slots" in e.text)
    assert "Toast goes to the discard pile; Baked Goods stays" in line


def test_every_choice_step_cites_who_chooses_or_says_the_rules_are_silent():
    texts = []
    for path in sorted((REPO / "scenarios").rglob("*.yaml"))[:120]:
        v = replay_file(str(path))
        for s in v.steps:
            if s.status == "waiting" and not s.decision.chance:
                texts.append(s.entries[-1])
    assert texts
    for entry in texts:
        assert entry.cites or "says nothing on who decides" in entry.text or "at the table" in entry.text, entry


def test_a_hand_limit_discard_is_told_by_outcome():
    text = """
    format: 1
    id: limit-outcome
    table:
      players: [Ann, Ben, Cal]
      turn: Ann
      hands:
        Ann: [Hand Limit 1]
        Ben: [Milk, Bread, Sleep]
        Cal: [Love]
      draw_pile: ["? x10"]
    events:
      - play: Hand Limit 1
    """
    import textwrap

    v = run(textwrap.dedent(text))
    step = v.steps[1]
    assert step.status == "waiting" and "limit-discard-choice" in step.cites
    d = step.decision
    assert d.outcome(["Milk", "Sleep"]) == "Milk and Sleep are discarded; Bread stays in hand"


# --------------------------------------------------------------------------- variations

VARIATIONS = THATS_MINE.replace("    disputed: true\n", "") + """
variations:
  - after: 1
    title: Ben waits until Ann plays again
    events:
      - play: Bread
      - surprise: That's Mine
        by: Ben
        against: The Moon
        expect: {rejected: surprise-too-late}
  - after: 2
    title: Ann lets it go
    events:
      - play: Bread
    expect:
      zones:
        Ben.keepers: [The Moon]
    variations:
      - after: 1
        title: Cal joins the fight
        events:
          - surprise: Canceled Plans
            by: Cal
            expect: {rejected: true}
"""


def test_variations_are_replayed_and_checked(tmp_path, capsys):
    sc = load(VARIATIONS)
    assert [v.after for v in sc.variations] == [1, 2]
    assert sc.variations[1].variations[0].after == 1
    v = replay(sc)
    assert v.passed, v.all_failures
    first = v.variation((0,))
    assert first.base == 1 and [s.shared for s in first.verdict.steps[1:]] == [True, False, False]
    assert first.verdict.steps[-1].ruling == "surprise-too-late"
    nested = v.variation((1, 0))
    assert nested.base == 3 and nested.verdict.steps[-1].status == "rejected"
    path = write_scenario(tmp_path, VARIATIONS)
    assert main(["check", str(path)]) == 0
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Variation 1: Ben waits until Ann plays again  (branches after event 1" in out
    assert "Variation 2.1: Cal joins the fight" in out
    assert main(["replay", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(x["path"], x["base"]) for x in data["variations"]] == [([0], 1), ([1], 2)]
    assert data["variations"][1]["variations"][0]["path"] == [1, 0]
    assert data["variations"][0]["steps"][1]["shared"] is True


def test_a_failing_variation_fails_check_and_is_named(tmp_path, capsys):
    text = VARIATIONS.replace("Ben.keepers: [The Moon]", "Ben.keepers: [Bread]")
    path = write_scenario(tmp_path, text)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL thats-mine-countered-unseen: variation 'Ann lets it go': final expect" in out
    assert main(["check", "--json", str(path)]) == 1
    obj = json.loads(capsys.readouterr().out.splitlines()[0])
    assert [(v["path"], v["passed"]) for v in obj["variations"]] == [([0], True), ([1], False), ([1, 0], True)]


@pytest.mark.parametrize("bad,line,needle", [
    ("variations:\n  - after: 9\n", 24, "beyond the end of the main line, which has 4 events"),
    ("variations:\n  - aftr: 1\n", 24, "did you mean 'after'"),
    ("variations:\n  - title: x\n", 24, "missing the required key 'after'"),
    ("variations:\n  - after: 1\n    events:\n      - play: Bread\n        disputed: true\n", 27, "main line"),
    ("variations:\n  - after: 1\n    events: [{play: Bread}]\n    variations:\n      - after: 2\n", 27,
     "which has 1 event"),
])
def test_variation_errors_name_line_and_fix(bad, line, needle):
    with pytest.raises(InputError) as exc:
        load(THATS_MINE + bad)
    assert exc.value.line == line and needle in str(exc.value)


def test_schema_agrees_with_the_loader_on_the_new_keys():
    good = strictyaml.load_plain(VARIATIONS)
    jsonschema.validate(good, SCHEMA)
    jsonschema.validate(strictyaml.load_plain(THATS_MINE), SCHEMA)
    for bad in (THATS_MINE.replace("  - play: Bread\n", "  - play: Bread\n    disputed: true\n"),
                THATS_MINE + "variations:\n  - aftr: 1\n",
                THATS_MINE + "variations:\n  - after: 1\n    events:\n      - play: Bread\n        disputed: true\n",
                THATS_MINE.replace("question: Ben", "questoin: Ben")):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(strictyaml.load_plain(bad), SCHEMA)
        with pytest.raises(InputError):
            load(bad)


# --------------------------------------------------------------------------- typed events

@pytest.mark.parametrize("typed,entry", [
    ("Ann plays Bread", {"play": "Bread", "by": "Ann"}),
    ("play: Bread", {"play": "Bread"}),
    ("play Bread by ann", {"play": "Bread", "by": "Ann"}),
    ("{play: Bread, by: Ann}", {"play": "Bread", "by": "Ann"}),
    ("play: Bread, by: Ann", {"play": "Bread", "by": "Ann"}),
    ("Cal reveals Stop That! against The Moon", {"surprise": "Stop That!", "by": "Cal", "against": "The Moon"}),
    ("Ben plays the Surprise thats mine", {"surprise": "That's Mine", "by": "Ben"}),
    ("Ben plays That's Mine", {"surprise": "That's Mine", "by": "Ben"}),      # off turn: the out-of-turn side
    ("Ann reveals Milk and plays it", {"play": "Milk", "by": "Ann"}),
    ("Ann uses Get On With It", {"use": "Get On With It!", "by": "Ann"}),
    ("Ann ends the turn", {"end_turn": True, "by": "Ann"}),
    ("end_turn", {"end_turn": True}),
    ("choose [Bread, Milk]", {"choose": ["Bread", "Milk"]}),
    ("chance picks milk", {"random": "Milk"}),
    ("Eve joins the game", {"join": "Eve"}),
    ("Dee leaves the game", {"leave": "Dee"}),
])
def test_typed_events_read_the_file_syntax_and_the_menu_wording(typed, entry):
    v = run(THATS_MINE.split("events:")[0])
    assert parse_typed_event(typed, v.engine) == entry


@pytest.mark.parametrize("typed,needle", [
    ("Zed plays Milk", "no player at the table is called 'Zed'"),
    ("Ann plays Mlik", "did you mean 'Milk'"),
    ("hello there", "for example: Ann plays Milk"),
    ("Ann plays Bread against Milk", "'against' goes with a Surprise"),
])
def test_typed_events_explain_what_is_wrong(typed, needle):
    v = run(THATS_MINE.split("events:")[0])
    with pytest.raises(TypedEventError) as exc:
        parse_typed_event(typed, v.engine)
    assert needle in str(exc.value)


def test_every_menu_entry_typed_back_is_the_same_event():
    for text in (THATS_MINE.split("  - surprise: Veto!")[0], PLAY_ALL.split("events:")[0]):
        v = run(text)
        for g in legal_moves(v.engine):
            for m in g.moves:
                assert parse_typed_event(m.words, v.engine) == m.entry, m.words
                assert parse_typed_event(m.syntax, v.engine) == m.entry


def test_hints_come_from_the_table():
    v = run(THATS_MINE.split("  - surprise: That's Mine")[0])
    hints = EventHints(v.engine)
    players = {"Ann", "Ben", "Cal", "Dee"}
    for h in hints.hints:
        first = h.split(" ")[0].strip("{")
        assert first in players or first.rstrip(":") in ("play", "surprise", "use", "end_turn", "choose"), h
    assert hints.suggest("Ann pl") == "Ann plays Bread"
    for h in hints.hints:                        # every hint reads back as an event
        parse_typed_event(h, v.engine)
    assert any(h.startswith("Ben reveals That's Mine") for h in hints.matching("ben reveals"))
    # cards come from the table, or from the reveals the rules allow
    reveal_hints = {x for g in legal_moves(v.engine) for m in g.moves if m.reveal for x in (m.words, m.syntax)}
    assert not any("Time Portal" in h for h in hints.hints if h not in reveal_hints)


# --------------------------------------------------------------------------- cards that meet

@pytest.mark.parametrize("a,b", [("Double Agenda", "Trash a New Rule"), ("That's Mine", "Veto!")])
def test_cards_the_engine_rules_on_together_meet(a, b):
    from adjudicator.interactions import explain_pair
    from rulings.knowledge import full_graph

    cat = default_catalogue()
    paths = explain_pair(cat, a, b, max_len=4, graph=full_graph(cat))
    assert paths
    assert any("library scenario" in p.sentence and p.rulings for p in paths)


# --------------------------------------------------------------------------- property

@pytest.mark.parametrize("seed", range(6))
def test_random_reveals_keep_every_card(seed):
    """Random legal moves, reveals included, from a table full of unseen cards: no card
    is created or lost, and every reveal turns exactly one '?' into a known card."""
    rng = random.Random(seed)
    v = run(THATS_MINE.split("events:")[0])
    engine = v.engine
    total = counts(engine)
    for _ in range(8):
        if engine.state.game_over:
            break
        if engine.pending is not None:
            d = engine.pending.decision
            if d.chance:
                engine.answer_by_chance()
                continue
            from tests.test_property_play import answer_for

            engine.submit(Event("choose", answer=answer_for(engine, rng)))
            continue
        moves = [m for g in legal_moves(engine, editions=["base"]) for m in g.moves]
        assert moves
        before = counts(engine)
        move = rng.choice(moves)
        result = engine.submit(move.event)
        assert result.status != "rejected", move.words
        now = counts(engine)
        assert sum(now.values()) == sum(total.values())
        if move.reveal:
            assert now["?"] <= before["?"] - 1 or result.status == "waiting"
        known = [engine.state.defs[c].name for c in engine.state.every_card()
                 if engine.state.defs[c].key != "?" and c != engine.state.basic]
        dupes = [n for n, k in Counter(known).items() if k > 1]
        assert not dupes, dupes


def test_the_three_disputes_with_unseen_hands():
    """Play All and Time Portal; That's Mine countered, then a late Surprise after the
    next play; Double Agenda trashed: each settled from hands nobody has seen."""
    v = run(PLAY_ALL)
    assert v.answer.outcome == "done" and "play-all-vs-turn-end" in [r.id for r in v.answer.rulings]
    assert v.engine.state.active_player == "Ben"

    late = THATS_MINE.replace("    disputed: true\n", "") + (
        "  - surprise: Stop That!\n    by: Cal\n    against: Veto!\n")
    v = run(late)
    assert v.answer.outcome == "refused" and v.answer.lines[0].cites[0] == "surprise-too-late"
    assert v.steps[5].table["hands"]["Cal"] == ["?", "?"]          # the refusal revealed nothing

    trashed = """
format: 1
id: double-agenda-trashed-unseen
question: I trashed Double Agenda - who picks which Goal stays?
table:
  players: [Ann, Ben, Cal, Dee]
  turn: Ann
  rules: [Double Agenda, Play 2]
  goals: [Milk and Cookies, Night and Day]
  hands:
    Ann: ["? x2"]
    Ben: ["? x3"]
  draw_pile: ["? x10"]
events:
  - play: Trash a New Rule
    choose: [Double Agenda]
"""
    v = run(trashed)
    assert v.answer.outcome == "waiting" and "double-agenda-removed-choice" in [r.id for r in v.answer.rulings]
    groups = legal_moves(v.engine)
    assert [m.words for m in groups[0].moves] == ["Milk & Cookies goes; Night & Day stays",
                                                  "Night & Day goes; Milk & Cookies stays"]


@pytest.mark.parametrize("card,needle", [("War", "a Creeper drawn goes straight to the table"),
                                         ("Basic Rules", "never leave the center")])
def test_no_unseen_card_is_a_creeper_or_the_basic_rules(card, needle):
    v = run(PLAY_ALL.replace("    choose: [Dreams]\n", f"    choose: [Dreams]\n  - play: {card}\n"))
    step = v.steps[2]
    assert step.status == "rejected" and needle in step.reason
    assert step.table["hands"]["Ben"] == ["?", "?", "?", "Milk"]     # he drew Milk; nothing revealed


def test_a_temporary_hand_of_unseen_cards_waits_for_reveals():
    """Draw 3, Play 2 drawing unseen cards: the temporary hand stays open, the moves
    offer reveals from it, and a play names the card it turned out to be."""
    text = """
format: 1
id: d3p2-unseen
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  hands:
    Ann: [Draw 3 Play 2 of Them]
  draw_pile: ["? x10"]
events:
  - play: Draw 3 Play 2 of Them
"""
    v = run(text)
    engine = v.engine
    assert engine.state.temp_hands and len(engine.state.temp_hands[0].cards) == 3
    groups = legal_moves(engine, editions=["base"])
    assert any(g.title == "Ann reveals a Keeper to play" and "Milk" in g.names for g in groups)
    v = run(text + "  - play: Milk\n  - play: Bread\n")
    st = v.engine.state
    assert [st.name(c) for c in st.keepers["Ann"]] == ["Milk", "Bread"]
    assert sorted(st.name(c) for c in st.discard) == ["?", "Draw 3, Play 2 of Them"]   # the third card stays unseen
    assert "temporary hand" in v.steps[2].entries[0].text


def test_every_move_offered_at_library_positions_is_accepted():
    """At the end of library scenarios (Draw 3 Play 2, counters from temporary hands,
    chains...), every move listed, reveals included, is one the engine accepts; a
    Surprise names the play the engine would have it answer."""
    files = [p for p in sorted((REPO / "scenarios").rglob("*.yaml"))
             if any(w in p.name for w in ("counter", "chain", "d3p2", "draw-3", "surprise", "unseen", "trap"))]
    assert len(files) >= 10
    for path in files:
        v = replay_file(str(path))
        if v.engine is None or v.faults:
            continue
        for g in legal_moves(v.engine, editions=["base", "faq"]):
            for m in g.moves:
                r = v.engine.try_event(m.event)
                assert r is not None and r.status != "rejected", (path.name, m.words, r and r.reason)
