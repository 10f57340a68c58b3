"""Search benchmark: index build and open times and query latency (median, 95th
percentile) on the built-in rulings plus 1,000 synthetic imported records.

Run it alone with `python benchmarks/bench_search.py`, or through `make bench`, which
imports `run()`. Everything happens in a temporary cache directory; the user's real
cache and imported rulings are never touched. No test asserts these timings.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

SYNTHETIC = 1000
REPEATS = 5
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
    "imediately", "agnda", 'card:"time portal"', "topic:surprise cancel", "edition:eco creepers",
]


def synthetic_faq(n: int, seed: int = 7) -> str:
    """n made-up Q&As in the online-FAQ shape (plain Q:/A: lines, answers running over
    one to three lines). Words are drawn at random with the frequencies they have in
    the built-in rulings, so common words (card, play, turn) are as common as in a real
    FAQ and rare ones as rare; the text means nothing, and repeats no source."""
    import re
    from collections import Counter

    from rulings.corpus import load_corpus

    counts = Counter(w.lower() for r in load_corpus() for w in re.findall(r"[A-Za-z']+", r.question + " " + r.answer))
    vocab, weights = zip(*sorted(counts.items()))
    rng = random.Random(seed)

    def sentence(k: int) -> str:
        return " ".join(rng.choices(vocab, weights, k=k)).capitalize()

    out = []
    for i in range(n):
        out.append(f"Q: {sentence(rng.randint(8, 16))} (question {i})?")
        for j in range(rng.randint(1, 3)):
            out.append(("A: " if j == 0 else "") + sentence(rng.randint(15, 40)) + ".")
    return "\n".join(out) + "\n"


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def run() -> dict:
    old = os.environ.get("FLUXX_JUDGE_CACHE")
    with tempfile.TemporaryDirectory(prefix="fluxx-bench-") as tmp:
        os.environ["FLUXX_JUDGE_CACHE"] = str(Path(tmp) / "cache")
        try:
            from rulings import corpus, ingest, search

            search.forget_loaded()
            t0 = time.perf_counter()
            corpus.load_corpus()
            search.recognise_cards("")  # the card lexicon (catalogue names and aliases)
            corpus_s = time.perf_counter() - t0

            t0 = time.perf_counter()
            search.ensure_index()
            builtin_build_s = time.perf_counter() - t0

            faq = Path(tmp) / "synthetic-faq.txt"
            faq.write_text(synthetic_faq(SYNTHETIC), encoding="utf-8")
            t0 = time.perf_counter()
            report = ingest.ingest_files([faq])
            ingest_s = time.perf_counter() - t0
            imported = report[0].found

            t0 = time.perf_counter()
            info = search.ensure_index()
            build_s = time.perf_counter() - t0

            search.forget_loaded()      # a new process: verify the folder and read it in
            t0 = time.perf_counter()
            opened = search.ensure_index()
            open_s = time.perf_counter() - t0
            assert not opened["built"]

            for q in QUERIES:           # warm-up
                search.search(q)
            times = []
            for _ in range(REPEATS):
                for q in QUERIES:
                    t0 = time.perf_counter()
                    search.search(q, limit=10)
                    times.append((time.perf_counter() - t0) * 1000)
            search.forget_loaded()
        finally:
            if old is None:
                os.environ.pop("FLUXX_JUDGE_CACHE", None)
            else:
                os.environ["FLUXX_JUDGE_CACHE"] = old
    return {
        "search_docs": info["docs"],
        "search_imported_records": imported,
        "search_corpus_load_seconds": round(corpus_s, 3),
        "search_builtin_index_build_seconds": round(builtin_build_s, 3),
        "search_ingest_1000_seconds": round(ingest_s, 3),
        "search_index_build_seconds": round(build_s, 3),
        "search_index_open_seconds": round(open_s, 3),
        "search_queries_timed": len(times),
        "search_query_median_ms": round(statistics.median(times), 2),
        "search_query_p95_ms": round(_percentile(times, 95), 2),
        "search_query_max_ms": round(max(times), 2),
    }


def main() -> int:
    results = run()
    width = max(len(k) for k in results)
    print(f"{'metric':<{width}}  value")
    print(f"{'-' * width}  -----")
    for key, value in results.items():
        print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
