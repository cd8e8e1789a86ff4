"""Time the Python reference bestSpan on the bench cases written by bench/moot.bench.ts.

Usage: python3 bench/python/moot_bench.py CASES.json [MIN_SECONDS]
CASES.json: {"pool": [str...], "quotes": [str...], "expected": [{"text","ratio","source"}...]}
Checks every output against "expected" first (exits 1 on a mismatch), then
times whole passes over all quotes and prints one JSON line:
{"medianMs": <median ms per pass>, "samples": N, "perQuoteMs": ...}.
"""
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from best_span_reference import best_span  # noqa: E402


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    pool, quotes, expected = data["pool"], data["quotes"], data["expected"]
    for q, e in zip(quotes, expected):
        text, ratio, src = best_span(q, pool)
        if text != e["text"] or ratio != e["ratio"] or src != e["source"]:
            print(json.dumps({"error": "mismatch", "quote": q, "python": [text, ratio, src], "ours": e}))
            sys.exit(1)
    samples = []
    deadline = time.perf_counter() + budget
    while len(samples) < 3 or (time.perf_counter() < deadline and len(samples) < 200):
        t = time.perf_counter()
        for q in quotes:
            best_span(q, pool)
        samples.append((time.perf_counter() - t) * 1000)
    med = statistics.median(samples)
    print(json.dumps({"medianMs": med, "samples": len(samples), "perQuoteMs": med / len(quotes)}))


main()
