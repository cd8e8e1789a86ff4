"""The Python reference of groundwire's bestSpan (the seed's algorithm).

Used by scripts/make-parity-fixtures.py (to write the expected values), by
bench/moot.bench.ts (timed as the "python reference" contender) and by
test/match/parity.test.ts. The ratio is difflib.SequenceMatcher with autojunk
off, seq1 = the window, seq2 = the quote (difflib caches what it learns about
seq2).

Words: groundwire's words follow Unicode word segmentation (UAX #29, as ICU's
Intl.Segmenter finds them) over a matching text (NFC, ligatures folded,
default-ignorables dropped; DESIGN.md section 5), which Python's standard
library cannot reproduce. So the words are not taken here: the caller passes
groundwire's own words for every text (`segmented`: text -> [(start, end, key)],
offsets in code points of that text), computed by ts/match/words.ts through
scripts/moot-words.ts (`ts_words` below) or written by the TS side into the
bench's case file. Python then computes every ratio on the same key sequences.
`WORD` (the seed's regex) only picks test inputs in the fixture script.
"""
from __future__ import annotations

import difflib
import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
_DOUBLE = "“”„‟″«»「」『』"
_SINGLE = "‘’‚‛"
_QUOTE_CHARS = str.maketrans({**{c: '"' for c in _DOUBLE}, **{c: "'" for c in _SINGLE}})
# The seed's word rule ([^\W_] = a Unicode letter or number); for picking test inputs only.
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")

Segmented = dict[str, list[tuple[int, int, str]]]


def words(text: str) -> list[re.Match]:
    """Seed-rule words, to cut test inputs (not groundwire's words: see the module docstring)."""
    return list(WORD.finditer(text.translate(_QUOTE_CHARS)))


def from_utf16(text: str, spans: list[list]) -> list[tuple[int, int, str]]:
    """Convert [(start, end, key)] with UTF-16 offsets into `text` to code-point offsets."""
    at16 = {}
    u = 0
    for i, ch in enumerate(text):
        at16[u] = i
        u += 2 if ord(ch) > 0xFFFF else 1
    at16[u] = len(text)
    return [(at16[s], at16[e], k) for s, e, k in spans]


def ts_words(texts: list[str]) -> Segmented:
    """groundwire's words of every text (one `npx tsx scripts/moot-words.ts` run), code-point offsets."""
    unique = list(dict.fromkeys(texts))
    out = subprocess.run(
        ["npx", "tsx", str(ROOT / "scripts" / "moot-words.ts")],
        input=json.dumps(unique), capture_output=True, text=True, encoding="utf-8", check=True, cwd=ROOT,
    )
    spans = json.loads(out.stdout)
    return {t: from_utf16(t, s) for t, s in zip(unique, spans)}


def normalize(text: str, segmented: Segmented) -> str:
    return " ".join(k for _, _, k in segmented[text])


def best_span(quote: str, sources: list[str], segmented: Segmented) -> tuple[str, float, int]:
    """(span, ratio, source index); ("", 0.0, -1) when nothing scores above 0."""
    target = normalize(quote, segmented)
    n = len(target.split())
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)
    best, best_ratio, best_src = "", 0.0, -1
    for s, src in enumerate(sources):
        ws = segmented[src]
        keys = [k for _, _, k in ws]
        for size in range(max(1, n - 2), n + 3):
            for i in range(len(ws) - size + 1):
                matcher.set_seq1(" ".join(keys[i : i + size]))
                if matcher.real_quick_ratio() <= best_ratio:
                    continue
                if matcher.quick_ratio() <= best_ratio:
                    continue
                ratio = matcher.ratio()
                if ratio > best_ratio:
                    best, best_ratio, best_src = src[ws[i][0] : ws[i + size - 1][1]], ratio, s
    return best, best_ratio, best_src
