// The bounds of bestSpan's scan never change a result: both backends (WASM and pure TS) against
// an unbounded scan that takes difflib's ratio of every window (ts/match/best-span.ts `scanTs`
// has the proof; assembly/sequence-match.ts is its twin). Pools and quotes are drawn from a seed
// over the bundled books (data/books): quotes from the pool with 0–3 word edits, quotes found
// nowhere (the scan's case: no window reaches the quote index's 0.7), quotes of 1–4 words, quotes
// longer than three 64-bit blocks (the WASM scan's generic LCS path), and sources shorter than
// the quote. `npm test` runs a fixed sample; `npm run test:deep` the whole sweep (test/depth.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createQuoteMatcher } from "../../ts/match/best-span.js";
import { createLcsRun, createMatchScratch, longestMatch, matchingCharacters, matchingCharactersAbove, ratioOf, sequenceRatio, type MatchBlock, type MatchScratch } from "../../ts/match/sequence-match.js";
import { words } from "../../ts/match/words.js";
import { matchWasmFor as wasmFor } from "../../bindings/match.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";

const BOOKS = ["novel__frankenstein.txt", "diary__pepys-1660.txt"].map((f) => readFileSync(new URL(`../../data/books/${f}`, import.meta.url), "utf8"));

/** A passage of about `chars` characters from a place drawn from the books, cut at spaces. */
function cut(rand: () => number, chars: number): string {
  const text = BOOKS[Math.floor(rand() * BOOKS.length)];
  const at = text.indexOf(" ", Math.floor(rand() * (text.length - chars - 1))) + 1;
  return text.slice(at, text.lastIndexOf(" ", at + chars)).trim();
}

/** `n` words of `src` with `edits` word edits (substitute, drop, insert). */
function quoteOf(src: string, rand: () => number, n: number, edits: number): string {
  const ws = words(src).map((w) => src.slice(w.start, w.end));
  const i = Math.floor(rand() * Math.max(1, ws.length - n));
  const picked = ws.slice(i, i + n);
  for (let e = 0; e < edits && picked.length > 2; e++) {
    const j = 1 + Math.floor(rand() * (picked.length - 2));
    if (e % 3 === 0) picked[j] = ws[Math.floor(rand() * ws.length)];
    else if (e % 3 === 1) picked.splice(j, 1);
    else picked.splice(j, 0, "indeed");
  }
  return picked.join(" ");
}

/**
 * The unbounded scan: every window of every source in the contract's order (source, size n-2..n+2,
 * start), difflib's ratio of its joined keys and the quote's (TS difflib over code points), the
 * first strictly highest; span from its first word's start to its last word's end.
 */
function unbounded(quote: string, pool: readonly string[]) {
  const qk = words(quote).map((w) => w.key);
  const target = qk.join(" ");
  let best = { ratio: 0, source: -1, start: -1, end: -1 };
  if (!target) return best;
  const n = qk.length;
  pool.forEach((src, s) => {
    const ws = words(src);
    for (let size = Math.max(1, n - 2); size <= n + 2 && size <= ws.length; size++) {
      for (let i = 0; i + size <= ws.length; i++) {
        const r = sequenceRatio(ws.slice(i, i + size).map((w) => w.key).join(" "), target);
        if (r > best.ratio) best = { ratio: r, source: s, start: ws[i].start, end: ws[i + size - 1].end };
      }
    }
  });
  return best;
}

/** One seeded case: a pool and its quotes of every kind. */
function caseOf(seed: number): { pool: string[]; quotes: string[] } {
  const rand = mulberry32(seed);
  const pool = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => cut(rand, 300 + Math.floor(rand() * 500)));
  pool.push(cut(rand, 12)); // a source shorter than most quotes
  const from = () => pool[Math.floor(rand() * (pool.length - 1))];
  const quotes = [
    quoteOf(from(), rand, 5 + Math.floor(rand() * 20), Math.floor(rand() * 4)),
    quoteOf(cut(rand, 800), rand, 5 + Math.floor(rand() * 26), Math.floor(rand() * 4)), // found nowhere
    quoteOf(cut(rand, 800), rand, 1 + Math.floor(rand() * 4), 0), // 1–4 words, found nowhere
    quoteOf(cut(rand, 800), rand, 1 + Math.floor(rand() * 2), 0), // 1–2 words: fewer than five window sizes
    quoteOf(from(), rand, 2 + Math.floor(rand() * 2), 1), // 2–3 words from the pool, one edit
    quoteOf(cut(rand, 1200), rand, 40 + Math.floor(rand() * 10), 1), // > 192 characters
  ];
  return { pool, quotes };
}

const backends = wasmFor("wasm") ? (["wasm", "ts"] as const) : (["ts"] as const);

describe("bestSpan's scan bounds (LCS per window, per source, the seeded floor)", () => {
  const seeds = Array.from({ length: depth(2, 24) }, (_, k) => 36_000 + k);
  for (const seed of seeds) {
    it(`gives the unbounded scan's window, ratio and span on seeded case ${seed}, both backends`, () => {
      const { pool, quotes } = caseOf(seed);
      const want = quotes.map((q) => unbounded(q, pool));
      // the sample has the kinds it is meant to have: at least one quote left to the scan (< 0.7)
      expect(want.some((w) => w.ratio < 0.7)).toBe(true);
      for (const backend of backends) {
        const got = createQuoteMatcher(pool, { backend, edges: "words" }).match(quotes);
        expect(got.map(({ ratio, source, start, end }) => ({ ratio, source, start, end })), `${backend}, seed ${seed}`).toEqual(want);
      }
    }, 60_000);
  }

  it("field case: 1- and 2-word quotes found nowhere (fewer than five window sizes) over several passages", () => {
    // the bounds are laid out per source for the window sizes that exist (1..n+2 here, not five)
    const pool = [BOOKS[0].slice(20_000, 20_900), BOOKS[1].slice(70_000, 70_900), BOOKS[0].slice(300_000, 300_900), BOOKS[1].slice(9_000, 9_900)];
    for (const quote of ["quixotic zephyrs", "xylophonic", "jazzy kumquats", "vexing zygote"]) {
      const want = unbounded(quote, pool);
      expect(want.ratio, quote).toBeLessThan(0.7);
      for (const backend of backends) {
        const got = createQuoteMatcher(pool, { backend, edges: "words" }).bestSpan(quote);
        expect({ ratio: got.ratio, source: got.source, start: got.start, end: got.end }, `${backend}: ${quote}`).toEqual(want);
      }
    }
  });

  it("sources of 1 to 14 words (every place an anchor group of the bounds pass can end), quotes found nowhere", () => {
    // the bounds pass runs from every 4th start word over its group's longest window; a source
    // may end inside a group, before its first window, or right at a group's edge
    const rand = mulberry32(4_242);
    for (let t = 0; t < depth(3, 12); t++) {
      const text = words(cut(rand, 2_000)).map((w) => w.key);
      const pool = Array.from({ length: 14 }, (_, k) => {
        const at = Math.floor(rand() * (text.length - 15));
        return text.slice(at, at + k + 1).join(" ");
      });
      const quotes = [1, 2, 3, 5, 8, 12].map((n) => quoteOf(cut(rand, 800), rand, n, Math.floor(rand() * 3)));
      const want = quotes.map((q) => unbounded(q, pool));
      for (const backend of backends) {
        const got = createQuoteMatcher(pool, { backend, edges: "words" }).match(quotes);
        expect(got.map(({ ratio, source, start, end }) => ({ ratio, source, start, end })), `${backend}, case ${t}`).toEqual(want);
      }
    }
  }, 60_000);

  it("a group's bound past 1: a short quote whose letters are spread over short words of one group (its LCS exceeds what a one-word window shares)", () => {
    // the group's LCS bounds each of its windows with that window's own length, so a short
    // window's bound can exceed 1; its bucket is capped at the top one (a window was lost, and the
    // WASM kernel wrote past its list heads, before the cap)
    const cases: [string, string[]][] = [["ehjxpjmtliq", ["eh jxp s jmt li q zq zq zq zq zq zq"]], ["abcdefgh ijklmnop qrstuvwx", ["abcd zz efgh ijkl zz mnop qrst zz uvwx zz zz zz"]]];
    const rand = mulberry32(7);
    const letters = "abcdefghijklmnopqrstuvwxyz";
    for (let t = 0; t < depth(150, 3_000); t++) {
      const q = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => Array.from({ length: 4 + Math.floor(rand() * 8) }, () => letters[Math.floor(rand() * 26)]).join("")).join(" ");
      const chars = q.replace(/ /g, "");
      const parts: string[] = [];
      for (let i = 0; i < chars.length; ) {
        const k = 1 + Math.floor(rand() * 3);
        parts.push(chars.slice(i, i + k));
        i += k;
        if (rand() < 0.5) parts.push(letters[Math.floor(rand() * 26)]);
      }
      cases.push([q, [[...parts, "zq", "zq", "zq", "zq", "zq", "zq"].join(" ")]]);
    }
    for (const [q, pool] of cases) {
      const want = unbounded(q, pool);
      for (const backend of backends) {
        const got = createQuoteMatcher(pool, { backend, edges: "words" }).bestSpan(q);
        expect({ ratio: got.ratio, source: got.source, start: got.start, end: got.end }, `${backend}: ${q} in ${pool[0]}`).toEqual(want);
      }
    }
  });

  it("ties: the same passage three times, and twice within one source, give the first window in the contract's order", () => {
    // the scan looks at a bucket's windows in no particular order; equal ratios must still go to
    // the first window (source, then size, then start)
    const rand = mulberry32(4_444);
    for (let t = 0; t < depth(3, 12); t++) {
      const p = cut(rand, 600);
      const pool = [cut(rand, 300), `${p} ${p}`, p, p];
      const quotes = [quoteOf(cut(rand, 800), rand, 6 + Math.floor(rand() * 15), t % 3), quoteOf(cut(rand, 800), rand, 2, 0)];
      const want = quotes.map((q) => unbounded(q, pool));
      expect(want[0].ratio).toBeLessThan(0.7); // left to the scan
      for (const backend of backends) {
        const got = createQuoteMatcher(pool, { backend, edges: "words" }).match(quotes);
        expect(got.map(({ ratio, source, start, end }) => ({ ratio, source, start, end })), `${backend}, case ${t}`).toEqual(want);
      }
    }
  }, 60_000);

  it("a pool of 24 passages and long quotes found nowhere: more ranges than the WASM memo's slots", () => {
    // the WASM scan keeps each range's LCS and longest block in a memo of 8,192 slots, 4 probes
    // each, per quote (assembly/difflib.ts `memoEntry`); the first quote here asks the LCS of
    // 7,430 distinct ranges (counted with the final best as the floor; the scan asks more while
    // its best rises), so slots are taken over and recomputed, and the results must not change
    const rand = mulberry32(4_343);
    const pool = Array.from({ length: 24 }, () => cut(rand, 1_200));
    // the exhaustive reference costs ~10 s a quote: npm test checks the first, the deep run all three
    const quotes = [quoteOf(cut(rand, 1_200), rand, 30, 2), quoteOf(cut(rand, 1_200), rand, 26, 0), quoteOf(cut(rand, 1_200), rand, 28, 1)].slice(0, depth(1, 3));
    const want = quotes.map((q) => unbounded(q, pool));
    for (const w of [want[0], want[2]]) if (w) expect(w.ratio).toBeLessThan(0.7); // left to the scan
    for (const backend of backends) {
      const got = createQuoteMatcher(pool, { backend, edges: "words" }).match(quotes);
      expect(got.map(({ ratio, source, start, end }) => ({ ratio, source, start, end })), backend).toEqual(want);
    }
  }, 120_000);

  it("field case: a quote found nowhere over the bundled books' passages has its exact best window", () => {
    const pool = [BOOKS[0].slice(100_000, 101_200), BOOKS[1].slice(50_000, 51_200)];
    const quote = "the committee of public safety resolved that the bridge should be rebuilt in stone before winter";
    const want = unbounded(quote, pool);
    expect(want.ratio).toBeLessThan(0.7);
    for (const backend of backends) {
      const got = createQuoteMatcher(pool, { backend, edges: "words" }).bestSpan(quote);
      expect({ ratio: got.ratio, source: got.source, start: got.start, end: got.end }).toEqual(want);
    }
  });
});

/** LCS by the textbook dynamic programme. */
function lcsDp(a: number[], b: number[]): number {
  let prev = new Array(b.length + 1).fill(0);
  for (const x of a) {
    const cur = [0];
    for (let j = 0; j < b.length; j++) cur.push(x === b[j] ? prev[j] + 1 : Math.max(prev[j + 1], cur[j]));
    prev = cur;
  }
  return prev[b.length];
}

describe("createLcsRun (bit-parallel LCS, 32-bit blocks)", () => {
  it("gives the LCS of every prefix fed, for quotes across block edges (31–33, 63–65, 95–97 ids)", () => {
    const rand = mulberry32(7);
    for (const lb of [1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 200]) {
      for (let t = 0; t < depth(3, 30); t++) {
        const sigma = 2 + Math.floor(rand() * 6);
        const b = Array.from({ length: lb }, () => Math.floor(rand() * sigma));
        const a = Array.from({ length: 20 + Math.floor(rand() * 200) }, () => Math.floor(rand() * (sigma + 1)));
        const run = createLcsRun(b, sigma + 1);
        run.start();
        for (let cut = 0; cut < a.length; cut += 17) {
          const to = Math.min(a.length, cut + 17);
          run.feed(a, cut, to);
          expect(run.length(), `lb ${lb}, prefix ${to}`).toBe(lcsDp(a.slice(0, to), b));
        }
      }
    }
  });
});

describe("LcsRun.range, the first block and matchingCharactersAbove (giving a window up midway)", () => {
  it("an LcsRun's range gives the LCS of any sub-rectangle, ranges across block edges", () => {
    const rand = mulberry32(11);
    for (const lb of [1, 31, 32, 33, 64, 65, 97, 200]) {
      for (let t = 0; t < depth(20, 200); t++) {
        const sigma = 2 + Math.floor(rand() * 6);
        const b = Array.from({ length: lb }, () => Math.floor(rand() * sigma));
        const a = Array.from({ length: 5 + Math.floor(rand() * 150) }, () => Math.floor(rand() * (sigma + 1)));
        const lcs = createLcsRun(b, sigma + 1).range;
        const blo = Math.floor(rand() * lb);
        const bhi = blo + 1 + Math.floor(rand() * (lb - blo));
        const alo = Math.floor(rand() * a.length);
        const ahi = alo + Math.floor(rand() * (a.length - alo + 1));
        expect(lcs(a, 0, alo, ahi, blo, bhi), `lb ${lb}, a[${alo}, ${ahi}) b[${blo}, ${bhi})`).toBe(lcsDp(a.slice(alo, ahi), b.slice(blo, bhi)));
      }
    }
  });

  // The WASM scan's construction of a window's first block (assembly/difflib.ts `commonRuns`,
  // `firstBlock`), written out here against `longestMatch` (the WASM itself is checked by the
  // scan comparisons above, where every window scored takes its first block this way).
  /** runs[2p], runs[2p+1]: the longest common run ending at a[p] (counted from `from`) and the first j reaching it. */
  function runsOf(a: number[], from: number, b: number[]): Int32Array {
    const runs = new Int32Array(2 * a.length);
    let prev = new Int32Array(b.length + 1);
    for (let p = from; p < a.length; p++) {
      const cur = new Int32Array(b.length + 1);
      let top = 0;
      let at = -1;
      for (let j = 0; j < b.length; j++) {
        cur[j + 1] = b[j] === a[p] ? prev[j] + 1 : 0;
        if (cur[j + 1] > top) [top, at] = [cur[j + 1], j];
      }
      runs[2 * p] = top;
      runs[2 * p + 1] = at;
      prev = cur;
    }
    return runs;
  }
  function firstBlock(a: number[], start: number, la: number, b: number[], runs: Int32Array, scratch: MatchScratch): MatchBlock {
    let r = 0;
    for (let p = start; p < start + la; p++) r = Math.max(r, runs[2 * p]);
    const head = Math.min(la, r);
    const block = longestMatch(a, start, 0, head, b, 0, b.length, scratch);
    for (let p = start + head; p < start + la; p++) {
      const k = runs[2 * p];
      if (k > block[2]) [block[0], block[1], block[2]] = [p - start - k + 1, runs[2 * p + 1] - k + 1, k];
    }
    return block;
  }

  it("the WASM scan's first block of a window (from its source's rows of runs) is longestMatch's, ties included", () => {
    const rand = mulberry32(13);
    for (let t = 0; t < depth(40, 400); t++) {
      const sigma = 2 + Math.floor(rand() * 8);
      const b = Array.from({ length: 1 + Math.floor(rand() * 100) }, () => Math.floor(rand() * sigma));
      // a text with stretches copied from b, so long common runs (and clamped ones) occur
      const a: number[] = [];
      while (a.length < 300) {
        if (rand() < 0.3) {
          const at = Math.floor(rand() * b.length);
          a.push(...b.slice(at, at + 1 + Math.floor(rand() * 20)));
        } else a.push(Math.floor(rand() * (sigma + 1)));
      }
      const from = 7;
      const runs = runsOf(a, from, b);
      const scratch = createMatchScratch(b.length);
      for (let w = 0; w < 30; w++) {
        const start = from + Math.floor(rand() * (a.length - from));
        const la = Math.floor(rand() * (a.length - start + 1));
        const want = longestMatch(a, start, 0, la, b, 0, b.length, scratch);
        expect(firstBlock(a, start, la, b, runs, scratch), `case ${t}, window [${start}, +${la})`).toEqual(want);
      }
    }
  });

  it("matchingCharactersAbove is difflib's total, or -1 only when the ratio is below the floor", () => {
    const rand = mulberry32(12);
    let gaveUp = 0;
    let kept = 0;
    for (let t = 0; t < depth(300, 3000); t++) {
      const sigma = 2 + Math.floor(rand() * 12);
      const lb = 1 + Math.floor(rand() * 150);
      const b = Array.from({ length: lb }, () => Math.floor(rand() * sigma));
      const a = Array.from({ length: 1 + Math.floor(rand() * 150) }, () => Math.floor(rand() * (sigma + 1)));
      const exact = matchingCharacters(a, 0, a.length, b, lb);
      const ratio = ratioOf(exact, a.length + lb);
      const floor = Math.max(0, ratio + (rand() - 0.5) * 0.3);
      const scratch = createMatchScratch(lb);
      // the root's block found inside, or given (as the WASM scan gives it, from firstBlock)
      const first = rand() < 0.5 ? null : longestMatch(a, 0, 0, a.length, b, 0, lb, scratch);
      const got = matchingCharactersAbove(a, 0, a.length, b, lb, scratch, createLcsRun(b, sigma + 1).range, floor, first);
      if (got < 0) {
        gaveUp++;
        expect(ratio, `case ${t}`).toBeLessThan(floor);
      } else {
        kept++;
        expect(got, `case ${t}`).toBe(exact);
      }
    }
    // the sample has both outcomes
    expect(gaveUp).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
  });
});
