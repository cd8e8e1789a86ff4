// The q-gram filter of the best-first search (issue 18, session 8; ts/match/quote-index/grams.ts
// `searchBest` (j), `gramRanges`, proof there): the word ranges it returns hold every window of the
// full scan (and, on a small text, of the exhaustive scan of every window) with ratio ≥ T (D = the indel budget of T), on real texts and other scripts, for
// every source and one; a budget below D loses windows (the test can fail); and `locate(q, {limit})`
// takes the filter and answers as the full scan does, on both backends (the filter is one TS
// function for both; the ranges are verified by WASM qiScanRanges or its TS twin).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { __quoteIndexInternals, createQuoteIndex, rankHits, scanExhaustive, scanTs } from "../../ts/match/quote-index/index.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";

// npm test: the first quotes of each seeded sweep (a sweep's quote k takes its text, length and edit
// count from k by cycles: 24 is every text, length and edit count pair of the first sweep twice, 12
// the same of the small text's, and 10 every length twice and every text and edit count of the
// locate sweep), so every text, length, edit count and threshold kind keeps some; npm run test:deep
// (test/depth.ts): all of them.
const SWEEP = depth(24, 120), SMALL = depth(12, 40), LOCATES = depth(10, 60);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const { prepare, prepareQuote, gramRanges, gramEntriesSorted, gramIndexOf, gramHash, tuning, searchPaths } = __quoteIndexInternals;

const CYRILLIC =
  "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. Всё смешалось в доме Облонских. " +
  "Жена узнала, что муж был в связи с бывшею в их доме француженкою-гувернанткой, и объявила мужу, что не может жить с ним в одном доме.";

/** A quote of n words from `src` at word `at`, with `edits` word edits (substitute, drop, insert, a letter changed). */
function quoteAt(src: string, at: number, n: number, edits: number, rand: () => number): string {
  const ws = words(src).map((w) => src.slice(w.start, w.end));
  const picked = ws.slice(at, at + n);
  for (let e = 0; e < edits; e++) {
    const j = Math.floor(rand() * picked.length);
    const op = Math.floor(rand() * 4);
    if (op === 0) picked[j] = ws[Math.floor(rand() * ws.length)];
    else if (op === 1 && picked.length > 3) picked.splice(j, 1);
    else if (op === 2) picked.splice(j, 0, "indeed");
    else picked[j] = picked[j].slice(0, -1) + "q";
  }
  return picked.join(" ");
}

/** D of `searchBest` (b): the indel budget of a window with ratio ≥ T against a quote of lb characters. */
const budgetOf = (lb: number, T: number) => Math.floor((2 * lb * (1 - T)) / T + 1e-6);

describe("quote index, the q-gram filter", () => {
  const texts = [fixture.passages.slice(0, 60).join(" "), fixture.passages.slice(60, 130).join(" "), fixture.passages.slice(130).join(" "), CYRILLIC];
  const ix = prepare(texts);

  it("its ranges hold every window ≥ T of the exhaustive scan (T = the best ratio and fixed levels); a budget below D loses some", () => {
    const share = tuning.gramShare;
    tuning.gramShare = 0; // never declines on its cost guess: every quote with D + 1 grams is filtered
    const rand = mulberry32(808);
    let checked = 0, windows = 0, lost = 0, declined = 0;
    try {
      for (let k = 0; k < SWEEP; k++) {
        const t = k % texts.length;
        const nw = words(texts[t]).length;
        const n = Math.min(nw, [8, 11, 14, 20, 30, 40][k % 6]);
        const quote = quoteAt(texts[t], Math.floor(rand() * Math.max(1, nw - n)), n, k % 4, rand);
        const q = prepareQuote(ix, quote).q;
        // every window ≥ 0.8 once (scanTs, the TS linear pass: the parity suite holds it to the
        // exhaustive scan of every window); those ≥ T are the answer at each T ≥ 0.8
        const at8 = scanTs(ix, q, 0.8);
        const best = rankHits(ix, at8, true, 1)[0]?.ratio;
        for (const T of [best, 0.85, 0.9, 0.95].filter((x): x is number => x !== undefined && x >= 0.8)) {
          const D = budgetOf(q.ids.length, T);
          const all = at8.filter((h) => h.ratio >= T);
          for (const only of [-1, t]) {
            const ranges = gramRanges(ix, q, D, only, Infinity);
            if (!ranges) {
              declined++;
              continue;
            }
            checked++;
            const inside = (h: { word: number; size: number }, rs: number[]) => {
              for (let r = 0; r < rs.length; r += 2) if (rs[r] <= h.word && h.word + h.size <= rs[r + 1]) return true;
              return false;
            };
            for (let r = 0; r < ranges.length; r += 2) {
              // each range lies in one source (the one asked for, when one is)
              const s = ix.wordSource[ranges[r]];
              expect(ix.wordSource[ranges[r + 1] - 1]).toBe(s);
              if (only >= 0) expect(s).toBe(only);
            }
            for (const h of all) {
              if (only >= 0 && ix.wordSource[h.word] !== only) continue;
              windows++;
              expect(inside(h, ranges), `T=${T} D=${D} only=${only}: window ${h.word}+${h.size} (${h.ratio}) of ${quote}`).toBe(true);
            }
            // a budget two below D demands more intact grams and narrower ranges: it must miss windows somewhere
            if (only < 0 && D >= 2) {
              const narrow = gramRanges(ix, q, D - 2, -1, Infinity);
              if (narrow) for (const h of all) if (!inside(h, narrow)) lost++;
            }
          }
        }
      }
    } finally {
      tuning.gramShare = share;
    }
    expect(checked).toBeGreaterThan(depth(55, 300));
    expect(windows).toBeGreaterThan(depth(350, 1000));
    expect(lost).toBeGreaterThan(0);
    expect(declined).toBeGreaterThan(0); // short quotes at low T: fewer than D + 1 grams fit
  }, 600_000);

  it("on a small text: its ranges hold every window ≥ T of the exhaustive scan of every window", () => {
    const small = [fixture.passages.slice(10, 14).join(" "), CYRILLIC];
    const sx = prepare(small);
    const share = tuning.gramShare;
    tuning.gramShare = 0;
    const rand = mulberry32(17);
    let windows = 0;
    try {
      for (let k = 0; k < SMALL; k++) {
        const t = k % 2;
        const nw = words(small[t]).length;
        const n = Math.min(nw, [9, 14, 22][k % 3]);
        const q = prepareQuote(sx, quoteAt(small[t], Math.floor(rand() * Math.max(1, nw - n)), n, k % 3, rand)).q;
        const all = scanExhaustive(sx, q, 0.8);
        const best = rankHits(sx, all, true, 1)[0]?.ratio;
        if (best === undefined) continue;
        const ranges = gramRanges(sx, q, budgetOf(q.ids.length, best), -1, Infinity);
        if (!ranges) continue;
        for (const h of all.filter((x) => x.ratio >= best)) {
          windows++;
          let inside = false;
          for (let r = 0; r < ranges.length; r += 2) if (ranges[r] <= h.word && h.word + h.size <= ranges[r + 1]) inside = true;
          expect(inside).toBe(true);
        }
      }
    } finally {
      tuning.gramShare = share;
    }
    expect(windows).toBeGreaterThan(depth(6, 15));
  }, 600_000);

  it("its edges: windows at indel distance exactly D, the edits placed to spread the intact grams' bases by D or to reach the range's ends, are inside the ranges", () => {
    // The window W is a stretch of text words; the quote b is W's keys with e letters deleted (or
    // inserted), so indel(W, b) ≤ e, and gramRanges(…, D = e) must hold W's words (its contract).
    // A block of e deletions in the middle shifts the bases of the grams after it by e (the sliding
    // window's width, D + 1 keys); deleting W's first or last e characters puts W's start at
    // B − D, or its end at B + lb + D (the range's ends).
    const share = tuning.gramShare, survivorCost = tuning.gramSurvivorCost;
    tuning.gramShare = 0;
    // the most grams that fit (P = ⌊lb/4⌋), so that P − D must be intact: the filter at its tightest
    tuning.gramSurvivorCost = 1e300;
    const rand = mulberry32(9090);
    const keyString = (p: number, m: number) => Array.from(ix.chars.subarray(ix.charStart[p], ix.charEnd[p + m - 1]), (c) => alphabet[c]).join("");
    const alphabet: string[] = [];
    for (const [cp, id] of (ix as unknown as { alphabet: Map<number, number> }).alphabet) alphabet[id] = String.fromCodePoint(cp);
    alphabet[0] = " ";
    const letter = (ch: string) => ch !== " ";
    let checked = 0;
    try {
      for (let k = 0; k < 160; k++) {
        const t = k % texts.length;
        const w0 = ix.sourceWords[t], w1 = ix.sourceWords[t + 1];
        const m = Math.min(w1 - w0, 10 + (k % 4) * 6);
        const p = w0 + Math.floor(rand() * (w1 - w0 - m));
        const W = [...keyString(p, m)];
        const e = 2 + (k % 7);
        const b = [...W];
        const kind = k % 5;
        // letters to cut: one block in the middle, W's first or last letters, or e letters anywhere
        const at: number[] = [];
        const letters = b.map((ch, i) => (letter(ch) ? i : -1)).filter((i) => i >= 0);
        if (kind === 0) {
          const mid = Math.floor(letters.length / 2);
          at.push(...letters.slice(mid, mid + e));
        } else if (kind === 1) at.push(...letters.slice(0, e));
        else if (kind === 2) at.push(...letters.slice(-e));
        else for (const i of letters) if (at.length < e && rand() < (e - at.length) / 4) at.push(i);
        if (kind === 4) {
          // e letters inserted instead (unmatched characters of b), at the places chosen
          for (const i of [...at].sort((x, y) => y - x)) b.splice(i, 0, "ж");
        } else for (const i of [...at].sort((x, y) => y - x)) b.splice(i, 1);
        const quote = b.join("");
        if (!/\p{L}/u.test(quote)) continue;
        const q = prepareQuote(ix, quote).q;
        if (q.ids.length !== b.length) continue; // the quote's keys must be b itself
        const D = at.length;
        for (const only of [-1, t]) {
          const ranges = gramRanges(ix, q, D, only, Infinity);
          if (!ranges) continue; // fewer than D + 1 grams fit
          checked++;
          let inside = false;
          for (let r = 0; r < ranges.length; r += 2) if (ranges[r] <= p && p + m <= ranges[r + 1]) inside = true;
          expect(inside, `kind ${kind} D=${D} only=${only}: W = words ${p}+${m} "${W.join("")}", b = "${quote}"`).toBe(true);
        }
      }
    } finally {
      tuning.gramShare = share;
      tuning.gramSurvivorCost = survivorCost;
    }
    expect(checked).toBeGreaterThan(150);
  });

  it("locate(q, {limit: 1}) at minRatio = a window's exact ratio keeps it, one ulp above drops it, as the full scan does, both backends", () => {
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const ts = createQuoteIndex(texts, { backend: "ts" });
    const small = tuning.smallWords;
    tuning.smallWords = 0;
    const rand = mulberry32(5151);
    const grams0 = searchPaths.grams;
    let compared = 0;
    try {
      for (let k = 0; k < 24; k++) {
        const t = k % 3;
        const nw = words(texts[t]).length;
        const n = [10, 14, 20][k % 3];
        const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1 + (k % 3), rand);
        const best = wasm.locate(quote, { limit: 1, minRatio: 0.5 })[0];
        if (!best || best.ratio < 0.8) continue;
        // the next double above the ratio: no window has a ratio strictly between
        const above = best.ratio + Number.EPSILON * best.ratio;
        for (const minRatio of [best.ratio, Math.min(1, above)]) {
          for (const index of [wasm, ts]) {
            const full = index.locate(quote, { minRatio });
            expect(index.locate(quote, { limit: 1, minRatio }), `${index.backend} minRatio ${minRatio}: ${quote}`).toEqual(full.slice(0, 1));
            compared++;
          }
        }
        expect(wasm.locate(quote, { limit: 1, minRatio: best.ratio })[0]).toEqual(best);
      }
    } finally {
      tuning.smallWords = small;
    }
    expect(compared).toBeGreaterThan(60);
    expect(searchPaths.grams - grams0).toBeGreaterThan(10);
  }, 600_000);

  it("a run of one word: its entries crowd a slot (the sort's packed path), sorted, and the ranges still hold every window ≥ T", () => {
    // "zzzz " 300 times before a real text: every 4-gram of the quote "zzzz zzzz …" occurs every 5
    // characters there, so 31 grams crowd the slots of those keys
    const run = "zzzz ".repeat(300);
    const rx = prepare([run + texts[0], texts[1]]);
    const quote = "zzzz ".repeat(25).trim();
    const q = prepareQuote(rx, quote).q;
    const share = tuning.gramShare, survivorCost = tuning.gramSurvivorCost;
    tuning.gramShare = 0;
    tuning.gramSurvivorCost = 1e300; // P = 31 grams
    try {
      const T = 0.9;
      const D = budgetOf(q.ids.length, T);
      const all = scanTs(rx, q, T);
      expect(all.length).toBeGreaterThan(100);
      const ranges = gramRanges(rx, q, D, -1, Infinity)!;
      expect(ranges).not.toBeNull();
      for (const h of all) {
        let inside = false;
        for (let r = 0; r < ranges.length; r += 2) if (ranges[r] <= h.word && h.word + h.size <= ranges[r + 1]) inside = true;
        expect(inside, `window ${h.word}+${h.size}`).toBe(true);
      }
      // the sort itself: 31 offsets 4 apart, keys ascending, each (key, gram) pair listed once
      const gi = gramIndexOf(rx);
      const xs = Array.from({ length: 31 }, (_, k) => 120 - 4 * k);
      const bucket = new Int32Array(q.ids.length).fill(-1);
      let total = 0;
      const want: number[] = [];
      xs.forEach((x, k) => {
        const h = (bucket[x] = gramHash(q.ids, x)); // as gramRanges hashes it
        total += gi.start[h + 1] - gi.start[h];
        for (let o = gi.start[h]; o < gi.start[h + 1]; o++) want.push((gi.positions[o] - x + q.ids.length) * 32 + k);
      });
      const { keys, grams } = gramEntriesSorted(gi, xs, bucket, total, q.ids.length, rx.chars.length + q.ids.length);
      const got: number[] = [];
      for (let i = 0; i < total; i++) {
        if (i > 0) expect(keys[i]).toBeGreaterThanOrEqual(keys[i - 1]);
        got.push(keys[i] * 32 + grams[i]);
      }
      expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
      // a slot (2^shift keys, shift as gramEntriesSorted picks it) holds > GRAM_SLOT_INSERTION (32)
      // entries somewhere: the packed path ran
      const limit = rx.chars.length + q.ids.length;
      let shift = 0;
      while (limit >>> shift > total) shift++;
      const perSlot = new Map<number, number>();
      for (let i = 0; i < total; i++) perSlot.set(keys[i] >>> shift, (perSlot.get(keys[i] >>> shift) ?? 0) + 1);
      expect(Math.max(...perSlot.values())).toBeGreaterThan(32);
    } finally {
      tuning.gramShare = share;
      tuning.gramSurvivorCost = survivorCost;
    }
  });

  it("too many survivors: null (the caller's other ways run)", () => {
    // common words, and the largest D that still fits D + 1 grams: one intact gram is enough
    const q = prepareQuote(ix, "and the of the and to the of and the in the").q;
    const D = Math.floor(q.ids.length / 4) - 1;
    const share = tuning.gramShare;
    tuning.gramShare = 0;
    try {
      expect(gramRanges(ix, q, D, -1, 2)).toBeNull();
      expect(gramRanges(ix, q, D, -1, Infinity)!.length).toBeGreaterThan(200);
      expect(gramRanges(ix, q, D + 1, -1, Infinity)).toBeNull(); // D + 2 grams do not fit
    } finally {
      tuning.gramShare = share;
    }
  });

  it("locate(q, {limit}) takes the filter and answers as the full scan does, both backends, one source and all", () => {
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const ts = createQuoteIndex(texts, { backend: "ts" });
    const small = tuning.smallWords;
    tuning.smallWords = 0; // the best-first search on this ~20 K-word fixture
    const grams0 = searchPaths.grams;
    const rand = mulberry32(4242);
    try {
      for (let k = 0; k < LOCATES; k++) {
        const t = k % 3;
        const nw = words(texts[t]).length;
        const n = [9, 11, 14, 20, 26][k % 5];
        const quote = quoteAt(texts[t], Math.floor(rand() * (nw - n)), n, 1 + (k % 2), rand);
        for (const index of [wasm, ts]) {
          const full = index.locate(quote);
          const fullOverlapping = index.locate(quote, { overlapping: true });
          for (const limit of [1, 3]) {
            expect(index.locate(quote, { limit }), `${index.backend} k=${limit}: ${quote}`).toEqual(full.slice(0, limit));
            expect(index.locate(quote, { limit, overlapping: true }), `${index.backend} k=${limit} overlapping: ${quote}`).toEqual(fullOverlapping.slice(0, limit));
          }
          const only = String((t + k) % 4);
          expect(index.locate(quote, { limit: 2, source: only }), `${index.backend} source ${only}: ${quote}`).toEqual(index.locate(quote, { source: only }).slice(0, 2));
        }
      }
    } finally {
      tuning.smallWords = small;
    }
    expect(searchPaths.grams - grams0).toBeGreaterThan(depth(14, 40));
  }, 600_000);
});
