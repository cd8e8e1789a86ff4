"""The Python reference of groundwire's bestSpan (the seed's algorithm).

Used by scripts/make-parity-fixtures.py (to write the expected values) and by
bench/moot.bench.ts (timed as the "python reference" contender). Word rule,
keys and quote-character mapping follow DESIGN.md section 5 and
ts/moot/words.ts; the ratio is difflib.SequenceMatcher with autojunk off,
seq1 = the window, seq2 = the quote (difflib caches what it learns about seq2).
"""
from __future__ import annotations

import difflib
import re

_DOUBLE = "“”„‟″«»「」『』"
_SINGLE = "‘’‚‛"
_QUOTE_CHARS = str.maketrans({**{c: '"' for c in _DOUBLE}, **{c: "'" for c in _SINGLE}})
# [^\W_] is a Unicode letter or number (Python's isalnum), as \p{L}\p{N} in JS.
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def key(word: str) -> str:
    return word.lower().replace("'", "").replace("‘", "").replace("’", "").replace("‚", "").replace("‛", "")


def words(text: str) -> list[re.Match]:
    return list(WORD.finditer(text.translate(_QUOTE_CHARS)))


def normalize(text: str) -> str:
    return " ".join(key(m.group()) for m in words(text))


def best_span(quote: str, sources: list[str]) -> tuple[str, float, int]:
    """(span, ratio, source index); ("", 0.0, -1) when nothing scores above 0."""
    target = normalize(quote)
    n = len(target.split())
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)
    best, best_ratio, best_src = "", 0.0, -1
    for s, src in enumerate(sources):
        ws = words(src)
        keys = [key(w.group()) for w in ws]
        for size in range(max(1, n - 2), n + 3):
            for i in range(len(ws) - size + 1):
                matcher.set_seq1(" ".join(keys[i : i + size]))
                if matcher.real_quick_ratio() <= best_ratio:
                    continue
                if matcher.quick_ratio() <= best_ratio:
                    continue
                ratio = matcher.ratio()
                if ratio > best_ratio:
                    best, best_ratio, best_src = src[ws[i].start() : ws[i + size - 1].end()], ratio, s
    return best, best_ratio, best_src
