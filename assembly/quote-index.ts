// Quote index scan (ts/moot/quote-index.ts is the TS twin and holds the proofs):
// every window of every text (sizes n-2..n+2 words) whose difflib ratio vs the
// quote is >= minRatio. Windows are skipped only on a sound upper bound < minRatio:
//   1. real_quick_ratio  2*min(la,lb)/(la+lb)
//   2. semi-global Levenshtein E(e) (Myers 1999, 64-bit blocks, one pass per text):
//      2*M <= 2*LCS = la+lb-indel(W,b) <= la+lb-Lev(W,b) <= la+lb-E(e)
//   3. quick_ratio  2*sum_c min(countW[c], countb[c])/(la+lb)
//   4. LCS (Hyyrö 2004, bit-parallel): M <= LCS(W, b)
// then difflib's exact M (find_longest_match with difflib's ties, the
// get_matching_blocks recursion), ratio = 2*M/(la+lb) in f64 as in TS.
//
// The difflib kernel is a copy of assembly/sequence-match.ts's (kept private
// there); both follow CPython's Lib/difflib.py with autojunk off.
//
// Memory: buffers from heap.alloc, grown by doubling, addresses in a table:
//   [0] generation (bumped when a text buffer moves: the caller re-copies the texts)
//   [1] CHARS i32 x chars   [2] CSTART i32 x words   [3] CEND i32 x words
//   [4] SW i32 x sources+1  [5] QUOTE i32 x lb
//   [6] OUT_WORDS i32 x 2*hits (first word, size)   [7] OUT_RATIOS f64 x hits
// OUT may move during qiScan (more hits than room): read the table after it.

import { lcsLength as sharedLcsLength, matchingCharacters as difflibMatching } from "./difflib";

const QI_TABLE: usize = memory.data(8 * 4);

let capChars: i32 = 0;
let capWords: i32 = 0;
let capSrc: i32 = 0;
let capQuote: i32 = 0;
let capAlpha: i32 = 0;
let capOut: i32 = 0;

let CHARS: usize = 0;
let CSTART: usize = 0;
let CEND: usize = 0;
let SW: usize = 0;
let QUOTE: usize = 0;
let OUT_WORDS: usize = 0;
let OUT_RATIOS: usize = 0;
let PEQ: usize = 0; // u64 x alphabet*blocks
let PV: usize = 0; // u64 x blocks
let MV: usize = 0; // u64 x blocks
let VB: usize = 0; // u64 x blocks (LCS)
let CNT_A: usize = 0;
let CNT_B: usize = 0;
let ROW_P: usize = 0;
let ROW_C: usize = 0;
let STK: usize = 0;

function grow2(cap: i32, want: i32): i32 {
  let c = cap > 0 ? cap : 64;
  while (c < want) c <<= 1;
  return c;
}

function publishTable(bump: bool): void {
  if (bump) store<i32>(QI_TABLE, load<i32>(QI_TABLE) + 1);
  store<i32>(QI_TABLE + 4, <i32>CHARS);
  store<i32>(QI_TABLE + 8, <i32>CSTART);
  store<i32>(QI_TABLE + 12, <i32>CEND);
  store<i32>(QI_TABLE + 16, <i32>SW);
  store<i32>(QI_TABLE + 20, <i32>QUOTE);
  store<i32>(QI_TABLE + 24, <i32>OUT_WORDS);
  store<i32>(QI_TABLE + 28, <i32>OUT_RATIOS);
}

/**
 * Room for texts of `chars` key characters and `words` words in `sources`
 * texts, and a quote of `quoteLen` ids < `alphabet`. Returns the table address.
 */
export function qiReserve(chars: i32, words: i32, sources: i32, quoteLen: i32, alphabet: i32): usize {
  let moved = false;
  if (chars > capChars) {
    capChars = grow2(capChars, chars);
    CHARS = heap.alloc(<usize>capChars << 2);
    moved = true;
  }
  if (words > capWords) {
    capWords = grow2(capWords, words);
    CSTART = heap.alloc(<usize>capWords << 2);
    CEND = heap.alloc(<usize>capWords << 2);
    moved = true;
  }
  if (sources + 1 > capSrc) {
    capSrc = grow2(capSrc, sources + 1);
    SW = heap.alloc(<usize>capSrc << 2);
    moved = true;
  }
  if (capOut == 0) {
    capOut = 1024;
    OUT_WORDS = heap.alloc(<usize>capOut << 3);
    OUT_RATIOS = heap.alloc(<usize>capOut << 3);
  }
  if (quoteLen > capQuote || alphabet > capAlpha) {
    if (quoteLen > capQuote) capQuote = grow2(capQuote, quoteLen);
    if (alphabet > capAlpha) capAlpha = grow2(capAlpha, alphabet);
    const blocks = (capQuote + 63) >> 6;
    QUOTE = heap.alloc(<usize>capQuote << 2);
    PEQ = heap.alloc((<usize>capAlpha * <usize>blocks) << 3);
    PV = heap.alloc(<usize>blocks << 3);
    MV = heap.alloc(<usize>blocks << 3);
    VB = heap.alloc(<usize>blocks << 3);
    CNT_A = heap.alloc(<usize>capAlpha << 2);
    CNT_B = heap.alloc(<usize>capAlpha << 2);
    ROW_P = heap.alloc(<usize>(capQuote + 1) << 2);
    ROW_C = heap.alloc(<usize>(capQuote + 1) << 2);
    STK = heap.alloc(<usize>(capQuote + 2) << 4);
    memory.fill(CNT_A, 0, <usize>capAlpha << 2);
  }
  publishTable(moved || load<i32>(QI_TABLE) == 0);
  return QI_TABLE;
}

let nOut: i32 = 0;

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
  const lastHigh: u64 = <u64>1 << <u64>((lb - 1) & 63);
  memory.fill(CNT_B, 0, <usize>alphabet << 2);
  memory.fill(PEQ, 0, (<usize>alphabet * <usize>blocks) << 3);
  for (let j = 0; j < lb; j++) {
    const c = load<i32>(QUOTE + (<usize>j << 2));
    const cb = CNT_B + (<usize>c << 2);
    store<i32>(cb, load<i32>(cb) + 1);
    const p = PEQ + ((<usize>c * <usize>blocks + <usize>(j >> 6)) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(j & 63)));
  }
  const lo = max(1, n - 2);
  const total0 = <f64>lb;
  for (let s = 0; s < nSources; s++) {
    if (onlySource >= 0 && s != onlySource) continue;
    const w0 = load<i32>(SW + (<usize>s << 2));
    const w1 = load<i32>(SW + (<usize>(s + 1) << 2));
    if (w1 == w0) continue;
    for (let k = 0; k < blocks; k++) {
      store<u64>(PV + (<usize>k << 3), ~(<u64>0));
      store<u64>(MV + (<usize>k << 3), 0);
    }
    let score = lb;
    let p = load<i32>(CSTART + (<usize>w0 << 2));
    for (let v = w0; v < w1; v++) {
      const e = load<i32>(CEND + (<usize>v << 2));
      // Myers' semi-global edit distance over the characters up to the end of word v
      if (blocks == 1) {
        let Pv = load<u64>(PV);
        let Mv = load<u64>(MV);
        for (; p < e; p++) {
          const c = <usize>load<i32>(CHARS + (<usize>p << 2));
          const Eq = load<u64>(PEQ + (c << 3));
          const Xv = Eq | Mv;
          const Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
          let Ph = Mv | ~(Xh | Pv);
          let Mh = Pv & Xh;
          if ((Ph & lastHigh) != 0) score++;
          else if ((Mh & lastHigh) != 0) score--;
          Ph <<= 1;
          Mh <<= 1;
          Pv = Mh | ~(Xv | Ph);
          Mv = Ph & Xv;
        }
        store<u64>(PV, Pv);
        store<u64>(MV, Mv);
      } else if (blocks == 2) {
        // two words kept in locals (quotes of 65–128 characters, the common long case)
        let P0 = load<u64>(PV), M0 = load<u64>(MV), P1 = load<u64>(PV, 8), M1 = load<u64>(MV, 8);
        for (; p < e; p++) {
          const row = PEQ + ((<usize>load<i32>(CHARS + (<usize>p << 2)) << 1) << 3);
          const E0 = load<u64>(row), E1 = load<u64>(row, 8);
          const Xv0 = E0 | M0, Xv1 = E1 | M1;
          const x0 = E0 & P0;
          const s0 = x0 + P0;
          const carry: u64 = <u64>(s0 < x0);
          const s1 = (E1 & P1) + P1 + carry;
          const Xh0 = (s0 ^ P0) | E0, Xh1 = (s1 ^ P1) | E1;
          const Ph0 = M0 | ~(Xh0 | P0), Mh0 = P0 & Xh0;
          const Ph1 = M1 | ~(Xh1 | P1), Mh1 = P1 & Xh1;
          if ((Ph1 & lastHigh) != 0) score++;
          else if ((Mh1 & lastHigh) != 0) score--;
          const Ps0 = Ph0 << 1, Ms0 = Mh0 << 1;
          const Ps1 = (Ph1 << 1) | (Ph0 >> 63), Ms1 = (Mh1 << 1) | (Mh0 >> 63);
          P0 = Ms0 | ~(Xv0 | Ps0); M0 = Ps0 & Xv0;
          P1 = Ms1 | ~(Xv1 | Ps1); M1 = Ps1 & Xv1;
        }
        store<u64>(PV, P0); store<u64>(MV, M0); store<u64>(PV, P1, 8); store<u64>(MV, M1, 8);
      } else if (blocks == 3) {
        // three words in locals (quotes of 129–192 characters)
        let P0 = load<u64>(PV), M0 = load<u64>(MV), P1 = load<u64>(PV, 8), M1 = load<u64>(MV, 8);
        let P2 = load<u64>(PV, 16), M2 = load<u64>(MV, 16);
        for (; p < e; p++) {
          const row = PEQ + ((<usize>load<i32>(CHARS + (<usize>p << 2)) * 3) << 3);
          const E0 = load<u64>(row), E1 = load<u64>(row, 8), E2 = load<u64>(row, 16);
          const Xv0 = E0 | M0, Xv1 = E1 | M1, Xv2 = E2 | M2;
          const x0 = E0 & P0;
          const s0 = x0 + P0;
          const c0: u64 = <u64>(s0 < x0);
          const x1 = E1 & P1;
          const t1 = x1 + P1;
          const s1 = t1 + c0;
          const c1: u64 = <u64>(t1 < x1) | <u64>(s1 < t1);
          const s2 = (E2 & P2) + P2 + c1;
          const Xh0 = (s0 ^ P0) | E0, Xh1 = (s1 ^ P1) | E1, Xh2 = (s2 ^ P2) | E2;
          const Ph0 = M0 | ~(Xh0 | P0), Mh0 = P0 & Xh0;
          const Ph1 = M1 | ~(Xh1 | P1), Mh1 = P1 & Xh1;
          const Ph2 = M2 | ~(Xh2 | P2), Mh2 = P2 & Xh2;
          if ((Ph2 & lastHigh) != 0) score++;
          else if ((Mh2 & lastHigh) != 0) score--;
          const Ps0 = Ph0 << 1, Ms0 = Mh0 << 1;
          const Ps1 = (Ph1 << 1) | (Ph0 >> 63), Ms1 = (Mh1 << 1) | (Mh0 >> 63);
          const Ps2 = (Ph2 << 1) | (Ph1 >> 63), Ms2 = (Mh2 << 1) | (Mh1 >> 63);
          P0 = Ms0 | ~(Xv0 | Ps0); M0 = Ps0 & Xv0;
          P1 = Ms1 | ~(Xv1 | Ps1); M1 = Ps1 & Xv1;
          P2 = Ms2 | ~(Xv2 | Ps2); M2 = Ps2 & Xv2;
        }
        store<u64>(PV, P0); store<u64>(MV, M0); store<u64>(PV, P1, 8); store<u64>(MV, M1, 8);
        store<u64>(PV, P2, 16); store<u64>(MV, M2, 16);
      } else {
        // the same recurrences on one lb-bit integer spread over 64-bit words:
        // the addition carries upward, the shifts carry each word's top bit into the next
        for (; p < e; p++) {
          const c = <usize>load<i32>(CHARS + (<usize>p << 2));
          const row = PEQ + ((c * <usize>blocks) << 3);
          let carry: u64 = 0;
          let cPh: u64 = 0; // row 0 is all zeros: nothing shifts into bit 0 (a match may start anywhere)
          let cMh: u64 = 0;
          let Ph: u64 = 0;
          let Mh: u64 = 0;
          for (let k = 0; k < blocks; k++) {
            const o = <usize>k << 3;
            const Pv = load<u64>(PV + o);
            const Mv = load<u64>(MV + o);
            const Eq = load<u64>(row + o);
            const Xv = Eq | Mv;
            const x = Eq & Pv;
            const t = x + Pv;
            const c1: u64 = <u64>(t < x);
            const sum = t + carry;
            carry = c1 | <u64>(sum < t);
            const Xh = (sum ^ Pv) | Eq;
            Ph = Mv | ~(Xh | Pv);
            Mh = Pv & Xh;
            const Ph1 = (Ph << 1) | cPh;
            const Mh1 = (Mh << 1) | cMh;
            cPh = Ph >> 63;
            cMh = Mh >> 63;
            store<u64>(PV + o, Mh1 | ~(Xv | Ph1));
            store<u64>(MV + o, Ph1 & Xv);
          }
          // Ph, Mh: the last word's horizontal deltas before the shift; bit (lb-1) is row lb's
          if ((Ph & lastHigh) != 0) score++;
          else if ((Mh & lastHigh) != 0) score--;
        }
      }
      // bound 2 for the widest window ending at v: (T - E)/T grows with T, so if it fails there it
      // fails for every window ending at v (f64 rounding is monotone)
      const widest = <f64>(e - load<i32>(CSTART + (<usize>max(w0, v - n - 1) << 2))) + total0;
      if ((widest - <f64>score) / widest < minRatio) continue;
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
        if (<f64>(2 * lcsLength(a, la, lb, blocks)) / total < minRatio) continue; // bound 4
        const ratio = <f64>(2 * matchingCharacters(a, la, QUOTE, lb)) / total;
        if (ratio >= minRatio) emit(u, size, ratio);
      }
    }
  }
  return nOut;
}
