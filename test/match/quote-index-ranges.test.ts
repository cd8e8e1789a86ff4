// The range scan the best-first search verifies with (issue 18): WASM `qiScanRanges`
// (assembly/quote-index/scan.ts, through bindings/quote-index.ts `scanRanges`) and its TS twin
// (`scanRangesTs`, WindowScanner.scanRanges) return the same windows in the same order, with and
// without `raise`, and without `raise` exactly the windows of the exhaustive scan that lie inside
// a range. Ranges of one word, of a whole text, next to each other, at text edges; quotes of 1–4
// blocks of 64 bits; thresholds on both sides of the dense/marked switch (~0.78).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { QI_EXPORTS, quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { __quoteIndexInternals, scanExhaustive } from "../../ts/match/quote-index/index.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";
import { digest, referenceResults } from "../reference-results.js";

// npm test: the first 15 of the seeded random ranges; npm run test:deep (test/depth.ts): all 120.
// The exhaustive scan is the cost: npm test takes its windows from
// test/fixtures/reference/quote-index-ranges.json (test/reference-results.ts); npm run
// test:deep scans every time and checks the stored ones.
const references = referenceResults("quote-index-ranges");
const RANGES = depth(15, 120);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };

describe("quote index range scan, WASM vs TS", () => {
  it("exports the range scan", () => {
    const x = wasmFor("wasm") as unknown as Record<string, unknown>;
    for (const name of QI_EXPORTS) expect(typeof x[name], name).toBe("function");
  });

  it("same windows in the same order on random ranges, raise on and off; = the exhaustive scan inside the ranges", () => {
    const texts = [fixture.passages.slice(0, 4).join(" "), fixture.passages[40], fixture.passages.slice(80, 83).join(" ")];
    const ix = __quoteIndexInternals.prepare(texts);
    const binding = quoteIndexBindingFor(wasmFor("wasm")!);
    const owner = {};
    const rand = mulberry32(2026);
    const { sourceWords } = ix;
    let compared = 0, nonEmpty = 0, raised = 0;
    for (let k = 0; k < RANGES; k++) {
      const t = k % texts.length;
      const src = texts[t];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = [3, 6, 11, 18, 27, 40][k % 6];
      const at = Math.floor(rand() * Math.max(1, ws.length - n));
      const picked = ws.slice(at, at + n);
      for (let e = 0; e < (k >> 1) % 4; e++) picked[Math.floor(rand() * picked.length)] = ["indeed", "never", "x"][e % 3];
      const quote = picked.join(" ");
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      // ranges: ascending, disjoint, each inside one text; sometimes a whole text, one word, or abutting
      const ranges: number[] = [];
      for (let s = 0; s < texts.length; s++) {
        const w0 = sourceWords[s], w1 = sourceWords[s + 1];
        if (k % 7 === 0) {
          ranges.push(w0, w1);
          continue;
        }
        let w = w0 + Math.floor(rand() * 30);
        while (w < w1) {
          const len = rand() < 0.2 ? 1 : 1 + Math.floor(rand() * 3 * (n + 4));
          const to = Math.min(w1, w + len);
          ranges.push(w, to);
          w = to + (rand() < 0.3 ? 0 : Math.floor(rand() * 200));
        }
      }
      const list = Int32Array.from(ranges);
      const minRatio = [0.5, 0.7, 0.8, 0.95][k % 4];
      for (const raise of [false, true]) {
        const got = binding.scanRanges(owner, ix, q, list, minRatio, raise).map((h) => [h.word, h.size, h.ratio]);
        const want = __quoteIndexInternals.scanRangesTs(ix, q, list, minRatio, raise).map((h) => [h.word, h.size, h.ratio]);
        expect(got, `${quote} at ${minRatio}, raise ${raise}`).toEqual(want);
        compared++;
        if (raise && want.length > 1) raised++;
        if (!raise) {
          if (want.length) nonEmpty++;
          const inside = (w: number, size: number) => {
            for (let r = 0; r < list.length; r += 2) if (w >= list[r] && w + size <= list[r + 1]) return true;
            return false;
          };
          const all = references.value({ texts: digest(texts), quote, minRatio, ranges: digest(ranges) }, () =>
            scanExhaustive(ix, q, minRatio).filter((h) => inside(h.word, h.size)).map((h) => ({ word: h.word, size: h.size, ratio: h.ratio })),
          );
          const key = (h: number[]) => `${h[0]}:${h[1]}`;
          expect([...want].sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(key)).toEqual(all.map((h) => [h.word, h.size]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(key));
          const ratio = new Map(all.map((h) => [`${h.word}:${h.size}`, h.ratio]));
          for (const h of want) expect(h[2]).toBe(ratio.get(key(h)));
        }
      }
    }
    expect(compared).toBe(2 * RANGES);
    expect(nonEmpty).toBeGreaterThan(depth(3, 30));
    expect(raised).toBeGreaterThan(depth(1, 5));
  }, 600_000);
});

describe("quote index prefix pass (searchBest (h)), WASM and TS", () => {
  it("same windows as the plain linear pass at high thresholds, across lane boundaries; null past the range budget", () => {
    // texts long enough for the WASM lanes (4 lanes from 16·(n+2) words), quotes of 2–4 blocks
    const texts = [fixture.passages.slice(0, 30).join(" "), fixture.passages.slice(30, 34).join(" "), fixture.passages.slice(60, 100).join(" ")];
    const ix = __quoteIndexInternals.prepare(texts);
    const binding = quoteIndexBindingFor(wasmFor("wasm")!);
    const owner = {};
    const rand = mulberry32(64);
    const rows = (hs: { word: number; size: number; ratio: number }[]) => hs.map((h) => [h.word, h.size, h.ratio]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let nonEmpty = 0, checked = 0;
    for (let k = 0; k < 60; k++) {
      const t = k % 3 === 1 ? 1 : k % 3;
      const src = texts[t];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = 14 + Math.floor(rand() * 30);
      // anywhere, or across a lane boundary (a quarter of the text)
      const quarter = Math.floor(ws.length / 4) * (1 + (k % 3));
      const at = k % 2 ? Math.floor(rand() * (ws.length - n)) : Math.max(0, Math.min(ws.length - n, quarter - Math.floor(rand() * n)));
      const picked = ws.slice(at, at + n);
      for (let e = 0; e < k % 3; e++) picked[1 + Math.floor(rand() * (picked.length - 2))] = ["indeed", "nevermore"][e % 2];
      const q = __quoteIndexInternals.prepareQuote(ix, picked.join(" ")).q;
      const lb = q.ids.length;
      const threshold = [0.86, 0.9, 0.94, 0.97][k % 4];
      const D = Math.floor((2 * lb * (1 - threshold)) / threshold + 1e-6);
      for (const m of [32, 64]) {
        if (m >= lb || 3 * D > m) continue;
        const plain = rows(binding.scan(owner, ix, q, threshold, -1));
        expect(rows(__quoteIndexInternals.scanPrefixTs(ix, q, threshold, -1, m, D, 1e9)!), `ts m=${m} k=${k}`).toEqual(plain);
        if (m === 64) expect(rows(binding.scanPrefix(owner, ix, q, threshold, -1, m, D, 1e9)!), `wasm k=${k}`).toEqual(plain);
        // one source only
        if (lb > 64) expect(rows(binding.scanPrefix(owner, ix, q, threshold, t, 64, D, 1e9) ?? []), `wasm source ${t}`).toEqual(rows(binding.scan(owner, ix, q, threshold, t)));
        checked++;
        if (plain.length) nonEmpty++;
      }
      // a budget of no range: null whenever anything is marked
      if (lb > 64) {
        const none = binding.scanPrefix(owner, ix, q, threshold, -1, 64, D, 0);
        if (none) expect(none).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(nonEmpty).toBeGreaterThan(20);
  }, 600_000);
});
