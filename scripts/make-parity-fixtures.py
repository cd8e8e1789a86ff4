#!/usr/bin/env python3
"""Generate test/fixtures/moot/parity.json: bestSpan cases whose expected values
come from python3's difflib (the seed's algorithm, bench/python/best_span_reference.py).

Usage: python3 scripts/make-parity-fixtures.py [BOOKS_DIR] [OUT]
  BOOKS_DIR defaults to ../shared/data/books, OUT to test/fixtures/moot/parity.json.
Deterministic (fixed random seed). Passages are cut from the public-domain books
(see test/fixtures/moot/NOTICE.md); each case names its sources by index into
the shared "passages" table to keep the file small.

Words come from groundwire itself (ts/match/words.ts through scripts/moot-words.ts,
one `npx tsx` run for all texts): Python's standard library has no UAX #29 word
segmentation, so the oracle computes difflib ratios on groundwire's key
sequences (see bench/python/best_span_reference.py). Needs node_modules.
"""
from __future__ import annotations

import difflib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench" / "python"))
from best_span_reference import best_span, normalize, ts_words, words  # noqa: E402

BOOKS = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "books"
OUT = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "test" / "fixtures" / "moot" / "parity.json"
FILES = [
    "novel__frankenstein.txt",
    "novel__pride-and-prejudice.txt",
    "diary__pepys-1660.txt",
    "dictionary__devils-dictionary.txt",
    "scripture__kjv.txt",
]
rng = random.Random(20240517)


def passages_of(text: str, count: int) -> list[str]:
    """`count` passages of 300-1500 characters from the body of a book (paragraph-aligned)."""
    paras = [p.strip() for p in text.split("\n\n") if p.strip()]
    lo, hi = int(len(paras) * 0.05), int(len(paras) * 0.85)
    out: list[str] = []
    tries = 0
    while len(out) < count and tries < count * 50:
        tries += 1
        i = rng.randrange(lo, hi)
        chunk = paras[i]
        while len(chunk) < 300 and i + 1 < len(paras):
            i += 1
            chunk += "\n\n" + paras[i]
        if len(chunk) > 1500:
            cut = chunk.rfind(" ", 0, rng.randrange(900, 1500))
            chunk = chunk[:cut]
        if len(chunk) >= 300 and len(words(chunk)) >= 40:
            out.append(chunk)
    return out


ALL: list[str] = []
for name in FILES:
    text = (BOOKS / name).read_text(encoding="utf-8")
    ALL.extend(passages_of(text, 24))

NON_BMP = "𝔄𝔅𝔞𝔟𝔠𝔡𝔢𝔣"  # Mathematical Fraktur letters (category L, outside the BMP)
ACCENTS = {"e": "é", "a": "à", "o": "ö", "u": "ü", "i": "ï", "c": "ç", "n": "ñ", "s": "ß"}


def slice_words(src: str, i: int, k: int) -> str:
    ws = words(src)
    return src[ws[i].start() : ws[i + k - 1].end()]


def misspell(word: str) -> str:
    if len(word) < 2:
        return word + "x"
    j = rng.randrange(len(word))
    op = rng.choice(["swap", "drop", "replace", "double"])
    if op == "swap" and j + 1 < len(word):
        return word[:j] + word[j + 1] + word[j] + word[j + 2 :]
    if op == "drop":
        return word[:j] + word[j + 1 :]
    if op == "double":
        return word[:j] + word[j] + word[j:]
    return word[:j] + rng.choice("etaoinshrdlu") + word[j + 1 :]


passages: list[str] = []
index_of: dict[str, int] = {}


def pid(p: str) -> int:
    if p not in index_of:
        index_of[p] = len(passages)
        passages.append(p)
    return index_of[p]


cases: list[dict] = []
pending: list[tuple[str, str, list[str]]] = []


def add(kind: str, quote: str, sources: list[str]) -> None:
    """Queue a case; expected values are computed at the end, once groundwire's words of every text are known."""
    pending.append((kind, quote, sources))


def compute() -> None:
    texts = [t for _, q, srcs in pending for t in [q, *srcs]]
    seg = ts_words(texts)
    for kind, quote, sources in pending:
        text, ratio, src = best_span(quote, sources, seg)
        case = {"kind": kind, "quote": quote, "sources": [pid(s) for s in sources], "text": text, "source": src,
                "ratio": ratio, "ratioRepr": repr(ratio)}
        target = normalize(quote, seg)
        if len(target) >= 200 and text:
            # record when autojunk (difflib's default) would have scored the chosen window differently
            win = " ".join(k for _, _, k in ts_words([text])[text])
            on = difflib.SequenceMatcher(None, win, target).ratio()
            case["autojunkRatio"] = on
        cases.append(case)


def pick_sources(main: str) -> list[str]:
    others = rng.sample(ALL, rng.choice([0, 1, 2, 3]))
    srcs = [p for p in others if p != main]
    srcs.insert(rng.randrange(len(srcs) + 1), main)
    return srcs


def quote_from(src: str, kmin: int = 3, kmax: int = 14) -> tuple[list[str], int, int]:
    ws = words(src)
    k = rng.randint(kmin, min(kmax, len(ws)))
    i = rng.randrange(len(ws) - k + 1)
    return [w.group() for w in ws[i : i + k]], i, k


for rep in range(40):
    for kind in ["exact", "drop", "insert", "misspell", "curly", "ellipsis", "upper", "mixed"]:
        main = rng.choice(ALL)
        ws, i, k = quote_from(main)
        if kind == "exact":
            q = slice_words(main, i, k)
        elif kind == "drop":
            del ws[rng.randrange(len(ws))]
            q = " ".join(ws)
        elif kind == "insert":
            ws.insert(rng.randrange(len(ws) + 1), rng.choice(["very", "the", "not", "quite", "indeed", "and"]))
            q = " ".join(ws)
        elif kind == "misspell":
            for _ in range(rng.choice([1, 2])):
                j = rng.randrange(len(ws))
                ws[j] = misspell(ws[j])
            q = " ".join(ws)
        elif kind == "curly":
            q = "“" + slice_words(main, i, k).replace("'", "’") + "”"
        elif kind == "ellipsis":
            if len(ws) >= 6:
                a = rng.randint(2, len(ws) - 3)
                b = rng.randint(a + 1, len(ws) - 1)
                q = " ".join(ws[:a]) + rng.choice([" ... ", " … ", "... "]) + " ".join(ws[b:])
            else:
                q = " ".join(ws) + "…"
        elif kind == "upper":
            q = slice_words(main, i, k).upper()
        else:
            j = rng.randrange(len(ws))
            ws[j] = misspell(ws[j])
            del ws[rng.randrange(len(ws))]
            q = " ".join(ws)
        add(kind, q, pick_sources(main))

# windows at the start and at the end of a passage, with a word the passage lacks outside it
for rep in range(30):
    main = rng.choice(ALL)
    ws = [w.group() for w in words(main)]
    k = rng.randint(3, 10)
    extra = rng.choice(["the", "yesterday", "and so", "whereupon"])
    add("start", extra + " " + " ".join(ws[:k]), pick_sources(main))
    add("end", " ".join(ws[-k:]) + " " + extra, pick_sources(main))
    add("start-exact", " ".join(ws[: rng.randint(1, 4)]), [main])
    add("end-exact", " ".join(ws[-rng.randint(1, 4) :]), [main])

# non-ASCII letters: accented letters in the quote, and letters outside the BMP in source and quote
for rep in range(30):
    main = rng.choice(ALL)
    ws, i, k = quote_from(main)
    j = rng.randrange(len(ws))
    ws[j] = "".join(ACCENTS.get(c, c) for c in ws[j])
    add("accents", " ".join(ws), pick_sources(main))
    # a passage with Fraktur letters spliced in (code points above U+FFFF: two UTF-16 units each)
    pw = words(main)
    t = rng.randrange(len(pw))
    w = pw[t]
    fr = rng.choice(NON_BMP) + main[w.start() + 1 : w.end()] + rng.choice(NON_BMP)
    spliced = main[: w.start()] + fr + main[w.end() :]
    lo = max(0, t - rng.randint(1, 6))
    k2 = min(len(pw) - lo, rng.randint(3, 10))
    q = slice_words(spliced, lo, k2)
    if rng.random() < 0.5:
        qw = [m.group() for m in words(q)]
        qw[rng.randrange(len(qw))] = misspell(qw[rng.randrange(len(qw))])
        q = " ".join(qw)
    add("non-bmp", q, pick_sources(spliced))

# empty, punctuation-only, one- and two-word quotes
for q in ["", "...", " — , ; ", "“”", "…"]:
    add("empty", q, [rng.choice(ALL), rng.choice(ALL)])
for rep in range(25):
    main = rng.choice(ALL)
    ws, i, k = quote_from(main, 1, 1)
    add("one-word", ws[0], pick_sources(main))
    add("one-word-miss", misspell(ws[0]), pick_sources(main))
    ws, i, k = quote_from(main, 2, 2)
    add("two-words", " ".join(ws), pick_sources(main))
add("no-sources", "the old mill", [])

# ties: the same passage twice, a phrase repeated inside one source, very common words
for rep in range(20):
    main = rng.choice(ALL)
    ws, i, k = quote_from(main)
    ws[rng.randrange(len(ws))] = misspell(ws[rng.randrange(len(ws))])
    add("tie-duplicate-source", " ".join(ws), [main, rng.choice(ALL), main])
    phrase = slice_words(main, i, k)
    add("tie-repeated-phrase", misspell(phrase), [main + "\n\n" + phrase + " and again " + phrase])
    add("tie-common-words", rng.choice(["of the", "and the", "in the", "it was the", "that he", "I am"]), pick_sources(main))

# unrelated quotes (low ratios, many near-ties) and long quotes (> 200 characters: autojunk would differ)
for rep in range(20):
    main = rng.choice(ALL)
    other = rng.choice(ALL)
    ws, i, k = quote_from(other)
    add("unrelated", " ".join(ws), pick_sources(main))
for rep in range(15):
    main = rng.choice(ALL)
    ws, i, k = quote_from(main, 36, 44)
    ws[rng.randrange(len(ws))] = misspell(ws[rng.randrange(len(ws))])
    del ws[rng.randrange(len(ws))]
    add("long", " ".join(ws), [main])

# field case: a window clipped at the start of a passage
add("field-clipped-start", "the old mill", ["old mill stood by the river"])

# Unicode text (issue 11): decomposed vs composed accents, ligatures, soft hyphens, scripts without
# spaces, combining vowel signs, _emphasis_. The sentences below are written for this fixture.
UNICODE_SOURCES = [
    "She ordered a cafe\u0301 au lait and sat by the window, where the re\u0301sume\u0301 lay open.",
    "She ordered a caf\u00e9 au lait and sat by the window, where the r\u00e9sum\u00e9 lay open.",
    "It was the \ufb01rst \ufb02ight over the sea, and the of\ufb01cers were baf\ufb02ed by the \ufb00ort.",
    "A simple exam\u00adple of the method works well when the inde\u00adpen\u00addent parts agree.",
    "\u6211\u4eec\u4eca\u5929\u53bb\u516c\u56ed\u6563\u6b65\uff0c\u7136\u540e\u5728\u6cb3\u8fb9\u5403\u5348\u996d\u3002\u5929\u6c14\u5f88\u597d\u3002",
    "\u0e27\u0e31\u0e19\u0e19\u0e35\u0e49\u0e2d\u0e32\u0e01\u0e32\u0e28\u0e14\u0e35\u0e21\u0e32\u0e01 \u0e40\u0e23\u0e32\u0e44\u0e1b\u0e17\u0e30\u0e40\u0e25\u0e01\u0e31\u0e19",
    "\u0928\u0926\u0940 \u0915\u0947 \u0915\u093f\u0928\u093e\u0930\u0947 \u090f\u0915 \u092a\u0941\u0930\u093e\u0928\u093e \u092e\u0902\u0926\u093f\u0930 \u0925\u093e \u0914\u0930 \u0932\u094b\u0917 \u0935\u0939\u093e\u0901 \u0906\u0924\u0947 \u0925\u0947\u0964",
    "He said it was _not_ the river but the mill_race that flooded the lower fields.",
]
UNICODE_QUOTES = [
    ("nfc-composed-quote", "a caf\u00e9 au lait and sat", 0),
    ("nfc-decomposed-quote", "a cafe\u0301 au lait and sat", 1),
    ("nfc-near-miss", "where the resume lay opn", 0),
    ("ligature", "the first flight over the sea", 2),
    ("ligature-near-miss", "the oficers were baffled by", 2),
    ("soft-hyphen", "simple example of the method", 3),
    ("soft-hyphen-near-miss", "the independant parts agree", 3),
    ("cjk", "\u4eca\u5929\u53bb\u516c\u56ed", 4),
    ("cjk-near-miss", "\u7136\u540e\u5728\u6cb3\u8fb9\u5403\u665a\u996d", 4),
    ("thai", "\u0e2d\u0e32\u0e01\u0e32\u0e28\u0e14\u0e35\u0e21\u0e32\u0e01", 5),
    ("devanagari", "\u090f\u0915 \u092a\u0941\u0930\u093e\u0928\u093e \u092e\u0902\u0926\u093f\u0930", 6),
    ("devanagari-near-miss", "\u090f\u0915 \u092a\u0941\u0930\u093e\u0928 \u092e\u0902\u0926\u093f\u0930 \u0925\u093e", 6),
    ("underscore", "it was not the river", 7),
    ("underscore-near-miss", "the mill race that floded", 7),
]
for kind, quote, at in UNICODE_QUOTES:
    add(kind, quote, [UNICODE_SOURCES[at]])
    add(kind, quote, [rng.choice(ALL), UNICODE_SOURCES[at]])

compute()

OUT.parent.mkdir(parents=True, exist_ok=True)
doc = {
    "generatedBy": "scripts/make-parity-fixtures.py (python3 difflib.SequenceMatcher, autojunk=False), do not edit",
    "python": sys.version.split()[0],
    "passages": passages,
    "cases": cases,
}
OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
kinds: dict[str, int] = {}
for c in cases:
    kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
differs = sum(1 for c in cases if "autojunkRatio" in c and c["autojunkRatio"] != c["ratio"])
print(f"{len(cases)} cases, {len(passages)} passages, {OUT.stat().st_size} bytes -> {OUT}")
print(kinds)
print(f"long cases where autojunk would change the ratio: {differs}")
