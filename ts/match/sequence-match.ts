/**
 * difflib-exact sequence matching over code points — the pure-TS backend and the
 * readable reference of `assembly/sequence-match.ts`.
 *
 * Follows CPython's `difflib.SequenceMatcher(None, a, b, autojunk=False)`
 * (Lib/difflib.py): `find_longest_match`, `get_matching_blocks`, `ratio`,
 * `quick_ratio`, `real_quick_ratio`. Autojunk is OFF here, always: difflib's
 * default would treat every character of `b` that fills more than 1% of a `b`
 * of 200+ elements as junk, which changes ratios of long quotes (see
 * test/match/best-span.test.ts). With no junk, the junk-extension loops of
 * `find_longest_match` never fire, so they are omitted (the longest block the
 * dynamic programme finds is already maximal).
 *
 * Sequences are arrays of integers (code points, or ids interned from code
 * points — equality is all that matters). `a` is difflib's seq1, `b` its seq2;
 * the asymmetry matters for ties: `find_longest_match` keeps the block that
 * starts earliest in `a`, then earliest in `b`, among the longest.
 *
 * Differences from CPython: none in results. `get_matching_blocks` here
 * returns the same list (sorted, adjacent blocks merged, the (la, lb, 0)
 * sentinel last); `matchingCharacters` computes only the sum of block sizes
 * (all `ratio` needs) without building the list.
 */

/** A matching block `[i, j, size]`: `a[i, i+size) == b[j, j+size)`. */
export type MatchBlock = [i: number, j: number, size: number];

/** The code points of `text` (Python's view of a `str`), as numbers. */
export function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/** Reusable work space for `longestMatch`/`matchingCharacters`: two DP rows and a sub-problem stack. */
export interface MatchScratch {
  prev: Int32Array;
  cur: Int32Array;
  stack: Int32Array;
}

/** Scratch big enough for a `b` of `lb` elements (and any `a` with la + lb ≤ `capacity`). */
export function createMatchScratch(lb: number, capacity = lb * 2 + 8): MatchScratch {
  return { prev: new Int32Array(lb + 1), cur: new Int32Array(lb + 1), stack: new Int32Array(4 * (capacity + 2)) };
}

/**
 * difflib `find_longest_match(alo, ahi, blo, bhi)` with no junk: the longest
 * block `a[i, i+k) == b[j, j+k)` inside the ranges; among the longest, the
 * smallest `i`, then the smallest `j`; `[alo, blo, 0]` when there is none.
 * `a` is read at `aOff + i`. O((ahi-alo)·(bhi-blo)) time, no allocation.
 */
export function longestMatch(
  a: ArrayLike<number>, aOff: number, alo: number, ahi: number,
  b: ArrayLike<number>, blo: number, bhi: number,
  scratch: MatchScratch,
): MatchBlock {
  let prev = scratch.prev;
  let cur = scratch.cur;
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  // No block can be longer than the shorter range: once found, nothing later beats it (ties keep the first).
  const cap = Math.min(ahi - alo, bhi - blo);
  // prev[j + 1] = length of the common run ending at (i - 1, j); prev[blo] is the left edge, always 0.
  prev.fill(0, blo, bhi + 1);
  cur[blo] = 0;
  for (let i = alo; i < ahi && bestsize < cap; i++) {
    const ai = a[aOff + i];
    for (let j = blo; j < bhi; j++) {
      if (b[j] === ai) {
        const k = prev[j] + 1;
        cur[j + 1] = k;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      } else {
        cur[j + 1] = 0;
      }
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  scratch.prev = prev;
  scratch.cur = cur;
  return [besti, bestj, bestsize];
}

/**
 * Sum of the sizes of difflib's matching blocks of `a[aOff, aOff+la)` (seq1)
 * and `b[0, lb)` (seq2): the `M` of `ratio = 2·M / (la + lb)`.
 * Same recursion as `get_matching_blocks` (longest block, then the parts left
 * and right of it); the sum does not depend on the order sub-problems run in,
 * but it does depend on which longest block is chosen — hence the exact ties.
 * Worst case O(la·lb·blocks) time; no allocation beyond `scratch`.
 */
export function matchingCharacters(
  a: ArrayLike<number>, aOff: number, la: number,
  b: ArrayLike<number>, lb: number,
  scratch: MatchScratch = createMatchScratch(lb, la + lb),
): number {
  return matchingCharactersAbove(a, aOff, la, b, lb, scratch, null, -1);
}

/**
 * difflib `get_matching_blocks()`: the matching blocks sorted by position,
 * adjacent ones merged, ending with the sentinel `[la, lb, 0]`.
 */
export function matchingBlocks(a: ArrayLike<number>, b: ArrayLike<number>): MatchBlock[] {
  const scratch = createMatchScratch(b.length, a.length + b.length);
  const found: MatchBlock[] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longestMatch(a, 0, alo, ahi, b, blo, bhi, scratch);
    if (!k) continue;
    found.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  found.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: MatchBlock[] = [];
  for (const blk of found) {
    const last = merged[merged.length - 1];
    if (last && last[0] + last[2] === blk[0] && last[1] + last[2] === blk[1]) last[2] += blk[2];
    else merged.push([...blk] as MatchBlock);
  }
  merged.push([a.length, b.length, 0]);
  return merged;
}

/**
 * difflib's `_calculate_ratio`: `2·matches / length`, or 1 when both are empty.
 * Both backends compute the double exactly this way, so their ratios are bit-identical.
 */
export function ratioOf(matches: number, length: number): number {
  return length ? (2 * matches) / length : 1;
}

/**
 * `difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()` over the code
 * points of two strings (not UTF-16 units: a letter outside the BMP counts once,
 * as in Python). A number in [0, 1]; 1 for two empty strings.
 */
export function sequenceRatio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  return ratioOf(matchingCharacters(ca, 0, ca.length, cb, cb.length), ca.length + cb.length);
}

/** Set bits of a 32-bit integer. */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The length of the longest common subsequence of a run of text and a fixed `b`, read after any
 * prefix of the run: Hyyrö's bit-parallel algorithm (2004) over 30-bit blocks of b's positions,
 * the TS twin of assembly/difflib.ts `lcsStart`/`lcsFeed`/`lcsZeros`. `start()` begins a run,
 * `feed(a, from, to)` reads a[from, to) (ids < `alphabetSize`, b's ids too), `length()` is the LCS
 * of everything fed since `start()` and b. Ids outside [0, alphabetSize), in a or b, match
 * nothing. An upper bound of difflib's matching total (its blocks lie in increasing order in
 * both sequences, so they form a common subsequence). Work: |a|·⌈|b|/30⌉ word steps.
 */
export interface LcsRun {
  start(): void;
  feed(a: ArrayLike<number>, from: number, to: number): void;
  length(): number;
  /**
   * `feed`, with a[i] matching only b's positions j in [i − down, i + up] (the band of
   * `lcsAtLeast`); blocks of b outside the band are not visited. Why that is the recurrence over
   * the banded matches: below the band's blocks the masks are 0 and the carry in is 0, so V is
   * unchanged and carries nothing; above them no row has had a match yet (the band's upper edge
   * only grows with i), so V is all ones there, and all ones plus a carry with a 0 mask stays all
   * ones and passes the carry on, out of the top: nothing to do.
   */
  feedBand(a: ArrayLike<number>, from: number, to: number, down: number, up: number): void;
  /** The LCS of everything fed since `start()` and b[0, j) (0 ≤ j ≤ |b|). */
  zerosBelow(j: number): number;
  /** |b|. */
  readonly lb: number;
  /**
   * The LCS of a sub-rectangle, a[aOff + alo, aOff + ahi) against b[blo, bhi) (it shares the
   * run's work space: read a fed run's `length` before calling it): Hyyrö's recurrence over only b's
   * blocks that meet [blo, bhi), with the position masks cut to the range. Why the cut is exact:
   * below blo, V starts at ones and the mask is 0, so those bits add 0 with no carry in — they
   * stay ones and carry nothing into the range; above bhi, bits change but carries run only
   * upward, so nothing reaches the range. The zeros of V inside the range are then the LCS of
   * b[blo, bhi), as if b were only that. The TS twin of assembly/difflib.ts `lcsRange`.
   * Work: (ahi-alo)·(blocks met) word steps.
   */
  range: RangeLcs;
}

export type RangeLcs = (a: ArrayLike<number>, aOff: number, alo: number, ahi: number, blo: number, bhi: number) => number;
/**
 * Bits of b a word of the TS run holds: 30, so that V + (V & PM) + carry stays an int32 (the
 * engine's fast integers; 32-bit words went through doubles at about twice the time). The
 * recurrence is Hyyrö's whatever the word size, so the LCS is the same.
 */
const LCS_WORD = 30;
const LCS_MASK = (1 << LCS_WORD) - 1;

/** The LCS of `a` and the run's b, fed whole: `start`, `feed(a, 0, a.length)`, `length`. */
export function lcsOf(run: LcsRun, a: ArrayLike<number>): number {
  run.start();
  run.feed(a, 0, a.length);
  return run.length();
}

/** Characters fed between two checks of `lcsAtLeast`'s early stop (assembly/lcs-bound.ts CHECK: the same). */
export const LCS_CHECK = 256;

/**
 * Whether LCS(a, b) of the run's b reaches `need`, and if so its value: the result is LCS(a, b)
 * when that is ≥ `need`, else a number below `need`. Two savings, each exact for that contract:
 *
 * - The band. Every pair (i, j) of a common subsequence of length L ≥ need (the k-th of L pairs
 *   has k − 1 pairs before it and L − k after it, in a and in b) satisfies
 *   i − j ≤ (|a| − L) ≤ |a| − need and j − i ≤ |b| − L ≤ |b| − need. So the LCS over only the
 *   matches with j in [i − (|a| − need), i + (|b| − need)] (`feedBand`) equals LCS(a, b) when that
 *   is ≥ need, and is ≤ LCS(a, b) < need otherwise (fewer matches). When need exceeds |a| or |b|
 *   no common subsequence reaches it: min(|a|, |b|) is returned.
 * - The early stop, checked every LCS_CHECK characters of a: after a[0, i) is fed, with
 *   r = |a| − i < |b| and j* = |b| − r, the (banded) LCS is ≤ L(j*) + r, L(j) the LCS of a[0, i)
 *   and b[0, j). Why: a common subsequence splits at a's position i into one of a[0, i) and
 *   b[0, j) and one of a[i, |a|) and b[j, |b|), for some j, so the LCS ≤ max_j L(j) + min(r, |b| − j).
 *   For j ≤ j*: L(j) ≤ L(j*) (L grows with j) and min ≤ r. For j > j*: L(j) ≤ L(j*) + (j − j*)
 *   (each character of b adds at most 1) and |b| − j = r − (j − j*). Both are ≤ L(j*) + r (the
 *   argument holds for any set of allowed matches, the band's too). L(j) is the number of zero
 *   bits among V's first j (Hyyrö's invariant), read by `zerosBelow`. Once that bound is below
 *   `need`, it is returned.
 *
 * The TS twin of assembly/lcs-bound.ts `lcsBounded` (the same band and checks, so the same numbers).
 */
export function lcsAtLeast(run: LcsRun, a: ArrayLike<number>, need: number): number {
  const la = a.length;
  const lb = run.lb;
  if (need > la || need > lb) return Math.min(la, lb);
  const down = la - need, up = lb - need;
  run.start();
  for (let from = 0; from < la; from += LCS_CHECK) {
    const to = Math.min(la, from + LCS_CHECK);
    run.feedBand(a, from, to, down, up);
    const left = la - to;
    if (left > 0 && left < lb) {
      const bound = run.zerosBelow(lb - left) + left;
      if (bound < need) return bound;
    }
  }
  return run.length();
}

export function createLcsRun(b: ArrayLike<number>, alphabetSize: number): LcsRun {
  const lb = b.length;
  const blocks = Math.max(1, Math.ceil(lb / LCS_WORD));
  const peq = new Int32Array(alphabetSize * blocks);
  for (let j = 0; j < lb; j++) if (b[j] >= 0 && b[j] < alphabetSize) peq[b[j] * blocks + Math.floor(j / LCS_WORD)] |= 1 << (j % LCS_WORD);
  const v = new Int32Array(blocks);
  return {
    start: () => v.fill(LCS_MASK),
    feed(a, from, to) {
      for (let i = from; i < to; i++) {
        if (!(a[i] >= 0 && a[i] < alphabetSize)) continue; // matches nothing: V unchanged
        const row = a[i] * blocks;
        let carry = 0;
        for (let k = 0; k < blocks; k++) {
          const vk = v[k];
          const pm = peq[row + k];
          if (pm === 0 && carry === 0) continue; // V unchanged in this block
          // vk, vk & pm < 2^30 and carry ≤ 1: the sum stays below 2^31, an int32
          const sum = vk + (vk & pm) + carry;
          carry = sum >>> LCS_WORD;
          v[k] = (sum & LCS_MASK) | (vk & ~pm);
        }
      }
    },
    feedBand(a, from, to, down, up) {
      for (let i = from; i < to; i++) {
        if (!(a[i] >= 0 && a[i] < alphabetSize)) continue; // matches nothing: V unchanged
        const jlo = Math.max(0, i - down);
        const jhi = Math.min(lb - 1, i + up);
        if (jlo > jhi) continue;
        const k0 = Math.floor(jlo / LCS_WORD);
        const k1 = Math.floor(jhi / LCS_WORD);
        const loMask = (LCS_MASK << (jlo - k0 * LCS_WORD)) & LCS_MASK;
        const top = jhi - k1 * LCS_WORD + 1; // 1..LCS_WORD bits of block k1 in the band
        const hiMask = top >= LCS_WORD ? LCS_MASK : (1 << top) - 1;
        const row = a[i] * blocks;
        let carry = 0;
        for (let k = k0; k <= k1; k++) {
          const vk = v[k];
          let pm = peq[row + k];
          if (k === k0) pm &= loMask;
          if (k === k1) pm &= hiMask;
          if (pm === 0 && carry === 0) continue; // V unchanged in this block
          const sum = vk + (vk & pm) + carry; // < 2^31, as in feed
          carry = sum >>> LCS_WORD;
          v[k] = (sum & LCS_MASK) | (vk & ~pm);
        }
      }
    },
    range(a, aOff, alo, ahi, blo, bhi) {
      if (alo >= ahi || blo >= bhi) return 0;
      const k0 = Math.floor(blo / LCS_WORD);
      const k1 = Math.floor((bhi - 1) / LCS_WORD);
      const loMask = (LCS_MASK << (blo - k0 * LCS_WORD)) & LCS_MASK;
      const top = bhi - k1 * LCS_WORD; // 1..LCS_WORD bits of block k1 in the range
      const hiMask = top >= LCS_WORD ? LCS_MASK : (1 << top) - 1;
      const mask = (k: number) => (k === k0 ? loMask : LCS_MASK) & (k === k1 ? hiMask : LCS_MASK);
      v.fill(LCS_MASK, k0, k1 + 1);
      for (let i = aOff + alo; i < aOff + ahi; i++) {
        const c = a[i];
        if (!(c >= 0 && c < alphabetSize)) continue;
        let carry = 0;
        for (let k = k0; k <= k1; k++) {
          const pm = peq[c * blocks + k] & mask(k);
          const vk = v[k];
          const sum = vk + (vk & pm) + carry; // < 2^31, as in feed
          carry = sum >>> LCS_WORD;
          v[k] = (sum & LCS_MASK) | (vk & ~pm);
        }
      }
      let zeros = 0;
      for (let k = k0; k <= k1; k++) zeros += popcount32(~v[k] & mask(k));
      return zeros;
    },
    length() {
      return this.zerosBelow(lb);
    },
    zerosBelow(j) {
      let zeros = 0;
      for (let k = 0; k * LCS_WORD < j; k++) {
        const bits = Math.min(LCS_WORD, j - k * LCS_WORD);
        zeros += popcount32(~v[k] & ((1 << bits) - 1));
      }
      return zeros;
    },
    lb,
  };
}

/**
 * `matchingCharacters`, given up as soon as the window's ratio is sure to be below `floor`:
 * returns -1 then, else difflib's M exactly. The same recursion; after each longest block, an
 * upper bound of the final M is `total + Σ LCS(r)` over the ranges r still to split (`lcs` gives
 * each range's LCS once, when it is pushed). Why it bounds M: the recursion's blocks inside a
 * pending range depend on that range's contents only (no junk), and they lie in increasing order
 * in both of its sides, so they form a common subsequence of the range: at most its LCS. Once
 * `ratioOf(bound, la + lb) < floor`, the final ratio — the same double expression over a smaller
 * or equal integer — is < floor too. Worst case as `matchingCharacters` plus the LCS runs.
 * With `lcs` null it never gives up: `matchingCharacters`. `first`, when given, is the root's longest block `longestMatch(a, aOff, 0, la, b, 0, lb)`
 * (the WASM scan finds it faster: assembly/difflib.ts `firstBlock`).
 */
export function matchingCharactersAbove(
  a: ArrayLike<number>, aOff: number, la: number,
  b: ArrayLike<number>, lb: number,
  scratch: MatchScratch, lcs: RangeLcs | null, floor: number, first: MatchBlock | null = null,
): number {
  if (scratch.prev.length < lb + 1) {
    scratch.prev = new Int32Array(lb + 1);
    scratch.cur = new Int32Array(lb + 1);
  }
  if (scratch.stack.length < 5 * (la + lb + 2)) scratch.stack = new Int32Array(5 * (la + lb + 2));
  const stack = scratch.stack;
  const length = la + lb;
  let top = 0;
  let total = 0;
  let pending = 0; // Σ LCS of the ranges on the stack
  stack[top++] = 0; stack[top++] = la; stack[top++] = 0; stack[top++] = lb; stack[top++] = 0;
  while (top > 0) {
    const l = stack[--top], bhi = stack[--top], blo = stack[--top], ahi = stack[--top], alo = stack[--top];
    pending -= l;
    // the root's longest block may be given (`first`: found by the caller with difflib's ties)
    const [i, j, k] = first ?? longestMatch(a, aOff, alo, ahi, b, blo, bhi, scratch);
    first = null;
    if (k === 0) continue;
    total += k;
    // without `lcs` (plain `matchingCharacters`): 1 marks a range to split, and nothing is given up
    const left = alo < i && blo < j ? (lcs ? lcs(a, aOff, alo, i, blo, j) : 1) : 0;
    const right = i + k < ahi && j + k < bhi ? (lcs ? lcs(a, aOff, i + k, ahi, j + k, bhi) : 1) : 0;
    pending += left + right;
    // the range of smaller LCS is split first (pushed last): the cheaper split (measured: less
    // work before giving up than larger first); the order never changes the total
    if (left > 0 && left > right) {
      stack[top++] = alo; stack[top++] = i; stack[top++] = blo; stack[top++] = j; stack[top++] = left;
    }
    if (right > 0) {
      stack[top++] = i + k; stack[top++] = ahi; stack[top++] = j + k; stack[top++] = bhi; stack[top++] = right;
    }
    if (left > 0 && left <= right) {
      stack[top++] = alo; stack[top++] = i; stack[top++] = blo; stack[top++] = j; stack[top++] = left;
    }
    if (ratioOf(total + pending, length) < floor) return -1;
  }
  return total;
}
