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
// The scan, as the TS twin's (ts/match/best-span.ts `scanTs`, where the proof is):
// a bounds pass gives every window an upper bound L of the length of its longest
// common subsequence with the quote (bit-parallel, Hyyrö 2004, 64 quote characters
// per u64): one run per group of ANCHOR start words, over the group's longest text,
// read after each word (every window of the group lies inside that text); a window's
// own L comes from one run per start word, its five sizes sharing it, when the scan
// first reaches it. L bounds M since difflib's matching blocks form a common
// subsequence: ratio <= 2L/(la+lb), kept as a bucket of 1/4096, with a list of
// windows per bucket. Then best first, bucket by bucket from the top: a window gets
// its exact ratio (given up midway once the blocks found plus the LCS of every range
// still to split cannot reach the best so far: each range's LCS and longest block
// kept in a memo per quote, difflib.ts `memoEntry`), or waits in a lower bucket's
// list when its own bound is lower than its group's, and the scan stops at the first
// bucket whose bounds are all below the best (never changes the result, only the
// time; ties go to the first window in the contract's order).
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
//   [9..] private work space (counts, DP rows, stack of 32-byte ranges, bit masks, one i32 per window,
//         one i32 per source, an i32 and a u8 per pool word, two 16-byte list entries per window,
//         the memo of ranges: 8,192 x 40 bytes)

import { commonRuns, firstBlock, firstBlockI, firstBlockJ, lcsFeed, lcsStart, lcsZeros, matchingCharacters as difflibMatching, matchingCharactersAbove, MEMO_ENTRY, MEMO_SLOTS, memoNext } from "./difflib";

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
let RUNS: usize = 0; // 2 i32 per pool character: the rows of common runs (difflib.ts commonRuns), per source when first needed
let RAN: usize = 0; // i32 per source: 1 once its RUNS are filled for the quote in hand
let WIN_LCS: usize = 0; // i32 per window: the bucket of its LCS bound, from the bounds pass
let SRC_BASE: usize = 0; // i32 per source: where its windows start in WIN_LCS (in windows)
let WORD_SOURCE: usize = 0; // i32 per pool word: its source
let ENTRIES: usize = 0; // 16 bytes x 2 per window: the bucket lists' entries (window, start word, size, next)
// the memo of ranges of matchingCharactersAbove (difflib.ts), allocated by the first seqReserve
let MEMO: usize = 0;
let OWN: usize = 0; // u8 per pool word: 1 once the windows starting there have their own LCS bounds
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
    RUNS = heap.alloc(<usize>capPoolChars << 3);
    moved = true;
  }
  if (poolWords > capPoolWords) {
    capPoolWords = grow(capPoolWords, poolWords);
    CHAR_START = heap.alloc(<usize>capPoolWords << 2);
    CHAR_END = heap.alloc(<usize>capPoolWords << 2);
    OWN = heap.alloc(<usize>capPoolWords);
    WORD_SOURCE = heap.alloc(<usize>capPoolWords << 2);
    moved = true;
  }
  if (sources + 1 > capSources) {
    capSources = grow(capSources, sources + 1);
    SOURCE_WORDS = heap.alloc(<usize>capSources << 2);
    SRC_BASE = heap.alloc(<usize>capSources << 2);
    RAN = heap.alloc(<usize>capSources << 2);
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
    WIN_LCS = heap.alloc(<usize>capWindows << 2);
    ENTRIES = heap.alloc(<usize>capWindows << 5);
  }
  if (alphabet > capAlphabet || maxQuoteLen > capQuoteLen) {
    if (alphabet > capAlphabet) capAlphabet = grow(capAlphabet, alphabet);
    if (maxQuoteLen > capQuoteLen) capQuoteLen = grow(capQuoteLen, maxQuoteLen);
    const words64 = (capQuoteLen + 63) >> 6;
    COUNT_B = heap.alloc(<usize>capAlphabet << 2);
    ROW_PREV = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    ROW_CUR = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    STACK = heap.alloc(<usize>(capQuoteLen + 2) << 5);
    PEQ = heap.alloc(<usize>capAlphabet * <usize>words64 << 3);
    VBITS = heap.alloc(<usize>words64 << 3);
    POS_START = heap.alloc(<usize>(capAlphabet + 1) << 2);
    POS = heap.alloc(<usize>(capQuoteLen + 1) << 2);
    ROW_STRIDE = <usize>(capQuoteLen + 1) << 3;
    ROWS = heap.alloc(ROW_STRIDE << 1);
    memory.fill(ROWS, 0, ROW_STRIDE << 1);
    moved = true;
  }
  // the memo serves the scan only (a call reserving a pool): `seqRatio` never touches it
  if (MEMO == 0 && poolWords > 0) {
    MEMO = heap.alloc(<usize>MEMO_SLOTS * <usize>MEMO_ENTRY);
    // generation 0 in every entry: empty (the stub runtime may hand back memory another kernel freed)
    memory.fill(MEMO, 0, <usize>MEMO_SLOTS * <usize>MEMO_ENTRY);
  }
  if (moved || load<i32>(TABLE) == 0) publish();
  return TABLE;
}

/** difflib's matching characters of a[0, la) and b[0, lb), on this kernel's work buffers. */
@inline
function matchingCharacters(a: usize, la: i32, b: usize, lb: i32): i32 {
  return difflibMatching(a, la, b, lb, ROW_PREV, ROW_CUR, STACK);
}

/**
 * difflib's matching characters of a[0, la) and the quote (POS_START/POS/PEQ built for it), sparse
 * form, or -1 once its ratio is sure to be below `floor` (difflib.ts `matchingCharactersAbove`).
 */
@inline
function matchingSparseAbove(start: i32, la: i32, lb: i32, floor: f64): i32 {
  const a = POOL_CHARS + (<usize>start << 2);
  const k = firstBlock(a, la, lb, RUNS + (<usize>start << 3), POS_START, POS, ROWS, ROW_STRIDE);
  return matchingCharactersAbove(a, la, lb, POS_START, POS, ROWS, ROW_STRIDE, STACK, (lb + 63) >> 6, PEQ, COUNT_B, VBITS, floor, firstBlockI(), firstBlockJ(), k, MEMO);
}


// Bounds are kept as buckets of 1/BUCKETS: bucket(ub) = floor(ub * BUCKETS), 0 .. BUCKETS
// (ub = 1 has a bucket of its own). BUCKETS is a power of two, so ub * BUCKETS is exact and
// bucket(ub) < k means ub < k / BUCKETS exactly.
const BUCKETS: i32 = 4096;
// each bucket's list of windows: the first entry's index (-1: none); entries link on through `next`
const HEAD: usize = memory.data((4096 + 1) * 4);
let entryCount: i32 = 0;

/**
 * A window's entry in bucket k's list: its index in WIN_LCS, its start word (global), its size.
 * A window whose bucket falls gets an entry in the new bucket's list; the old entry is stale
 * (WIN_LCS no longer holds its bucket) and passed over: at most two entries a window.
 */
@inline
function pushEntry(at: i32, w: i32, size: i32, k: i32): void {
  const e = ENTRIES + (<usize>entryCount << 4);
  store<i32>(e, at); store<i32>(e, w, 4); store<i32>(e, size, 8);
  store<i32>(e, load<i32>(HEAD + (<usize>k << 2)), 12);
  store<i32>(HEAD + (<usize>k << 2), entryCount++);
}
// start words a group's bounds run begins at: every ANCHOR-th of a source (ts/match/best-span.ts ANCHOR, why 4)
const ANCHOR: i32 = 4;
// offsets of the window sizes n-2 .. n+2 within one source's run of WIN_LCS, and its end
const SIZE_OFF: usize = memory.data(6 * 4);

/**
 * SIZE_OFF for a source of nw words and a quote of n words: where each size's windows start in
 * its run of WIN_LCS (sizes lo = max(1, n-2) .. n+2 in the contract's order; size z has
 * nw - z + 1 windows, none when z > nw); SIZE_OFF[5] is the source's window count.
 */
function sizeOffsets(nw: i32, n: i32): void {
  const lo = max(1, n - 2);
  let off = 0;
  for (let k = 0; k < 5; k++) {
    store<i32>(SIZE_OFF + (<usize>k << 2), off);
    if (lo + k <= n + 2) off += max(0, nw - (lo + k) + 1);
  }
  store<i32>(SIZE_OFF + 20, off);
}

// V of the bit-parallel LCS run in progress (groupBounds): blocks 0..2 here for quotes
// of up to 192 characters, VBITS for longer ones; MASK0..2 cut each block to the quote's lb bits.
let V0: u64 = 0, V1: u64 = 0, V2: u64 = 0;
let MASK0: u64 = 0, MASK1: u64 = 0, MASK2: u64 = 0;

/** Set MASK0..2 for a quote of lb characters. */
function lcsMasks(lb: i32): void {
  MASK0 = lb >= 64 ? 0 : ~(<u64>0) << <u64>lb;
  MASK1 = lb >= 128 ? 0 : lb <= 64 ? ~(<u64>0) : ~(<u64>0) << <u64>(lb - 64);
  MASK2 = lb >= 192 ? 0 : lb <= 128 ? ~(<u64>0) : ~(<u64>0) << <u64>(lb - 128);
}

/** Begin a run: V all ones. */
@inline
function runStart(words64: i32): void {
  V0 = ~(<u64>0); V1 = ~(<u64>0); V2 = ~(<u64>0);
  if (words64 > 3) lcsStart(words64, VBITS);
}

/** Feed pool characters [from, end) to the run (Hyyrö's step; V in locals for 1..3 blocks). */
function runFeed(from: i32, end: i32, words64: i32): void {
  let v0 = V0, v1 = V1, v2 = V2;
  if (words64 == 1) {
    for (let p = from; p < end; p++) {
      const pm = load<u64>(PEQ + (<usize>load<i32>(POOL_CHARS + (<usize>p << 2)) << 3));
      v0 = (v0 + (v0 & pm)) | (v0 & ~pm);
    }
  } else if (words64 == 2) {
    for (let p = from; p < end; p++) {
      const row = PEQ + (<usize>load<i32>(POOL_CHARS + (<usize>p << 2)) << 4);
      const p0 = load<u64>(row), p1 = load<u64>(row, 8);
      const x0 = v0 + (v0 & p0);
      const c0: u64 = <u64>(x0 < v0);
      const x1 = v1 + (v1 & p1) + c0;
      v0 = x0 | (v0 & ~p0);
      v1 = x1 | (v1 & ~p1);
    }
  } else if (words64 == 3) {
    for (let p = from; p < end; p++) {
      const row = PEQ + <usize>load<i32>(POOL_CHARS + (<usize>p << 2)) * 24;
      const p0 = load<u64>(row), p1 = load<u64>(row, 8), p2 = load<u64>(row, 16);
      const x0 = v0 + (v0 & p0);
      const c0: u64 = <u64>(x0 < v0);
      const t1 = v1 + c0;
      const x1 = t1 + (v1 & p1);
      const c1: u64 = <u64>(t1 < v1) | <u64>(x1 < t1);
      const x2 = v2 + (v2 & p2) + c1;
      v0 = x0 | (v0 & ~p0);
      v1 = x1 | (v1 & ~p1);
      v2 = x2 | (v2 & ~p2);
    }
  } else {
    lcsFeed(POOL_CHARS, from, end, words64, PEQ, COUNT_B, VBITS);
  }
  V0 = v0; V1 = v1; V2 = v2;
}

/** The LCS of everything fed since runStart and the quote of lb characters. */
@inline
function runLength(lb: i32, words64: i32): i32 {
  return words64 > 3
    ? lcsZeros(lb, VBITS)
    : <i32>(popcnt(~(V0 | MASK0)) + (words64 > 1 ? popcnt(~(V1 | MASK1)) : 0) + (words64 > 2 ? popcnt(~(V2 | MASK2)) : 0));
}

/**
 * The bucket of the bound 2l / length, at most BUCKETS: a group's LCS can exceed what a short window
 * of it shares with the quote, so the bound can pass 1; every ratio is ≤ 1 < (BUCKETS + 1) / BUCKETS,
 * so bucket BUCKETS bounds it still (and HEAD has no row past it).
 */
@inline
function bucketOf(l: i32, length: i32): i32 {
  return min(BUCKETS, <i32>(<f64>(2 * l) / <f64>length * <f64>BUCKETS));
}

/**
 * One bounds run (the TS twin and the proof: ts/match/best-span.ts `scanTs`, step 1): from start
 * word a0 of a source (w0 its first word, nw its words, `base` where its windows start in WIN_LCS,
 * SIZE_OFF set for it) over the longest window starting in [a0, a0 + g), read after each word e:
 * the LCS of words a0..e bounds that of every window starting in the group and ending at e (a
 * window's text is inside it). Each such window's bucket of that bound (its own la in the
 * denominator) goes to WIN_LCS, and the window to that bucket's list — all of them on a fresh
 * pass (`fresh`), else (a start's own run, g = 1, after its group's) only a window whose bucket
 * fell (never rose: its text is inside the group's). Word a0's windows then have their own L.
 */
function groupBounds(w0: i32, nw: i32, a0: i32, g: i32, base: i32, lb: i32, n: i32, words64: i32, fresh: bool): void {
  const lo = max(1, n - 2);
  const last = min(a0 + g - 1 + n + 2, nw); // one past the group's last end word
  runStart(words64);
  let from = load<i32>(CHAR_START + (<usize>(w0 + a0) << 2));
  for (let e = a0; e < last; e++) {
    const end = load<i32>(CHAR_END + (<usize>(w0 + e) << 2));
    runFeed(from, end, words64);
    from = end;
    const ilo = max(a0, e - n - 1), ihi = min(a0 + g - 1, e - lo + 1);
    if (ilo > ihi) continue;
    const l = runLength(lb, words64);
    // the group's windows ending at word e: starts i in [a0, a0 + g), sizes lo .. n+2
    for (let i = ilo; i <= ihi; i++) {
      const bucket = bucketOf(l, end - load<i32>(CHAR_START + (<usize>(w0 + i) << 2)) + lb);
      const at = base + load<i32>(SIZE_OFF + (<usize>(e - i + 1 - lo) << 2)) + i;
      if (!fresh && bucket == load<i32>(WIN_LCS + (<usize>at << 2))) continue; // its entry stands
      store<i32>(WIN_LCS + (<usize>at << 2), bucket);
      pushEntry(at, w0 + i, e - i + 1, bucket);
    }
  }
  store<u8>(OWN + <usize>(w0 + a0), 1);
}

/**
 * The bounds pass: for each source, one `groupBounds` run per anchor (start words 0, ANCHOR,
 * 2·ANCHOR, …) over its group of ANCHOR starts; every window gets its group's bucket in WIN_LCS,
 * in the contract's order, and an entry in that bucket's list. The other starts get their own
 * bounds (a run of a group of one) when the scan first reaches one of their windows.
 */
function boundsPass(nSources: i32, lb: i32, n: i32, words64: i32): void {
  const lo = max(1, n - 2);
  lcsMasks(lb);
  let base: i32 = 0;
  for (let s = 0; s < nSources; s++) {
    const w0 = load<i32>(SOURCE_WORDS + (<usize>s << 2));
    const nw = load<i32>(SOURCE_WORDS + (<usize>(s + 1) << 2)) - w0;
    sizeOffsets(nw, n);
    store<i32>(SRC_BASE + (<usize>s << 2), base);
    for (let w = w0; w < w0 + nw; w++) store<i32>(WORD_SOURCE + (<usize>w << 2), s);
    for (let a0 = 0; a0 + lo <= nw; a0 += ANCHOR) groupBounds(w0, nw, a0, ANCHOR, base, lb, n, words64, true);
    base += load<i32>(SIZE_OFF + 20);
  }
}

/**
 * The best-first scan: the buckets from the top, each one's list of windows, until a bucket whose
 * every bound is below the best (bucket k holds bounds < (k + 1) / BUCKETS: below the best when
 * k + 1 <= best * BUCKETS). A window whose start has no run of its own gets one first, and waits
 * in its own bucket's list when that is lower. Every window looked at gets its exact ratio, given
 * up midway once it cannot reach the best. The best is the highest ratio, the first in the
 * contract's order among equal ones (bestAt: its index in that order). Returns the best; the
 * winner goes to res (source, first word, size).
 */
function bestFirst(lb: i32, n: i32, words64: i32, res: usize): f64 {
  let best: f64 = 0;
  let bestAt: i32 = -1;
  for (let k = BUCKETS; k >= 0 && <f64>(k + 1) > best * <f64>BUCKETS; k--) {
    for (let e = load<i32>(HEAD + (<usize>k << 2)); e >= 0 && <f64>(k + 1) > best * <f64>BUCKETS; ) {
      const entry = ENTRIES + (<usize>e << 4);
      e = load<i32>(entry, 12);
      const idx = load<i32>(entry);
      if (load<i32>(WIN_LCS + (<usize>idx << 2)) != k) continue; // stale: it has an entry in its lower bucket
      const w = load<i32>(entry, 4);
      const size = load<i32>(entry, 8);
      const s = load<i32>(WORD_SOURCE + (<usize>w << 2));
      const w0 = load<i32>(SOURCE_WORDS + (<usize>s << 2));
      const nw = load<i32>(SOURCE_WORDS + (<usize>(s + 1) << 2)) - w0;
      if (load<u8>(OWN + <usize>w) == 0) {
        sizeOffsets(nw, n);
        groupBounds(w0, nw, w - w0, 1, load<i32>(SRC_BASE + (<usize>s << 2)), lb, n, words64, false);
        if (load<i32>(WIN_LCS + (<usize>idx << 2)) != k) continue; // waits in its own bucket's list
      }
      const start = load<i32>(CHAR_START + (<usize>w << 2));
      const la = load<i32>(CHAR_END + (<usize>(w + size - 1) << 2)) - start;
      if (load<i32>(RAN + (<usize>s << 2)) == 0) {
        commonRuns(POOL_CHARS, load<i32>(CHAR_START + (<usize>w0 << 2)), load<i32>(CHAR_END + (<usize>(w0 + nw - 1) << 2)), POS_START, POS, ROWS, ROW_STRIDE, RUNS);
        store<i32>(RAN + (<usize>s << 2), 1);
      }
      // given up (-1) once its ratio is sure to be below the best: it could neither beat nor tie it
      const m = matchingSparseAbove(start, la, lb, best);
      if (m < 0) continue;
      const ratio = <f64>(2 * m) / <f64>(la + lb);
      if (ratio > best || (ratio == best && ratio > 0 && idx < bestAt)) {
        best = ratio;
        bestAt = idx;
        store<i32>(res, s); store<i32>(res, w, 4); store<i32>(res, size, 8);
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
  // bound every window, then best first, bucket by bucket of falling bound, until every
  // window left has a bound below the best ratio found
  memory.fill(HEAD, 0xff, <usize>(BUCKETS + 1) << 2); // every list empty (-1)
  entryCount = 0;
  memory.fill(RAN, 0, <usize>nSources << 2);
  memoNext(MEMO);
  memory.fill(OWN, 0, <usize>load<i32>(SOURCE_WORDS + (<usize>nSources << 2)));
  boundsPass(nSources, lb, n, words64);
  const best = bestFirst(lb, n, words64, res);
  store<f64>(RATIOS + (<usize>q << 3), best);
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
