/**
 * bestSpan benchmarks (issue 2 §4): quotes of 5–14 words against a pool of 12
 * passages of ~1,200 characters cut from the real books in ../shared/data/books.
 *
 * Contenders, all on the same quotes and pool:
 * - wasm, ts: groundwire's two backends (createQuoteMatcher: pool prepared once);
 * - python reference: the seed's algorithm (difflib with real_quick_ratio /
 *   quick_ratio pruning, bench/python/best_span_reference.py) run by python3; it
 *   first checks its spans and ratios equal ours, then times itself;
 * - difflib (npm port): the same window scan with its SequenceMatcher (autojunk off);
 * - fuzzball partial_ratio: a peer's fuzzy score per passage (no span; we
 *   report whether its best passage is ours).
 * Peers are checked for agreement and the result is put in the note, not asserted:
 * they implement different contracts.
 *
 * The public bestSpan per case class, against RapidFuzz and fuzzball on seeded quotes over all
 * books, is its own suite (bench/best-span-classes.bench.ts, `npm run bench:classes`).
 *
 * Run: npx tsx bench/run.ts moot
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as difflib from "difflib";
import * as fuzzball from "fuzzball";
import { createQuoteMatcher, type SpanMatch } from "../ts/match/best-span.js";
import { snapQuotes } from "../ts/moot/grounding.js";
import { prepareHaystack, quoteIn } from "../ts/moot/haystack.js";
import { words } from "../ts/match/words.js";
import type { BenchCase, BenchSuite, Contender } from "./harness.js";
import { mulberry32 } from "../test/prng.js";

const BOOKS = fileURLToPath(new URL("../../shared/data/books/", import.meta.url));
const PY = fileURLToPath(new URL("./python/moot_bench.py", import.meta.url));

/** 12 passages of ~1,200 characters (cut at word boundaries) from the middle of three books. */
function makePool(rand: () => number): string[] {
  const names = ["novel__frankenstein.txt", "novel__pride-and-prejudice.txt", "diary__pepys-1660.txt"];
  const pool: string[] = [];
  for (let k = 0; k < 12; k++) {
    const text = readFileSync(join(BOOKS, names[k % 3]), "utf8");
    let at = Math.floor(text.length * (0.1 + 0.75 * rand()));
    at = text.indexOf(" ", at) + 1;
    const end = text.lastIndexOf(" ", at + 1200);
    pool.push(text.slice(at, end).trim());
  }
  return pool;
}

function misspell(word: string, rand: () => number): string {
  const j = Math.floor(rand() * word.length);
  return word.slice(0, j) + "etaoinshr"[Math.floor(rand() * 9)] + word.slice(j + 1);
}

/** Quotes of 5–14 words taken from the pool: verbatim, a word dropped, a word misspelled, a word inserted. */
function makeQuotes(pool: string[], count: number, rand: () => number): string[] {
  const out: string[] = [];
  for (let q = 0; q < count; q++) {
    const src = pool[Math.floor(rand() * pool.length)];
    const ws = words(src);
    const k = 5 + Math.floor(rand() * 10);
    const i = Math.floor(rand() * (ws.length - k));
    const picked = ws.slice(i, i + k).map((w) => src.slice(w.start, w.end));
    const kind = q % 4;
    if (kind === 1) picked.splice(1 + Math.floor(rand() * (k - 2)), 1);
    if (kind === 2) {
      const j = Math.floor(rand() * k);
      picked[j] = misspell(picked[j], rand);
    }
    if (kind === 3) picked.splice(1 + Math.floor(rand() * (k - 2)), 0, "indeed");
    out.push(picked.join(" "));
  }
  return out;
}

function sameSpans(got: SpanMatch[], want: SpanMatch[], who: string): void {
  for (let i = 0; i < want.length; i++) {
    const g = got[i], w = want[i];
    if (g.text !== w.text || g.ratio !== w.ratio || g.source !== w.source) {
      throw new Error(`${who}: quote ${i} gave ${JSON.stringify(g)}, expected ${JSON.stringify(w)}`);
    }
  }
}

/** The seed's scan with the difflib npm port's SequenceMatcher (autojunk off); UTF-16 units, not code points. */
function difflibPortBestSpan(quote: string, pool: readonly string[]): { text: string; ratio: number; source: number } {
  const target = words(quote).map((w) => w.key).join(" ");
  const n = target ? target.split(" ").length : 0;
  const m = new difflib.SequenceMatcher(null, "", target, false);
  let best = { text: "", ratio: 0, source: -1 };
  pool.forEach((src, s) => {
    const ws = words(src);
    for (let size = Math.max(1, n - 2); size <= n + 2; size++) {
      for (let i = 0; i + size <= ws.length; i++) {
        m.setSeq1(ws.slice(i, i + size).map((w) => w.key).join(" "));
        if (m.realQuickRatio() <= best.ratio || m.quickRatio() <= best.ratio) continue;
        const r = m.ratio();
        if (r > best.ratio) best = { text: src.slice(ws[i].start, ws[i + size - 1].end), ratio: r, source: s };
      }
    }
  });
  return best;
}

/** fuzzball: the passage with the highest partial_ratio (first on ties). */
function fuzzballBest(quote: string, pool: readonly string[]): number {
  let best = -1, at = -1;
  pool.forEach((p, s) => {
    const r = fuzzball.partial_ratio(quote, p);
    if (r > best) { best = r; at = s; }
  });
  return at;
}

function pythonContender(pool: string[], quotes: string[], expected: SpanMatch[], budgetSeconds: number): Contender {
  return {
    name: "python reference (difflib)",
    kind: "external",
    async measure() {
      const dir = mkdtempSync(join(tmpdir(), "groundwire-moot-bench-"));
      const file = join(dir, "cases.json");
      // groundwire's words of every text (UTF-16 offsets): python computes its ratios on the same keys
      const segmented: Record<string, Array<[number, number, string]>> = {};
      for (const t of [...pool, ...quotes]) segmented[t] = words(t).map((w) => [w.start, w.end, w.key]);
      writeFileSync(file, JSON.stringify({ pool, quotes, words: segmented, expected: expected.map((e) => ({ text: e.text, ratio: e.ratio, source: e.source })) }));
      const out = execFileSync("python3", [PY, file, String(budgetSeconds)], { encoding: "utf8" });
      const r = JSON.parse(out.trim().split("\n").pop()!);
      if (r.error) throw new Error(`python reference disagrees: ${out}`);
      return { medianMs: r.medianMs, samples: r.samples, note: "spans and ratios equal ours (checked by the script)" };
    },
  };
}

/**
 * The contenders for one case. `withPort`: include the difflib npm port (seconds per
 * quote, so only on the small case). The python reference times at least one full
 * pass (seconds per quote: the seed's pruning only starts once the right passage is reached).
 */
function contenders(pool: string[], quotes: string[], budget: number, withPort: boolean): Contender[] {
  const wasm = createQuoteMatcher(pool, { backend: "wasm" });
  const ts = createQuoteMatcher(pool, { backend: "ts" });
  const expected = wasm.match(quotes);
  sameSpans(ts.match(quotes), expected, "ts backend");
  const fuzzAgree = quotes.filter((q, i) => fuzzballBest(q, pool) === expected[i].source).length;
  const list: Contender[] = [
    { name: "wasm", run: () => (quotes.length === 1 ? [wasm.bestSpan(quotes[0])] : wasm.match(quotes)), check: (o) => sameSpans(o as SpanMatch[], expected, "wasm") },
    { name: "ts", run: () => (quotes.length === 1 ? [ts.bestSpan(quotes[0])] : ts.match(quotes)), check: (o) => sameSpans(o as SpanMatch[], expected, "ts") },
    pythonContender(pool, quotes, expected, budget),
    {
      name: "fuzzball partial_ratio",
      run: () => quotes.map((q) => fuzzballBest(q, pool)),
      check: () => console.log(`  note: fuzzball partial_ratio picks our passage for ${fuzzAgree}/${quotes.length} quotes (score only, no span)`),
    },
  ];
  if (withPort) {
    list.push({
      name: "difflib (npm port)",
      run: () => quotes.map((q) => difflibPortBestSpan(q, pool)),
      check: (o) => {
        const got = o as { text: string; ratio: number }[];
        const agree = got.filter((r, i) => r.text === expected[i].text && r.ratio === expected[i].ratio).length;
        console.log(`  note: difflib npm port (UTF-16 units) agrees on ${agree}/${quotes.length} spans and ratios`);
      },
    });
  }
  return list;
}

/**
 * Bounded work on hostile replies (issue 12 item 9), kept as pathological cases: a 1 MB reply of
 * 2-word quotes (was quadratic: edits applied with slice in a loop, 51 s) and an ellipsis quote over a
 * 64 KB haystack of one repeated phrase (was quadratic in the haystack: 11 s).
 */
function groundingCases(pool: string[]): BenchCase[] {
  const reply = '"ab cd" '.repeat(131_072);
  const unit = "the tenant may sublet the flat but not the garden ";
  const hay = prepareHaystack(unit.repeat(Math.ceil(65_536 / unit.length)));
  return [
    {
      name: "snapQuotes, a 1 MB reply of 131,072 quotes under 3 words",
      size: "pathological",
      units: { count: reply.length, unit: "bytes" },
      contenders: [{
        name: "ts",
        run: () => snapQuotes(reply, pool),
        check: (o) => {
          if ((o as { text: string }).text !== "ab cd ".repeat(131_072)) throw new Error("snapQuotes: every mark should be removed");
        },
      }],
    },
    {
      name: "quoteIn with an ellipsis, 64 KB haystack of one repeated phrase",
      size: "pathological",
      units: { count: 65_536, unit: "bytes" },
      contenders: [{
        name: "ts",
        run: () => quoteIn("the tenant may sublet ... the garden", [hay]),
        check: (o) => {
          if (JSON.stringify(o) !== JSON.stringify({ found: false, reason: "elision drops a negation" })) throw new Error(`quoteIn gave ${JSON.stringify(o)}`);
        },
      }],
    },
  ];
}

const suite: BenchSuite = {
  part: "moot",
  async cases(): Promise<BenchCase[]> {
    if (!existsSync(BOOKS)) {
      suite.skipped = `${BOOKS} absent: the bestSpan bench needs the real books of ../shared/data`;
      return [];
    }
    const rand = mulberry32(1234);
    const pool = makePool(rand);
    const quotes = makeQuotes(pool, 16, rand);
    const one = [quotes[2]]; // a misspelled quote: the common near-miss
    // pathological: a quote from a book not in the pool — no window is close, few bounds prune
    const devil = readFileSync(join(BOOKS, "dictionary__devils-dictionary.txt"), "utf8");
    const unrelated = [makeQuotes([devil.slice(200_000, 201_200)], 1, rand)[0]];
    return [
      {
        name: "bestSpan, one 5–14-word quote, pool of 12 passages of ~1,200 chars",
        size: "small",
        units: { count: 1, unit: "quotes" },
        contenders: contenders(pool, one, 3, true),
      },
      {
        name: "bestSpan, 16 quotes of 5–14 words, pool of 12 passages of ~1,200 chars",
        size: "large",
        units: { count: quotes.length, unit: "quotes" },
        contenders: contenders(pool, quotes, 1, false),
      },
      ...groundingCases(pool),
      {
        name: "bestSpan, a quote with no close span (another book), same pool",
        size: "pathological",
        units: { count: 1, unit: "quotes" },
        contenders: contenders(pool, unrelated, 1, false),
      },
    ];
  },
};

export default suite;
