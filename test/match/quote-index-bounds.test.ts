// locate's bounds (issue 18, the input-bounded-time fault): the limit search at low minRatio is
// exact to the exhaustive scan while it raises its threshold chunk by chunk and steps down
// through LEVELS; a scan cut into tiny chunks finds every window once; the quote-length bound
// and the time budget throw typed errors; a generous budget changes nothing.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  __quoteIndexInternals, createQuoteIndex, locateQuotes, QuoteSearchTimeoutError, QuoteTooLongError, rankHits, scanExhaustive,
} from "../../ts/match/quote-index/index.js";
import { bestSpan, MAX_QUOTE_CHARS, MAX_QUOTE_WORDS } from "../../ts/match/best-span.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";
import { depth, spread } from "../depth.js";
import { digest, referenceResults } from "../reference-results.js";

// npm test: the first of each seeded sweep's quotes (every edit count kept in the first two sweeps);
// npm run test:deep (test/depth.ts): all. The exhaustive scans at low ratios are the cost: npm test
// takes the answers they give from test/fixtures/reference/quote-index-bounds.json
// (test/reference-results.ts); npm run test:deep scans every time and checks the stored ones.
const references = referenceResults("quote-index-bounds");
const QUOTES = depth(5, 40), CAPPED = depth(1, 8);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const BOOKS = new URL("../../data/books/", import.meta.url);
const { tuning, searchPaths } = __quoteIndexInternals;
const saved = { ...tuning };
afterEach(() => Object.assign(tuning, saved));

/** `count` quotes of 4–16 words from `texts`: verbatim or with 1–4 word edits (substitute, drop, insert). */
function quotesOf(texts: string[], count: number, seed: number): string[] {
  const rand = mulberry32(seed);
  const out: string[] = [];
  for (let q = 0; q < count; q++) {
    const src = texts[Math.floor(rand() * texts.length)];
    const ws = words(src).map((w) => src.slice(w.start, w.end));
    const n = Math.min(ws.length, 4 + Math.floor(rand() * 13));
    const i = Math.floor(rand() * (ws.length - n + 1));
    const picked = ws.slice(i, i + n);
    for (let e = 0; e < q % 5; e++) {
      const j = Math.floor(rand() * picked.length);
      const op = (q + e) % 3;
      if (op === 0) picked[j] = ws[Math.floor(rand() * ws.length)];
      else if (op === 1 && picked.length > 2) picked.splice(j, 1);
      else picked.splice(j, 0, "indeed");
    }
    out.push(picked.join(" "));
  }
  return out;
}

const row = (base: Int32Array) => (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + base[g.sourceIndex], g.words, g.ratio];

describe("low minRatio: exact to the exhaustive scan, both backends", () => {
  const cut = (t: string) => t.slice(0, t.indexOf(" ", 600) < 0 ? t.length : t.indexOf(" ", 600));
  const texts = [5, 22, 47, 88, 133].map((i) => cut(fixture.passages[i]));
  const ix = __quoteIndexInternals.prepare(texts);
  const wasm = createQuoteIndex(texts, { backend: "wasm" });
  const ts = createQuoteIndex(texts, { backend: "ts" });
  const quotes = quotesOf(texts, QUOTES, 2026);

  it("limit k = 1, 3 at minRatio 0.2–0.45, overlaps on and off, chunks of 5 words and paced, seeds on and off", () => {
    const passes = searchPaths.passes;
    let nonEmpty = 0, deeper = 0;
    for (const quote of quotes) {
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      // the exhaustive scan's answer for each minRatio, overlapping and limit below, in their order
      const wants = references.value({ texts: digest(texts), quote, minRatios: [0.2, 0.3, 0.45], limits: [1, 3] }, () => {
        const all = scanExhaustive(ix, q, 0.2);
        return [0.2, 0.3, 0.45].flatMap((minRatio) => [false, true].flatMap((overlapping) => [1, 3].map((limit) =>
          rankHits(ix, all.filter((h) => h.ratio >= minRatio), overlapping, limit).map((h) => [h.word, h.size, h.ratio]))));
      });
      let next = 0;
      for (const minRatio of [0.2, 0.3, 0.45]) {
        for (const overlapping of [false, true]) {
          for (const limit of [1, 3]) {
            const want = wants[next++];
            if (want.length === limit && want[limit - 1][2] < 0.5) deeper++;
            for (const [smallWords, chunkWords] of [[saved.smallWords, 5], [0, 0], [0, 7]]) {
              tuning.smallWords = smallWords;
              tuning.chunkWords = chunkWords;
              for (const index of [wasm, ts]) {
                expect(index.locate(quote, { minRatio, limit, overlapping }).map(row(ix.sourceWords)), `${index.backend} r=${minRatio} k=${limit} ${overlapping} ${smallWords}/${chunkWords}: ${quote}`).toEqual(want);
              }
            }
            if (want.length) nonEmpty++;
          }
        }
      }
    }
    // not vacuous: answers below the first levels (0.7, 0.5) make the search step down
    expect(nonEmpty).toBeGreaterThan(depth(45, 400));
    expect(deeper).toBeGreaterThan(depth(2, 40));
    expect(searchPaths.passes - passes).toBeGreaterThan(3 * quotes.length);
  }, 600_000);

  it("all spans (no limit) at minRatio 0.3 and 0.5 in chunks of 1, 3 and 11 words: every window once", () => {
    for (const quote of quotes.slice(0, 30)) {
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      // the exhaustive scan's spans, many: npm test compares with their stored digest
      let all: ReturnType<typeof scanExhaustive> | undefined;
      const exhaustive = () => (all ??= scanExhaustive(ix, q, 0.3));
      for (const minRatio of [0.3, 0.5]) {
        const want = () => rankHits(ix, exhaustive().filter((h) => h.ratio >= minRatio), true, Infinity).map((h) => [h.word, h.size, h.ratio]);
        for (const chunkWords of [1, 3, 11]) {
          tuning.chunkWords = chunkWords;
          for (const index of [wasm, ts]) {
            references.expectEqual({ texts: digest(texts), quote, minRatio, all: true }, index.locate(quote, { minRatio, overlapping: true }).map(row(ix.sourceWords)), want, `${index.backend} ${chunkWords}: ${quote}`);
          }
        }
      }
    }
  }, 600_000);
});

describe("the WASM chunk scan's work cap (a chunk stops after the word that spends it, and the scan goes on from there)", () => {
  const texts = fixture.passages;
  const index = createQuoteIndex(texts);
  const ix = __quoteIndexInternals.prepare(texts);
  const quotes = quotesOf(texts, CAPPED, 11);

  it("caps of 1 and 5,000 cells: the same spans as the exhaustive scan, limit and no limit, at 0.3 and 0.6", () => {
    expect(index.backend).toBe("wasm");
    let stopped = 0;
    for (const quote of quotes) {
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      // every span (many: npm test compares with their stored digest) and the best 3 of the exhaustive scan
      let all: ReturnType<typeof scanExhaustive> | undefined;
      const exhaustive = () => (all ??= scanExhaustive(ix, q, 0.3));
      for (const minRatio of [0.3, 0.6]) {
        const every = () => rankHits(ix, exhaustive().filter((h) => h.ratio >= minRatio), true, Infinity).map((h) => [h.word, h.size, h.ratio]);
        const best3 = references.value({ texts: digest(texts), quote, minRatio, best: 3 }, () => rankHits(ix, exhaustive().filter((h) => h.ratio >= minRatio), false, 3).map((h) => [h.word, h.size, h.ratio]));
        for (const cells of [1, 5_000]) {
          tuning.chunkCells = cells;
          tuning.smallWords = 0;
          const before = searchPaths.chunks;
          references.expectEqual({ texts: digest(texts), quote, minRatio, every: true }, index.locate(quote, { minRatio, overlapping: true }).map(row(ix.sourceWords)), every, `${cells}: ${quote}`);
          expect(index.locate(quote, { minRatio, limit: 3 }).map(row(ix.sourceWords)), `${cells} k=3: ${quote}`).toEqual(best3);
          if (cells === 1) stopped += searchPaths.chunks - before;
        }
      }
    }
    // a cap of one cell stops a chunk after every word that reached bound 4: many more chunks than words/4096
    expect(stopped).toBeGreaterThan(quotes.length * 20);
  }, 600_000);
});

describe("the quote-length bound: QuoteTooLongError", () => {
  const index = createQuoteIndex(fixture.passages.slice(0, 4));

  it("names the length and the bound, for locate and bestSpan; locateQuotes skips such a quote", () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `w${i % 97}`).join(" "); // a model's 5,000-word "quote"
    for (const call of [() => index.locate(many), () => index.locate(many, { limit: 1, minRatio: 0.3 }), () => bestSpan(many, fixture.passages.slice(0, 4))]) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(QuoteTooLongError);
      expect(error).toMatchObject({ status: 413, code: "too_large" });
      expect(error).toMatchObject({ words: 5_000, limit: "MAX_QUOTE_WORDS", max: MAX_QUOTE_WORDS });
      expect((error as Error).message).toMatch(/^quote has 5000 words, more than MAX_QUOTE_WORDS \(200\); too long to (locate|match)$/);
    }
    const wide = "x".repeat(2_345);
    expect(() => index.locate(wide)).toThrow(QuoteTooLongError);
    try {
      index.locate(wide);
    } catch (e) {
      expect(e).toMatchObject({ words: 1, characters: 2_345, limit: "MAX_QUOTE_CHARS", max: MAX_QUOTE_CHARS });
      expect((e as Error).message).toBe("quote has 2345 characters, more than MAX_QUOTE_CHARS (2000) characters once normalized; too long to locate");
    }
    const [skipped] = locateQuotes([{ text: many, found: false }], index);
    expect(skipped.locatedAt).toEqual([]);
  });
});

describe("the time budget: QuoteSearchTimeoutError", () => {
  const books = loadBooks(BOOKS.pathname);
  const wasm = createQuoteIndex(books, { backend: "wasm" });
  const ts = createQuoteIndex(books, { backend: "ts" });
  const text = books[1].passages.map((p) => p.content).join("\n\n");
  const ws = words(text).map((w) => text.slice(w.start, w.end));
  // 20 words of Frankenstein, one changed: all spans at 0.3 is a long scan (difflib on most windows)
  const quote = [...ws.slice(5000, 5009), "indeed", ...ws.slice(5010, 5020)].join(" ");

  it("a tiny budget throws the typed error, saying how far the search got; nothing is returned", () => {
    for (const index of [wasm, ts]) {
      for (const options of [{ minRatio: 0.3 }, { minRatio: 0.3, limit: 3 }]) {
        let error: unknown;
        try {
          index.locate(quote, { ...options, timeoutMs: 1 });
        } catch (e) {
          error = e;
        }
        expect(error, index.backend).toBeInstanceOf(QuoteSearchTimeoutError);
        const e = error as QuoteSearchTimeoutError;
        expect(e.timeoutMs).toBe(1);
        expect(e.elapsedMs).toBeGreaterThan(1);
        expect(e.minRatio).toBe(0.3);
        expect(e.threshold).toBeGreaterThanOrEqual(0.3);
        expect(e.searched).toBeLessThanOrEqual(e.total);
        if (e.unit === "words") expect(e.searched).toBeLessThan(e.total);
        expect(e.message).toMatch(/^locate: gave up after \d+ ms \(timeoutMs 1\) .* at ratio ≥ 0\.\d+ \(minRatio 0\.3\); no spans are returned: /);
        expect(e.message).toContain(options.limit ? "a higher minRatio or a lower limit" : "a limit or a higher minRatio");
      }
    }
  }, 120_000);

  it("a generous budget gives the same answer as none", () => {
    // npm test: 2 of the 5, the first and the last (both backends, without a limit and with one); npm
    // run test:deep (test/depth.ts): all
    for (const [index, options] of spread([[wasm, {}], [wasm, { limit: 3 }], [wasm, { minRatio: 0.55, limit: 2 }], [ts, {}], [ts, { limit: 3 }]] as const, 2)) {
      expect(index.locate(quote, { ...options, timeoutMs: 600_000 }), index.backend).toEqual(index.locate(quote, options));
    }
    const got = wasm.locate(quote, { minRatio: 0.3, limit: 3, timeoutMs: 600_000 });
    expect(got).toHaveLength(3);
    expect(got[0]).toMatchObject({ source: "novel/frankenstein", words: 20 });
    expect(got[0].ratio).toBeGreaterThan(0.9);
  }, 300_000);

  it("rejects a bad budget", () => {
    for (const bad of [-1, Number.NaN, "10" as unknown as number]) {
      expect(() => wasm.locate(quote, { timeoutMs: bad })).toThrow(/timeoutMs must be a number of milliseconds ≥ 0/);
    }
  });
});
