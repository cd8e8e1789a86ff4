/**
 * bestSpan's pre-pass (ts/match/best-span.ts, through ts/match/pre-pass.ts): the quote index's
 * best-first search over a prepared pool, asked for one window at or above a ratio. Its own
 * module so that a page calling bestSpan gets it as one chunk behind a dynamic import, without
 * the rest of the quote index (building, locate, snapshots).
 */
import type { WasmExports } from "../../../bindings/wasm.js";
import { quoteIndexBindingFor } from "../../../bindings/quote-index.js";
import { chunkScanOf, lanesScanOf, prefixScanOf, rangeScanOf } from "./backend.js";
import { NO_BUDGET } from "./budget.js";
import { searchBest } from "./search.js";
import { type IndexedQuote, type PostedText, type WindowHit } from "./types.js";

/**
 * The window bestSpan would pick, when its ratio is ≥ `minRatio`: the first hit in
 * rank order (ratio, then source, size, start — bestSpan's "first window with the
 * strictly highest ratio"), or null when no window reaches `minRatio` (then the
 * caller's full scan decides). Found by the best-first search (`searchBest`, limit 1).
 * Used by best-span.ts's matcher on its prepared pool, which passes the match module's exports
 * when it runs on WASM, else null (so this chunk needs no binding of its own to the module).
 */
export function bestWindowAtLeast(
  texts: PostedText, quote: IndexedQuote, keys: readonly string[], minRatio: number, exports: WasmExports | null, owner: object,
): WindowHit | null {
  const binding = exports ? quoteIndexBindingFor(exports) : null;
  const chunkScan = chunkScanOf(binding, owner, texts, quote);
  const rangeScan = binding ? rangeScanOf(binding, owner, texts, quote) : null;
  const lanesScan = lanesScanOf(binding, owner, texts, quote, -1);
  return searchBest(texts, quote, keys, minRatio, 1, true, -1, chunkScan, rangeScan, prefixScanOf(binding, owner, texts, quote, -1), NO_BUDGET, lanesScan)[0] ?? null;
}
