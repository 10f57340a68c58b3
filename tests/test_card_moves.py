"""Cards move only through the primitives (issue 13): the State's moves
(`State.move`, `move_run`, `pass_zones`, `shuffle_zone`...) check that a card is where
the caller says, so none is ever lost or doubled, and count every change in
`State.moves`; the rules core builds on them the moves that fire hooks. The engine's
source is searched for any other edit of a zone (tests/zone_edits.py)."""

from __future__ import annotations

import functools

import random
from pathlib import Path

import pytest

from adjudicator.events import Event
from adjudicator.state import MisplacedCard, TempHand
from tests.test_property_play import play_randomly, random_position
from tests.zone_edits import zone_edits, zone_edits_in

ROOT = Path(__file__).resolve().parent.parent

# Where the zones may be edited directly: the primitives themselves, which open and
# close whole zones (a player's, a temporary hand's) and check that no card is in them.
# The table is built before play through the State's constructor (Position.state), and
# every card moved after that, dealing included, goes through a primitive.
ALLOWED = {
    ("adjudicator/state.py", "State.add_frame"),
    ("adjudicator/state.py", "State.drop_frame"),
    ("adjudicator/state.py", "State.add_player_zones"),
    ("adjudicator/state.py", "State.drop_player_zones"),
    ("adjudicator/state.py", "State.attach"),
    # the pile under a card opens on its first card and closes on its last; a card face
    # down or face-out turns, and turns up again leaving its zone; a lasting effect
    ("adjudicator/state.py", "State.pile"),
    ("adjudicator/state.py", "State._close_empty_pile"),
    ("adjudicator/state.py", "State.turn"),
    ("adjudicator/state.py", "State._facing_moves"),
    ("adjudicator/state.py", "State.impose"),
    ("adjudicator/state.py", "State.facing"),       # (a what-if, put back as it ends)
    ("adjudicator/state.py", "State.detach"),
    ("adjudicator/position.py", "Position.state"),     # the attachments of a table being set up
    # the State's methods for the other facts the kept figures read (they reset State.figures)
    ("adjudicator/state.py", "State.set_active"),
    ("adjudicator/state.py", "State.begin_turn"),
    ("adjudicator/state.py", "State.grant"),
    ("adjudicator/state.py", "State.knock_out"),
    ("adjudicator/state.py", "State.bring_back"),
    ("adjudicator/state.py", "State.seat"),
    ("adjudicator/state.py", "State.unseat"),
    # a new table made as a copy of another, field by field (no card moves)
    ("adjudicator/state.py", "State.clone"),
    ("adjudicator/state.py", "State._share_into"),
    # not a table at all: a position being read from a file, the hints for typed events
    ("adjudicator/position.py", "_TableReader.read"),
    ("adjudicator/position.py", "_TableReader.read_hidden"),
    ("adjudicator/typed_events.py", "EventHints.__init__"),
}


@functools.lru_cache(maxsize=1)
def _engine_edits():
    return [e for path in sorted((ROOT / "adjudicator").rglob("*.py")) for e in zone_edits(path, ROOT)]


def test_the_engine_edits_no_zone_outside_the_primitives():
    stray = [str(e) for e in _engine_edits() if (e.path, e.function) not in ALLOWED]
    assert not stray, ("cards must move through the State's primitives (State.move, to_discard, move_run, "
                       "pass_zones...) or the core's hooked moves (place_in_front, remove_rule, move_to...); "
                       "direct zone edits:\n" + "\n".join(stray))


def test_every_allowed_place_still_edits_a_zone():
    used = {(e.path, e.function) for e in _engine_edits()}
    assert ALLOWED <= used, f"stale allow-list entries: {sorted(ALLOWED - used)}"


@pytest.mark.parametrize("source", [
    "st.hands[p].append(c)",
    "st.discard.insert(0, c)",
    "e.state.keepers[p].remove(c)",
    "self.state.draw_pile.pop(0)",
    "st.goals.clear()",
    "st.rules.extend(cards)",
    "st.removed.sort()",
    "st.rules_pile.reverse()",
    "st.scored.__setitem__(0, c)",
    "st.temp_hands[-1].cards.remove(c)",
    "frame.cards.clear()",
    "st.meta_rules += [c]",
    "st.draw_pile[:] = pile",
    "st.discard[0] = c",
    "del st.resolving[0]",
    "st.goals = []",
    "st.hands[p] = []",
    "st.hands[a], st.hands[b] = st.hands[b], st.hands[a]",
    "del st.hands[p]",
    "st.hands.pop(p)",
    "st.temp_hands.append(frame)",
    "st.attachments[c] = k",
    "st.claims.append(key)",
    "st.eliminated.remove(p)",
    "st.players.append(p)",
    "st.active = 0",
    "st.started_empty = True",
    "st.attachments.pop(c, None)",
    "del st.attachments[c]",
    "st.rng.shuffle(st.draw_pile)",
    "hand = st.hands[p]\nhand.remove(c)",
    "pile = st.draw_pile\npile[:] = []",
    "def f(st):\n    zone = st.keepers[p]\n    zone.append(c)",
])
def test_the_search_finds_each_kind_of_direct_edit(source):
    edits = zone_edits_in(source)
    assert len(edits) == 1, edits
    assert edits[0].line == source.count("\n") + 1


@pytest.mark.parametrize("source", [
    "cards = list(st.discard)\ncards.append(c)",
    "hand = st.hands[p]\nhand = []\nhand.append(c)",
    "picked.remove(c)",
    "st.move(c, st.hands[p], st.discard)",
    "st.shuffle_zone(st.draw_pile)",
    "st.free_used.append(key)",
    "self.cards[key] = card",
    "st.rng.shuffle(cards)",
])
def test_the_search_leaves_other_edits_alone(source):
    assert zone_edits_in(source) == []


def test_a_direct_edit_put_back_into_the_engine_is_found_by_file_and_line():
    path = ROOT / "adjudicator" / "core.py"
    source = path.read_text(encoding="utf-8")
    line = "            st.move(card, st.resolving, st.meta_rules)\n"
    assert source.count(line) == 1
    at = source[:source.index(line)].count("\n") + 1
    broken = source.replace(line, "            st.resolving.remove(card)\n            st.meta_rules.append(card)\n")
    edits = zone_edits_in(broken, "adjudicator/core.py")
    assert [(e.path, e.line, e.function) for e in edits] == [
        ("adjudicator/core.py", at, "Core.play_card"), ("adjudicator/core.py", at + 1, "Core.play_card")]


def _table():
    engine = random_position(11, None, 3)
    play_randomly(engine, random.Random(11), 6)
    return engine


def test_every_move_counts_and_a_copy_keeps_the_count():
    engine = _table()
    st = engine.state
    p = next(p for p in st.players if st.hands[p])
    card = st.hands[p][0]
    before = st.moves
    st.move(card, st.hands[p], st.discard, top=True)
    assert st.moves == before + 1 and st.discard[0] == card and card not in st.hands[p]
    st.move(card, st.discard, st.hands[p])
    assert st.moves == before + 2 and st.hands[p][-1] == card
    st.shuffle_zone(st.draw_pile)
    assert st.moves == before + 3
    assert st.clone().moves == st.moves and st.snapshot().moves == st.moves


def test_the_engine_counts_the_moves_of_an_event():
    engine = _table()
    while engine.pending is not None or engine.state.game_over:
        engine = random_position(engine.state.moves + 12, None, 3)
    before = engine.state.moves
    plays = [e for e in engine.legal_events() if e.verb == "play"] or [Event("end_turn", by=engine.state.active_player)]
    engine.submit(plays[0])
    assert engine.state.moves > before


def test_a_card_not_where_the_caller_says_is_an_engine_error_and_moves_nothing():
    engine = _table()
    st = engine.state
    holder = next(p for p in st.players if st.hands[p])
    other = next(p for p in st.players if p != holder)
    card = st.hands[holder][0]
    table, moves = st.clone(), st.moves
    with pytest.raises(MisplacedCard) as err:
        st.move(card, st.hands[other], st.discard)
    message = str(err.value)
    assert st.name(card) in message and f"{other}.hand" in message and f"{holder}.hand" in message
    assert st.every_card() == table.every_card() and st.moves == moves
    with pytest.raises(MisplacedCard):
        st.move_run([card], st.keepers[holder], st.discard)
    with pytest.raises(MisplacedCard, match="no zone"):
        raise st.misplaced(len(st.defs) + 5)


def test_whole_zones_pass_on_only_among_themselves():
    engine = _table()
    st = engine.state
    a, b = st.players[0], st.players[1]
    ha, hb = list(st.hands[a]), list(st.hands[b])
    st.pass_zones([(st.hands[a], st.hands[b]), (st.hands[b], st.hands[a])])
    assert st.hands[a] == hb and st.hands[b] == ha
    with pytest.raises(MisplacedCard):
        st.pass_zones([(st.hands[a], st.hands[b])])      # b's cards would be lost, a's hand emptied
    with pytest.raises(MisplacedCard):
        st.pass_zones([(st.hands[a], st.hands[b]), (st.hands[a], st.hands[b])])


def test_zones_holding_cards_cannot_be_closed():
    engine = _table()
    st = engine.state
    p = next(p for p in st.players if st.hands[p])
    with pytest.raises(MisplacedCard, match="would be lost"):
        st.drop_player_zones(p)
    with pytest.raises(MisplacedCard):
        st.add_player_zones(p)
    frame = TempHand(p, st.basic or 0, [], 1)
    st.add_frame(frame)
    st.move(st.hands[p][0], st.hands[p], frame.cards)
    with pytest.raises(MisplacedCard, match="would lose"):
        st.drop_frame(frame)
    with pytest.raises(MisplacedCard, match="opens empty"):
        st.add_frame(TempHand(p, st.basic or 0, [st.hands[p][0]] if st.hands[p] else [frame.cards[0]], 1))


def test_a_borrowed_card_is_back_where_it_was_after_the_what_if():
    engine = _table()
    st = engine.state
    a, b = st.players[0], st.players[1]
    card = next(iter(st.hands[a]))
    with st.borrowed(card, st.keepers[b]):
        assert card in st.keepers[b] and card in st.hands[a]
    assert card not in st.keepers[b] and card in st.hands[a]
    assert len(st.every_card()) == len(set(st.every_card()))


# -- mechanics, systems and Solo move cards only through the typed moves --------------
# (adjudicator.movement: each is shown to the cards in force, which may replace it)
PRIMITIVES = frozenset({"move", "to_discard", "move_run", "pass_zones", "shuffle_zone", "relabel"})
CORE_NAMES = frozenset({"e", "core", "self"})
TYPED_MOVE_USERS = [*sorted((ROOT / "adjudicator" / "mechanics").glob("*.py")),
                    ROOT / "adjudicator" / "systems.py", ROOT / "adjudicator" / "solo.py"]


def primitive_calls(source: str) -> list[tuple[int, str]]:
    """(line, call) for every call of a State primitive that moves cards, other than
    the rules core's own typed verb of the same name (`e.pass_zones`)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PRIMITIVES:
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in CORE_NAMES and node.func.attr == "pass_zones":
                continue
            found.append((node.lineno, ast.unparse(node)[:80]))
    return found


def test_mechanics_systems_and_solo_move_cards_only_through_the_typed_moves():
    stray = [f"{path.relative_to(ROOT)}:{line}: {call}" for path in TYPED_MOVE_USERS
             for line, call in primitive_calls(path.read_text(encoding="utf-8"))]
    assert not stray, ("a card moved past the replacement effects: use the rules core's moves (transfer, discard, "
                       "take_into_hand, place_in_front, move_to, steal, pass_zones...):\n" + "\n".join(stray))


@pytest.mark.parametrize("source, found", [
    ("st.move(c, st.hands[p], st.discard)", 1), ("e.state.to_discard(c, st.keepers[p])", 1),
    ("st.move_run(cards, a, b)", 1), ("st.pass_zones(pairs)", 1), ("st.shuffle_zone(st.draw_pile)", 1),
    ("e.pass_zones(pairs)", 0), ("e.transfer(c, DRAW)", 0), ("e.discard(c, p)", 0),
])
def test_the_typed_move_check_sees_primitive_calls(source, found):
    assert len(primitive_calls(source)) == found
