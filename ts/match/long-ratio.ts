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
 * (`longestMatch`), which is cheaper there. test/match/long-ratio.test.ts compares both with
 * `sequenceRatio` on random texts over small alphabets (many ties) and on real markdown sections.
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

/** The automaton the calls share (grown to the longest `b` seen, up to SHARED_MAX elements, ~8 MB; one call runs at a time). */
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
export function matchingCharactersLong(a: ArrayLike<number>, b: ArrayLike<number>, atLeast = 0, dpFactor = DP_FACTOR): number {
  const la = a.length;
  const lb = b.length;
  const scratch: MatchScratch = createMatchScratch(lb, la + lb);
  let automaton: Automaton | null = null;
  const stack: number[] = [0, la, 0, lb];
  let total = 0;
  // the sum over `stack` of min(|a-range|, |b-range|)
  let pending = Math.min(la, lb);
  while (stack.length) {
    if (total + pending < atLeast) return total + pending;
    const bhi = stack.pop()!, blo = stack.pop()!, ahi = stack.pop()!, alo = stack.pop()!;
    const na = ahi - alo, nb = bhi - blo;
    pending -= Math.min(na, nb);
    let block: MatchBlock;
    if (na * nb <= dpFactor * (na + nb)) block = longestMatch(a, 0, alo, ahi, b, blo, bhi, scratch);
    else {
      if (!automaton) {
        if (lb > SHARED_MAX) automaton = new Automaton(lb);
        else {
          if (!shared || shared.capacity < lb) shared = new Automaton(Math.max(lb, 1024));
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
      stack.push(alo, i, blo, j);
      pending += Math.min(i - alo, j - blo);
    }
    if (i + k < ahi && j + k < bhi) {
      stack.push(i + k, ahi, j + k, bhi);
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
