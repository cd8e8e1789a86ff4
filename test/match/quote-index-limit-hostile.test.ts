// locate(q, {limit: k}) is the first k spans of locate(q) (the overlap rule included) on hostile
// texts: one word repeated, two words alternating, words run together without spaces, Cyrillic,
// Chinese, Thai, emoji and combining marks; quotes of 1–12 words, edited, cut mid-word at either
// end; minRatio 0.5 to 1, `overlapping` and `source`; both backends (a randomized differential run,
// deterministic seeds).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";

const VOCABULARY = ["the", "cat", "sat", "on", "mat", "catalogue", "theatre", "a", "и", "мама", "мыла", "раму", "你好", "世界",
  "ภาษาไทย", "สวัสดี", "😀", "e\u0301te\u0301", "café", "naïve", "don't", "o'er"];

// The texts here are far below tuning.smallWords, where searchBest takes the linear pass right after
// the exact path; the second run sets smallWords = 0 so the seeds, the pigeonhole filter (suffix
// pieces included) and the prefix pass answer too, on the same hostile texts.
for (const forced of [false, true]) describe(`locate with a limit on hostile texts${forced ? ", the search forced (smallWords = 0)" : ""}`, () => {
  const smallWords = __quoteIndexInternals.tuning.smallWords;
  const paths = __quoteIndexInternals.searchPaths;
  const before = { ...paths };
  beforeAll(() => {
    if (forced) __quoteIndexInternals.tuning.smallWords = 0;
    Object.assign(before, paths);
  });
  afterAll(() => {
    __quoteIndexInternals.tuning.smallWords = smallWords;
    if (forced) {
      expect(paths.filter - before.filter, "the filter answered").toBeGreaterThan(0);
      expect(paths.prefix - before.prefix, "the prefix pass answered").toBeGreaterThan(0);
    }
  });
  for (const seed of [1, 2]) {
    it(`seed ${seed}: first k of the full answer, k = 1, 2, 5, both backends`, () => {
      const rand = mulberry32(seed);
      const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
      let compared = 0;
      for (let round = 0; round < 12; round++) {
        const texts: string[] = [];
        for (let i = 0, n = 2 + Math.floor(rand() * 3); i < n; i++) {
          const kind = Math.floor(rand() * 5);
          const vocab = kind === 0 ? [pick(VOCABULARY)] : kind === 1 ? [pick(VOCABULARY), pick(VOCABULARY)] : VOCABULARY.slice(0, 3 + Math.floor(rand() * VOCABULARY.length));
          const ws: string[] = [];
          for (let j = 0, len = 5 + Math.floor(rand() * 200); j < len; j++) ws.push(pick(vocab) + (rand() < 0.1 ? pick([",", ".", "!", ";"]) : ""));
          texts.push(kind === 3 ? ws.join("") : ws.join(rand() < 0.2 ? "\n" : " "));
        }
        const sources = texts.map((text, i) => ({ key: `s${i}`, text }));
        const indexes = [createQuoteIndex(sources, { backend: "wasm" }), createQuoteIndex(sources, { backend: "ts" })];
        expect(indexes.map((ix) => ix.backend)).toEqual(["wasm", "ts"]);
        for (let c = 0; c < 10; c++) {
          const from = pick(texts);
          const ws = words(from).map((w) => from.slice(w.start, w.end));
          if (!ws.length) continue; // e.g. emoji run together: no word to quote
          const n = Math.min(ws.length, 1 + Math.floor(rand() * (rand() < 0.5 ? 3 : 12)));
          const at = Math.floor(rand() * (ws.length - n + 1));
          const q = ws.slice(at, at + n);
          if (rand() < 0.5 && q.length > 1) q.splice(Math.floor(rand() * q.length), 1, pick(["the", "and", "xyz"]));
          if (rand() < 0.2) q[0] = q[0].slice(Math.floor(q[0].length / 2)) || q[0];
          if (rand() < 0.2) q[q.length - 1] = q[q.length - 1].slice(0, Math.ceil(q[q.length - 1].length / 2));
          const quote = q.join(" ");
          const options = { minRatio: pick([0.5, 0.6, 0.8, 0.95, 1]), overlapping: rand() < 0.15, source: rand() < 0.2 ? pick(sources).key : undefined };
          for (const ix of indexes) {
            const full = ix.locate(quote, options);
            for (const limit of [1, 2, 5]) {
              expect(ix.locate(quote, { ...options, limit }), `${ix.backend} k=${limit} ${JSON.stringify({ quote, options, texts })}`).toEqual(full.slice(0, limit));
              compared++;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(500); // of 12 × 10 × 2 × 3
    });
  }
});
