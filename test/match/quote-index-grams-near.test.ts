// The q-gram filter's pre-pass (issue 18, session 10; ts/match/quote-index/grams.ts `gramEntriesNear`, proof
// there): the entries it keeps, sorted by key then gram, are a sub-list of all entries sorted by a
// plain Array.prototype.sort, and the sliding window of `gramRanges` (re-written here) gives the same
// character intervals on them as on all entries: on real text, on a crowded run ("zzzz " × 300, many
// grams sharing keys), for many gram choices, budgets D and needs.
//
// npm test: the first 10 seeded trials of each case; npm run test:deep (test/depth.ts): all 40.
import { readFileSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";

const TRIALS = depth(10, 40);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const { prepare, prepareQuote, gramEntriesNear, gramIndexOf, gramHash, tuning } = __quoteIndexInternals;

/** `gramRanges`' sliding window over entries (packed key·32 + gram, ascending): its merged character intervals. */
function windowIntervals(packed: number[], P: number, D: number, need: number, lb: number): number[] {
  const keys = packed.map((v) => Math.floor(v / 32)), gk = packed.map((v) => v % 32);
  const inWindow = new Array<number>(P).fill(0);
  const out: number[] = [];
  let distinct = 0, lo = 0, curFrom = 0, curTo = -1;
  for (let hi = 0; hi < keys.length; hi++) {
    const K = keys[hi];
    if (inWindow[gk[hi]]++ === 0) distinct++;
    while (keys[lo] < K - D) if (--inWindow[gk[lo++]] === 0) distinct--;
    if (distinct < need) continue;
    const from = K - lb - D, to = K + D;
    if (from <= curTo) {
      if (to > curTo) curTo = to;
      continue;
    }
    if (curTo >= 0) out.push(curFrom, curTo);
    curFrom = from;
    curTo = to;
  }
  if (curTo >= 0) out.push(curFrom, curTo);
  return out;
}

describe("quote index, the q-gram filter's pre-pass (gramEntriesNear)", () => {
  const real = fixture.passages.join(" ");
  const crowded = "zzzz ".repeat(300) + fixture.passages.slice(0, 40).join(" ");
  const cases: [string, string, (rand: () => number, src: string) => string][] = [
    ["real text", real, (rand, src) => {
      const at = Math.floor(rand() * (src.length - 400));
      const cut = src.slice(at, at + 60 + Math.floor(rand() * 140));
      return cut.replace(/e/g, (e) => (rand() < 0.1 ? "q" : e)); // some letters changed
    }],
    ["a crowded run", crowded, (rand) => "zzzz ".repeat(10 + Math.floor(rand() * 20)).trim()],
  ];
  for (const [name, text, quoteOf] of cases) {
    it(`${name}: kept entries sorted, a sub-list of all (Array.prototype.sort), the same window intervals`, () => {
      const nearMin = tuning.gramNearMin;
      tuning.gramNearMin = 0; // the pre-pass on these small lists too
      onTestFinished(() => void (tuning.gramNearMin = nearMin));
      const ix = prepare([text]);
      const gi = gramIndexOf(ix);
      const rand = mulberry32(name.length * 7919 + 18);
      let dropped = 0, kept = 0, passing = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const q = prepareQuote(ix, quoteOf(rand, text)).q;
        const lb = q.ids.length;
        const Pmax = Math.min(31, Math.floor(lb / 4));
        if (Pmax < 2) continue;
        // P disjoint grams: offsets 4 apart from a random start (on the run, many share keys)
        const P = 2 + Math.floor(rand() * (Pmax - 1));
        const first = Math.floor(rand() * (lb - 4 * P + 1));
        const xs = Array.from({ length: P }, (_, k) => first + 4 * (P - 1 - k)); // descending, as gramRanges lists them
        const D = P - 1 - Math.floor(rand() * Math.min(P - 1, 4));
        const need = P - D;
        const bucket = new Int32Array(lb - 3).fill(-1);
        const all: number[] = [];
        xs.forEach((x, k) => {
          const h = (bucket[x] = gramHash(q.ids, x));
          for (let o = gi.start[h]; o < gi.start[h + 1]; o++) all.push((gi.positions[o] - x + lb) * 32 + k);
        });
        all.sort((a, b) => a - b);
        const { keys, grams, count } = gramEntriesNear(gi, xs, bucket, lb, ix.chars.length + lb, D, need, all.length);
        const got: number[] = [];
        for (let i = 0; i < count; i++) got.push(keys[i] * 32 + grams[i]);
        for (let i = 1; i < count; i++) expect(got[i]).toBeGreaterThanOrEqual(got[i - 1]);
        // a sub-list of all (as multisets: each kept entry once per listing)
        let j = 0;
        for (const v of got) {
          while (j < all.length && all[j] < v) j++;
          expect(all[j], `kept entry ${v} listed`).toBe(v);
          j++;
        }
        const want = windowIntervals(all, P, D, need, lb);
        expect(windowIntervals(got, P, D, need, lb)).toEqual(want);
        dropped += all.length - count;
        kept += count;
        passing += want.length / 2;
      }
      // the case is not empty: some windows pass, and (on real text) the pre-pass drops some entries
      expect(passing).toBeGreaterThan(0);
      expect(kept).toBeGreaterThan(0);
      if (name === "real text") expect(dropped).toBeGreaterThan(0);
    });
  }
});
