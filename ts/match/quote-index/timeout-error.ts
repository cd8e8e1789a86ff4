/**
 * The error of a `locate` call past its time budget (budget.ts throws it). Its own module: the
 * package entry re-exports it, and a module the entry re-exports that a deferred chunk also needs
 * (budget.ts: bestSpan's pre-pass) is put by esbuild in a chunk every page loads.
 */
import { GroundwireError } from "../../errors.js";

/**
 * Thrown by `locate` when its `timeoutMs` ran out before the answer was complete; nothing of the
 * partial search is returned. Says how far it got: `searched` of `total` units (`unit` "words": a
 * linear pass's words; "ranges": word ranges the best-first search was verifying; "filter": its
 * pigeonhole filter) at ratio ≥ `threshold`, after `elapsedMs` of the `timeoutMs` budget.
 * A higher `minRatio` (bounds prune more) or a `limit` (the search stops at the k-th best) costs less.
 */
export class QuoteSearchTimeoutError extends GroundwireError {
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
      `(minRatio ${minRatio}); no spans are returned: ${hint} makes the search cheaper`, { code: "limit", status: 422 },
    );
  }
}
