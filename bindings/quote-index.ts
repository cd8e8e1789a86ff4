/**
 * Binding of the WASM quote-index scan (assembly/quote-index/).
 *
 * The index's texts are copied into WASM memory once per index (and again only
 * when another index was scanned in between, or the kernel's arena moved);
 * each `scan` copies the quote, runs one `qiScan` call, and reads the hits back;
 * `scanRanges` does the same over a list of word ranges in one `qiScanRanges` call.
 */
import type { WasmExports } from "./wasm.js";

/** The raw exports of assembly/quote-index/ (its index.ts). */
export interface QuoteIndexExports {
  memory: WebAssembly.Memory;
  qiReserve(chars: number, words: number, sources: number, quoteLen: number, alphabet: number): number;
  qiScan(nSources: number, lb: number, n: number, alphabet: number, minRatio: number, onlySource: number): number;
  qiReserveRanges(count: number): number;
  qiScanRanges(nRanges: number, lb: number, n: number, alphabet: number, minRatio: number, raise: number): number;
  qiScanPrefix(nSources: number, lb: number, n: number, alphabet: number, minRatio: number, onlySource: number, m: number, limit: number, maxRanges: number): number;
  qiScanChunk(w0: number, from: number, w1: number, lb: number, n: number, alphabet: number, minRatio: number, raise: number, cap: number): number;
  qiChunkReached(): number;
  qiLanesLayout(chars: number): number;
  qiScanLanes(
    nSources: number, lb: number, n: number, alphabet: number, minRatio: number, onlySource: number, width: number, budget: number, maxMarks: number, maxRanges: number,
  ): number;
}

/** The texts as the kernel reads them (see ts/match/quote-index/types.ts `IndexedText`). */
export interface QiTexts {
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  sourceWords: Int32Array;
  alphabetSize: number;
}

/** A quote: interned ids, word count, alphabet size (index alphabet plus the quote's own extra code points). */
export interface QiQuote {
  ids: Int32Array;
  words: number;
  alphabetSize: number;
}

/** A window with ratio ≥ minRatio: first word (global index), size in words, ratio. */
export interface QiHit {
  word: number;
  size: number;
  ratio: number;
}

/** The names every groundwire .wasm must export for this kernel. */
export const QI_EXPORTS = ["qiReserve", "qiScan", "qiReserveRanges", "qiScanRanges", "qiScanPrefix", "qiScanChunk", "qiChunkReached", "qiLanesLayout", "qiScanLanes"] as const;

/** A live binding to one instance's quote-index kernel. */
export interface QuoteIndexBinding {
  /** Every window ≥ minRatio (unordered); `owner` identifies the texts so they are copied only when they change. */
  scan(owner: object, texts: QiTexts, quote: QiQuote, minRatio: number, onlySource: number): QiHit[];
  /**
   * Every window lying inside one of `ranges` (global word pairs [from, to), ascending, disjoint,
   * each inside one text) with ratio ≥ minRatio (unordered); with `raise`, each window found raises
   * minRatio for the windows after it (ranges in order; ts/match/quote-index/scan.ts WindowScanner.scan).
   */
  scanRanges(owner: object, texts: QiTexts, quote: QiQuote, ranges: Int32Array, minRatio: number, raise: boolean): QiHit[];
  /**
   * `scan` at a high threshold through a prefix of m ≤ 64 characters (< the quote's): the texts'
   * characters where the prefix's semi-global edit distance is ≤ `limit` mark word ranges, which the
   * whole quote then scans (ts/match/quote-index/scan.ts `scanPrefixTs` is the twin and `searchBest` (h)
   * the proof). Same windows as `scan`; null when the marks would give more than `maxRanges` ranges.
   */
  scanPrefix(owner: object, texts: QiTexts, quote: QiQuote, minRatio: number, onlySource: number, m: number, limit: number, maxRanges: number): QiHit[] | null;
  /**
   * One chunk of a text (global words [w0, w1), one text; w0 ≤ from ≤ w1): the windows lying inside
   * [w0, w1) that end at a word ≥ `from`, with ratio ≥ minRatio (unordered; `raise` as in scanRanges).
   * A scan cut into chunks [from − n − 1, to) scores each window once (qiScanChunk; the TS twin is
   * WindowScanner.scan with its `emitFrom`). `cap` (DP cells, > 0; Infinity: none) stops the scoring
   * after the word at which a window's LCS and difflib work (la·blocks, la·lb cells) pass it: `reached`
   * is then the first word whose windows were not scored (> from), else w1; the rest is the chunk
   * [reached − n − 1, reached, w1).
   */
  scanChunk(
    owner: object, texts: QiTexts, quote: QiQuote, w0: number, from: number, w1: number, minRatio: number, raise: boolean, cap: number,
  ): { hits: QiHit[]; reached: number };
  /**
   * `scan` at a high threshold through the quote's first min(lb, `width`) characters in 16 lanes
   * of `width` = 16 or 32 bits over all texts at once (qiScanLanes; the texts' characters
   * transposed into the lanes once per texts, ~4.5 MB for the bundled books), with the semi-global
   * indel distance; `budget` = the indel budget D (< min(lb, width)) of a window ≥ minRatio
   * (ts/match/quote-index/search.ts `searchBest` (h), (i)). Same windows as `scan`; null when the marks
   * exceed `maxMarks` or their ranges `maxRanges` (then `scan` is the way).
   */
  scanLanes(
    owner: object, texts: QiTexts, quote: QiQuote, minRatio: number, onlySource: number, width: 16 | 32, budget: number, maxMarks: number, maxRanges: number,
  ): QiHit[] | null;
}

const bindings = new WeakMap<object, QuoteIndexBinding>();

/** The binding for `exports` (one per instance). Throws when the kernel's exports are missing. */
export function quoteIndexBindingFor(exports: WasmExports): QuoteIndexBinding {
  let b = bindings.get(exports);
  if (!b) {
    for (const name of QI_EXPORTS) {
      if (typeof exports[name] !== "function") throw new Error(`groundwire wasm: export ${name} is missing (rebuild with npm run build:wasm)`);
    }
    b = createBinding(exports as unknown as QuoteIndexExports);
    bindings.set(exports, b);
  }
  return b;
}

function createBinding(x: QuoteIndexExports): QuoteIndexBinding {
  let generation = -1;
  let loaded: object | null = null;
  let laidOut: object | null = null; // the texts whose lanes layout (qiLanesLayout) is current
  // the texts (copied only when they change) and the quote into the kernel's arena; the table's address
  const load = (owner: object, texts: QiTexts, quote: QiQuote): number => {
    const nSources = texts.sourceWords.length - 1;
    const lb = quote.ids.length;
    const table = x.qiReserve(texts.chars.length, texts.charStart.length, nSources, Math.max(1, lb), quote.alphabetSize);
    const i32 = new Int32Array(x.memory.buffer);
    const t = table >> 2;
    if (i32[t] !== generation) {
      generation = i32[t];
      loaded = null; // the arena moved: the texts copied before are gone
      laidOut = null;
    }
    if (loaded !== owner) {
      i32.set(texts.chars, i32[t + 1] >> 2);
      i32.set(texts.charStart, i32[t + 2] >> 2);
      i32.set(texts.charEnd, i32[t + 3] >> 2);
      i32.set(texts.sourceWords, i32[t + 4] >> 2);
      loaded = owner;
      laidOut = null;
    }
    i32.set(quote.ids, i32[t + 5] >> 2);
    return t;
  };
  const hits = (t: number, count: number): QiHit[] => {
    // the hit buffers may have moved and memory may have grown during the scan
    const i32 = new Int32Array(x.memory.buffer);
    const f64 = new Float64Array(x.memory.buffer);
    const words = i32[t + 6] >> 2;
    const ratios = i32[t + 7] >> 3;
    const out: QiHit[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = { word: i32[words + 2 * i], size: i32[words + 2 * i + 1], ratio: f64[ratios + i] };
    return out;
  };
  return {
    scan(owner, texts, quote, minRatio, onlySource) {
      const t = load(owner, texts, quote);
      return hits(t, x.qiScan(texts.sourceWords.length - 1, quote.ids.length, quote.words, quote.alphabetSize, minRatio, onlySource));
    },
    scanPrefix(owner, texts, quote, minRatio, onlySource, m, limit, maxRanges) {
      const t = load(owner, texts, quote);
      const count = x.qiScanPrefix(texts.sourceWords.length - 1, quote.ids.length, quote.words, quote.alphabetSize, minRatio, onlySource, m, limit, maxRanges);
      return count < 0 ? null : hits(t, count);
    },
    scanChunk(owner, texts, quote, w0, from, w1, minRatio, raise, cap) {
      const t = load(owner, texts, quote);
      const count = x.qiScanChunk(w0, from, w1, quote.ids.length, quote.words, quote.alphabetSize, minRatio, raise ? 1 : 0, cap === Infinity ? 0 : cap);
      return { hits: hits(t, count), reached: x.qiChunkReached() };
    },
    scanLanes(owner, texts, quote, minRatio, onlySource, width, budget, maxMarks, maxRanges) {
      const t = load(owner, texts, quote);
      if (laidOut !== owner) {
        x.qiLanesLayout(texts.chars.length);
        laidOut = owner;
      }
      const count = x.qiScanLanes(
        texts.sourceWords.length - 1, quote.ids.length, quote.words, quote.alphabetSize, minRatio, onlySource, width, budget, maxMarks, maxRanges,
      );
      return count < 0 ? null : hits(t, count);
    },
    scanRanges(owner, texts, quote, ranges, minRatio, raise) {
      const t = load(owner, texts, quote);
      x.qiReserveRanges(Math.max(1, ranges.length >> 1)); // moves only the range buffer (slot 8)
      new Int32Array(x.memory.buffer).set(ranges, new Int32Array(x.memory.buffer)[t + 8] >> 2);
      return hits(t, x.qiScanRanges(ranges.length >> 1, quote.ids.length, quote.words, quote.alphabetSize, minRatio, raise ? 1 : 0));
    },
  };
}
