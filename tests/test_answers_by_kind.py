"""The answer to the question asked (format 1.2, item 5): the kinds a question may ask,
read strictly and carried by share strings and the app's files; an answer line that
answers that kind first, from the engine's own state, with the ruling behind it (a
"why not" included); one truth about turns; excerpts that support their step; one
position check for the loader and the Table screen; faults told in the app's terms."""

from __future__ import annotations

import json

import pytest

from adjudicator import share, strictyaml
from adjudicator.errors import InputError
from adjudicator.position import Code, Position
from adjudicator.render import render_step
from adjudicator.replay import replay, replay_file
from adjudicator.scenario import load_scenario, parse_scenario
from fluxx_judge.cli import main
from scenarios import library_path
from tests.conftest import write_scenario


def load(text: str, name: str = "q.yaml"):
    return parse_scenario(strictyaml.parse(text, name), name)


def answer_of(text: str):
    verdict = replay(load(text))
    assert verdict.error is None, verdict.error
    return verdict.answer


TABLE = """
format: 1
id: kinds
{question}
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  rules: [Play 2]
  hands:
    Ann: [Milk, Bread, Cookies]
    Cal: [Stop That!, "? x2"]
  draw_pile: ["? x10"]
events:
  - play: Milk
"""


# --------------------------------------------------------------------------- reading the kinds

@pytest.mark.parametrize("ask, kind, about", [
    ("legal", "legal", None), ("winner", "winner", None), ("turn", "turn", None), ("respond", "respond", None),
    ("{where: Milk}", "where", "Milk"), ("{where: milk}", "where", "Milk"), ("{must: ben}", "must", "Ben"),
])
def test_each_kind_of_question_is_read(ask, kind, about):
    from adjudicator.questions import Ask

    sc = load(TABLE.format(question=f"question:\n  text: What now?\n  ask: {ask}"))
    assert sc.question == "What now?"
    assert sc.ask == Ask(kind, card=about if kind == "where" else None, player=about if kind == "must" else None)


def test_a_plain_question_leaves_the_kind_to_the_verdict():
    sc = load(TABLE.format(question="question: May Ann play Milk?"))
    assert (sc.question, sc.ask) == ("May Ann play Milk?", None)


@pytest.mark.parametrize("ask, line, col, words", [
    ("who", 6, 8, "unknown kind of answer 'who' (one of legal, winner, turn, respond, {where: CARD} or {must: PLAYER})"),
    ("where", 6, 8, "`where` names what it asks about: write it as `ask: {where: Milk}`"),
    ("{where: Milkk}", 6, 16, "no card is called 'Milkk'"),
    ("{must: Dee}", 6, 15, "no player is called 'Dee'"),
    ("{winner: Ann}", 6, 9, "unknown kind of answer 'winner' (one of legal, winner, turn, respond, {where: CARD} "
                            "or {must: PLAYER}); write it as `ask: winner`"),
    ("{where: Milk, must: Ann}", 6, 8, "ask names one kind of answer; it holds 2 keys"),
])
def test_a_bad_kind_is_refused_at_its_place_with_the_kinds_allowed(ask, line, col, words):
    with pytest.raises(InputError) as exc:
        load(TABLE.format(question=f"question:\n  text: What now?\n  ask: {ask}"))
    assert (exc.value.line, exc.value.col) == (line, col), str(exc.value)
    assert words in exc.value.message
    with pytest.raises(InputError, match="the question is missing the required key 'text'"):
        load(TABLE.format(question="question:\n  ask: winner"))
    with pytest.raises(InputError, match="unknown key 'asks' in the question - did you mean 'ask'"):
        load(TABLE.format(question="question:\n  text: Who?\n  asks: winner"))


def test_the_kind_travels_in_share_strings_and_the_apps_files(tmp_path):
    from adjudicator.questions import Ask
    from tui.scenario_io import dump, loads

    text = TABLE.format(question="question:\n  text: Where does Milk end up?\n  ask: {where: Milk}")
    doc = strictyaml.parse(text, "q.yaml").plain_data()
    line = share.encode(doc)
    assert share.decode(line) == doc
    from_line = load_scenario(line)
    assert (from_line.question, from_line.ask) == ("Where does Milk end up?", Ask("where", card="Milk"))
    saved = dump(doc)                         # the app's save, read back by its open and by the engine
    assert "question:\n  text: Where does Milk end up?\n  ask:\n    where: Milk\n" in saved
    assert loads(saved) == doc
    assert load(saved).ask == Ask("where", card="Milk")


# --------------------------------------------------------------------------- answers by kind

TAXES = """
format: 1
question: Ann holds Milk, Cookies and the Creeper Taxes and plays Milk & Cookies. Does she win?
table:
  players: [Ann, Ben]
  turn: Ann
  hands:
    Ann: [Milk & Cookies, Bread]
  keepers:
    Ann: [Milk, Cookies, Taxes]
  draw_pile: ["? x10"]
events:
  - play: Milk & Cookies
"""


def test_why_nobody_wins_names_who_meets_the_goal_and_the_creeper_that_blocks(tmp_path, capsys):
    ans = answer_of(TAXES)
    assert ans.text == "Nobody wins: Ann meets Milk & Cookies, but Ann's Creeper Taxes stops Ann from winning."
    assert ans.kind == "winner" and not ans.asked          # picked: a Goal met that does not win
    assert [r.id for r in ans.rulings] == ["rule-creeper-placement"]
    assert ans.value["stopped"] == ["Ann"] and ans.value["winner"] is None
    # asked as a legality question, the answer says so first, and still who wins
    legal = answer_of(TAXES.replace("question: Ann", "question:\n  ask: legal\n  text: Ann"))
    assert legal.text.startswith("Yes: Ann may play Milk & Cookies. Nobody wins: Ann meets Milk & Cookies, but")
    path = write_scenario(tmp_path, TAXES)
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["answer"]
    assert data["kind"] == "winner" and data["asked"] is False and data["reply"]["stopped"] == ["Ann"]


def test_a_limit_does_not_bind_on_the_players_own_turn():
    text = """
format: 1
question:
  text: Ann is over the Keeper Limit; must she give up a Keeper before she plays on?
  ask: {must: Ann}
table:
  players: [Ann, Ben]
  turn: Ann
  rules: [Keeper Limit 2, Play 2]
  hands:
    Ann: [Milk, Bread, Sleep]
  keepers:
    Ann: [Cookies, Time]
  draw_pile: ["? x10"]
events:
  - play: Milk
"""
    ans = answer_of(text)
    assert ans.text.startswith("Ann need not discard yet: Ann has 3 Keepers over a Keeper Limit of 2, but a Limit "
                               "binds a player only while it is not their turn")
    assert "Ann must go on with the turn: Ann still owes 1 play(s)" in ans.text
    assert "rule-limits-only-off-turn" in [r.id for r in ans.rulings]
    assert ans.value == {"player": "Ann", "owes": True}


PLAY_3 = """
format: 1
question: {question}
table:
  players: [Ann, Ben]
  turn: Ann
  rules: [Play 3]
  hands:
    Ann: [Milk, Bread, Cookies, Sleep]
  draw_pile: ["? x10"]
events:
  - play: Milk
  - play: Bread
{third}"""


def test_the_turn_is_not_over_while_a_play_is_owed():
    ans = answer_of(PLAY_3.format(question="{text: Is Ann's turn over?, ask: turn}", third=""))
    assert ans.text == ("Ann's turn is not over: Ann still owes 1 play(s) and has cards to play them with; cards "
                        "cannot simply be kept or thrown away.")
    assert "rule-no-voluntary-discard" in [r.id for r in ans.rulings]
    assert ans.value == {"over": False, "turn": "Ann", "passed": 0}


def test_what_the_answer_says_of_the_turn_is_what_the_engine_holds():
    from adjudicator.moves import legal_moves

    verdict = replay(load(PLAY_3.format(question="May Ann play Cookies as her third card?",
                                        third="  - play: Cookies\n")))
    ans = verdict.answer
    # her third play leaves nothing open: the turn is over, but it is still Ann's until she ends it or Ben acts
    assert ans.text == ("Yes: Ann may play Cookies. Ann's turn is over: nothing is left for Ann to play or use, and "
                        "Ben goes next (once Ann ends the turn or Ben acts).")
    assert "it is now Ann's turn" not in ans.text
    assert (ans.turn.over, ans.turn.active, ans.turn.passed) == (True, "Ann", 0)
    assert "Ann ends the turn" in [m.words for g in legal_moves(verdict.engine) for m in g.moves]
    # a next player's play that ends the turn, after a drawn Creeper raised nothing but the
    # count of cards: it is now his turn, and the answer says whose turn ended
    text = """
format: 1
question: {text: May Ben play Sleep?, ask: legal}
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  drawn: 1
  hands:
    Ann: [Draw 4, Bread]
    Ben: [Sleep]
  draw_pile: [Milk, Taxes, Cookies, Time, Money, "? x5"]
events:
  - play: Draw 4
  - play: Sleep
    by: Ben
"""
    ans = answer_of(text)
    assert ans.text == "Yes: Ben may play Sleep. Ann's turn is over; it is now Ben's turn."


def test_who_may_still_answer_with_a_surprise():
    ans = answer_of(TABLE.format(question="question: {text: Can anyone stop Milk?, ask: respond}"))
    assert ans.text.startswith("Nobody may answer with a Surprise now: Cal's Stop That! would be refused (")
    assert ans.text.endswith("Cal holds unseen cards that could be a Surprise.")
    assert ans.value == {"may": [], "unseen": ["Cal"]}
    text = TABLE.replace("[Milk, Bread, Cookies]", "[Jackpot!, Bread]").replace("- play: Milk", "- play: Jackpot!")
    ans = answer_of(text.format(question="question: {text: Can anyone stop the Jackpot?, ask: respond}"))
    assert ans.text == "Cal may answer with Stop That! Cal holds unseen cards that could be a Surprise."
    assert ans.value["may"] == [{"player": "Cal", "card": "Stop That!"}]
    assert [r.id for r in ans.rulings] == ["rule-surprise-two-functions"]


def test_where_a_card_ends_up_and_what_the_official_material_leaves_unsaid():
    ans = answer_of(TABLE.format(question="question: {text: Where is Milk now?, ask: {where: Milk}}"))
    assert ans.text.startswith("Milk ends up in front of Ann (it was in Ann's hand).")
    ans = answer_of(TABLE.format(question="question: {text: Where is Bread?, ask: {where: Bread}}"))
    assert ans.text.startswith("Bread ends up in Ann's hand, where it was before.")
    ans = answer_of(TABLE.format(question="question: {text: Who wins?, ask: winner}"))
    assert ans.text == "Nobody wins: no Goal is in play."      # (the step's lines and rulings say why)
    text = TABLE.replace("rules: [Play 2]", "rules: [Play 2]\n  keepers:\n    Ann: [Taxes]").replace(
        "- play: Milk", "- use: Taxes")
    ans = answer_of(text.format(question="question: May Ann pay off Taxes without Money?"))
    assert ans.text == ("No: Ann may not use Taxes: Taxes can only be paid off together with Money, which Ann does "
                        "not have. No official ruling speaks to this; the engine follows the cards' own text.")
    assert ans.rulings == []


DRAW_RULE = """
format: 1
question: {{text: Ann plays {rule}; how many more cards must she draw?, ask: {{must: Ann}}}}
table:
  players: [Ann, Ben]
  turn: Ann
  rules: [{old}Play 2]
  drawn: {drawn}
  hands:
    Ann: [{rule}, Milk]
  draw_pile: ["? x10"]
events:
  - play: {rule}
"""


def test_what_a_player_must_draw_is_told_by_what_the_event_drew():
    # draws are made by themselves, so a "how many must she draw?" is answered by where
    # the Draw rule stands after the event: what it asks for, what was drawn, and when
    ans = answer_of(DRAW_RULE.format(rule="Draw 3", old="", drawn=1))
    assert ans.text.startswith("Ann owes no more draws: this turn's draw comes to 3 cards and Ann has drawn 3, "
                               "2 of them just now. Ann must go on with the turn: Ann still owes 1 play(s)")
    assert "rule-draw-rule-raised-catch-up" in [r.id for r in ans.rulings]
    ans = answer_of(DRAW_RULE.format(rule="Draw 3", old="Draw 5, ", drawn=5))
    assert ans.text.startswith("Ann owes no more draws: this turn's draw comes to 3 cards and Ann has drawn 5 "
                               "already, so nothing more is drawn and nothing is given back.")
    # a second copy of the Draw rule in force replaces it: the count stands, nothing is drawn again
    ans = answer_of(DRAW_RULE.format(rule="Draw 2", old="Draw 2, ", drawn=2))
    assert ans.text.startswith("Ann owes no more draws: this turn's draw comes to 2 cards and Ann has drawn 2.")
    # an event that leaves the draw alone says nothing of it
    ans = answer_of(DRAW_RULE.format(rule="Milk", old="", drawn=1))
    assert ans.text.startswith("Ann must go on with the turn: Ann still owes 1 play(s)")


def test_a_winner_answer_names_what_the_disputed_event_did():
    # Silver Lining makes Taxes harmless: the win is told with the ruling that lets it through
    text = """
format: 1
question: {text: Cal plays Money beside Taxes under Silver Lining; does he win?, ask: winner}
table:
  players: [Ann, Ben, Cal]
  turn: Cal
  rules: [Silver Lining]
  goals: [Winning the Lottery]
  keepers:
    Cal: [Dreams, Taxes]
  hands:
    Cal: [Money]
  draw_pile: ["? x10"]
events:
  - play: Money
"""
    ans = answer_of(text)
    assert ans.text == "Cal wins: Cal meets Winning the Lottery."
    assert "silver-lining-lets-money-win-through-taxes" in [r.id for r in ans.rulings]


def test_an_answer_refused_while_a_decision_waits_cites_the_rulings_of_its_options():
    # the decision's own rulings (Rotate Hands: left or right only) ...
    text = """
format: 1
question: {text: May Ann pass her hand across the table to Cal?, ask: legal}
table:
  players: [Ann, Ben, Cal, Dee]
  turn: Ann
  hands:
    Ann: [Rotate Hands, Milk]
    Ben: [Bread]
    Cal: [Cookies]
    Dee: [Sleep]
  draw_pile: ["? x10"]
events:
  - play: Rotate Hands
  - choose: Cal
"""
    ans = answer_of(text)
    assert ans.text.startswith("No: Ann's answer is refused: 'Cal' is not one of the players that can be chosen")
    assert [r.id for r in ans.rulings] == ["rotate-hands-left-or-right-only"]
    # ... or, a decision citing none, those of the step that raised it (the Action
    # being carried out is not yet on the discard pile for Let's Do That Again!)
    ans = replay_file(f"{library_path()}/base/faq-pack-lets-do-that-again-inside-d3p2.yaml").answer
    assert ans.kind == "legal" and ans.text.startswith("No: Ben's answer is refused: 'Draw 3, Play 2 of Them' is not")
    assert "compound-action-not-in-discard-while-resolving" in [r.id for r in ans.rulings]


def test_a_turn_ending_card_canceled_is_told_with_the_ruling_that_undoes_it():
    verdict = replay_file(f"{library_path()}/base/get-on-with-it-stopped-by-next-player.yaml")
    ans = verdict.answer
    assert ans.kind == "turn" and ans.text.startswith("What ended the turn is undone: it is Ann's turn again")
    assert "turn-ending-window-before-turn-ends" in [r.id for r in ans.rulings]


def test_every_zone_a_card_can_end_up_in_has_its_words():
    from adjudicator.standing import zone_words

    engine = replay(load(TABLE.format(question="question: Where?"))).engine
    for zone in engine.state.all_zones():
        assert zone_words(zone) != zone and zone_words(zone).startswith(("in ", "on ", "out ", "being ", "among ")), zone


# --------------------------------------------------------------------------- excerpts

def test_the_excerpt_under_a_step_supports_it():
    verdict = replay_file(f"{library_path()}/faq/faq-its-a-trap-stops-captain-power.yaml")
    trap = verdict.steps[2]                    # It's A Trap! against The Captain's free action: allowed
    shown = [line.strip() for line in render_step(trap, set()) if line.startswith("       ")]
    excerpt = [line for line in shown if line.startswith("stop-that-vs-free-action:")]
    assert excerpt and "It's A Trap!" in excerpt[0] and "do stop a free action" in excerpt[0], shown
    assert not excerpt[0].split(": ", 1)[1].startswith(("No", "Stop That! (and"))
    from rulings.corpus import get

    assert get("stop-that-vs-free-action").excerpt("refused").startswith("Stop That! is for Action cards")


def test_statements_are_checked_by_the_corpus():
    from rulings.corpus import validate

    base = {"id": "x", "kind": "mechanical", "question": "Q?", "answer": "No. Because.",
            "sources": [{"edition": "Base", "document": "Fluxx rulebook"}]}
    assert validate({"x.yaml": {**base, "statements": {"allowed": "It stands."}}}) == []
    assert "statements has the unknown outcome 'won'" in " ".join(validate(
        {"x.yaml": {**base, "statements": {"won": "It stands."}}}))
    assert "opens with a bare yes or no" in " ".join(validate(
        {"x.yaml": {**base, "statements": {"refused": "No, it does not."}}}))


# --------------------------------------------------------------------------- one position check

OVER = """
format: 1
table:
  players: [Ann, Ben, Cal]
  turn: Ann
  rules: [Keeper Limit 2, Hand Limit 1]
  hands:
    Ann: [Milk, Bread, Sleep]
    Cal: [Time, Love]
  keepers:
    Ann: [Cookies, Peace, Money]
    Ben: [Dreams, The Moon, The Sun]
  draw_pile: ["? x10"]
events:
  - play: Milk
"""


def test_a_player_over_a_limit_off_turn_is_an_impossible_table_in_the_same_words_everywhere():
    from tui.position import check_table

    with pytest.raises(InputError) as exc:
        load(OVER)
    assert (exc.value.line, exc.value.col) == (12, 29)
    assert exc.value.message == ("Ben has 3 Keepers, over the Keeper Limit of 2, while it is Ann's turn: a Limit "
                                 "binds every player whose turn it is not, so Ben would already have given up "
                                 "Keepers down to 2 (take Keepers away from Ben, or make it Ben's turn)")
    table = strictyaml.parse(OVER, "o.yaml").plain_data()["table"]
    listed = check_table(table)                                # the Table screen's Problems list
    assert [p.code for p in listed] == [Code.OVER_LIMIT, Code.OVER_LIMIT]
    assert listed[0].message == exc.value.message and (listed[0].zone, listed[0].index) == ("keepers.Ben", 2)
    assert listed[1].message.startswith("Cal holds 2 cards, over the Hand Limit of 1, while it is Ann's turn")
    # Ann, whose turn it is, may be over both
    table["keepers"].pop("Ben")
    table["hands"].pop("Cal")
    assert Position.from_data(table).problems() == []


def test_a_fault_is_told_in_the_apps_terms():
    from tui.lines import fault_advice

    text = OVER.replace("    Ben: [Dreams, The Moon, The Sun]\n", "").replace("    Cal: [Time, Love]\n", "")
    text = text.replace("rules: [Keeper Limit 2, Hand Limit 1]", "rules: [Play 2]").replace(
        "hands:\n    Ann: [Milk, Bread, Sleep]", "hands:\n    Ann: [Milk, Bread, Trash a Keeper]")
    text += "  - play: Trash a Keeper\n  - play: Bread\n"
    verdict = replay(load(text))
    step = verdict.steps[-1]
    assert step.status == "fault" and "answer it with `choose:`" in step.failures[0]   # the file's own terms
    advice = fault_advice(step)
    assert advice.startswith("the game is waiting for Ann to decide first (")
    assert "x to drop this event, then a: the menu lists Ann's answers" in advice
    for file_words in ("choose:", "line ", "`"):
        assert file_words not in advice


def test_the_table_screen_places_a_problem_in_the_apps_terms():
    from tui.position import doc_place
    from tui.scenario_io import dump

    doc = {"format": 1, "question": {"text": "What now?", "ask": {"must": "Dee"}},
           "table": {"players": ["Ann"]}, "events": [{"play": "Milk"}, {"play": "Bread", "by": "Ann"}]}
    text = dump(doc)
    with pytest.raises(InputError) as exc:
        load(text)
    assert "no player is called 'Dee'" in exc.value.message
    assert doc_place(text, exc.value.line) == "in the question (Ctrl+W rewrites it)"
    assert doc_place(text, text.split("\n").index("  - play: Bread") + 1) == \
        "in event 2 (Replay: x drops the last event)"
