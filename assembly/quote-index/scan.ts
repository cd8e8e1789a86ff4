// Phase B of the quote index scan (bounds 1-4, then difflib's exact M, at the characters phase A
// marked) and the exported scans; the TS twin is ts/match/quote-index/scan.ts.
import { matchingCharacters as difflibMatching, lcsLength as sharedLcsLength } from "../difflib";
import { BITS, capOut, capRanges, CEND, CHARS, CNT_A, CNT_B, CSTART, ES, grow2, OUT_RATIOS, OUT_WORDS, PEQ, publishTable, QUOTE, RANGES, ROW_C, ROW_P, STK, SW, VB } from "./arena";
import { dense, markLim, setLimit, setupQuote } from "./pass";
import { passE, passEN } from "./simd";

export let nOut: i32 = 0;

function emit(word: i32, size: i32, ratio: f64): void {
  if (nOut == capOut) {
    const cap = capOut << 1;
    const words = heap.alloc(<usize>cap << 3);
    const ratios = heap.alloc(<usize>cap << 3);
    memory.copy(words, OUT_WORDS, <usize>capOut << 3);
    memory.copy(ratios, OUT_RATIOS, <usize>capOut << 3);
    heap.free(OUT_WORDS);
    heap.free(OUT_RATIOS);
    OUT_WORDS = words;
    OUT_RATIOS = ratios;
    capOut = cap;
    publishTable(false);
  }
  store<i32>(OUT_WORDS + (<usize>nOut << 3), word);
  store<i32>(OUT_WORDS + (<usize>nOut << 3), size, 4);
  store<f64>(OUT_RATIOS + (<usize>nOut << 3), ratio);
  nOut++;
}

/** difflib's matching characters of a[0, la) and b[0, lb), on this kernel's work buffers (assembly/difflib.ts). */
@inline
function matchingCharacters(a: usize, la: i32, b: usize, lb: i32): i32 {
  return difflibMatching(a, la, b, lb, ROW_P, ROW_C, STK);
}

/** LCS length of a[0, la) and the quote (PEQ built for it), Hyyrö's bit-vector; assembly/difflib.ts. */
@inline
function lcsLength(a: usize, la: i32, lb: i32, blocks: i32): i32 {
  return sharedLcsLength(a, la, lb, blocks, PEQ, CNT_B, VB);
}

/**
 * Scan texts [0, nSources) (or only `onlySource` when >= 0) for the quote in
 * QUOTE[0, lb) of `n` words; ids < `alphabet`. Writes the windows with ratio
 * >= minRatio to OUT and returns how many.
 */
export function qiScan(nSources: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, onlySource: i32): i32 {
  nOut = 0;
  if (lb == 0) return 0;
  const blocks = (lb + 63) >> 6;
  setupQuote(lb, alphabet, blocks);
  setLimit(lb, blocks, minRatio);
  for (let s = 0; s < nSources; s++) {
    if (onlySource >= 0 && s != onlySource) continue;
    const w0 = load<i32>(SW + (<usize>s << 2));
    const w1 = load<i32>(SW + (<usize>(s + 1) << 2));
    if (w1 > w0) scanWords(w0, w1, lb, n, blocks, minRatio, false);
  }
  return nOut;
}

/**
 * Scan the word ranges RANGES[0, nRanges) (pairs [from, to), ascending and disjoint, each inside
 * one text) as qiScan scans a text: every window lying inside a range with ratio >= minRatio, to
 * OUT; returns how many. Phase A restarts at each range's first word, so it computes E_from, and
 * every window inside the range starts at or after `from`: E_from(e) <= Levenshtein(W, b) and
 * bound 2 holds as in the lanes (the TS twin is WindowScanner.scan in ts/match/quote-index/scan.ts).
 * With `raise`, each window found raises minRatio to its ratio for the windows after it (ranges
 * in order, windows by last word, then size), as WindowScanner.scan(…, raise) does: the
 * best-first search's seeds for limit 1, where only the best window matters.
 */
export function qiScanRanges(nRanges: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, raise: i32): i32 {
  nOut = 0;
  if (lb == 0) return 0;
  const blocks = (lb + 63) >> 6;
  setupQuote(lb, alphabet, blocks);
  let r = minRatio;
  setLimit(lb, blocks, r);
  for (let i = 0; i < nRanges; i++) {
    const w0 = load<i32>(RANGES + (<usize>i << 3));
    const w1 = load<i32>(RANGES + (<usize>i << 3), 4);
    if (w1 <= w0) continue;
    const r1 = scanWords(w0, w1, lb, n, blocks, r, raise != 0);
    if (r1 != r) {
      r = r1;
      setLimit(lb, blocks, r);
    }
  }
  return nOut;
}

/** qiScanChunk's first word whose windows count (0 outside qiScanChunk: every word). */
let emitFrom: i32 = 0;
/**
 * qiScanChunk's work cap, in DP cells (a window's LCS bound costs la·blocks of them, its difflib ratio
 * la·lb): phase B stops after the word at which the cells spent pass it (Infinity outside qiScanChunk).
 */
let workCap: f64 = Infinity;
let workDone: f64 = 0;
/** The word qiScanChunk's phase B stopped before: every window ending before it was scored (w1 when it ran to the end). */
let chunkReached: i32 = 0;

/**
 * One chunk of a text, for a scan cut into pieces (ts/match/quote-index/linear.ts `scanChunked`, which checks
 * its time budget and raises its threshold between chunks): the windows lying inside words [w0, w1)
 * (one text) that END at a word >= `from` (w0 <= from <= w1), with ratio >= minRatio, to OUT; returns
 * how many. Phase A runs from w0 (so E_w0 bounds every window starting there, as in qiScanRanges);
 * phase B starts at word `from`, so a chunk [from − n − 1, to) repeats none of the previous chunk's
 * windows: each window is scored once. `raise` as in qiScanRanges.
 */
export function qiScanChunk(w0: i32, from: i32, w1: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, raise: i32, cap: f64): i32 {
  nOut = 0;
  chunkReached = w1;
  if (lb == 0 || w1 <= w0 || from >= w1) return 0;
  const blocks = (lb + 63) >> 6;
  setupQuote(lb, alphabet, blocks);
  setLimit(lb, blocks, minRatio);
  emitFrom = from;
  workCap = cap > 0 ? cap : Infinity;
  workDone = 0;
  scanWords(w0, w1, lb, n, blocks, minRatio, raise != 0);
  emitFrom = 0;
  workCap = Infinity;
  return nOut;
}

/**
 * Where the last qiScanChunk stopped: the first word whose windows it did not score (its `w1` unless
 * its work `cap` was spent first; then > `from`: the word that passed the cap was finished). A chunk
 * stopped early is resumed as the chunk [reached − n − 1, reached, w1), which scores each remaining
 * window once.
 */
export function qiChunkReached(): i32 {
  return chunkReached;
}

/** The first word t in [lo, hi) with a[t] >= x (a = CSTART or CEND, ascending), hi when none. */
function firstWordAtLeast(a: usize, lo: i32, hi: i32, x: i32): i32 {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i32>(a + (<usize>mid << 2)) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Append word range [from, to) to RANGES (growing it), merged with the last one when they overlap
 * (strictly: ranges of two texts may touch, and a window inside one mark's range needs no merge).
 */
function pushRange(count: i32, from: i32, to: i32): i32 {
  if (count > 0) {
    const last = RANGES + (<usize>(count - 1) << 3);
    if (from < load<i32>(last, 4)) {
      if (to > load<i32>(last, 4)) store<i32>(last, to, 4);
      return count;
    }
  }
  if (count == capRanges) {
    const cap = grow2(capRanges, count + 1);
    const grown = heap.alloc(<usize>cap << 3);
    if (RANGES) {
      memory.copy(grown, RANGES, <usize>count << 3);
      heap.free(RANGES);
    }
    RANGES = grown;
    capRanges = cap;
    publishTable(false);
  }
  store<i32>(RANGES + (<usize>count << 3), from);
  store<i32>(RANGES + (<usize>count << 3), to, 4);
  return count + 1;
}

/**
 * The linear pass at a high threshold with a one-block prefix (ts/match/quote-index/search.ts `searchBest`
 * (h) has the proof): phase A over every text with b1 = QUOTE[0, m) (m <= 64 < lb), marking the
 * characters e1 with E1(e1) <= limit (= D, the indel budget of a window with ratio >= minRatio);
 * each mark gives the word range of chars [e1 − m − D + 1, e1 + (lb − m) + D] (one word wider at
 * the end), merged into RANGES; then those ranges are scanned with the whole quote as qiScanRanges
 * does. Every window with ratio >= minRatio lies in a range, so the windows returned are qiScan's.
 * Returns the count of windows, or -1 when the ranges would exceed `maxRanges` (the caller then
 * runs qiScan: marks were not rare enough to pay).
 */
export function qiScanPrefix(nSources: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, onlySource: i32, m: i32, limit: i32, maxRanges: i32): i32 {
  nOut = 0;
  if (lb == 0) return 0;
  setupQuote(m, alphabet, 1);
  markLim = <i64>limit;
  dense = false;
  let count = 0;
  for (let s = 0; s < nSources; s++) {
    if (onlySource >= 0 && s != onlySource) continue;
    const w0 = load<i32>(SW + (<usize>s << 2));
    const w1 = load<i32>(SW + (<usize>(s + 1) << 2));
    if (w1 == w0) continue;
    const c0 = load<i32>(CSTART + (<usize>w0 << 2));
    const c1 = load<i32>(CEND + (<usize>(w1 - 1) << 2));
    memory.fill(BITS + (<usize>c0 >> 3), 0, <usize>(((c1 - 1) >> 3) - (c0 >> 3) + 1));
    passE(w0, w1, m, n, 1);
    count = markedRanges(w0, w1, lb, m, limit, count, maxRanges);
    if (count < 0) return -1;
  }
  return scanRangeList(count, lb, n, alphabet, minRatio);
}

/**
 * The word ranges of the characters marked in BITS within text words [w0, w1): each mark e1 gives
 * the words of characters [e1 − m − limit + 1, e1 + (lb − m) + limit] (one word wider at the end),
 * appended to RANGES[0, count) (merged; they ascend). Returns the new count, or -1 past maxRanges.
 */
export function markedRanges(w0: i32, w1: i32, lb: i32, m: i32, limit: i32, count: i32, maxRanges: i32): i32 {
  const c0 = load<i32>(CSTART + (<usize>w0 << 2));
  const c1 = load<i32>(CEND + (<usize>(w1 - 1) << 2));
  const first = count;
  for (let wi = c0 >> 6, wn = (c1 - 1) >> 6; wi <= wn; wi++) {
    let bits = load<u64>(BITS + (<usize>wi << 3));
    while (bits != 0) {
      const e1 = (wi << 6) + <i32>ctz(bits);
      bits &= bits - 1;
      if (e1 < c0 || e1 >= c1) continue;
      const lo = e1 - m - limit + 1, hi = e1 + (lb - m) + limit + 1;
      if (count > first) {
        // inside the last range already (its last word starts at or after lo and ends at or after
        // hi, or is the text's last): the same range again, skipped (clustered marks)
        const lastTo = load<i32>(RANGES + (<usize>(count - 1) << 3), 4);
        if (load<i32>(CSTART + (<usize>(lastTo - 1) << 2)) >= lo && (lastTo == w1 || load<i32>(CEND + (<usize>(lastTo - 1) << 2)) >= hi)) continue;
      }
      const from = firstWordAtLeast(CSTART, w0, w1, lo);
      const to = min(w1, firstWordAtLeast(CEND, from, w1, hi) + 1);
      if (from < to) count = pushRange(count, from, to);
      if (count > maxRanges) return -1;
    }
  }
  return count;
}

/** Every window >= minRatio inside RANGES[0, count) (ascending, disjoint), with the whole quote, to OUT; returns how many. */
export function scanRangeList(count: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64): i32 {
  const blocks = (lb + 63) >> 6;
  setupQuote(lb, alphabet, blocks);
  setLimit(lb, blocks, minRatio);
  for (let i = 0; i < count; i++) {
    scanWords(load<i32>(RANGES + (<usize>i << 3)), load<i32>(RANGES + (<usize>i << 3), 4), lb, n, blocks, minRatio, false);
  }
  return nOut;
}

/**
 * Phases A and B over words [w0, w1) of one text: the windows inside with ratio >= minRatio, to
 * OUT. markLim and dense must be set for minRatio (or a lower ratio: more marks, same windows).
 * Returns minRatio, raised to each window's ratio when `raise`.
 */
function scanWords(w0: i32, w1: i32, lb: i32, n: i32, blocks: i32, minRatio: f64, raise: bool): f64 {
  const lo = max(1, n - 2);
  const total0 = <f64>lb;
  const vFrom = max(w0, emitFrom); // qiScanChunk: windows ending before word emitFrom are skipped
  const c0 = load<i32>(CSTART + (<usize>w0 << 2));
  const c1 = load<i32>(CEND + (<usize>(w1 - 1) << 2));
  // this text's bits (a shared edge byte belongs to a text scanned before: no longer read)
  memory.fill(BITS + (<usize>c0 >> 3), 0, <usize>(((c1 - 1) >> 3) - (c0 >> 3) + 1));
  if (blocks <= 3) passE(w0, w1, lb, n, blocks);
  else passEN(w0, w1, lb, n, blocks);
  if (dense) {
    // E is in ES after every character: mark every word end
    for (let v = w0; v < w1; v++) {
      const p = <usize>(load<i32>(CEND + (<usize>v << 2)) - 1);
      const b = BITS + (p >> 3);
      store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
    }
  }
  // phase B, at the marked characters only (every unmarked one has E > markLim: no window
  // ending there passes bounds 1–2), in word order as a full walk would take them
  let v = vFrom;
  for (let wi = c0 >> 6, wn = (c1 - 1) >> 6; wi <= wn; wi++) {
    let bits = load<u64>(BITS + (<usize>wi << 3));
    while (bits != 0) {
      const p = (wi << 6) + <i32>ctz(bits);
      bits &= bits - 1;
      if (p < c0) continue;
      if (p >= c1) break;
      // the first word ending after p (CEND ascends): usually v itself, else a binary search
      if (load<i32>(CEND + (<usize>v << 2)) <= p) {
        let hi = w1;
        while (v < hi) {
          const mid = (v + hi) >>> 1;
          if (load<i32>(CEND + (<usize>mid << 2)) <= p) v = mid + 1;
          else hi = mid;
        }
      }
      while (v < w1 && load<i32>(CEND + (<usize>v << 2)) == p + 1) {
        const e = p + 1;
        const score = <f64>load<u16>(ES + (<usize>p << 1));
        // bound 2 for the widest window ending at v: (T - E)/T grows with T, so if it fails there it
        // fails for every window ending at v (f64 rounding is monotone)
        const widest = <f64>(e - load<i32>(CSTART + (<usize>max(w0, v - n - 1) << 2))) + total0;
        if ((widest - <f64>score) / widest < minRatio) { v++; continue; }
        for (let size = lo; size <= n + 2 && v - size + 1 >= w0; size++) {
          const u = v - size + 1;
          const start = load<i32>(CSTART + (<usize>u << 2));
          const la = e - start;
          const total = <f64>la + total0;
          if (<f64>(2 * min(la, lb)) / total < minRatio) continue; // bound 1
          if ((total - <f64>score) / total < minRatio) continue; // bound 2
          const a = CHARS + (<usize>start << 2);
          let inter = 0;
          for (let i = 0; i < la; i++) {
            const c = CNT_A + (<usize>load<i32>(a + (<usize>i << 2)) << 2);
            const ca = load<i32>(c);
            store<i32>(c, ca + 1);
            if (ca < load<i32>(CNT_B + (<usize>load<i32>(a + (<usize>i << 2)) << 2))) inter++;
          }
          for (let i = 0; i < la; i++) store<i32>(CNT_A + (<usize>load<i32>(a + (<usize>i << 2)) << 2), 0);
          if (<f64>(2 * inter) / total < minRatio) continue; // bound 3
          workDone += <f64>la * <f64>blocks;
          if (<f64>(2 * lcsLength(a, la, lb, blocks)) / total < minRatio) continue; // bound 4
          workDone += <f64>la * <f64>lb;
          const ratio = <f64>(2 * matchingCharacters(a, la, QUOTE, lb)) / total;
          if (ratio >= minRatio) {
            emit(u, size, ratio);
            if (raise) minRatio = ratio;
          }
        }
        v++;
        if (workDone > workCap) break; // qiScanChunk's cap: stop after this word (chunkReached)
      }
      if (v == w1 || workDone > workCap) break;
    }
    if (v == w1 || workDone > workCap) break;
  }
  if (workDone > workCap) chunkReached = v;
  return minRatio;
}
