"""The engine always ends, and a fault in it never takes the command line down with a
traceback: an effect that would repeat for ever stops with the reason in the verdict
(scenarios/pirate/pirate-mystery-play-scurvy-returns.yaml), a decision at the deal
waits for its answer (scenarios/base/deal-death-to-the-first-player.yaml), and Play
All Plus 1 with nothing to take lets the turn end
(scenarios/faq/faq-play-all-plus-one-nothing-to-take.yaml); random play with small
decks holds all of it (tests/test_property_play.py)."""

from __future__ import annotations

from adjudicator import replay
from adjudicator.replay import replay_file
from fluxx_judge import cli
from tests.conftest import REPO

import rulings  # noqa: F401  (registers the corpus)

SCURVY = REPO / "scenarios" / "pirate" / "pirate-mystery-play-scurvy-returns.yaml"
DEATH = REPO / "scenarios" / "base" / "deal-death-to-the-first-player.yaml"


def test_an_endless_effect_is_ended_and_the_verdict_says_why():
    verdict = replay_file(str(SCURVY))
    assert verdict.passed, verdict.all_failures
    said = " ".join(e.text for s in verdict.steps for e in s.entries)
    assert "could go on for ever" in said and "do not cover" in said


def test_a_decision_at_the_deal_waits_like_any_other():
    verdict = replay_file(str(DEATH))
    assert verdict.passed, verdict.all_failures
    setup = verdict.steps[0]
    assert setup.decision is not None and setup.decision.by == "Ann" and setup.decision.kind == "card"


def test_check_goes_on_past_a_fault_in_one_file(monkeypatch, capsys):
    real = replay.replay_file

    def faulty(path, *args, **kwargs):
        if path.endswith("deal-death-to-the-first-player.yaml"):
            raise RuntimeError("an engine fault")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(replay, "replay_file", faulty)
    status = cli.main(["check", str(DEATH), str(SCURVY)])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL" in out and "internal error" in out and "an engine fault" in out
    assert "PASS pirate-mystery-play-scurvy-returns" in out and out.strip().endswith("1 passed, 1 failed")


def test_a_fault_reaches_the_user_as_one_line(monkeypatch, capsys):
    def broken(args):
        raise KeyError("boom")

    monkeypatch.setattr(cli, "cmd_replay", broken)
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    for action in parser._subparsers._group_actions[0].choices.values():
        if action.get_default("func") is not None and action.prog.endswith(" replay"):
            action.set_defaults(func=broken)
    status = cli.main(["replay", str(SCURVY)])
    err = capsys.readouterr().err
    assert status == 70 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "internal error" in err and "KeyError" in err
