/**
 * A quote index over whole texts: "where is this quote, anywhere?" answered
 * exactly to bestSpan's definition (DESIGN.md §5), in milliseconds.
 *
 * `createQuoteIndex(texts | sources | books)` tokenizes every text once
 * (through words.ts, so it shares bestSpan's words and keys) and interns the
 * key characters. `locate(quote, {minRatio, limit})` returns the windows an
 * exhaustive bestSpan scan would score ≥ `minRatio` — same windows (sizes
 * n-2..n+2 words inside one text), same ratio (difflib
 * `SequenceMatcher(None, window, quote, autojunk=False).ratio()` over code
 * points, computed as `2·M/(la+lb)` in doubles) — best first; by default a
 * window overlapping a better one (or an equal one earlier in bestSpan's order)
 * is left out, so a quote present twice gives two spans, not ten.
 *
 * Exactness. The scan skips a window only when an upper bound of its ratio is
 * < `minRatio`; every bound is proven below where it is used. The surviving
 * windows get difflib's exact M. So the set of windows ≥ `minRatio` is the
 * exhaustive one, and the order (ratio, then bestSpan's order: text, size,
 * start) and the overlap rule are applied to that set: the answer is a
 * function of the exhaustive set (test/match/quote-index.test.ts checks it
 * against the exhaustive scan on both backends).
 *
 * Bounds, cheapest first, per window W (la characters) and quote b (lb):
 * 1. real_quick_ratio: M ≤ min(la, lb), so ratio ≤ 2·min(la, lb)/(la+lb).
 * 2. Semi-global edit distance (Myers 1999, block form as in edlib): one
 *    bit-parallel pass over each text gives, after every character e,
 *    E(e) = min over substrings X ending at e of Levenshtein(X, b). For W
 *    ending at e: the matching blocks of difflib form a common subsequence,
 *    so M ≤ LCS(W, b); the indel distance la + lb − 2·LCS(W, b) is the cost
 *    of an edit script without substitutions, hence ≥ Levenshtein(W, b) ≥ E(e).
 *    So 2·M ≤ la + lb − E(e) and ratio ≤ (la + lb − E(e))/(la + lb).
 *    This one pass (O(text·⌈lb/w⌉) word operations) is what makes the index
 *    fast: on English text at minRatio 0.8 it leaves almost no window alive
 *    away from a true near-match (character multiset and q-gram counts do not:
 *    see docs/moot.md "Quote index"). The WASM pass cuts a text into 4 lanes
 *    run as two i64x2 vectors; each lane restarts the DP at t0, the start of
 *    the earliest window ending in its share, and computes
 *    E_t0(e) = min over X = text[s, e], s ≥ t0, of Levenshtein(X, b); every
 *    window W it bounds starts at s ≥ t0, so E_t0(e) ≤ Levenshtein(W, b) and
 *    the inequality above holds with E_t0 (assembly/quote-index.ts, phase A).
 * 3. quick_ratio: M ≤ Σ_c min(countW[c], countb[c]) (every matched character
 *    pairs one occurrence of c on each side), ratio ≤ 2·that/(la+lb).
 * 4. (WASM) LCS, bit-parallel (Hyyrö 2004): ratio ≤ 2·LCS(W, b)/(la+lb).
 * Each bound B is a double computed as `x/(la+lb)` with integer x ≥ 2·M, and
 * IEEE division is monotone, so `ratio ≥ minRatio` implies `B ≥ minRatio`:
 * skipping `B < minRatio` never drops a window the exhaustive scan keeps.
 *
 * Verbatim quotes take an exact path: the quote's word keys are looked up in a
 * word-id posting index (rarest word first); a verbatim occurrence is a
 * window of size n with ratio 1 — the highest possible — so when `limit`
 * verbatim spans exist the answer is known without the scan.
 *
 * With a `limit` (and for bestSpan's pre-pass) the search is best-first
 * (`searchBest`): windows found early around the quote's rarest words raise
 * the threshold to the k-th kept ratio, and a sound pigeonhole filter over the
 * quote's interior words (proof at `searchBest`) replaces the linear pass when
 * that threshold leaves few enough edits; the answer is the full scan's first k.
 *
 * Two backends, one contract: WASM (assembly/quote-index.ts, default when
 * loaded) and this file's TS twin (`scanTs`); results are identical.
 * Browser-safe: no Node APIs.
 */
import { type Backend, type BackendRequest, wasmFor } from "../../bindings/wasm.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { createMatchScratch, matchingCharacters, ratioOf } from "./sequence-match.js";
import { words } from "./words.js";
import { internQuote, quoteTooLong, QuoteTooLongError } from "./quote-keys.js";
import { buildWordTable } from "./word-table.js";

/** The longest quote `locate` accepts, in words and in characters: bestSpan's bounds (quote-keys.ts). */
export { MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError } from "./quote-keys.js";

/** `minRatio` default: the grounding check's snap threshold (grounding.ts SNAP_MIN_RATIO, same value). */
export const LOCATE_MIN_RATIO = 0.8;

/** A labelled part of a source text: UTF-16 [start, end) into that text. */
export interface SourcePassage {
  label: string;
  start: number;
  end: number;
}

/** One text to index: its key (a book key, a file name…), its text, optional passage labels. */
export interface QuoteIndexSource {
  key: string;
  text: string;
  passages?: readonly SourcePassage[];
}

/** A parsed book as `createQuoteIndex` reads it (ts/moot's `Book` is one): its key and its passages in order. */
export interface QuoteIndexBook {
  key: string;
  passages: readonly { name: string; label?: string; content: string }[];
}

/** What `createQuoteIndex` accepts: plain texts (keys "0", "1", …), keyed sources, or parsed books. */
export type QuoteIndexInput = readonly string[] | readonly QuoteIndexSource[] | readonly QuoteIndexBook[];

/** Options of `createQuoteIndex`. */
export interface QuoteIndexOptions {
  /** "wasm" (throws if not loaded), "ts", or "auto" (default: WASM when loaded). */
  backend?: BackendRequest;
}

/** Options of `locate`. */
export interface LocateOptions {
  /** Keep windows whose ratio is ≥ this; in (0, 1]. Default `LOCATE_MIN_RATIO` (0.8). */
  minRatio?: number;
  /** At most this many spans (a positive integer); default: all. */
  limit?: number;
  /** Only this source (by key). */
  source?: string;
  /** Return every window ≥ minRatio, overlapping ones too (default false: overlaps of a better span are left out). */
  overlapping?: boolean;
  /**
   * Time budget of this call, in milliseconds (default Infinity: none). Checked between chunks of
   * the search (each sized to take ~20 ms; at least one word's windows), so the call ends within
   * about budget + 25 ms; past it, locate throws QuoteSearchTimeoutError and returns nothing: no
   * partial answer is given as complete. The search is synchronous (an AbortSignal could not fire
   * during it), hence a budget and not a signal.
   */
  timeoutMs?: number;
}

/** A located span. `text` = the source's text [start, end) (UTF-16), as written. */
export interface LocatedSpan {
  text: string;
  /** difflib ratio of the window's joined keys vs the quote's, as bestSpan computes it. */
  ratio: number;
  /** The source's key (a book key; "0", "1", … for plain texts). */
  source: string;
  /** Index of the source in the index's input. */
  sourceIndex: number;
  /** Labels of the passages the span touches, in order (empty when the source has none). */
  passages: string[];
  start: number;
  end: number;
  /** The window: its first word (index within the source) and its size in words. */
  word: number;
  words: number;
}

/** A built quote index. */
export interface QuoteIndex {
  readonly backend: Backend;
  /** Keys of the indexed sources, in input order. */
  readonly keys: readonly string[];
  /** Words and key characters indexed. */
  readonly stats: { sources: number; words: number; characters: number; bytes: number };
  /**
   * Spans of the indexed texts whose ratio to `quote` is ≥ `minRatio`, best first
   * (ratio descending, then bestSpan's order: source, window size, start).
   * @throws RangeError on a quote longer than MAX_QUOTE_WORDS words or MAX_QUOTE_CHARS characters, a bad minRatio/limit, or an unknown source key.
   */
  locate(quote: string, options?: LocateOptions): LocatedSpan[];
}

/** The index as both backends read it (the layout of best-span.ts's pool, over whole texts). */
export interface IndexedText {
  /** Interned key characters; keys of one source one space (id 0) apart. */
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  /** Words of source s: [sourceWords[s], sourceWords[s+1]). */
  sourceWords: Int32Array;
  alphabetSize: number;
}

/** A quote as the scan reads it. */
export interface IndexedQuote {
  ids: Int32Array;
  words: number;
  alphabetSize: number;
}

/** A window ≥ minRatio: first word (global index), size in words, ratio. */
export interface WindowHit {
  word: number;
  size: number;
  ratio: number;
}

/** Texts with their word-id postings (ts/match/word-table.ts): what the exact path and the best-first search read. */
export interface PostedText extends IndexedText {
  /** Word ids (interned keys) per global word, and a CSR posting list per id (words ascending). */
  wordIds: Int32Array;
  vocabulary: ReadonlyMap<string, number>;
  postingStart: Int32Array;
  postings: Int32Array;
  /** charStart of each posting (ts/match/word-table.ts), read in order by the filter. */
  postingChars: Int32Array;
  /** Source of each global word. */
  wordSource: Int32Array;
}

interface Prepared extends PostedText {
  sources: QuoteIndexSource[];
  alphabet: Map<number, number>;
  spans: Int32Array;
  vocabulary: Map<string, number>;
}

function isBook(x: unknown): x is QuoteIndexBook {
  return (
    typeof x === "object" && x !== null && Array.isArray((x as QuoteIndexBook).passages) && typeof (x as QuoteIndexBook).key === "string" &&
    typeof (x as { text?: unknown }).text !== "string"
  );
}

/** Normalize the input to keyed sources; a book is its passages joined by a blank line, each labelled as the book prints it (its `label`). */
function toSources(input: QuoteIndexInput): QuoteIndexSource[] {
  if (!Array.isArray(input)) throw new TypeError(`createQuoteIndex: expected an array of texts, sources or books, got ${typeof input}`);
  return (input as readonly unknown[]).map((x, i) => {
    if (typeof x === "string") return { key: String(i), text: x };
    if (isBook(x)) {
      const passages: SourcePassage[] = [];
      let text = "";
      for (const p of x.passages) {
        if (text) text += "\n\n";
        passages.push({ label: p.label ?? p.name, start: text.length, end: text.length + p.content.length });
        text += p.content;
      }
      return { key: x.key, text, passages };
    }
    if (typeof x === "object" && x !== null && typeof (x as QuoteIndexSource).text === "string" && typeof (x as QuoteIndexSource).key === "string") {
      const s = x as QuoteIndexSource;
      const passages = s.passages ? [...s.passages] : undefined;
      passages?.forEach((p, j) => {
        if (typeof p?.label !== "string" || !Number.isInteger(p.start) || !Number.isInteger(p.end) || p.start < 0 || p.end < p.start || p.end > s.text.length) {
          throw new RangeError(`createQuoteIndex: input[${i}].passages[${j}] must be {label, start, end} with 0 ≤ start ≤ end ≤ text length`);
        }
      });
      passages?.sort((a, b) => a.start - b.start || a.end - b.end);
      return { key: s.key, text: s.text, passages };
    }
    throw new TypeError(`createQuoteIndex: input[${i}] is neither a string, a {key, text} source nor a book`);
  });
}

function prepare(input: QuoteIndexInput): Prepared {
  const sources = toSources(input);
  const keys = new Set<string>();
  for (const s of sources) {
    if (keys.has(s.key)) throw new RangeError(`createQuoteIndex: source key ${JSON.stringify(s.key)} appears twice`);
    keys.add(s.key);
  }
  // tokenizing, interning and postings: ts/match/word-table.ts
  const t = buildWordTable(sources.map((s) => s.text));
  return {
    sources,
    alphabet: t.alphabet,
    alphabetSize: t.alphabet.size,
    chars: t.chars,
    charStart: t.charStart,
    charEnd: t.charEnd,
    sourceWords: t.textWords,
    spans: t.spans,
    wordIds: t.wordIds,
    vocabulary: t.vocabulary,
    postingStart: t.postingStart,
    postings: t.postings,
    postingChars: t.postingChars,
    wordSource: t.wordText,
  };
}

function prepareQuote(ix: Prepared, quote: string): { q: IndexedQuote; keys: string[] } {
  if (typeof quote !== "string") throw new TypeError(`quote must be a string, got ${typeof quote}`);
  const ws = words(quote);
  const tooLong = quoteTooLong(ws, "locate");
  if (tooLong) throw tooLong;
  return { q: internQuote(ws, ix.alphabet), keys: ws.map((x) => x.key) };
}

/**
 * Bit-parallel semi-global Levenshtein (Myers 1999; the block form of edlib's
 * `calculateBlock`) on 32-bit blocks: after `step(c)` for each text character,
 * `score` = min over substrings X ending there of Levenshtein(X, b). Row 0 of
 * the DP is all zeros (a match may start anywhere), so block 0 gets hin = 0.
 */
class Myers {
  readonly blocks: number;
  readonly peq: Int32Array;
  readonly pv: Int32Array;
  readonly mv: Int32Array;
  readonly lastBit: number;
  score = 0;
  constructor(b: Int32Array, alphabetSize: number) {
    this.blocks = (b.length + 31) >>> 5;
    this.peq = new Int32Array(alphabetSize * this.blocks);
    for (let j = 0; j < b.length; j++) this.peq[b[j] * this.blocks + (j >>> 5)] |= 1 << (j & 31);
    this.pv = new Int32Array(this.blocks);
    this.mv = new Int32Array(this.blocks);
    this.lastBit = 1 << ((b.length - 1) & 31);
  }
  /** Start a new text: D[j][0] = j (all vertical deltas +1), score = lb. */
  reset(lb: number): void {
    this.pv.fill(-1);
    this.mv.fill(0);
    this.score = lb;
  }
  /** Advance over text characters chars[from, to); with `marks`, push each p after which score ≤ `limit`. */
  run(chars: Int32Array, from: number, to: number, limit = -1, marks?: number[]): void {
    const blocks = this.blocks, peq = this.peq, pv = this.pv, mv = this.mv, lastBit = this.lastBit;
    let score = this.score;
    if (blocks === 1) {
      let Pv = pv[0], Mv = mv[0];
      for (let p = from; p < to; p++) {
        const Eq = peq[chars[p]];
        const Xv = Eq | Mv;
        const Xh = ((((Eq & Pv) + Pv) | 0) ^ Pv) | Eq;
        const Ph = Mv | ~(Xh | Pv);
        const Mh = Pv & Xh;
        if (Ph & lastBit) score++;
        else if (Mh & lastBit) score--;
        const Ph1 = Ph << 1;
        Pv = (Mh << 1) | ~(Xv | Ph1);
        Mv = Ph1 & Xv;
        if (score <= limit) marks!.push(p);
      }
      pv[0] = Pv;
      mv[0] = Mv;
    } else {
      for (let p = from; p < to; p++) {
        const row = chars[p] * blocks;
        let hin = 0;
        for (let k = 0; k < blocks; k++) {
          const Pv = pv[k], Mv = mv[k];
          let Eq = peq[row + k];
          const Xv = Eq | Mv;
          if (hin < 0) Eq |= 1;
          const Xh = ((((Eq & Pv) + Pv) | 0) ^ Pv) | Eq;
          let Ph = Mv | ~(Xh | Pv);
          let Mh = Pv & Xh;
          const high = k === blocks - 1 ? lastBit : 0x80000000 | 0;
          const hout = Ph & high ? 1 : Mh & high ? -1 : 0;
          Ph <<= 1;
          Mh <<= 1;
          if (hin < 0) Mh |= 1;
          else if (hin > 0) Ph |= 1;
          pv[k] = Mh | ~(Xv | Ph);
          mv[k] = Ph & Xv;
          hin = hout;
        }
        score += hin;
        if (score <= limit) marks!.push(p);
      }
    }
    this.score = score;
  }
}

const la0 = (charStart: Int32Array, e: number, u: number) => e - charStart[u];

/**
 * Windows of one word range, with the bounds of the header: the TS scan's inner loop, run over a
 * whole source (`scanTs`) or over the small ranges the best-first search verifies (`searchBest`).
 * Built once per quote (the Myers pattern, the quote's character counts, difflib's scratch).
 */
class WindowScanner {
  private readonly myers: Myers;
  private readonly countB: Int32Array;
  private readonly countA: Int32Array;
  private readonly scratch: ReturnType<typeof createMatchScratch>;
  constructor(private readonly ix: IndexedText, private readonly quote: IndexedQuote) {
    const b = quote.ids;
    this.myers = new Myers(b, quote.alphabetSize);
    this.countB = new Int32Array(quote.alphabetSize);
    for (let j = 0; j < b.length; j++) this.countB[b[j]]++;
    this.countA = new Int32Array(quote.alphabetSize);
    this.scratch = createMatchScratch(b.length);
  }
  /**
   * Push to `out` every window lying inside words [w0, w1) (all of one source) whose ratio is
   * ≥ minRatio, with its exact ratio. The Myers pass restarts at w0: every window it bounds starts
   * at or after w0, so E_w0(e) ≤ Levenshtein(W, b) (the header's bound 2, as the WASM lanes use it).
   * Only windows ending at a word ≥ `emitFrom` are scored (a chunk of `scanChunked`: the twin of
   * the WASM qiScanChunk; the earlier ones belong to the chunk before).
   */
  scan(w0: number, w1: number, minRatio: number, out: WindowHit[], raise = false, emitFrom = w0): number {
    const b = this.quote.ids;
    const lb = b.length;
    if (lb === 0 || w1 <= w0) return minRatio; // every ratio is 2·0/la = 0
    const n = this.quote.words;
    const { chars, charStart, charEnd } = this.ix;
    const { myers, countA, countB, scratch } = this;
    const lo = Math.max(1, n - 2);
    myers.reset(lb);
    let p = charStart[w0];
    for (let v = w0; v < w1; v++) {
      const e = charEnd[v];
      myers.run(chars, p, e);
      p = e;
      if (v < emitFrom) continue;
      // bound 2 for the largest window ending at v first: (T − E)/T grows with T, so when it fails
      // for the largest T it fails for every smaller window ending here (and rounding is monotone)
      const widest = la0(charStart, e, Math.max(w0, v - n - 1)) + lb;
      if ((widest - myers.score) / widest < minRatio) continue;
      for (let size = lo; size <= n + 2 && v - size + 1 >= w0; size++) {
        const start = charStart[v - size + 1];
        const la = e - start;
        const total = la + lb;
        if ((2 * Math.min(la, lb)) / total < minRatio) continue; // bound 1: real_quick_ratio
        if ((total - myers.score) / total < minRatio) continue; // bound 2: semi-global edit distance
        let inter = 0;
        for (let i = start; i < e; i++) if (countA[chars[i]]++ < countB[chars[i]]) inter++;
        for (let i = start; i < e; i++) countA[chars[i]] = 0;
        if ((2 * inter) / total < minRatio) continue; // bound 3: quick_ratio
        const ratio = ratioOf(matchingCharacters(chars, start, la, b, lb, scratch), total);
        if (ratio >= minRatio) {
          out.push({ word: v - size + 1, size, ratio });
          if (raise) minRatio = ratio;
        }
      }
    }
    return minRatio;
  }
  /**
   * `scan` over word ranges (pairs [from, to), ascending, disjoint, each inside one source), the
   * threshold carried from range to range: the TS twin of the WASM `qiScanRanges`
   * (assembly/quote-index.ts), same windows in the same order, so `raise` raises alike.
   */
  scanRanges(ranges: Int32Array, minRatio: number, raise: boolean): WindowHit[] {
    const out: WindowHit[] = [];
    for (let r = 0; r + 1 < ranges.length; r += 2) minRatio = this.scan(ranges[r], ranges[r + 1], minRatio, out, raise);
    return out;
  }
}

/** Every window inside `ranges` (as WindowScanner.scanRanges) with ratio ≥ minRatio: the TS backend's range scan. */
export function scanRangesTs(ix: IndexedText, quote: IndexedQuote, ranges: Int32Array, minRatio: number, raise = false): WindowHit[] {
  if (quote.ids.length === 0) return [];
  return new WindowScanner(ix, quote).scanRanges(ranges, minRatio, raise);
}

/**
 * The TS twin of the WASM prefix pass (bindings/quote-index.ts `scanPrefix`; proof at `searchBest`
 * (h)): the semi-global edit distance of b1 = the quote's first m characters over each source
 * (32-bit blocks, from the source's start, so never above the lanes' E_t0), every character e1 with
 * E1(e1) ≤ `limit` marking the words of characters [e1 − m − limit + 1, e1 + (lb − m) + limit]
 * (one word wider at the end), and those ranges scanned with the whole quote. The windows ≥ minRatio,
 * or null when the marks give more than `maxRanges` ranges.
 */
export function scanPrefixTs(
  ix: IndexedText, quote: IndexedQuote, minRatio: number, onlySource: number, m: number, limit: number, maxRanges: number,
): WindowHit[] | null {
  const lb = quote.ids.length;
  if (lb === 0) return [];
  const { chars, charStart, charEnd, sourceWords } = ix;
  const myers = new Myers(quote.ids.subarray(0, m), quote.alphabetSize);
  const ranges: number[] = [];
  const marks: number[] = [];
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    const w0 = sourceWords[s], w1 = sourceWords[s + 1];
    if (w0 === w1) continue;
    myers.reset(m);
    marks.length = 0;
    myers.run(chars, charStart[w0], charEnd[w1 - 1], limit, marks);
    for (const e1 of marks) {
      const from = firstAtLeast(charStart, w0, w1, e1 - m - limit + 1);
      const to = Math.min(w1, firstAtLeast(charEnd, from, w1, e1 + (lb - m) + limit + 1) + 1);
      if (from >= to) continue;
      const last = ranges.length - 1;
      if (last > 0 && from < ranges[last]) ranges[last] = Math.max(ranges[last], to);
      else ranges.push(from, to);
      if (ranges.length > 2 * maxRanges) return null;
    }
  }
  return new WindowScanner(ix, quote).scanRanges(Int32Array.from(ranges), minRatio, false);
}

/**
 * The TS scan: every window of every source with ratio ≥ minRatio (in no
 * particular order). Bounds 1–3 of the header; survivors get difflib's exact M.
 * O(characters·⌈lb/32⌉) for the edit-distance pass plus O(la·lb) per surviving window.
 */
export function scanTs(ix: IndexedText, quote: IndexedQuote, minRatio: number, onlySource = -1): WindowHit[] {
  const out: WindowHit[] = [];
  if (quote.ids.length === 0) return out; // every ratio is 2·0/la = 0
  const scanner = new WindowScanner(ix, quote);
  const { sourceWords } = ix;
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    scanner.scan(sourceWords[s], sourceWords[s + 1], minRatio, out);
  }
  return out;
}

/**
 * The exhaustive reference: every window's exact ratio, no bound at all.
 * O(windows·la·lb); for tests and the bench's baseline only.
 */
export function scanExhaustive(ix: IndexedText, quote: IndexedQuote, minRatio: number): WindowHit[] {
  const out: WindowHit[] = [];
  const b = quote.ids;
  const lb = b.length;
  if (lb === 0) return out;
  const n = quote.words;
  const { chars, charStart, charEnd, sourceWords } = ix;
  const scratch = createMatchScratch(lb);
  for (let s = 0; s + 1 < sourceWords.length; s++) {
    const w0 = sourceWords[s];
    const nw = sourceWords[s + 1] - w0;
    for (let size = Math.max(1, n - 2); size <= n + 2 && size <= nw; size++) {
      for (let i = 0; i + size <= nw; i++) {
        const start = charStart[w0 + i];
        const la = charEnd[w0 + i + size - 1] - start;
        const ratio = ratioOf(matchingCharacters(chars, start, la, b, lb, scratch), la + lb);
        if (ratio >= minRatio) out.push({ word: w0 + i, size, ratio });
      }
    }
  }
  return out;
}

/**
 * Order hits best first — ratio descending, then bestSpan's order (source,
 * size, start; the source follows from the global word index) — and, unless
 * `overlapping`, drop every hit sharing a word with one kept before it.
 * `limit` caps the result. A pure function of the hit set.
 */
export function rankHits(ix: IndexedText, hits: WindowHit[], overlapping: boolean, limit: number): WindowHit[] {
  const src = (w: number) => {
    // binary search of the source holding global word w
    let lo = 0, hi = ix.sourceWords.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ix.sourceWords[mid] <= w) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const sorted = hits
    .map((h) => ({ h, s: src(h.word) }))
    .sort((x, y) => y.h.ratio - x.h.ratio || x.s - y.s || x.h.size - y.h.size || x.h.word - y.h.word);
  const out: WindowHit[] = [];
  const taken = new Set<number>();
  for (const { h } of sorted) {
    if (out.length >= limit) break;
    if (!overlapping) {
      let clash = false;
      for (let w = h.word; w < h.word + h.size && !clash; w++) clash = taken.has(w);
      if (clash) continue;
      for (let w = h.word; w < h.word + h.size; w++) taken.add(w);
    }
    out.push(h);
  }
  return out;
}

/** Verbatim occurrences (ratio 1, size n) of the quote's keys, in order, from the word-id postings. */
function verbatim(ix: PostedText, keys: readonly string[], onlySource: number): WindowHit[] {
  const ids: number[] = [];
  for (const k of keys) {
    const id = ix.vocabulary.get(k);
    if (id === undefined) return [];
    ids.push(id);
  }
  let rare = 0;
  for (let i = 1; i < ids.length; i++) {
    const c = ix.postingStart[ids[i] + 1] - ix.postingStart[ids[i]];
    if (c < ix.postingStart[ids[rare] + 1] - ix.postingStart[ids[rare]]) rare = i;
  }
  const out: WindowHit[] = [];
  for (let p = ix.postingStart[ids[rare]]; p < ix.postingStart[ids[rare] + 1]; p++) {
    const start = ix.postings[p] - rare;
    if (start < 0 || start + ids.length > ix.wordIds.length) continue;
    const s = ix.wordSource[start];
    if (ix.wordSource[start + ids.length - 1] !== s || (onlySource >= 0 && s !== onlySource)) continue;
    let same = true;
    for (let i = 0; i < ids.length && same; i++) same = ix.wordIds[start + i] === ids[i];
    if (same) out.push({ word: start, size: ids.length, ratio: 1 });
  }
  return out;
}

/**
 * Best-first search for `locate(quote, {limit: k})` (and bestSpan's winner, k = 1): the answer
 * of the full scan at `minRatio`, found by verifying a few word ranges instead of the whole
 * corpus when a good window turns up early.
 *
 * Why a higher threshold is enough. `rankHits` sorts windows by (ratio desc, source, size,
 * start), a total order, and keeps a window unless it shares a word with one kept before it
 * (unless `overlapping`). The windows with ratio ≥ T are a prefix of that order, and the greedy
 * pass decides each window from the windows before it only; so when the windows ≥ T alone give
 * k kept spans, those k are the first k of the full answer. Ties are safe: every window whose
 * ratio equals T is in the prefix, and the order among them is bestSpan's. T is taken as the k-th
 * kept ratio among windows already verified (seeds: verbatim hits, ranges around the quote's
 * rarest words); after the complete search at T, if fewer than k spans are kept (a better window
 * found later can shadow two kept ones), the search falls back to the full scan at `minRatio`.
 *
 * The complete search at T: a pigeonhole filter over the quote's words when it applies, else the
 * linear pass (`linearBest` at T: the chunked scan, WASM or TS). Proof of the filter, for a window W (la characters of
 * joined keys) and the quote b (lb), ratio(W) = 2M/(la+lb) ≥ T:
 *  (a) M ≤ L = LCS(W, b) (difflib's matching blocks are a common subsequence), so the indel
 *      distance d = la + lb − 2L ≤ la + lb − 2M = (la+lb)(1 − ratio) ≤ (la+lb)(1 − T);
 *  (b) ratio ≤ 2·min(la, lb)/(la+lb) ≤ 2lb/(la+lb) (real_quick_ratio), so la + lb ≤ 2lb/ratio ≤ 2lb/T;
 *  so d ≤ D = ⌊2lb(1 − T)/T⌋. (In doubles: ratio is 2M/(la+lb) rounded, ≥ T, so the exact value is
 *  ≥ T(1 − 2⁻⁵³); with lb ≤ 2,000 that moves 2lb(1−T)/T by < 1e-9, and D takes +1e-6 of slack: a
 *  larger D is never unsound, only slower.)
 *  (c) Fix an LCS alignment of W and b: d characters are unmatched (la − L of W, lb − L of b).
 *      Cut b into disjoint pieces; a piece is intact when all its characters are matched and
 *      consecutive ones to consecutive characters of W. An unmatched character of b breaks only
 *      the piece holding it; unmatched characters of W in one gap between two consecutive
 *      matched pairs (i1, j1) < (i2, j2) break at most the one piece holding both j1 and j2; so
 *      at most d pieces are broken, and with D + 1 pieces one is intact: it occurs verbatim,
 *      contiguously, in W.
 *  (d) Word boundaries. b = k1 ␣ k2 ␣ … ␣ kn and W's joined keys use the space (id 0) only
 *      between words (a key never holds one: checked once per index, else the filter is off).
 *      Our pieces are "␣ k_i ␣ … ␣ k_j ␣" for 2 ≤ i ≤ j ≤ n−1 (1-based): both delimiting spaces
 *      are inside the piece, so in W each of k_i..k_j is bounded by spaces, i.e. is a whole word
 *      of W, and the piece is the phrase k_i..k_j at consecutive words p..p+j−i of W's source.
 *      The first and last quote words have no space on one side inside b (k1 may match the tail
 *      of a longer window word, kn the head of one: "ther he" is inside "another he"), so they
 *      are never looked up as WHOLE pieces. Two such pieces share no space, so a word separates
 *      them: at most ⌈(n−2)/2⌉ of them.
 *  (d′) SUFFIX pieces "k_i ␣" (0 ≤ i ≤ n−2, the space after k_i inside the piece, the one before
 *      it not). Intact in W, its space is matched to a space of W, so k_i's last character ends a
 *      word of W; k_i holds no space, so all of it lies in that word: some word of W (a whole text
 *      word) has a key ending in k_i, and k_i's first character sits |k_i| characters before that
 *      word's end. (k_1 may be a suffix piece: the case "ther" inside "another" is exactly this.)
 *      Pieces of both kinds are disjoint substrings of b when no space is in two of them, which
 *      is all (c) needs; each piece holds a space of its own, so at most n − 1 pieces fit. The
 *      words ending in k_i are one run of the index's keys reversed and sorted (`suffixIndexOf`).
 *      When D + 1 pieces do not fit, the linear pass runs.
 *  (e) So W contains words p..p+j−i and has ≤ n+2 words: it lies inside the range
 *      [p+(j−i)−(n+1), p+n+1] of its source ((g) below narrows it), which `WindowScanner`
 *      verifies exactly (every window inside, bounds then difflib's M). Every window ≥ T is
 *      found; every window reported is a real window with its exact ratio.
 *  (f), (g): the count filter and the character window, where they are used below; (h), (i): the
 *  linear pass at T through a prefix of the quote, and that pass in narrow lanes (below).
 *  (j) The q-gram filter (`gramRanges`, tried first). Take P ≥ D + 1 disjoint substrings of b of
 *      q = GRAM_Q characters (grams at offsets x_1 < … < x_P, x_{k+1} ≥ x_k + q; any characters,
 *      spaces too). (c) needs only disjoint pieces, so at most d ≤ D grams are broken and the set I
 *      of intact ones has |I| ≥ P − D. W's characters are chars[s, s + la) of the index (a window's
 *      keys are one space apart there), so an intact gram occurs at a text position y_k, which its
 *      hash bucket lists (a bucket lists every occurrence of every gram hashed to it: a superset).
 *      Its base is B_k = y_k − x_k. Between two intact grams k < k′ the matched characters pair up,
 *      so B_k′ − B_k = (unmatched characters of W between them) − (unmatched of b between them) and
 *      |B_k′ − B_k| ≤ d ≤ D: the bases of I lie in an interval of D + 1 values. Every listed
 *      position y of gram k is an entry with key y − x_k + lb (the offset keeps it ≥ 0), and the
 *      entries are sorted by key; let K be the greatest key of I (+ lb: the greatest base) and hi
 *      the last entry of I in that order. Every entry of I has a key in [K − D, K] and comes no later
 *      than hi (a smaller key sorts before it, an equal one of I is not after the last of I), so
 *      the entries with keys in [K − D, K] up to hi — the sliding window at hi — hold ≥ P − D
 *      distinct grams: only such windows survive. (g) for the gram of I with the greatest base
 *      (K − lb) gives s ≥ K − lb − D, for the one with the least (≤ K − lb) s + la ≤ K + D, so W
 *      lies in characters [K − lb − D, K + D), i.e. inside the words starting at ≥ K − lb − D
 *      and ending (exclusive) by K + D, cut at the sources' edges (W is inside one source), which
 *      `verify` scans exactly. A gram holding a character no text has occurs nowhere (always
 *      broken; its list is empty). Every window ≥ T is found; the grams only choose what is read.
 * The pieces (a DP over the quote's words, `choosePieces`) minimize the sum of their occurrences;
 * the filter runs only when its checks (anchor occurrences × pieces) are ≤ 1/FILTER_SHARE of the
 * words searched and the ranges that survive it fit a budget (else the linear pass is cheaper).
 */
function searchBest(
  ix: PostedText, quote: IndexedQuote, keys: readonly string[], minRatio: number, limit: number, overlapping: boolean,
  onlySource: number, chunkScan: ChunkScan, rangeScan: RangeScan | null, prefixScan: PrefixScan, timeBudget: Budget = NO_BUDGET,
  lanesScan: LanesScan | null = null,
): WindowHit[] {
  const n = quote.words;
  const lb = quote.ids.length;
  if (lb === 0) return [];
  const { postingStart, postings, postingChars, wordIds, wordSource, sourceWords } = ix;
  const searched = onlySource >= 0 ? sourceWords[onlySource + 1] - sourceWords[onlySource] : wordIds.length;
  const scanner = new WindowScanner(ix, quote);
  const regionShare = rangeScan ? REGION_SHARE_WASM : REGION_SHARE_TS;
  // what the linear pass costs a word, in units of a sweep's check over a text word: its blocks (64
  // bits in WASM, 32 in TS) × the backend's cost per block
  const linearCost = rangeScan ? Math.ceil(lb / 64) : LINEAR_COST_TS * Math.ceil(lb / 32);
  const ids = keys.map((k) => ix.vocabulary.get(k) ?? -1);
  const count = (i: number) => (ids[i] < 0 ? 0 : postingStart[ids[i] + 1] - postingStart[ids[i]]);
  // whether text words [w, w + len) are the quote's words [i, i + len)
  const phraseAt = (w: number, i: number, len: number): boolean => {
    for (let t = 0; t < len; t++) if (wordIds[w + t] !== ids[i + t]) return false;
    return true;
  };
  const found = new Map<number, WindowHit>();
  const add = (hits: WindowHit[]) => {
    for (const h of hits) found.set(h.word * 256 + h.size, h); // size ≤ MAX_QUOTE_WORDS + 2 < 256
  };
  // ranges [from, to) of words, each inside one source, merged where they overlap, then scanned:
  // in one WASM call (`rangeScan`, qiScanRanges) when the backend has one, else by its TS twin
  // (WindowScanner.scanRanges); both visit the same windows in the same order
  // (in groups of ranges, the time budget checked between them; with `seeding`, each group's hits
  // raise the threshold for the next to the k-th kept ratio so far: seeds need only be real windows)
  const verify = (ranges: number[], threshold: number, raise = false, seeding = false): WindowHit[] => {
    const m = ranges.length >> 1;
    const order = new Int32Array(m);
    for (let i = 0; i < m; i++) order[i] = i;
    order.sort((x, y) => ranges[2 * x] - ranges[2 * y]);
    const merged: number[] = [];
    let from = -1, to = -1;
    for (let r = 0; r < m; r++) {
      const a = ranges[2 * order[r]], z = ranges[2 * order[r] + 1];
      if (a < to) to = Math.max(to, z); // overlapping ranges are of one source (each is clipped to its own)
      else {
        if (from < to) merged.push(from, to);
        from = a;
        to = z;
      }
    }
    if (from < to) merged.push(from, to);
    const out: WindowHit[] = [];
    const pace = new Pacer(lb, threshold);
    for (let r = 0; r < merged.length; ) {
      let z = r, words = 0;
      while (z < merged.length && words < pace.words && (z === r || merged[z + 1] - merged[z] <= pace.words)) {
        words += merged[z + 1] - merged[z];
        z += 2;
      }
      const t0 = timeBudget.now();
      let got: WindowHit[];
      if (z === r + 2 && words > pace.words) {
        // one long range: in chunks (windows inside [from, to) ending in [a, b): they start at ≥ a − n − 1 and ≥ from)
        got = [];
        const f = merged[r], to = merged[r + 1];
        const firstEnd = f + Math.max(1, n - 2) - 1; // no window of the range ends before it (as in scanChunked)
        for (let a = f; a < to; ) {
          const b = Math.min(to, Math.max(a, firstEnd) + pace.words);
          const c0 = timeBudget.now();
          const { hits, reached } = chunkScan(Math.max(f, a - n - 1), a, b, threshold, raise);
          for (const h of hits) {
            got.push(h);
            if (raise) threshold = Math.max(threshold, h.ratio);
          }
          pace.done(reached - Math.max(a, firstEnd), timeBudget.now() - c0);
          a = reached;
          timeBudget.check(r >> 1, merged.length >> 1, threshold, "ranges");
        }
      } else {
        const list = Int32Array.from(merged.slice(r, z));
        got = rangeScan ? rangeScan(list, threshold, raise) : scanner.scanRanges(list, threshold, raise);
        pace.done(words, timeBudget.now() - t0);
        if (raise) for (const h of got) threshold = Math.max(threshold, h.ratio);
      }
      for (const h of got) out.push(h);
      r = z;
      timeBudget.check(r >> 1, merged.length >> 1, threshold, "ranges");
      if (seeding && r < merged.length) {
        add(got);
        const kept = rankHits(ix, aboveOf(found, threshold), overlapping, limit);
        if (kept.length >= limit) threshold = Math.max(threshold, kept[limit - 1].ratio);
      }
    }
    return out;
  };
  // the range of words around text words [p, p + len) of source s, wide enough for any window holding them
  const around = (ranges: number[], p: number, len: number, before: number, after: number) => {
    const s = wordSource[p];
    if (onlySource >= 0 && s !== onlySource) return;
    const from = Math.max(sourceWords[s], p + len - 1 - before);
    const to = Math.min(sourceWords[s + 1], p + after + 1);
    if (from < to) ranges.push(from, to);
  };

  // Seeds: verbatim hits (the exact path: ratio 1 is the maximum, so `limit` of them after the
  // overlap rule are the answer), then ranges around occurrences of the quote's rarest words (any
  // word; a seed only has to be a real window with its exact ratio, it proves nothing about others)
  const exact = verbatim(ix, keys, onlySource);
  const exactRanked = rankHits(ix, exact, overlapping, limit);
  if (exactRanked.length >= limit) {
    searchPaths.exact++;
    return exactRanked;
  }
  add(exact);
  if (searched < tuning.smallWords) {
    // a small text (a moot's pool): the linear pass costs less than the seeds and the filter
    searchPaths.linear++;
    return linearBest(ix, quote, found, wholeSegments(ix, onlySource, Infinity), minRatio, minRatio, limit, overlapping, chunkScan, timeBudget);
  }
  // occurrences of the phrase ids[i..j] (first words, each inside one source), found from its
  // rarest word's postings; when that word is too common to walk, null and its count stands in
  const memo = new Map<number, Int32Array | null>();
  const phrase = (i: number, j: number, walk: boolean): Int32Array | null => {
    const at = i * 256 + j;
    let got = memo.get(at);
    if (got === undefined || (got === null && walk)) {
      if (i === j) {
        // one word: its postings are its occurrences
        got = ids[i] < 0 ? new Int32Array(0) : postings.subarray(postingStart[ids[i]], postingStart[ids[i] + 1]);
        memo.set(at, got);
        return got;
      }
      let r = i;
      for (let t = i; t <= j; t++) if (count(t) < count(r)) r = t;
      got = null;
      if (count(r) <= PHRASE_WALK || walk) {
        const len = j - i + 1;
        const starts: number[] = [];
        for (let q = count(r) ? postingStart[ids[r]] : 0, z = count(r) ? postingStart[ids[r] + 1] : 0; q < z; q++) {
          const p = postings[q] - (r - i);
          if (p < 0 || p + len > wordIds.length || wordSource[p] !== wordSource[p + len - 1]) continue;
          if (phraseAt(p, i, len)) starts.push(p);
        }
        got = Int32Array.from(starts);
      }
      memo.set(at, got);
    }
    return got;
  };
  const cost = (i: number, j: number) => {
    const starts = phrase(i, j, false);
    if (starts) return starts.length;
    let min = Infinity;
    for (let t = i; t <= j; t++) min = Math.min(min, count(t));
    return min;
  };
  const byCount = ids.map((_, i) => i).filter((i) => count(i) > 0).sort((x, y) => count(x) - count(y));
  const seeds: number[] = [];
  let budget = SEED_OCCURRENCES;
  for (const i of byCount) {
    const c = count(i);
    if (c > budget) break;
    budget -= c;
    for (let q = postingStart[ids[i]]; q < postingStart[ids[i] + 1]; q++) {
      around(seeds, postings[q], 1, i + 2, n - i + 1); // the quote laid over the text from word p − i, ± 2 words
    }
  }
  // with limit 1 only the best seed matters: each one found raises the bar for the next
  add(verify(seeds, minRatio, limit === 1, true));
  let seeded = rankHits(ix, [...found.values()], overlapping, limit);
  if (seeded.length < limit) {
    // nothing ≥ minRatio around the rare words (or no word rare enough): the quote's rarest
    // two-word phrases (exact, anywhere in the quote) seed instead, on the same budget
    const pairs: [number, Int32Array][] = [];
    for (let i = 0; i + 1 < n; i++) {
      const occ = phrase(i, i + 1, false);
      if (occ && occ.length) pairs.push([i, occ]);
    }
    pairs.sort((x, y) => x[1].length - y[1].length);
    const more: number[] = [];
    budget = SEED_OCCURRENCES;
    for (const [i, occ] of pairs) {
      if (occ.length > budget) break;
      budget -= occ.length;
      for (let o = 0; o < occ.length; o++) around(more, occ[o], 1, i + 2, n - i + 1);
    }
    if (more.length) {
      add(verify(more, minRatio, limit === 1, true));
      seeded = rankHits(ix, [...found.values()], overlapping, limit);
    }
  }
  const threshold = seeded.length >= limit ? seeded[limit - 1].ratio : minRatio;

  // The complete search at `threshold`.
  let hits: WindowHit[] | null = null;
  const D = Math.floor((2 * lb * (1 - threshold)) / threshold + 1e-6);
  // char offset in b of each quote word (its keys are one 0 apart), and each word's length
  const qStart = new Int32Array(n + 1);
  for (let j = 0, w = 1; j < lb; j++) if (quote.ids[j] === 0) qStart[w++] = j + 1;
  qStart[n] = lb + 1;
  const wordLength = (i: number) => qStart[i + 1] - 1 - qStart[i];
  // suffix pieces "k_i␣" (h′ below): the words whose key ends with k_i, from the index's reversed
  // keys (built on first use); their occurrences counted from cumulative postings
  let suffixes: SuffixIndex | null = null;
  const suffixRange = new Map<number, [number, number]>();
  const suffixSpan = (i: number): [number, number] => {
    let r = suffixRange.get(i);
    if (!r) {
      suffixes ??= suffixIndexOf(ix);
      r = suffixes.range(keys[i]);
      suffixRange.set(i, r);
    }
    return r;
  };
  const suffixCost = (i: number) => {
    const [lo, hi] = suffixSpan(i);
    return suffixes!.cumulative[hi] - suffixes!.cumulative[lo];
  };
  const pieceCost = (x: Piece) => (x[2] === SUFFIX ? suffixCost(x[0]) : cost(x[0], x[1]));
  // the plan: P pieces (D + 1 ≤ P), anchored on their D + 1 rarest; the estimated work of each P
  // (anchors × pieces checked, and the ranges verified) against the linear pass
  let plan: { list: Piece[]; anchors: number; work: number } | null = null;
  let separators = 0;
  for (let j = 0; j < lb; j++) if (quote.ids[j] === 0) separators++;
  // (j) the q-gram filter first: sublinear, and the strongest when D leaves ≥ D + 1 grams of the quote
  if (tuning.grams) {
    const ranges = gramRanges(ix, quote, D, onlySource, Math.floor(searched / (2 * regionShare * (2 * n + 4))));
    if (ranges) {
      hits = verify(ranges, threshold);
      searchPaths.grams++;
    }
  }
  if (!hits && D + 1 <= n - 1 && separators === n - 1 && spaceFreeKeys(ix)) {
    for (let P = D + 1; P <= Math.min(n - 1, D + 1 + EXTRA_PIECES); P++) {
      const chosen = choosePieces(n, P, cost, suffixCost);
      if (!chosen) break;
      const list = chosen.list.sort((x, y) => pieceCost(x) - pieceCost(y));
      // survivors, guessed as if pieces fell at random: an anchor occurrence survives when P − D − 1
      // other pieces fall within its 2D + 1 characters, a Poisson tail with λ = Σ their chances
      // (correlated words make more: the survivor cap below still holds)
      let anchors = 0, all = 0, survivors = 0;
      for (let k = 0; k < P; k++) all += pieceCost(list[k]);
      for (let a = 0; a <= D; a++) {
        const c = pieceCost(list[a]);
        anchors += c;
        const lambda = ((all - c) * (2 * D + 1)) / ix.chars.length;
        let term = Math.exp(-lambda), below = 0;
        for (let t = 0; t < P - D - 1; t++) {
          below += term;
          term *= lambda / (t + 1);
        }
        survivors += c * Math.max(0, 1 - below);
      }
      // listing: the anchors and the non-anchors cheap enough to list (below), a union sorted or a
      // phrase walked costing more per entry than a word's postings read in order
      let listed = 0;
      for (let k = 0; k < P; k++) {
        const c = pieceCost(list[k]);
        if (k <= D || c <= LIST_SHARE * anchors) listed += c * (list[k][2] === SUFFIX || list[k][1] > list[k][0] ? LIST_COST_SORTED : LIST_COST);
      }
      const work = (anchors * P * CHECK_COST + listed) / linearCost + survivors * regionShare * (2 * n + 4);
      if (!plan || work < plan.work) plan = { list, anchors: D + 1, work };
    }
  }
  if (!hits && plan && plan.work * FILTER_SHARE <= searched) {
    // (f) with P pieces at most D are broken, so ≥ P − D are intact in W, one of them among the
    // D + 1 anchors. For W's intact anchor a and another intact piece k, the alignment pairs a's
    // first word character (b offset x_a = qStart of its first word, text position y_a) and k's
    // (x_k, y_k); between them the matched characters pair up, so |(y_k − y_a) − (x_k − x_a)| =
    // |unmatched W − unmatched b between them| ≤ d ≤ D. So only an anchor occurrence with ≥ P − D
    // pieces (itself included) at such positions can lie in a window ≥ T; only its range is verified.
    const { list } = plan;
    const P = list.length;
    const need = P - D;
    const { charStart, charEnd } = ix;
    const pieceFirst = Int32Array.from(list, (x) => x[0]);
    const pieceLength = Int32Array.from(list, (x) => x[1] - x[0] + 1);
    const pieceSuffix = list.map((x) => x[2] === SUFFIX);
    // Is piece k at a word of source s whose piece start (y_k: the word's first character, or for a
    // suffix piece the character |k_i| before the word's end) is within [at − D, at + D]? The local
    // check, for a piece too common to list.
    const intactNear = (k: number, s: number, at: number): boolean => {
      const i = pieceFirst[k];
      const w0 = sourceWords[s], w1 = sourceWords[s + 1];
      if (pieceSuffix[k]) {
        const len = wordLength(i);
        for (let w = firstAtLeast(charEnd, w0, w1, at - D + len); w < w1 && charEnd[w] <= at + D + len; w++) {
          const e = charEnd[w] - len;
          if (e < charStart[w]) continue;
          let same = true;
          for (let t = 0; t < len && same; t++) same = ix.chars[e + t] === quote.ids[qStart[i] + t];
          if (same) return true;
        }
        return false;
      }
      const len = pieceLength[k];
      for (let w = firstAtLeast(charStart, w0, w1, at - D); w < w1 && charStart[w] <= at + D; w++) {
        if (w + len > w1) break;
        if (phraseAt(w, i, len)) return true;
      }
      return false;
    };
    // The count is a sweep: every piece's occurrences as bases (y_k − x_k: where each puts the
    // quote's first character), ascending, and the anchors' occurrences merged in base order; piece
    // k is intact near an anchor at base B when it has a base in [B − D, B + D], found by a pointer
    // into k's bases that only moves forward (B ascends). A base of another source within D of B is
    // only a needless survivor (its range is cut to the anchor's source below). A piece whose list
    // costs more to build than the local checks keeps the local check (`intactNear`). The count
    // stops early once D + 1 pieces are missing: then at most P − D − 1 < need can be intact.
    const A = plan.anchors;
    let anchorOccurrences = 0;
    for (let a = 0; a < A; a++) anchorOccurrences += pieceCost(list[a]);
    const bases: (Int32Array | null)[] = [];
    const order: number[] = []; // pieces to check: listed ones first, local checks last
    for (let k = 0; k < P; k++) {
      const i = pieceFirst[k], j = i + pieceLength[k] - 1;
      if (pieceSuffix[k]) {
        // the words ending in k_i, each id's postings in order: y = the word's end − |k_i|; merged by a sort
        const c = suffixCost(i);
        if (k >= A && c > LIST_SHARE * anchorOccurrences) {
          bases.push(null);
          continue;
        }
        const [lo, hi] = suffixSpan(i);
        const b = new Int32Array(c);
        let o = 0;
        for (let t = lo; t < hi; t++) {
          const id = suffixes!.ids[t];
          const shift = suffixes!.keyLength[t] - wordLength(i) - qStart[i];
          for (let q = postingStart[id], z = postingStart[id + 1]; q < z; q++) b[o++] = postingChars[q] + shift;
        }
        if (hi - lo > 1) b.sort();
        bases.push(b);
        continue;
      }
      let walk = Infinity;
      for (let t = i; t <= j; t++) walk = Math.min(walk, count(t));
      const occ = k < A || walk <= LIST_SHARE * anchorOccurrences ? phrase(i, j, true)! : null;
      if (occ) {
        const b = new Int32Array(occ.length);
        if (i === j && occ.length) {
          // one word: its occurrences' characters are beside its postings (read in order)
          const first = postingStart[ids[i]];
          for (let o = 0; o < occ.length; o++) b[o] = postingChars[first + o] - qStart[i];
        } else for (let o = 0; o < occ.length; o++) b[o] = charStart[occ[o]] - qStart[i];
        bases.push(b);
      } else bases.push(null);
    }
    for (let k = 0; k < P; k++) if (bases[k]) order.push(k);
    for (let k = 0; k < P; k++) if (!bases[k]) order.push(k);
    const pointer = new Int32Array(P);
    const head = new Int32Array(A);
    const ranges: number[] = [];
    const maxRanges = (2 * searched) / (regionShare * (lb + 2 * D + 8));
    const words = wordIds.length;
    const onlyFrom = onlySource >= 0 && sourceWords[onlySource] < sourceWords[onlySource + 1] ? charStart[sourceWords[onlySource]] : 0;
    const onlyTo = onlySource >= 0 && sourceWords[onlySource] < sourceWords[onlySource + 1] ? charEnd[sourceWords[onlySource + 1] - 1] : 0;
    for (;;) {
      // the anchor occurrence with the least base (D + 1 lists: a linear pick)
      let a = -1, base = 0;
      for (let t = 0; t < A; t++) {
        const h = head[t];
        if (h < bases[t]!.length && (a < 0 || bases[t]![h] < base)) {
          a = t;
          base = bases[t]![h];
        }
      }
      if (a < 0) break;
      head[a]++;
      const y = base + qStart[pieceFirst[a]]; // the anchor's first word character in the text
      if (onlySource >= 0 && !(y >= onlyFrom && y < onlyTo)) continue;
      let s = -1; // the anchor's source, found when needed (the word holding y)
      let intact = 1, broken = 0;
      for (let t = 0; t < P && intact < need; t++) {
        const k = order[t];
        if (k === a) continue;
        const bk = bases[k];
        let ok: boolean;
        if (bk) {
          let at = pointer[k];
          while (at < bk.length && bk[at] < base - D) at++;
          pointer[k] = at;
          ok = at < bk.length && bk[at] <= base + D;
        } else {
          if (s < 0) s = wordSource[firstAtLeast(charEnd, 0, words, y + 1)];
          ok = intactNear(k, s, base + qStart[pieceFirst[k]]);
        }
        if (ok) intact++;
        else if (++broken > D) break;
      }
      if (intact >= need) {
        // (g) W's first character is at y_a − x_a ± D and its end at y_a − x_a + lb ± D (the
        // unmatched characters before, and after, the anchor differ by ≤ d ≤ D on the two sides),
        // so W lies inside the words starting at ≥ y_a − x_a − D and ending at ≤ y_a − x_a + lb + D
        if (s < 0) s = wordSource[firstAtLeast(charEnd, 0, words, y + 1)];
        const from = firstAtLeast(charStart, sourceWords[s], sourceWords[s + 1], base - D);
        const to = firstAtLeast(charEnd, from, sourceWords[s + 1], base + lb + D + 1);
        if (from < to) ranges.push(from, to);
        if (ranges.length > maxRanges) break;
      }
    }
    // too many survivors (a weak filter: few pieces needed intact): the linear pass is cheaper
    if (ranges.length <= maxRanges) {
      hits = verify(ranges, threshold);
      searchPaths.filter++;
      if (pieceSuffix.includes(true)) searchPaths.suffixPieces++;
    }
  }
  if (!hits) {
    // (h) The linear pass through a prefix. Cut b = b1 b2 with |b1| = m < lb and fix an LCS
    // alignment of a window W ≥ T with b; split W = W1 W2 where no match crosses (the matches are
    // monotone). Then LCS(W1, b1) + LCS(W2, b2) ≥ LCS(W, b), so indel(W1, b1) + indel(W2, b2) ≤ d ≤ D,
    // and Levenshtein(W1, b1) ≤ indel(W1, b1) ≤ D. W1 is not empty (else indel(W1, b1) = m > D), so
    // it ends at a character e1 of W, and E1(e1) (the semi-global distance of b1 at e1, or the WASM
    // lanes' E_t0: W starts within n + 1 words of e1's word, so at or after its lane's t0) is ≤ D.
    // |W1| ≤ m + D and |W2| ≤ (lb − m) + D, so W lies in characters [e1 − m − D + 1, e1 + lb − m + D]:
    // marking the words there for every e1 with E1(e1) ≤ D and scanning them with the whole quote
    // finds every window ≥ T. One block of b1 costs 1/⌈lb/64⌉ of the whole quote's pass (32 bits in
    // TS); with D ≤ m/3 marks are rare (measured on the bench's 2-block quotes at 0.91: none in
    // 400 K characters for m = 64), else the plain pass runs. Too many ranges: the plain pass too.
    // (i) The same bound with the semi-global INDEL distance: indel(W1, b1) ≤ D directly (the
    // inequality above before the Levenshtein step), so the pass may compute
    // E1(e1) = min over X ending at e1 of indel(X, b1) ≥ its Levenshtein value: far fewer marks for
    // the same m (measured on 600 K characters of the books, marks per million characters at the
    // bench quotes' T: m = 16, D = 7: Levenshtein 375, indel 42; D = 8: 2,827 / 145; m = 32,
    // D = 19–20: 18,073 / 44,895 against 378 / 217), so 16-bit lanes suffice for D ≤ 8 and 32-bit
    // lanes (m = 32, session 10) for D ≤ 20. The WASM pass (qiScanLanes, assembly/quote-index.ts:
    // the recurrences, the lane boundaries, the check of each run of marks with the whole quote, and
    // their proofs) runs 16 lanes over all texts at once; test/match/lanes-twin.ts is its TS twin.
    const maxRanges = Math.floor(searched / (2 * regionShare * (2 * n + 4)));
    // (i) In WASM, first the same pass over all texts in 16 lanes of 16 or 32 bits with the
    // semi-global indel distance (`lanesScanOf`: when D is small enough, else it declines); null:
    // the ways below.
    if (lanesScan) {
      hits = lanesScan(threshold, D, maxRanges);
      if (hits) searchPaths.lanes++;
    }
    for (const m of hits ? [] : rangeScan ? [64] : [32, 64]) {
      if (m >= lb || 3 * D > m) continue;
      hits = prefixScan(threshold, m, D, maxRanges);
      if (hits) searchPaths.prefix++;
      break;
    }
  }
  if (!hits) {
    // the linear pass, from `threshold` down (linearBest: chunks, raised as windows turn up)
    searchPaths.linear++;
    return linearBest(ix, quote, found, wholeSegments(ix, onlySource, Infinity), threshold, minRatio, limit, overlapping, chunkScan, timeBudget);
  }
  add(hits);
  timeBudget.check(1, 1, threshold, "filter");
  // the filter or the prefix pass searched every source completely at `threshold`
  const ranked = rankHits(ix, aboveOf(found, threshold), overlapping, limit);
  if (ranked.length >= limit || threshold <= minRatio) return ranked;
  searchPaths.fallback++;
  return linearBest(ix, quote, found, wholeSegments(ix, onlySource, threshold), -1, minRatio, limit, overlapping, chunkScan, timeBudget);
}

/** The windows of `found` with ratio ≥ t. */
function aboveOf(found: Map<number, WindowHit>, t: number): WindowHit[] {
  const out: WindowHit[] = [];
  for (const h of found.values()) if (h.ratio >= t) out.push(h);
  return out;
}

/**
 * A word range [from, to) of one source and the threshold `t` it has been searched at completely
 * (every window ending in it with ratio ≥ t is known; Infinity: not searched yet).
 */
interface Segment {
  from: number;
  to: number;
  t: number;
}

/** One segment per source searched (every source, or `onlySource`), each searched at `t`. */
function wholeSegments(ix: IndexedText, onlySource: number, t: number): Segment[] {
  const out: Segment[] = [];
  for (let s = 0; s + 1 < ix.sourceWords.length; s++) {
    if (onlySource >= 0 && s !== onlySource) continue;
    if (ix.sourceWords[s + 1] > ix.sourceWords[s]) out.push({ from: ix.sourceWords[s], to: ix.sourceWords[s + 1], t });
  }
  return out;
}

/**
 * Thresholds the linear search of `linearBest` steps down through when the k-th best span is
 * unknown: the pass costs little above ~0.7 and grows steeply below (bounds 2–4 stop pruning and
 * difflib runs on most windows: measured on the bundled books, a 20-word quote took 0.5 s at 0.5
 * and 12 s at 0.4), so a search whose k-th span scores ≥ L stops after the pass at L.
 */
const LEVELS = [0.7, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05];

/**
 * The first `limit` spans of the full answer at `minRatio` (rankHits order and overlap rule), by
 * linear passes over the segments (`scanChunked`), best first. Proof (as searchBest's "why a higher
 * threshold is enough"): let Tmax be the largest threshold any segment was searched at; every
 * window ≥ Tmax is then in `found` (a segment searched at t ≤ Tmax holds all its windows ≥ t), so
 * the windows of `found` ≥ Tmax are a prefix of the full order and their greedy pass gives the
 * first spans of the full answer: when it keeps `limit`, that is the answer. Else the next pass
 * runs at a lower threshold: the k-th kept ratio of all of `found` (it is < Tmax: the greedy pass
 * over `found` keeps < k spans ≥ Tmax), or the next of LEVELS below Tmax when that is higher, never
 * below minRatio; segments searched above it are searched again (windows found twice count once).
 * Within a pass the threshold rises after each chunk to the k-th kept ratio among the windows
 * found ≥ it: the segments searched after that are searched at the higher threshold, which only
 * raises Tmax. Thresholds fall strictly from pass to pass and are ratios of `found`, LEVELS or
 * minRatio, so the loop ends; at Tmax = minRatio it is the full scan's answer.
 * `t0`: the first pass's threshold (-1: none given, the rule above picks it).
 */
function linearBest(
  ix: IndexedText, quote: IndexedQuote, found: Map<number, WindowHit>, segments: Segment[], t0: number, minRatio: number,
  limit: number, overlapping: boolean, chunkScan: ChunkScan, budget: Budget,
): WindowHit[] {
  const kth = (t: number) => {
    const kept = rankHits(ix, aboveOf(found, t), overlapping, limit);
    return kept.length >= limit ? kept[limit - 1].ratio : -1;
  };
  const levelBelow = (x: number) => {
    for (const l of LEVELS) if (l < x) return Math.max(l, minRatio);
    return minRatio;
  };
  let T = t0;
  let searchedAt = -Infinity; // the highest threshold any segment is searched at (Infinity: not searched)
  for (const g of segments) searchedAt = Math.max(searchedAt, g.t);
  if (T < 0) T = Math.max(kth(minRatio), levelBelow(searchedAt), minRatio);
  // a first pass far below the top level: start at the top level (cheap), step down from there
  else if (limit !== Infinity && T < LEVELS[0]) T = Math.max(T, Math.min(LEVELS[0], searchedAt));
  for (;;) {
    searchPaths.passes++;
    segments = scanChunked(ix, quote, segments, T, chunkScan, budget, limit === 1, (hits, t) => {
      for (const h of hits) found.set(h.word * 256 + h.size, h);
      if (limit === Infinity) return t;
      return Math.max(t, kth(t));
    });
    let tMax = minRatio;
    for (const g of segments) tMax = Math.max(tMax, g.t);
    const ranked = rankHits(ix, aboveOf(found, tMax), overlapping, limit);
    if (ranked.length >= limit || tMax <= minRatio) return ranked;
    T = Math.max(kth(minRatio), levelBelow(tMax), minRatio);
  }
}

/**
 * Search `segments` at threshold t (those already searched at ≤ t are kept as they are): each one
 * in chunks of words [a, b) (windows ending there; phase A from a − n − 1), sized by a `Pacer` so a
 * chunk takes ~CHUNK_MS; after each, `onChunk(hits, t)` gives the threshold for the next chunk (≥ t)
 * and the budget is checked. `raise` (limit 1): within a chunk each window found raises t (the WASM
 * scan's `raise`; exact for one span: a window ≥ the final t is never skipped). Returns the segments
 * with the threshold each part was searched at.
 */
function scanChunked(
  ix: IndexedText, quote: IndexedQuote, segments: Segment[], t: number, chunkScan: ChunkScan, budget: Budget, raise: boolean,
  onChunk: (hits: WindowHit[], t: number) => number,
): Segment[] {
  const n = quote.words;
  const out: Segment[] = [];
  let total = 0, done = 0;
  for (const g of segments) if (g.t > t) total += g.to - g.from;
  const pace = new Pacer(quote.ids.length, t);
  for (const g of segments) {
    if (g.t <= t) {
      out.push(g);
      continue;
    }
    // the segment's source: phase A may start before the segment but never before its source
    let lo = 0, hi = ix.sourceWords.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ix.sourceWords[mid] <= g.from) lo = mid;
      else hi = mid - 1;
    }
    const first = ix.sourceWords[lo];
    // no window ends before its source's word n − 3 (sizes ≥ n − 2): words before it cost nothing, so
    // the pacer counts (and sizes chunks in) the words after it
    const firstEnd = first + Math.max(1, n - 2) - 1;
    for (let a = g.from; a < g.to; ) {
      const b = Math.min(g.to, Math.max(a, firstEnd) + pace.words);
      const start = budget.now();
      // a chunk the WASM scan cut short at its work cap ends at `reached` (> a): the next one goes on from there
      const { hits, reached } = chunkScan(Math.max(first, a - n - 1), a, b, t, raise);
      pace.done(reached - Math.max(a, firstEnd), budget.now() - start);
      searchPaths.chunks++;
      let t1 = t;
      if (raise) for (const h of hits) t1 = Math.max(t1, h.ratio);
      out.push({ from: a, to: reached, t: t1 });
      done += reached - a;
      t = onChunk(hits, t1);
      a = reached;
      budget.check(done, total, t, "words");
    }
  }
  return out;
}

/**
 * Chunk sizes (in words) for a scan cut into pieces: the first is small below 0.7 (a long quote at
 * a low threshold can cost milliseconds a word: difflib on ~5 windows of ~lb² each), then each is
 * sized from the measured time per word to take ~CHUNK_MS, growing at most 2× a chunk (4× after one
 * far under it); so the time budget
 * is checked every ~CHUNK_MS (one word's windows at most between two checks), and a fast scan makes
 * only a few calls.
 */
class Pacer {
  words: number;
  constructor(lb: number, threshold: number) {
    // from 0.7 up bounds 2–4 leave difflib little to do (a word costs ~6 ns a block): start large
    const start = threshold >= 0.7 ? 262_144 : 8_192;
    this.words = tuning.chunkWords || Math.max(1, Math.min(4096, Math.floor(start / Math.max(1, lb))));
  }
  done(words: number, ms: number): void {
    if (tuning.chunkWords || words <= 0) return;
    // 4× after a chunk far under its time, else sized from its rate but at most 2×
    const grown = this.words * (ms < CHUNK_MS / 8 ? 4 : 2);
    this.words = ms > 0 ? Math.max(1, Math.min(grown, Math.floor((words * CHUNK_MS) / ms))) : grown;
  }
}

/** Target time of one chunk of a chunked scan, ms: the budget's check interval. */
const CHUNK_MS = 20;

/**
 * The WASM chunk scan's work cap, in DP cells of its LCS bounds and difflib ratios: a chunk that runs
 * into near matches of a long quote at a low ratio (a 200-word quote: ~10 ms of difflib a window)
 * stops after the word that passes it, so the budget is checked again within ~CHUNK_MS whatever the
 * pacer predicted (difflib's matching costs ~1 ns a cell here: 2^24 cells ≈ 15–30 ms).
 */
const CHUNK_CELLS = 2 ** 24;

/**
 * The time budget of one `locate` call (`timeoutMs`): `check` throws QuoteSearchTimeoutError once
 * it is spent, saying how far the search got. NO_BUDGET never throws.
 */
class Budget {
  private readonly start: number;
  constructor(private readonly timeoutMs: number, private readonly minRatio: number, private readonly limit: number) {
    this.start = this.now();
  }
  now(): number {
    return typeof performance !== "undefined" ? performance.now() : Date.now();
  }
  check(done: number, total: number, threshold: number, what: "words" | "ranges" | "filter"): void {
    if (this.timeoutMs === Infinity) return;
    const elapsed = this.now() - this.start;
    if (elapsed > this.timeoutMs) throw new QuoteSearchTimeoutError(this.timeoutMs, elapsed, done, total, what, threshold, this.minRatio, this.limit);
  }
}
const NO_BUDGET = new Budget(Infinity, 0, Infinity);

/**
 * Thrown by `locate` when its `timeoutMs` ran out before the answer was complete; nothing of the
 * partial search is returned. Says how far it got: `searched` of `total` units (`unit` "words": a
 * linear pass's words; "ranges": word ranges the best-first search was verifying; "filter": its
 * pigeonhole filter) at ratio ≥ `threshold`, after `elapsedMs` of the `timeoutMs` budget.
 * A higher `minRatio` (bounds prune more) or a `limit` (the search stops at the k-th best) costs less.
 */
export class QuoteSearchTimeoutError extends Error {
  override readonly name = "QuoteSearchTimeoutError";
  constructor(
    readonly timeoutMs: number,
    readonly elapsedMs: number,
    readonly searched: number,
    readonly total: number,
    readonly unit: "words" | "ranges" | "filter",
    readonly threshold: number,
    readonly minRatio: number,
    readonly limit: number,
  ) {
    const where = unit === "filter"
      ? "in the pigeonhole filter"
      : `with ${searched} of ${total} ${unit} (${total ? Math.floor((100 * searched) / total) : 100} %) searched`;
    const hint = limit === Infinity ? "a limit or a higher minRatio" : "a higher minRatio or a lower limit";
    super(
      `locate: gave up after ${Math.round(elapsedMs)} ms (timeoutMs ${timeoutMs}) ${where} at ratio ≥ ${+threshold.toFixed(4)} ` +
      `(minRatio ${minRatio}); no spans are returned: ${hint} makes the search cheaper`,
    );
  }
}

/** The first index t in [lo, hi) with a[t] ≥ x (a ascending there), hi when none. */
function firstAtLeast(a: Int32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The filter's estimated work, in words of the linear pass (its checks: anchor occurrences × pieces ×
 * CHECK_COST, its lists' entries × LIST_COST*, both ÷ the pass's cost a word; its guessed survivors'
 * ranges × regionShare), may be at most 1/FILTER_SHARE of the words searched (the rest of the budget
 * is the seeds', the piece choice's, and the survivors the guess misses). Only speed depends on it.
 */
const FILTER_SHARE = 2;
/**
 * The filter's costs in words of the WASM linear pass for a quote of one 64-bit block (measured on
 * the bench's quotes over all books, Node 20, 2026-12-01: the pass ~6 ns a word; a sweep's check
 * ~20 ns; an entry of a piece's list ~3 ns read in order from the postings, ~25 ns from a sorted
 * union or a phrase walk). The TS pass costs ~8× the WASM pass per word and block (32 bits against 64).
 */
const CHECK_COST = 3;
const LIST_COST = 0.5;
const LIST_COST_SORTED = 4;
const LINEAR_COST_TS = 8;
/** Occurrences of the quote's rarest words whose ranges seed the best-first search (per quote). */
const SEED_OCCURRENCES = 32;
/** A piece that is no anchor gets a sorted list (built by walking its rarest word's postings) when that walk is ≤ LIST_SHARE × the anchors' occurrences; else it is checked locally per anchor occurrence. */
const LIST_SHARE = 16;
/**
 * What verifying a word of a range costs against a word of the linear pass: WASM verifies a range
 * with one scalar lane where the pass runs 2–4 SIMD lanes (and pays per range); the TS twin's
 * verification and linear pass are the same loop (WindowScanner), so it pays only per range.
 */
const REGION_SHARE_WASM = 4;
const REGION_SHARE_TS = 2;

/**
 * Work of the q-gram filter, in list entries (each written, sorted: a counting pass and an insertion
 * sort, and read by the sliding window): it runs only when its lists plus GRAM_SURVIVOR_COST per guessed
 * survivor come to ≤ C / GRAM_SHARE entries, C the characters indexed (measured on the bench quotes
 * over all books, Node 20, 2026-12-02: an entry ~10–40 ns in TS, a survivor's range verified
 * ~2–5 µs, the lanes pass ~0.4 ns a character). GRAM_SURVIVOR_COST: session 8 timed 300, 3,000 and
 * 30,000 the same within noise with its bucket pairs; with the sliding window's smaller guess
 * (session 9, bench/scratch/s9-tuning-ab.ts) 300 let quotes 1 and 10 take weaker P (9 and 22
 * ranges where 3,000 leaves 1 and 4), 30,000 sent quote 7 back to the prefix pass (8.0 ms against
 * 4.7–5.1 ms by the filter); 3,000 kept. Only speed depends on them.
 */
const GRAM_SURVIVOR_COST = 3000;
const GRAM_SHARE = 16;
/**
 * `gramEntriesNear` runs its pre-pass from this many entries on (`tuning.gramNearMin`; tests set 0):
 * below, the counting sort of all costs ≤ ~0.3 ms, and its cells (≤ 2 an entry) would be too coarse
 * to drop most (quotes 1, 2, 5, 6, 9 of the bench, 136–4,808 entries, kept 31–86 %).
 */
const GRAM_NEAR_MIN = 8192;
/**
 * Below `smallWords` words searched, `searchBest` runs the linear pass at once after the exact
 * path: the seeds and the filter cost ~1–3 ms a quote, the WASM pass ~5 ns a character (so the
 * filter pays from ~100 K words; measured on the pool bench, where the search was 19 % slower).
 * Settable for the tests (the parity suite sets 0 to run the filter on small texts). `chunkWords`
 * > 0 fixes the chunks of a chunked scan at that many words (tests cut texts into many chunks).
 */
const tuning = { smallWords: 65_536, chunkWords: 0, chunkCells: CHUNK_CELLS, grams: true, gramShare: GRAM_SHARE, gramSurvivorCost: GRAM_SURVIVOR_COST, gramNearMin: GRAM_NEAR_MIN };

/** How often each way of `searchBest` answered (tests check every way is exercised). */
const searchPaths = { exact: 0, grams: 0, filter: 0, suffixPieces: 0, prefix: 0, lanes: 0, lanes32: 0, linear: 0, fallback: 0, passes: 0, chunks: 0 };

/** Occurrences walked to count a phrase exactly (beyond it, its rarest word's count bounds it). */
const PHRASE_WALK = 512;
/** Pieces beyond D + 1 the plan tries (more pieces: more of them intact, so fewer survivors, but commoner ones). */
const EXTRA_PIECES = 4;
/** Longest piece, in words, the piece choice considers (a longer phrase is rarer still, but rarely needed). */
const MAX_PIECE_WORDS = 6;

/** A piece of the quote for the pigeonhole filter: words [first, last] (0-based) and its kind. */
type Piece = [first: number, last: number, kind: number];
/** "␣k_i … k_j␣": whole words at consecutive text words (1 ≤ i ≤ j ≤ n−2). */
const WHOLE = 0;
/** "k_i␣": a text word ending in k_i (one word, 0 ≤ i ≤ n−2). */
const SUFFIX = 1;

/**
 * Disjoint pieces of the quote for the pigeonhole filter (`searchBest` (d)): `want` pieces, each
 * either WHOLE words [i, j] (1 ≤ i ≤ j ≤ n−2, at most MAX_PIECE_WORDS words: "␣k_i … k_j␣", both
 * delimiting spaces inside it) or, when `suffixCost` is given, the SUFFIX piece of one word i
 * (0 ≤ i ≤ n−2: "k_i␣", the space after it inside it); no two pieces share a space (each of the
 * n − 1 spaces is in at most one piece), so two WHOLE pieces have a word between them, and at
 * most n − 1 pieces fit. Minimizes Σ cost (the pieces' occurrences). Each entry is [i, j, kind];
 * null when impossible. Ties: skipping a word first, then SUFFIX, then the shorter WHOLE piece.
 * O(n·MAX_PIECE_WORDS·want) time, n ≤ MAX_QUOTE_WORDS.
 */
function choosePieces(
  n: number, want: number, cost: (i: number, j: number) => number, suffixCost?: (i: number) => number,
): { cost: number; list: Piece[] } | null {
  if (want < 1 || n < 2) return null;
  // best[c][f][i]: least cost of c pieces inside words [i, n−1] when the space before word i is
  // taken (f = 1) or free (f = 0); choice: -2 skip word i, -1 its SUFFIX piece, j ≥ i WHOLE [i, j]
  const best: Float64Array[][] = [];
  const choice: Int32Array[][] = [];
  for (let c = 0; c <= want; c++) {
    best.push([0, 1].map(() => new Float64Array(n + 1).fill(c === 0 ? 0 : Infinity)));
    choice.push([0, 1].map(() => new Int32Array(n + 1).fill(-2)));
  }
  const suffix = new Float64Array(n).fill(Infinity);
  if (suffixCost) for (let i = 0; i + 1 < n; i++) suffix[i] = suffixCost(i);
  for (let c = 1; c <= want; c++) {
    for (let i = n - 1; i >= 0; i--) {
      for (let f = 0; f <= 1; f++) {
        let b = best[c][0][i + 1], ch = -2;
        if (i + 1 < n && suffix[i] + best[c - 1][1][i + 1] < b) {
          b = suffix[i] + best[c - 1][1][i + 1];
          ch = -1;
        }
        if (f === 0 && i >= 1) {
          for (let j = i; j <= n - 2 && j < i + MAX_PIECE_WORDS; j++) {
            const rest = best[c - 1][1][j + 1];
            if (rest === Infinity) break; // a longer first piece leaves even less room
            const total = cost(i, j) + rest;
            if (total < b) {
              b = total;
              ch = j;
            }
          }
        }
        best[c][f][i] = b;
        choice[c][f][i] = ch;
      }
    }
  }
  if (best[want][0][0] === Infinity) return null;
  const list: Piece[] = [];
  for (let c = want, i = 0, f = 0; c > 0; ) {
    const j = choice[c][f][i];
    if (j === -2) {
      i++;
      f = 0;
      continue;
    }
    if (j === -1) list.push([i, i, SUFFIX]);
    else list.push([i, j, WHOLE]);
    i = j === -1 ? i + 1 : j + 1;
    f = 1;
    c--;
  }
  return { cost: best[want][0][0], list };
}

/** The index's word keys, reversed (by code point) and sorted, for the filter's SUFFIX pieces. */
interface SuffixIndex {
  /** Vocabulary id and key length (characters) at each sorted place. */
  ids: Int32Array;
  keyLength: Int32Array;
  /** Occurrences of the ids before each sorted place (length + 1). */
  cumulative: Float64Array;
  /** Sorted places [lo, hi) of the keys ending in `key`. */
  range(key: string): [number, number];
}

/** `s` reversed by code point (a surrogate pair stays in order), and its length in code points. */
function reverseCodePoints(s: string): [string, number] {
  let r = "";
  let length = 0;
  for (let i = s.length - 1; i >= 0; i--, length++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c < 0xe000 && i > 0) {
      const h = s.charCodeAt(i - 1);
      if (h >= 0xd800 && h < 0xdc00) {
        r += s[i - 1] + s[i];
        i--;
        continue;
      }
    }
    r += s[i];
  }
  return [r, length];
}

const suffixIndexes = new WeakMap<Int32Array, SuffixIndex>();
/** The SuffixIndex of `ix`, built on first use (O(V log V) for V distinct keys). */
function suffixIndexOf(ix: PostedText): SuffixIndex {
  let got = suffixIndexes.get(ix.postingStart);
  if (got) return got;
  const keysReversed: string[] = [];
  const idOf: number[] = [];
  const lengthOf: number[] = [];
  for (const [key, id] of ix.vocabulary) {
    const [r, length] = reverseCodePoints(key);
    keysReversed.push(r);
    idOf.push(id);
    lengthOf.push(length);
  }
  const order = Array.from(keysReversed, (_, i) => i).sort((x, y) => (keysReversed[x] < keysReversed[y] ? -1 : keysReversed[x] > keysReversed[y] ? 1 : 0));
  const reversed = order.map((i) => keysReversed[i]);
  const ids = Int32Array.from(order, (i) => idOf[i]);
  const keyLength = Int32Array.from(order, (i) => lengthOf[i]);
  const cumulative = new Float64Array(ids.length + 1);
  for (let t = 0; t < ids.length; t++) cumulative[t + 1] = cumulative[t] + ix.postingStart[ids[t] + 1] - ix.postingStart[ids[t]];
  got = {
    ids,
    keyLength,
    cumulative,
    range(key) {
      // the reversed keys with the reversed key as a prefix: a contiguous run in sorted order
      const r = reverseCodePoints(key)[0];
      let lo = 0, hi = reversed.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (reversed[mid] < r) lo = mid + 1;
        else hi = mid;
      }
      let end = reversed.length;
      for (let a = lo; a < end; ) {
        const mid = (a + end) >>> 1;
        if (reversed[mid].startsWith(r)) a = mid + 1;
        else end = mid;
      }
      return [lo, end];
    },
  };
  suffixIndexes.set(ix.postingStart, got);
  return got;
}

const spaceFree = new WeakMap<Int32Array, boolean>();
/** Whether no word key holds the space (id 0) — (d) of `searchBest`; words.ts never makes one, checked once per index. */
function spaceFreeKeys(ix: IndexedText): boolean {
  let ok = spaceFree.get(ix.chars);
  if (ok === undefined) {
    ok = true;
    for (let w = 0; w < ix.charStart.length && ok; w++) {
      for (let i = ix.charStart[w]; i < ix.charEnd[w]; i++) if (ix.chars[i] === 0) ok = false;
    }
    spaceFree.set(ix.chars, ok);
  }
  return ok;
}

/**
 * The index's character q-grams (`searchBest` (j)): for every position p of `chars` with p + GRAM_Q ≤
 * C, p is listed under the hash of chars[p, p + GRAM_Q) (`gramHash`, 2^GRAM_BITS buckets; positions
 * ascending within a bucket). Two grams may share a bucket: a bucket's list is a superset of each
 * gram's occurrences, which is all the filter needs. Built on the first search that uses it
 * (measured for the bundled books' 4.48 M characters: ~125–200 ms CPU on the shared machine, and
 * 4·C + 2^(GRAM_BITS+2) bytes, 19 MB, kept; 4·C more while building); `keys`, `grams` (and their
 * second copies) are the filter's scratch, 10 bytes an entry, grown to the most entries a search has
 * listed (when the cost guess is on, ≤ C/GRAM_SHARE entries: ≤ 2.8 MB for the books).
 */
interface GramIndex {
  start: Int32Array;
  positions: Int32Array;
  /** The filter's entries (keys and grams, and a second copy of each for the counting pass), grown as needed: scratch. */
  /** `gramEntriesNear`'s scratch: each cell's mask of grams, and the kept entries packed (key·32 + gram). */
  masks: Int32Array;
  packed: Float64Array;
  keys: Int32Array;
  keys2: Int32Array;
  grams: Uint8Array;
  grams2: Uint8Array;
}

/** The q of the q-gram filter, and its hash table's bits. */
const GRAM_Q = 4;
const GRAM_BITS = 18;

/** The bucket of the gram a[p, p + GRAM_Q) (a hash of four ids: collisions only lengthen lists). */
function gramHash(a: Int32Array, p: number): number {
  const h = Math.imul(a[p], 0x9e3779b1) ^ Math.imul(a[p + 1], 0x85ebca77) ^ Math.imul(a[p + 2], 0xc2b2ae3d) ^ Math.imul(a[p + 3], 0x27d4eb2f);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - GRAM_BITS);
}

const gramIndexes = new WeakMap<Int32Array, GramIndex>();
/** The GramIndex of `ix`, built on first use (a counting sort of the C positions by bucket: two passes). */
function gramIndexOf(ix: IndexedText): GramIndex {
  let got = gramIndexes.get(ix.chars);
  if (got) return got;
  const { chars } = ix;
  const n = Math.max(0, chars.length - GRAM_Q + 1);
  const hashes = new Int32Array(n);
  const start = new Int32Array((1 << GRAM_BITS) + 1);
  for (let p = 0; p < n; p++) {
    const h = gramHash(chars, p);
    hashes[p] = h;
    start[h + 1]++;
  }
  for (let h = 0; h < 1 << GRAM_BITS; h++) start[h + 1] += start[h];
  const positions = new Int32Array(n);
  const fill = start.slice(0, 1 << GRAM_BITS);
  for (let p = 0; p < n; p++) positions[fill[hashes[p]]++] = p;
  got = { start, positions, keys: new Int32Array(0), keys2: new Int32Array(0), grams: new Uint8Array(0), grams2: new Uint8Array(0), masks: new Int32Array(0), packed: new Float64Array(0) };
  gramIndexes.set(ix.chars, got);
  return got;
}

/** At most this many pieces (a Uint8 per entry would hold 255; 31 keeps the DP and the choice of P small). */
const GRAM_MAX_PIECES = 31;

/**
 * The q-gram filter of `searchBest` (j): the word ranges (pairs [from, to), each inside one source,
 * ascending) that hold every window with indel distance ≤ D to the quote, from the GramIndex's lists
 * of P disjoint grams of the quote; null when it declines (no P fits, or its work or its ranges
 * would exceed the budget: the caller's other ways then run). `maxRanges`: the most ranges worth
 * verifying.
 */
function gramRanges(ix: PostedText, quote: IndexedQuote, D: number, onlySource: number, maxRanges: number): number[] | null {
  const b = quote.ids;
  const lb = b.length;
  const C = ix.chars.length;
  const Pmax = Math.min(GRAM_MAX_PIECES, Math.floor(lb / GRAM_Q));
  if (D + 1 > Pmax || C < GRAM_Q) return null;
  const gi = gramIndexOf(ix);
  const { start, positions } = gi;
  // each gram's list length (0 for a gram holding a character the texts lack: it occurs nowhere)
  const grams = lb - GRAM_Q + 1;
  const bucket = new Int32Array(grams).fill(-1);
  const cnt = new Float64Array(grams);
  for (let x = 0; x < grams; x++) {
    let known = true;
    for (let t = 0; t < GRAM_Q; t++) if (b[x + t] >= ix.alphabetSize) known = false;
    if (!known) continue;
    bucket[x] = gramHash(b, x);
    cnt[x] = start[bucket[x] + 1] - start[bucket[x]];
  }
  // f[j·(lb+1) + i]: the least total list length of j disjoint grams inside b[0, i)
  const W = lb + 1;
  const f = new Float64Array((Pmax + 1) * W).fill(Infinity);
  for (let i = 0; i <= lb; i++) f[i] = 0;
  for (let j = 1; j <= Pmax; j++) {
    for (let i = GRAM_Q; i <= lb; i++) {
      const take = f[(j - 1) * W + i - GRAM_Q] + cnt[i - GRAM_Q];
      const skip = f[j * W + i - 1];
      f[j * W + i] = take < skip ? take : skip;
    }
  }
  // P: the least work, lists plus survivors guessed as if entries fell at random (one of the
  // (C + lb)/(D + 1) disjoint spans of D + 1 keys holding ≥ P − D of them: a Poisson tail; the real
  // text's near copies add some)
  const spans = (C + lb) / (D + 1);
  let P = -1, best = Infinity;
  for (let p = D + 1; p <= Pmax; p++) {
    const entries = f[p * W + lb];
    if (entries === Infinity) break;
    const lambda = entries / spans;
    let term = Math.exp(-lambda), tail = 0;
    for (let t = 0; t < p - D + 40; t++) {
      if (t >= p - D) tail += term;
      term *= lambda / (t + 1);
    }
    const work = entries + tuning.gramSurvivorCost * spans * tail;
    if (work < best) {
      best = work;
      P = p;
    }
  }
  if (P < 0 || best * tuning.gramShare > C) return null;
  // the chosen grams' first characters x_k in b
  const xs: number[] = [];
  for (let i = lb, j = P; j > 0; ) {
    if (i >= GRAM_Q && f[j * W + i] === f[(j - 1) * W + i - GRAM_Q] + cnt[i - GRAM_Q]) {
      xs.push(i - GRAM_Q);
      i -= GRAM_Q;
      j--;
    } else i--;
  }
  const need = P - D;
  // the entries: every listed position y of gram k as its base y − x_k, offset by lb (≥ 0), sorted
  // (only those a passing window could hold, `gramEntriesNear`: the same ranges as all of them,
  // `gramEntriesSorted`, give)
  let total = 0;
  for (let k = 0; k < P; k++) if (bucket[xs[k]] >= 0) total += cnt[xs[k]];
  const { keys, grams: gk, count } = gramEntriesNear(gi, xs, bucket, lb, C + lb, D, need, total);
  // the sliding window: at each entry hi (key K), the entries with keys in [K − D, K]; when they
  // hold ≥ need distinct grams, every window whose intact grams have K as their greatest base (+ lb)
  // lies in characters [K − lb − D, K + D) ((j): s ≥ B_max − D, s + la ≤ B_min + lb + D ≤ K + D);
  // overlapping such intervals merged
  const inWindow = new Int32Array(P);
  const chars: number[] = [];
  let distinct = 0, lo = 0, curFrom = 0, curTo = -1;
  for (let hi = 0; hi < count; hi++) {
    const K = keys[hi];
    if (inWindow[gk[hi]]++ === 0) distinct++;
    while (keys[lo] < K - D) if (--inWindow[gk[lo++]] === 0) distinct--;
    if (distinct < need) continue;
    const from = K - lb - D, to = K + D;
    if (from <= curTo) {
      if (to > curTo) curTo = to;
      continue;
    }
    if (curTo >= 0) chars.push(curFrom, curTo);
    if (chars.length > 2 * maxRanges) return null;
    curFrom = from;
    curTo = to;
  }
  if (curTo >= 0) chars.push(curFrom, curTo);
  if (chars.length > 2 * maxRanges) return null;
  // each interval's words: starting at ≥ its first character and ending (exclusive end) by its end,
  // cut at the sources' edges (a window is inside one source)
  const { charStart, charEnd, wordSource, sourceWords } = ix;
  const words = charStart.length;
  const ranges: number[] = [];
  for (let r = 0; r < chars.length; r += 2) {
    const from = firstAtLeast(charStart, 0, words, chars[r]);
    const to = firstAtLeast(charEnd, from, words, chars[r + 1] + 1);
    for (let w = from; w < to; ) {
      const s = wordSource[w];
      const e = Math.min(to, sourceWords[s + 1]);
      if (onlySource < 0 || s === onlySource) ranges.push(w, e);
      w = e;
    }
  }
  return ranges;
}

/** `gramEntriesNear` sorts the kept entries itself only when ≤ 1/this of all are kept, else all by `gramEntriesSorted`. */
const GRAM_NEAR_FALLBACK = 4;

/** The number of set bits of the 32-bit `m` (SWAR). */
function popCount(m: number): number {
  m -= (m >>> 1) & 0x55555555;
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The q-gram filter's entries that a passing window could hold, sorted by key (then gram): of the
 * entries `gramEntriesSorted` lists (every position y in the bucket of gram k, offset xs[k] in b,
 * buckets < 0 skipped, as the key y − xs[k] + lb in [0, limit)), those in a cell (2^shift keys,
 * 2^shift ≥ D + 1, and at most ~2·total cells) that, with a neighbouring cell, holds ≥ `need` distinct
 * grams; `count` of them, in keys[0, count) and grams[0, count) (scratch in `gi`, valid until the
 * next search). `total` = the number of entries. When more than total/GRAM_NEAR_FALLBACK are kept,
 * it returns all entries instead (`gramEntriesSorted`, count = total: the same windows pass), and
 * so it does at once below tuning.gramNearMin entries.
 *
 * Why the sliding window of `gramRanges` gives the same ranges on these as on all entries: its
 * window at an entry of key K holds the entries with keys in [K − D, K], a span of D + 1 ≤ 2^shift
 * keys, so inside cells c − 1 and c (c = K's cell), and its distinct grams are ≤ the set bits of
 * those cells' masks. When those are < need, the window fails over all entries and over any subset
 * (it is then no matter which entries are kept); when ≥ need, both cells are kept whole, so the
 * window over the kept entries is the window over all. A dropped entry's own window fails (its
 * cells c − 1, c are < need, else it were kept). So the windows that pass, and their keys, are the
 * same; ties (one key, several grams) come in gram order, as in `gramEntriesSorted`, though the
 * ranges do not depend on it (a key's last entry sees its whole window).
 *
 * Cost: two passes over the lists (a mask OR, then a test), random access into ≤ 2·total Int32
 * cells, then a sort of the kept entries only (few, unless the text holds many near copies or a
 * run of one character; past total/GRAM_NEAR_FALLBACK the counting sort of all is cheaper: the
 * Float64Array sort costs more an entry than its counting pass).
 */
function gramEntriesNear(
  gi: GramIndex, xs: number[], bucket: Int32Array, lb: number, limit: number, D: number, need: number, total: number,
): { keys: Int32Array; grams: Uint8Array; count: number } {
  if (total < tuning.gramNearMin) return { ...gramEntriesSorted(gi, xs, bucket, total, lb, limit), count: total };
  let shift = 0;
  while (1 << shift < D + 1 || limit >>> shift > 2 * Math.max(1, total)) shift++;
  const cells = (limit - 1 >>> shift) + 1;
  // masks[c + 1]: the grams with an entry in cell c (masks[0] and masks[cells + 1] stay 0)
  if (gi.masks.length < cells + 2) gi.masks = new Int32Array(cells + 2);
  const { masks, start, positions } = gi;
  masks.fill(0, 0, cells + 2);
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    const bit = 1 << k, off = lb - x;
    for (let o = start[h], z = start[h + 1]; o < z; o++) masks[(positions[o] + off >>> shift) + 1] |= bit;
  }
  // the kept entries, packed (key·32 + gram is exact in a double: key < 2^31, gram < 32) and sorted
  if (gi.packed.length < total) gi.packed = new Float64Array(Math.max(total, 2 * gi.packed.length));
  const { packed } = gi;
  let count = 0;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    const off = lb - x;
    for (let o = start[h], z = start[h + 1]; o < z; o++) {
      const key = positions[o] + off, c = (key >>> shift) + 1, m = masks[c];
      if (popCount(m | masks[c - 1]) >= need || popCount(m | masks[c + 1]) >= need) packed[count++] = key * 32 + k;
    }
  }
  // most kept (a weak need, or near copies everywhere): the counting sort of all is the cheaper
  if (count > total / GRAM_NEAR_FALLBACK) return { ...gramEntriesSorted(gi, xs, bucket, total, lb, limit), count: total };
  packed.subarray(0, count).sort();
  growGramScratch(gi, count);
  const { keys, grams } = gi;
  for (let i = 0; i < count; i++) {
    const v = packed[i], key = Math.floor(v / 32);
    keys[i] = key;
    grams[i] = v - key * 32;
  }
  return { keys, grams, count };
}

/** Grow `gi`'s scratch (keys, grams and their second copies) to hold `n` entries, at least doubling. */
function growGramScratch(gi: GramIndex, n: number): void {
  if (gi.keys.length >= n) return;
  const room = Math.max(n, 2 * gi.keys.length);
  gi.keys = new Int32Array(room);
  gi.keys2 = new Int32Array(room);
  gi.grams = new Uint8Array(room);
  gi.grams2 = new Uint8Array(room);
}

/** Slots of `gramEntriesSorted` up to this many entries are sorted by insertion (≤ 32²/2 moves). */
const GRAM_SLOT_INSERTION = 32;

/**
 * The q-gram filter's entries sorted by key: every position y in the bucket of gram k (offset
 * xs[k] in b; buckets < 0 are skipped) as the key y − xs[k] + lb (in [0, limit)), with k beside it;
 * `total` = the number of entries. One counting pass on the key's high bits (2^shift keys a slot,
 * about one entry a slot on average) puts every entry in its slot, then each slot is sorted (by
 * insertion when short: O(total) for the books' lists; a slot of many is sorted as packed doubles).
 * The scratch arrays stay in `gi` between searches. `gramRanges` now takes `gramEntriesNear` (the
 * entries a passing window could hold); this, all of them, is its reference in the tests.
 */
function gramEntriesSorted(
  gi: GramIndex, xs: number[], bucket: Int32Array, total: number, lb: number, limit: number,
): { keys: Int32Array; grams: Uint8Array } {
  growGramScratch(gi, total);
  const { keys, keys2, grams, grams2, start, positions } = gi;
  let shift = 0;
  while (limit >>> shift > Math.max(1, total)) shift++;
  const slots = (limit - 1 >>> shift) + 1;
  const at = new Int32Array(slots + 1);
  // the entries, gram by gram, counted by slot
  let e = 0;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    for (let o = start[h], z = start[h + 1]; o < z; o++) {
      const key = positions[o] - x + lb;
      keys2[e] = key;
      grams2[e++] = k;
      at[(key >>> shift) + 1]++;
    }
  }
  for (let t = 1; t <= slots; t++) at[t] += at[t - 1];
  for (let i = 0; i < total; i++) {
    const t = at[keys2[i] >>> shift]++;
    keys[t] = keys2[i];
    grams[t] = grams2[i];
  }
  // each slot sorted in place (slot t is [at[t − 1], at[t]) now): by insertion up to
  // GRAM_SLOT_INSERTION entries, else (a long run of one character, say) packed and sorted
  for (let t = 0, lo = 0; t < slots; lo = at[t++]) {
    const hi = at[t];
    if (hi - lo <= GRAM_SLOT_INSERTION) {
      for (let i = lo + 1; i < hi; i++) {
        const key = keys[i];
        if (keys[i - 1] <= key) continue;
        const g = grams[i];
        let j = i - 1;
        while (j >= lo && keys[j] > key) {
          keys[j + 1] = keys[j];
          grams[j + 1] = grams[j];
          j--;
        }
        keys[j + 1] = key;
        grams[j + 1] = g;
      }
    } else {
      // key·32 + gram is exact in a double (key < 2^31, gram < 32)
      const packed = new Float64Array(hi - lo);
      for (let i = lo; i < hi; i++) packed[i - lo] = keys[i] * 32 + grams[i];
      packed.sort();
      for (let i = lo; i < hi; i++) {
        const v = packed[i - lo];
        keys[i] = Math.floor(v / 32);
        grams[i] = v - keys[i] * 32;
      }
    }
  }
  return { keys, grams };
}

function passageLabels(source: QuoteIndexSource, start: number, end: number): string[] {
  const ps = source.passages;
  if (!ps?.length) return [];
  const out: string[] = [];
  // passages are sorted by start; a span touches p when p.start < end and start < p.end
  for (const p of ps) {
    if (p.start >= end) break;
    if (start < p.end || (p.start === p.end && p.start === start)) out.push(p.label);
  }
  return out;
}

/**
 * Build a quote index over whole texts.
 *
 * @param input plain texts (keys "0", "1", …), `{key, text, passages?}` sources
 *   (passages: labelled UTF-16 ranges of the text), or parsed `Book`s (text =
 *   the passages' contents joined by a blank line; offsets are into that text).
 * @param options `backend`: "wasm" | "ts" | "auto" (default).
 * @returns a `QuoteIndex`; building is O(characters) (tokenizing dominates).
 * @throws TypeError on input of the wrong shape; RangeError on a duplicate key or a passage out of range.
 */
export function createQuoteIndex(input: QuoteIndexInput, options: QuoteIndexOptions = {}): QuoteIndex {
  const ix = prepare(input);
  const exports = wasmFor(options.backend);
  const binding = exports ? quoteIndexBindingFor(exports) : null;
  const owner = {};
  const keys = ix.sources.map((s) => s.key);
  const bytes =
    ix.chars.byteLength + ix.charStart.byteLength * 5 + ix.sourceWords.byteLength + ix.spans.byteLength +
    ix.postings.byteLength + ix.postingChars.byteLength + ix.postingStart.byteLength;
  return {
    backend: binding ? "wasm" : "ts",
    keys,
    stats: { sources: ix.sources.length, words: ix.charStart.length, characters: ix.chars.length, bytes },
    locate(quote, options = {}) {
      const minRatio = options.minRatio ?? LOCATE_MIN_RATIO;
      if (typeof minRatio !== "number" || !(minRatio > 0 && minRatio <= 1)) {
        throw new RangeError(`locate: minRatio must be a number in (0, 1], got ${String(minRatio)}`);
      }
      const limit = options.limit ?? Infinity;
      if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) {
        throw new RangeError(`locate: limit must be a positive integer, got ${String(limit)}`);
      }
      let onlySource = -1;
      if (options.source !== undefined) {
        onlySource = keys.indexOf(options.source);
        if (onlySource < 0) throw new RangeError(`locate: no source ${JSON.stringify(options.source)} in the index`);
      }
      const overlapping = options.overlapping === true;
      const timeoutMs = options.timeoutMs ?? Infinity;
      if (typeof timeoutMs !== "number" || !(timeoutMs >= 0)) {
        throw new RangeError(`locate: timeoutMs must be a number of milliseconds ≥ 0 (Infinity: no budget), got ${String(timeoutMs)}`);
      }
      const { q, keys: qKeys } = prepareQuote(ix, quote);
      const budget = timeoutMs === Infinity ? NO_BUDGET : new Budget(timeoutMs, minRatio, limit);
      const chunkScan = chunkScanOf(binding, owner, ix, q);
      const rangeScan = binding ? rangeScanOf(binding, owner, ix, q) : null;
      const prefixScan = prefixScanOf(binding, owner, ix, q, onlySource);
      const lanesScan = lanesScanOf(binding, owner, ix, q, onlySource);
      // with a limit: the best-first search (exact path, seeds, pigeonhole filter; searchBest);
      // without one every window ≥ minRatio is wanted, and the linear pass finds them (in chunks,
      // the budget checked between them)
      const hits = limit !== Infinity
        ? searchBest(ix, q, qKeys, minRatio, limit, overlapping, onlySource, chunkScan, rangeScan, prefixScan, budget, lanesScan)
        : linearBest(ix, q, new Map(), wholeSegments(ix, onlySource, Infinity), minRatio, minRatio, limit, overlapping, chunkScan, budget);
      return hits.map((h) => {
        const s = ix.wordSource[h.word];
        const source = ix.sources[s];
        const start = ix.spans[2 * h.word];
        const end = ix.spans[2 * (h.word + h.size - 1) + 1];
        return {
          text: source.text.slice(start, end),
          ratio: h.ratio,
          source: source.key,
          sourceIndex: s,
          passages: passageLabels(source, start, end),
          start,
          end,
          word: h.word - ix.sourceWords[s],
          words: h.size,
        };
      });
    },
  };
}

/**
 * One chunk of the linear pass (global words [w0, w1) of one source, w0 ≤ from ≤ w1): the windows
 * inside [w0, w1) ending at a word ≥ `from` with ratio ≥ threshold, in no order (`raise`: each one
 * found raises the threshold, as the range scan's). WASM qiScanChunk, or WindowScanner.scan.
 */
/**
 * One chunk of a chunked scan (see `scanChunked`): the windows inside words [w0, w1) ending at a word
 * ≥ from, ≥ threshold, and `reached`, the first word whose windows were not scored: w1, or less when
 * the WASM scan spent its work cap (CHUNK_CELLS) first (the TS twin always runs to w1).
 */
type ChunkScan = (w0: number, from: number, w1: number, threshold: number, raise: boolean) => { hits: WindowHit[]; reached: number };

/** The chunk scan of the backend (the WASM binding's copy of the texts kept per `owner`), else the TS twin. */
function chunkScanOf(
  binding: ReturnType<typeof quoteIndexBindingFor> | null, owner: object, ix: IndexedText, quote: IndexedQuote,
): ChunkScan {
  if (binding) return (w0, from, w1, threshold, raise) => binding.scanChunk(owner, ix, quote, w0, from, w1, threshold, raise, tuning.chunkCells);
  const scanner = quote.ids.length ? new WindowScanner(ix, quote) : null;
  return (w0, from, w1, threshold, raise) => {
    const out: WindowHit[] = [];
    scanner?.scan(w0, w1, threshold, out, raise, from);
    return { hits: out, reached: w1 };
  };
}

/**
 * The windows inside word ranges (pairs [from, to), ascending, disjoint, each in one source) with
 * ratio ≥ a threshold, raising it after each hit when `raise` (WASM qiScanRanges; the TS twin is
 * `scanRangesTs`).
 */
type RangeScan = (ranges: Int32Array, threshold: number, raise: boolean) => WindowHit[];

/**
 * The linear pass at `threshold` through the quote's first m characters, marks at E1 ≤ `limit`
 * (`searchBest` (h)); null when the marks give more than `maxRanges` ranges.
 */
type PrefixScan = (threshold: number, m: number, limit: number, maxRanges: number) => WindowHit[] | null;

/** The prefix pass of the backend: WASM `scanPrefix` when there is a binding, else `scanPrefixTs`. */
function prefixScanOf(
  binding: ReturnType<typeof quoteIndexBindingFor> | null, owner: object, ix: IndexedText, quote: IndexedQuote, onlySource: number,
): PrefixScan {
  return (threshold, m, limit, maxRanges) =>
    binding
      ? binding.scanPrefix(owner, ix, quote, threshold, onlySource, m, limit, maxRanges)
      : scanPrefixTs(ix, quote, threshold, onlySource, m, limit, maxRanges);
}

/**
 * The linear pass at `threshold` (indel budget `budget` = D of `searchBest` (b)) through the
 * quote's first characters in 16 lanes of 16 or 32 bits (`searchBest` (i)); null when it declines or gives up.
 */
type LanesScan = (threshold: number, budget: number, maxRanges: number) => WindowHit[] | null;

/**
 * The lanes pass of the WASM backend (null for the TS backend, and for one source: the pass covers
 * every text): 16-bit lanes (m = min(lb, 16)) when D ≤ LANES_MAX_D and D < m (an empty W1 would
 * cost m > D), else 32-bit lanes (m = min(lb, 32)) when D ≤ LANES32_MAX_D and D < m, else it
 * declines; it gives up (null) past LANES_MARKS marks per character, where verifying them costs
 * more than the pass saves.
 */
function lanesScanOf(
  binding: ReturnType<typeof quoteIndexBindingFor> | null, owner: object, ix: IndexedText, quote: IndexedQuote, onlySource: number,
): LanesScan | null {
  if (!binding || onlySource >= 0) return null;
  const lb = quote.ids.length;
  return (threshold, budget, maxRanges) => {
    const width = budget <= LANES_MAX_D && budget < Math.min(lb, 16) ? 16 : budget <= LANES32_MAX_D && budget < Math.min(lb, 32) ? 32 : 0;
    if (!width) return null;
    const maxMarks = Math.max(64, Math.floor(ix.chars.length * LANES_MARKS));
    const hits = binding.scanLanes(owner, ix, quote, threshold, -1, width, budget, maxMarks, maxRanges);
    if (hits && width === 32) searchPaths.lanes32++;
    return hits;
  };
}

/**
 * The lanes pass's limits (`lanesScanOf`), measured on the bench quotes over all books (Node 20,
 * 2026-12-02; CPU time, shared machine): ~0.5 ns a character against ~1.3 ns for the one-block
 * pass (0.38–0.45×), a mark ~1 µs to verify; at m = 16 the two quotes with D = 7 and 8 left 92 and
 * 1,014 marks over the 4.48 M characters (D = 14–20 marks most characters: those quotes keep the
 * one-block passes).
 */
const LANES_MAX_D = 8;
/**
 * 32-bit lanes (session 10): ~2× the 16-bit pass's DP a character, and at m = 32 the indel marks
 * stay rare up to D = 20 (docs/moot.md, the lanes section's table: quotes with D = 14–20 left
 * 0–378 marks per million characters).
 */
const LANES32_MAX_D = 20;
const LANES_MARKS = 6e-4;

/** The WASM range scan of `binding` for `quote` over `ix` (its copy of the texts kept per `owner`). */
function rangeScanOf(binding: ReturnType<typeof quoteIndexBindingFor>, owner: object, ix: IndexedText, quote: IndexedQuote): RangeScan {
  return (ranges, threshold, raise) => binding.scanRanges(owner, ix, quote, ranges, threshold, raise);
}

/**
 * The window bestSpan would pick, when its ratio is ≥ `minRatio`: the first hit in
 * rank order (ratio, then source, size, start — bestSpan's "first window with the
 * strictly highest ratio"), or null when no window reaches `minRatio` (then the
 * caller's full scan decides). Found by the best-first search (`searchBest`, limit 1).
 * Used by best-span.ts's matcher on its prepared pool.
 */
export function bestWindowAtLeast(
  texts: PostedText, quote: IndexedQuote, keys: readonly string[], minRatio: number, backend: BackendRequest | undefined, owner: object,
): WindowHit | null {
  const exports = wasmFor(backend);
  const binding = exports ? quoteIndexBindingFor(exports) : null;
  const chunkScan = chunkScanOf(binding, owner, texts, quote);
  const rangeScan = binding ? rangeScanOf(binding, owner, texts, quote) : null;
  const lanesScan = lanesScanOf(binding, owner, texts, quote, -1);
  return searchBest(texts, quote, keys, minRatio, 1, true, -1, chunkScan, rangeScan, prefixScanOf(binding, owner, texts, quote, -1), NO_BUDGET, lanesScan)[0] ?? null;
}

/** Internal views for tests and the bench (the prepared arrays and quote), not part of the public API. */
export const __quoteIndexInternals = { prepare, prepareQuote, verbatim, searchBest, choosePieces, searchPaths, tuning, scanRangesTs, rangeScanOf, scanPrefixTs, prefixScanOf, chunkScanOf, LEVELS, lanesScanOf, firstAtLeast, WindowScanner, gramIndexOf, gramRanges, gramEntriesSorted, gramEntriesNear, gramHash };

/** A checked quote (grounding.ts `QuoteCheck`, or any `{text, found}`) with where the index finds it. */
export type LocatedQuote<T extends { text: string; found: boolean }> = T & { locatedAt: LocatedSpan[] };

/**
 * Say where quotes that failed a grounding check actually are: for each check that is
 * not found (or is marked `attribution: "misattributed"`), the index's spans ≥ `minRatio`
 * (another passage of the pool, another part of the book, another book); found and
 * correctly cited quotes get `locatedAt: []` without a search.
 *
 * @param checks e.g. `checkGrounding(...).quotes`
 * @param index an index over the texts to search (the whole book, or the corpus)
 * @param options as `locate`; `limit` defaults to 3 here; `timeoutMs` is each quote's budget (checks
 *   are not capped here: bound their number as `checkGrounding` does, MAX_QUOTES_CHECKED)
 * @returns the checks in order, each with `locatedAt`
 * @throws as `locate` does (a quote over MAX_QUOTE_WORDS words or MAX_QUOTE_CHARS characters gets
 *   `locatedAt: []` instead: QuoteTooLongError is caught); QuoteSearchTimeoutError when a quote's budget runs out
 */
export function locateQuotes<T extends { text: string; found: boolean; attribution?: string }>(
  checks: readonly T[],
  index: QuoteIndex,
  options: LocateOptions = {},
): LocatedQuote<T>[] {
  const opts = { limit: 3, ...options };
  return checks.map((c) => {
    const wanted = !c.found || c.attribution === "misattributed";
    if (!wanted) return { ...c, locatedAt: [] };
    try {
      return { ...c, locatedAt: index.locate(c.text, opts) };
    } catch (error) {
      if (error instanceof QuoteTooLongError) return { ...c, locatedAt: [] };
      throw error;
    }
  });
}
