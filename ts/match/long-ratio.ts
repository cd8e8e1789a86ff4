/**
 * difflib's ratio for long texts: the same number as `sequenceRatio`
 * (`difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()` over code points), in time
 * near-linear in the texts when they are alike, where the dynamic programme of
 * ts/match/sequence-match.ts costs |a|·|b| per matching block (two 8,600-character versions of
 * one markdown section: ~1 s; here ~1 ms).
 *
 * The recursion is difflib's `get_matching_blocks` (longest block of the range, then the parts left
 * and right of it), so M, and the ratio, are those of the reference as long as each sub-problem's
 * longest block is the reference's: the longest, then the smallest i, then the smallest j. A large
 * sub-problem finds it with a suffix automaton of b[blo, bhi) and one pass over a[alo, ahi):
 *
 * - After reading a[i], the pass holds the longest suffix of a[alo, i] that occurs in b[blo, bhi),
 *   of length ℓ(i), and the automaton state holding it (the state of s·c is δ(state(s), c), and a
 *   suffix-link step keeps the longest string of the linked state). ℓ(i) is the largest k of the
 *   reference's DP row i (k = length of the common run ending at (i, j), over all j in range).
 * - The reference keeps the first (i, j) in row-major order with k > the best so far: the largest
 *   k, then the smallest end i (the smallest start, as k is fixed), then the smallest j. Here: the
 *   first i where ℓ(i) exceeds the best, and for it the first end in b of that string, the state's
 *   first end position (every string of a state has the same end positions; a clone inherits the
 *   first end of the state it splits).
 *
 * A small sub-problem (|a-range|·|b-range| ≤ 128·(|a-range| + |b-range|)) runs the reference's DP
 * (`longestMatch`), which is cheaper there. A large one first looks for a long block by sampled s-grams
 * (`longestSampled`: every s-th s-gram of the b range in a hash table, every window of the a range
 * looked up and extended to its maximal run), s halving from half the longest block the
 * sub-problem can hold (its parent's) down to SAMPLE_MIN: that finds the reference's block whenever
 * it is at least 2·s − 1 long (the proof is at `longestSampled`) in a few cheap passes, where the
 * automaton costs ~0.5 µs a character (two 105,000-character versions of one section, most of
 * whose sub-problems have blocks of thousands: ~3× less CPU); shorter blocks, and ranges full of
 * repeated s-grams (a budget of comparisons), go to the automaton. test/match/long-ratio.test.ts compares both with
 * `sequenceRatio` on random texts over small alphabets (many ties) and on real markdown sections,
 * with the sampled search at any least s down to 1, and compares it with the automaton alone on the
 * sections of ../shared/data's edit histories.
 */
import { codePoints, createMatchScratch, longestMatch, ratioOf, type MatchBlock, type MatchScratch } from "./sequence-match.js";

/** The DP for a sub-problem whose area is at most this many times its perimeter. */
const DP_FACTOR = 128;

/** A suffix automaton of one range of `b`, rebuilt per sub-problem in preallocated arrays. */
class Automaton {
  private len: Int32Array;
  private link: Int32Array;
  private first: Int32Array;
  private head: Int32Array;
  private next: Int32Array;
  private sym: Int32Array;
  private to: Int32Array;
  /**
   * Open-addressed (state, symbol) → edge index, four numbers a slot (stamp, state, symbol, edge:
   * one cache line per probe); a slot is live when its stamp is this build's.
   */
  private slots: Int32Array;
  private mask: number;
  private stamp = 0;
  private states = 0;
  private edgeCount = 0;
  private last = 0;

  constructor(readonly capacity: number) {
    const states = 2 * capacity + 2;
    const edges = 3 * capacity + 8;
    this.len = new Int32Array(states);
    this.link = new Int32Array(states);
    this.first = new Int32Array(states);
    this.head = new Int32Array(states);
    this.next = new Int32Array(edges);
    this.sym = new Int32Array(edges);
    this.to = new Int32Array(edges);
    let size = 16;
    while (size < 2 * edges) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size * 4);
  }

  /** The edge of (state, c), or -1. */
  private edge(state: number, c: number): number {
    const { slots, mask, stamp } = this;
    let h = (Math.imul(state, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b)) & mask;
    while (slots[h << 2] === stamp) {
      if (slots[(h << 2) + 1] === state && slots[(h << 2) + 2] === c) return slots[(h << 2) + 3];
      h = (h + 1) & mask;
    }
    return -1;
  }

  private newState(length: number, link: number, first: number): number {
    const s = this.states++;
    this.len[s] = length;
    this.link[s] = link;
    this.first[s] = first;
    this.head[s] = -1;
    return s;
  }

  private addEdge(state: number, c: number, target: number): void {
    const e = this.edgeCount++;
    this.sym[e] = c;
    this.to[e] = target;
    this.next[e] = this.head[state];
    this.head[state] = e;
    const { slots, mask, stamp } = this;
    let h = (Math.imul(state, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b)) & mask;
    while (slots[h << 2] === stamp) h = (h + 1) & mask;
    slots[h << 2] = stamp;
    slots[(h << 2) + 1] = state;
    slots[(h << 2) + 2] = c;
    slots[(h << 2) + 3] = e;
  }

  /** Build over b[blo, bhi) (at most `capacity` elements). */
  build(b: ArrayLike<number>, blo: number, bhi: number): void {
    if (++this.stamp === 0x7fffffff) {
      this.slots.fill(0);
      this.stamp = 1;
    }
    this.states = 0;
    this.edgeCount = 0;
    this.last = this.newState(0, -1, -1);
    const { len, link, to } = this;
    for (let pos = 0; pos < bhi - blo; pos++) {
      const c = b[blo + pos];
      const cur = this.newState(len[this.last] + 1, 0, pos);
      let p = this.last;
      let e = -1;
      while (p !== -1 && (e = this.edge(p, c)) === -1) {
        this.addEdge(p, c, cur);
        p = link[p];
      }
      if (p !== -1) {
        const q = to[e];
        if (len[p] + 1 === len[q]) link[cur] = q;
        else {
          const clone = this.newState(len[p] + 1, link[q], this.first[q]);
          for (let f = this.head[q]; f !== -1; f = this.next[f]) this.addEdge(clone, this.sym[f], to[f]);
          while (p !== -1) {
            const f = this.edge(p, c);
            if (to[f] !== q) break;
            to[f] = clone;
            p = link[p];
          }
          link[q] = clone;
          link[cur] = clone;
        }
      }
      this.last = cur;
    }
  }

  /** The reference's longest block of a[alo, ahi) and the built range of b (starting at blo). */
  longest(a: ArrayLike<number>, alo: number, ahi: number, blo: number): MatchBlock {
    const { len, link, to, first } = this;
    let v = 0;
    let l = 0;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    for (let i = alo; i < ahi; i++) {
      const c = a[i];
      let e = this.edge(v, c);
      while (e === -1 && v !== 0) {
        v = link[v];
        l = len[v];
        e = this.edge(v, c);
      }
      if (e === -1) {
        l = 0;
        continue;
      }
      v = to[e];
      l++;
      if (l > bestsize) {
        bestsize = l;
        besti = i - l + 1;
        bestj = blo + first[v] - l + 1;
      }
    }
    return [besti, bestj, bestsize];
  }
}

/** `longestSampled` spent its budget (many equal s-grams): the caller searches another way. */
const GAVE_UP: MatchBlock = [-1, -1, -1];

/**
 * The reference's longest block of a[alo, ahi) × b[blo, bhi) when it is at least 2·s − 1 long, by
 * sampled s-grams of b; null when it is shorter (or the search gave up: `budget` character
 * comparisons spent), the caller then searches another way.
 *
 * Why it is the reference's block: let (i, j, K) be a common block with K ≥ 2s − 1. The positions
 * p ≡ blo (mod s) with j ≤ p ≤ j + K − s form a range of K − s + 1 ≥ s integers, so one exists:
 * b[p, p + s) is a sampled s-gram and a[i + p − j, … + s) equals it. The scan below looks every
 * window of a up in the table of sampled s-grams (by hash, then compared character by character),
 * and extends each equal pair to its maximal run on its diagonal (left to alo/blo, right to
 * ahi/bhi). A longest block of the ranges is a maximal run (else a longer one exists), so when the
 * longest K ≥ 2s − 1 every occurrence (i, j) of length K is met as a run, and the one kept — the
 * longest, then the smallest i, then the smallest j — is the reference's (difflib's documented
 * choice, the DP's and the automaton's). When the longest run met is shorter than 2s − 1 nothing is
 * claimed (a run of that length elsewhere may have no sampled s-gram): null.
 */
function longestSampled(
  a: ArrayLike<number>, alo: number, ahi: number, b: ArrayLike<number>, blo: number, bhi: number,
  s: number, budget: number,
): MatchBlock | null {
  const na = ahi - alo, nb = bhi - blo;
  if (s < 1 || na < s || nb < s) return null;
  const count = Math.floor((nb - s) / s) + 1;
  let size = 16, shift = 28;
  while (size < 2 * count) {
    size *= 2;
    shift--;
  }
  const mask = size - 1;
  const slotPos = new Int32Array(size).fill(-1);
  const slotHash = new Int32Array(size);
  // polynomial hash mod 2^32 of an s-gram; BASE^(s−1) to roll it
  const BASE = 0x01000193;
  let top = 1;
  for (let t = 1; t < s; t++) top = Math.imul(top, BASE);
  const hashAt = (x: ArrayLike<number>, from: number): number => {
    let h = 0;
    for (let t = 0; t < s; t++) h = (Math.imul(h, BASE) + x[from + t]) | 0;
    return h;
  };
  const slotOf = (h: number): number => Math.imul(h, 0x9e3779b1) >>> shift; // the product's high bits
  for (let p = blo; p + s <= bhi; p += s) {
    const h = hashAt(b, p);
    let k = slotOf(h);
    while (slotPos[k] !== -1) k = (k + 1) & mask;
    slotPos[k] = p;
    slotHash[k] = h;
  }
  let besti = alo, bestj = blo, bestsize = 0;
  let spent = 0;
  // the run met last on each diagonal (i − j): its end in a, to skip hits inside it
  const runEnd = new Map<number, number>();
  let h = hashAt(a, alo);
  for (let i = alo; ; i++) {
    for (let k = slotOf(h); slotPos[k] !== -1; k = (k + 1) & mask) {
      if (slotHash[k] !== h) continue;
      const p = slotPos[k];
      const d = i - p;
      const end = runEnd.get(d);
      if (end !== undefined && i < end) continue; // inside a run already extended
      let x = 0;
      while (x < s && a[i + x] === b[p + x]) x++;
      spent += x + 1;
      if (x < s) continue; // equal hashes, different s-grams
      let lo = 0;
      while (i - lo > alo && p - lo > blo && a[i - lo - 1] === b[p - lo - 1]) lo++;
      let hi = s;
      while (i + hi < ahi && p + hi < bhi && a[i + hi] === b[p + hi]) hi++;
      spent += lo + hi;
      runEnd.set(d, i + hi);
      const size = lo + hi, ri = i - lo, rj = p - lo;
      if (size > bestsize || (size === bestsize && (ri < besti || (ri === besti && rj < bestj)))) {
        besti = ri; bestj = rj; bestsize = size;
      }
    }
    if (spent > budget) return GAVE_UP;
    if (i + s >= ahi) break;
    h = (Math.imul(h - Math.imul(a[i], top), BASE) + a[i + s]) | 0;
  }
  return bestsize >= 2 * s - 1 ? [besti, bestj, bestsize] : null;
}

/** Sampled s-grams are tried down to this s (runs of 2·s − 1); shorter blocks go to the automaton. */
const SAMPLE_MIN = 24;

/**
 * The DP rows the calls share (`longestMatch` clears what it reads first), grown to the longest `b`
 * seen: a call allocates nothing for them (a 100,000-character pair had spent ~1 MB a call).
 */
let sharedScratch: MatchScratch | null = null;

function dpScratch(lb: number): MatchScratch {
  if (!sharedScratch || sharedScratch.prev.length < lb + 1) sharedScratch = createMatchScratch(Math.max(lb, 1024), 0);
  return sharedScratch;
}

/** The automaton the calls share (grown to the longest range of `b` built over, up to SHARED_MAX elements, ~8 MB; one call runs at a time). */
let shared: Automaton | null = null;
const SHARED_MAX = 1 << 16;

/**
 * The M of difflib's ratio (total size of the matching blocks) of two code-point arrays, `a`
 * difflib's seq1 and `b` its seq2: `matchingCharacters(a, 0, a.length, b, b.length)`'s value.
 * With `atLeast` > 0 it may stop early, returning a number below `atLeast`, once M cannot reach
 * `atLeast`: the blocks found so far plus, for each part still to search, the shorter of its two
 * ranges (no part can match more) is an upper bound of M. `dpFactor` (tests only) moves the line
 * between the DP and the automaton; 0 = the automaton always.
 */
export function matchingCharactersLong(
  a: ArrayLike<number>, b: ArrayLike<number>, atLeast = 0, dpFactor = DP_FACTOR, sampleMin = SAMPLE_MIN,
): number {
  const la = a.length;
  const lb = b.length;
  let automaton: Automaton | null = null;
  // sub-problems: alo, ahi, blo, bhi, and a bound of their longest block (the parent's: a
  // sub-problem's ranges lie inside its parent's, so its blocks are no longer)
  const stack: number[] = [0, la, 0, lb, Math.min(la, lb)];
  let total = 0;
  // the sum over `stack` of min(|a-range|, |b-range|)
  let pending = Math.min(la, lb);
  while (stack.length) {
    if (total + pending < atLeast) return total + pending;
    const cap = stack.pop()!, bhi = stack.pop()!, blo = stack.pop()!, ahi = stack.pop()!, alo = stack.pop()!;
    const na = ahi - alo, nb = bhi - blo;
    pending -= Math.min(na, nb);
    let block: MatchBlock | null = null;
    if (na * nb <= dpFactor * (na + nb)) block = longestMatch(a, 0, alo, ahi, b, blo, bhi, dpScratch(lb));
    else {
      // long blocks first by sampled s-grams (s halving from the largest that could fit), then the automaton
      for (let s = Math.floor((Math.min(cap, na, nb) + 1) / 2); s >= sampleMin && !block; s = Math.floor(s / 2)) {
        block = longestSampled(a, alo, ahi, b, blo, bhi, s, 4 * (na + nb) + 1024);
      }
      if (block === GAVE_UP) block = null; // too many equal s-grams (repeats): the automaton
    }
    if (!block) {
      // sized to this sub-problem's range of b, which is all it builds over (a long b's first
      // sub-problems usually find their block by sampling; the automaton's are far shorter)
      if (!automaton || automaton.capacity < nb) {
        if (nb > SHARED_MAX) automaton = new Automaton(nb);
        else {
          if (!shared || shared.capacity < nb) shared = new Automaton(Math.max(nb, 1024));
          automaton = shared;
        }
      }
      automaton.build(b, blo, bhi);
      block = automaton.longest(a, alo, ahi, blo);
    }
    const [i, j, k] = block;
    if (k === 0) continue;
    total += k;
    if (alo < i && blo < j) {
      stack.push(alo, i, blo, j, k);
      pending += Math.min(i - alo, j - blo);
    }
    if (i + k < ahi && j + k < bhi) {
      stack.push(i + k, ahi, j + k, bhi, k);
      pending += Math.min(ahi - i - k, bhi - j - k);
    }
  }
  return total;
}

/** `sequenceRatio(a, b)`, the same double, through `matchingCharactersLong`. */
export function longSequenceRatio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  return ratioOf(matchingCharactersLong(ca, cb), ca.length + cb.length);
}
