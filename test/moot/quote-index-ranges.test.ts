// The range scan the best-first search verifies with (issue 18): WASM `qiScanRanges`
// (assembly/quote-index.ts, through bindings/quote-index.ts `scanRanges`) and its TS twin
// (`scanRangesTs`, WindowScanner.scanRanges) return the same windows in the same order, with and
// without `raise`, and without `raise` exactly the windows of the exhaustive scan that lie inside
// a range. Ranges of one word, of a whole text, next to each other, at text edges; quotes of 1–4
// blocks of 64 bits; thresholds on both sides of the dense/marked switch (~0.78).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { QI_EXPORTS, quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { wasmFor } from "../../bindings/wasm.js";
import { __quoteIndexInternals, scanExhaustive } from "../../ts/moot/quote-index.js";
import { words } from "../../ts/moot/words.js";
import { mulberry32 } from "../prng.js";

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
    for (let k = 0; k < 120; k++) {
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
          const all = scanExhaustive(ix, q, minRatio).filter((h) => inside(h.word, h.size));
          const key = (h: number[]) => `${h[0]}:${h[1]}`;
          expect([...want].sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(key)).toEqual(all.map((h) => [h.word, h.size]).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(key));
          const ratio = new Map(all.map((h) => [`${h.word}:${h.size}`, h.ratio]));
          for (const h of want) expect(h[2]).toBe(ratio.get(key(h)));
        }
      }
    }
    expect(compared).toBe(240);
    expect(nonEmpty).toBeGreaterThan(30);
    expect(raised).toBeGreaterThan(5);
  }, 600_000);
});
