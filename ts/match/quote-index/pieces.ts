/** The pigeonhole filter's pieces (`searchBest` (c)–(e)): which words of the quote to look up, and the suffix index for SUFFIX pieces. */
import { MAX_PIECE_WORDS } from "./tuning.js";
import { type IndexedText, type PostedText } from "./types.js";

/** A piece of the quote for the pigeonhole filter: words [first, last] (0-based) and its kind. */
export type Piece = [first: number, last: number, kind: number];
/** "␣k_i … k_j␣": whole words at consecutive text words (1 ≤ i ≤ j ≤ n−2). */
const WHOLE = 0;
/** "k_i␣": a text word ending in k_i (one word, 0 ≤ i ≤ n−2). */
export const SUFFIX = 1;

/**
 * Disjoint pieces of the quote for the pigeonhole filter (`searchBest` (d)): `want` pieces, each
 * either WHOLE words [i, j] (1 ≤ i ≤ j ≤ n−2, at most MAX_PIECE_WORDS words: "␣k_i … k_j␣", both
 * delimiting spaces inside it) or, when `suffixCost` is given, the SUFFIX piece of one word i
 * (0 ≤ i ≤ n−2: "k_i␣", the space after it inside it); no two pieces share a space (each of the
 * n − 1 spaces is in at most one piece), so two WHOLE pieces have a word between them, and at
 * most n − 1 pieces fit. Minimizes Σ cost (the pieces' occurrences). Each entry is [i, j, kind];
 * null when impossible. Ties: skipping a word first, then SUFFIX, then the shorter WHOLE piece.
 * O(n·MAX_PIECE_WORDS·want) time, n ≤ MAX_QUOTE_WORDS.
 */
export function choosePieces(
  n: number, want: number, cost: (i: number, j: number) => number, suffixCost?: (i: number) => number,
): { cost: number; list: Piece[] } | null {
  if (want < 1 || n < 2) return null;
  // best[c][f][i]: least cost of c pieces inside words [i, n−1] when the space before word i is
  // taken (f = 1) or free (f = 0); choice: -2 skip word i, -1 its SUFFIX piece, j ≥ i WHOLE [i, j]
  const best: Float64Array[][] = [];
  const choice: Int32Array[][] = [];
  for (let c = 0; c <= want; c++) {
    best.push([0, 1].map(() => new Float64Array(n + 1).fill(c === 0 ? 0 : Infinity)));
    choice.push([0, 1].map(() => new Int32Array(n + 1).fill(-2)));
  }
  const suffix = new Float64Array(n).fill(Infinity);
  if (suffixCost) for (let i = 0; i + 1 < n; i++) suffix[i] = suffixCost(i);
  for (let c = 1; c <= want; c++) {
    for (let i = n - 1; i >= 0; i--) {
      for (let f = 0; f <= 1; f++) {
        let b = best[c][0][i + 1], ch = -2;
        if (i + 1 < n && suffix[i] + best[c - 1][1][i + 1] < b) {
          b = suffix[i] + best[c - 1][1][i + 1];
          ch = -1;
        }
        if (f === 0 && i >= 1) {
          for (let j = i; j <= n - 2 && j < i + MAX_PIECE_WORDS; j++) {
            const rest = best[c - 1][1][j + 1];
            if (rest === Infinity) break; // a longer first piece leaves even less room
            const total = cost(i, j) + rest;
            if (total < b) {
              b = total;
              ch = j;
            }
          }
        }
        best[c][f][i] = b;
        choice[c][f][i] = ch;
      }
    }
  }
  if (best[want][0][0] === Infinity) return null;
  const list: Piece[] = [];
  for (let c = want, i = 0, f = 0; c > 0; ) {
    const j = choice[c][f][i];
    if (j === -2) {
      i++;
      f = 0;
      continue;
    }
    if (j === -1) list.push([i, i, SUFFIX]);
    else list.push([i, j, WHOLE]);
    i = j === -1 ? i + 1 : j + 1;
    f = 1;
    c--;
  }
  return { cost: best[want][0][0], list };
}

/** The index's word keys, reversed (by code point) and sorted, for the filter's SUFFIX pieces. */
export interface SuffixIndex {
  /** Vocabulary id and key length (characters) at each sorted place. */
  ids: Int32Array;
  keyLength: Int32Array;
  /** Occurrences of the ids before each sorted place (length + 1). */
  cumulative: Float64Array;
  /** Sorted places [lo, hi) of the keys ending in `key`. */
  range(key: string): [number, number];
}

/** `s` reversed by code point (a surrogate pair stays in order), and its length in code points. */
function reverseCodePoints(s: string): [string, number] {
  let r = "";
  let length = 0;
  for (let i = s.length - 1; i >= 0; i--, length++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c < 0xe000 && i > 0) {
      const h = s.charCodeAt(i - 1);
      if (h >= 0xd800 && h < 0xdc00) {
        r += s[i - 1] + s[i];
        i--;
        continue;
      }
    }
    r += s[i];
  }
  return [r, length];
}

const suffixIndexes = new WeakMap<Int32Array, SuffixIndex>();
/** The SuffixIndex of `ix`, built on first use (O(V log V) for V distinct keys). */
export function suffixIndexOf(ix: PostedText): SuffixIndex {
  let got = suffixIndexes.get(ix.postingStart);
  if (got) return got;
  const keysReversed: string[] = [];
  const idOf: number[] = [];
  const lengthOf: number[] = [];
  for (const [key, id] of ix.vocabulary) {
    const [r, length] = reverseCodePoints(key);
    keysReversed.push(r);
    idOf.push(id);
    lengthOf.push(length);
  }
  const order = Array.from(keysReversed, (_, i) => i).sort((x, y) => (keysReversed[x] < keysReversed[y] ? -1 : keysReversed[x] > keysReversed[y] ? 1 : 0));
  const reversed = order.map((i) => keysReversed[i]);
  const ids = Int32Array.from(order, (i) => idOf[i]);
  const keyLength = Int32Array.from(order, (i) => lengthOf[i]);
  const cumulative = new Float64Array(ids.length + 1);
  for (let t = 0; t < ids.length; t++) cumulative[t + 1] = cumulative[t] + ix.postingStart[ids[t] + 1] - ix.postingStart[ids[t]];
  got = {
    ids,
    keyLength,
    cumulative,
    range(key) {
      // the reversed keys with the reversed key as a prefix: a contiguous run in sorted order
      const r = reverseCodePoints(key)[0];
      let lo = 0, hi = reversed.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (reversed[mid] < r) lo = mid + 1;
        else hi = mid;
      }
      let end = reversed.length;
      for (let a = lo; a < end; ) {
        const mid = (a + end) >>> 1;
        if (reversed[mid].startsWith(r)) a = mid + 1;
        else end = mid;
      }
      return [lo, end];
    },
  };
  suffixIndexes.set(ix.postingStart, got);
  return got;
}

const spaceFree = new WeakMap<Int32Array, boolean>();
/** Whether no word key holds the space (id 0) — (d) of `searchBest`; words.ts never makes one, checked once per index. */
export function spaceFreeKeys(ix: IndexedText): boolean {
  let ok = spaceFree.get(ix.chars);
  if (ok === undefined) {
    ok = true;
    for (let w = 0; w < ix.charStart.length && ok; w++) {
      for (let i = ix.charStart[w]; i < ix.charEnd[w]; i++) if (ix.chars[i] === 0) ok = false;
    }
    spaceFree.set(ix.chars, ok);
  }
  return ok;
}
