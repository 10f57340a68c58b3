"""The scenario library as tests: every built-in scenario passes, and every mechanical
seed ruling the engine can already express is cited by a passing scenario."""

from __future__ import annotations

import pytest
import yaml  # the shared checklist is plain YAML

from fluxx_judge.cli import _scenario_files, builtin_scenarios_dir
from adjudicator.replay import replay_file
from tests.conftest import SHARED

FILES = _scenario_files([builtin_scenarios_dir()])[0]


def test_library_is_not_empty():
    assert len(FILES) >= 80


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_scenario_passes(path):
    verdict = replay_file(path)
    assert verdict.error is None, str(verdict.error)
    assert verdict.all_failures == []      # the main line and every variation


def test_ids_are_unique():
    from adjudicator.errors import InputError
    from adjudicator.scenario import load_scenario

    seen = {}
    for path in FILES:
        try:
            sid = load_scenario(path).id
        except InputError:
            continue          # reported by test_scenario_passes
        assert sid not in seen, f"{path} and {seen[sid]} share id {sid}"
        seen[sid] = path


def _passing_cites() -> set[str]:
    cited = set()
    for path in FILES:
        verdict = replay_file(path)
        if verdict.passed:
            cited.update(verdict.scenario.cites)
    return cited


# Rulings whose cards or systems land with later issues (Surprises, Solo Fluxx,
# edition cards). Every other mechanical ruling must already be covered.
NOT_YET = {"surprise", "solo", "edition"}


def test_every_expressible_mechanical_ruling_is_demonstrated():
    path = SHARED / "spec" / "seed-rulings.yaml"
    if not path.exists():
        pytest.skip("../shared/spec/seed-rulings.yaml is not beside the checkout")
    rulings = yaml.safe_load(path.read_text(encoding="utf-8"))
    cited = _passing_cites()
    missing = []
    for r in rulings:
        if r["kind"] != "mechanical" or not r.get("base_only"):
            continue
        rid = r["id"]
        needs_surprise = "surprise" in r["topics"] or "cancel" in r["topics"] or any(
            w in rid for w in ("veto", "canceled", "thats-mine", "stop-that", "counter-", "no-burning", "trade-hands-received"))
        later = needs_surprise or rid.startswith(("rule-solo", "gift-giveaway"))
        if rid == "out-of-turn-activity":
            later = False
        if not later and rid not in cited:
            missing.append(rid)
    assert not missing, f"mechanical rulings with no passing scenario: {missing}"
