/**
 * Public `bestSpan(quote, pool)` per case class, side by side with RapidFuzz
 * `partial_ratio_alignment` (max over the pool, python3 bench/python/rapidfuzz_locate.py) and
 * fuzzball `partial_ratio` (max over the pool), on what the code was not tuned on: a pool of 12
 * passages of ~1,200 characters cut from places drawn from a seed over every book of
 * ../shared/data/books, and per class 12 quotes of 5–30 words drawn from the same seed —
 * verbatim, 1–3 word edits (substitute, drop, insert "indeed"), and found nowhere (cut from
 * other places of the books, 0–3 edits).
 *
 * groundwire is timed through the public function the README shows, twice: a pool seen
 * before (prepared on the first call and reused: bestSpan keeps recent pools), and one-shot
 * (a pool not seen before each call: prepared in the call; the pool alternates among 16
 * copies differing by a trailing space, more than the cache keeps, so the spans are the same).
 * RapidFuzz and fuzzball get the normalized texts (word keys joined by one space).
 * Each class also reports groundwire's per-quote median, p90 and worst (pool seen before), and the
 * no-match class each quote's time beside a matching quote of the same length (as many words,
 * as many edits, cut from the pool), interleaved, with the ratio of the two.
 * Seed: GROUNDWIRE_BENCH_SEED (default 36).
 *
 * Run alone: `npm run bench:classes` (builds the WASM core, then `tsx bench/run.ts best-span-classes`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as fuzzball from "fuzzball";
import { bestSpan, type SpanMatch } from "../ts/match/best-span.js";
import { normalize, words } from "../ts/match/words.js";
import { editedQuote } from "./quotes.js";
import type { BenchCase, BenchSuite, Contender } from "./harness.js";
import { PYTHON, pythonLacks } from "./python.js";
import { mulberry32 } from "../test/prng.js";

const RAPIDFUZZ = fileURLToPath(new URL("./python/rapidfuzz_locate.py", import.meta.url));
const BOOKS = fileURLToPath(new URL("../../shared/data/books/", import.meta.url));

/** A passage of ~`chars` characters at a place drawn from the books (weighted by length), cut at spaces. */
function cut(books: string[], rand: () => number, chars: number): string {
  const total = books.reduce((n, t) => n + t.length, 0);
  let at = Math.floor(rand() * total);
  let b = 0;
  while (at >= books[b].length) at -= books[b++].length;
  const text = books[b];
  at = Math.min(at, Math.max(0, text.length - chars - 1));
  const start = text.indexOf(" ", at) + 1;
  return text.slice(start, text.lastIndexOf(" ", start + chars)).replace(/\s+/g, " ").trim();
}

/** A quote of `n` words from `src` with `edits` word edits. */
function quoteOf(src: string, rand: () => number, n: number, edits: number): string {
  const ws = words(src).map((w) => src.slice(w.start, w.end));
  return editedQuote(ws, rand, n, edits);
}

export interface ClassSet {
  pool: string[];
  classes: { name: string; quotes: string[] }[];
  /** Per quote found nowhere, a quote of as many words with as many edits cut from the pool. */
  matching: string[];
}

export function makeClasses(booksDir: string, seed: number): ClassSet {
  const books = readdirSync(booksDir).filter((f) => f.endsWith(".txt")).sort().map((f) => readFileSync(join(booksDir, f), "utf8"));
  const rand = mulberry32(seed);
  const pool = Array.from({ length: 12 }, () => cut(books, rand, 1200));
  const size = () => 5 + Math.floor(rand() * 26);
  const from = () => pool[Math.floor(rand() * pool.length)];
  const verbatim = Array.from({ length: 12 }, () => quoteOf(from(), rand, size(), 0));
  const edited = Array.from({ length: 12 }, (_, k) => quoteOf(from(), rand, size(), 1 + (k % 3)));
  const sizes: number[] = [];
  const nowhere = Array.from({ length: 12 }, (_, k) => {
    const place = cut(books, rand, 1200);
    sizes.push(size());
    return quoteOf(place, rand, sizes[k], k % 4);
  });
  // drawn after the classes, so adding them left the classes as they were
  const matching = sizes.map((n, k) => quoteOf(from(), rand, n, k % 4));
  return { pool, classes: [{ name: "verbatim", quotes: verbatim }, { name: "1–3 word edits", quotes: edited }, { name: "found nowhere", quotes: nowhere }], matching };
}

/** The q-quantile of xs (nearest rank). */
function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

const ms3 = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toPrecision(3) : x.toFixed(3));
const spread = (xs: readonly number[]) => `median ${ms3(quantile(xs, 0.5))} ms, p90 ${ms3(quantile(xs, 0.9))} ms, worst ${ms3(Math.max(...xs))} ms`;

/**
 * Per quote, the median ms of `reps` calls of each function, the functions interleaved call by call
 * (so a noisy moment of the machine falls on both alike).
 */
function perQuote(fns: ((i: number) => unknown)[], count: number, reps: number): number[][] {
  const t = fns.map(() => Array.from({ length: count }, () => [] as number[]));
  for (let r = 0; r < reps; r++) {
    for (let i = 0; i < count; i++) {
      fns.forEach((f, k) => {
        const s = performance.now();
        f(i);
        t[k][i].push(performance.now() - s);
      });
    }
  }
  return t.map((row) => row.map((x) => quantile(x, 0.5)));
}

function rapidfuzz(pool: string[], quotes: string[], expected: number[], seen: { perQuote?: number[] }): Contender {
  return {
    name: "RapidFuzz partial_ratio_alignment (max over the pool)",
    kind: "external",
    async measure(options) {
      const dir = mkdtempSync(join(tmpdir(), "groundwire-bestspan-classes-"));
      const file = join(dir, "cases.json");
      writeFileSync(file, JSON.stringify({ texts: pool.map(normalize), quotes: quotes.map(normalize), expected }));
      const out = execFileSync(PYTHON, [RAPIDFUZZ, file, String(Math.max(0.5, (options?.budgetMs ?? 3000) / 1000))], { encoding: "utf8", maxBuffer: 1 << 24 });
      const r = JSON.parse(out.trim().split("\n").pop()!) as { medianMs: number; samples: number; agree: number; perQuoteMedians: number[] };
      seen.perQuote = r.perQuoteMedians;
      const known = expected.filter((e) => e >= 0).length;
      return { medianMs: r.medianMs, samples: r.samples, note: `its best passage is ours for ${r.agree}/${known} quotes (score only)` };
    },
  };
}

export function classCases(set: ClassSet): BenchCase[] {
  const { pool } = set;
  const copies = Array.from({ length: 16 }, (_, k) => [...pool.slice(0, -1), pool[pool.length - 1] + " ".repeat(k + 1)]);
  const lacks = pythonLacks("rapidfuzz");
  return set.classes.map(({ name, quotes }, c) => {
    const nowhere = c === set.classes.length - 1;
    const rf: { perQuote?: number[] } = {};
    const expected = quotes.map((q) => bestSpan(q, pool));
    const check = (o: unknown) => (o as SpanMatch[]).forEach((s, i) => {
      const e = expected[i];
      if (s.ratio !== e.ratio || s.source !== e.source || s.start !== e.start || s.end !== e.end) throw new Error(`${name} quote ${i}: ${JSON.stringify(s)} ≠ ${JSON.stringify(e)}`);
    });
    const normPool = pool.map(normalize);
    const normQuotes = quotes.map(normalize);
    let turn = 0;
    const contenders: Contender[] = [
      { name: "bestSpan(quote, pool), public, pool seen before", run: () => quotes.map((q) => bestSpan(q, pool)), check },
      { name: "bestSpan(quote, pool), public, one-shot (pool new to the call)", run: () => quotes.map((q) => bestSpan(q, copies[turn++ % copies.length])), check },
      ...(lacks ? [] : [rapidfuzz(pool, quotes, expected.map((e) => e.source), rf)]),
      {
        name: "fuzzball partial_ratio (max over the pool)",
        run: () => normQuotes.map((q) => Math.max(...normPool.map((p) => fuzzball.partial_ratio(q, p)))),
        check: () => {},
      },
    ];
    return {
      name: `public bestSpan per class: ${name}, 12 quotes of 5–30 words, pool of 12 passages of ~1,200 chars (seeded over all books)`,
      size: "large",
      units: { count: quotes.length, unit: "quotes" },
      contenders,
      extra: () => {
        const out: Record<string, string> = {
          "quote words": quotes.map((q) => words(q).length).join(", "),
          "best ratios": expected.map((e) => e.ratio.toFixed(2)).join(", "),
        };
        if (!nowhere) {
          const [own] = perQuote([(i) => bestSpan(quotes[i], pool)], quotes.length, 7);
          out["bestSpan per quote, pool seen before"] = spread(own);
        } else {
          // each quote found nowhere beside a quote of as many words and edits that the pool holds
          const [own, same] = perQuote([(i) => bestSpan(quotes[i], pool), (i) => bestSpan(set.matching[i], pool)], quotes.length, 7);
          const ratios = own.map((x, i) => x / same[i]);
          out["bestSpan per quote, pool seen before"] = spread(own);
          out["a matching quote of the same length (same words and edits, from the pool), per quote"] = spread(same);
          out["found nowhere ÷ matching, same length, per quote"] = `${ratios.map((r) => `${r.toFixed(1)}×`).join(", ")}; median ${quantile(ratios, 0.5).toFixed(1)}×, worst ${Math.max(...ratios).toFixed(1)}×`;
          out["matching quotes' best ratios"] = set.matching.map((q) => bestSpan(q, pool).ratio.toFixed(2)).join(", ");
        }
        if (rf.perQuote) out["RapidFuzz per quote"] = spread(rf.perQuote);
        if (lacks) out.note = lacks;
        return out;
      },
    } satisfies BenchCase;
  });
}

const suite: BenchSuite = {
  part: "best-span-classes",
  async cases(): Promise<BenchCase[]> {
    if (!existsSync(BOOKS)) {
      suite.skipped = `${BOOKS} absent: the per-class bestSpan bench needs the books of ../shared/data`;
      return [];
    }
    return classCases(makeClasses(BOOKS, Number(process.env.GROUNDWIRE_BENCH_SEED ?? 36)));
  },
};

export default suite;
