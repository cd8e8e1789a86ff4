// bestSpan / createQuoteMatcher / sequenceRatio: field cases, edges, errors, arena growth.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_QUOTE_WORDS, bestSpan, createQuoteMatcher, sequenceRatio } from "../../ts/match/best-span.js";
import { matchingBlocks, codePoints } from "../../ts/match/sequence-match.js";
import * as moot from "../../ts/moot/index.js";
import { SEQ_EXPORTS } from "../../bindings/sequence-match.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { OracleMatcher, cps, oracleRatio } from "./difflib-oracle.js";

const SHARED = new URL("../../../shared/data", import.meta.url);
const NONE = { text: "", ratio: 0, source: -1, start: -1, end: -1 };

describe("sequenceRatio (difflib, autojunk off, code points)", () => {
  it("field case: counts the one 2-character block between a 26-char a and a 233-char b of repeated characters", () => {
    const a = "abcdefghijklmnopqrstuvwxyz";
    const b = "ace".repeat(77) + "mn";
    expect([a.length, b.length]).toEqual([26, 233]);
    // python3 -c "import difflib,string; print(repr(difflib.SequenceMatcher(None, string.ascii_lowercase, 'ace'*77+'mn', autojunk=False).ratio()))"
    // → 0.03861003861003861   (blocks a,c,e then "mn": 2*5/259; with autojunk on python gives 0.023166023166023165)
    expect(sequenceRatio(a, b)).toBe(0.03861003861003861);
    expect(oracleRatio(a, b, true)).toBe(0.023166023166023165); // what difflib's default (autojunk) would say
  });

  it("is asymmetric as difflib is: ties pick the earliest block in seq1, then in seq2", () => {
    // python3 -c "import difflib; print(difflib.SequenceMatcher(None,'aac','abcabca',autojunk=False).ratio(), difflib.SequenceMatcher(None,'abcabca','aac',autojunk=False).ratio())"
    expect(sequenceRatio("aac", "abcabca")).toBe(0.6);
    expect(sequenceRatio("abcabca", "aac")).toBe(0.4);
  });

  it("keeps autojunk off on strings over 200 characters, where difflib's default would differ", () => {
    // a long fixture case (Frankenstein, normalized window vs misspelled quote)
    const a = "was surprised to observe the despair that succeeded the joy i at first expressed on receiving new from my friends i threw the letter on the table and covered my face with my hands my dear frankenstein exclaimed henry when he";
    const b = "was surprised to observe the despair that succeeded the joy i at first expressed on receiving from my friends i threw the letter on the table and hte my face with my hands my dear frankenstein exclaimed henry when he";
    expect([a.length, b.length]).toEqual([224, 216]);
    // python3: SequenceMatcher(None, a, b, autojunk=False).ratio() → 0.9727272727272728; autojunk=True → 0.9681818181818181
    expect(sequenceRatio(a, b)).toBe(0.9727272727272728);
    expect(oracleRatio(a, b, true)).toBe(0.9681818181818181);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(codePoints("𝔞b")).toEqual([0x1d51e, 98]);
    // python3 -c "import difflib; print(difflib.SequenceMatcher(None,'𝔞x','𝔟x',autojunk=False).ratio())" → 0.5
    expect(sequenceRatio("𝔞x", "𝔟x")).toBe(0.5);
    expect(sequenceRatio("", "")).toBe(1);
    expect(sequenceRatio("abc", "")).toBe(0);
  });

  it("returns difflib's matching blocks (merged, with the sentinel)", () => {
    for (const [x, y] of [["abxcd", "abcd"], ["aac", "abcabca"], ["qabxcd", "abycdf"]]) {
      expect(matchingBlocks(cps(x), cps(y))).toEqual(new OracleMatcher(cps(x), cps(y)).getMatchingBlocks());
    }
    expect(matchingBlocks(cps("abxcd"), cps("abcd"))).toEqual([[0, 0, 2], [3, 2, 2], [5, 4, 0]]);
  });

  it("rejects non-strings", () => {
    expect(() => sequenceRatio(1 as unknown as string, "a")).toThrow(/sequenceRatio: a must be a string, got 1/);
  });
});

describe.each(["wasm", "ts"] as const)("bestSpan — %s backend", (backend) => {
  const opts = { backend };

  it("field case: a window clipped at the start of a passage", () => {
    expect(bestSpan("the old mill", ["old mill stood by the river"], opts)).toEqual({ text: "old mill", ratio: 0.8, source: 0, start: 0, end: 8 });
  });

  it("returns the span exactly as the source writes it, with UTF-16 offsets", () => {
    const src = "He said: “Don’t  look\nback,” and 𝔞𝔟 left.";
    const r = bestSpan("dont look back", ["nothing here", src], opts);
    expect(r).toMatchObject({ text: "Don’t  look\nback", ratio: 1, source: 1 });
    expect(src.slice(r.start, r.end)).toBe(r.text);
    const r2 = bestSpan("𝔞𝔟 left", [src], opts);
    expect(r2).toMatchObject({ text: "𝔞𝔟 left", ratio: 1, start: src.indexOf("𝔞") });
  });

  it("keeps the first of equal windows (earlier source, then smaller size, then earlier start)", () => {
    const p = "the cat sat on the mat";
    expect(bestSpan("the cat sat", [p, p], opts)).toMatchObject({ source: 0, start: 0, ratio: 1 });
    expect(bestSpan("cat sat", ["a cat sat here and a cat sat there"], opts)).toMatchObject({ start: 2, ratio: 1 });
  });

  it("gives the empty result with no sources, an empty quote, or nothing in common", () => {
    expect(bestSpan("the old mill", [], opts)).toEqual(NONE);
    expect(bestSpan("", ["some text"], opts)).toEqual(NONE);
    expect(bestSpan("… — !", ["some text"], opts)).toEqual(NONE);
    expect(bestSpan("xyz", ["abc def"], opts)).toEqual(NONE);
    expect(bestSpan("one two", ["", "   "], opts)).toEqual(NONE);
  });

  it("throws a QuoteTooLongError (413 too_large) above MAX_QUOTE_WORDS and TypeErrors on bad input, naming it", () => {
    const long = Array.from({ length: MAX_QUOTE_WORDS + 1 }, (_, i) => `w${i}`).join(" ");
    expect(() => bestSpan(long, ["w1 w2"], opts)).toThrow(/201 words, more than MAX_QUOTE_WORDS \(200\)/);
    expect(() => bestSpan(long, ["w1 w2"], opts)).toThrow(expect.objectContaining({ name: "QuoteTooLongError", status: 413, code: "too_large" }));
    const atBound = Array.from({ length: MAX_QUOTE_WORDS }, (_, i) => `w${i}`).join(" ");
    expect(bestSpan(atBound, [atBound], opts)).toMatchObject({ ratio: 1, text: atBound });
    expect(() => bestSpan(3 as unknown as string, ["a"], opts)).toThrow(/quote must be a string/);
    expect(() => bestSpan("a", "abc" as unknown as string[], opts)).toThrow(/sources must be an array/);
    expect(() => bestSpan("a", ["ok", 5 as unknown as string], opts)).toThrow(/sources\[1\] must be a string/);
    expect(() => createQuoteMatcher(["a"], opts).match(["a", null as unknown as string])).toThrow(/quotes\[1\]/);
  });

  it("prepares a pool once and answers many quotes (match = bestSpan one by one)", () => {
    const pool = ["It is a truth universally acknowledged, that a single man", "in possession of a good fortune, must be in want of a wife."];
    const m = createQuoteMatcher(pool, opts);
    expect(m.backend).toBe(backend);
    expect(m.size).toBe(2);
    const quotes = ["a singel man", "good fortune must", "want of a wief", ""];
    expect(m.match(quotes)).toEqual(quotes.map((q) => bestSpan(q, pool, opts)));
    expect(m.bestSpan("want of a wief")).toMatchObject({ text: "want of a wife", source: 1 });
    expect(m.match([])).toEqual([]);
  });

  it("reuses a prepared pool across calls only while its strings are equal (a mutated pool is prepared anew)", () => {
    const pool = ["the cat sat on the mat", "a dog lay by the door"];
    const first = bestSpan("dog lay by", pool, { backend });
    expect(first).toEqual({ text: "dog lay by", ratio: 1, source: 1, start: 2, end: 12 });
    // the same strings in another array: the same answer
    expect(bestSpan("dog lay by", [...pool], { backend })).toEqual(first);
    // the caller's array changed in place: the new text is searched, not the cached one
    pool[1] = "a fox ran by the door";
    expect(bestSpan("dog lay by", pool, { backend })).toEqual({ text: "fox ran by", ratio: 0.6, source: 1, start: 2, end: 12 });
    pool.push("the dog lay by the fire");
    expect(bestSpan("dog lay by", pool, { backend })).toEqual({ text: "dog lay by", ratio: 1, source: 2, start: 4, end: 14 });
    // many distinct pools (more than the cache holds), then the first again: still exact
    for (let k = 0; k < 12; k++) expect(bestSpan("dog lay by", [`the dog lay by ${k}`], { backend }).ratio).toBe(1);
    expect(bestSpan("dog lay by", ["the cat sat on the mat", "a dog lay by the door"], { backend })).toEqual(first);
  });

  it("handles 10,000-word sources and pools far larger than the initial arena", () => {
    const vocab = ["river", "mill", "stone", "water", "night", "Élodie", "𝔣ire", "don’t", "old", "by"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    const big = Array.from({ length: 10_000 }, () => vocab[next() % vocab.length]).join(" ");
    const marker = "the quick brown fox jumps over the lazy dog";
    const src = big.slice(0, 40_000) + " " + marker + " " + big.slice(40_000);
    const r = bestSpan("the quikc brown fox jumped over the lazy dog", ["short one", src], opts);
    expect(r.source).toBe(1);
    expect(r.text).toBe(marker);
    expect(r.ratio).toBe(sequenceRatio(marker, "the quikc brown fox jumped over the lazy dog"));
    // many pools through one arena: a small one after a big one, and back
    const small = createQuoteMatcher(["old mill stood by the river"], opts);
    const large = createQuoteMatcher(Array.from({ length: 40 }, (_, i) => big.slice(i * 1000, i * 1000 + 30_000)), opts);
    expect(small.bestSpan("the old mill").text).toBe("old mill");
    const phrase = big.split(" ").slice(2_000, 2_005).join(" ");
    expect(large.bestSpan(phrase)).toMatchObject({ text: phrase, ratio: 1 });
    expect(small.bestSpan("stood by the rivers").text).toBe("stood by the river");
  });
});

describe("wasm and ts agree beyond the fixtures", () => {
  it("on random quotes cut from random text with edits", () => {
    const vocab = "a an the of mill river old stood by night day don't well-known café naïve 𝔞𝔟 I it was".split(" ");
    let seed = 99;
    const next = (k: number) => ((seed = (seed * 48271) % 2147483647) % k);
    for (let t = 0; t < 150; t++) {
      const sources = Array.from({ length: 1 + next(3) }, () => Array.from({ length: 5 + next(40) }, () => vocab[next(vocab.length)]).join(next(2) ? " " : ", "));
      const qw = Array.from({ length: next(9) }, () => vocab[next(vocab.length)]);
      const q = qw.join(" ");
      expect(bestSpan(q, sources, { backend: "wasm" })).toEqual(bestSpan(q, sources, { backend: "ts" }));
    }
  });
});

describe("wasm and ts agree at the 64-bit lane edges of the WASM LCS bound", () => {
  it("on quotes of 63, 64, 65, 127, 128, 129 and 192 characters", () => {
    const text = "when I was oppressed by cold I found a fire which had been left by some wandering beggars and was overcome with delight at the warmth I experienced from it in my joy I thrust my hand into the live embers but quickly drew it out again with a cry of pain";
    const ws = text.split(" ");
    for (const target of [63, 64, 65, 127, 128, 129, 192]) {
      for (let from = 0; from < 12; from += 3) {
        // the shortest run of words from `from` whose normalized length reaches `target`, trimmed to exactly it
        let q = "";
        for (let k = from; k < ws.length && q.length < target; k++) q = q ? q + " " + ws[k] : ws[k];
        q = q.slice(0, target).trim();
        const edited = q.replace(/e/, "a").replace(/ by /, " ");
        for (const quote of [q, edited]) {
          const w = bestSpan(quote, ["I was cold", text], { backend: "wasm" });
          expect(w).toEqual(bestSpan(quote, ["I was cold", text], { backend: "ts" }));
          expect(w.ratio).toBeGreaterThan(0.8);
        }
      }
    }
  });
});

describe("exports", () => {
  it("the package surface and the wasm export list", () => {
    for (const name of ["bestSpan", "createQuoteMatcher", "sequenceRatio", "MAX_QUOTE_WORDS"]) expect(name in moot).toBe(true);
    expect(MAX_QUOTE_WORDS).toBe(200);
    const x = wasmFor("wasm")!;
    for (const name of SEQ_EXPORTS) expect(typeof x[name]).toBe("function");
  });
});

describe.skipIf(!existsSync(SHARED))("bestSpan on a whole book (needs ../shared/data)", () => {
  it("finds a misspelled Pride and Prejudice sentence in the first chapters, same on both backends", () => {
    const text = readFileSync(new URL("../../../shared/data/books/novel__pride-and-prejudice.txt", import.meta.url), "utf8");
    const at = text.indexOf("It is a truth universally acknowledged");
    const chunk = text.slice(at, at + 20_000);
    const q = "a singel man in posession of a good fortune";
    const w = bestSpan(q, [chunk], { backend: "wasm" });
    expect(w.text).toBe("a single man in possession\nof a good fortune");
    expect(bestSpan(q, [chunk], { backend: "ts" })).toEqual(w);
  });
});
