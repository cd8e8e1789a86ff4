// The LCS bound of citationStatus's suggestions (ts/evidence/suggest.ts, rule 4 of its header):
// the length of the longest common subsequence of a candidate text and the cited text, by
// Hyyrö's bit-parallel recurrence (difflib.ts `lcsFeed`, 64 positions of b per u64) when it is
// ≥ `need`, else a number below `need`. The TS twin is
// ts/match/sequence-match.ts `lcsAtLeast`; the same numbers (test/match/lcs-bound.test.ts).
//
// Memory: buffers reserved by lcsReserve (grown by doubling; the stub runtime never frees).
//   TABLE (i32 slots): [0] generation (bumped when a buffer moves), [1] B: i32 x capB (the cited
//   text's ids), [2] A: i32 x capA (a candidate's ids); private: COUNT_B (i32 per id), PEQ (u64 x
//   alphabet x blocks), VBITS (u64 x blocks).

import { lcsStart, lcsStepBlocks, lcsZeros } from "./difflib";

const TABLE: usize = memory.data(4 * 4);

let capA: i32 = 0;
let capB: i32 = 0;
let capAlphabet: i32 = 0;
let capPeq: i32 = 0; // u64 words of PEQ
let A: usize = 0;
let B: usize = 0;
let COUNT_B: usize = 0;
let PEQ: usize = 0;
let VBITS: usize = 0;
/** The prepared b: its length, blocks of 64 and alphabet (lcsPrepare). */
let preparedLb: i32 = 0;
let preparedBlocks: i32 = 1;
let preparedAlphabet: i32 = 0;

function grow(cap: i32, want: i32): i32 {
  let c = cap > 0 ? cap : 64;
  while (c < want) c <<= 1;
  return c;
}

/** Room for a b of `lb` ids, an a of `la` ids, ids < `alphabet`; returns the table's address. */
export function lcsReserve(lb: i32, la: i32, alphabet: i32): usize {
  let moved = false;
  if (lb > capB) {
    capB = grow(capB, lb);
    B = heap.alloc(<usize>capB << 2);
    VBITS = heap.alloc(<usize>((capB + 63) >> 6) << 3);
    moved = true;
  }
  if (la > capA) {
    capA = grow(capA, la);
    A = heap.alloc(<usize>capA << 2);
    moved = true;
  }
  if (alphabet > capAlphabet) {
    capAlphabet = grow(capAlphabet, alphabet);
    COUNT_B = heap.alloc(<usize>capAlphabet << 2);
  }
  const words = max(alphabet, 1) * ((max(lb, 1) + 63) >> 6);
  if (words > capPeq) {
    capPeq = grow(capPeq, words);
    PEQ = heap.alloc(<usize>capPeq << 3);
  }
  if (moved || load<i32>(TABLE) == 0) {
    store<i32>(TABLE, load<i32>(TABLE) + 1);
    store<i32>(TABLE + 4, <i32>B);
    store<i32>(TABLE + 8, <i32>A);
  }
  return TABLE;
}

/** Takes B[0, lb) as b (ids outside [0, alphabet) match nothing): its counts and position masks. */
export function lcsPrepare(lb: i32, alphabet: i32): void {
  const blocks = max(1, (lb + 63) >> 6);
  memory.fill(COUNT_B, 0, <usize>alphabet << 2);
  for (let j = 0; j < lb; j++) {
    const c = load<i32>(B + (<usize>j << 2));
    if (<u32>c < <u32>alphabet) store<i32>(COUNT_B + (<usize>c << 2), load<i32>(COUNT_B + (<usize>c << 2)) + 1);
  }
  // only the rows of b's ids are read (lcsBounded skips the others), so only they are cleared
  for (let c = 0; c < alphabet; c++) {
    if (load<i32>(COUNT_B + (<usize>c << 2)) != 0) memory.fill(PEQ + ((<usize>c * <usize>blocks) << 3), 0, <usize>blocks << 3);
  }
  for (let j = 0; j < lb; j++) {
    const c = load<i32>(B + (<usize>j << 2));
    if (<u32>c < <u32>alphabet) {
      const p = PEQ + ((<usize>c * <usize>blocks + <usize>(j >> 6)) << 3);
      store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(j & 63)));
    }
  }
  preparedLb = lb;
  preparedBlocks = blocks;
  preparedAlphabet = alphabet;
}

/** Characters of a fed between two checks of the early stop. */
const CHECK: i32 = 256;

/**
 * LCS(a, b) of a = A[0, la) and the prepared b when it is ≥ `need`, else a number below `need`:
 * a[i] matches only b's positions j in [i − (la − need), i + (lb − need)] (the band every pair of
 * a common subsequence of length ≥ need lies in), and once the banded LCS of a[0, i) and
 * b[0, lb − r), plus r = la − i < lb, is below `need` (checked every CHECK characters) that bound
 * is returned; min(la, lb) when need exceeds la or lb. Blocks of b outside the band are not
 * visited (below it V is unchanged with no carry; above it V is still all ones and stays so).
 * The proofs are at the TS twin, ts/match/sequence-match.ts `lcsAtLeast`.
 */
export function lcsBounded(la: i32, need: i32): i32 {
  const blocks = preparedBlocks, lb = preparedLb, alphabet = preparedAlphabet;
  if (need > la || need > lb) return min(la, lb);
  const down = la - need, up = lb - need;
  lcsStart(blocks, VBITS);
  for (let from = 0; from < la; from += CHECK) {
    const to = min(la, from + CHECK);
    for (let i = from; i < to; i++) {
      const c = load<i32>(A + (<usize>i << 2));
      if (<u32>c >= <u32>alphabet) continue; // matches nothing: V unchanged
      if (load<i32>(COUNT_B + (<usize>c << 2)) == 0) continue;
      const jlo = max(0, i - down);
      const jhi = min(lb - 1, i + up);
      if (jlo > jhi) continue;
      const k0 = jlo >> 6, k1 = jhi >> 6;
      const loMask: u64 = ~(<u64>0) << <u64>(jlo & 63);
      const hiMask: u64 = (jhi & 63) == 63 ? ~(<u64>0) : (<u64>1 << <u64>((jhi & 63) + 1)) - 1;
      const row = PEQ + ((<usize>c * <usize>blocks) << 3);
      if (k0 == k1) {
        const vp = VBITS + (<usize>k0 << 3);
        const v = load<u64>(vp);
        const pm = load<u64>(row + (<usize>k0 << 3)) & loMask & hiMask;
        store<u64>(vp, (v + (v & pm)) | (v & ~pm));
        continue;
      }
      lcsStepBlocks(row, VBITS, k0, k1, loMask, hiMask);
    }
    const left = la - to;
    if (left > 0 && left < lb) {
      const bound = lcsZeros(lb - left, VBITS) + left;
      if (bound < need) return bound;
    }
  }
  return lcsZeros(lb, VBITS);
}
