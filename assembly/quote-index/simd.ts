// Phase A in SIMD: two lanes per i64x2. The simd{B}x{V} loops are the output of
//   node scripts/gen-quote-index-simd.mjs 1x2 2x2 3x1 1x2d 2x2d 3x1d
// pasted in place; passE and passEN choose and run them over a text.
import { CEND, CHARS, CSTART, ES, MVV, NPEQ, PEQ, PVV } from "./arena";
import { dense, LANE_END, laneInit, laneRun, LANES, mark, markLim, VCONST } from "./pass";

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
export function passE(w0: i32, w1: i32, lb: i32, n: i32, blocks: i32): void {
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
export function passEN(w0: i32, w1: i32, lb: i32, n: i32, blocks: i32): void {
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
