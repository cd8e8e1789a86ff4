// difflib's matching-block total over interned ids (CPython difflib.SequenceMatcher with
// autojunk off: find_longest_match's plain dynamic programme and get_matching_blocks'
// recursion), shared by the best-span scan (sequence-match.ts) and the quote index
// (quote-index/scan.ts), and the LCS bound both use to skip windows. Each caller passes its own
// work buffers from its arena:
//   rowPrev, rowCur: i32 x (quote length + 1) each — the DP rows;
//   stack: 16 bytes x (quote length + 2) — the (alo, ahi, blo, bhi) ranges still to split.
// Ties as difflib: among the longest blocks the smallest i (window), then the smallest j (quote).

// results of longestMatch (globals: no allocation, no multi-value)
let lmI: i32 = 0;
let lmJ: i32 = 0;

/** difflib find_longest_match, no junk: a = window at `a`, b = quote at `b`; returns the size. */
function longestMatch(a: usize, alo: i32, ahi: i32, b: usize, blo: i32, bhi: i32, rowPrev: usize, rowCur: usize): i32 {
  let prev = rowPrev;
  let cur = rowCur;
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  const cap = min(ahi - alo, bhi - blo);
  memory.fill(prev + (<usize>blo << 2), 0, <usize>(bhi - blo + 1) << 2);
  store<i32>(cur + (<usize>blo << 2), 0);
  for (let i = alo; i < ahi && bestsize < cap; i++) {
    const ai = load<i32>(a + (<usize>i << 2));
    for (let j = blo; j < bhi; j++) {
      const oj = <usize>j << 2;
      if (load<i32>(b + oj) == ai) {
        const k = load<i32>(prev + oj) + 1;
        store<i32>(cur + oj + 4, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      } else {
        store<i32>(cur + oj + 4, 0);
      }
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  lmI = besti;
  lmJ = bestj;
  return bestsize;
}

/** Sum of difflib's matching block sizes (get_matching_blocks' recursion, explicit stack). */
export function matchingCharacters(a: usize, la: i32, b: usize, lb: i32, rowPrev: usize, rowCur: usize, stack: usize): i32 {
  let top: usize = stack;
  let total = 0;
  store<i32>(top, 0); store<i32>(top, la, 4); store<i32>(top, 0, 8); store<i32>(top, lb, 12);
  top += 16;
  while (top > stack) {
    top -= 16;
    const alo = load<i32>(top), ahi = load<i32>(top, 4), blo = load<i32>(top, 8), bhi = load<i32>(top, 12);
    const k = longestMatch(a, alo, ahi, b, blo, bhi, rowPrev, rowCur);
    if (k == 0) continue;
    const i = lmI, j = lmJ;
    total += k;
    if (alo < i && blo < j) {
      store<i32>(top, alo); store<i32>(top, i, 4); store<i32>(top, blo, 8); store<i32>(top, j, 12);
      top += 16;
    }
    if (i + k < ahi && j + k < bhi) {
      store<i32>(top, i + k); store<i32>(top, ahi, 4); store<i32>(top, j + k, 8); store<i32>(top, bhi, 12);
      top += 16;
    }
  }
  return total;
}

/**
 * Length of the longest common subsequence of window a[0, la) and the quote of lb ids, by
 * Hyyrö's bit-parallel algorithm (2004), 64 quote positions per u64 with carries across
 * blocks. `peq`: one bit row per id (`blocks` u64 each) marking the quote's positions of that
 * id; `countB`: occurrences of each id in the quote (0 = skip: V unchanged); `vbits`: `blocks`
 * u64 of work space. An upper bound of difflib's matching total (its blocks form a common
 * subsequence), used to skip windows.
 */
export function lcsLength(a: usize, la: i32, lb: i32, blocks: i32, peq: usize, countB: usize, vbits: usize): i32 {
  lcsStart(blocks, vbits);
  lcsFeed(a, 0, la, blocks, peq, countB, vbits);
  return lcsZeros(lb, vbits);
}

/**
 * `lcsLength` in steps, for the LCS of every prefix of a run of text: `lcsStart` sets V to all
 * ones, `lcsFeed` advances it over a[from, to) (ids are read at `chars`), `lcsZeros(j)` reads the
 * LCS of everything fed since `lcsStart` and the quote's first j positions (the zero bits among V's
 * first j; j = lb: the whole quote). The suggest module's LCS bound reads it at other j too.
 * The same recurrence as `lcsLength`, so fed the same characters it gives the same length.
 */
export function lcsStart(blocks: i32, vbits: usize): void {
  for (let k = 0; k < blocks; k++) store<u64>(vbits + (<usize>k << 3), ~(<u64>0));
}

export function lcsFeed(chars: usize, from: i32, to: i32, blocks: i32, peq: usize, countB: usize, vbits: usize): void {
  for (let i = from; i < to; i++) {
    const c = load<i32>(chars + (<usize>i << 2));
    if (load<i32>(countB + (<usize>c << 2)) == 0) continue; // not in the quote: V unchanged
    const row = peq + ((<usize>c * <usize>blocks) << 3);
    if (blocks == 1) {
      const v = load<u64>(vbits);
      const pm = load<u64>(row);
      store<u64>(vbits, (v + (v & pm)) | (v & ~pm));
      continue;
    }
    let carry: u64 = 0;
    for (let k = 0; k < blocks; k++) {
      const vp = vbits + (<usize>k << 3);
      const v = load<u64>(vp);
      const pm = load<u64>(row + (<usize>k << 3));
      const u = v & pm;
      const t = v + carry;
      const c1: u64 = <u64>(t < v);
      const x = t + u;
      carry = c1 | <u64>(x < t);
      store<u64>(vp, x | (v & ~pm));
    }
  }
}

export function lcsZeros(j: i32, vbits: usize): i32 {
  let zeros = 0;
  for (let k = 0; k << 6 < j; k++) {
    let v = load<u64>(vbits + (<usize>k << 3));
    const bits = j - (k << 6);
    if (bits < 64) v |= ~(<u64>0) << <u64>bits;
    zeros += <i32>popcnt(~v);
  }
  return zeros;
}

// ---------------------------------------------------------------------------------------------
// The same matching total by difflib's own find_longest_match (its b2j form): for each i, only
// the quote positions j holding a[i] are visited (`pos[posStart[c] .. posStart[c+1])`, ascending),
// and j2len lives in two rows of (len, stamp) pairs, one per row parity: a pair is current for
// row i when its stamp is the row's tick. The same blocks, ties and total as `longestMatch`
// (it is the algorithm CPython runs; `longestMatch` is its dense form), in about
// la·lb·Σp(c)² steps instead of la·lb for text over a skewed alphabet.

let tick: i32 = 0;

function longestMatchSparse(
  a: usize, alo: i32, ahi: i32, blo: i32, bhi: i32,
  posStart: usize, pos: usize, rows: usize, rowStride: usize,
): i32 {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  const cap = min(ahi - alo, bhi - blo);
  if (tick > 0x3fffffff) {
    // stamps would wrap: forget every stamp (both rows)
    memory.fill(rows, 0, rowStride << 1);
    tick = 0;
  }
  let prevTick = ++tick; // no pair carries it yet: the row before alo is empty
  let prevRow = rows + rowStride;
  let curRow = rows;
  for (let i = alo; i < ahi && bestsize < cap; i++) {
    const curTick = ++tick;
    const c = <usize>load<i32>(a + (<usize>i << 2)) << 2;
    const end = load<i32>(posStart + c, 4);
    for (let p = load<i32>(posStart + c); p < end; p++) {
      const j = load<i32>(pos + (<usize>p << 2));
      if (j < blo) continue;
      if (j >= bhi) break;
      let k = 1;
      if (j > blo) {
        const prev = prevRow + (<usize>(j - 1) << 3);
        if (load<i32>(prev, 4) == prevTick) k = load<i32>(prev) + 1;
      }
      const cur = curRow + (<usize>j << 3);
      store<i32>(cur, k);
      store<i32>(cur, curTick, 4);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    prevTick = curTick;
    const t = prevRow;
    prevRow = curRow;
    curRow = t;
  }
  lmI = besti;
  lmJ = bestj;
  return bestsize;
}

/**
 * `matchingCharacters` by the sparse form: the quote's positions grouped by id (`posStart`: one
 * i32 per id plus one, `pos`: lb i32), `rows`: 2 × `rowStride` bytes of (len, stamp) i32 pairs,
 * rowStride ≥ 8·lb; `stack` as in `matchingCharacters`.
 */
export function matchingCharactersSparse(a: usize, la: i32, lb: i32, posStart: usize, pos: usize, rows: usize, rowStride: usize, stack: usize): i32 {
  let top: usize = stack;
  let total = 0;
  store<i32>(top, 0); store<i32>(top, la, 4); store<i32>(top, 0, 8); store<i32>(top, lb, 12);
  top += 16;
  while (top > stack) {
    top -= 16;
    const alo = load<i32>(top), ahi = load<i32>(top, 4), blo = load<i32>(top, 8), bhi = load<i32>(top, 12);
    const k = longestMatchSparse(a, alo, ahi, blo, bhi, posStart, pos, rows, rowStride);
    if (k == 0) continue;
    const i = lmI, j = lmJ;
    total += k;
    if (alo < i && blo < j) {
      store<i32>(top, alo); store<i32>(top, i, 4); store<i32>(top, blo, 8); store<i32>(top, j, 12);
      top += 16;
    }
    if (i + k < ahi && j + k < bhi) {
      store<i32>(top, i + k); store<i32>(top, ahi, 4); store<i32>(top, j + k, 8); store<i32>(top, bhi, 12);
      top += 16;
    }
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// Giving up early: the matching total of a window, abandoned once its ratio is sure to be below a
// floor (the TS twin and the proof: ts/match/sequence-match.ts `LcsRun.range`,
// `matchingCharactersAbove`), and the first block of a window from its source's rows of runs.

/**
 * One character's step of Hyyrö's recurrence over blocks k0..k1 of V (u64 words at `vbits`):
 * `row` holds the character's match masks, `loMask` cuts block k0 below and `hiMask` block k1
 * above (V keeps its bits outside them, and no carry crosses in). Used by `lcsRange` and by
 * lcs-bound.ts `lcsBounded`.
 */
@inline
export function lcsStepBlocks(row: usize, vbits: usize, k0: i32, k1: i32, loMask: u64, hiMask: u64): void {
  let carry: u64 = 0;
  for (let k = k0; k <= k1; k++) {
    const vp = vbits + (<usize>k << 3);
    const v = load<u64>(vp);
    let pm = load<u64>(row + (<usize>k << 3));
    if (k == k0) pm &= loMask;
    if (k == k1) pm &= hiMask;
    const u = v & pm;
    const t = v + carry;
    const c1: u64 = <u64>(t < v);
    const x = t + u;
    carry = c1 | <u64>(x < t);
    store<u64>(vp, x | (v & ~pm));
  }
}

/**
 * LCS of a[alo, ahi) (ids at `a`) and the quote's b[blo, bhi): Hyyrö's recurrence over only the
 * blocks of `peq` that meet [blo, bhi), masks cut to the range (below blo V stays ones and carries
 * nothing up; above bhi nothing reaches down). `vbits`: work space of `blocks` u64.
 */
export function lcsRange(a: usize, alo: i32, ahi: i32, blo: i32, bhi: i32, blocks: i32, peq: usize, countB: usize, vbits: usize): i32 {
  if (alo >= ahi || blo >= bhi) return 0;
  const k0 = blo >> 6;
  const k1 = (bhi - 1) >> 6;
  const loMask: u64 = ~(<u64>0) << <u64>(blo & 63);
  const bits = bhi - (k1 << 6); // 1..64 bits of block k1 in the range
  const hiMask: u64 = bits >= 64 ? ~(<u64>0) : (<u64>1 << <u64>bits) - 1;
  for (let k = k0; k <= k1; k++) store<u64>(vbits + (<usize>k << 3), ~(<u64>0));
  for (let i = alo; i < ahi; i++) {
    const c = load<i32>(a + (<usize>i << 2));
    if (load<i32>(countB + (<usize>c << 2)) == 0) continue; // not in the quote: V unchanged
    const row = peq + ((<usize>c * <usize>blocks) << 3);
    lcsStepBlocks(row, vbits, k0, k1, loMask, hiMask);
  }
  let zeros = 0;
  for (let k = k0; k <= k1; k++) {
    let m: u64 = ~(<u64>0);
    if (k == k0) m &= loMask;
    if (k == k1) m &= hiMask;
    zeros += <i32>popcnt(~load<u64>(vbits + (<usize>k << 3)) & m);
  }
  return zeros;
}

/**
 * difflib's first (longest) block of the window a[0, la) and the quote — `longestMatch` over the
 * whole window, ties as difflib: the smallest i, then j — from its source's rows of common runs
 * (`commonRuns`): `runs` points at the window's first character's pair. O(la + R·(quote
 * positions)), R the window's largest run. Returns the size; the block's i, j in lmI, lmJ
 * (`firstBlockI`, `firstBlockJ`). The TS backend takes the same block by `longestMatch`.
 * Why exact: write R(p, j) for the source's run ending at a[p] and b[j]; the window's own run
 * there is min(R(p, j), p + 1) (p from the window's start). On a row with p + 1 ≥ R every
 * R(p, j) ≤ R fits, so the row is the source's: its largest run runs[2p], first reached at
 * runs[2p+1]. The rows before R are run afresh by `longestMatchSparse` (which keeps the first
 * strictly longer block in the order rows, then j). Then each later row, in order, replaces the
 * block when its largest run is strictly longer, at the first j reaching it — the block
 * difflib's scan of that row ends with. (test/match/best-span-bounds.test.ts checks this
 * construction against `longestMatch`, and the scan against the unbounded one.)
 */
export function firstBlock(a: usize, la: i32, lb: i32, runs: usize, posStart: usize, pos: usize, rows: usize, rowStride: usize): i32 {
  let r = 0;
  for (let p = 0; p < la; p++) r = max(r, load<i32>(runs + (<usize>p << 3)));
  const head = min(la, r);
  let k = longestMatchSparse(a, 0, head, 0, lb, posStart, pos, rows, rowStride);
  for (let p = head; p < la; p++) {
    const x = load<i32>(runs + (<usize>p << 3));
    if (x > k) {
      k = x;
      lmI = p - x + 1;
      lmJ = load<i32>(runs + (<usize>p << 3), 4) - x + 1;
    }
  }
  return k;
}

/**
 * The rows of common runs of a[from, to) (ids at `a`, indexed from `a`) and the quote, for
 * `firstBlock`: for each p, runs[2p] = the longest common run ending at a[p] and some quote
 * position j (counted from `from`), runs[2p+1] = the smallest such j (-1 when none). difflib's
 * dynamic programme in the sparse form of `longestMatchSparse` (only the quote's positions of
 * a[p] are visited; a row's pair is current when its stamp is the row's tick), so the same
 * lengths as the dense one. Positions ascend, so the first
 * j to reach the row's largest run is kept by a strict comparison.
 */
export function commonRuns(a: usize, from: i32, to: i32, posStart: usize, pos: usize, rows: usize, rowStride: usize, runs: usize): void {
  if (tick > 0x3fffffff) {
    memory.fill(rows, 0, rowStride << 1);
    tick = 0;
  }
  let prevTick = ++tick;
  let prevRow = rows + rowStride;
  let curRow = rows;
  for (let p = from; p < to; p++) {
    const curTick = ++tick;
    const c = <usize>load<i32>(a + (<usize>p << 2)) << 2;
    const end = load<i32>(posStart + c, 4);
    let top = 0;
    let at = -1;
    for (let q = load<i32>(posStart + c); q < end; q++) {
      const j = load<i32>(pos + (<usize>q << 2));
      let k = 1;
      if (j > 0) {
        const prev = prevRow + (<usize>(j - 1) << 3);
        if (load<i32>(prev, 4) == prevTick) k = load<i32>(prev) + 1;
      }
      const cur = curRow + (<usize>j << 3);
      store<i32>(cur, k);
      store<i32>(cur, curTick, 4);
      if (k > top) {
        top = k;
        at = j;
      }
    }
    store<i32>(runs + (<usize>p << 3), top);
    store<i32>(runs + (<usize>p << 3), at, 4);
    prevTick = curTick;
    const t = prevRow;
    prevRow = curRow;
    curRow = t;
  }
}

export function firstBlockI(): i32 { return lmI; }
export function firstBlockJ(): i32 { return lmJ; }

/**
 * `matchingCharactersSparse`, giving up (-1) once 2·(total + Σ LCS of the ranges still to split)
 * / (la + lb) < floor; else difflib's M exactly. `stack`: 32 bytes × (quote length + 2) — each
 * range carries its LCS; `blocks`, `peq`, `countB`, `vbits` as in `lcsRange`; (fi, fj, fk): the
 * root's longest block when fk ≥ 0 (from `firstBlock`), else found here.
 */
export function matchingCharactersAbove(
  a: usize, la: i32, lb: i32, posStart: usize, pos: usize, rows: usize, rowStride: usize, stack: usize,
  blocks: i32, peq: usize, countB: usize, vbits: usize, floor: f64, fi: i32, fj: i32, fk: i32, memo: usize,
): i32 {
  const base = <i32>(a >> 2); // a[p] is the i32 at address 4·(base + p): ranges keyed by base + p are the same text
  let top: usize = stack;
  let total = 0;
  let pending = 0;
  const length = <f64>(la + lb);
  store<i32>(top, 0); store<i32>(top, la, 4); store<i32>(top, 0, 8); store<i32>(top, lb, 12); store<i32>(top, 0, 16);
  top += 32;
  while (top > stack) {
    top -= 32;
    const alo = load<i32>(top), ahi = load<i32>(top, 4), blo = load<i32>(top, 8), bhi = load<i32>(top, 12);
    pending -= load<i32>(top, 16);
    let k: i32, i: i32, j: i32;
    if (fk >= 0) {
      // the root's longest block, given
      k = fk; i = fi; j = fj;
      fk = -1;
    } else {
      const e = memo != 0 ? memoEntry(memo, base + alo, base + ahi, blo, bhi) : 0;
      if (e != 0 && load<i32>(e, 32) >= 0) {
        k = load<i32>(e, 32); i = load<i32>(e, 24) - base; j = load<i32>(e, 28);
      } else {
        k = longestMatchSparse(a, alo, ahi, blo, bhi, posStart, pos, rows, rowStride);
        i = lmI; j = lmJ;
        if (e != 0) { store<i32>(e, base + i, 24); store<i32>(e, j, 28); store<i32>(e, k, 32); }
      }
    }
    if (k == 0) continue;
    total += k;
    const left = alo < i && blo < j ? memoLcs(memo, a, base, alo, i, blo, j, blocks, peq, countB, vbits) : 0;
    const right = i + k < ahi && j + k < bhi ? memoLcs(memo, a, base, i + k, ahi, j + k, bhi, blocks, peq, countB, vbits) : 0;
    pending += left + right;
    // the range of smaller LCS is split first (pushed last), as the TS twin does
    if (left > 0 && left > right) {
      store<i32>(top, alo); store<i32>(top, i, 4); store<i32>(top, blo, 8); store<i32>(top, j, 12); store<i32>(top, left, 16);
      top += 32;
    }
    if (right > 0) {
      store<i32>(top, i + k); store<i32>(top, ahi, 4); store<i32>(top, j + k, 8); store<i32>(top, bhi, 12); store<i32>(top, right, 16);
      top += 32;
    }
    if (left > 0 && left <= right) {
      store<i32>(top, alo); store<i32>(top, i, 4); store<i32>(top, blo, 8); store<i32>(top, j, 12); store<i32>(top, left, 16);
      top += 32;
    }
    if (<f64>(2 * (total + pending)) / length < floor) return -1;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// A memo of ranges for `matchingCharactersAbove`, per quote: a range (pool text [alo, ahi),
// quote [blo, bhi)) has one LCS and one longest block (difflib's, ties included), whatever
// window it comes from — windows at one start share their left ranges, windows ending at one
// word their right ones, and the ranges split from those. So a value found once is reused, and
// a slot overwritten by another range only costs its recomputation: the results are the same with
// or without the memo. Layout: MEMO_SLOTS entries of 40 bytes — generation (the quote's: an
// entry of another generation is empty), alo, ahi, blo, bhi (absolute alo/ahi: `base` + index),
// LCS (-1: not known), block i (absolute), j, k (-1: not known), one spare i32.

export const MEMO_SLOTS: i32 = 8192;
export const MEMO_ENTRY: i32 = 40;
let memoGen: i32 = 0;

/** A new generation for the next quote (every entry empty); clears the memo when the count wraps. */
export function memoNext(memo: usize): void {
  if (memoGen >= 0x3fffffff) {
    memory.fill(memo, 0, <usize>MEMO_SLOTS * <usize>MEMO_ENTRY);
    memoGen = 0;
  }
  memoGen++;
}

/**
 * The entry of the range (alo, ahi, blo, bhi), or a fresh one for it (LCS and block unknown) in
 * one of its 4 slots: the first empty one, else the hash's own slot (its old range forgotten).
 */
function memoEntry(memo: usize, alo: i32, ahi: i32, blo: i32, bhi: i32): usize {
  let h = <u32>alo * 0x9e3779b1 ^ <u32>ahi * 0x85ebca77 ^ <u32>blo * 0xc2b2ae3d ^ <u32>bhi * 0x27d4eb2f;
  h ^= h >> 15;
  const first = h & <u32>(MEMO_SLOTS - 1);
  let free: usize = 0;
  for (let probe: u32 = 0; probe < 4; probe++) {
    const e = memo + <usize>((first + probe) & <u32>(MEMO_SLOTS - 1)) * <usize>MEMO_ENTRY;
    if (load<i32>(e) != memoGen) {
      if (free == 0) free = e;
      continue;
    }
    if (load<i32>(e, 4) == alo && load<i32>(e, 8) == ahi && load<i32>(e, 12) == blo && load<i32>(e, 16) == bhi) return e;
  }
  const e = free != 0 ? free : memo + <usize>first * <usize>MEMO_ENTRY;
  store<i32>(e, memoGen); store<i32>(e, alo, 4); store<i32>(e, ahi, 8); store<i32>(e, blo, 12); store<i32>(e, bhi, 16);
  store<i32>(e, -1, 20); store<i32>(e, -1, 32);
  return e;
}

/** `lcsRange` of a[alo, ahi) and the quote's [blo, bhi), through the memo when there is one (memo ≠ 0). */
function memoLcs(memo: usize, a: usize, base: i32, alo: i32, ahi: i32, blo: i32, bhi: i32, blocks: i32, peq: usize, countB: usize, vbits: usize): i32 {
  if (memo == 0) return lcsRange(a, alo, ahi, blo, bhi, blocks, peq, countB, vbits);
  const e = memoEntry(memo, base + alo, base + ahi, blo, bhi);
  let l = load<i32>(e, 20);
  if (l < 0) {
    l = lcsRange(a, alo, ahi, blo, bhi, blocks, peq, countB, vbits);
    store<i32>(e, l, 20);
  }
  return l;
}
