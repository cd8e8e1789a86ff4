// Phase A of the quote index scan, per lane: the semi-global Levenshtein E after each character
// (Myers 1999, 64-bit blocks), marking the characters where E <= markLim for phase B (scan.ts).
import { BITS, CHARS, CNT_B, ES, NPEQ, PEQ, QUOTE } from "./arena";

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
export const LANES: usize = memory.data(4 * 64, 16);
/** The SIMD loops' constants: i64x2 of 1 << sh, of markLim + 1. */
export const VCONST: usize = memory.data(32, 16);
/** Characters after which E <= markLim are marked (phase A); E > markLim fails bounds 1–2 for every window (qiScan). */
export let markLim: i64 = -1;
/**
 * Dense marks (quotes of 1–3 blocks, markLim > 0.6·lb, i.e. minRatio below ~0.78): when E is that
 * often small, the rare path would be taken and mispredicted often, so the loops (simd*d) store E
 * after every character and every word end is marked after the pass, as before the marks.
 */
export let dense = false;
/** Last character (exclusive) of each lane's share. */
export const LANE_END: usize = memory.data(4 * 4);

export function laneInit(l: i32, lb: i32, pos: i32): void {
  const st = LANES + (<usize>l << 6);
  for (let k = 0; k < 3; k++) {
    store<u64>(st + (<usize>k << 4), ~(<u64>0));
    store<u64>(st + (<usize>k << 4), 0, 8);
  }
  store<i64>(st, <i64>lb, 48);
  store<i64>(st, <i64>pos, 56);
}

export function laneRun(blocks: i32, l: i32, steps: i32, sh: u64, lim: i64): void {
  if (blocks == 1) lane1(l, steps, sh, lim);
  else if (blocks == 2) lane2(l, steps, sh, lim);
  else lane3(l, steps, sh, lim);
}

/** E after character p is s (<= markLim): keep it for phase B. */
@inline
export function mark(p: usize, s: i64): void {
  store<u16>(ES + (p << 1), <u16>s);
  const b = BITS + (p >> 3);
  store<u8>(b, load<u8>(b) | (<u8>1 << <u8>(p & 7)));
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
export function setupQuote(lb: i32, alphabet: i32, blocks: i32): void {
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
export function setLimit(lb: i32, blocks: i32, minRatio: f64): void {
  markLim = markLimit(lb, minRatio);
  dense = blocks <= 3 && markLim * 5 > <i64>lb * 3;
}
