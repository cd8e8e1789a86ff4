// Quote index scan (ts/match/quote-index.ts is the TS twin and holds the proofs):
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
//   [8] RANGES i32 x 2*ranges (qiScanRanges: [from, to) word ranges, sorted, disjoint, each in one text)
// OUT may move during qiScan (more hits than room): read the table after it.

import { lcsLength as sharedLcsLength, matchingCharacters as difflibMatching } from "./difflib";

const QI_TABLE: usize = memory.data(9 * 4);

let capChars: i32 = 0;
let capWords: i32 = 0;
let capSrc: i32 = 0;
let capQuote: i32 = 0;
let capAlpha: i32 = 0;
let capOut: i32 = 0;
let capRanges: i32 = 0;

let CHARS: usize = 0;
let CSTART: usize = 0;
let CEND: usize = 0;
let ES: usize = 0; // u16 x chars: E after a character, where its BITS bit is set (phase A of qiScan)
let BITS: usize = 0; // 1 bit x chars: E <= markLim after that character
let SW: usize = 0;
let QUOTE: usize = 0;
let OUT_WORDS: usize = 0;
let OUT_RATIOS: usize = 0;
let RANGES: usize = 0;
let TX: usize = 0; // u8 x 16·share: the texts' codes transposed into the 16 lanes of qiScanLanes (qiLanesLayout)
let PEQ: usize = 0; // u64 x alphabet*blocks
let NPEQ: usize = 0; // ~PEQ (the SIMD pass: its complements become v128.andnot, with no v128.not)
let PVV: usize = 0; // v128 x blocks (passEN: two lanes' Pv, lane l at +8l)
let MVV: usize = 0; // v128 x blocks
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
  store<i32>(QI_TABLE + 32, <i32>RANGES);
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
    ES = heap.alloc(<usize>capChars << 1);
    TX = heap.alloc(<usize>capChars + 16);
    BITS = heap.alloc(<usize>((capChars + 63) >> 6) << 3);
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
    NPEQ = heap.alloc((<usize>capAlpha * <usize>blocks) << 3);
    PVV = heap.alloc(<usize>blocks << 4);
    MVV = heap.alloc(<usize>blocks << 4);
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

/** Room for `count` word ranges (qiScanRanges) after qiReserve; returns the table address ([8] may move). */
export function qiReserveRanges(count: i32): usize {
  if (count > capRanges) {
    if (RANGES) heap.free(RANGES);
    capRanges = grow2(capRanges, count);
    RANGES = heap.alloc(<usize>capRanges << 3);
    publishTable(false);
  }
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

// Phase A of the scan: the semi-global edit distance E after every character of a text, by
// Myers' bit-vector recurrences (Myers 1999; edlib's block form). Row 0 of the DP is all zeros
// (a match may start anywhere): nothing shifts into bit 0 of block 0. Only the characters with
// E <= markLim (markLimit: no window ending at a larger E passes bounds 1-2) are kept: a bit in
// BITS and E in ES (u16; E <= lb <= MAX_QUOTE_CHARS = 2,000 fits). At minRatio 0.8 that is ~1 in
// 10^4 characters, so the loops test it in registers and branch to mark2 rarely, instead of
// storing a u16 per character (9 MB per scan), and phase B visits only the marked characters.
// Below minRatio ~0.78 (markLim > 0.6·lb) E is small too often for that: the loops store it after
// every character instead and every word end is marked (`dense`).
//
// Why lanes: each step needs the previous step's Pv/Mv through a chain of ~9 dependent
// operations, so one scalar pass is latency-bound. The text is cut into K lanes run together,
// two lanes per v128 (i64x2: the same recurrences lane-wise): 4 lanes (two vectors interleaved)
// for quotes of 1 or 2 blocks, 2 lanes (one vector) for 3 blocks, where two vectors' state no
// longer fits the 16 xmm registers and V8 spills (measured: 8 lanes, or 2× unrolled loops, were
// no faster: the loops are now bound by instruction count, not latency). Each lane restarts the
// DP fresh (D[i][t0-1] = i) at t0, the first character of the earliest window that can end in
// its share (n + 1 words before the share); the E it computes is
//   E_t0(e) = min over substrings X = text[s, e], s >= t0, of Levenshtein(X, b),
// and every window W ending in its share starts at s >= t0, so E_t0(e) <= Levenshtein(W, b):
// bound 2 holds with E_t0 in place of E (and E_t0 >= E, so it is no weaker). A lane's warm-up
// (t0 up to its share) marks nothing: a cell is marked only by its owner lane (test/moot/
// quote-index.test.ts cuts a warm-up short and sees windows lost). The lanes' loops are written
// out by scripts/gen-quote-index-simd.mjs, one function per block count (1–3; longer quotes:
// passEN).
//
// Instruction count per step, the bound now: the SIMD loops read ~Peq (NPEQ), so every
// complement becomes v128.andnot (V8 builds v128.not from an all-ones register each time);
// the last row's delta is `(Ph & 1<<sh) == 1<<sh` (V8 re-derives a variable shift count per
// shift); the carry out of block k is `(x | P & ~s) >> 63` (x = P & Peq ⊆ P, so the majority
// `x & P | (x | P) & ~s` of a full adder reduces to it), no unsigned-compare emulation; and
// the constants are loaded from memory (VCONST) so V8 keeps them in registers instead of
// rebuilding them inside the loop.

/** Lane states: up to 4 lanes × 64 bytes: (Pv, Mv) of blocks 0–2 at 16k, 16k+8; score at 48; next character at 56. */
const LANES: usize = memory.data(4 * 64, 16);
/** The SIMD loops' constants: i64x2 of 1 << sh, of markLim + 1. */
const VCONST: usize = memory.data(32, 16);
/** Characters after which E <= markLim are marked (phase A); E > markLim fails bounds 1–2 for every window (qiScan). */
let markLim: i64 = -1;
/**
 * Dense marks (quotes of 1–3 blocks, markLim > 0.6·lb, i.e. minRatio below ~0.78): when E is that
 * often small, the rare path would be taken and mispredicted often, so the loops (simd*d) store E
 * after every character and every word end is marked after the pass, as before the marks.
 */
let dense = false;
/** Last character (exclusive) of each lane's share. */
const LANE_END: usize = memory.data(4 * 4);

function laneInit(l: i32, lb: i32, pos: i32): void {
  const st = LANES + (<usize>l << 6);
  for (let k = 0; k < 3; k++) {
    store<u64>(st + (<usize>k << 4), ~(<u64>0));
    store<u64>(st + (<usize>k << 4), 0, 8);
  }
  store<i64>(st, <i64>lb, 48);
  store<i64>(st, <i64>pos, 56);
}

function laneRun(blocks: i32, l: i32, steps: i32, sh: u64, lim: i64): void {
  if (blocks == 1) lane1(l, steps, sh, lim);
  else if (blocks == 2) lane2(l, steps, sh, lim);
  else lane3(l, steps, sh, lim);
}

/** E after character p is s (<= markLim): keep it for phase B. */
@inline
function mark(p: usize, s: i64): void {
  store<u16>(ES + (p << 1), <u16>s);
  const b = BITS + (p >> 3);
  store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
}

/** The SIMD loops' rare path: lanes (p0, p1) of one vector, scores S; marks those <= markLim. */
function mark2(S: v128, p0: usize, p1: usize): void {
  const s0 = i64x2.extract_lane(S, 0), s1 = i64x2.extract_lane(S, 1);
  if (s0 <= markLim) mark(p0, s0);
  if (s1 <= markLim) mark(p1, s1);
}

/**
 * Phase A over the words [w0, w1) of one text (quote of lb characters, n words, 1–3 blocks):
 * K lanes, each owning a contiguous share of the words, warmed up from t0 (see above).
 */
function passE(w0: i32, w1: i32, lb: i32, n: i32, blocks: i32): void {
  const sh: u64 = <u64>((lb - 1) & 63);
  const K = blocks == 1 ? 4 : blocks == 2 ? 4 : 2; // lanes: simd1x2, simd2x2, simd3x1
  const c0 = load<i32>(CSTART + (<usize>w0 << 2));
  const c1 = load<i32>(CEND + (<usize>(w1 - 1) << 2));
  const nw = w1 - w0;
  // lanes pay off when each share is long against its warm-up (n + 1 words); a warm-up never
  // reaches past the previous lane's share
  if (nw < K * 4 * (n + 2)) {
    laneInit(0, lb, c0);
    laneRun(blocks, 0, c1 - c0, sh, dense ? i64.MAX_VALUE : markLim);
    return;
  }
  let minSteps = i32.MAX_VALUE;
  for (let l = 0; l < K; l++) {
    const wa = w0 + <i32>((<i64>nw * l) / K);
    const wb = w0 + <i32>((<i64>nw * (l + 1)) / K);
    const own = load<i32>(CSTART + (<usize>wa << 2));
    const end = l == K - 1 ? c1 : load<i32>(CSTART + (<usize>wb << 2));
    const t0 = load<i32>(CSTART + (<usize>max(w0, wa - n - 1) << 2));
    laneInit(l, lb, t0);
    if (own > t0) laneRun(blocks, l, own - t0, sh, -1); // a warm-up marks nothing: its E is not its owner's
    store<i32>(LANE_END + (<usize>l << 2), end);
    minSteps = min(minSteps, end - own);
  }
  v128.store(VCONST, i64x2.splat(<i64>1 << <i64>sh));
  v128.store(VCONST, i64x2.splat(markLim + 1), 16);
  if (dense) {
    if (blocks == 1) simd1x2d(minSteps);
    else if (blocks == 2) simd2x2d(minSteps);
    else simd3x1d(minSteps);
  } else if (blocks == 1) simd1x2(minSteps);
  else if (blocks == 2) simd2x2(minSteps);
  else simd3x1(minSteps);
  for (let l = 0; l < K; l++) {
    const rest = load<i32>(LANE_END + (<usize>l << 2)) - <i32>load<i64>(LANES + (<usize>l << 6), 56);
    if (rest > 0) laneRun(blocks, l, rest, sh, dense ? i64.MAX_VALUE : markLim);
  }
}

/** Lane l (quote of 1 block) advances `steps` characters, marking (`mark`) those after which E <= lim. */
function lane1(l: i32, steps: i32, sh: u64, lim: i64): void {
  const st0 = LANES + (<usize>l << 6);
  let P0_0 = load<u64>(st0, 0), M0_0 = load<u64>(st0, 8);
  let S0 = load<i64>(st0, 48);
  let a0 = <usize>load<i64>(st0, 56);
  const peq = PEQ, chars = CHARS; // globals into locals: the engine reloads globals every use
  for (let t = 0; t < steps; t++) {
    {
      const E0 = load<u64>(peq + (<usize>load<i32>(chars + (a0 << 2)) << 3));
      const Xv0 = E0 | M0_0;
      const Xh0 = (((E0 & P0_0) + P0_0) ^ P0_0) | E0;
      const Ph0 = M0_0 | ~(Xh0 | P0_0), Mh0 = P0_0 & Xh0;
      S0 += <i64>((Ph0 >> sh) & 1) - <i64>((Mh0 >> sh) & 1);
      if (S0 <= lim) mark(a0, S0);
      const Ps0 = Ph0 << 1;
      P0_0 = (Mh0 << 1) | ~(Xv0 | Ps0);
      M0_0 = Ps0 & Xv0;
      a0++;
    }
  }
  store<u64>(st0, P0_0, 0); store<u64>(st0, M0_0, 8);
  store<i64>(st0, S0, 48);
  store<i64>(st0, <i64>a0, 56);
}

/** Lane l (quote of 2 blocks) advances `steps` characters, marking (`mark`) those after which E <= lim. */
function lane2(l: i32, steps: i32, sh: u64, lim: i64): void {
  const st0 = LANES + (<usize>l << 6);
  let P0_0 = load<u64>(st0, 0), M0_0 = load<u64>(st0, 8);
  let P0_1 = load<u64>(st0, 16), M0_1 = load<u64>(st0, 24);
  let S0 = load<i64>(st0, 48);
  let a0 = <usize>load<i64>(st0, 56);
  const peq = PEQ, chars = CHARS; // globals into locals: the engine reloads globals every use
  for (let t = 0; t < steps; t++) {
    {
      const r0 = peq + (<usize>load<i32>(chars + (a0 << 2)) << 4);
      const E0_0 = load<u64>(r0, 0);
      const E0_1 = load<u64>(r0, 8);
      const x0_0 = E0_0 & P0_0;
      const s0_0 = x0_0 + P0_0;
      const s0_1 = (E0_1 & P0_1) + P0_1 + <u64>(s0_0 < x0_0);
      const Xv0_0 = E0_0 | M0_0, Xh0_0 = (s0_0 ^ P0_0) | E0_0;
      const Ph0_0 = M0_0 | ~(Xh0_0 | P0_0), Mh0_0 = P0_0 & Xh0_0;
      const Xv0_1 = E0_1 | M0_1, Xh0_1 = (s0_1 ^ P0_1) | E0_1;
      const Ph0_1 = M0_1 | ~(Xh0_1 | P0_1), Mh0_1 = P0_1 & Xh0_1;
      S0 += <i64>((Ph0_1 >> sh) & 1) - <i64>((Mh0_1 >> sh) & 1);
      if (S0 <= lim) mark(a0, S0);
      const Ps0_0 = Ph0_0 << 1, Ms0_0 = Mh0_0 << 1;
      const Ps0_1 = (Ph0_1 << 1) | (Ph0_0 >> 63), Ms0_1 = (Mh0_1 << 1) | (Mh0_0 >> 63);
      P0_0 = Ms0_0 | ~(Xv0_0 | Ps0_0); M0_0 = Ps0_0 & Xv0_0;
      P0_1 = Ms0_1 | ~(Xv0_1 | Ps0_1); M0_1 = Ps0_1 & Xv0_1;
      a0++;
    }
  }
  store<u64>(st0, P0_0, 0); store<u64>(st0, M0_0, 8);
  store<u64>(st0, P0_1, 16); store<u64>(st0, M0_1, 24);
  store<i64>(st0, S0, 48);
  store<i64>(st0, <i64>a0, 56);
}

/** Lane l (quote of 3 blocks) advances `steps` characters, marking (`mark`) those after which E <= lim. */
function lane3(l: i32, steps: i32, sh: u64, lim: i64): void {
  const st0 = LANES + (<usize>l << 6);
  let P0_0 = load<u64>(st0, 0), M0_0 = load<u64>(st0, 8);
  let P0_1 = load<u64>(st0, 16), M0_1 = load<u64>(st0, 24);
  let P0_2 = load<u64>(st0, 32), M0_2 = load<u64>(st0, 40);
  let S0 = load<i64>(st0, 48);
  let a0 = <usize>load<i64>(st0, 56);
  for (let t = 0; t < steps; t++) {
    {
      const r0 = PEQ + <usize>load<i32>(CHARS + (a0 << 2)) * 24;
      const E0_0 = load<u64>(r0, 0);
      const E0_1 = load<u64>(r0, 8);
      const E0_2 = load<u64>(r0, 16);
      const x0_0 = E0_0 & P0_0;
      const s0_0 = x0_0 + P0_0;
      const x0_1 = E0_1 & P0_1;
      const t0_1 = x0_1 + P0_1;
      const s0_1 = t0_1 + <u64>(s0_0 < x0_0);
      const s0_2 = (E0_2 & P0_2) + P0_2 + (<u64>(t0_1 < x0_1) | <u64>(s0_1 < t0_1));
      const Xv0_0 = E0_0 | M0_0, Xh0_0 = (s0_0 ^ P0_0) | E0_0;
      const Ph0_0 = M0_0 | ~(Xh0_0 | P0_0), Mh0_0 = P0_0 & Xh0_0;
      const Xv0_1 = E0_1 | M0_1, Xh0_1 = (s0_1 ^ P0_1) | E0_1;
      const Ph0_1 = M0_1 | ~(Xh0_1 | P0_1), Mh0_1 = P0_1 & Xh0_1;
      const Xv0_2 = E0_2 | M0_2, Xh0_2 = (s0_2 ^ P0_2) | E0_2;
      const Ph0_2 = M0_2 | ~(Xh0_2 | P0_2), Mh0_2 = P0_2 & Xh0_2;
      S0 += <i64>((Ph0_2 >> sh) & 1) - <i64>((Mh0_2 >> sh) & 1);
      if (S0 <= lim) mark(a0, S0);
      const Ps0_0 = Ph0_0 << 1, Ms0_0 = Mh0_0 << 1;
      const Ps0_1 = (Ph0_1 << 1) | (Ph0_0 >> 63), Ms0_1 = (Mh0_1 << 1) | (Mh0_0 >> 63);
      const Ps0_2 = (Ph0_2 << 1) | (Ph0_1 >> 63), Ms0_2 = (Mh0_2 << 1) | (Mh0_1 >> 63);
      P0_0 = Ms0_0 | ~(Xv0_0 | Ps0_0); M0_0 = Ps0_0 & Xv0_0;
      P0_1 = Ms0_1 | ~(Xv0_1 | Ps0_1); M0_1 = Ps0_1 & Xv0_1;
      P0_2 = Ms0_2 | ~(Xv0_2 | Ps0_2); M0_2 = Ps0_2 & Xv0_2;
      a0++;
    }
  }
  store<u64>(st0, P0_0, 0); store<u64>(st0, M0_0, 8);
  store<u64>(st0, P0_1, 16); store<u64>(st0, M0_1, 24);
  store<u64>(st0, P0_2, 32); store<u64>(st0, M0_2, 40);
  store<i64>(st0, S0, 48);
  store<i64>(st0, <i64>a0, 56);
}

/** Lanes 0..3 (quote of 1 block) each advance `steps` characters: two lanes per v128 (i64x2), 2 vectors interleaved; characters after which E <= markLim are marked (mark2). */
function simd1x2(steps: i32): void {
  const npeq = NPEQ, chars = CHARS; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop); the scores are kept less markLim + 1, so the
  // rare-path test is a sign test and needs no register
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  const st2 = LANES + 128;
  let a2 = <usize>load<i64>(st2, 56);
  const st3 = LANES + 192;
  let a3 = <usize>load<i64>(st3, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let S0 = i64x2.sub(v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1), v128.load(VCONST, 16));
  let P1_0 = v128.load64_lane(st3 + 0, v128.load64_zero(st2 + 0), 1);
  let M1_0 = v128.load64_lane(st3 + 8, v128.load64_zero(st2 + 8), 1);
  let S1 = i64x2.sub(v128.load64_lane(st3 + 48, v128.load64_zero(st2 + 48), 1), v128.load(VCONST, 16));
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + (<usize>load<i32>(chars + (a0 << 2)) << 3);
      const r1 = npeq + (<usize>load<i32>(chars + (a1 << 2)) << 3);
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const s0_0 = i64x2.add(v128.andnot(P0_0, E0_0), P0_0);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_0, SM), SM)), i64x2.eq(v128.and(Ph0_0, SM), SM));
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      a0++; a1++;
    }
    {
      const r2 = npeq + (<usize>load<i32>(chars + (a2 << 2)) << 3);
      const r3 = npeq + (<usize>load<i32>(chars + (a3 << 2)) << 3);
      const E1_0 = v128.load64_lane(r3 + 0, v128.load64_zero(r2 + 0), 1); // ~Peq
      const s1_0 = i64x2.add(v128.andnot(P1_0, E1_0), P1_0);
      const NXh1_0 = v128.andnot(E1_0, v128.xor(s1_0, P1_0));
      const Ph1_0 = v128.or(M1_0, v128.andnot(NXh1_0, P1_0)), Mh1_0 = v128.andnot(P1_0, NXh1_0);
      const NXv1_0 = v128.andnot(E1_0, M1_0);
      S1 = i64x2.sub(i64x2.add(S1, i64x2.eq(v128.and(Mh1_0, SM), SM)), i64x2.eq(v128.and(Ph1_0, SM), SM));
      const Ps1_0 = i64x2.shl(Ph1_0, 1), Ms1_0 = i64x2.shl(Mh1_0, 1);
      P1_0 = v128.or(Ms1_0, v128.andnot(NXv1_0, Ps1_0)); M1_0 = v128.andnot(Ps1_0, NXv1_0);
      a2++; a3++;
    }
    // rare (E <= markLim at ~1e-4 of the steps at minRatio 0.8): mark the lanes' positions
    if (v128.any_true(v128.or(i64x2.lt_s(S0, i64x2.splat(0)), i64x2.lt_s(S1, i64x2.splat(0))))) {
      mark2(i64x2.add(S0, v128.load(VCONST, 16)), a0 - 1, a1 - 1);
      mark2(i64x2.add(S1, v128.load(VCONST, 16)), a2 - 1, a3 - 1);
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  S0 = i64x2.add(S0, v128.load(VCONST, 16));
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  v128.store64_lane(st2 + 0, P1_0, 0); v128.store64_lane(st3 + 0, P1_0, 1);
  v128.store64_lane(st2 + 8, M1_0, 0); v128.store64_lane(st3 + 8, M1_0, 1);
  S1 = i64x2.add(S1, v128.load(VCONST, 16));
  v128.store64_lane(st2 + 48, S1, 0); v128.store64_lane(st3 + 48, S1, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
  store<i64>(st2, <i64>a2, 56);
  store<i64>(st3, <i64>a3, 56);
}

/** Lanes 0..3 (quote of 2 blocks) each advance `steps` characters: two lanes per v128 (i64x2), 2 vectors interleaved; characters after which E <= markLim are marked (mark2). */
function simd2x2(steps: i32): void {
  const npeq = NPEQ, chars = CHARS; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop); the scores are kept less markLim + 1, so the
  // rare-path test is a sign test and needs no register
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  const st2 = LANES + 128;
  let a2 = <usize>load<i64>(st2, 56);
  const st3 = LANES + 192;
  let a3 = <usize>load<i64>(st3, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let P0_1 = v128.load64_lane(st1 + 16, v128.load64_zero(st0 + 16), 1);
  let M0_1 = v128.load64_lane(st1 + 24, v128.load64_zero(st0 + 24), 1);
  let S0 = i64x2.sub(v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1), v128.load(VCONST, 16));
  let P1_0 = v128.load64_lane(st3 + 0, v128.load64_zero(st2 + 0), 1);
  let M1_0 = v128.load64_lane(st3 + 8, v128.load64_zero(st2 + 8), 1);
  let P1_1 = v128.load64_lane(st3 + 16, v128.load64_zero(st2 + 16), 1);
  let M1_1 = v128.load64_lane(st3 + 24, v128.load64_zero(st2 + 24), 1);
  let S1 = i64x2.sub(v128.load64_lane(st3 + 48, v128.load64_zero(st2 + 48), 1), v128.load(VCONST, 16));
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + (<usize>load<i32>(chars + (a0 << 2)) << 4);
      const r1 = npeq + (<usize>load<i32>(chars + (a1 << 2)) << 4);
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const E0_1 = v128.load64_lane(r1 + 8, v128.load64_zero(r0 + 8), 1); // ~Peq
      const x0_0 = v128.andnot(P0_0, E0_0);
      const s0_0 = i64x2.add(x0_0, P0_0);
      const c0_0 = i64x2.shr_u(v128.or(x0_0, v128.andnot(P0_0, s0_0)), 63); // carry out of block 0
      const s0_1 = i64x2.add(i64x2.add(v128.andnot(P0_1, E0_1), P0_1), c0_0);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      const NXh0_1 = v128.andnot(E0_1, v128.xor(s0_1, P0_1));
      const Ph0_1 = v128.or(M0_1, v128.andnot(NXh0_1, P0_1)), Mh0_1 = v128.andnot(P0_1, NXh0_1);
      const NXv0_1 = v128.andnot(E0_1, M0_1);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_1, SM), SM)), i64x2.eq(v128.and(Ph0_1, SM), SM));
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      const Ps0_1 = v128.or(i64x2.shl(Ph0_1, 1), i64x2.shr_u(Ph0_0, 63)), Ms0_1 = v128.or(i64x2.shl(Mh0_1, 1), i64x2.shr_u(Mh0_0, 63));
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      P0_1 = v128.or(Ms0_1, v128.andnot(NXv0_1, Ps0_1)); M0_1 = v128.andnot(Ps0_1, NXv0_1);
      a0++; a1++;
    }
    {
      const r2 = npeq + (<usize>load<i32>(chars + (a2 << 2)) << 4);
      const r3 = npeq + (<usize>load<i32>(chars + (a3 << 2)) << 4);
      const E1_0 = v128.load64_lane(r3 + 0, v128.load64_zero(r2 + 0), 1); // ~Peq
      const E1_1 = v128.load64_lane(r3 + 8, v128.load64_zero(r2 + 8), 1); // ~Peq
      const x1_0 = v128.andnot(P1_0, E1_0);
      const s1_0 = i64x2.add(x1_0, P1_0);
      const c1_0 = i64x2.shr_u(v128.or(x1_0, v128.andnot(P1_0, s1_0)), 63); // carry out of block 0
      const s1_1 = i64x2.add(i64x2.add(v128.andnot(P1_1, E1_1), P1_1), c1_0);
      const NXh1_0 = v128.andnot(E1_0, v128.xor(s1_0, P1_0));
      const Ph1_0 = v128.or(M1_0, v128.andnot(NXh1_0, P1_0)), Mh1_0 = v128.andnot(P1_0, NXh1_0);
      const NXv1_0 = v128.andnot(E1_0, M1_0);
      const NXh1_1 = v128.andnot(E1_1, v128.xor(s1_1, P1_1));
      const Ph1_1 = v128.or(M1_1, v128.andnot(NXh1_1, P1_1)), Mh1_1 = v128.andnot(P1_1, NXh1_1);
      const NXv1_1 = v128.andnot(E1_1, M1_1);
      S1 = i64x2.sub(i64x2.add(S1, i64x2.eq(v128.and(Mh1_1, SM), SM)), i64x2.eq(v128.and(Ph1_1, SM), SM));
      const Ps1_0 = i64x2.shl(Ph1_0, 1), Ms1_0 = i64x2.shl(Mh1_0, 1);
      const Ps1_1 = v128.or(i64x2.shl(Ph1_1, 1), i64x2.shr_u(Ph1_0, 63)), Ms1_1 = v128.or(i64x2.shl(Mh1_1, 1), i64x2.shr_u(Mh1_0, 63));
      P1_0 = v128.or(Ms1_0, v128.andnot(NXv1_0, Ps1_0)); M1_0 = v128.andnot(Ps1_0, NXv1_0);
      P1_1 = v128.or(Ms1_1, v128.andnot(NXv1_1, Ps1_1)); M1_1 = v128.andnot(Ps1_1, NXv1_1);
      a2++; a3++;
    }
    // rare (E <= markLim at ~1e-4 of the steps at minRatio 0.8): mark the lanes' positions
    if (v128.any_true(v128.or(i64x2.lt_s(S0, i64x2.splat(0)), i64x2.lt_s(S1, i64x2.splat(0))))) {
      mark2(i64x2.add(S0, v128.load(VCONST, 16)), a0 - 1, a1 - 1);
      mark2(i64x2.add(S1, v128.load(VCONST, 16)), a2 - 1, a3 - 1);
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  v128.store64_lane(st0 + 16, P0_1, 0); v128.store64_lane(st1 + 16, P0_1, 1);
  v128.store64_lane(st0 + 24, M0_1, 0); v128.store64_lane(st1 + 24, M0_1, 1);
  S0 = i64x2.add(S0, v128.load(VCONST, 16));
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  v128.store64_lane(st2 + 0, P1_0, 0); v128.store64_lane(st3 + 0, P1_0, 1);
  v128.store64_lane(st2 + 8, M1_0, 0); v128.store64_lane(st3 + 8, M1_0, 1);
  v128.store64_lane(st2 + 16, P1_1, 0); v128.store64_lane(st3 + 16, P1_1, 1);
  v128.store64_lane(st2 + 24, M1_1, 0); v128.store64_lane(st3 + 24, M1_1, 1);
  S1 = i64x2.add(S1, v128.load(VCONST, 16));
  v128.store64_lane(st2 + 48, S1, 0); v128.store64_lane(st3 + 48, S1, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
  store<i64>(st2, <i64>a2, 56);
  store<i64>(st3, <i64>a3, 56);
}

/** Lanes 0..1 (quote of 3 blocks) each advance `steps` characters: two lanes per v128 (i64x2), one vector; characters after which E <= markLim are marked (mark2). */
function simd3x1(steps: i32): void {
  const npeq = NPEQ, chars = CHARS; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop); the scores are kept less markLim + 1, so the
  // rare-path test is a sign test and needs no register
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let P0_1 = v128.load64_lane(st1 + 16, v128.load64_zero(st0 + 16), 1);
  let M0_1 = v128.load64_lane(st1 + 24, v128.load64_zero(st0 + 24), 1);
  let P0_2 = v128.load64_lane(st1 + 32, v128.load64_zero(st0 + 32), 1);
  let M0_2 = v128.load64_lane(st1 + 40, v128.load64_zero(st0 + 40), 1);
  let S0 = i64x2.sub(v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1), v128.load(VCONST, 16));
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + <usize>load<i32>(chars + (a0 << 2)) * 24;
      const r1 = npeq + <usize>load<i32>(chars + (a1 << 2)) * 24;
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const E0_1 = v128.load64_lane(r1 + 8, v128.load64_zero(r0 + 8), 1); // ~Peq
      const E0_2 = v128.load64_lane(r1 + 16, v128.load64_zero(r0 + 16), 1); // ~Peq
      const x0_0 = v128.andnot(P0_0, E0_0);
      const s0_0 = i64x2.add(x0_0, P0_0);
      const c0_0 = i64x2.shr_u(v128.or(x0_0, v128.andnot(P0_0, s0_0)), 63); // carry out of block 0
      const x0_1 = v128.andnot(P0_1, E0_1);
      const s0_1 = i64x2.add(i64x2.add(x0_1, P0_1), c0_0);
      const c0_1 = i64x2.shr_u(v128.or(x0_1, v128.andnot(P0_1, s0_1)), 63);
      const s0_2 = i64x2.add(i64x2.add(v128.andnot(P0_2, E0_2), P0_2), c0_1);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      const NXh0_1 = v128.andnot(E0_1, v128.xor(s0_1, P0_1));
      const Ph0_1 = v128.or(M0_1, v128.andnot(NXh0_1, P0_1)), Mh0_1 = v128.andnot(P0_1, NXh0_1);
      const NXv0_1 = v128.andnot(E0_1, M0_1);
      const NXh0_2 = v128.andnot(E0_2, v128.xor(s0_2, P0_2));
      const Ph0_2 = v128.or(M0_2, v128.andnot(NXh0_2, P0_2)), Mh0_2 = v128.andnot(P0_2, NXh0_2);
      const NXv0_2 = v128.andnot(E0_2, M0_2);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_2, SM), SM)), i64x2.eq(v128.and(Ph0_2, SM), SM));
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      const Ps0_1 = v128.or(i64x2.shl(Ph0_1, 1), i64x2.shr_u(Ph0_0, 63)), Ms0_1 = v128.or(i64x2.shl(Mh0_1, 1), i64x2.shr_u(Mh0_0, 63));
      const Ps0_2 = v128.or(i64x2.shl(Ph0_2, 1), i64x2.shr_u(Ph0_1, 63)), Ms0_2 = v128.or(i64x2.shl(Mh0_2, 1), i64x2.shr_u(Mh0_1, 63));
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      P0_1 = v128.or(Ms0_1, v128.andnot(NXv0_1, Ps0_1)); M0_1 = v128.andnot(Ps0_1, NXv0_1);
      P0_2 = v128.or(Ms0_2, v128.andnot(NXv0_2, Ps0_2)); M0_2 = v128.andnot(Ps0_2, NXv0_2);
      a0++; a1++;
    }
    // rare (E <= markLim at ~1e-4 of the steps at minRatio 0.8): mark the lanes' positions
    if (v128.any_true(i64x2.lt_s(S0, i64x2.splat(0)))) {
      mark2(i64x2.add(S0, v128.load(VCONST, 16)), a0 - 1, a1 - 1);
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  v128.store64_lane(st0 + 16, P0_1, 0); v128.store64_lane(st1 + 16, P0_1, 1);
  v128.store64_lane(st0 + 24, M0_1, 0); v128.store64_lane(st1 + 24, M0_1, 1);
  v128.store64_lane(st0 + 32, P0_2, 0); v128.store64_lane(st1 + 32, P0_2, 1);
  v128.store64_lane(st0 + 40, M0_2, 0); v128.store64_lane(st1 + 40, M0_2, 1);
  S0 = i64x2.add(S0, v128.load(VCONST, 16));
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
}

/** Lanes 0..3 (quote of 1 block) each advance `steps` characters: two lanes per v128 (i64x2), 2 vectors interleaved; E after each character to ES (dense marks). */
function simd1x2d(steps: i32): void {
  const npeq = NPEQ, chars = CHARS, es = ES; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop)
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  const st2 = LANES + 128;
  let a2 = <usize>load<i64>(st2, 56);
  const st3 = LANES + 192;
  let a3 = <usize>load<i64>(st3, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let S0 = v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1);
  let P1_0 = v128.load64_lane(st3 + 0, v128.load64_zero(st2 + 0), 1);
  let M1_0 = v128.load64_lane(st3 + 8, v128.load64_zero(st2 + 8), 1);
  let S1 = v128.load64_lane(st3 + 48, v128.load64_zero(st2 + 48), 1);
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + (<usize>load<i32>(chars + (a0 << 2)) << 3);
      const r1 = npeq + (<usize>load<i32>(chars + (a1 << 2)) << 3);
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const s0_0 = i64x2.add(v128.andnot(P0_0, E0_0), P0_0);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_0, SM), SM)), i64x2.eq(v128.and(Ph0_0, SM), SM));
      v128.store16_lane(es + (a0 << 1), S0, 0);
      v128.store16_lane(es + (a1 << 1), S0, 4);
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      a0++; a1++;
    }
    {
      const r2 = npeq + (<usize>load<i32>(chars + (a2 << 2)) << 3);
      const r3 = npeq + (<usize>load<i32>(chars + (a3 << 2)) << 3);
      const E1_0 = v128.load64_lane(r3 + 0, v128.load64_zero(r2 + 0), 1); // ~Peq
      const s1_0 = i64x2.add(v128.andnot(P1_0, E1_0), P1_0);
      const NXh1_0 = v128.andnot(E1_0, v128.xor(s1_0, P1_0));
      const Ph1_0 = v128.or(M1_0, v128.andnot(NXh1_0, P1_0)), Mh1_0 = v128.andnot(P1_0, NXh1_0);
      const NXv1_0 = v128.andnot(E1_0, M1_0);
      S1 = i64x2.sub(i64x2.add(S1, i64x2.eq(v128.and(Mh1_0, SM), SM)), i64x2.eq(v128.and(Ph1_0, SM), SM));
      v128.store16_lane(es + (a2 << 1), S1, 0);
      v128.store16_lane(es + (a3 << 1), S1, 4);
      const Ps1_0 = i64x2.shl(Ph1_0, 1), Ms1_0 = i64x2.shl(Mh1_0, 1);
      P1_0 = v128.or(Ms1_0, v128.andnot(NXv1_0, Ps1_0)); M1_0 = v128.andnot(Ps1_0, NXv1_0);
      a2++; a3++;
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  v128.store64_lane(st2 + 0, P1_0, 0); v128.store64_lane(st3 + 0, P1_0, 1);
  v128.store64_lane(st2 + 8, M1_0, 0); v128.store64_lane(st3 + 8, M1_0, 1);
  v128.store64_lane(st2 + 48, S1, 0); v128.store64_lane(st3 + 48, S1, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
  store<i64>(st2, <i64>a2, 56);
  store<i64>(st3, <i64>a3, 56);
}

/** Lanes 0..3 (quote of 2 blocks) each advance `steps` characters: two lanes per v128 (i64x2), 2 vectors interleaved; E after each character to ES (dense marks). */
function simd2x2d(steps: i32): void {
  const npeq = NPEQ, chars = CHARS, es = ES; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop)
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  const st2 = LANES + 128;
  let a2 = <usize>load<i64>(st2, 56);
  const st3 = LANES + 192;
  let a3 = <usize>load<i64>(st3, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let P0_1 = v128.load64_lane(st1 + 16, v128.load64_zero(st0 + 16), 1);
  let M0_1 = v128.load64_lane(st1 + 24, v128.load64_zero(st0 + 24), 1);
  let S0 = v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1);
  let P1_0 = v128.load64_lane(st3 + 0, v128.load64_zero(st2 + 0), 1);
  let M1_0 = v128.load64_lane(st3 + 8, v128.load64_zero(st2 + 8), 1);
  let P1_1 = v128.load64_lane(st3 + 16, v128.load64_zero(st2 + 16), 1);
  let M1_1 = v128.load64_lane(st3 + 24, v128.load64_zero(st2 + 24), 1);
  let S1 = v128.load64_lane(st3 + 48, v128.load64_zero(st2 + 48), 1);
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + (<usize>load<i32>(chars + (a0 << 2)) << 4);
      const r1 = npeq + (<usize>load<i32>(chars + (a1 << 2)) << 4);
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const E0_1 = v128.load64_lane(r1 + 8, v128.load64_zero(r0 + 8), 1); // ~Peq
      const x0_0 = v128.andnot(P0_0, E0_0);
      const s0_0 = i64x2.add(x0_0, P0_0);
      const c0_0 = i64x2.shr_u(v128.or(x0_0, v128.andnot(P0_0, s0_0)), 63); // carry out of block 0
      const s0_1 = i64x2.add(i64x2.add(v128.andnot(P0_1, E0_1), P0_1), c0_0);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      const NXh0_1 = v128.andnot(E0_1, v128.xor(s0_1, P0_1));
      const Ph0_1 = v128.or(M0_1, v128.andnot(NXh0_1, P0_1)), Mh0_1 = v128.andnot(P0_1, NXh0_1);
      const NXv0_1 = v128.andnot(E0_1, M0_1);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_1, SM), SM)), i64x2.eq(v128.and(Ph0_1, SM), SM));
      v128.store16_lane(es + (a0 << 1), S0, 0);
      v128.store16_lane(es + (a1 << 1), S0, 4);
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      const Ps0_1 = v128.or(i64x2.shl(Ph0_1, 1), i64x2.shr_u(Ph0_0, 63)), Ms0_1 = v128.or(i64x2.shl(Mh0_1, 1), i64x2.shr_u(Mh0_0, 63));
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      P0_1 = v128.or(Ms0_1, v128.andnot(NXv0_1, Ps0_1)); M0_1 = v128.andnot(Ps0_1, NXv0_1);
      a0++; a1++;
    }
    {
      const r2 = npeq + (<usize>load<i32>(chars + (a2 << 2)) << 4);
      const r3 = npeq + (<usize>load<i32>(chars + (a3 << 2)) << 4);
      const E1_0 = v128.load64_lane(r3 + 0, v128.load64_zero(r2 + 0), 1); // ~Peq
      const E1_1 = v128.load64_lane(r3 + 8, v128.load64_zero(r2 + 8), 1); // ~Peq
      const x1_0 = v128.andnot(P1_0, E1_0);
      const s1_0 = i64x2.add(x1_0, P1_0);
      const c1_0 = i64x2.shr_u(v128.or(x1_0, v128.andnot(P1_0, s1_0)), 63); // carry out of block 0
      const s1_1 = i64x2.add(i64x2.add(v128.andnot(P1_1, E1_1), P1_1), c1_0);
      const NXh1_0 = v128.andnot(E1_0, v128.xor(s1_0, P1_0));
      const Ph1_0 = v128.or(M1_0, v128.andnot(NXh1_0, P1_0)), Mh1_0 = v128.andnot(P1_0, NXh1_0);
      const NXv1_0 = v128.andnot(E1_0, M1_0);
      const NXh1_1 = v128.andnot(E1_1, v128.xor(s1_1, P1_1));
      const Ph1_1 = v128.or(M1_1, v128.andnot(NXh1_1, P1_1)), Mh1_1 = v128.andnot(P1_1, NXh1_1);
      const NXv1_1 = v128.andnot(E1_1, M1_1);
      S1 = i64x2.sub(i64x2.add(S1, i64x2.eq(v128.and(Mh1_1, SM), SM)), i64x2.eq(v128.and(Ph1_1, SM), SM));
      v128.store16_lane(es + (a2 << 1), S1, 0);
      v128.store16_lane(es + (a3 << 1), S1, 4);
      const Ps1_0 = i64x2.shl(Ph1_0, 1), Ms1_0 = i64x2.shl(Mh1_0, 1);
      const Ps1_1 = v128.or(i64x2.shl(Ph1_1, 1), i64x2.shr_u(Ph1_0, 63)), Ms1_1 = v128.or(i64x2.shl(Mh1_1, 1), i64x2.shr_u(Mh1_0, 63));
      P1_0 = v128.or(Ms1_0, v128.andnot(NXv1_0, Ps1_0)); M1_0 = v128.andnot(Ps1_0, NXv1_0);
      P1_1 = v128.or(Ms1_1, v128.andnot(NXv1_1, Ps1_1)); M1_1 = v128.andnot(Ps1_1, NXv1_1);
      a2++; a3++;
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  v128.store64_lane(st0 + 16, P0_1, 0); v128.store64_lane(st1 + 16, P0_1, 1);
  v128.store64_lane(st0 + 24, M0_1, 0); v128.store64_lane(st1 + 24, M0_1, 1);
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  v128.store64_lane(st2 + 0, P1_0, 0); v128.store64_lane(st3 + 0, P1_0, 1);
  v128.store64_lane(st2 + 8, M1_0, 0); v128.store64_lane(st3 + 8, M1_0, 1);
  v128.store64_lane(st2 + 16, P1_1, 0); v128.store64_lane(st3 + 16, P1_1, 1);
  v128.store64_lane(st2 + 24, M1_1, 0); v128.store64_lane(st3 + 24, M1_1, 1);
  v128.store64_lane(st2 + 48, S1, 0); v128.store64_lane(st3 + 48, S1, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
  store<i64>(st2, <i64>a2, 56);
  store<i64>(st3, <i64>a3, 56);
}

/** Lanes 0..1 (quote of 3 blocks) each advance `steps` characters: two lanes per v128 (i64x2), one vector; E after each character to ES (dense marks). */
function simd3x1d(steps: i32): void {
  const npeq = NPEQ, chars = CHARS, es = ES; // globals into locals: the engine reloads globals every use
  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;
  // v128 constants it would rebuild in the loop)
  const st0 = LANES + 0;
  let a0 = <usize>load<i64>(st0, 56);
  const st1 = LANES + 64;
  let a1 = <usize>load<i64>(st1, 56);
  let P0_0 = v128.load64_lane(st1 + 0, v128.load64_zero(st0 + 0), 1);
  let M0_0 = v128.load64_lane(st1 + 8, v128.load64_zero(st0 + 8), 1);
  let P0_1 = v128.load64_lane(st1 + 16, v128.load64_zero(st0 + 16), 1);
  let M0_1 = v128.load64_lane(st1 + 24, v128.load64_zero(st0 + 24), 1);
  let P0_2 = v128.load64_lane(st1 + 32, v128.load64_zero(st0 + 32), 1);
  let M0_2 = v128.load64_lane(st1 + 40, v128.load64_zero(st0 + 40), 1);
  let S0 = v128.load64_lane(st1 + 48, v128.load64_zero(st0 + 48), 1);
  for (let t = 0; t < steps; t++) {
    {
      const r0 = npeq + <usize>load<i32>(chars + (a0 << 2)) * 24;
      const r1 = npeq + <usize>load<i32>(chars + (a1 << 2)) * 24;
      const E0_0 = v128.load64_lane(r1 + 0, v128.load64_zero(r0 + 0), 1); // ~Peq
      const E0_1 = v128.load64_lane(r1 + 8, v128.load64_zero(r0 + 8), 1); // ~Peq
      const E0_2 = v128.load64_lane(r1 + 16, v128.load64_zero(r0 + 16), 1); // ~Peq
      const x0_0 = v128.andnot(P0_0, E0_0);
      const s0_0 = i64x2.add(x0_0, P0_0);
      const c0_0 = i64x2.shr_u(v128.or(x0_0, v128.andnot(P0_0, s0_0)), 63); // carry out of block 0
      const x0_1 = v128.andnot(P0_1, E0_1);
      const s0_1 = i64x2.add(i64x2.add(x0_1, P0_1), c0_0);
      const c0_1 = i64x2.shr_u(v128.or(x0_1, v128.andnot(P0_1, s0_1)), 63);
      const s0_2 = i64x2.add(i64x2.add(v128.andnot(P0_2, E0_2), P0_2), c0_1);
      const NXh0_0 = v128.andnot(E0_0, v128.xor(s0_0, P0_0));
      const Ph0_0 = v128.or(M0_0, v128.andnot(NXh0_0, P0_0)), Mh0_0 = v128.andnot(P0_0, NXh0_0);
      const NXv0_0 = v128.andnot(E0_0, M0_0);
      const NXh0_1 = v128.andnot(E0_1, v128.xor(s0_1, P0_1));
      const Ph0_1 = v128.or(M0_1, v128.andnot(NXh0_1, P0_1)), Mh0_1 = v128.andnot(P0_1, NXh0_1);
      const NXv0_1 = v128.andnot(E0_1, M0_1);
      const NXh0_2 = v128.andnot(E0_2, v128.xor(s0_2, P0_2));
      const Ph0_2 = v128.or(M0_2, v128.andnot(NXh0_2, P0_2)), Mh0_2 = v128.andnot(P0_2, NXh0_2);
      const NXv0_2 = v128.andnot(E0_2, M0_2);
      S0 = i64x2.sub(i64x2.add(S0, i64x2.eq(v128.and(Mh0_2, SM), SM)), i64x2.eq(v128.and(Ph0_2, SM), SM));
      v128.store16_lane(es + (a0 << 1), S0, 0);
      v128.store16_lane(es + (a1 << 1), S0, 4);
      const Ps0_0 = i64x2.shl(Ph0_0, 1), Ms0_0 = i64x2.shl(Mh0_0, 1);
      const Ps0_1 = v128.or(i64x2.shl(Ph0_1, 1), i64x2.shr_u(Ph0_0, 63)), Ms0_1 = v128.or(i64x2.shl(Mh0_1, 1), i64x2.shr_u(Mh0_0, 63));
      const Ps0_2 = v128.or(i64x2.shl(Ph0_2, 1), i64x2.shr_u(Ph0_1, 63)), Ms0_2 = v128.or(i64x2.shl(Mh0_2, 1), i64x2.shr_u(Mh0_1, 63));
      P0_0 = v128.or(Ms0_0, v128.andnot(NXv0_0, Ps0_0)); M0_0 = v128.andnot(Ps0_0, NXv0_0);
      P0_1 = v128.or(Ms0_1, v128.andnot(NXv0_1, Ps0_1)); M0_1 = v128.andnot(Ps0_1, NXv0_1);
      P0_2 = v128.or(Ms0_2, v128.andnot(NXv0_2, Ps0_2)); M0_2 = v128.andnot(Ps0_2, NXv0_2);
      a0++; a1++;
    }
  }
  v128.store64_lane(st0 + 0, P0_0, 0); v128.store64_lane(st1 + 0, P0_0, 1);
  v128.store64_lane(st0 + 8, M0_0, 0); v128.store64_lane(st1 + 8, M0_0, 1);
  v128.store64_lane(st0 + 16, P0_1, 0); v128.store64_lane(st1 + 16, P0_1, 1);
  v128.store64_lane(st0 + 24, M0_1, 0); v128.store64_lane(st1 + 24, M0_1, 1);
  v128.store64_lane(st0 + 32, P0_2, 0); v128.store64_lane(st1 + 32, P0_2, 1);
  v128.store64_lane(st0 + 40, M0_2, 0); v128.store64_lane(st1 + 40, M0_2, 1);
  v128.store64_lane(st0 + 48, S0, 0); v128.store64_lane(st1 + 48, S0, 1);
  store<i64>(st0, <i64>a0, 56);
  store<i64>(st1, <i64>a1, 56);
}


/**
 * Phase A for the words [w0, w1), quotes of 4+ blocks: the same recurrences on one lb-bit integer
 * per lane, spread over 64-bit words (state in PVV/MVV: one v128 per block, lane l at +8l); the
 * addition carries upward, the shifts carry each word's top bit into the next. Two lanes in one
 * i64x2 (simdEN) when the text is long: lane 0 from the text's start to the middle word, lane 1
 * from t0 (n + 1 words before the middle) to the end. Lane 1's warm-up [t0, middle) may mark
 * characters of lane 0's share: harmless, because lane 0 passes each of them later (at step
 * p - c0 >= p - t0, or in its scalar finish after the loop) and from an earlier start, so its
 * E there is <= lane 1's: it marks whatever lane 1 marked and overwrites the score with its own,
 * which bounds every window ending there (they start at or after c0).
 */
function passEN(w0: i32, w1: i32, lb: i32, n: i32, blocks: i32): void {
  const sh: u64 = <u64>((lb - 1) & 63);
  const c0 = load<i32>(CSTART + (<usize>w0 << 2));
  const c1 = load<i32>(CEND + (<usize>(w1 - 1) << 2));
  for (let k = 0; k < blocks; k++) {
    v128.store(PVV + (<usize>k << 4), i64x2.splat(-1));
    v128.store(MVV + (<usize>k << 4), i64x2.splat(0));
  }
  const nw = w1 - w0;
  if (nw < 2 * 4 * (n + 2)) {
    runEN(0, c0, c1 - c0, <i64>lb, blocks, sh);
    return;
  }
  const wa = w0 + (nw >> 1);
  const own = load<i32>(CSTART + (<usize>wa << 2));
  const t0 = load<i32>(CSTART + (<usize>max(w0, wa - n - 1) << 2));
  const s0 = own - c0, s1 = c1 - t0;
  const both = min(s0, s1);
  v128.store(VCONST, i64x2.splat(<i64>1 << <i64>sh));
  v128.store(VCONST, i64x2.splat(markLim + 1), 16);
  const S = simdEN(blocks, <usize>c0, <usize>t0, both, i64x2.splat(<i64>lb));
  // the lane with steps left finishes alone
  if (s0 > both) runEN(0, c0 + both, s0 - both, i64x2.extract_lane(S, 0), blocks, sh);
  else if (s1 > both) runEN(1, t0 + both, s1 - both, i64x2.extract_lane(S, 1), blocks, sh);
}

/** Lanes 0 and 1 of PVV/MVV (quote of `blocks` blocks) advance `steps` characters from a0, a1 with scores S; marks as simd1x2. Returns the scores. */
function simdEN(blocks: i32, a0: usize, a1: usize, steps: i32, S: v128): v128 {
  const npeq = NPEQ, chars = CHARS, pvv = PVV, mvv = MVV; // globals into locals
  const SM = v128.load(VCONST);
  const LIM = v128.load(VCONST, 16);
  const stride = <usize>blocks << 3;
  for (let t = 0; t < steps; t++) {
    const r0 = npeq + <usize>load<i32>(chars + (a0 << 2)) * stride;
    const r1 = npeq + <usize>load<i32>(chars + (a1 << 2)) * stride;
    const zero = i64x2.splat(0);
    let c = zero, cP = zero, cM = zero, Ph = zero, Mh = zero;
    for (let k = 0; k < blocks; k++) {
      const o = <usize>k << 4;
      const P = v128.load(pvv + o), M = v128.load(mvv + o);
      const E = v128.load64_lane(r1 + (<usize>k << 3), v128.load64_zero(r0 + (<usize>k << 3)), 1); // ~Peq
      const x = v128.andnot(P, E);
      const s = i64x2.add(i64x2.add(x, P), c);
      c = i64x2.shr_u(v128.or(x, v128.andnot(P, s)), 63); // carry out: x ⊆ P (see the header)
      const NXh = v128.andnot(E, v128.xor(s, P));
      Ph = v128.or(M, v128.andnot(NXh, P));
      Mh = v128.andnot(P, NXh);
      const NXv = v128.andnot(E, M);
      const Ps = v128.or(i64x2.shl(Ph, 1), cP), Ms = v128.or(i64x2.shl(Mh, 1), cM);
      cP = i64x2.shr_u(Ph, 63);
      cM = i64x2.shr_u(Mh, 63);
      v128.store(pvv + o, v128.or(Ms, v128.andnot(NXv, Ps)));
      v128.store(mvv + o, v128.andnot(Ps, NXv));
    }
    // Ph, Mh: the last word's horizontal deltas before the shift; bit sh is row lb's
    S = i64x2.sub(i64x2.add(S, i64x2.eq(v128.and(Mh, SM), SM)), i64x2.eq(v128.and(Ph, SM), SM));
    a0++;
    a1++;
    if (v128.any_true(i64x2.lt_s(S, LIM))) mark2(S, a0 - 1, a1 - 1);
  }
  return S;
}

/** Lane l of PVV/MVV advances `steps` characters from p with score `score`, scalar; marks as lane1. */
function runEN(l: i32, p: i32, steps: i32, score: i64, blocks: i32, sh: u64): void {
  const lim = markLim;
  const pv = PVV + (<usize>l << 3), mv = MVV + (<usize>l << 3);
  for (let t = 0; t < steps; t++, p++) {
    const row = PEQ + ((<usize>load<i32>(CHARS + (<usize>p << 2)) * <usize>blocks) << 3);
    let carry: u64 = 0;
    let cPh: u64 = 0;
    let cMh: u64 = 0;
    let Ph: u64 = 0;
    let Mh: u64 = 0;
    for (let k = 0; k < blocks; k++) {
      const o = <usize>k << 4;
      const Pv = load<u64>(pv + o);
      const Mv = load<u64>(mv + o);
      const Eq = load<u64>(row + (<usize>k << 3));
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
      store<u64>(pv + o, Mh1 | ~(Xv | Ph1));
      store<u64>(mv + o, Ph1 & Xv);
    }
    // Ph, Mh: the last word's horizontal deltas before the shift; bit (lb-1) is row lb's
    score += <i64>((Ph >> sh) & 1) - <i64>((Mh >> sh) & 1);
    if (score <= lim) mark(<usize>p, score);
  }
}

/**
 * The largest E(e) for which some window ending at e can pass bounds 1 and 2 (-1: none can);
 * phase A marks only the characters with E <= this. Proof, with the same doubles as qiScan's
 * checks: bound 1 passes only when fl(2·min(la, lb)/(la+lb)) >= r; for la >= lb that quotient is
 * non-increasing in la (IEEE division is monotone), so passing windows have la <= Lmax, the
 * largest la >= lb that passes (found by doubling, then bisection), and T = la+lb <= Tmax =
 * Lmax+lb (windows with la < lb have T < 2·lb <= Tmax). Bound 2 passes only when
 * fl((T-E)/T) >= r; (T-E)/T = 1 - E/T grows with T, so fl((T-E)/T) <= fl((Tmax-E)/Tmax): a window
 * can pass only if E passes at Tmax, and that test is non-increasing in E: the largest E in
 * [0, lb] passing it is the limit (E <= lb always: D[lb][j] <= lb).
 */
function markLimit(lb: i32, r: f64): i64 {
  if (<f64>(2 * lb) / <f64>(2 * lb) < r) return -1; // la = lb fails bound 1 (r > 1)
  let ok: i64 = lb; // passes bound 1
  let bad: i64 = 0; // fails it (found below)
  let step: i64 = 1;
  for (;;) {
    const la = ok + step;
    if (la > (<i64>1 << 40)) return lb; // r tiny: every E may pass
    if (<f64>(2 * lb) / <f64>(la + lb) < r) { bad = la; break; }
    ok = la;
    step <<= 1;
  }
  while (bad - ok > 1) {
    const mid = ok + ((bad - ok) >> 1);
    if (<f64>(2 * lb) / <f64>(mid + lb) < r) bad = mid;
    else ok = mid;
  }
  const T = <f64>(ok + lb);
  let e: i64 = lb;
  while (e >= 0 && (T - <f64>e) / T < r) e--;
  return e;
}

/** The quote in QUOTE[0, lb) with ids < alphabet: its Peq tables (PEQ, NPEQ) and character counts (CNT_B). */
function setupQuote(lb: i32, alphabet: i32, blocks: i32): void {
  memory.fill(CNT_B, 0, <usize>alphabet << 2);
  memory.fill(PEQ, 0, (<usize>alphabet * <usize>blocks) << 3);
  for (let j = 0; j < lb; j++) {
    const c = load<i32>(QUOTE + (<usize>j << 2));
    const cb = CNT_B + (<usize>c << 2);
    store<i32>(cb, load<i32>(cb) + 1);
    const p = PEQ + ((<usize>c * <usize>blocks + <usize>(j >> 6)) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(j & 63)));
  }
  for (let i = 0; i < alphabet * blocks; i++) store<u64>(NPEQ + (<usize>i << 3), ~load<u64>(PEQ + (<usize>i << 3)));
}

/** markLim and dense for minRatio (see markLimit and `dense`). */
function setLimit(lb: i32, blocks: i32, minRatio: f64): void {
  markLim = markLimit(lb, minRatio);
  dense = blocks <= 3 && markLim * 5 > <i64>lb * 3;
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
 * bound 2 holds as in the lanes (the TS twin is WindowScanner.scan in ts/match/quote-index.ts).
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
 * One chunk of a text, for a scan cut into pieces (ts/match/quote-index.ts `scanChunked`, which checks
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
 * The linear pass at a high threshold with a one-block prefix (ts/match/quote-index.ts `searchBest`
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
function markedRanges(w0: i32, w1: i32, lb: i32, m: i32, limit: i32, count: i32, maxRanges: i32): i32 {
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
function scanRangeList(count: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64): i32 {
  const blocks = (lb + 63) >> 6;
  setupQuote(lb, alphabet, blocks);
  setLimit(lb, blocks, minRatio);
  for (let i = 0; i < count; i++) {
    scanWords(load<i32>(RANGES + (<usize>i << 3)), load<i32>(RANGES + (<usize>i << 3), 4), lb, n, blocks, minRatio, false);
  }
  return nOut;
}

// ---------------------------------------------------------------------------------------------
// The lanes pass (qiScanLanes): the linear pass at a high threshold T through a prefix of the
// quote, as qiScanPrefix, but over 16 lanes of W = 16 or 32 bits at once and with the semi-global
// INDEL distance in place of Levenshtein (ts/match/quote-index.ts `searchBest` (h) and (i) have the
// proofs of what a mark covers).
//
// Layout (qiLanesLayout, once per texts): the C key characters of all texts are cut into 16
// shares of `share` = ceil(C/16) characters; TX[16t + l] is the code of character l·share + t
// (255 past C). Code = the alphabet id when < 254, else 254 (one code for every rarer id: a text
// character then "matches" every quote character of code 254, which can only lower a distance,
// so every bound below stays sound); 255 matches nothing. Lane l runs the DP from character
// l·share fresh (D[i][l·share − 1] = i): its score after character p of its share is
//   E_l(p) = min over X = text[s, p], s >= l·share, of indel(X, b1),
// and a window that starts before l·share and ends in lane l's share straddles the boundary
// l·share: those are covered by marking every e1 in [c − lb + m − D − 1, c + m + D] (c = l·share;
// proof at qiScanLanes). Texts follow each other in the characters with no separator; a DP running
// from one text into the next is a min over more substrings, so it is never larger than the
// one-text value (sound), and marks are mapped to words per text.
//
// ~Peq of the 16 lanes: one 16-byte load of codes, then per byte plane of the lane word
// ~Peq[c] = ~LO[c & 15] | ~HI[c >> 4], where LO[x] has bit j set when the quote's code at row j
// has low nibble x and HI[y] when its high nibble is y; their AND is exactly the rows whose code
// is c (both nibbles equal), so the complement is the OR of the complements: two i8x16.swizzle
// per plane (W/8 planes). Unpack shuffles then put plane k's byte of lane l into byte k of lane l's
// word (two for W = 16; six for W = 32: bytes, then 16-bit pairs).
//
// The pattern b1 = the quote's first m = min(lb, W) characters sits in the lane's top m bits;
// the W − m rows below match nothing. Such rows have D[i][j] = i for every j (row 0 is 0, and a
// row that never matches is its row above plus one), so row W − m is the constant W − m and the
// rows above it compute the semi-global DP of b1 plus W − m: the lane's score is E + (W − m),
// compared against D + (W − m). Scores are <= W (D[W][j] <= D[W][-1] = W) and kept less
// (D + W − m + 1) > -W - 1 in one i8x16 for both widths.
//
// Semi-global indel distance (no substitutions; D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1,
// D[i-1][j-1] if b_i = t_j), D[0][j] = 0, D[i][-1] = i), bit-parallel. Adjacent cells still
// differ by -1, 0 or +1 (adding one character to either string changes an indel distance by
// exactly 1, and a min over starts keeps |difference| <= 1), so the column is (Pv, Mv) as in
// Myers. For cell (i, j) with a = D[i-1][j-1], dv = D[i][j-1] - a (the previous column's vertical
// delta), dh = D[i-1][j] - a (the horizontal delta one row down): D[i][j] - a = 1 + x with
// x = min(eq ? -1 : +inf, dh, dv) in {-1, 0, 1}; the new horizontal delta is 1 + x - dv and the
// new vertical one 1 + x - dh. Case by case (Xh = eq | dh == -1, Xv = eq | dv == -1):
//   Mh = Pv & Xh (as Myers: its chain Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq is the same);
//   Ph = Mv | ~Xh & ~Pv | ~Xh & Pv & Ph_in (the last term is new: x = +1 when nothing matches
//        and dh = dv = +1), a carry chain Ph[i] = G[i] | Pr[i] & Ph[i-1] with G = Mv | ~(Xh | Pv),
//        Pr = Pv & ~Xh (disjoint): Ph = G | Pr & ((G + (G | Pr)) ^ Pr), G | Pr = Mv | ~Xh;
//   Pv' = Mh_in | ~Xv & (~Ph_in | Pv), Mv' = Ph_in & Xv (Ph_in, Mh_in: Ph, Mh shifted up one row,
//        0 into row 1: row 0 is all zeros).
// Checked against the plain DP on 20,000 random pairs (m <= 32, alphabets of 2-5) while writing
// it, and by test/match/quote-index-lanes.test.ts through the windows found (a wrong Ph fails it).

/** Lane share of the layout in TX, and the characters it holds (-1: none yet). */
let txShare: i32 = 0;
let txChars: i32 = -1;
/** The lanes pass's tables: ~LO, ~HI of byte plane k (rows 8k to 8k + 7) at 32k, 32k + 16 (k < W/8). */
const LTAB: usize = memory.data(128, 16);
/** [0, 16): 0x0F bytes; [16, 32): every lane's starting score less (its limit + 1), i8 lanes. */
const LCONST: usize = memory.data(32, 16);
/** The lanes' scores at a rare step (laneMarks). */
const LSCORES: usize = memory.data(16, 16);

/**
 * Transpose the C key characters in CHARS into TX for the lanes pass (after the texts are copied;
 * again whenever they change). Returns the share (steps per lane).
 */
export function qiLanesLayout(C: i32): i32 {
  const share = (C + 15) >> 4;
  for (let l = 0; l < 16; l++) {
    for (let t = 0; t < share; t++) {
      const p = l * share + t;
      store<u8>(TX + (<usize>t << 4) + <usize>l, <u8>(p < C ? min(load<i32>(CHARS + (<usize>p << 2)), 254) : 255));
    }
  }
  txShare = share;
  txChars = C;
  return share;
}

/**
 * The second check of the 32-bit lanes' marks (the quote's lb <= 64 characters, PEQ built for the
 * whole quote in one block; m, D as in qiScanLanes): a window W >= T whose part W1 aligned to b1
 * ends at e1 lies in
 * characters [e1 − m − D + 1, e1 + lb − m + D] (searchBest (h)) and has indel(W, b) <= D, so the
 * semi-global indel distance of the whole quote, run from that range's first character (the lanes'
 * recurrences, scalar, one block; rows above lb only receive carries) is <= D at W's last
 * character. When it stays above D over the whole range no window >= T has its W1 ending at e1
 * (the characters are all texts' in a row: a DP across a text boundary is a min over more
 * substrings, as in the lanes): the mark is dropped
 * (the runs at the lane boundaries are marked after it). A run of marks e1 <= e' <= e2 is checked
 * at once over [e1 − m − D + 1, e2 + lb − m + D], the union of their ranges: a DP from an earlier
 * start is a min over more substrings, so no score <= D there means none in any mark's own range.
 * Returns whether the marks may hold.
 */
function markHolds(e1: i32, e2: i32, chars: i32, lb: i32, m: i32, D: i32): bool {
  const peq = PEQ, text = CHARS;
  const sh = <u64>(lb - 1);
  let P: u64 = lb == 64 ? ~(<u64>0) : (<u64>1 << <u64>lb) - 1, M: u64 = 0;
  let score = lb;
  for (let p = max(0, e1 - m - D + 1), z = min(chars - 1, e2 + lb - m + D); p <= z; p++) {
    const E = load<u64>(peq + (<usize>load<i32>(text + (<usize>p << 2)) << 3));
    const Xv = E | M;
    const Xh = (((E & P) + P) ^ P) | E;
    const Mh = P & Xh;
    const G = M | ~(Xh | P), Pr = P & ~Xh; // the indel recurrences of the lanes (above)
    const Ph = G | (Pr & ~(G + (G | Pr)));
    score += <i32>((Ph >> sh) & 1) - <i32>((Mh >> sh) & 1);
    if (score <= D) return true;
    const Ps = Ph << 1;
    P = (Mh << 1) | ~Xv & (~Ps | P);
    M = Ps & Xv;
  }
  return false;
}

/** Clear the marks of BITS[0, C) that do not hold (markHolds), in runs of marks less than MARK_RUN apart. */
function checkMarks(C: i32, lb: i32, m: i32, D: i32): void {
  let first = -1, last = -1;
  for (let wi = 0, wn = (C - 1) >> 6; wi <= wn; wi++) {
    let bits = load<u64>(BITS + (<usize>wi << 3));
    while (bits != 0) {
      const e = (wi << 6) + <i32>ctz(bits);
      bits &= bits - 1;
      if (first >= 0 && e - last >= MARK_RUN) {
        if (!markHolds(first, last, C, lb, m, D)) clearBits(first, last);
        first = -1;
      }
      if (first < 0) first = e;
      last = e;
    }
  }
  if (first >= 0 && !markHolds(first, last, C, lb, m, D)) clearBits(first, last);
}

/** Marks less than this many characters apart are checked as one run (checkMarks). */
const MARK_RUN = 16;

/** Clear BITS for characters [a, b]. */
function clearBits(a: i32, b: i32): void {
  for (let p = a; p <= b; p++) {
    const q = BITS + (<usize>p >> 3);
    store<u8>(q, load<u8>(q) & ~(<u8>1 << <u8>(p & 7)));
  }
}

/** Set BITS for each lane whose score in S is negative (its E <= limit) at step t; returns how many. */
function laneMarks(S: v128, t: i32, share: i32, chars: i32): i32 {
  v128.store(LSCORES, S);
  let marks = 0;
  for (let l = 0; l < 16; l++) {
    const p = l * share + t;
    if (load<i8>(LSCORES + <usize>l) >= 0 || p >= chars) continue;
    const b = BITS + (<usize>p >> 3);
    store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
    marks++;
  }
  return marks;
}

/** The lanes pass: 16 lanes of 16 bits, semi-global indel distance, `steps` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */
function lanes16i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {
  const tx = TX;
  const NIB = v128.load(LCONST); // 0x0F bytes
  const NLO0 = v128.load(LTAB, 0), NHI0 = v128.load(LTAB, 16), NLO1 = v128.load(LTAB, 32), NHI1 = v128.load(LTAB, 48);
  let P0 = i16x8.splat(-1), M0 = i16x8.splat(0), P1 = i16x8.splat(-1), M1 = i16x8.splat(0);
  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)
  let marks = 0;
  for (let t = 0; t < steps; t++) {
    const c = v128.load(tx + (<usize>t << 4));
    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);
    const N0 = v128.or(i8x16.swizzle(NLO0, lo), i8x16.swizzle(NHI0, hi)); // ~Peq, rows 0-7 of the 16 lanes
    const N1 = v128.or(i8x16.swizzle(NLO1, lo), i8x16.swizzle(NHI1, hi)); // rows 8-15
    const E0 = i8x16.shuffle(N0, N1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23); // lanes 0-7
    const E1 = i8x16.shuffle(N0, N1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // lanes 8-15
    const s0 = i16x8.add(v128.andnot(P0, E0), P0); // (Eq & Pv) + Pv
    const NXh0 = v128.andnot(E0, v128.xor(s0, P0)); // ~Xh
    const Mh0 = v128.andnot(P0, NXh0);
    const G0 = v128.or(M0, v128.andnot(NXh0, P0)), Pr0 = v128.and(P0, NXh0);
    const Ph0 = v128.or(G0, v128.and(Pr0, v128.xor(i16x8.add(G0, v128.or(M0, NXh0)), Pr0)));
    const NXv0 = v128.andnot(E0, M0); // ~Xv
    const Ps0 = i16x8.shl(Ph0, 1), Ms0 = i16x8.shl(Mh0, 1);
    P0 = v128.or(Ms0, v128.andnot(NXv0, v128.andnot(Ps0, P0)));
    M0 = v128.andnot(Ps0, NXv0);
    const s1 = i16x8.add(v128.andnot(P1, E1), P1); // (Eq & Pv) + Pv
    const NXh1 = v128.andnot(E1, v128.xor(s1, P1)); // ~Xh
    const Mh1 = v128.andnot(P1, NXh1);
    const G1 = v128.or(M1, v128.andnot(NXh1, P1)), Pr1 = v128.and(P1, NXh1);
    const Ph1 = v128.or(G1, v128.and(Pr1, v128.xor(i16x8.add(G1, v128.or(M1, NXh1)), Pr1)));
    const NXv1 = v128.andnot(E1, M1); // ~Xv
    const Ps1 = i16x8.shl(Ph1, 1), Ms1 = i16x8.shl(Mh1, 1);
    P1 = v128.or(Ms1, v128.andnot(NXv1, v128.andnot(Ps1, P1)));
    M1 = v128.andnot(Ps1, NXv1);
    S = i8x16.add(i8x16.sub(S, i8x16.narrow_i16x8_s(i16x8.shr_s(Ph0, 15), i16x8.shr_s(Ph1, 15))), i8x16.narrow_i16x8_s(i16x8.shr_s(Mh0, 15), i16x8.shr_s(Mh1, 15)));
    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)
      marks += laneMarks(S, t, share, chars);
      if (marks > maxMarks) return -1;
    }
  }
  return marks;
}

/** The lanes pass: 16 lanes of 32 bits, semi-global indel distance, `steps` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */
function lanes32i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {
  const tx = TX;
  const NIB = v128.load(LCONST); // 0x0F bytes
  const NLO0 = v128.load(LTAB, 0), NHI0 = v128.load(LTAB, 16);
  const NLO1 = v128.load(LTAB, 32), NHI1 = v128.load(LTAB, 48);
  const NLO2 = v128.load(LTAB, 64), NHI2 = v128.load(LTAB, 80);
  const NLO3 = v128.load(LTAB, 96), NHI3 = v128.load(LTAB, 112);
  let P0 = i32x4.splat(-1), M0 = i32x4.splat(0), P1 = i32x4.splat(-1), M1 = i32x4.splat(0);
  let P2 = i32x4.splat(-1), M2 = i32x4.splat(0), P3 = i32x4.splat(-1), M3 = i32x4.splat(0);
  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)
  let marks = 0;
  for (let t = 0; t < steps; t++) {
    const c = v128.load(tx + (<usize>t << 4));
    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);
    const N0 = v128.or(i8x16.swizzle(NLO0, lo), i8x16.swizzle(NHI0, hi)); // ~Peq, rows 0-7 of the 16 lanes
    const N1 = v128.or(i8x16.swizzle(NLO1, lo), i8x16.swizzle(NHI1, hi)); // ~Peq, rows 8-15 of the 16 lanes
    const N2 = v128.or(i8x16.swizzle(NLO2, lo), i8x16.swizzle(NHI2, hi)); // ~Peq, rows 16-23 of the 16 lanes
    const N3 = v128.or(i8x16.swizzle(NLO3, lo), i8x16.swizzle(NHI3, hi)); // ~Peq, rows 24-31 of the 16 lanes
    const u0 = i8x16.shuffle(N0, N1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), u1 = i8x16.shuffle(N0, N1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // planes 0, 1 of lanes 0-7; of lanes 8-15
    const u2 = i8x16.shuffle(N2, N3, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), u3 = i8x16.shuffle(N2, N3, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // planes 2, 3
    const E0 = i8x16.shuffle(u0, u2, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23); // lanes 0-3
    const s0 = i32x4.add(v128.andnot(P0, E0), P0); // (Eq & Pv) + Pv
    const NXh0 = v128.andnot(E0, v128.xor(s0, P0)); // ~Xh
    const Mh0 = v128.andnot(P0, NXh0);
    const G0 = v128.or(M0, v128.andnot(NXh0, P0)), Pr0 = v128.and(P0, NXh0);
    const Ph0 = v128.or(G0, v128.andnot(Pr0, i32x4.add(G0, v128.or(M0, NXh0)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv0 = v128.andnot(E0, M0); // ~Xv
    const Ps0 = i32x4.shl(Ph0, 1), Ms0 = i32x4.shl(Mh0, 1);
    P0 = v128.or(Ms0, v128.andnot(NXv0, v128.andnot(Ps0, P0)));
    M0 = v128.andnot(Ps0, NXv0);
    const E1 = i8x16.shuffle(u0, u2, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31); // lanes 4-7
    const s1 = i32x4.add(v128.andnot(P1, E1), P1); // (Eq & Pv) + Pv
    const NXh1 = v128.andnot(E1, v128.xor(s1, P1)); // ~Xh
    const Mh1 = v128.andnot(P1, NXh1);
    const G1 = v128.or(M1, v128.andnot(NXh1, P1)), Pr1 = v128.and(P1, NXh1);
    const Ph1 = v128.or(G1, v128.andnot(Pr1, i32x4.add(G1, v128.or(M1, NXh1)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv1 = v128.andnot(E1, M1); // ~Xv
    const Ps1 = i32x4.shl(Ph1, 1), Ms1 = i32x4.shl(Mh1, 1);
    P1 = v128.or(Ms1, v128.andnot(NXv1, v128.andnot(Ps1, P1)));
    M1 = v128.andnot(Ps1, NXv1);
    const up0 = i16x8.narrow_i32x4_s(Ph0, Ph1), down0 = i16x8.narrow_i32x4_s(Mh0, Mh1); // signs kept
    const E2 = i8x16.shuffle(u1, u3, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23); // lanes 8-11
    const s2 = i32x4.add(v128.andnot(P2, E2), P2); // (Eq & Pv) + Pv
    const NXh2 = v128.andnot(E2, v128.xor(s2, P2)); // ~Xh
    const Mh2 = v128.andnot(P2, NXh2);
    const G2 = v128.or(M2, v128.andnot(NXh2, P2)), Pr2 = v128.and(P2, NXh2);
    const Ph2 = v128.or(G2, v128.andnot(Pr2, i32x4.add(G2, v128.or(M2, NXh2)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv2 = v128.andnot(E2, M2); // ~Xv
    const Ps2 = i32x4.shl(Ph2, 1), Ms2 = i32x4.shl(Mh2, 1);
    P2 = v128.or(Ms2, v128.andnot(NXv2, v128.andnot(Ps2, P2)));
    M2 = v128.andnot(Ps2, NXv2);
    const E3 = i8x16.shuffle(u1, u3, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31); // lanes 12-15
    const s3 = i32x4.add(v128.andnot(P3, E3), P3); // (Eq & Pv) + Pv
    const NXh3 = v128.andnot(E3, v128.xor(s3, P3)); // ~Xh
    const Mh3 = v128.andnot(P3, NXh3);
    const G3 = v128.or(M3, v128.andnot(NXh3, P3)), Pr3 = v128.and(P3, NXh3);
    const Ph3 = v128.or(G3, v128.andnot(Pr3, i32x4.add(G3, v128.or(M3, NXh3)))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))
    const NXv3 = v128.andnot(E3, M3); // ~Xv
    const Ps3 = i32x4.shl(Ph3, 1), Ms3 = i32x4.shl(Mh3, 1);
    P3 = v128.or(Ms3, v128.andnot(NXv3, v128.andnot(Ps3, P3)));
    M3 = v128.andnot(Ps3, NXv3);
    const up1 = i16x8.narrow_i32x4_s(Ph2, Ph3), down1 = i16x8.narrow_i32x4_s(Mh2, Mh3); // signs kept
    const up = i8x16.narrow_i16x8_s(up0, up1), down = i8x16.narrow_i16x8_s(down0, down1); // sign = the lane's row-32 Ph, Mh
    S = i8x16.add(i8x16.sub(S, i8x16.lt_s(up, i8x16.splat(0))), i8x16.lt_s(down, i8x16.splat(0)));
    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)
      marks += laneMarks(S, t, share, chars);
      if (marks > maxMarks) return -1;
    }
  }
  return marks;
}

/**
 * The linear pass at threshold minRatio through the quote's first m = min(lb, W) characters in
 * 16 lanes of W = 16 or 32 bits (the layout of qiLanesLayout must be current), with the semi-global
 * indel distance; D = the indel budget of a window with ratio >= minRatio (ts/match/quote-index.ts
 * `searchBest` (b)), < m. The two widths differ only in m (the proof below holds for any m <= lb):
 * 32 bits cost about twice the DP a character and mark far less at a larger D (docs/moot.md). Every character e1 whose lane scores E_l(e1) <= D marks the words of
 * characters [e1 − m − D + 1, e1 + (lb − m) + D] of its text (proof (h), (i): W1, the part of a
 * window W >= T aligned to b1, has indel(W1, b1) <= D, ends at e1 inside W and starts at
 * >= e1 − m − D + 1, and W2 ends by e1 + (lb − m) + D); lane l's E_l(e1) bounds indel(W1, b1) when
 * W starts at or after l·share. A window W = [s, e] >= T starting before c = l·share and ending at
 * or after it straddles c: its la <= lb + D (d >= la − lb), so s >= c − lb − D + 1 and
 * e <= c + lb + D − 2, and the character e1 = max(e − lb + m − D, s) lies in W (e − s + 1 <= lb + D
 * and m <= lb) with [e1 − m − D + 1, e1 + lb − m + D] ⊇ [s, e] (e1 <= s + m + D − 1 and
 * e1 >= e − lb + m − D) and c − lb + m − D − 1 < e1 < c + m + D: so marking that whole run of
 * characters covers every straddling window through a character of its own text. The marked
 * ranges (merged, ascending) are then scanned with the whole quote as qiScanRanges does. Returns
 * the windows >= minRatio (qiScan's, in no order), or -1 when the marks exceed maxMarks or the
 * ranges maxRanges (the caller then runs qiScan).
 */
export function qiScanLanes(nSources: i32, lb: i32, n: i32, alphabet: i32, minRatio: f64, onlySource: i32, W: i32, D: i32, maxMarks: i32, maxRanges: i32): i32 {
  nOut = 0;
  const C = txChars;
  if (lb == 0 || C <= 0) return 0;
  const share = txShare;
  const m = min(lb, W);
  const pad = W - m;
  memory.fill(LTAB, 0, 128);
  for (let j = 0; j < m; j++) {
    const code = min(load<i32>(QUOTE + (<usize>j << 2)), 254);
    const bit = pad + j;
    const plane = LTAB + (<usize>(bit >> 3) << 5);
    const b = <u8>1 << <u8>(bit & 7);
    store<u8>(plane + <usize>(code & 15), load<u8>(plane + <usize>(code & 15)) | b);
    store<u8>(plane + 16 + <usize>(code >> 4), load<u8>(plane + 16 + <usize>(code >> 4)) | b);
  }
  for (let k: usize = 0; k < 128; k += 16) v128.store(LTAB + k, v128.not(v128.load(LTAB + k)));
  v128.store(LCONST, i8x16.splat(0x0f));
  v128.store(LCONST, i8x16.splat(<i8>(W - (D + pad + 1))), 16);
  memory.fill(BITS, 0, <usize>((C + 63) >> 6) << 3);
  if ((W == 32 ? lanes32i(share, share, C, maxMarks) : lanes16i(share, share, C, maxMarks)) < 0) return -1;
  // 32-bit lanes: each mark checked with the whole quote when it fits one block (markHolds)
  if (W == 32 && lb <= 64) {
    setupQuote(lb, alphabet, 1);
    checkMarks(C, lb, m, D);
  }
  // the lane boundaries: every character that may carry a straddling window (see above)
  for (let c = share; c < C; c += share) {
    for (let p = max(0, c - lb + m - D - 1), z = min(C - 1, c + m + D); p <= z; p++) {
      const b = BITS + (<usize>p >> 3);
      store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
    }
  }
  let count = 0;
  for (let s = 0; s < nSources; s++) {
    if (onlySource >= 0 && s != onlySource) continue;
    const w0 = load<i32>(SW + (<usize>s << 2));
    const w1 = load<i32>(SW + (<usize>(s + 1) << 2));
    if (w1 == w0) continue;
    count = markedRanges(w0, w1, lb, m, D, count, maxRanges);
    if (count < 0) return -1;
  }
  return scanRangeList(count, lb, n, alphabet, minRatio);
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
