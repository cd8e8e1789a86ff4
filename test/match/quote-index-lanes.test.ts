// The lanes pass (assembly/quote-index/lanes.ts qiScanLanes, TS twin scanLanesTs in ./lanes-twin.ts;
// proofs at searchBest (h), (i) in ts/match/quote-index/search.ts): the quote's first min(lb, W)
// characters in 16 lanes of W = 16 or 32 bits over all texts at once, semi-global indel distance, marks at
// E ≤ D (the indel budget of a window ≥ T), runs marked around each lane's start for the windows
// straddling it. At T = the best window's ratio (D as tight as it gets), the windows ≥ T must be
// the exhaustive scan's, for quotes anywhere and across every lane boundary; narrowing the runs at
// the boundaries must lose windows there.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { __quoteIndexInternals, createQuoteIndex, rankHits, scanExhaustive, scanTs, type WindowHit } from "../../ts/match/quote-index/index.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";
import { scanLanesTs } from "./lanes-twin.js";
import { depth, spread } from "../depth.js";
import { digest, referenceResults } from "../reference-results.js";

// npm test: a fixed seeded sample of each sweep (every quote length, edit count and oracle kept; the
// boundary sweep: the first and the last lane boundary, 0 and 1 edits);
// npm run test:deep (test/depth.ts): all of it.
// The oracles (the exhaustive scan, the TS linear pass over ~100 K characters) are most of the cost:
// npm test takes their windows from test/fixtures/reference/quote-index-lanes.json
// (test/reference-results.ts); npm run test:deep scans every time and checks the stored ones.
const references = referenceResults("quote-index-lanes");
const QUOTES = depth(8, 24), BOUNDARIES = spread(Array.from({ length: 15 }, (_, i) => i + 1), 2), LOCATES = depth(12, 40);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const { prepare, prepareQuote, searchPaths, tuning } = __quoteIndexInternals;

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
  const textsKey = digest(texts);
  const best = (q: ReturnType<typeof prepareQuote>["q"], quote: string) =>
    references.value({ texts: textsKey, quote, best: 0.8 }, () => {
      const hits = scanTs(ix, q, 0.8);
      return hits.length ? Math.max(...hits.map((h) => h.ratio)) : 0;
    });
  /** The windows ≥ T of the exhaustive scan (`exhaustive`) or of the TS linear pass (equal to it), as keys. */
  const oracle = (q: ReturnType<typeof prepareQuote>["q"], quote: string, T: number, exhaustive: boolean) =>
    references.value({ texts: textsKey, quote, T, exhaustive }, () => key(exhaustive ? scanExhaustive(ix, q, T) : scanTs(ix, q, T)));

  it("windows ≥ the best ratio equal the exhaustive scan's: the kernel and its twin, at 16 and 32 bits", () => {
    const rand = mulberry32(1616);
    const checked = { 16: 0, 32: 0 };
    for (let k = 0; k < QUOTES; k++) {
      const t = k % 3;
      const nw = words(texts[t]).length;
      const n = [5, 7, 9, 12, 16, 20][k % 6];
      const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1 + (k % 3), rand);
      const q = prepareQuote(ix, quote).q;
      const T = best(q, quote);
      if (T < 0.8) continue;
      // the oracle: the exhaustive scan for every fourth quote, else the TS linear pass (equal to it:
      // the parity suite, test/match/quote-index.test.ts)
      const want = oracle(q, quote, T, k % 4 === 0);
      const D = budget(q.ids.length, T);
      for (const width of [16, 32] as const) {
        if (Math.min(q.ids.length, width) <= D) continue;
        const w = binding.scanLanes(owner, ix, q, T, -1, width, D, 1e6, 1e6);
        expect(w && key(w), `${quote} W=${width}`).toEqual(want);
        checked[width]++;
        const s = scanLanesTs(ix, q, T, width, D);
        expect(s && key(s), `${quote} W=${width} (ts)`).toEqual(want);
      }
    }
    expect(checked[16]).toBeGreaterThan(depth(2, 12));
    expect(checked[32]).toBeGreaterThan(depth(4, 16));
  }, 600_000);

  it.each([16, 32] as const)("quotes across every lane boundary at %i bits: the exhaustive scan's windows; narrowing the boundary runs loses some", (width) => {
    const rand = mulberry32(15);
    const srcOf = (v: number) => {
      let s = 0;
      while (ix.sourceWords[s + 1] <= v) s++;
      return s;
    };
    let lostWhenNarrowed = 0, boundaries = 0;
    for (const l of BOUNDARIES) {
      const c = l * share;
      // the word holding character c (or the next), and its text
      let v = 0;
      while (ix.charEnd[v] <= c) v++;
      const s = srcOf(v);
      const w0 = ix.sourceWords[s];
      for (const n of [7, 10, 13]) {
        // start 1 or 2 words before the boundary word (c inside the quote's first ~16 characters,
        // the part the lanes look at) or with c in its middle: the quote straddles c
        const back = n === 13 ? n >> 1 : n === 7 ? 1 : 2;
        const i = Math.max(0, v - w0 - back);
        const quote = quoteAt(texts[s], i, n, l % 3 === 0 ? 0 : 1, rand);
        const q = prepareQuote(ix, quote).q;
        const T = best(q, quote);
        if (T < 0.8) continue;
        const D = budget(q.ids.length, T);
        if (Math.min(q.ids.length, width) <= D) continue;
        boundaries++;
        const want = oracle(q, quote, T, boundaries % 3 === 0);
        expect(key(binding.scanLanes(owner, ix, q, T, -1, width, D, 1e6, 1e6)!), quote).toEqual(want);
        expect(key(scanLanesTs(ix, q, T, width, D)!), quote).toEqual(want);
        // the runs at the boundaries cut short (not wide enough for the straddling windows)
        const narrowed = key(scanLanesTs(ix, q, T, width, D, Infinity, Infinity, -(q.ids.length + D)) ?? []);
        if (narrowed.length < want.length) lostWhenNarrowed++;
      }
    }
    expect(boundaries).toBeGreaterThan(depth(3, 15));
    expect(lostWhenNarrowed).toBeGreaterThan(depth(0, 3));
  }, 600_000);

  it("locate(q, {limit}) takes the lanes pass and answers as the full scan does", () => {
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const small = tuning.smallWords;
    tuning.smallWords = 0; // the best-first search on this ~20 K-word fixture
    tuning.grams = false; // the q-gram filter would answer most of these first (quote-index-grams.test.ts)
    const lanes0 = searchPaths.lanes;
    const rand = mulberry32(33);
    try {
      for (let k = 0; k < LOCATES; k++) {
        const t = k % 3;
        const nw = words(texts[t]).length;
        const n = [9, 11, 14, 20, 26][k % 5];
        // one word changed: T ≈ 0.9–0.98, D ≤ 8 for the shorter quotes (the lanes' case)
        const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1, rand);
        const q = prepareQuote(ix, quote).q;
        for (const limit of [1, 2]) {
          const want = rankHits(ix, scanTs(ix, q, 0.8), false, limit).map((h) => [h.word, h.size, h.ratio]);
          const got = wasm.locate(quote, { limit }).map((g) => [g.word + ix.sourceWords[g.sourceIndex], g.words, g.ratio]);
          expect(got, quote).toEqual(want);
        }
      }
    } finally {
      tuning.smallWords = small;
      tuning.grams = true;
    }
    expect(searchPaths.lanes - lanes0).toBeGreaterThan(1);
  }, 600_000);

  it("locate(q, {limit}) takes the 32-bit lanes when 8 < D (2–3 edits in 6–12 words) and answers as the full scan does", () => {
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const small = tuning.smallWords;
    tuning.smallWords = 0;
    tuning.grams = false; // the q-gram filter declines these at the books' size, not always on this fixture
    const lanes32 = searchPaths.lanes32;
    const rand = mulberry32(3232);
    let wide = 0;
    try {
      for (let k = 0; k < LOCATES; k++) {
        const t = k % 3;
        const nw = words(texts[t]).length;
        const n = [6, 7, 8, 10, 12][k % 5];
        const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 2 + (k % 2), rand);
        const q = prepareQuote(ix, quote).q;
        const T = best(q, quote);
        if (T >= 0.8 && budget(q.ids.length, T) > 8) wide++;
        for (const limit of [1, 2]) {
          const want = rankHits(ix, scanTs(ix, q, 0.8), false, limit).map((h) => [h.word, h.size, h.ratio]);
          const got = wasm.locate(quote, { limit }).map((g) => [g.word + ix.sourceWords[g.sourceIndex], g.words, g.ratio]);
          expect(got, quote).toEqual(want);
        }
      }
    } finally {
      tuning.smallWords = small;
      tuning.grams = true;
    }
    expect(wide).toBeGreaterThan(depth(3, 8));
    expect(searchPaths.lanes32 - lanes32).toBeGreaterThan(3);
  }, 600_000);

  it("gives up (null) past its mark budget, and a quote shorter than the lane keeps its own length", () => {
    const q = prepareQuote(ix, "of the and to in a").q; // common words at D = 7: marks everywhere
    expect(binding.scanLanes(owner, ix, q, 0.8, -1, 16, 7, 10, 1e6)).toBeNull();
    // 32 bits: common words over 32 characters at D = 20 (a low T) mark everywhere too
    const q32 = prepareQuote(ix, "of the and to in a that is of the and to it").q;
    expect(q32.ids.length).toBeGreaterThan(32);
    expect(binding.scanLanes(owner, ix, q32, 0.7, -1, 32, 20, 10, 1e6)).toBeNull();
    expect(scanLanesTs(ix, q, 0.8, 16, 7, 10)).toBeNull();
    // quotes of 2–3 short words (< 16 characters): m = lb, the lane's low rows match nothing
    const rand = mulberry32(5);
    let short = 0;
    for (let k = 0; k < 40 && short < 6; k++) {
      const src = texts[k % 3];
      const quote = quoteAt(src, 100 + Math.floor(rand() * 5000), 3, 0, rand);
      const q3 = prepareQuote(ix, quote).q;
      if (q3.ids.length >= 16) continue;
      for (const D of [0, 1, 2, 4]) {
        if (D >= q3.ids.length) continue;
        // at the threshold whose budget is D (the least T with ⌊2lb(1 − T)/T⌋ ≤ D)
        const T = (2 * q3.ids.length) / (2 * q3.ids.length + D + 1) + 1e-5;
        expect(budget(q3.ids.length, T)).toBeLessThanOrEqual(D);
        for (const width of [16, 32] as const) expect(key(binding.scanLanes(owner, ix, q3, T, -1, width, D, 1e6, 1e6)!), quote).toEqual(key(scanTs(ix, q3, T)));
      }
      short++;
    }
    expect(short).toBe(6);
  }, 600_000);
});
