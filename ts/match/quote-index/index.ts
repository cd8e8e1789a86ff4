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
 * The bounds, cheapest first, and their proofs: scan.ts (the window scanner that applies them).
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
 * Two backends, one contract: WASM (assembly/quote-index/, default when
 * loaded) and the TS twin (scan.ts `scanTs`); results are identical.
 * Browser-safe: no Node APIs.
 *
 * The folder, one concern a file (assembly/quote-index/ holds the WASM twins under the same stems):
 *   types.ts    the index's public and internal shapes
 *   build.ts    texts → the interned, posted index; a quote → its ids
 *   scan.ts     bounds 1–4 with their proofs, and the window scanner (the TS twin of the WASM scan)
 *   rank.ts     best-first order, overlaps, verbatim hits
 *   search.ts   the best-first search (`searchBest`) and the proofs (a)–(j) of its filters
 *   best-window.ts  bestSpan's pre-pass over a prepared pool (`bestWindowAtLeast`)
 *   pieces.ts   the pigeonhole filter's pieces
 *   grams.ts    the q-gram filter
 *   linear.ts   the linear pass in chunks, best-first threshold levels
 *   budget.ts   the time budget, chunk pacing; timeout-error.ts QuoteSearchTimeoutError
 *   backend.ts  each pass on WASM or its TS twin
 *   tuning.ts   the search's measured constants and path counters
 *   snapshot.ts a built index as bytes and back (kept by the CLI's on-disk cache)
 * This file builds the index (`createQuoteIndex`) and is the folder's API.
 */
import { ArgumentError } from "../../errors.js";
import { checkEdges, markupSafeSpan } from "../markup.js";
import { QuoteTooLongError } from "../quote-keys.js";
import { type BackendRequest } from "../../../bindings/wasm.js";
import { matchWasmFor as wasmFor } from "../../../bindings/match.js";
import { quoteIndexBindingFor } from "../../../bindings/quote-index.js";
import { chunkScanOf, lanesScanOf, prefixScanOf, rangeScanOf } from "./backend.js";
import { Budget, NO_BUDGET } from "./budget.js";
import { passageLabels, prepare, prepareQuote } from "./build.js";
import { gramEntriesNear, gramEntriesSorted, gramHash, gramIndexOf, gramRanges } from "./grams.js";
import { LEVELS, linearBest, wholeSegments } from "./linear.js";
import { choosePieces } from "./pieces.js";
import { verbatim } from "./rank.js";
import { scanPrefixTs, scanRangesTs, WindowScanner } from "./scan.js";
import { searchBest } from "./search.js";
import { preparedFromBytes, preparedToBytes } from "./snapshot.js";
import { firstAtLeast, searchPaths, tuning } from "./tuning.js";
import { type IndexedQuote, LOCATE_MIN_RATIO, type LocatedQuote, type LocateOptions, type PostedText, type Prepared, type QuoteIndex, type QuoteIndexInput, type QuoteIndexOptions, type WindowHit } from "./types.js";
import { checkArgs } from "../../arg-kinds.js";

/** The longest quote `locate` accepts, in words and in characters: bestSpan's bounds (quote-keys.ts). */
export { MAX_QUOTE_CHARS, MAX_QUOTE_WORDS, QuoteTooLongError } from "../quote-keys.js";
export {
  LOCATE_MIN_RATIO,
  type SourcePassage, type QuoteIndexBook, type QuoteIndexSource, type QuoteIndexInput, type QuoteIndexOptions, type LocateOptions,
  type LocatedSpan, type QuoteIndex, type IndexedText, type IndexedQuote, type WindowHit, type PostedText, type LocatedQuote,
} from "./types.js";
export { QuoteSearchTimeoutError } from "./timeout-error.js";
export { QUOTE_INDEX_FORMAT } from "./snapshot.js";
export { scanRangesTs, scanPrefixTs, scanTs, scanExhaustive } from "./scan.js";
export { rankHits } from "./rank.js";

/**
 * Build a quote index over whole texts.
 *
 * @param input plain texts (keys "0", "1", …), `{key, text, passages?}` sources
 *   (passages: labelled UTF-16 ranges of the text), or parsed `Book`s (their `text`:
 *   the file with what no passage quotes blanked, so offsets are into the book's file;
 *   a book without `text` is its passages' contents joined by a blank line).
 * @param options `backend`: "wasm" | "ts" | "auto" (default).
 * @returns a `QuoteIndex`; building is O(characters) (tokenizing dominates).
 * @throws TypeError on input of the wrong shape; RangeError on a duplicate key or a passage out of range.
 */
export function createQuoteIndex(input: QuoteIndexInput, options: QuoteIndexOptions = {}): QuoteIndex {
  checkArgs("createQuoteIndex", arguments, "input:array options?:object");
  return indexOver(prepare(input), options);
}

/** The prepared arrays behind each index built here (for {@link quoteIndexToBytes}). */
const preparedOf = new WeakMap<QuoteIndex, Prepared>();

/**
 * A quote index as bytes, to keep and load again with {@link quoteIndexFromBytes} instead of
 * rebuilding it (format: snapshot.ts; no checksum: the keeper checks integrity).
 * @throws ArgumentError when `index` was not made by createQuoteIndex or quoteIndexFromBytes
 */
export function quoteIndexToBytes(index: QuoteIndex): Uint8Array {
  const ix = preparedOf.get(index);
  if (!ix) throw new ArgumentError("quoteIndexToBytes", "index", "an index made by createQuoteIndex or quoteIndexFromBytes", index);
  return preparedToBytes(ix);
}

/**
 * The index {@link quoteIndexToBytes} wrote, ready to search: the same answers as the index it
 * was made from, without tokenizing the texts again.
 * @throws RangeError when the bytes are not a snapshot of this format (QUOTE_INDEX_FORMAT) or are cut short
 */
export function quoteIndexFromBytes(bytes: Uint8Array, options: QuoteIndexOptions = {}): QuoteIndex {
  return indexOver(preparedFromBytes(bytes), options);
}

function indexOver(ix: Prepared, options: QuoteIndexOptions): QuoteIndex {
  const exports = wasmFor(options.backend);
  const binding = exports ? quoteIndexBindingFor(exports) : null;
  const owner = {};
  const keys = ix.sources.map((s) => s.key);
  const bytes =
    ix.chars.byteLength + ix.charStart.byteLength * 5 + ix.sourceWords.byteLength + ix.spans.byteLength +
    ix.postings.byteLength + ix.postingChars.byteLength + ix.postingStart.byteLength;
  const index: QuoteIndex = {
    backend: binding ? "wasm" : "ts",
    keys,
    stats: { sources: ix.sources.length, words: ix.charStart.length, characters: ix.chars.length, bytes },
    locate(quote, options = {}) {
      if (options === null || typeof options !== "object") throw new ArgumentError("locate", "options", "an object", options);
      const minRatio = options.minRatio ?? LOCATE_MIN_RATIO;
      if (typeof minRatio !== "number" || !(minRatio > 0 && minRatio <= 1)) {
        throw new ArgumentError("locate", "options.minRatio", "a number in (0, 1]", minRatio);
      }
      const limit = options.limit ?? Infinity;
      if (limit !== Infinity && !(Number.isInteger(limit) && limit > 0)) {
        throw new ArgumentError("locate", "options.limit", "a positive integer", limit);
      }
      let onlySource = -1;
      if (options.source !== undefined) {
        onlySource = keys.indexOf(options.source);
        if (onlySource < 0) throw new ArgumentError("locate", "options.source", "a key of the index", options.source);
      }
      const overlapping = options.overlapping === true;
      const timeoutMs = options.timeoutMs ?? Infinity;
      const edges = checkEdges(options.edges, "locate");
      if (typeof timeoutMs !== "number" || !(timeoutMs >= 0)) {
        throw new ArgumentError("locate", "options.timeoutMs", "a number of milliseconds ≥ 0 (Infinity: no budget)", timeoutMs);
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
        let start = ix.spans[2 * h.word];
        let end = ix.spans[2 * (h.word + h.size - 1) + 1];
        if (edges === "markup") ({ start, end } = markupSafeSpan(source.text, start, end));
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
  preparedOf.set(index, ix);
  return index;
}

/** Internal views for tests and the bench (the prepared arrays and quote), not part of the public API. */
export const __quoteIndexInternals = { prepare, prepareQuote, verbatim, searchBest, choosePieces, searchPaths, tuning, scanRangesTs, rangeScanOf, scanPrefixTs, prefixScanOf, chunkScanOf, LEVELS, lanesScanOf, firstAtLeast, WindowScanner, gramIndexOf, gramRanges, gramEntriesSorted, gramEntriesNear, gramHash };

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
  checkArgs("locateQuotes", arguments, "checks:array index:quoteIndex options?:object");
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
