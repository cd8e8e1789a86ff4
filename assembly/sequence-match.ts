// difflib-exact best-span search (DESIGN.md §5), the WASM twin of
// ts/match/sequence-match.ts + the scan of ts/match/best-span.ts.
//
// Ratio = CPython difflib.SequenceMatcher(None, window, quote, autojunk=False)
// .ratio() over interned code points; autojunk is off (no element is ever junk),
// so find_longest_match is the plain dynamic programme with difflib's ties:
// among the longest blocks the smallest i (in the window, seq1), then the
// smallest j (in the quote, seq2). The ratio is 2*M/(la+lb) in f64, the same
// expression as the TS backend, so results are bit-identical.
//
// Windows are skipped when an upper bound of their ratio is <= the best so far
// (never changes the result): difflib's real_quick_ratio (lengths) and
// quick_ratio (multiset intersection, kept incrementally while sliding), then
// the length of the longest common subsequence (bit-parallel, Hyyrö 2004,
// 64 quote characters per u64), which bounds M since the matching blocks form
// a common subsequence.
//
// Memory: one arena of buffers, allocated by seqReserve and reused by every
// call (grown by doubling; the stub runtime never frees, so the old copies
// stay — at most twice the largest request). Addresses live in a static table:
//
//   TABLE (i32 slots)                      buffer (element type, length)
//   [0] generation (bumped on realloc)
//   [1] POOL_CHARS   i32 x poolChars       interned ids, keys one space (id 0) apart
//   [2] CHAR_START   i32 x poolWords       first char of word w's key
//   [3] CHAR_END     i32 x poolWords       end of word w's key
//   [4] SOURCE_WORDS i32 x sources+1       words of source s: [SW[s], SW[s+1])
//   [5] QUOTE_CHARS  i32 x quoteChars      all quotes' ids, back to back
//   [6] QUOTE_META   i32 x 3*quotes        per quote: offset, length, words
//   [7] RESULTS      i32 x 3*quotes        per quote: source, first word, size (-1 = none)
//   [8] RATIOS       f64 x quotes
//   [9..] private work space (counts, DP rows, stack, bit masks, one i32 per window)

import { lcsLength as sharedLcsLength, matchingCharacters as difflibMatching, matchingCharactersSparse } from "./difflib";

const SLOTS: i32 = 24;
const TABLE: usize = memory.data(SLOTS * 4);

// capacities (elements) of the buffers
let capPoolChars: i32 = 0;
let capPoolWords: i32 = 0;
let capSources: i32 = 0;
let capQuoteChars: i32 = 0;
let capQuotes: i32 = 0;
let capAlphabet: i32 = 0;
let capQuoteLen: i32 = 0;

let POOL_CHARS: usize = 0;
let CHAR_START: usize = 0;
let CHAR_END: usize = 0;
let SOURCE_WORDS: usize = 0;
let QUOTE_CHARS: usize = 0;
let QUOTE_META: usize = 0;
let RESULTS: usize = 0;
let RATIOS: usize = 0;
let COUNT_A: usize = 0;
let COUNT_B: usize = 0;
let ROW_PREV: usize = 0;
let ROW_CUR: usize = 0;
let STACK: usize = 0;
let PEQ: usize = 0; // u64 x alphabet*words64
let VBITS: usize = 0; // u64 x words64
let POS_START: usize = 0; // i32 x alphabet+1: the quote's positions of id c are POS[POS_START[c] .. POS_START[c+1])
let POS: usize = 0; // i32 x quote length
let ROWS: usize = 0; // 2 rows of (len, stamp) i32 pairs, ROW_STRIDE bytes each (the sparse longest match)
let ROW_STRIDE: usize = 0;
let WIN_INTER: usize = 0; // i32 per window: quick_ratio numerator, from the seeding pass
let capWindows: i32 = 0;

function grow(cap: i32, want: i32): i32 {
  let c = cap > 0 ? cap : 64;
  while (c < want) c <<= 1;
  return c;
}

function publish(): void {
  store<i32>(TABLE, load<i32>(TABLE) + 1);
  store<i32>(TABLE + 4, <i32>POOL_CHARS);
  store<i32>(TABLE + 8, <i32>CHAR_START);
  store<i32>(TABLE + 12, <i32>CHAR_END);
  store<i32>(TABLE + 16, <i32>SOURCE_WORDS);
  store<i32>(TABLE + 20, <i32>QUOTE_CHARS);
  store<i32>(TABLE + 24, <i32>QUOTE_META);
  store<i32>(TABLE + 28, <i32>RESULTS);
  store<i32>(TABLE + 32, <i32>RATIOS);
}

/**
 * Make room for a pool and a batch of quotes (all sizes in elements) and return
 * the address of the pointer table. Buffers only grow; when any moves, the
 * generation in slot 0 changes and the caller must re-copy the pool.
 */
export function seqReserve(
  poolChars: i32, poolWords: i32, sources: i32,
  quoteChars: i32, quotes: i32, alphabet: i32, maxQuoteLen: i32,
): usize {
  let moved = false;
  if (poolChars > capPoolChars) {
    capPoolChars = grow(capPoolChars, poolChars);
    POOL_CHARS = heap.alloc(<usize>capPoolChars << 2);
    moved = true;
  }
  if (poolWords > capPoolWords) {
    capPoolWords = grow(capPoolWords, poolWords);
    CHAR_START = heap.alloc(<usize>capPoolWords << 2);
    CHAR_END = heap.alloc(<usize>capPoolWords << 2);
    moved = true;
  }
  if (sources + 1 > capSources) {
    capSources = grow(capSources, sources + 1);
    SOURCE_WORDS = heap.alloc(<usize>capSources << 2);
    moved = true;
  }
  if (quoteChars > capQuoteChars) {
    capQuoteChars = grow(capQuoteChars, quoteChars);
    QUOTE_CHARS = heap.alloc(<usize>capQuoteChars << 2);
    moved = true;
  }
  if (quotes > capQuotes) {
    capQuotes = grow(capQuotes, quotes);
    QUOTE_META = heap.alloc(<usize>capQuotes * 12);
    RESULTS = heap.alloc(<usize>capQuotes * 12);
    RATIOS = heap.alloc(<usize>capQuotes << 3);
    moved = true;
  }
  // every window of every source, 5 sizes: at most 5 per word
  if (5 * poolWords > capWindows) {
    capWindows = grow(capWindows, 5 * poolWords);
    WIN_INTER = heap.alloc(<usize>capWindows << 2);
  }
  if (alphabet > capAlphabet || maxQuoteLen > capQuoteLen) {
    if (alphabet > capAlphabet) capAlphabet = grow(capAlphabet, alphabet);
    if (maxQuoteLen > capQuoteLen) capQuoteLen = grow(capQuoteLen, maxQuoteLen);
    const words64 = (capQuoteLen + 63) >> 6;
    COUNT_A = heap.alloc(<usize>capAlphabet << 2);
    COUNT_B = heap.alloc(<usize>capAlphabet << 2);
    ROW_PREV = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    ROW_CUR = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    STACK = heap.alloc(<usize>(capQuoteLen + 2) << 4);
    PEQ = heap.alloc(<usize>capAlphabet * <usize>words64 << 3);
    VBITS = heap.alloc(<usize>words64 << 3);
    POS_START = heap.alloc(<usize>(capAlphabet + 1) << 2);
    POS = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    ROW_STRIDE = <usize>(capQuoteLen + 1) << 3;
    ROWS = heap.alloc(ROW_STRIDE << 1);
    memory.fill(ROWS, 0, ROW_STRIDE << 1);
    moved = true;
  }
  if (moved || load<i32>(TABLE) == 0) publish();
  return TABLE;
}

/** difflib's matching characters of a[0, la) and b[0, lb), on this kernel's work buffers. */
@inline
function matchingCharacters(a: usize, la: i32, b: usize, lb: i32): i32 {
  return difflibMatching(a, la, b, lb, ROW_PREV, ROW_CUR, STACK);
}

/** difflib's matching characters of a[0, la) and the quote (POS_START/POS built for it), sparse form. */
@inline
function matchingSparse(a: usize, la: i32, lb: i32): i32 {
  return matchingCharactersSparse(a, la, lb, POS_START, POS, ROWS, ROW_STRIDE, STACK);
}

/** Length of the longest common subsequence of window a[0, la) and the quote (PEQ built for it); assembly/difflib.ts. */
@inline
function lcsLength(a: usize, la: i32, lb: i32, words64: i32): i32 {
  return sharedLcsLength(a, la, lb, words64, PEQ, COUNT_B, VBITS);
}

// The seed: before the scan in order, the K windows with the highest quick_ratio
// bound get their exact ratio; the best of those, FLOOR, is a lower bound of the
// winning ratio. The ordered scan then also skips windows whose bound is < FLOOR
// (strictly: a window tying FLOOR may come first and must still win). Exact.
const K: i32 = 4;
const TOP_UB: usize = memory.data(K * 8);
const TOP_WIN: usize = memory.data(K * 12); // source, word, size
let FLOOR: f64 = 0;

function seedOffer(ub: f64, s: i32, w: i32, size: i32): void {
  // keep the K largest bounds; on ties the earlier window stays ahead
  let at = K;
  while (at > 0 && ub > load<f64>(TOP_UB + (<usize>(at - 1) << 3))) at--;
  if (at == K) return;
  for (let k = K - 1; k > at; k--) {
    store<f64>(TOP_UB + (<usize>k << 3), load<f64>(TOP_UB + (<usize>(k - 1) << 3)));
    memory.copy(TOP_WIN + <usize>k * 12, TOP_WIN + <usize>(k - 1) * 12, 12);
  }
  store<f64>(TOP_UB + (<usize>at << 3), ub);
  store<i32>(TOP_WIN + <usize>at * 12, s);
  store<i32>(TOP_WIN + <usize>at * 12, w, 4);
  store<i32>(TOP_WIN + <usize>at * 12, size, 8);
}

/**
 * One pass over every window in the contract's order (source, size n-2..n+2,
 * start), keeping the multiset intersection with the quote incrementally.
 * seeding: offer each window's quick_ratio bound to the top K.
 * else: the ordered scan; returns the best ratio and writes the winner to `res`.
 */
function pass(seeding: bool, nSources: i32, alphabet: i32, b: usize, lb: i32, n: i32, words64: i32, res: usize): f64 {
  let best: f64 = 0;
  const floor = FLOOR;
  let win: usize = WIN_INTER; // the seeding pass writes each window's intersection, the ordered scan reads it
  for (let s = 0; s < nSources; s++) {
    const w0 = load<i32>(SOURCE_WORDS + (<usize>s << 2));
    const nw = load<i32>(SOURCE_WORDS + (<usize>(s + 1) << 2)) - w0;
    for (let size = max(1, n - 2); size <= n + 2 && size <= nw; size++) {
      let inter = 0;
      if (seeding) {
        memory.fill(COUNT_A, 0, <usize>alphabet << 2);
        const firstEnd = load<i32>(CHAR_END + (<usize>(w0 + size - 1) << 2));
        for (let p = load<i32>(CHAR_START + (<usize>w0 << 2)); p < firstEnd; p++) {
          const c = <usize>load<i32>(POOL_CHARS + (<usize>p << 2)) << 2;
          const ca = load<i32>(COUNT_A + c);
          store<i32>(COUNT_A + c, ca + 1);
          if (ca < load<i32>(COUNT_B + c)) inter++;
        }
      }
      for (let i = 0; i + size <= nw; i++) {
        const w = w0 + i;
        const start = load<i32>(CHAR_START + (<usize>w << 2));
        const la = load<i32>(CHAR_END + (<usize>(w + size - 1) << 2)) - start;
        const total = <f64>(la + lb);
        if (seeding) {
          if (i > 0) {
            // slide one word: drop word w-1 and the space after it, add the space and word w+size-1
            for (let p = load<i32>(CHAR_START + (<usize>(w - 1) << 2)); p < start; p++) {
              const c = <usize>load<i32>(POOL_CHARS + (<usize>p << 2)) << 2;
              const ca = load<i32>(COUNT_A + c) - 1;
              store<i32>(COUNT_A + c, ca);
              if (ca < load<i32>(COUNT_B + c)) inter--;
            }
            const addEnd = start + la;
            for (let p = load<i32>(CHAR_END + (<usize>(w + size - 2) << 2)); p < addEnd; p++) {
              const c = <usize>load<i32>(POOL_CHARS + (<usize>p << 2)) << 2;
              const ca = load<i32>(COUNT_A + c);
              store<i32>(COUNT_A + c, ca + 1);
              if (ca < load<i32>(COUNT_B + c)) inter++;
            }
          }
          store<i32>(win, inter);
          win += 4;
          // quick_ratio (<= real_quick_ratio, as inter <= min(la, lb))
          seedOffer(<f64>(2 * inter) / total, s, w, size);
          continue;
        }
        inter = load<i32>(win);
        win += 4;
        const realQuick = <f64>(2 * min(la, lb)) / total;
        if (realQuick <= best || realQuick < floor) continue; // real_quick_ratio
        const quick = <f64>(2 * inter) / total;
        if (quick <= best || quick < floor) continue; // quick_ratio
        const a = POOL_CHARS + (<usize>start << 2);
        const lcs = <f64>(2 * lcsLength(a, la, lb, words64)) / total;
        if (lcs <= best || lcs < floor) continue; // LCS bound
        const ratio = <f64>(2 * matchingSparse(a, la, lb)) / total;
        if (ratio > best) {
          best = ratio;
          store<i32>(res, s); store<i32>(res, w, 4); store<i32>(res, size, 8);
        }
      }
    }
  }
  return best;
}

/** Scan the pool for one quote; writes RESULTS[3q..] and RATIOS[q]. */
function scanOne(q: i32, nSources: i32, alphabet: i32): void {
  const meta = QUOTE_META + <usize>q * 12;
  const b = QUOTE_CHARS + (<usize>load<i32>(meta) << 2);
  const lb = load<i32>(meta, 4);
  const n = load<i32>(meta, 8);
  const res = RESULTS + <usize>q * 12;
  store<i32>(res, -1); store<i32>(res, -1, 4); store<i32>(res, 0, 8);
  if (lb == 0) {
    store<f64>(RATIOS + (<usize>q << 3), 0);
    return;
  }
  const words64 = (lb + 63) >> 6;
  memory.fill(COUNT_B, 0, <usize>alphabet << 2);
  memory.fill(PEQ, 0, <usize>alphabet * <usize>words64 << 3);
  for (let j = 0; j < lb; j++) {
    const c = load<i32>(b + (<usize>j << 2));
    const cb = COUNT_B + (<usize>c << 2);
    store<i32>(cb, load<i32>(cb) + 1);
    const p = PEQ + ((<usize>c * <usize>words64 + <usize>(j >> 6)) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(j & 63)));
  }
  // the quote's positions grouped by id, ascending (counting sort), for the sparse longest match
  memory.fill(POS_START, 0, <usize>(alphabet + 1) << 2);
  for (let j = 0; j < lb; j++) {
    const c = POS_START + (<usize>(load<i32>(b + (<usize>j << 2)) + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let c = 0; c < alphabet; c++) {
    const at = POS_START + (<usize>(c + 1) << 2);
    store<i32>(at, load<i32>(at) + load<i32>(at - 4));
  }
  // fill: POS_START[c] advances while placing; then shift back by one slot
  for (let j = 0; j < lb; j++) {
    const c = POS_START + (<usize>load<i32>(b + (<usize>j << 2)) << 2);
    const p = load<i32>(c);
    store<i32>(POS + (<usize>p << 2), j);
    store<i32>(c, p + 1);
  }
  for (let c = alphabet; c > 0; c--) store<i32>(POS_START + (<usize>c << 2), load<i32>(POS_START + (<usize>(c - 1) << 2)));
  store<i32>(POS_START, 0);
  // seed a floor from the K most promising windows, then scan in order
  for (let k = 0; k < K; k++) {
    store<f64>(TOP_UB + (<usize>k << 3), -1);
    store<i32>(TOP_WIN + <usize>k * 12, -1);
  }
  FLOOR = 0;
  pass(true, nSources, alphabet, b, lb, n, words64, res);
  let floor: f64 = 0;
  for (let k = 0; k < K; k++) {
    const win = TOP_WIN + <usize>k * 12;
    if (load<i32>(win) < 0) break;
    const w = load<i32>(win, 4);
    const size = load<i32>(win, 8);
    const start = load<i32>(CHAR_START + (<usize>w << 2));
    const la = load<i32>(CHAR_END + (<usize>(w + size - 1) << 2)) - start;
    const r = <f64>(2 * matchingSparse(POOL_CHARS + (<usize>start << 2), la, lb)) / <f64>(la + lb);
    if (r > floor) floor = r;
  }
  FLOOR = floor;
  store<f64>(RATIOS + (<usize>q << 3), pass(false, nSources, alphabet, b, lb, n, words64, res));
}

/**
 * Best span of each of `nQuotes` quotes (QUOTE_CHARS/QUOTE_META) over the pool
 * (POOL_CHARS, CHAR_START, CHAR_END, SOURCE_WORDS of `nSources` sources), all
 * ids < `alphabet`. Results in RESULTS/RATIOS. Call seqReserve first.
 */
export function seqMatch(nSources: i32, nQuotes: i32, alphabet: i32): void {
  for (let q = 0; q < nQuotes; q++) scanOne(q, nSources, alphabet);
}

/** difflib ratio of a = QUOTE_CHARS[0, la) and b = QUOTE_CHARS[la, la+lb) (for tests of the kernel alone). */
export function seqRatio(la: i32, lb: i32): f64 {
  const total = la + lb;
  if (total == 0) return 1;
  return <f64>(2 * matchingCharacters(QUOTE_CHARS, la, QUOTE_CHARS + (<usize>la << 2), lb)) / <f64>total;
}
