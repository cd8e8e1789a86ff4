/** The q-gram filter of the best-first search (`searchBest` (j)): a hash index of the texts' 4-grams and the sliding window over the quote's grams' bases. */
import { firstAtLeast, tuning } from "./tuning.js";
import { type IndexedQuote, type IndexedText, type PostedText } from "./types.js";

/**
 * The index's character q-grams (`searchBest` (j)): for every position p of `chars` with p + GRAM_Q ≤
 * C, p is listed under the hash of chars[p, p + GRAM_Q) (`gramHash`, 2^GRAM_BITS buckets; positions
 * ascending within a bucket). Two grams may share a bucket: a bucket's list is a superset of each
 * gram's occurrences, which is all the filter needs. Built on the first search that uses it
 * (measured for the bundled books' 4.48 M characters: ~125–200 ms CPU on the shared machine, and
 * 4·C + 2^(GRAM_BITS+2) bytes, 19 MB, kept; 4·C more while building); `keys`, `grams` (and their
 * second copies) are the filter's scratch, 10 bytes an entry, grown to the most entries a search has
 * listed (when the cost guess is on, ≤ C/GRAM_SHARE entries: ≤ 2.8 MB for the books).
 */
interface GramIndex {
  start: Int32Array;
  positions: Int32Array;
  /** The filter's entries (keys and grams, and a second copy of each for the counting pass), grown as needed: scratch. */
  /** `gramEntriesNear`'s scratch: each cell's mask of grams, and the kept entries packed (key·32 + gram). */
  masks: Int32Array;
  packed: Float64Array;
  keys: Int32Array;
  keys2: Int32Array;
  grams: Uint8Array;
  grams2: Uint8Array;
}

/** The q of the q-gram filter, and its hash table's bits. */
const GRAM_Q = 4;
const GRAM_BITS = 18;

/** The bucket of the gram a[p, p + GRAM_Q) (a hash of four ids: collisions only lengthen lists). */
export function gramHash(a: Int32Array, p: number): number {
  const h = Math.imul(a[p], 0x9e3779b1) ^ Math.imul(a[p + 1], 0x85ebca77) ^ Math.imul(a[p + 2], 0xc2b2ae3d) ^ Math.imul(a[p + 3], 0x27d4eb2f);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - GRAM_BITS);
}

const gramIndexes = new WeakMap<Int32Array, GramIndex>();
/** The GramIndex of `ix`, built on first use (a counting sort of the C positions by bucket: two passes). */
export function gramIndexOf(ix: IndexedText): GramIndex {
  let got = gramIndexes.get(ix.chars);
  if (got) return got;
  const { chars } = ix;
  const n = Math.max(0, chars.length - GRAM_Q + 1);
  const hashes = new Int32Array(n);
  const start = new Int32Array((1 << GRAM_BITS) + 1);
  for (let p = 0; p < n; p++) {
    const h = gramHash(chars, p);
    hashes[p] = h;
    start[h + 1]++;
  }
  for (let h = 0; h < 1 << GRAM_BITS; h++) start[h + 1] += start[h];
  const positions = new Int32Array(n);
  const fill = start.slice(0, 1 << GRAM_BITS);
  for (let p = 0; p < n; p++) positions[fill[hashes[p]]++] = p;
  got = { start, positions, keys: new Int32Array(0), keys2: new Int32Array(0), grams: new Uint8Array(0), grams2: new Uint8Array(0), masks: new Int32Array(0), packed: new Float64Array(0) };
  gramIndexes.set(ix.chars, got);
  return got;
}

/** At most this many pieces (a Uint8 per entry would hold 255; 31 keeps the DP and the choice of P small). */
const GRAM_MAX_PIECES = 31;

/**
 * The q-gram filter of `searchBest` (j): the word ranges (pairs [from, to), each inside one source,
 * ascending) that hold every window with indel distance ≤ D to the quote, from the GramIndex's lists
 * of P disjoint grams of the quote; null when it declines (no P fits, or its work or its ranges
 * would exceed the budget: the caller's other ways then run). `maxRanges`: the most ranges worth
 * verifying.
 */
export function gramRanges(ix: PostedText, quote: IndexedQuote, D: number, onlySource: number, maxRanges: number): number[] | null {
  const b = quote.ids;
  const lb = b.length;
  const C = ix.chars.length;
  const Pmax = Math.min(GRAM_MAX_PIECES, Math.floor(lb / GRAM_Q));
  if (D + 1 > Pmax || C < GRAM_Q) return null;
  const gi = gramIndexOf(ix);
  const { start, positions } = gi;
  // each gram's list length (0 for a gram holding a character the texts lack: it occurs nowhere)
  const grams = lb - GRAM_Q + 1;
  const bucket = new Int32Array(grams).fill(-1);
  const cnt = new Float64Array(grams);
  for (let x = 0; x < grams; x++) {
    let known = true;
    for (let t = 0; t < GRAM_Q; t++) if (b[x + t] >= ix.alphabetSize) known = false;
    if (!known) continue;
    bucket[x] = gramHash(b, x);
    cnt[x] = start[bucket[x] + 1] - start[bucket[x]];
  }
  // f[j·(lb+1) + i]: the least total list length of j disjoint grams inside b[0, i)
  const W = lb + 1;
  const f = new Float64Array((Pmax + 1) * W).fill(Infinity);
  for (let i = 0; i <= lb; i++) f[i] = 0;
  for (let j = 1; j <= Pmax; j++) {
    for (let i = GRAM_Q; i <= lb; i++) {
      const take = f[(j - 1) * W + i - GRAM_Q] + cnt[i - GRAM_Q];
      const skip = f[j * W + i - 1];
      f[j * W + i] = take < skip ? take : skip;
    }
  }
  // P: the least work, lists plus survivors guessed as if entries fell at random (one of the
  // (C + lb)/(D + 1) disjoint spans of D + 1 keys holding ≥ P − D of them: a Poisson tail; the real
  // text's near copies add some)
  const spans = (C + lb) / (D + 1);
  let P = -1, best = Infinity;
  for (let p = D + 1; p <= Pmax; p++) {
    const entries = f[p * W + lb];
    if (entries === Infinity) break;
    const lambda = entries / spans;
    let term = Math.exp(-lambda), tail = 0;
    for (let t = 0; t < p - D + 40; t++) {
      if (t >= p - D) tail += term;
      term *= lambda / (t + 1);
    }
    const work = entries + tuning.gramSurvivorCost * spans * tail;
    if (work < best) {
      best = work;
      P = p;
    }
  }
  if (P < 0 || best * tuning.gramShare > C) return null;
  // the chosen grams' first characters x_k in b
  const xs: number[] = [];
  for (let i = lb, j = P; j > 0; ) {
    if (i >= GRAM_Q && f[j * W + i] === f[(j - 1) * W + i - GRAM_Q] + cnt[i - GRAM_Q]) {
      xs.push(i - GRAM_Q);
      i -= GRAM_Q;
      j--;
    } else i--;
  }
  const need = P - D;
  // the entries: every listed position y of gram k as its base y − x_k, offset by lb (≥ 0), sorted
  // (only those a passing window could hold, `gramEntriesNear`: the same ranges as all of them,
  // `gramEntriesSorted`, give)
  let total = 0;
  for (let k = 0; k < P; k++) if (bucket[xs[k]] >= 0) total += cnt[xs[k]];
  const { keys, grams: gk, count } = gramEntriesNear(gi, xs, bucket, lb, C + lb, D, need, total);
  // the sliding window: at each entry hi (key K), the entries with keys in [K − D, K]; when they
  // hold ≥ need distinct grams, every window whose intact grams have K as their greatest base (+ lb)
  // lies in characters [K − lb − D, K + D) ((j): s ≥ B_max − D, s + la ≤ B_min + lb + D ≤ K + D);
  // overlapping such intervals merged
  const inWindow = new Int32Array(P);
  const chars: number[] = [];
  let distinct = 0, lo = 0, curFrom = 0, curTo = -1;
  for (let hi = 0; hi < count; hi++) {
    const K = keys[hi];
    if (inWindow[gk[hi]]++ === 0) distinct++;
    while (keys[lo] < K - D) if (--inWindow[gk[lo++]] === 0) distinct--;
    if (distinct < need) continue;
    const from = K - lb - D, to = K + D;
    if (from <= curTo) {
      if (to > curTo) curTo = to;
      continue;
    }
    if (curTo >= 0) chars.push(curFrom, curTo);
    if (chars.length > 2 * maxRanges) return null;
    curFrom = from;
    curTo = to;
  }
  if (curTo >= 0) chars.push(curFrom, curTo);
  if (chars.length > 2 * maxRanges) return null;
  // each interval's words: starting at ≥ its first character and ending (exclusive end) by its end,
  // cut at the sources' edges (a window is inside one source)
  const { charStart, charEnd, wordSource, sourceWords } = ix;
  const words = charStart.length;
  const ranges: number[] = [];
  for (let r = 0; r < chars.length; r += 2) {
    const from = firstAtLeast(charStart, 0, words, chars[r]);
    const to = firstAtLeast(charEnd, from, words, chars[r + 1] + 1);
    for (let w = from; w < to; ) {
      const s = wordSource[w];
      const e = Math.min(to, sourceWords[s + 1]);
      if (onlySource < 0 || s === onlySource) ranges.push(w, e);
      w = e;
    }
  }
  return ranges;
}

/** `gramEntriesNear` sorts the kept entries itself only when ≤ 1/this of all are kept, else all by `gramEntriesSorted`. */
const GRAM_NEAR_FALLBACK = 4;

/** The number of set bits of the 32-bit `m` (SWAR). */
function popCount(m: number): number {
  m -= (m >>> 1) & 0x55555555;
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return Math.imul((m + (m >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The q-gram filter's entries that a passing window could hold, sorted by key (then gram): of the
 * entries `gramEntriesSorted` lists (every position y in the bucket of gram k, offset xs[k] in b,
 * buckets < 0 skipped, as the key y − xs[k] + lb in [0, limit)), those in a cell (2^shift keys,
 * 2^shift ≥ D + 1, and at most ~2·total cells) that, with a neighbouring cell, holds ≥ `need` distinct
 * grams; `count` of them, in keys[0, count) and grams[0, count) (scratch in `gi`, valid until the
 * next search). `total` = the number of entries. When more than total/GRAM_NEAR_FALLBACK are kept,
 * it returns all entries instead (`gramEntriesSorted`, count = total: the same windows pass), and
 * so it does at once below tuning.gramNearMin entries.
 *
 * Why the sliding window of `gramRanges` gives the same ranges on these as on all entries: its
 * window at an entry of key K holds the entries with keys in [K − D, K], a span of D + 1 ≤ 2^shift
 * keys, so inside cells c − 1 and c (c = K's cell), and its distinct grams are ≤ the set bits of
 * those cells' masks. When those are < need, the window fails over all entries and over any subset
 * (it is then no matter which entries are kept); when ≥ need, both cells are kept whole, so the
 * window over the kept entries is the window over all. A dropped entry's own window fails (its
 * cells c − 1, c are < need, else it were kept). So the windows that pass, and their keys, are the
 * same; ties (one key, several grams) come in gram order, as in `gramEntriesSorted`, though the
 * ranges do not depend on it (a key's last entry sees its whole window).
 *
 * Cost: two passes over the lists (a mask OR, then a test), random access into ≤ 2·total Int32
 * cells, then a sort of the kept entries only (few, unless the text holds many near copies or a
 * run of one character; past total/GRAM_NEAR_FALLBACK the counting sort of all is cheaper: the
 * Float64Array sort costs more an entry than its counting pass).
 */
export function gramEntriesNear(
  gi: GramIndex, xs: number[], bucket: Int32Array, lb: number, limit: number, D: number, need: number, total: number,
): { keys: Int32Array; grams: Uint8Array; count: number } {
  if (total < tuning.gramNearMin) return { ...gramEntriesSorted(gi, xs, bucket, total, lb, limit), count: total };
  let shift = 0;
  while (1 << shift < D + 1 || limit >>> shift > 2 * Math.max(1, total)) shift++;
  const cells = (limit - 1 >>> shift) + 1;
  // masks[c + 1]: the grams with an entry in cell c (masks[0] and masks[cells + 1] stay 0)
  if (gi.masks.length < cells + 2) gi.masks = new Int32Array(cells + 2);
  const { masks, start, positions } = gi;
  masks.fill(0, 0, cells + 2);
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    const bit = 1 << k, off = lb - x;
    for (let o = start[h], z = start[h + 1]; o < z; o++) masks[(positions[o] + off >>> shift) + 1] |= bit;
  }
  // the kept entries, packed (key·32 + gram is exact in a double: key < 2^31, gram < 32) and sorted
  if (gi.packed.length < total) gi.packed = new Float64Array(Math.max(total, 2 * gi.packed.length));
  const { packed } = gi;
  let count = 0;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    const off = lb - x;
    for (let o = start[h], z = start[h + 1]; o < z; o++) {
      const key = positions[o] + off, c = (key >>> shift) + 1, m = masks[c];
      if (popCount(m | masks[c - 1]) >= need || popCount(m | masks[c + 1]) >= need) packed[count++] = key * 32 + k;
    }
  }
  // most kept (a weak need, or near copies everywhere): the counting sort of all is the cheaper
  if (count > total / GRAM_NEAR_FALLBACK) return { ...gramEntriesSorted(gi, xs, bucket, total, lb, limit), count: total };
  packed.subarray(0, count).sort();
  growGramScratch(gi, count);
  const { keys, grams } = gi;
  for (let i = 0; i < count; i++) {
    const v = packed[i], key = Math.floor(v / 32);
    keys[i] = key;
    grams[i] = v - key * 32;
  }
  return { keys, grams, count };
}

/** Grow `gi`'s scratch (keys, grams and their second copies) to hold `n` entries, at least doubling. */
function growGramScratch(gi: GramIndex, n: number): void {
  if (gi.keys.length >= n) return;
  const room = Math.max(n, 2 * gi.keys.length);
  gi.keys = new Int32Array(room);
  gi.keys2 = new Int32Array(room);
  gi.grams = new Uint8Array(room);
  gi.grams2 = new Uint8Array(room);
}

/** Slots of `gramEntriesSorted` up to this many entries are sorted by insertion (≤ 32²/2 moves). */
const GRAM_SLOT_INSERTION = 32;

/**
 * The q-gram filter's entries sorted by key: every position y in the bucket of gram k (offset
 * xs[k] in b; buckets < 0 are skipped) as the key y − xs[k] + lb (in [0, limit)), with k beside it;
 * `total` = the number of entries. One counting pass on the key's high bits (2^shift keys a slot,
 * about one entry a slot on average) puts every entry in its slot, then each slot is sorted (by
 * insertion when short: O(total) for the books' lists; a slot of many is sorted as packed doubles).
 * The scratch arrays stay in `gi` between searches. `gramRanges` now takes `gramEntriesNear` (the
 * entries a passing window could hold); this, all of them, is its reference in the tests.
 */
export function gramEntriesSorted(
  gi: GramIndex, xs: number[], bucket: Int32Array, total: number, lb: number, limit: number,
): { keys: Int32Array; grams: Uint8Array } {
  growGramScratch(gi, total);
  const { keys, keys2, grams, grams2, start, positions } = gi;
  let shift = 0;
  while (limit >>> shift > Math.max(1, total)) shift++;
  const slots = (limit - 1 >>> shift) + 1;
  const at = new Int32Array(slots + 1);
  // the entries, gram by gram, counted by slot
  let e = 0;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k], h = bucket[x];
    if (h < 0) continue;
    for (let o = start[h], z = start[h + 1]; o < z; o++) {
      const key = positions[o] - x + lb;
      keys2[e] = key;
      grams2[e++] = k;
      at[(key >>> shift) + 1]++;
    }
  }
  for (let t = 1; t <= slots; t++) at[t] += at[t - 1];
  for (let i = 0; i < total; i++) {
    const t = at[keys2[i] >>> shift]++;
    keys[t] = keys2[i];
    grams[t] = grams2[i];
  }
  // each slot sorted in place (slot t is [at[t − 1], at[t]) now): by insertion up to
  // GRAM_SLOT_INSERTION entries, else (a long run of one character, say) packed and sorted
  for (let t = 0, lo = 0; t < slots; lo = at[t++]) {
    const hi = at[t];
    if (hi - lo <= GRAM_SLOT_INSERTION) {
      for (let i = lo + 1; i < hi; i++) {
        const key = keys[i];
        if (keys[i - 1] <= key) continue;
        const g = grams[i];
        let j = i - 1;
        while (j >= lo && keys[j] > key) {
          keys[j + 1] = keys[j];
          grams[j + 1] = grams[j];
          j--;
        }
        keys[j + 1] = key;
        grams[j + 1] = g;
      }
    } else {
      // key·32 + gram is exact in a double (key < 2^31, gram < 32)
      const packed = new Float64Array(hi - lo);
      for (let i = lo; i < hi; i++) packed[i - lo] = keys[i] * 32 + grams[i];
      packed.sort();
      for (let i = lo; i < hi; i++) {
        const v = packed[i - lo];
        keys[i] = Math.floor(v / 32);
        grams[i] = v - keys[i] * 32;
      }
    }
  }
  return { keys, grams };
}
