"""The answer to a scenario's question (format 1.1, item 4; 1.2, item 5).

A question asks one kind of thing (`adjudicator.questions`): whether the disputed event
may be made, who wins, whether the turn is over, where a card ends up, what a player
must do, who may still answer with a Surprise. A plain question leaves the kind to
the verdict, which picks the one the disputed event settles (`pick_kind`). The answer
line answers that kind first, in a player's words, then gives the explanation lines
and rulings behind it; a "why not" (nobody wins because a Creeper blocks, the turn
goes on because a play is owed) cites its ruling as a "yes" does, and where no ruling
speaks the answer says so.

The facts come from the engine itself at the disputed event (`adjudicator.standing`):
`Probe` reads them while the line is replayed, before the engine goes on to later
events.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator import standing
from adjudicator.log import Entry, cites_of
from adjudicator.questions import LEGAL, MUST, RESPOND, TURN, WHERE, WINNER, Ask

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.engine import Engine
    from adjudicator.events import Event
    from adjudicator.replay import Step, Verdict
    from adjudicator.scenario import Scenario

SILENT = "No official ruling speaks to this; the engine follows the cards' own text."
ALLOWED, REFUSED = "allowed", "refused"


@dataclass
class RulingLine:
    """A ruling cited by the answer, and the part of it shown there: the statement
    that supports the outcome it is cited for (`outcome`: allowed or refused)."""

    id: str
    outcome: str = ALLOWED

    @functools.cached_property
    def answer(self) -> str:
        """The ruling's statement for the outcome ("" when the corpus lacks it), read
        when first shown: `check` never needs it."""
        from adjudicator import citations

        return citations.excerpt(self.id, self.outcome)

    @functools.cached_property
    def record(self) -> str:
        """The id of the record the cited id opens (differs for an alias)."""
        from adjudicator import citations

        return citations.record_id(self.id)

    @property
    def label(self) -> str:
        """The cited id, and for an alias the record it opens."""
        return self.id if self.record == self.id else f"{self.id} (record {self.record})"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "record": self.record, "answer": self.answer}


@dataclass
class Reply:
    """The answer to one kind of question: its text, the lines that decide it, and the
    answer as data (`value`)."""

    kind: str
    text: str
    lines: list[Entry]
    value: dict[str, Any]
    turn: standing.Turn | None = None


@dataclass
class DisputeAnswer:
    """The answer to the file's question: what kind of answer it gives (`kind`, and
    whether the file asked for it: `asked`), the answer line, the explanation lines
    that decide it and the rulings they cite; and what became of the disputed event."""

    question: str
    step: int                         # the disputed event's number (0: the file has no events)
    event: str                        # the disputed event in words
    outcome: str                      # done | refused | waiting | fault | not-reached | none
    text: str                         # the answer in one or two sentences
    lines: list[Entry] = field(default_factory=list)
    rulings: list[RulingLine] = field(default_factory=list)
    kind: str = LEGAL                 # legal | winner | turn | where | must | respond
    asked: bool = False               # the file named the kind (else the verdict picked it)
    value: dict[str, Any] = field(default_factory=dict)
    turn: standing.Turn | None = None  # the turn after the disputed event, as the engine has it

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question or None, "kind": self.kind, "asked": self.asked, "step": self.step,
                "event": self.event, "outcome": self.outcome, "answer": self.text, "reply": self.value,
                "turn": self.turn.to_json() if self.turn else None,
                "explanation": [{"text": e.text, "cites": list(e.cites)} for e in self.lines],
                "rulings": [r.to_json() for r in self.rulings]}


def step_outcome(step: "Step") -> str:
    """What the rulings cited at a step are cited for: a refused event, or one that stood."""
    return REFUSED if step.status == "rejected" else ALLOWED


class Probe:
    """Reads the engine at the disputed event while a line is replayed: where the
    asked-about card was before it, and the answer once it is made (`reply`)."""

    def __init__(self, sc: "Scenario"):
        self.sc = sc
        self.at = sc.disputed_event
        self.zones_before: list[str] | None = None
        self.draws_before: standing.DrawMark | None = None
        self.reply: Reply | None = None

    def before(self, engine: "Engine") -> None:
        ask = self.sc.ask
        if ask is not None and ask.kind == WHERE and ask.card and self.at:
            self.zones_before = standing.where(engine, ask.card)
        if self.at:
            self.draws_before = standing.draw_mark(engine)

    def after(self, engine: "Engine", step: "Step", started: str, event_turn: int, start_number: int,
              before: "Step | None", event: "Event | None") -> None:
        """Work the answer out from the engine as the disputed event left it: `started`
        is whose turn the event belonged to (`event_turn`, by the table's turn count),
        `start_number` the turn count when it was made."""
        if step.status == "fault":
            return
        turn = standing.turn(engine, started, event_turn, start_number, step.turn_over)
        ask = self.sc.ask or (pick_kind(engine, step, turn, event) if event is not None else Ask(LEGAL))
        self.reply = _reply(ask, engine, step, turn, before, event, self)
        self.reply.turn = turn


def pick_kind(engine: "Engine", step: "Step", turn: standing.Turn, event: "Event | None") -> Ask:
    """The kind of answer a plain question gets: the one the disputed event settles. A
    refusal settles whether it may be made; a win, or a Goal met that does not win,
    settles who wins; a decision it waits for, what that player must do; an end of
    turn, the turn; anything else, whether it may be made."""
    if step.status == "rejected":
        return Ask(LEGAL)
    if step.table.get("winner") or step.table.get("everyone_loses") or standing.wins(engine).contested:
        return Ask(WINNER)
    d = step.decision
    if step.status == "waiting" and d is not None and not d.chance:
        return Ask(MUST, player=d.by)
    if event is not None and event.verb == "end_turn" or turn.passed:
        return Ask(TURN)
    return Ask(LEGAL)


def _reply(ask: Ask, engine: "Engine", step: "Step", turn: standing.Turn, before: "Step | None",
           event: "Event | None", probe: Probe) -> Reply:
    if ask.kind == WINNER:
        return _winner(engine, step)
    if ask.kind == TURN:
        return _turn(step, turn)
    if ask.kind == WHERE:
        return _where(engine, step, ask.card or "", probe.zones_before)
    if ask.kind == MUST:
        return _must(engine, step, ask.player or engine.state.active_player, probe.draws_before)
    if ask.kind == RESPOND:
        return _respond(engine, step.actor)
    return _legal(engine, step, turn, before, event)


# --------------------------------------------------------------------------- the kinds

def _legal(engine: "Engine", step: "Step", turn: standing.Turn, before: "Step | None",
           event: "Event | None") -> Reply:
    """May the disputed event be made? Yes or no, why, and what it led to."""
    if event is None:          # the file has no events: the position itself is in question
        return Reply(LEGAL, "The file has no events, so no play is in dispute: the verdict describes the position.",
                     [], {"allowed": None})
    if step.status == "rejected":
        text = _full(f"No: {_may(event, engine, step.actor, False)}: {step.reason}")
        lines = _step_lines(step)
        d = step.decision
        if event.verb in ("choose", "random") and d is not None:
            # an answer refused while the decision waits: the rulings that set its options
            # decide it, the decision's own or, without any, those of the step that raised it
            if d.cites:
                lines.append(Entry(_full(f"{'Chance' if d.chance else d.by} must still decide: {d.prompt}"),
                                   tuple(d.cites)))
            elif before is not None and before.status == "waiting" and before.decision == d:
                lines += [e for e in _step_lines(before) if e.cites]
        return Reply(LEGAL, text, lines, {"allowed": False})
    if event.verb in ("choose", "random"):
        text = f"Yes: that answer stands ({step.words})."
    else:
        text = _full(f"Yes: {_may(event, engine, step.actor, True)}")
    d = step.decision
    if step.status == "waiting" and d is not None:
        text += _full(f" Now {'chance' if d.chance else d.by} must decide: {d.prompt}")
    return Reply(LEGAL, text + _consequences(engine, step, turn), _step_lines(step), {"allowed": True})


def _consequences(engine: "Engine", step: "Step", turn: standing.Turn) -> str:
    """What the event led to that a player would ask next: a win (or a Goal met that
    does not win) and the end of the turn."""
    parts = []
    wins = standing.wins(engine)
    if wins.contested:
        parts.append(_win_words(wins)[0])
    elif turn.passed or turn.over or turn.undone:
        parts.append(turn.sentence()[0])
    return (" " + " ".join(parts)) if parts else ""


def _winner(engine: "Engine", step: "Step") -> Reply:
    wins = standing.wins(engine)
    text, lines = _win_words(wins)
    won = [e for e in step.entries if e.kind == "win"]
    if wins.winner and won:
        lines = won
        if not wins.met.get(wins.winner):     # the claim that won (a card lent it) is over with the game
            text = f"{wins.winner} wins. {won[0].text}"
    # what the disputed step did that decided it (a Creeper made harmless, a Goal
    # canceled, a Keeper taken, a deal finished first...): its lines citing a ruling the
    # win or block does not already cite; all of them when nobody meets a Goal
    said = set(cites_of(lines))
    lines = lines + [e for e in _step_lines(step) if e not in lines and (not said or not set(e.cites) <= said)]
    return Reply(WINNER, text, lines, {"winner": wins.winner, "everyone_loses": wins.everyone_loses,
                                       "met": wins.met, "stopped": [s.player for s in wins.stopped]})


def _win_words(wins: standing.Wins) -> tuple[str, list[Entry]]:
    """Who wins, or why nobody does, and the lines behind it."""
    if wins.winner:
        goals = wins.met.get(wins.winner)
        text = _full(f"{wins.winner} wins" + (f": {wins.winner} meets {_and(goals)}" if goals else ""))
        return text, [Entry(text, wins.win_cites or ("rule-win-instantly-any-turn",))]
    if wins.everyone_loses:
        text = "Nobody wins: an Ungoal is met, so the game ends and every player loses."
        return text, [Entry(text, ("rule-ungoal-all-lose",))]
    if wins.tie and wins.ungoals:
        goals = sorted({g for gs in wins.met.values() for g in gs})
        text = (f"Nobody wins yet: {_and(sorted(wins.met))} meet{'s' if len(wins.met) == 1 else ''} {_and(goals)} while "
                f"the Ungoal {_and(wins.ungoals)} is met too; winning and losing at once is handled like a tie, so "
                "nobody loses either and play goes on.")
        return text, [Entry(text, ("goal-and-ungoal-met-together-game-goes-on", "rule-tie-game-continues"))]
    if wins.tie:
        goals = sorted({g for gs in wins.met.values() for g in gs})
        text = (f"Nobody wins yet: {_and(sorted(wins.met))} meet {_and(goals)} at the same moment, a tie, so play "
                "goes on.")
        return text, [Entry(text, ("rule-tie-game-continues",))]
    if wins.stopped:
        lines = [Entry(s.words() + ".", s.cites) for s in wins.stopped]
        return "Nobody wins: " + "; ".join(s.words() for s in wins.stopped) + ".", lines
    if wins.stalls:
        return "Nobody wins: " + wins.stalls[0].text, list(wins.stalls)
    if not wins.goals:
        return "Nobody wins: no Goal is in play.", []
    return f"Nobody wins: nobody meets {_and(wins.goals)}.", []


def _turn(step: "Step", turn: standing.Turn) -> Reply:
    text, cites = turn.sentence()
    lines = _step_lines(step) if turn.passed or turn.over or turn.undone else []
    if cites:
        lines.append(Entry(text, cites))
    over = turn.over or turn.passed > 0
    return Reply(TURN, text, lines, {"over": over, "turn": turn.active, "passed": turn.passed})


def _where(engine: "Engine", step: "Step", card: str, zones_before: list[str] | None) -> Reply:
    zones = standing.where(engine, card)
    places = _and([standing.zone_words(z) for z in zones]) if zones else ""
    if not zones:
        text = f"{card} is nowhere on the table: no copy of it is in a zone anyone can see."
    elif zones_before is not None and sorted(zones_before) == sorted(zones):
        text = f"{card} ends up {places}, where it was before."
    else:
        was = (f" (it was {_and([standing.zone_words(z) for z in zones_before])})"
               if zones_before else "")
        text = f"{card} ends up {places}{was}."
    st = engine.state
    if any(st.defs[c].name == card for c in st.face_down):
        text += " It lies face down there."
    return Reply(WHERE, text, _step_lines(step), {"card": card, "zones": zones})


def _must(engine: "Engine", step: "Step", player: str, draws_before: standing.DrawMark | None) -> Reply:
    d = standing.duty(engine, player, draws_before)
    text = " ".join(e.text for e in d.lines[:2])
    lines = list(d.lines)
    if step.decision is not None and step.decision is _waiting(engine) or player == step.actor or \
            player == engine.state.active_player and standing.draw_changed(engine, draws_before):
        # the decision the disputed event raised, the player's own event, or the draw it
        # changed: the step's lines say who decides and why, what the event left owing,
        # or what was drawn and why
        lines += [e for e in _step_lines(step) if e not in lines]
    return Reply(MUST, text, lines, {"player": player, "owes": d.owes})


def _waiting(engine: "Engine") -> Any:
    return engine.pending.decision if engine.pending is not None else None


def _respond(engine: "Engine", actor: str) -> Reply:
    """Who may still answer with a Surprise: every Surprise in sight, tried; and the
    unseen hands that could hold one (not the hand of the player who made the event,
    who cannot answer their own play)."""
    tried, unseen = standing.answerers(engine)
    unseen = [p for p in unseen if p != actor]
    may = [a for a in tried if a.accepted]
    lines = [Entry(_full(f"{a.player} may answer with {a.card}") if a.accepted else
                   _full(f"{a.player}'s {a.card} would be refused: {a.reason}"), a.cites) for a in tried]
    if may:
        text = _full("; ".join(f"{a.player} may answer with {a.card}" for a in may))
    else:
        text = "Nobody may answer with a Surprise now" + (
            ": " + "; ".join(f"{a.player}'s {a.card} would be refused ({a.reason})" for a in tried) if tried
            else ": no Surprise is in a hand anyone can see") + "."
    if unseen:
        text += f" {_and(unseen)} {'hold' if len(unseen) > 1 else 'holds'} unseen cards that could be a Surprise."
    return Reply(RESPOND, text, lines, {"may": [{"player": a.player, "card": a.card} for a in may],
                                        "unseen": unseen})


# --------------------------------------------------------------------------- pieces

def _step_lines(step: "Step") -> list[Entry]:
    """The disputed step's lines that decide it: those citing a ruling (and reveals),
    the refusal, win or end of turn first."""
    lines = [e for e in step.entries if e.cites or e.kind == "reveal"] or list(step.entries)
    if step.status == "rejected":
        wanted = "refusal"
    elif step.table.get("winner") or step.table.get("everyone_loses"):
        wanted = "win"
    elif step.turn_over:
        wanted = "turn_end"
    else:
        return lines
    return sorted(lines, key=lambda e: e.kind != wanted)


def _may(ev: "Event", engine: "Engine", actor: str, allowed: bool) -> str:
    """The event as a player asks about it: "Ann may play Milk", "Ben may not use Taxes"."""
    cat = engine.cat
    who = ev.by or actor
    may = "may" if allowed else "may not"
    name = cat.get(ev.card).name if ev.card and ev.card in cat.cards else ev.card
    if ev.verb == "play":
        return f"{who} {may} play {name}"
    if ev.verb == "surprise":
        against = f" against {cat.get(ev.against).name}" if ev.against else ""
        return f"{who} {may} play the Surprise {name}{against}"
    if ev.verb == "use":
        return f"{who} {may} use {name}"
    if ev.verb == "end_turn":
        return f"{who} {may} end the turn"
    if ev.verb in ("join", "leave"):
        return f"{ev.answer} {may} {ev.verb} the game"
    return f"{who}'s answer {'stands' if allowed else 'is refused'}"


def _full(text: str) -> str:
    """A sentence ends in a stop, unless it ends in a card name's own (Veto!)."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _and(items: list[str] | None) -> str:
    items = list(items or [])
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- the answer

def dispute_answer(sc: "Scenario", verdict: "Verdict", probe: Probe | None = None) -> DisputeAnswer:
    """The answer to the file's question: the reply the probe worked out at the disputed
    event, or what became of it when the replay never got there."""
    n = sc.disputed_event
    step = next((s for s in verdict.steps if s.number == n), None)
    ev = sc.events[n - 1].event if n else None
    if step is None:
        assert ev is not None
        last = verdict.steps[-1]
        return DisputeAnswer(sc.question, n, ev.describe(), "not-reached",
                             f"The replay stopped at step {last.number} and never reached the disputed event {n} "
                             f"({ev.describe()}).", list(last.entries))
    words = step.words or step.label
    if step.status == "fault":
        return DisputeAnswer(sc.question, n, words, "fault",
                             f"The scenario is in error at {words}: {step.failures[0] if step.failures else ''}",
                             list(step.entries))
    reply = probe.reply if probe is not None else None
    assert reply is not None              # the probe read every step the replay made
    if n == 0 and sc.ask is None:
        outcome = "none"
    else:
        outcome = {"rejected": "refused", "waiting": "waiting"}.get(step.status, "done")
    lines = reply.lines
    text = reply.text
    if not cites_of(lines):
        text += " " + SILENT
    rulings = [RulingLine(r, step_outcome(step)) for r in cites_of(lines)]
    return DisputeAnswer(sc.question, n, words if n else "", outcome, text, lines, rulings, reply.kind,
                         sc.ask is not None, reply.value, reply.turn)
