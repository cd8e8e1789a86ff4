"""Time the Python reference bestSpan on the bench cases written by bench/moot.bench.ts.

Usage: python3 bench/python/moot_bench.py CASES.json [MIN_SECONDS]
CASES.json: {"pool": [str...], "quotes": [str...], "words": {text: [[start, end, key]...]} (groundwire's words,
UTF-16 offsets), "expected": [{"text","ratio","source"}...]}
Checks every output of the first pass against "expected" (exits 1 on a mismatch);
times whole passes over all quotes (at least one, more while within MIN_SECONDS) and prints one JSON line:
{"medianMs": <median ms per pass>, "samples": N, "perQuoteMs": ...}.
"""
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from best_span_reference import best_span, from_utf16  # noqa: E402


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    pool, quotes, expected = data["pool"], data["quotes"], data["expected"]
    seg = {t: from_utf16(t, s) for t, s in data["words"].items()}
    samples = []
    deadline = time.perf_counter() + budget
    # the first pass checks every output against ours, and is timed like the others
    while not samples or (time.perf_counter() < deadline and len(samples) < 200):
        t = time.perf_counter()
        outs = [best_span(q, pool, seg) for q in quotes]
        samples.append((time.perf_counter() - t) * 1000)
        if len(samples) == 1:
            for q, e, (text, ratio, src) in zip(quotes, expected, outs):
                if text != e["text"] or ratio != e["ratio"] or src != e["source"]:
                    print(json.dumps({"error": "mismatch", "quote": q, "python": [text, ratio, src], "ours": e}))
                    sys.exit(1)
    med = statistics.median(samples)
    print(json.dumps({"medianMs": med, "samples": len(samples), "perQuoteMs": med / len(quotes)}))


main()
