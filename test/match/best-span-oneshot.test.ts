// bestSpan on a pool it has not seen: the pool is prepared without word ids or postings (the key
// layout of ts/match/word-table.ts, `buildKeyLayout`), its exact path reads the characters
// (`verbatimByChars`), and the postings are built only if a search reads them. Each is checked
// against the way it replaces, on real books and on text in other scripts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createQuoteMatcher, type SpanMatch } from "../../ts/match/best-span.js";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { verbatim, verbatimByChars } from "../../ts/match/quote-index/rank.js";
import { words } from "../../ts/match/words.js";
import { mulberry32 } from "../prng.js";

const BOOKS = new URL("../../../shared/data/books/", import.meta.url);
const { prepare, prepareQuote, tuning } = __quoteIndexInternals;

// Texts in other scripts, with apostrophes, ligatures, accents written decomposed, digits with marks
// between them, and a word outside the BMP: keys made rather than taken from the text.
const MIXED = [
  "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. Всё смешалось в доме Облонских.",
  "Μῆνιν ἄειδε θεὰ Πηληϊάδεω Ἀχιλῆος οὐλομένην, ἣ μυρί᾽ Ἀχαιοῖς ἄλγε᾽ ἔθηκε, πολλὰς δ᾽ ἰφθίμους ψυχὰς.",
  "學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？",
  "Don’t say “the ﬁrst café” twice: the ﬁrst cafe\u0301 is 3.14 miles, the 1,000th isn’t. Don't 𝔞𝔟 x_not_y e.g. U.S.A.",
  "",
  "the the the the the the the",
];

/** ~`n` passages of ~`chars` characters from seeded places of the books (or MIXED when the books are absent). */
function passages(seed: number, n: number, chars: number): string[] {
  if (!existsSync(BOOKS)) return MIXED;
  const books = readdirSync(BOOKS).filter((f) => f.endsWith(".txt")).sort().map((f) => readFileSync(new URL(f, BOOKS), "utf8"));
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const b = books[Math.floor(rand() * books.length)];
    const at = Math.floor(rand() * Math.max(1, b.length - chars));
    return b.slice(at, at + chars);
  });
}

/** Quotes cut from `texts`: verbatim (1–12 words), with a word changed, dropped or added, or the last word cut short. */
function quotes(texts: string[], seed: number, count: number): string[] {
  const rand = mulberry32(seed);
  const out: string[] = [];
  for (let q = 0; out.length < count && q < 10 * count; q++) {
    const t = texts[Math.floor(rand() * texts.length)];
    const ws = words(t).map((w) => t.slice(w.start, w.end));
    if (!ws.length) continue;
    const n = Math.min(ws.length, 1 + Math.floor(rand() * 12));
    const i = Math.floor(rand() * (ws.length - n + 1));
    const picked = ws.slice(i, i + n);
    const kind = q % 5;
    if (kind === 1) picked[Math.floor(rand() * picked.length)] = ws[Math.floor(rand() * ws.length)];
    if (kind === 2 && picked.length > 1) picked.splice(Math.floor(rand() * picked.length), 1);
    if (kind === 3) picked.splice(Math.floor(rand() * picked.length), 0, "indeed");
    // the last word cut short (its text goes on past the quote's last character)
    if (kind === 4 && picked.length > 1 && picked[picked.length - 1].length > 1) picked[picked.length - 1] = picked[picked.length - 1].slice(0, -1);
    out.push(picked.join(" "));
  }
  return out;
}

describe("verbatimByChars gives the hits of verbatim (the word-id postings)", () => {
  for (const [name, texts] of [["book passages", passages(11, 12, 1500)], ["other scripts, made keys, empty and repetitive texts", MIXED]] as const) {
    it(`on ${name}, every source and each one alone`, () => {
      const ix = prepare([...texts]);
      let hits = 0;
      for (const quote of [...quotes([...texts], 5, 300), "the the", "the th", "the the the the the the the the", "don't", "dont", "cafe\u0301", "café", "ﬁrst café", "𝔞𝔟"]) {
        const { q, keys } = prepareQuote(ix, quote);
        if (!q.ids.length) continue;
        const lengths = keys.map((k) => [...k].length);
        for (let only = -1; only < texts.length; only++) {
          const want = verbatim(ix, keys, only);
          expect(verbatimByChars(ix, q, lengths, only), `${quote} (source ${only})`).toEqual(want);
          hits += want.length;
        }
      }
      expect(hits).toBeGreaterThan(100); // the quotes do occur verbatim: both ways found them
    });
  }
});

describe.each(["wasm", "ts"] as const)("a pool prepared without postings (%s backend)", (backend) => {
  it("answers as one whose search reads the postings (built on demand) and as one prepared with them", () => {
    const pool = [...passages(23, 12, 1200), ...MIXED];
    const qs = quotes(pool, 7, 120);
    const row = (s: SpanMatch) => [s.source, s.start, s.end, s.ratio];
    // one quote per matcher: a pool that serves one quote keeps its postings unbuilt
    const lite = () => qs.map(() => createQuoteMatcher(pool, { backend }));
    const expected = lite().map((m, i) => row(m.bestSpan(qs[i])));
    // a matcher serving many quotes builds its postings first (the exact path reads them)
    expect(createQuoteMatcher(pool, { backend }).match(qs).map(row)).toEqual(expected);
    const saved = tuning.smallWords;
    try {
      // pools prepared without postings, their search then taking the seeds and the filter: they read the postings, built on first read
      const unbuilt = lite();
      tuning.smallWords = 0;
      expect(unbuilt.map((m, i) => row(m.bestSpan(qs[i])))).toEqual(expected);
      // a pool of tuning.smallWords units or more: the whole word table from the start
      expect(createQuoteMatcher(pool, { backend }).match(qs).map(row)).toEqual(expected);
    } finally {
      tuning.smallWords = saved;
    }
    expect(expected.filter((r) => r[3] === 1).length).toBeGreaterThan(20); // verbatim quotes: the exact path answered them
  });
});
