/** Time: a `locate` call's budget (QuoteSearchTimeoutError past it) and the pacing of a scan cut into chunks (~CHUNK_MS each). */
import { tuning } from "./tuning.js";
import { QuoteSearchTimeoutError } from "./timeout-error.js";

/**
 * Chunk sizes (in words) for a scan cut into pieces: the first is small below 0.7 (a long quote at
 * a low threshold can cost milliseconds a word: difflib on ~5 windows of ~lb² each), then each is
 * sized from the measured time per word to take ~CHUNK_MS, growing at most 2× a chunk (4× after one
 * far under it); so the time budget
 * is checked every ~CHUNK_MS (one word's windows at most between two checks), and a fast scan makes
 * only a few calls.
 */
export class Pacer {
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
 * The time budget of one `locate` call (`timeoutMs`): `check` throws QuoteSearchTimeoutError once
 * it is spent, saying how far the search got. NO_BUDGET never throws.
 */
export class Budget {
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
export const NO_BUDGET = /* @__PURE__ */ new Budget(Infinity, 0, Infinity);
