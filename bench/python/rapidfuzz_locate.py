"""RapidFuzz contender for the quote-index bench (bench/quote-index.bench.ts).

Usage: python3 bench/python/rapidfuzz_locate.py CASES.json [MIN_SECONDS]
CASES.json: {"texts": [str...], "quotes": [str...], "expected": [int...]}
  texts: the normalized texts (word keys joined by one space), quotes likewise;
  expected: per quote, the index of the text holding our best span (-1 when none).
For each quote, fuzz.partial_ratio_alignment(quote, text) over every text (its own
contract: character-level alignment, no word windows); the best-scoring text is
compared with ours (agreement is reported, not required). Times whole passes over
all quotes (at least one), each quote timed on its own, and prints one JSON line:
{"medianMs": <ms per pass>, "samples": N, "perQuoteMs": <mean>, "perQuoteMedians": [<ms per quote>...], "agree": K}.
"""
import json
import statistics
import sys
import time
from pathlib import Path

from rapidfuzz import fuzz


def best_text(quote, texts):
    best, at = -1.0, -1
    for i, t in enumerate(texts):
        r = fuzz.partial_ratio_alignment(quote, t)
        if r is not None and r.score > best:
            best, at = r.score, i
    return at


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    texts, quotes, expected = data["texts"], data["quotes"], data["expected"]
    samples = []
    per_quote = [[] for _ in quotes]
    agree = 0
    deadline = time.perf_counter() + budget
    while not samples or (time.perf_counter() < deadline and len(samples) < 50):
        outs = []
        total = 0.0
        for i, q in enumerate(quotes):
            t = time.perf_counter()
            outs.append(best_text(q, texts))
            ms = (time.perf_counter() - t) * 1000
            per_quote[i].append(ms)
            total += ms
        samples.append(total)
        if len(samples) == 1:
            agree = sum(1 for o, e in zip(outs, expected) if e >= 0 and o == e)
    med = statistics.median(samples)
    print(json.dumps({
        "medianMs": med,
        "samples": len(samples),
        "perQuoteMs": med / len(quotes),
        "perQuoteMedians": [statistics.median(x) for x in per_quote],
        "agree": agree,
    }))


main()
