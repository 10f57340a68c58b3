"""Generators of hostile scenario files, one family per class of attack the tool must
survive (used by tests/test_cli_fuzz.py and benchmarks/bench_hostile.py).

`hostile_files(rng)` returns (name, bytes) pairs: the same families every call, each
varied by the random generator, so that the ci profile (a fixed seed) checks the same
files every run and `make fuzz` explores new ones.
"""

from __future__ import annotations

import random

ESC = "\x1b"
HEAD = "format: 1\n"


def _players(rng: random.Random, n: int | None = None) -> list[str]:
    pool = ["Ann", "Ben", "Cal", "Dee", "Eve", "Fay"]
    return pool[: n or rng.randint(2, 4)]


def _table(players: list[str], extra: str = "") -> str:
    return f"table:\n  players: [{', '.join(players)}]\n  draw_pile: ['? x20']\n{extra}"


def nested_lists(rng, size=80_000):
    depth = size // 2
    return "x: " + "[" * depth + "]" * depth + "\n"


def nested_blocks(rng, depth=None):
    depth = depth or rng.randint(40, 400)
    return "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "b: 1\n"


def alias_bomb(rng, levels=None):
    levels = levels or rng.randint(6, 12)
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [{', '.join(f'*l{i - 1}' for _ in range(9))}]")
    return "\n".join(lines) + "\n"


def aliased_card_list(rng):
    return HEAD + _table(_players(rng), "  hands:\n    Ann: &h [Milk, Cookies]\n    Ben: *h\n")


def question_copies(rng, size=200_000):
    n = size // 10
    return HEAD + _table(_players(rng), "  discard: [" + ", ".join(['"? x500"'] * n) + "]\n")


def card_copies_in_expectations(rng):
    body = ", ".join(['"Milk x500"'] * rng.randint(11, 40))
    return HEAD + _table(_players(rng)) + f"expect:\n  zones:\n    discard: {{has: [{body}]}}\n"


def long_unknown_card(rng, length=None):
    length = length or rng.choice([150, 8_000, 19_000, 60_000])
    word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(length)).strip() or "x"
    return HEAD + _table(_players(rng), f"  discard: [\"{word}\"]\n")


def long_player_name(rng):
    return HEAD + f"table:\n  players: [Ann, {'B' * rng.choice([101, 5_000, 30_000])}]\n"


def huge_number(rng):
    digits = rng.choice([31, 4_301, 5_000, 19_999, 60_000])
    field = rng.choice(["drawn", "played"])
    return HEAD + _table(_players(rng), f"  {field}: {'9' * digits}\n")


def huge_copies(rng):
    digits = rng.choice([7, 4_301, 9_000])
    return HEAD + _table(_players(rng), f"  discard: [\"Milk x{'9' * digits}\"]\n")


def huge_plays_left(rng):
    return HEAD + _table(_players(rng)) + f"expect:\n  plays_left: {'7' * rng.choice([50, 5000])}\n"


def many_values(rng):
    return HEAD + _table(_players(rng)) + "note: [" + "1," * rng.randint(50_001, 120_000) + "]\n"


def many_keys(rng):
    return HEAD + _table(_players(rng)) + "expect:\n" + "".join(f"  k{i}: 1\n" for i in range(rng.randint(1_000, 40_000)))


def oversized(rng):
    return HEAD + _table(_players(rng)) + "note: >\n" + ("  " + "words " * 15 + "\n") * 12_000


def escapes_in_text(rng):
    bad = rng.choice([f"{ESC}]0;owned\a", f"{ESC}[2J{ESC}[H", f"{ESC}[31mred", "\r\x08\x07", "\u202eevil", "\x9b2J"])
    quoted = bad.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    where = rng.choice(["title", "note", "event-note", "card", "player", "id"])
    if where == "title":
        return HEAD + f'title: "Who wins?{quoted}"\n' + _table(_players(rng))
    if where == "note":
        return HEAD + f'note: "see {quoted}"\n' + _table(_players(rng)) + "events:\n  - end_turn: true\n"
    if where == "event-note":
        return HEAD + _table(_players(rng)) + f'events:\n  - end_turn: true\n    note: "{quoted}"\n'
    if where == "card":
        return HEAD + _table(_players(rng), f'  discard: ["Milk{quoted}"]\n')
    if where == "player":
        return HEAD + f'table:\n  players: [Ann, "Ben{quoted}"]\n'
    return HEAD + f'id: "x{quoted}"\n' + _table(_players(rng))


def escapes_raw(rng):
    """Raw ESC bytes where YAML refuses them (the error message must not echo them)."""
    return HEAD + f"title: Who {ESC}]0;owned\a wins\n" + _table(_players(rng))


def case_twin_keys(rng):
    return HEAD + _table(["Ann", "Ben"], "  keepers:\n    Ann: [Milk]\n    ann: [Cookies]\n") + \
        "expect:\n  zones:\n    Ann.keepers: [Cookies]\n"


def confusable_players(rng):
    twin = rng.choice(["\u0410nn", "An\u200bn", "ANN", "Ann\u202e", "\u0391nn", "Ann\u00a0"])
    return HEAD + f"table:\n  players: [Ann, \"{twin.encode('unicode_escape').decode()}\"]\n"


def misspelt_cites(rng):
    bad = rng.choice(["getting-rid-of-creeper", "rule-free-action-anytime", "Getting-Rid", "x" * 500, "ruling 7"])
    where = rng.choice(["top", "expect", "rejected"])
    if where == "top":
        return HEAD + f"cites: [\"{bad}\"]\n" + _table(_players(rng))
    if where == "expect":
        return HEAD + _table(_players(rng)) + f"expect:\n  cites: [\"{bad}\"]\n"
    return HEAD + _table(_players(rng)) + f"events:\n  - end_turn: true\n    expect: {{rejected: \"{bad}\"}}\n"


def bare_number_answer(rng):
    return (HEAD + "table:\n  editions: [pirate]\n  players: [Ann, Ben]\n  turn: Ann\n  keepers:\n"
            "    Ann: [Shackles, Diamonds, Pearls, Galleon]\n    Ben: [Captain's Hat]\n  hands:\n    Ann: [Rum]\n"
            f"  draw_pile: ['? x10']\nevents:\n  - use: Shackles\n    choose: [{rng.randint(0, 6)}]\n")


def tags(rng):
    tag = rng.choice(["!!python/object/apply:os.system ['echo owned']", "!!binary aGk=", "!custom x", "!!set {a}",
                      "!!omap [a: 1]", "!!timestamp 2001-12-14"])
    return HEAD + _table(_players(rng)) + f"note: {tag}\n"


def documents(rng):
    return (HEAD + _table(_players(rng)) + "---\n") * rng.randint(2, 50)


def binary(rng):
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 4096)))


def not_utf8(rng):
    return (HEAD + "title: caf").encode() + bytes([rng.choice([0xe9, 0xff, 0xc0, 0x80])]) + b"\n" + \
        _table(_players(rng)).encode()


def utf16(rng):
    return (HEAD + _table(_players(rng))).encode(rng.choice(["utf-16", "utf-32"]))


def nul_byte(rng):
    return HEAD + "title: a\x00b\n" + _table(_players(rng))


def surrogate_escape(rng):
    return HEAD + 'title: "\\udcff"\n' + _table(_players(rng))


def many_events(rng):
    players = _players(rng)
    n = rng.choice([1_001, 20_000])
    return HEAD + _table(players) + "events:\n" + "  - end_turn: true\n" * n


def many_refused_events(rng, events=1_000):
    players = _players(rng, 4)
    event = f"  - {{play: Milk, by: {players[1]}, expect: {{rejected: true}}}}\n"
    return HEAD + _table(players, f"  hands: {{{players[1]}: [Milk]}}\n") + "events:\n" + event * events


def big_table(rng, events=999):
    return HEAD + _table(_players(rng, 6), "  discard: ['? x500', '? x450']\n") + \
        "events:\n" + "  - {choose: x, expect: {rejected: true}}\n" * events


def mutated(rng, base: str):
    """A valid scenario with one random line damaged."""
    lines = base.splitlines()
    i = rng.randrange(len(lines))
    junk = rng.choice(["{", "]", ": :", "&a", "*a", "!!python/name:os.system", "\t", "? x", ESC, "\u202e",
                       "9" * 5000, "- [" * 50])
    lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)] + junk
    return "\n".join(lines) + "\n"


FAMILIES = [nested_lists, nested_blocks, alias_bomb, aliased_card_list, question_copies, card_copies_in_expectations,
            long_unknown_card, long_player_name, huge_number, huge_copies, huge_plays_left, many_values, many_keys,
            oversized, escapes_in_text, escapes_raw, case_twin_keys, confusable_players, misspelt_cites,
            bare_number_answer, tags, documents, binary, not_utf8, utf16, nul_byte, surrogate_escape, many_events,
            many_refused_events, big_table]


# Families whose files load and replay in full: `full_size=False` makes them shorter
# (the test suite checks their behaviour; benchmarks/bench_hostile.py their cost).
SHORTER = {many_refused_events: {"events": 60}, big_table: {"events": 60}}


def hostile_files(rng: random.Random, per_family: int = 1, library_texts: list[str] = (),
                  full_size: bool = True) -> list[tuple[str, bytes]]:
    """(file name, content) for every family, `per_family` variants each, plus damaged
    copies of `library_texts`."""
    out = []
    for family in FAMILIES:
        for k in range(per_family):
            content = family(rng, **({} if full_size else SHORTER.get(family, {})))
            data = content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass")
            out.append((f"{family.__name__}-{k}.yaml", data))
    for k, text in enumerate(library_texts):
        out.append((f"mutated-{k}.yaml", mutated(rng, text).encode("utf-8", "surrogatepass")))
    return out
