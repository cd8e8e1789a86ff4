/**
 * The search's constants (measured; tests may change `tuning`), its path counters (`searchPaths`)
 * and `firstAtLeast`, the binary search the passes share: one leaf file every pass reads.
 */

/**
 * The WASM chunk scan's work cap, in DP cells of its LCS bounds and difflib ratios: a chunk that runs
 * into near matches of a long quote at a low ratio (a 200-word quote: ~10 ms of difflib a window)
 * stops after the word that passes it, so the budget is checked again within ~CHUNK_MS whatever the
 * pacer predicted (difflib's matching costs ~1 ns a cell here: 2^24 cells ≈ 15–30 ms).
 */
const CHUNK_CELLS = 2 ** 24;

/** The first index t in [lo, hi) with a[t] ≥ x (a ascending there), hi when none. */
export function firstAtLeast(a: Int32Array, lo: number, hi: number, x: number): number {
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
export const FILTER_SHARE = 2;
/**
 * The filter's costs in words of the WASM linear pass for a quote of one 64-bit block (measured on
 * the bench's quotes over all books, Node 20, 2026-12-01: the pass ~6 ns a word; a sweep's check
 * ~20 ns; an entry of a piece's list ~3 ns read in order from the postings, ~25 ns from a sorted
 * union or a phrase walk). The TS pass costs ~8× the WASM pass per word and block (32 bits against 64).
 */
export const CHECK_COST = 3;
export const LIST_COST = 0.5;
export const LIST_COST_SORTED = 4;
export const LINEAR_COST_TS = 8;
/** Occurrences of the quote's rarest words whose ranges seed the best-first search (per quote). */
export const SEED_OCCURRENCES = 32;
/** A piece that is no anchor gets a sorted list (built by walking its rarest word's postings) when that walk is ≤ LIST_SHARE × the anchors' occurrences; else it is checked locally per anchor occurrence. */
export const LIST_SHARE = 16;
/**
 * What verifying a word of a range costs against a word of the linear pass: WASM verifies a range
 * with one scalar lane where the pass runs 2–4 SIMD lanes (and pays per range); the TS twin's
 * verification and linear pass are the same loop (WindowScanner), so it pays only per range.
 */
export const REGION_SHARE_WASM = 4;
export const REGION_SHARE_TS = 2;

/**
 * Work of the q-gram filter, in list entries (each written, sorted: a counting pass and an insertion
 * sort, and read by the sliding window): it runs only when its lists plus GRAM_SURVIVOR_COST per guessed
 * survivor come to ≤ C / GRAM_SHARE entries, C the characters indexed (measured on the bench quotes
 * over all books, Node 20, 2026-12-02: an entry ~10–40 ns in TS, a survivor's range verified
 * ~2–5 µs, the lanes pass ~0.4 ns a character). GRAM_SURVIVOR_COST = 3,000: with the sliding
 * window's guess, 300 lets bench quotes 1 and 10 take weaker P (9 and 22 ranges where 3,000 leaves
 * 1 and 4) and 30,000 sends quote 7 back to the prefix pass (8.0 ms against 4.7–5.1 ms by the
 * filter). Only speed depends on them.
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
export const tuning = { smallWords: 65_536, chunkWords: 0, chunkCells: CHUNK_CELLS, grams: true, gramShare: GRAM_SHARE, gramSurvivorCost: GRAM_SURVIVOR_COST, gramNearMin: GRAM_NEAR_MIN };

/** How often each way of `searchBest` answered (tests check every way is exercised). */
export const searchPaths = { exact: 0, grams: 0, filter: 0, suffixPieces: 0, prefix: 0, lanes: 0, lanes32: 0, linear: 0, fallback: 0, passes: 0, chunks: 0 };

/** Occurrences walked to count a phrase exactly (beyond it, its rarest word's count bounds it). */
export const PHRASE_WALK = 512;
/** Pieces beyond D + 1 the plan tries (more pieces: more of them intact, so fewer survivors, but commoner ones). */
export const EXTRA_PIECES = 4;
/** Longest piece, in words, the piece choice considers (a longer phrase is rarer still, but rarely needed). */
export const MAX_PIECE_WORDS = 6;
