"""Search benchmark: index build and open times, a cold `fluxx-judge search` process,
and query latency (median, 95th percentile) on the built-in rulings plus 1,000 and
10,000 synthetic imported records.

Run it alone with `python benchmarks/bench_search.py [sizes...]`, or through
`make bench`, which imports `run()`. Everything happens in a temporary cache directory;
the user's real cache and imported rulings are never touched. No test asserts these
timings. Targets (issue 14): at 1,000 records p95 < 10 ms; at 10,000 build < 4 s, a
cold search process < 0.4 s, p95 < 25 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import resource
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))      # (last: a compiled engine first on the path stays first)

SIZES = (1000, 10000)
REPEATS = 3
PER_FILE = 1000   # questions per synthetic FAQ file: ingest takes at most 5,000 and 1 MB a file
QUERIES = [
    "play all time portal", "can i stop a keeper after the goal", "do creepers count for keeper limit",
    "no hand bonus draw 5 how many", "wormhole", "mystery play surprise", "hand limit my turn",
    "trade hands empty", "draw 2 and use em goals", "play 4 only 2 cards", "steal a keeper win",
    "discard pile look", "keeper limit how many", "trash my own creeper", "not my turn",
    "use what you take keeper", "combine fluxx versions", "new rule replace old", "basic rules play 3",
    "get rid of creepers", "captain hat", "canceled plans win", "counter surprise play",
    "cancelled card back", "veto play 4", "random tax surprise", "double agenda second goal",
    "triple agenda", "lets simplify round up", "get on with it play 1", "swap plays for draws play all",
    "gift giveaway", "everybody gets 1 look", "thanksgiving", "thats mine steal", "stop that free action",
    "two player surprises", "tie goal", "win other turn", "creeper starting hand", "draw pile ran out",
    "throw away cards", "time portal draw 3 play 2", "turn ends immediately limits", "which cards end turn",
    "imediately", "agnda", "tiem portal", 'card:"time portal"', "topic:surprise cancel",
    "edition:eco creepers", "edition:star", "kind:official hand limit",
    # long questions, the way players type them at the table
    "so my friend played a surprise after i had already played my goal and won is that allowed or was it too late for him",
    "if someone plays draw 3 play 2 of them and one of the cards they draw is a creeper do they have to play it right away",
    "we have a hand limit of 2 out and it is my turn can i keep all my cards until my turn ends or do i discard now",
    "the goal was only on the table for a second before someone replaced it but i met it does that count as a win",
    "he played two cards really fast one after the other so i never got a chance to react with my surprise what happens",
    "double agenda got trashed and now there are two goals on the table who decides which one goes to the discard pile",
    "can i use a keeper power on someone elses turn or only on mine and does it count as one of my plays",
    "is there any limit to how many creepers i can have in front of me or does the keeper limit count them",
]


def synthetic_faq(n: int, seed: int = 7) -> list[str]:
    """n made-up Q&As in the online-FAQ shape (plain Q:/A: lines, answers running over
    one to three lines), as files of PER_FILE questions each (ingest's limits are per
    file). Words are drawn at random with the frequencies they have in the built-in
    rulings, so common words (card, play, turn) are as common as in a real FAQ and rare
    ones as rare; the text means nothing, and repeats no source."""
    import re
    from collections import Counter

    from rulings.corpus import load_corpus

    counts = Counter(w.lower() for r in load_corpus() for w in re.findall(r"[A-Za-z']+", r.question + " " + r.answer))
    vocab, weights = zip(*sorted(counts.items()))
    rng = random.Random(seed)

    def sentence(k: int) -> str:
        return " ".join(rng.choices(vocab, weights, k=k)).capitalize()

    files, out = [], []
    for i in range(n):
        out.append(f"Q: {sentence(rng.randint(8, 16))} (question {i})?")
        for j in range(rng.randint(1, 3)):
            out.append(("A: " if j == 0 else "") + sentence(rng.randint(15, 40)) + ".")
        if (i + 1) % PER_FILE == 0 or i == n - 1:
            files.append("\n".join(out) + "\n")
            out = []
    return files


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (a build that
    works in several processes counts all of their time)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def _cold_process(cache: str, query: str = "is it too late to play a surprise") -> float:
    """Wall time of a new `fluxx-judge search` process on an index already built (the
    best of three: the file cache is warm, as it is for a player's second search)."""
    env = {**os.environ, "FLUXX_JUDGE_CACHE": cache}
    exe = Path(sys.executable).with_name("fluxx-judge")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "fluxx_judge"]
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([*cmd, "search", *query.split()], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def _one_size(n: int, tmp: Path) -> dict:
    from rulings import ingest, search

    cache = tmp / f"cache-{n}"
    os.environ["FLUXX_JUDGE_CACHE"] = str(cache)
    search.forget_loaded()
    faqs = []
    for k, text in enumerate(synthetic_faq(n)):
        faqs.append(tmp / f"synthetic-faq-{n}-{k}.txt")
        faqs[-1].write_text(text, encoding="utf-8")
    t0 = time.perf_counter()
    report = ingest.ingest_files(faqs)
    ingest_s = time.perf_counter() - t0
    imported = sum(r.found for r in report)
    if imported != n or any(r.error for r in report):  # a limit must not shrink the bench
        raise RuntimeError(f"imported {imported} of {n} synthetic records: "
                           + "; ".join(r.error for r in report if r.error))

    t0, c0 = time.perf_counter(), _cpu()
    info = search.ensure_index()
    build_s, build_cpu = time.perf_counter() - t0, _cpu() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # the process so far

    search.forget_loaded()      # as a new process: verify the folder and read it in
    t0 = time.perf_counter()
    opened = search.ensure_index()
    open_s = time.perf_counter() - t0
    assert not opened["built"]

    for q in QUERIES:           # warm-up
        search.search(q)
    times, cpu, shown = [], [], []
    for _ in range(REPEATS):
        for q in QUERIES:
            t0, c0 = time.perf_counter(), time.process_time()
            result = search.search(q, limit=10)
            t1, c1 = time.perf_counter(), time.process_time()
            for hit in result.hits:   # what the command line prints: every highlight
                hit.highlight
            t2 = time.perf_counter()
            times.append((t1 - t0) * 1000)
            cpu.append((c1 - c0) * 1000)
            shown.append((t2 - t0) * 1000)
    cold = _cold_process(str(cache))
    # a word found nowhere: did-you-mean reads the English word list (rulings.english)
    cold_typo = _cold_process(str(cache), "tiem portal in the middle of a turn")
    search.forget_loaded()
    p = f"search_{n}_"
    return {
        p + "docs": info["docs"],
        p + "imported_records": imported,
        p + "ingest_seconds": round(ingest_s, 3),
        p + "index_build_seconds": round(build_s, 3),
        p + "index_build_cpu_seconds": round(build_cpu, 3),
        p + "peak_rss_after_build_mib": round(peak / 2**20, 1),
        p + "index_open_seconds": round(open_s, 3),
        p + "cold_process_seconds": round(cold, 3),
        p + "cold_process_typo_seconds": round(cold_typo, 3),
        p + "queries_timed": len(times),
        p + "query_median_ms": round(statistics.median(times), 2),
        p + "query_p95_ms": round(_percentile(times, 95), 2),
        p + "query_max_ms": round(max(times), 2),
        # CPU time of this process only: what the query costs, without the time other
        # processes took the cores (wall time on a busy shared machine is twice this)
        p + "query_cpu_median_ms": round(statistics.median(cpu), 2),
        p + "query_cpu_p95_ms": round(_percentile(cpu, 95), 2),
        p + "query_with_highlights_p95_ms": round(_percentile(shown, 95), 2),
    }


def run(sizes=SIZES) -> dict:
    old = os.environ.get("FLUXX_JUDGE_CACHE")
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="fluxx-bench-") as tmp:
        try:
            for n in sizes:
                out.update(_one_size(int(n), Path(tmp)))
        finally:
            from rulings import search

            search.forget_loaded()
            if old is None:
                os.environ.pop("FLUXX_JUDGE_CACHE", None)
            else:
                os.environ["FLUXX_JUDGE_CACHE"] = old
    return out


def main() -> int:
    results = run([int(a) for a in sys.argv[1:]] or SIZES)
    width = max(len(k) for k in results)
    print(f"{'metric':<{width}}  value")
    print(f"{'-' * width}  -----")
    for key, value in results.items():
        print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
