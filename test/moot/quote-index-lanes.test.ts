// The lanes pass (assembly/quote-index.ts qiScanLanes, TS twin scanLanesTs; proofs at searchBest
// (h), (i) in ts/moot/quote-index.ts): the quote's first min(lb, W) characters in 16 lanes of
// W = 16 or 32 bits over all texts at once, semi-global indel or Levenshtein distance, marks at
// E ≤ D (the indel budget of a window ≥ T), runs marked around each lane's start for the windows
// straddling it. At T = the best window's ratio (D as tight as it gets), the windows ≥ T must be
// the exhaustive scan's, for quotes anywhere and across every lane boundary; narrowing the runs at
// the boundaries must lose windows there.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { __quoteIndexInternals, createQuoteIndex, rankHits, scanExhaustive, scanTs, type WindowHit } from "../../ts/moot/quote-index.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { wasmFor } from "../../bindings/wasm.js";
import { words } from "../../ts/moot/words.js";
import { mulberry32 } from "../prng.js";

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const { prepare, prepareQuote, scanLanesTs, searchPaths, tuning } = __quoteIndexInternals;

const key = (hits: WindowHit[]) => hits.map((h) => `${h.word}/${h.size}/${h.ratio}`).sort();
/** D of searchBest (b) for a quote of lb characters at threshold T. */
const budget = (lb: number, T: number) => Math.floor((2 * lb * (1 - T)) / T + 1e-6);
const EDITS = ["indeed", "not", "very", "the"];

/** A quote of n words from text words [i, i + n) of `src`, with `edits` word substitutions or drops. */
function quoteAt(src: string, i: number, n: number, edits: number, rand: () => number): string {
  const ws = words(src).map((w) => src.slice(w.start, w.end));
  const picked = ws.slice(i, i + n);
  for (let e = 0; e < edits; e++) {
    const j = 1 + Math.floor(rand() * (picked.length - 2));
    if (e % 2) picked.splice(j, 1);
    else picked[j] = EDITS[e % EDITS.length];
  }
  return picked.join(" ");
}

describe("quote index, the lanes pass", () => {
  // three texts of the real books (~100 K characters in all): lanes cross texts
  const texts = [fixture.passages.slice(0, 50).join(" "), fixture.passages.slice(50, 100).join("\n\n"), fixture.passages.slice(100).join(" ")];
  const ix = prepare(texts);
  const C = ix.chars.length;
  const share = (C + 15) >>> 4;
  const binding = quoteIndexBindingFor(wasmFor("wasm")!);
  const owner = {};
  // the quote's best window (the linear pass at 0.8, which the parity suite checks) and its T
  const best = (q: ReturnType<typeof prepareQuote>["q"]) => {
    const hits = scanTs(ix, q, 0.8);
    return hits.length ? Math.max(...hits.map((h) => h.ratio)) : 0;
  };

  it("windows ≥ the best ratio equal the exhaustive scan's, widths 16 and 32, indel and Levenshtein, both backends", () => {
    const rand = mulberry32(1616);
    let checked = 0;
    for (let k = 0; k < 24; k++) {
      const t = k % 3;
      const nw = words(texts[t]).length;
      const n = [5, 7, 9, 12, 16, 20][k % 6];
      const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1 + (k % 3), rand);
      const q = prepareQuote(ix, quote).q;
      const T = best(q);
      if (T < 0.8) continue;
      // the oracle: the exhaustive scan for every fourth quote, else the TS linear pass (equal to it:
      // the parity suite, test/moot/quote-index.test.ts)
      const want = key(k % 4 === 0 ? scanExhaustive(ix, q, T) : scanTs(ix, q, T));
      const D = budget(q.ids.length, T);
      for (const width of [16, 32] as const) {
        if (Math.min(q.ids.length, width) <= D) continue;
        for (const indel of [true, false]) {
          const w = binding.scanLanes(owner, ix, q, T, -1, width, indel, D, 1e6, 1e6);
          const s = scanLanesTs(ix, q, T, width, indel, D);
          expect(w && key(w), `${quote} W=${width} indel=${indel}`).toEqual(want);
          expect(s && key(s), `${quote} W=${width} indel=${indel} (ts)`).toEqual(want);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  }, 600_000);

  it("quotes across every lane boundary: the exhaustive scan's windows; narrowing the boundary runs loses some", () => {
    const rand = mulberry32(15);
    const srcOf = (v: number) => {
      let s = 0;
      while (ix.sourceWords[s + 1] <= v) s++;
      return s;
    };
    let lostWhenNarrowed = 0, boundaries = 0;
    for (let l = 1; l < 16; l++) {
      const c = l * share;
      // the word holding character c (or the next), and its text
      let v = 0;
      while (ix.charEnd[v] <= c) v++;
      const s = srcOf(v);
      const w0 = ix.sourceWords[s];
      for (const [n, width] of [[7, 32], [10, 16], [12, 32]] as const) {
        // start 1..n−1 words before the boundary word: the quote straddles c
        const i = Math.max(0, v - w0 - 1 - Math.floor(rand() * (n - 1)));
        const quote = quoteAt(texts[s], i, n, 1 + (l % 2), rand);
        const q = prepareQuote(ix, quote).q;
        const T = best(q);
        if (T < 0.8) continue;
        const D = budget(q.ids.length, T);
        if (Math.min(q.ids.length, width) <= D) continue;
        boundaries++;
        const want = key(boundaries % 3 === 0 ? scanExhaustive(ix, q, T) : scanTs(ix, q, T));
        expect(key(binding.scanLanes(owner, ix, q, T, -1, width, true, D, 1e6, 1e6)!), quote).toEqual(want);
        expect(key(scanLanesTs(ix, q, T, width, true, D)!), quote).toEqual(want);
        // the runs at the boundaries cut short (not wide enough for the straddling windows)
        const narrowed = key(scanLanesTs(ix, q, T, width, true, D, Infinity, Infinity, -(q.ids.length + D)) ?? []);
        if (narrowed.length < want.length) lostWhenNarrowed++;
      }
    }
    expect(boundaries).toBeGreaterThan(25);
    expect(lostWhenNarrowed).toBeGreaterThan(5);
  }, 600_000);

  it("locate(q, {limit}) takes the lanes pass and answers as the full scan does", () => {
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const small = tuning.smallWords;
    tuning.smallWords = 0; // the best-first search on this ~20 K-word fixture
    const lanes0 = searchPaths.lanes;
    const rand = mulberry32(33);
    try {
      for (let k = 0; k < 30; k++) {
        const t = k % 3;
        const nw = words(texts[t]).length;
        const n = [6, 8, 11, 14, 20][k % 5];
        const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1 + (k % 3), rand);
        const q = prepareQuote(ix, quote).q;
        for (const limit of [1, 2]) {
          const want = rankHits(ix, scanTs(ix, q, 0.8), false, limit).map((h) => [h.word, h.size, h.ratio]);
          const got = wasm.locate(quote, { limit }).map((g) => [g.word + ix.sourceWords[g.sourceIndex], g.words, g.ratio]);
          expect(got, quote).toEqual(want);
        }
      }
    } finally {
      tuning.smallWords = small;
    }
    expect(searchPaths.lanes - lanes0).toBeGreaterThan(5);
  }, 600_000);

  it("gives up (null) past its mark budget, and a quote shorter than the lane keeps its own length", () => {
    const q = prepareQuote(ix, "the of and to in").q; // common words, D large: marks everywhere
    expect(binding.scanLanes(owner, ix, q, 0.8, -1, 32, true, budget(q.ids.length, 0.8), 10, 1e6)).toBeNull();
    expect(scanLanesTs(ix, q, 0.8, 32, true, budget(q.ids.length, 0.8), 10)).toBeNull();
    // 5 words (~20 characters) in 32-bit lanes: m = lb, the lane's low rows match nothing
    const src = texts[1];
    const quote = quoteAt(src, 300, 5, 1, mulberry32(5));
    const q5 = prepareQuote(ix, quote).q;
    const T = best(q5);
    expect(T).toBeGreaterThanOrEqual(0.8);
    const D = budget(q5.ids.length, T);
    expect(q5.ids.length).toBeLessThan(32);
    expect(key(binding.scanLanes(owner, ix, q5, T, -1, 32, true, D, 1e6, 1e6)!)).toEqual(key(scanExhaustive(ix, q5, T)));
  }, 600_000);
});
