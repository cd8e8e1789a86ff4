/** Each pass of the search on its backend: the WASM binding (bindings/quote-index.ts, assembly/quote-index/) when loaded, else the TS twin (scan.ts). */
import { quoteIndexBindingFor } from "../../../bindings/quote-index.js";
import { scanPrefixTs, WindowScanner } from "./scan.js";
import { searchPaths, tuning } from "./tuning.js";
import { type IndexedQuote, type IndexedText, type WindowHit } from "./types.js";

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
export type ChunkScan = (w0: number, from: number, w1: number, threshold: number, raise: boolean) => { hits: WindowHit[]; reached: number };

/** The chunk scan of the backend (the WASM binding's copy of the texts kept per `owner`), else the TS twin. */
export function chunkScanOf(
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
export type RangeScan = (ranges: Int32Array, threshold: number, raise: boolean) => WindowHit[];

/**
 * The linear pass at `threshold` through the quote's first m characters, marks at E1 ≤ `limit`
 * (`searchBest` (h)); null when the marks give more than `maxRanges` ranges.
 */
export type PrefixScan = (threshold: number, m: number, limit: number, maxRanges: number) => WindowHit[] | null;

/** The prefix pass of the backend: WASM `scanPrefix` when there is a binding, else `scanPrefixTs`. */
export function prefixScanOf(
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
export type LanesScan = (threshold: number, budget: number, maxRanges: number) => WindowHit[] | null;

/**
 * The lanes pass of the WASM backend (null for the TS backend, and for one source: the pass covers
 * every text): 16-bit lanes (m = min(lb, 16)) when D ≤ LANES_MAX_D and D < m (an empty W1 would
 * cost m > D), else 32-bit lanes (m = min(lb, 32)) when D ≤ LANES32_MAX_D and D < m, else it
 * declines; it gives up (null) past LANES_MARKS marks per character, where verifying them costs
 * more than the pass saves.
 */
export function lanesScanOf(
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
 * 32-bit lanes: ~2× the 16-bit pass's DP a character, and at m = 32 the indel marks
 * stay rare up to D = 20 (measured in docs/moot.md as of commit a7407109ac, "The lanes pass: 16
 * lanes of the indel distance", its marks table: quotes with D = 14–20 left 0–378 marks per
 * million characters).
 */
const LANES32_MAX_D = 20;
const LANES_MARKS = 6e-4;

/** The WASM range scan of `binding` for `quote` over `ix` (its copy of the texts kept per `owner`). */
export function rangeScanOf(binding: ReturnType<typeof quoteIndexBindingFor>, owner: object, ix: IndexedText, quote: IndexedQuote): RangeScan {
  return (ranges, threshold, raise) => binding.scanRanges(owner, ix, quote, ranges, threshold, raise);
}
