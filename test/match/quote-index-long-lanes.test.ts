// The WASM pass in lanes, at minRatio 0.8, where only characters with a small enough E are marked
// (assembly/quote-index/pass.ts, markLimit), and below ~0.78, where E is stored after every character.
// The pass for quotes over 192 characters (4+ blocks of 64 bits) runs two lanes in one i64x2
// once the text has 8·(n+2) words: lane 1 starts n + 1 words before the middle word and its warm-up
// marks characters of lane 0's share (assembly/quote-index/simd.ts, passEN). Quotes across that middle,
// and elsewhere, give the same windows and ratios as the exhaustive scan.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { __quoteIndexInternals, createQuoteIndex, rankHits, scanExhaustive } from "../../ts/match/quote-index/index.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";
import { digest, referenceResults } from "../reference-results.js";

// npm test: the first quotes of each seeded sweep (every edit count, place and minRatio kept);
// npm run test:deep (test/depth.ts): all of them. The exhaustive scan of a long quote is the cost:
// npm test takes its windows from test/fixtures/reference/quote-index-long-lanes.json
// (test/reference-results.ts); npm run test:deep scans every time and checks the stored ones.
const references = referenceResults("quote-index-long-lanes");
const LONG = depth(4, 12), SHORT = depth(8, 24);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };

describe("quote index, long quotes in two SIMD lanes", () => {
  it("quotes of 4–6 blocks across the middle of texts long enough for two lanes: same windows as the exhaustive scan", () => {
    // two texts of ~600 words (two lanes from 8·(n+2) words: n ≤ 55 here)
    const texts = [fixture.passages.slice(10, 16).join(" "), fixture.passages.slice(70, 76).join(" ")];
    const ix = __quoteIndexInternals.prepare(texts);
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const rand = mulberry32(192);
    const toRow = (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + ix.sourceWords[g.sourceIndex], g.words, g.ratio];
    let long = 0;
    let nonEmpty = 0;
    for (let k = 0; k < LONG; k++) {
      const t = k % 2;
      const src = texts[t];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = 42 + Math.floor(rand() * 14);
      expect(ws.length).toBeGreaterThanOrEqual(8 * (n + 2));
      const middle = ws.length >> 1;
      // start a few words before the middle word (a window straddles it), at it, or anywhere
      const i = k % 4 === 3 ? Math.floor(rand() * (ws.length - n)) : Math.max(0, middle - Math.floor(rand() * (n + 3)));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e < k % 4; e++) picked[Math.floor(rand() * n)] = ["indeed", "not", "very"][e % 3];
      const quote = picked.join(" ");
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      if (q.ids.length > 192) long++;
      const minRatio = k % 3 === 2 ? 0.8 : 0.7;
      const want = references.value({ texts: digest(texts), quote, minRatio }, () => rankHits(ix, scanExhaustive(ix, q, minRatio), true, Infinity).map((h) => [h.word, h.size, h.ratio]));
      expect(wasm.locate(quote, { minRatio, overlapping: true }).map(toRow), quote).toEqual(want);
      if (want.length) nonEmpty++;
    }
    expect(long).toBeGreaterThanOrEqual(depth(3, 10)); // quotes over 192 characters
    expect(nonEmpty).toBeGreaterThan(depth(2, 9));
  }, 600_000);

  it("quotes of 1–3 blocks across every lane boundary, marked (0.8) and dense (0.7): same windows as the exhaustive scan", () => {
    // the WASM pass cuts a text into 4 lanes (1–2 blocks) or 2 (3 blocks) from 4·K·(n+2) words
    const texts = [fixture.passages.slice(10, 16).join(" "), fixture.passages.slice(70, 76).join(" ")];
    const ix = __quoteIndexInternals.prepare(texts);
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const rand = mulberry32(64);
    const toRow = (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + ix.sourceWords[g.sourceIndex], g.words, g.ratio];
    const blocks = new Set<number>();
    let nonEmpty = 0;
    for (let k = 0; k < SHORT; k++) {
      const src = texts[k % 2];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = [5, 9, 14, 20, 26, 30][k % 6];
      const q0 = __quoteIndexInternals.prepareQuote(ix, ws.slice(0, n).join(" ")).q;
      const lanes = q0.ids.length > 128 ? 2 : 4;
      const boundary = Math.floor((ws.length * (1 + (k % (lanes - 1)))) / lanes);
      const i = Math.max(0, Math.min(ws.length - n, boundary - Math.floor(rand() * (n + 3))));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e < k % 3; e++) picked[Math.floor(rand() * n)] = ["indeed", "not"][e % 2];
      const quote = picked.join(" ");
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      blocks.add(Math.ceil(q.ids.length / 64));
      const minRatio = k % 2 === 0 ? 0.8 : 0.7;
      const want = references.value({ texts: digest(texts), quote, minRatio }, () => rankHits(ix, scanExhaustive(ix, q, minRatio), true, Infinity).map((h) => [h.word, h.size, h.ratio]));
      expect(wasm.locate(quote, { minRatio, overlapping: true }).map(toRow), quote).toEqual(want);
      if (want.length) nonEmpty++;
    }
    expect([...blocks].sort()).toEqual([1, 2, 3]);
    expect(nonEmpty).toBeGreaterThan(depth(5, 18));
  }, 600_000);
});
