// The quote index (issue 18): locate is exact to the exhaustive window scan on both
// backends, and the cases.
import { markupSafeSpan } from "../../ts/match/markup.js";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  __quoteIndexInternals, createQuoteIndex, locateQuotes, rankHits, scanExhaustive, scanTs, type WindowHit,
} from "../../ts/match/quote-index/index.js";
import { bestSpan } from "../../ts/match/best-span.js";
import { words } from "../../ts/match/words.js";
import { parseBook } from "../../ts/moot/retrieval.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";
import { digest, referenceResults } from "../reference-results.js";

// npm test: the first quotes of each seeded sweep (every kind of quote kept); npm run test:deep
// (test/depth.ts): all of them. The exhaustive scans are the cost: npm test takes their windows from
// test/fixtures/reference/quote-index.json (test/reference-results.ts); npm run test:deep scans
// every time and checks the stored ones.
const references = referenceResults("quote-index");

/** scanExhaustive(ix, the quote, minRatio) over `texts` (ix = prepare(texts)): stored for npm test (as [word, size, ratio]). */
function exhaustive(texts: string[], ix: ReturnType<typeof __quoteIndexInternals.prepare>, quote: string, minRatio: number): WindowHit[] {
  const rows = references.value({ texts: digest(texts), quote, minRatio }, () =>
    scanExhaustive(ix, __quoteIndexInternals.prepareQuote(ix, quote).q, minRatio).map((h) => [h.word, h.size, h.ratio]),
  );
  return rows.map(([word, size, ratio]) => ({ word, size, ratio }));
}
const PARITY = depth(72, 1000), SMALL = depth(30, 300), BOUNDARY = depth(10, 30), LONG = depth(8, 80), SHORT = depth(4, 40);

const fixture = JSON.parse(readFileSync(new URL("../fixtures/moot/parity.json", import.meta.url), "utf8")) as { passages: string[] };
const KJV = new URL("../../../shared/data/books/scripture__kjv.txt", import.meta.url);

// Texts in other scripts (public-domain openings: Tolstoy, the Iliad, the Analects, the Gita, Ibn Tufail's title page style).
const OTHER_SCRIPTS = [
  "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. Всё смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме француженкою-гувернанткой.",
  "Μῆνιν ἄειδε θεὰ Πηληϊάδεω Ἀχιλῆος οὐλομένην, ἣ μυρί᾽ Ἀχαιοῖς ἄλγε᾽ ἔθηκε, πολλὰς δ᾽ ἰφθίμους ψυχὰς Ἄϊδι προΐαψεν ἡρώων, αὐτοὺς δὲ ἑλώρια τεῦχε κύνεσσιν.",
  "धर्मक्षेत्रे कुरुक्षेत्रे समवेता युयुत्सवः मामकाः पाण्डवाश्चैव किमकुर्वत सञ्जय। दृष्ट्वा तु पाण्डवानीकं व्यूढं दुर्योधनस्तदा।",
  "學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？",
];

const keys = (t: string) => words(t).map((w) => w.key);
const phrase = (ks: string[]) => ks.join(" ");

/** Quotes of every kind the issue lists, drawn from `texts` (and from `others`, which are not indexed). */
function makeQuotes(texts: string[], others: string[], count: number, seed: number): string[] {
  const rand = mulberry32(seed);
  const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const out: string[] = [];
  for (let q = 0; q < count; q++) {
    const kind = q % 6;
    const from = kind === 4 ? pick(others) : pick(texts);
    const ws = words(from).map((w) => from.slice(w.start, w.end));
    if (!ws.length) continue;
    const n = Math.min(ws.length, 1 + Math.floor(rand() * 11));
    const i = Math.floor(rand() * (ws.length - n + 1));
    const picked = ws.slice(i, i + n);
    if (kind === 1 || kind === 2) {
      // 1–4 word edits: substitute, drop, insert, or misspell
      const edits = 1 + Math.floor(rand() * 4);
      for (let e = 0; e < edits && picked.length > 1; e++) {
        const j = Math.floor(rand() * picked.length);
        const op = Math.floor(rand() * 4);
        if (op === 0) picked[j] = pick(ws);
        else if (op === 1) picked.splice(j, 1);
        else if (op === 2) picked.splice(j, 0, pick(["indeed", "very", "the", "not"]));
        else picked[j] = picked[j].slice(0, -1) + "xq"[Math.floor(rand() * 2)];
      }
    }
    if (kind === 3) {
      for (let j = picked.length - 1; j > 0; j--) {
        const k = Math.floor(rand() * (j + 1));
        [picked[j], picked[k]] = [picked[k], picked[j]];
      }
    }
    out.push(picked.join(kind === 5 ? "  " : " "));
  }
  return out;
}


describe("parity with the exhaustive scan", () => {
  // Six small texts: four passages of the real books (parity fixture) and two other-script texts.
  // (cut to ~250 characters at a word boundary: the exhaustive scan is O(windows·la·lb) per quote)
  const cut = (t: string) => t.slice(0, t.indexOf(" ", 250) < 0 ? t.length : t.indexOf(" ", 250));
  const texts = [3, 17, 40, 90, 130].map((i) => cut(fixture.passages[i])).concat([OTHER_SCRIPTS[0], OTHER_SCRIPTS[3]]);
  const others = [cut(fixture.passages[120]), OTHER_SCRIPTS[1], OTHER_SCRIPTS[2]];
  const ix = __quoteIndexInternals.prepare(texts);
  const wasm = createQuoteIndex(texts, { backend: "wasm" });
  const ts = createQuoteIndex(texts, { backend: "ts" });
  const quotes = makeQuotes(texts, others, PARITY, 18);

  it(`every window ≥ minRatio, with its exact ratio, on both backends (${PARITY.toLocaleString("en")} quotes × 3 thresholds)`, () => {
    let nonEmpty = 0;
    for (const quote of quotes) {
      const q = __quoteIndexInternals.prepareQuote(ix, quote).q;
      const all = exhaustive(texts, ix, quote, 0.5);
      for (const minRatio of [0.5, 0.8, 0.95]) {
        const want = rankHits(ix, all.filter((h) => h.ratio >= minRatio), true, Infinity);
        expect(rankHits(ix, scanTs(ix, q, minRatio), true, Infinity), quote).toEqual(want);
        for (const index of [wasm, ts]) {
          const got = index.locate(quote, { minRatio, overlapping: true });
          expect(got.map((g) => [g.sourceIndex, g.word, g.words, g.ratio]), `${index.backend}: ${quote}`).toEqual(
            want.map((h) => {
              const s = ix.wordSource[h.word];
              return [s, h.word - ix.sourceWords[s], h.size, h.ratio];
            }),
          );
        }
        if (want.length) nonEmpty++;
      }
    }
    // the suite is not vacuous: most quotes have spans above the thresholds
    expect(nonEmpty).toBeGreaterThan(quotes.length);
  }, 600_000);

  it("long quotes (1–4 words of 64 bits in WASM, up to 7 of 32 bits in TS): same windows as the exhaustive scan", () => {
    const long = [40, 60].map((i) => fixture.passages[i].slice(0, fixture.passages[i].indexOf(" ", 700)));
    const lix = __quoteIndexInternals.prepare(long);
    const lw = createQuoteIndex(long, { backend: "wasm" });
    const lt = createQuoteIndex(long, { backend: "ts" });
    const rand = mulberry32(7);
    let checked = 0;
    for (let k = 0; k < 24; k++) {
      const src = long[k % 2];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = 20 + Math.floor(rand() * 24);
      const i = Math.floor(rand() * (ws.length - n));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e < k % 4; e++) picked[1 + Math.floor(rand() * (n - 2))] = "indeed";
      const quote = picked.join(" ");
      const q = __quoteIndexInternals.prepareQuote(lix, quote).q;
      const want = rankHits(lix, exhaustive(long, lix, quote, 0.7), true, Infinity).map((h) => [h.word, h.size, h.ratio]);
      const toRow = (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + lix.sourceWords[g.sourceIndex], g.words, g.ratio];
      expect(lw.locate(quote, { minRatio: 0.7, overlapping: true }).map(toRow), quote).toEqual(want);
      expect(lt.locate(quote, { minRatio: 0.7, overlapping: true }).map(toRow), quote).toEqual(want);
      if (q.ids.length > 128) checked++;
    }
    expect(checked).toBeGreaterThan(5); // quotes over 128 characters: 3+ words of 64 bits
  }, 600_000);

  it("the first span is bestSpan's winner whenever that scores ≥ minRatio; spans never overlap by default", () => {
    for (const quote of quotes.slice(0, 400)) {
      const best = bestSpan(quote, texts);
      for (const index of [wasm, ts]) {
        const got = index.locate(quote);
        if (best.ratio >= 0.8) {
          expect(got[0], quote).toMatchObject({ text: best.text, ratio: best.ratio, sourceIndex: best.source, start: best.start, end: best.end });
        } else expect(got, quote).toEqual([]);
        for (let i = 1; i < got.length; i++) {
          expect(got[i].ratio).toBeLessThanOrEqual(got[i - 1].ratio);
          for (let j = 0; j < i; j++) {
            if (got[i].sourceIndex === got[j].sourceIndex) expect(got[i].end <= got[j].start || got[i].start >= got[j].end).toBe(true);
          }
        }
      }
    }
  });

  it("the exact path (limit) gives the scan's first spans", () => {
    for (const quote of quotes.filter((_, i) => i % 6 === 0).slice(0, 150)) {
      const full = wasm.locate(quote);
      expect(wasm.locate(quote, { limit: 1 })).toEqual(full.slice(0, 1));
      expect(ts.locate(quote, { limit: 2 })).toEqual(full.slice(0, 2));
    }
  });

  it("every span is the source's own text, never cut inside a word; by default widened over the markup runs it splits", () => {
    for (const quote of quotes.slice(0, 200)) {
      const safe = wasm.locate(quote);
      wasm.locate(quote, { edges: "words" }).forEach((s, i) => {
        const src = texts[s.sourceIndex];
        expect(s.text).toBe(src.slice(s.start, s.end));
        const ws = words(src);
        expect(ws.some((w) => w.start === s.start)).toBe(true);
        expect(ws.some((w) => w.end === s.end)).toBe(true);
        // the default edges: the same window, its span made markup-safe (ts/match/markup.ts)
        const m = markupSafeSpan(src, s.start, s.end);
        expect(safe[i]).toEqual({ ...s, start: m.start, end: m.end, text: src.slice(m.start, m.end) });
      });
    }
  });

  it("texts long enough for the split edit-distance pass (WASM lanes): quotes at and across every lane boundary, 1–3 blocks", () => {
    // two texts of ~1,100 and ~700 words: the WASM pass cuts each into 4/3/2 lanes (1/2/3 blocks of
    // 64 bits) once it has 4·K·(n+2) words; quotes are taken across the lane boundaries (word nw·l/K
    // of each text) and elsewhere
    const big = [fixture.passages.slice(0, 10).join(" "), fixture.passages.slice(60, 66).join(" ")];
    const bix = __quoteIndexInternals.prepare(big);
    const bw = createQuoteIndex(big, { backend: "wasm" });
    const bt = createQuoteIndex(big, { backend: "ts" });
    const rand = mulberry32(4096);
    const toRow = (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + bix.sourceWords[g.sourceIndex], g.words, g.ratio];
    const blocks = new Set<number>();
    let nonEmpty = 0;
    for (let k = 0; k < BOUNDARY; k++) {
      const t = k % 2;
      const src = big[t];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = [4, 9, 14, 20, 26][k % 5];
      const lanes = [4, 3, 2][Math.floor(k / 5) % 3];
      const boundary = Math.floor((ws.length * (1 + (k % lanes))) / lanes);
      // start a few words before, at, or after the boundary (a window straddles it), or anywhere
      const i = k % 8 === 7 ? Math.floor(rand() * (ws.length - n)) : Math.max(0, Math.min(ws.length - n, boundary - Math.floor(rand() * (n + 3))));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e < k % 4; e++) picked[Math.floor(rand() * n)] = ["indeed", "not", "very"][e % 3];
      const quote = picked.join(" ");
      const q = __quoteIndexInternals.prepareQuote(bix, quote).q;
      blocks.add(Math.ceil(q.ids.length / 64));
      const want = rankHits(bix, exhaustive(big, bix, quote, 0.7), true, Infinity).map((h) => [h.word, h.size, h.ratio]);
      expect(bw.locate(quote, { minRatio: 0.7, overlapping: true }).map(toRow), quote).toEqual(want);
      expect(bt.locate(quote, { minRatio: 0.7, overlapping: true }).map(toRow), quote).toEqual(want);
      if (want.length) nonEmpty++;
    }
    expect([...blocks].sort()).toEqual([1, 2, 3]);
    expect(nonEmpty).toBeGreaterThan(depth(7, 24));
  }, 600_000);
});

describe("the issue's cases", () => {
  it("a quote present verbatim twice in one book: both spans, in order, ratio 1.0", () => {
    const sentence = "It is a truth universally acknowledged that a single man must be in want of a wife";
    const book = parseBook("novel/twice", `${fixture.passages[5]}\n\n${sentence}.\n\n${fixture.passages[6]}\n\n${sentence}!\n\n${fixture.passages[7]}`);
    for (const backend of ["wasm", "ts"] as const) {
      const ix = createQuoteIndex([book], { backend });
      const got = ix.locate(sentence.toUpperCase());
      expect(got.map((g) => g.ratio)).toEqual([1, 1]);
      expect(got[0].start).toBeLessThan(got[1].start);
      expect(got.map((g) => g.text)).toEqual([sentence, sentence]);
      expect(ix.locate(sentence, { limit: 2 })).toEqual(got);
    }
  });

  it("a quote whose best window straddles two passages: found in the whole text, with both labels", () => {
    const text = fixture.passages.slice(20, 26).join("\n\n");
    const book = parseBook("novel/straddle", text);
    expect(book.passages.length).toBeGreaterThan(1);
    const first = book.passages[0].content;
    const second = book.passages[1].content;
    const tail = keys(first).slice(-5);
    const head = keys(second).slice(0, 5);
    const quote = phrase([...tail, ...head]);
    for (const backend of ["wasm", "ts"] as const) {
      const got = createQuoteIndex([book], { backend }).locate(quote);
      expect(got[0].ratio).toBe(1);
      expect(got[0].passages).toEqual([book.passages[0].name, book.passages[1].name]);
      // no single passage holds it: bestSpan over the passages scores below 1
      expect(bestSpan(quote, book.passages.map((p) => p.content)).ratio).toBeLessThan(1);
    }
  });

  it.skipIf(!existsSync(KJV))("a 12-word quote, 3 words changed, in a 3 MB text whose only span ≥ 0.8 is near the end", () => {
    const text = readFileSync(KJV, "utf8");
    expect(text.length).toBeGreaterThan(2_900_000);
    const ws = words(text);
    const at = ws.length - 400;
    const original = ws.slice(at, at + 12).map((w) => text.slice(w.start, w.end));
    const edited = [...original];
    // three words changed, each by one letter
    for (const j of [2, 6, 10]) edited[j] = edited[j].slice(0, -1) + (edited[j].endsWith("q") ? "z" : "q");
    const quote = edited.join(" ");
    const best = bestSpan(quote, [text], { backend: "wasm" });
    expect(best.ratio).toBeGreaterThanOrEqual(0.8);
    for (const backend of ["wasm", "ts"] as const) {
      const got = createQuoteIndex([text], { backend }).locate(quote, { overlapping: true });
      expect(got[0]).toMatchObject({ text: best.text, ratio: best.ratio, start: best.start, end: best.end });
      expect(got[0].start).toBeGreaterThan(text.length * 0.99);
      // every window above 0.8 overlaps the winner: the only span
      for (const g of got) expect(g.start < best.end && g.end > best.start).toBe(true);
    }
  }, 120_000);

  it("a quote that matches nothing above minRatio: empty", () => {
    const texts = fixture.passages.slice(0, 30);
    for (const backend of ["wasm", "ts"] as const) {
      const ix = createQuoteIndex(texts, { backend });
      expect(ix.locate("colourless green ideas sleep furiously beneath quantum refrigerators")).toEqual([]);
      expect(ix.locate("")).toEqual([]);
    }
  });
});

describe("input checks", () => {
  const ix = createQuoteIndex(["a b c d e f"], { backend: "ts" });
  it("rejects bad options and input with a clear error", () => {
    expect(() => ix.locate("a b c", { minRatio: 0 })).toThrow(/minRatio/);
    expect(() => ix.locate("a b c", { minRatio: 1.5 })).toThrow(/minRatio/);
    expect(() => ix.locate("a b c", { limit: 0 })).toThrow(/limit/);
    expect(() => ix.locate("a b c", { source: "nope" })).toThrow('locate: options.source must be a key of the index, got "nope"');
    expect(() => ix.locate(42 as unknown as string)).toThrow("locate: quote must be a string, got 42");
    expect(() => ix.locate("w ".repeat(201))).toThrow(/MAX_QUOTE_WORDS/);
    // bounded in characters too, as bestSpan is: one 5,000-letter word is refused, not searched
    expect(() => ix.locate("x".repeat(5_000))).toThrow(/more than MAX_QUOTE_CHARS \(2000\) characters once normalized; too long to locate/);
    expect(() => createQuoteIndex("abc" as unknown as string[])).toThrow(/createQuoteIndex: input must be an array, got "abc"/);
    expect(() => createQuoteIndex([{ key: "a", text: "x" }, { key: "a", text: "y" }])).toThrow(/twice/);
    expect(() => createQuoteIndex([{ key: "a", text: "xy", passages: [{ label: "p", start: 0, end: 9 }] }])).toThrow(/passages\[0\]/);
  });
  it("restricts to one source by key", () => {
    const two = createQuoteIndex([{ key: "x", text: "the cat sat on the mat" }, { key: "y", text: "the cat sat on the mat" }]);
    expect(two.locate("cat sat on the mat").map((s) => s.source)).toEqual(["x", "y"]);
    expect(two.locate("cat sat on the mat", { source: "y" }).map((s) => s.source)).toEqual(["y"]);
    expect(two.locate("cat sat on the mat", { source: "y", limit: 1 }).map((s) => s.source)).toEqual(["y"]);
  });
});

describe("shared limits", () => {
  it("locate and bestSpan accept the same longest quote", async () => {
    const bs = await import("../../ts/match/best-span.js");
    const qi = await import("../../ts/match/quote-index/index.js");
    expect(qi.MAX_QUOTE_WORDS).toBe(bs.MAX_QUOTE_WORDS);
  });
});

describe("grounding helpers", () => {
  it("snapQuotes with an index of its pool snaps exactly as without", async () => {
    const { snapQuotes } = await import("../../ts/moot/grounding.js");
    const pool = fixture.passages.slice(10, 16);
    const ws = words(pool[2]).map((w) => pool[2].slice(w.start, w.end));
    const near = [...ws.slice(5, 15)];
    near[4] = near[4] + "s";
    const reply = `As the book says, "${near.join(" ")}" [s1]. And "${ws.slice(20, 26).join(" ")}" [s1], "zebra quantum harmonica lighthouse" [s1].`;
    for (const backend of ["wasm", "ts"] as const) {
      const index = createQuoteIndex(pool, { backend });
      const withIndex = snapQuotes(reply, pool, undefined, undefined, { index });
      const without = snapQuotes(reply, pool);
      expect(withIndex.text).toBe(without.text);
      expect(withIndex.snaps.map((s) => [s.action, s.to])).toEqual(without.snaps.map((s) => [s.action, s.to]));
      expect(withIndex.snaps.some((s) => s.action === "snapped")).toBe(true);
    }
  });

  it("locateQuotes says where a quote missing from the turn's passages is in the whole book", async () => {
    const { checkGrounding } = await import("../../ts/moot/grounding.js");
    const book = parseBook("novel/sample", fixture.passages.slice(30, 36).join("\n\n"));
    const cited = book.passages[0].content;
    const elsewhere = book.passages[book.passages.length - 1].content;
    const ew = words(elsewhere).map((w) => elsewhere.slice(w.start, w.end));
    const quote = ew.slice(3, 12).join(" ");
    const g = checkGrounding(`"${quote}" [s1]`, [{ tag: "s1", content: cited }]);
    expect(g.quotes[0].found).toBe(false);
    const [located] = locateQuotes(g.quotes, createQuoteIndex([book]));
    expect(located.locatedAt[0]).toMatchObject({ source: "novel/sample", ratio: 1, passages: [book.passages[book.passages.length - 1].name] });
  });
});

describe("limit k: the best-first search gives the first k spans of the full answer", () => {
  // the seeds and the pigeonhole filter run on texts of any size here (by default only from 65,536 words)
  const smallWords = __quoteIndexInternals.tuning.smallWords;
  beforeAll(() => void (__quoteIndexInternals.tuning.smallWords = 0));
  afterAll(() => void (__quoteIndexInternals.tuning.smallWords = smallWords));
  const toRow = (base: Int32Array) => (g: { sourceIndex: number; word: number; words: number; ratio: number }) => [g.word + base[g.sourceIndex], g.words, g.ratio];

  it("against the exhaustive scan, small texts, both backends (verbatim, 1–4 edits, shuffled, other scripts; k = 1, 2, 3; overlaps on and off)", () => {
    const cut = (t: string) => t.slice(0, t.indexOf(" ", 400) < 0 ? t.length : t.indexOf(" ", 400));
    const texts = [3, 17, 40, 90, 130, 141].map((i) => cut(fixture.passages[i])).concat([OTHER_SCRIPTS[0], OTHER_SCRIPTS[1], OTHER_SCRIPTS[3]]);
    const others = [cut(fixture.passages[120]), OTHER_SCRIPTS[2]];
    const ix = __quoteIndexInternals.prepare(texts);
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const ts = createQuoteIndex(texts, { backend: "ts" });
    let nonEmpty = 0;
    for (const quote of makeQuotes(texts, others, SMALL, 1818)) {
      const all = exhaustive(texts, ix, quote, 0.8);
      for (const overlapping of [false, true]) {
        for (const limit of [1, 2, 3]) {
          const want = rankHits(ix, all, overlapping, limit).map((h) => [h.word, h.size, h.ratio]);
          for (const index of [wasm, ts]) {
            expect(index.locate(quote, { limit, overlapping }).map(toRow(ix.sourceWords)), `${index.backend} k=${limit} ${overlapping}: ${quote}`).toEqual(want);
          }
          if (want.length) nonEmpty++;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(depth(55, 600));
  }, 600_000);

  it("against the full scan on 100 K characters, where the pigeonhole filter runs: every way of the search is taken", () => {
    const texts = fixture.passages;
    const ix = __quoteIndexInternals.prepare(texts);
    const wasm = createQuoteIndex(texts, { backend: "wasm" });
    const ts = createQuoteIndex(texts, { backend: "ts" });
    const paths = __quoteIndexInternals.searchPaths;
    const before = { ...paths };
    // the q-gram filter off: it would answer most of these first (quote-index-grams.test.ts is its
    // suite); here the word filter, the prefix pass and the linear pass each answer
    __quoteIndexInternals.tuning.grams = false;
    // long quotes (12–40 words) with few edits: a high first ratio, so D + 1 pieces fit
    const rand = mulberry32(99);
    const quotes: string[] = [];
    for (let k = 0; k < LONG; k++) {
      const src = texts[Math.floor(rand() * texts.length)];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = Math.min(ws.length, 12 + Math.floor(rand() * 29));
      const i = Math.floor(rand() * (ws.length - n + 1));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e < k % 5; e++) {
        const j = Math.floor(rand() * picked.length);
        const op = (k + e) % 4;
        if (op === 0) picked[j] = picked[j].slice(0, -1) + "q";
        else if (op === 1 && picked.length > 2) picked.splice(j, 1);
        else if (op === 2) picked.splice(j, 0, "indeed");
        else picked[j] = ws[Math.floor(rand() * ws.length)];
      }
      quotes.push(picked.join(" "));
    }
    // short quotes (6–12 words, 1–2 edits): too few interior words for WHOLE pieces alone, so the
    // filter takes SUFFIX pieces ("k_i␣", a text word ending in k_i)
    for (let k = 0; k < SHORT; k++) {
      const src = texts[Math.floor(rand() * texts.length)];
      const ws = words(src).map((w) => src.slice(w.start, w.end));
      const n = Math.min(ws.length, 6 + Math.floor(rand() * 7));
      const i = Math.floor(rand() * (ws.length - n + 1));
      const picked = ws.slice(i, i + n);
      for (let e = 0; e <= k % 2; e++) {
        const j = Math.floor(rand() * picked.length);
        if ((k + e) % 3 === 0) picked[j] = "x" + picked[j]; // a word inside a longer one: still a suffix
        else if ((k + e) % 3 === 1) picked[j] = picked[j].slice(0, -1) + "q";
        else picked.splice(j, 0, "indeed");
      }
      quotes.push(picked.join(" "));
    }
    try {
      for (const quote of quotes) {
        for (const index of [wasm, ts]) {
          const full = index.locate(quote);
          const fullOverlapping = index.locate(quote, { overlapping: true });
          const only = full[0]?.source ?? "3";
          expect(index.locate(quote, { limit: 2, source: only }), `${index.backend} source ${only}: ${quote}`).toEqual(index.locate(quote, { source: only }).slice(0, 2));
          for (const limit of [1, 3]) {
            expect(index.locate(quote, { limit }), `${index.backend} k=${limit}: ${quote}`).toEqual(full.slice(0, limit));
            expect(index.locate(quote, { limit, overlapping: true }), `${index.backend} k=${limit} overlapping: ${quote}`).toEqual(fullOverlapping.slice(0, limit));
          }
        }
      }
    } finally {
      __quoteIndexInternals.tuning.grams = true;
    }
    // the search was not vacuous: the filter, the linear pass and the exact path all answered
    expect(paths.filter - before.filter).toBeGreaterThan(depth(3, 20));
    expect(paths.suffixPieces - before.suffixPieces).toBeGreaterThan(depth(1, 10));
    expect(paths.linear - before.linear).toBeGreaterThan(depth(1, 5));
    expect(paths.prefix - before.prefix).toBeGreaterThan(depth(1, 5)); // the linear pass through a prefix ((h))
    expect(paths.exact - before.exact).toBeGreaterThan(depth(1, 5));
    // and the TS twin agrees with the exhaustive definition on a sample of these quotes (first 30 spans' ratios are the scan's)
    const q0 = __quoteIndexInternals.prepareQuote(ix, quotes[1]).q;
    expect(rankHits(ix, scanTs(ix, q0, 0.8), false, 1)).toEqual(rankHits(ix, scanExhaustive(ix, q0, 0.8), false, 1));
  }, 600_000);

  it("edge words matched inside longer window words, both backends", () => {
    // the quote's first word is the tail of a longer text word and its last word the head of one:
    // the best window still holds them (the filter never looks up the quote's first and last words)
    const filler = fixture.passages.slice(40, 60).join(" ");
    const text = `${filler} Nevertheless another gentleman walked slowly along the narrow garden path towards the old stone fountain forevermore. ${filler}`;
    const quote = "ther gentleman walked slowly along the narrow garden path towards the old stone fountain forever";
    for (const backend of ["wasm", "ts"] as const) {
      const index = createQuoteIndex([text], { backend });
      const full = index.locate(quote, { overlapping: true });
      expect(full[0].text).toBe("another gentleman walked slowly along the narrow garden path towards the old stone fountain forevermore");
      expect(full[0].ratio).toBeGreaterThan(0.9);
      for (const limit of [1, 2, 5]) expect(index.locate(quote, { limit, overlapping: true })).toEqual(full.slice(0, limit));
      expect(index.locate(quote, { limit: 1 })).toEqual(index.locate(quote).slice(0, 1));
      expect(bestSpan(quote, [text], { backend })).toMatchObject({ text: full[0].text, ratio: full[0].ratio, start: full[0].start });
    }
  });

  it("ties: the first window in bestSpan's order wins, and the next k follow in order", () => {
    // fillers long enough (~9 K words) for the filter's budget of verified ranges
    const filler = fixture.passages.slice(0, 80).join(" ");
    const sentence = "the captain looked at the horizon where the grey ships of the northern fleet were gathering";
    const text = `${filler} ${sentence}. ${filler} ${sentence}. ${filler}`;
    const quote = sentence.replace("grey", "gray"); // one edit: the two occurrences tie below 1
    for (const backend of ["wasm", "ts"] as const) {
      const index = createQuoteIndex([text, `${filler} ${sentence}.`], { backend });
      const full = index.locate(quote);
      expect(full[0].ratio).toBeLessThan(1);
      expect(full[0].ratio).toBe(full[1].ratio);
      expect(full[0].ratio).toBe(full[2].ratio);
      expect([full[0].sourceIndex, full[1].sourceIndex, full[2].sourceIndex]).toEqual([0, 0, 1]);
      expect(full[0].start).toBeLessThan(full[1].start);
      for (const limit of [1, 2, 3]) expect(index.locate(quote, { limit })).toEqual(full.slice(0, limit));
      // one source only: the filters' anchors in the other text are not its windows (the q-gram
      // filter, then with it off the word filter)
      const paths = { ...__quoteIndexInternals.searchPaths };
      expect(index.locate(quote, { limit: 1, source: "1" })).toEqual([full[2]]);
      expect(__quoteIndexInternals.searchPaths, "the q-gram filter ran").toMatchObject({ grams: paths.grams + 1 });
      __quoteIndexInternals.tuning.grams = false;
      try {
        expect(index.locate(quote, { limit: 1, source: "1" })).toEqual([full[2]]);
      } finally {
        __quoteIndexInternals.tuning.grams = true;
      }
      expect(__quoteIndexInternals.searchPaths, "the word filter ran").toMatchObject({ filter: paths.filter + 1 });
      expect(index.locate(quote, { limit: 2, source: "0" })).toEqual(full.slice(0, 2));
      const best = bestSpan(quote, [text, `${filler} ${sentence}.`], { backend });
      expect(best).toMatchObject({ source: 0, start: full[0].start, ratio: full[0].ratio });
    }
  });

  it("choosePieces: disjoint interior pieces, a word between two, least total cost", () => {
    const counts = [0, 5, 100, 1, 100, 7, 3, 0];
    const cost = (i: number, j: number) => Math.min(...counts.slice(i, j + 1));
    const got = __quoteIndexInternals.choosePieces(8, 3, cost)!;
    expect(got.list).toEqual([[1, 1, 0], [3, 3, 0], [6, 6, 0]]); // [6, 6] and [5, 6] tie at 3: the shorter, later one is kept
    expect(got.cost).toBe(5 + 1 + 3);
    for (let k = 1; k < got.list.length; k++) expect(got.list[k][0]).toBeGreaterThanOrEqual(got.list[k - 1][1] + 2);
    expect(__quoteIndexInternals.choosePieces(8, 4, cost)).toBeNull(); // 6 interior words hold at most 3
    expect(__quoteIndexInternals.choosePieces(2, 1, cost)).toBeNull(); // no interior word
    // with SUFFIX pieces ("k_i␣", any word but the last, one space each): up to n − 1 pieces
    const suffix = (i: number) => [2, 50, 50, 50, 50, 50, 4, 9][i];
    const typed = __quoteIndexInternals.choosePieces(8, 4, cost, suffix)!;
    // [0]'s SUFFIX piece takes the space before word 1, so WHOLE [1, 1] (5) cannot follow it
    expect(typed.list).toEqual([[0, 0, 1], [3, 3, 0], [5, 5, 0], [6, 6, 1]]);
    expect(typed.cost).toBe(2 + 1 + 7 + 4);
    expect(__quoteIndexInternals.choosePieces(8, 7, cost, suffix)!.list.every((x) => x[2] === 1)).toBe(true);
    expect(__quoteIndexInternals.choosePieces(8, 8, cost, suffix)).toBeNull(); // 7 spaces
    // no space in two pieces: a WHOLE piece's spaces are its own
    for (let want = 1; want <= 7; want++) {
      const got = __quoteIndexInternals.choosePieces(8, want, cost, suffix)!;
      const spaces = got.list.flatMap(([i, j, kind]) => (kind === 1 ? [i] : Array.from({ length: j - i + 2 }, (_, t) => i - 1 + t)));
      expect(new Set(spaces).size, `want ${want}`).toBe(spaces.length);
    }
  });
});
