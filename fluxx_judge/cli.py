"""The `fluxx-judge` command line (`python -m fluxx_judge`). With no command it opens the app.

Commands that do not need the app never import Textual, so they start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Iterable

from adjudicator.errors import FluxxJudgeError


def _scenario_files(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    from adjudicator.share import looks_like_share

    files, missing = [], []
    for p in paths:
        if looks_like_share(p):
            files.append(p)              # a share string stands in for a file
        elif os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
                files.extend(os.path.join(root, n) for n in sorted(names) if n.endswith((".yaml", ".yml")))
        elif os.path.exists(p):
            files.append(p)              # a FIFO or a device too: the reader says what it is
        else:
            missing.append(p)
    return files, missing


def builtin_scenarios_dir() -> str:
    from rulings.knowledge import library_path

    return library_path()


def cmd_check(args) -> int:
    import rulings  # noqa: F401 - registers the corpus: `cites` ids are checked against it
    from adjudicator.replay import replay_file

    paths = args.paths or [builtin_scenarios_dir()]
    files, missing = _scenario_files(paths)
    passed = failed = 0
    for m in missing:
        failed += 1
        _emit(args, {"id": m, "passed": False, "failures": [f"{m}: no such file or directory"]},
              f"FAIL {m}: no such file or directory")
    seen_ids: dict[str, str] = {}
    for path in files:
        try:
            verdict = replay_file(path, seed=args.seed)
        except Exception as exc:        # an engine fault fails this file, never the files after it
            if os.environ.get(DEBUG_ENV):
                raise
            failed += 1
            text = f"{path}: {internal_error(exc)}"
            _emit(args, {"id": path, "file": path, "passed": False, "failures": [text]}, f"FAIL {text}")
            continue
        sid = verdict.scenario.id if verdict.scenario else path
        problems = list(verdict.all_failures)
        if verdict.error:
            problems.insert(0, str(verdict.error))
        if verdict.scenario and sid in seen_ids:
            problems.append(f"{path}: id {sid!r} is also used by {seen_ids[sid]}; ids are unique in a library")
        seen_ids.setdefault(sid, path)
        lines = _variation_results(verdict.variations)
        if problems:
            failed += 1
            _emit(args, {"id": sid, "file": path, "passed": False, "failures": problems, "verdict": verdict.summary(),
                         "variations": lines}, f"FAIL {sid}: {problems[0]}")
        else:
            passed += 1
            _emit(args, {"id": sid, "file": path, "passed": True, "failures": [], "verdict": verdict.summary(),
                         "variations": lines}, f"PASS {sid}")
    if args.json:
        print(json.dumps({"passed": passed, "failed": failed}))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and (passed or not paths) else 1


def _variation_results(variations) -> list[dict]:
    """Each variation's own result, depth first (`check --json`)."""
    out = []
    for v in variations:
        out.append({"title": v.name, "path": list(v.path), "line": v.variation.line, "passed": v.verdict.passed,
                    "failures": v.verdict.all_failures})
        out += _variation_results(v.verdict.variations)
    return out


def _emit(args, obj, line) -> None:
    print(json.dumps(obj) if args.json else line)


def cmd_replay(args) -> int:
    import rulings  # noqa: F401 - registers the corpus: verdicts show each ruling's answer
    from adjudicator.render import render_verdict
    from adjudicator.replay import replay_file

    verdict = replay_file(args.file, seed=args.seed)
    if args.json:
        print(json.dumps(verdict.to_json(), indent=2))
    else:
        print(render_verdict(verdict))
    return 0 if verdict.answered else 1


def cmd_moves(args) -> int:
    import rulings  # noqa: F401 - registers the corpus
    from adjudicator.moves import moves_after
    from adjudicator.scenario import load_scenario

    sc = load_scenario(args.file)
    verdict, groups = moves_after(sc, seed=args.seed)
    if verdict.error is not None:
        raise verdict.error
    if verdict.faults:
        print(f"fluxx-judge: the replay stopped before the end of the file: {verdict.faults[0]}", file=sys.stderr)
        return 1
    assert verdict.engine is not None           # (a replay that ran holds its engine)
    if args.json:
        print(json.dumps({"id": sc.id, "turn": verdict.engine.state.active_player,
                          "groups": [g.to_json() for g in groups]}, indent=2))
        return 0
    st = verdict.engine.state
    where = f"after event {len(sc.events)}" if sc.events else "from the set-up"
    print(f"Legal events {where} ({st.active_player}'s turn):")
    if not groups:
        print("  none: the game is over" if st.game_over else "  none")
    for g in groups:
        print(f"{g.title}:")
        if g.why:
            print(f"  ({g.why}" + (f" [{', '.join(g.cites)}]" if g.cites else "") + ")")
        if g.moves:
            for m in g.moves:
                print(f"  - {m.syntax:<44}  {m.words}")
        else:
            need = f"{g.count} of" if g.count is not None else "any of"
            print(f"  - choose: [...]   ({need} {', '.join(g.options)})")
    return 0


def cmd_analyse(args) -> int:
    from adjudicator.analysis import analyse_scenario, check_bounds
    from adjudicator.scenario import load_scenario

    problem = check_bounds(args.seconds, args.positions)
    if problem:
        print(f"fluxx-judge: {problem}: every search must be bounded (default --seconds 2 --positions 20000)",
              file=sys.stderr)
        return 2
    sc = load_scenario(args.file)
    report = analyse_scenario(sc, after=args.after, seed=args.seed, seconds=args.seconds, positions=args.positions)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        where = f"after event {args.after}" if args.after is not None else \
            f"after event {len(sc.events)}" if sc.events else "from the set-up"
        print(f"Analysis of {sc.id} {where}:")
        print(report.text())
    return 0


def cmd_share(args) -> int:
    from adjudicator import share
    from adjudicator.scenario import load_scenario, read_source

    if args.show:
        print(share.document_text(share.decode(args.file)))
        return 0
    load_scenario(args.file)            # only a scenario that opens is shared
    root = read_source(args.file)
    assert root is not None                     # (it opened as a scenario just above)
    print(share.encode(root.plain_data()))
    return 0


def cmd_cards(args) -> int:
    from adjudicator.catalogue import EDITIONS, default_catalogue

    cat = default_catalogue()
    if args.edition and args.edition not in EDITIONS:
        print(f"fluxx-judge: unknown edition {args.edition!r}; one of: {', '.join(EDITIONS)}", file=sys.stderr)
        return 2
    cards = sorted(cat.by_edition(args.edition), key=lambda c: (c.type, c.name))
    if args.json:
        print(json.dumps([c.to_json() for c in cards], indent=2))
        return 0
    width = max((len(c.name) for c in cards), default=10)
    for c in cards:
        extra = f"  (also: {', '.join(c.aliases)})" if c.aliases else ""
        mark = " [partial]" if c.certainty == "partial" else ""
        print(f"{c.type:<9} {c.name:<{width}}  {c.effect}{mark}{extra}")
    print(f"{len(cards)} cards" + (f" in {EDITIONS[args.edition]}" if args.edition else ""))
    return 0


def cmd_app(args) -> int:
    from tui.app import run_app

    return run_app(getattr(args, "file", None))


def cmd_serve(args) -> int:
    from fluxx_judge.serve import serve

    return serve(args.host, args.port, args.max_apps, token=args.token, root=args.root)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1 to 65535)")
    return port


def _count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count from 1 to 1000")
    return int(text)


SERVE_HELP = """\
Serve the app to web browsers, a phone at the table for one. Each browser tab that
opens the page gets its own app (its own process, its own open scenario); closing
the tab ends that app, and --max-apps bounds how many run at once. The page needs
no internet: everything it loads comes from this server.

The server prints its address with a token in it (?token=...): the page and its
connection need that token, so the address is a password. The apps open and save
scenario files only in one folder on the machine running the server (--root; the
scenario folder by default), never hidden files, nothing outside it.

By default only this machine can connect (localhost). `--host 0.0.0.0` listens on
every network interface so a phone on the same network can open the printed
address; then anyone who can reach this machine can connect, and the token is what
keeps strangers out. Ctrl+C stops the server and every tab's app; unsaved work is
kept, and each browser is told of its own when it opens the app again."""


_FILE_HELP = "a scenario file, or a share string (fj1.…) made by `fluxx-judge share`"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fluxx-judge", description="A rules referee for Fluxx: replay a disputed "
                                     "position through the reference engine and get a verdict tied to the official rulings.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("check", help="replay scenario files and check their expectations")
    p.add_argument("paths", nargs="*", help="scenario files, folders or share strings (default: the built-in library)")
    p.add_argument("--json", action="store_true", help="one JSON object per scenario")
    p.add_argument("--seed", type=int, default=0, help="seed for shuffles and random picks no scenario fixes")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("replay", help="replay one scenario step by step with the rulings behind each step")
    p.add_argument("file", help=_FILE_HELP)
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("moves", help="list the legal events after a scenario's last event (reveals of unseen cards "
                                     "included), in file syntax and in words")
    p.add_argument("file", help=_FILE_HELP)
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_moves)
    p = sub.add_parser("analyse", aliases=["analyze"], help="search the rest of the active player's turn: can they "
                       "win, by which line, which visible Surprises could stop it")
    p.add_argument("file", help=_FILE_HELP)
    p.add_argument("--after", type=int, metavar="N", help="analyse after event N (default: the last; 0: the set-up)")
    p.add_argument("--seconds", type=float, default=2.0, help="CPU time limit of the search, finite and above 0 "
                   "(default 2)")
    p.add_argument("--positions", type=int, default=20_000, help="positions searched at most, at least 1 "
                   "(default 20000)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_analyse)
    p = sub.add_parser("share", help="print a scenario as one short URL-safe line (fj1.…) that every command "
                                     "taking a scenario file also takes in its place")
    p.add_argument("file", help=_FILE_HELP)
    p.add_argument("--show", action="store_true", help="print the scenario a share string holds, as the text that "
                   "line numbers in messages about it count")
    p.set_defaults(func=cmd_share)
    p = sub.add_parser("cards", help="list the card catalogue")
    p.add_argument("--edition", help="base, creeper-pack, star, eco, pirate, mystery, anatomy, faq")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_cards)
    p = sub.add_parser("open", help="open a scenario file in the app's Replay screen")
    p.add_argument("file", help=_FILE_HELP)
    p.set_defaults(func=cmd_app)
    p = sub.add_parser("serve", help="serve the app to web browsers (a phone at the table); one app per tab",
                       description=SERVE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="localhost",
                   help="address to listen on (default: localhost, this machine only; 0.0.0.0: the local network, "
                        "where anyone can use the app)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default: 8000)")
    p.add_argument("--max-apps", type=_count, default=8, metavar="N",
                   help="at most N apps (browser tabs) at once; each takes its own memory (default: 8)")
    p.add_argument("--token", help="the token the address needs (default: a new random one each start; one given "
                   "here can be seen by other accounts of this machine in its process list)")
    p.add_argument("--root", metavar="DIR", help="the one folder the apps open and save scenarios in (default: "
                   "the scenario folder, which the app proposes for new scenarios)")
    p.set_defaults(func=cmd_serve)
    from fluxx_judge import graph_cli
    from rulings import cli as rulings_cli

    rulings_cli.add_commands(sub)
    graph_cli.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from adjudicator.text import output_closed, use_printable_output

    if output_closed():
        return 2
    if not getattr(args, "func", None):
        return cmd_app(args)
    if args.func is not cmd_app:
        use_printable_output()
    try:
        return args.func(args)
    except FluxxJudgeError as exc:
        print(f"fluxx-judge: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:            # a fault of ours: one line, never a traceback
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"fluxx-judge: {internal_error(exc)}", file=sys.stderr)
        return 70


DEBUG_ENV = "FLUXX_JUDGE_DEBUG"


def internal_error(exc: BaseException) -> str:
    """One line for a fault in fluxx-judge itself (set FLUXX_JUDGE_DEBUG=1 for the traceback)."""
    return (f"internal error, a bug in fluxx-judge ({type(exc).__name__}: {str(exc)[:300]}); please report it "
            f"with the file that caused it (set {DEBUG_ENV}=1 to see where it happened)")
