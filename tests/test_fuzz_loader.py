"""Fuzzing the scenario reader: random mutations of library files end either in a
loaded scenario (which also validates against docs/scenario.schema.json and
replays without an exception) or in an InputError naming file, line and column."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator import strictyaml
from adjudicator.errors import InputError
from adjudicator.replay import replay
from adjudicator.scenario import parse_scenario
from tests.conftest import examples, schema_validator
from tests.test_library import FILES

TEXTS = [open(p, encoding="utf-8").read() for p in FILES[:60]]
JUNK = ["{", "]", ": :", "- -", "\t", "'", '"', "&a", "*b", "!!python/object:os.system", "%TAG", "\x00", "\udcff",
        "?", "x" * 300, "999999999999999999999", "-5", "4.10", "yes", "null", "~", "[[[[", "Milkk", "Ann.hand:",
        "evnts:", "expect: {rejected: 7}", "  - play: Nope", "players: []", "turn: Zed"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(8)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])                            # duplicated key or item
        elif op == 2:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)] + rng.choice(JUNK)
        elif op == 3:
            lines[i] = lines[i].replace(":", "", 1)
        elif op == 4:
            words = lines[i].split()
            if words:
                w = rng.randrange(len(words))
                words[w] = words[w][::-1]                      # misspelt card or key
                lines[i] = " ".join(words)
        elif op == 5:
            lines[i] = " " * rng.randrange(5) + lines[i]
        elif op == 6:
            lines = lines[: rng.randrange(len(lines) + 1)]     # truncated file
        else:
            lines[i] = lines[i].replace("1", str(rng.choice([0, -1, 10**9, 4.5])), 1)
    return "\n".join(lines) + rng.choice(["", "\n", "\n---\nformat: 1\n"])


@settings(max_examples=examples(250))
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_scenarios_fail_cleanly(seed):
    rng = random.Random(seed)
    text = mutate(rng.choice(TEXTS), rng)
    path = "fuzzed.yaml"
    try:
        sc = parse_scenario(strictyaml.parse(text, path), path)
    except InputError as exc:
        assert exc.path == path
        assert exc.line is None or exc.line >= 1
        assert str(exc).startswith(path)
        return
    # accepted: the schema accepts it too, and replaying never raises
    schema_validator().validate(strictyaml.load_plain(text))
    verdict = replay(sc)
    assert verdict.error is None or isinstance(verdict.error, InputError)


def test_binary_junk_and_empty_files():
    for raw in [b"", b"\x00\x01\x02", bytes(range(256)), b"\xff\xfe" + "format: 1".encode("utf-16-le")]:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            continue
        try:
            parse_scenario(strictyaml.parse(text, "junk.yaml"), "junk.yaml")
        except InputError as exc:
            assert exc.path == "junk.yaml"


def test_huge_numbers_are_refused_with_position():
    text = "format: 1\ntable:\n  players: [Ann]\n  drawn: 99999999999999999999999\n"
    try:
        parse_scenario(strictyaml.parse(text, "h.yaml"), "h.yaml")
    except InputError as exc:
        assert (exc.line, exc.col) == (4, 10)
    else:
        raise AssertionError("a huge number was accepted")


def test_every_library_scenario_validates_against_the_schema():
    for path in FILES:
        schema_validator().validate(strictyaml.load_plain(open(path, encoding="utf-8").read(), path))
