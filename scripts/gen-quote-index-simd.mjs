// Writes the SIMD loops of the quote index's edit-distance pass (assembly/quote-index/simd.ts, phase A):
// simd{B}x{V} advances 2V lanes (V i64x2 vectors, two lanes each) over a quote of B 64-bit blocks.
// The loops are written out (no loops over blocks or vectors) so every value stays in a register;
// assembly/quote-index/simd.ts holds the output of
//   node scripts/gen-quote-index-simd.mjs 1x2 2x2 3x1 1x2d 2x2d 3x1d
// (a trailing d: the dense form, storing E after every character, for low minRatio).
// pasted in place of the functions it replaces. `BxVxU` also unrolls U steps per iteration
// (measured: no faster; docs/moot.md as of commit a7407109ac, "The edit-distance pass, faster").
export function gen(B, V, opts = {}) {
  const o = [];
  const rowAddr = (a) => B === 1 ? `(<usize>load<i32>(chars + (${a} << 2)) << 3)` : B === 2 ? `(<usize>load<i32>(chars + (${a} << 2)) << 4)` : `<usize>load<i32>(chars + (${a} << 2)) * 24`;
  const D = !!opts.dense;
  o.push(`/** Lanes 0..${2 * V - 1} (quote of ${B} block${B > 1 ? "s" : ""}) each advance \`steps\` characters: two lanes per v128 (i64x2), ${V === 1 ? "one vector" : `${V} vectors interleaved`}; ${D ? "E after each character to ES (dense marks)" : "characters after which E <= markLim are marked (mark2)"}. */`);
  o.push(`function simd${B}x${V}${D ? "d" : ""}(steps: i32): void {`);
  o.push(`  const npeq = NPEQ, chars = CHARS${D ? ", es = ES" : ""}; // globals into locals: the engine reloads globals every use`);
  o.push(`  const SM = v128.load(VCONST); // bit sh: the quote's last row in the last block (loads: the engine keeps them in registers;`);
  if (!D) {
    o.push(`  // v128 constants it would rebuild in the loop); the scores are kept less markLim + 1, so the`);
    o.push(`  // rare-path test is a sign test and needs no register`);
  } else o.push(`  // v128 constants it would rebuild in the loop)`);
  for (let l = 0; l < 2 * V; l++) {
    o.push(`  const st${l} = LANES + ${l * 64};`);
    o.push(`  let a${l} = <usize>load<i64>(st${l}, 56);`);
  }
  for (let v = 0; v < V; v++) {
    for (let k = 0; k < B; k++) {
      o.push(`  let P${v}_${k} = v128.load64_lane(st${2 * v + 1} + ${16 * k}, v128.load64_zero(st${2 * v} + ${16 * k}), 1);`);
      o.push(`  let M${v}_${k} = v128.load64_lane(st${2 * v + 1} + ${16 * k + 8}, v128.load64_zero(st${2 * v} + ${16 * k + 8}), 1);`);
    }
    const S0 = `v128.load64_lane(st${2 * v + 1} + 48, v128.load64_zero(st${2 * v} + 48), 1)`;
    o.push(D ? `  let S${v} = ${S0};` : `  let S${v} = i64x2.sub(${S0}, v128.load(VCONST, 16));`);
  }
  const U = opts.unroll ?? 1;
  o.push(U === 1 ? `  for (let t = 0; t < steps; t++) {` : `  for (let t = 0; t < steps; t += ${U}) { // steps: a multiple of ${U}`);
  for (let u = 0; u < U; u++) {
  if (u > 0) for (let v = 0; v < V; v++) o.push(`    const S${v}_${u - 1} = S${v};`);
  for (let v = 0; v < V; v++) {
    const A = `a${2 * v}`, Bn = `a${2 * v + 1}`;
    o.push(`    {`);
    o.push(`      const r${2 * v} = npeq + ${rowAddr(A)};`);
    o.push(`      const r${2 * v + 1} = npeq + ${rowAddr(Bn)};`);
    for (let k = 0; k < B; k++) o.push(`      const E${v}_${k} = v128.load64_lane(r${2 * v + 1} + ${8 * k}, v128.load64_zero(r${2 * v} + ${8 * k}), 1); // ~Peq`);
    const X = (k) => `v128.andnot(P${v}_${k}, E${v}_${k})`;
    if (B === 1) {
      o.push(`      const s${v}_0 = i64x2.add(${X(0)}, P${v}_0);`);
    } else {
      // carry out of x + P (+ c) with x ⊆ P: (x & P | (x | P) & ~s) >> 63 = (x | P & ~s) >> 63
      o.push(`      const x${v}_0 = ${X(0)};`);
      o.push(`      const s${v}_0 = i64x2.add(x${v}_0, P${v}_0);`);
      o.push(`      const c${v}_0 = i64x2.shr_u(v128.or(x${v}_0, v128.andnot(P${v}_0, s${v}_0)), 63); // carry out of block 0`);
      if (B === 2) {
        o.push(`      const s${v}_1 = i64x2.add(i64x2.add(${X(1)}, P${v}_1), c${v}_0);`);
      } else {
        o.push(`      const x${v}_1 = ${X(1)};`);
        o.push(`      const s${v}_1 = i64x2.add(i64x2.add(x${v}_1, P${v}_1), c${v}_0);`);
        o.push(`      const c${v}_1 = i64x2.shr_u(v128.or(x${v}_1, v128.andnot(P${v}_1, s${v}_1)), 63);`);
        o.push(`      const s${v}_2 = i64x2.add(i64x2.add(${X(2)}, P${v}_2), c${v}_1);`);
      }
    }
    for (let k = 0; k < B; k++) {
      o.push(`      const NXh${v}_${k} = v128.andnot(E${v}_${k}, v128.xor(s${v}_${k}, P${v}_${k}));`);
      o.push(`      const Ph${v}_${k} = v128.or(M${v}_${k}, v128.andnot(NXh${v}_${k}, P${v}_${k})), Mh${v}_${k} = v128.andnot(P${v}_${k}, NXh${v}_${k});`);
      o.push(`      const NXv${v}_${k} = v128.andnot(E${v}_${k}, M${v}_${k});`);
    }
    const L = B - 1;
    o.push(`      S${v} = i64x2.sub(i64x2.add(S${v}, i64x2.eq(v128.and(Mh${v}_${L}, SM), SM)), i64x2.eq(v128.and(Ph${v}_${L}, SM), SM));`);
    if (D) {
      o.push(`      v128.store16_lane(es + (${A} << 1), S${v}, 0);`);
      o.push(`      v128.store16_lane(es + (${Bn} << 1), S${v}, 4);`);
    }
    o.push(`      const Ps${v}_0 = i64x2.shl(Ph${v}_0, 1), Ms${v}_0 = i64x2.shl(Mh${v}_0, 1);`);
    for (let k = 1; k < B; k++) {
      o.push(`      const Ps${v}_${k} = v128.or(i64x2.shl(Ph${v}_${k}, 1), i64x2.shr_u(Ph${v}_${k - 1}, 63)), Ms${v}_${k} = v128.or(i64x2.shl(Mh${v}_${k}, 1), i64x2.shr_u(Mh${v}_${k - 1}, 63));`);
    }
    for (let k = 0; k < B; k++) {
      o.push(`      P${v}_${k} = v128.or(Ms${v}_${k}, v128.andnot(NXv${v}_${k}, Ps${v}_${k})); M${v}_${k} = v128.andnot(Ps${v}_${k}, NXv${v}_${k});`);
    }
    o.push(`      ${A}++; ${Bn}++;`);
    o.push(`    }`);
  }
  }
  const Sname = (v, u) => (u === U - 1 ? `S${v}` : `S${v}_${u}`);
  const terms = [];
  for (let u = 0; u < U; u++) for (let v = 0; v < V; v++) terms.push(`i64x2.lt_s(${Sname(v, u)}, i64x2.splat(0))`);
  const any = terms.reduce((a, b) => `v128.or(${a}, ${b})`);
  if (!D) {
    o.push(`    // rare (E <= markLim at ~1e-4 of the steps at minRatio 0.8): mark the lanes' positions`);
    o.push(`    if (v128.any_true(${any})) {`);
    for (let u = 0; u < U; u++) for (let v = 0; v < V; v++) o.push(`      mark2(i64x2.add(${Sname(v, u)}, v128.load(VCONST, 16)), a${2 * v} - ${U - u}, a${2 * v + 1} - ${U - u});`);
    o.push(`    }`);
  }
  o.push(`  }`);
  for (let v = 0; v < V; v++) {
    const s0 = `st${2 * v}`, s1 = `st${2 * v + 1}`;
    for (let k = 0; k < B; k++) {
      o.push(`  v128.store64_lane(${s0} + ${16 * k}, P${v}_${k}, 0); v128.store64_lane(${s1} + ${16 * k}, P${v}_${k}, 1);`);
      o.push(`  v128.store64_lane(${s0} + ${16 * k + 8}, M${v}_${k}, 0); v128.store64_lane(${s1} + ${16 * k + 8}, M${v}_${k}, 1);`);
    }
    if (!D) o.push(`  S${v} = i64x2.add(S${v}, v128.load(VCONST, 16));`);
    o.push(`  v128.store64_lane(${s0} + 48, S${v}, 0); v128.store64_lane(${s1} + 48, S${v}, 1);`);
  }
  for (let l = 0; l < 2 * V; l++) o.push(`  store<i64>(st${l}, <i64>a${l}, 56);`);
  o.push(`}`);
  return o.join("\n");
}
if (process.argv[2] && !process.argv[2].startsWith("lanes")) {
  const specs = process.argv.slice(2).map((s) => s.split("x").map(Number));
  console.log(process.argv.slice(2).map((s) => {
    const [b, v, u] = s.replace(/d$/, "").split("x").map(Number);
    return gen(b, v, { unroll: u ?? 1, dense: s.endsWith("d") });
  }).join("\n\n"));
}

// The lanes pass (assembly/quote-index/lanes.ts `qiScanLanes`): 16 lanes of 16 bits (two i16x8 vectors),
// each running the semi-global indel DP of the quote's first 16 characters over its share of the
// text; the lanes' characters at step t are the 16 bytes TX[16t, 16t + 16) (the text transposed
// once per index), and ~Peq of all 16 lanes comes from two 16-entry tables per byte plane (nibble
// split: ~Peq[c] = ~LO[c & 15] | ~HI[c >> 4], one i8x16.swizzle each), put into the lanes by two
// unpack shuffles. assembly/quote-index/lanes.ts has the recurrences and their proof. The pattern fills
// the lane's top bits, so its last row is bit 15 and a score step is one arithmetic shift; the 16
// scores, less (limit + 1), are one i8x16, so the rare-path test is one i8x16.bitmask.
//   node scripts/gen-quote-index-simd.mjs lanes16i
// Measured, not kept (docs/moot.md as of commit a7407109ac): the Levenshtein form (Myers' Ph = Mv | ~(Xh | Pv),
// Pv' = Mh_in | ~(Xv | Ph_in)) marks 10–20× as often at m = 16; two steps an iteration gained < 10 %.
// 32-bit lanes (lanes32i, below) were dropped in session 7 and brought back in session 10.
export function genLanes16() {
  const o = [];
  const T = "i16x8";
  o.push(`/** The lanes pass: 16 lanes of 16 bits, semi-global indel distance, \`steps\` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */`);
  o.push(`function lanes16i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {`);
  o.push(`  const tx = TX;`);
  o.push(`  const NIB = v128.load(LCONST); // 0x0F bytes`);
  o.push(`  const NLO0 = v128.load(LTAB, 0), NHI0 = v128.load(LTAB, 16), NLO1 = v128.load(LTAB, 32), NHI1 = v128.load(LTAB, 48);`);
  o.push(`  let P0 = ${T}.splat(-1), M0 = ${T}.splat(0), P1 = ${T}.splat(-1), M1 = ${T}.splat(0);`);
  o.push(`  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)`);
  o.push(`  let marks = 0;`);
  o.push(`  for (let t = 0; t < steps; t++) {`);
  o.push(`    const c = v128.load(tx + (<usize>t << 4));`);
  o.push(`    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);`);
  o.push(`    const N0 = v128.or(i8x16.swizzle(NLO0, lo), i8x16.swizzle(NHI0, hi)); // ~Peq, rows 0-7 of the 16 lanes`);
  o.push(`    const N1 = v128.or(i8x16.swizzle(NLO1, lo), i8x16.swizzle(NHI1, hi)); // rows 8-15`);
  o.push(`    const E0 = i8x16.shuffle(N0, N1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23); // lanes 0-7`);
  o.push(`    const E1 = i8x16.shuffle(N0, N1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31); // lanes 8-15`);
  for (let v = 0; v < 2; v++) {
    o.push(`    const s${v} = ${T}.add(v128.andnot(P${v}, E${v}), P${v}); // (Eq & Pv) + Pv`);
    o.push(`    const NXh${v} = v128.andnot(E${v}, v128.xor(s${v}, P${v})); // ~Xh`);
    o.push(`    const Mh${v} = v128.andnot(P${v}, NXh${v});`);
    o.push(`    const G${v} = v128.or(M${v}, v128.andnot(NXh${v}, P${v})), Pr${v} = v128.and(P${v}, NXh${v});`);
    o.push(`    const Ph${v} = v128.or(G${v}, v128.and(Pr${v}, v128.xor(${T}.add(G${v}, v128.or(M${v}, NXh${v})), Pr${v})));`);
    o.push(`    const NXv${v} = v128.andnot(E${v}, M${v}); // ~Xv`);
    o.push(`    const Ps${v} = ${T}.shl(Ph${v}, 1), Ms${v} = ${T}.shl(Mh${v}, 1);`);
    o.push(`    P${v} = v128.or(Ms${v}, v128.andnot(NXv${v}, v128.andnot(Ps${v}, P${v})));`);
    o.push(`    M${v} = v128.andnot(Ps${v}, NXv${v});`);
  }
  o.push(`    S = i8x16.add(i8x16.sub(S, i8x16.narrow_i16x8_s(i16x8.shr_s(Ph0, 15), i16x8.shr_s(Ph1, 15))), i8x16.narrow_i16x8_s(i16x8.shr_s(Mh0, 15), i16x8.shr_s(Mh1, 15)));`);
  o.push(`    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)`);
  o.push(`      marks += laneMarks(S, t, share, chars);`);
  o.push(`      if (marks > maxMarks) return -1;`);
  o.push(`    }`);
  o.push(`  }`);
  o.push(`  return marks;`);
  o.push(`}`);
  return o.join("\n");
}

// 16 lanes of 32 bits (four i32x4 vectors, four byte planes): the same DP over the quote's first
// 32 characters. The 16 scores stay one i8x16: the top bit of each lane's Ph (Mh) goes to its byte
// by signed saturating narrows (i32 -> i16 -> i8 keep the sign), and a compare with zero makes it
// -1, so the score step costs 10 instructions for the four vectors where per-vector i32 scores
// (session 7) cost 16 plus three ORs for the rare-path test; Pr & ((G + (G | Pr)) ^ Pr) is
// Pr & ~(G + (G | Pr)), one andnot. Measured, not kept (docs/moot.md as of commit a7407109ac): two passes of 8 lanes with
// two steps an iteration (fewer live vectors, V8 still spilled) and one swizzle a plane on classes
// min(code, 15) (4.6x the marks of quote 11): neither faster beyond noise.
//   node scripts/gen-quote-index-simd.mjs lanes32i
export function genLanes32() {
  const o = [];
  const T = "i32x4";
  const LO = "0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23", HI = "8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31";
  const LO2 = "0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23", HI2 = "8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31";
  o.push(`/** The lanes pass: 16 lanes of 32 bits, semi-global indel distance, \`steps\` steps from step 0; marks (laneMarks) the characters after which a lane's score is <= its limit; returns the marks, or -1 past maxMarks. */`);
  o.push(`function lanes32i(steps: i32, share: i32, chars: i32, maxMarks: i32): i32 {`);
  o.push(`  const tx = TX;`);
  o.push(`  const NIB = v128.load(LCONST); // 0x0F bytes`);
  for (let k = 0; k < 4; k++) o.push(`  const NLO${k} = v128.load(LTAB, ${32 * k}), NHI${k} = v128.load(LTAB, ${32 * k + 16});`);
  o.push(`  let P0 = ${T}.splat(-1), M0 = ${T}.splat(0), P1 = ${T}.splat(-1), M1 = ${T}.splat(0);`);
  o.push(`  let P2 = ${T}.splat(-1), M2 = ${T}.splat(0), P3 = ${T}.splat(-1), M3 = ${T}.splat(0);`);
  o.push(`  let S = v128.load(LCONST, 16); // i8x16: the 16 lanes' scores less (limit + 1)`);
  o.push(`  let marks = 0;`);
  o.push(`  for (let t = 0; t < steps; t++) {`);
  o.push(`    const c = v128.load(tx + (<usize>t << 4));`);
  o.push(`    const lo = v128.and(c, NIB), hi = v128.and(i16x8.shr_u(c, 4), NIB);`);
  for (let k = 0; k < 4; k++) o.push(`    const N${k} = v128.or(i8x16.swizzle(NLO${k}, lo), i8x16.swizzle(NHI${k}, hi)); // ~Peq, rows ${8 * k}-${8 * k + 7} of the 16 lanes`);
  o.push(`    const u0 = i8x16.shuffle(N0, N1, ${LO}), u1 = i8x16.shuffle(N0, N1, ${HI}); // planes 0, 1 of lanes 0-7; of lanes 8-15`);
  o.push(`    const u2 = i8x16.shuffle(N2, N3, ${LO}), u3 = i8x16.shuffle(N2, N3, ${HI}); // planes 2, 3`);
  const E = [`i8x16.shuffle(u0, u2, ${LO2})`, `i8x16.shuffle(u0, u2, ${HI2})`, `i8x16.shuffle(u1, u3, ${LO2})`, `i8x16.shuffle(u1, u3, ${HI2})`];
  for (let v = 0; v < 4; v++) {
    o.push(`    const E${v} = ${E[v]}; // lanes ${4 * v}-${4 * v + 3}`);
    o.push(`    const s${v} = ${T}.add(v128.andnot(P${v}, E${v}), P${v}); // (Eq & Pv) + Pv`);
    o.push(`    const NXh${v} = v128.andnot(E${v}, v128.xor(s${v}, P${v})); // ~Xh`);
    o.push(`    const Mh${v} = v128.andnot(P${v}, NXh${v});`);
    o.push(`    const G${v} = v128.or(M${v}, v128.andnot(NXh${v}, P${v})), Pr${v} = v128.and(P${v}, NXh${v});`);
    o.push(`    const Ph${v} = v128.or(G${v}, v128.andnot(Pr${v}, ${T}.add(G${v}, v128.or(M${v}, NXh${v})))); // Pr & ((G + (G | Pr)) ^ Pr) = Pr & ~(G + (G | Pr))`);
    o.push(`    const NXv${v} = v128.andnot(E${v}, M${v}); // ~Xv`);
    o.push(`    const Ps${v} = ${T}.shl(Ph${v}, 1), Ms${v} = ${T}.shl(Mh${v}, 1);`);
    o.push(`    P${v} = v128.or(Ms${v}, v128.andnot(NXv${v}, v128.andnot(Ps${v}, P${v})));`);
    o.push(`    M${v} = v128.andnot(Ps${v}, NXv${v});`);
    if (v % 2) o.push(`    const up${v >> 1} = i16x8.narrow_i32x4_s(Ph${v - 1}, Ph${v}), down${v >> 1} = i16x8.narrow_i32x4_s(Mh${v - 1}, Mh${v}); // signs kept`);
  }
  o.push(`    const up = i8x16.narrow_i16x8_s(up0, up1), down = i8x16.narrow_i16x8_s(down0, down1); // sign = the lane's row-32 Ph, Mh`);
  o.push(`    S = i8x16.add(i8x16.sub(S, i8x16.lt_s(up, i8x16.splat(0))), i8x16.lt_s(down, i8x16.splat(0)));`);
  o.push(`    if (i8x16.bitmask(S) != 0) { // rare: some lane's score <= its limit (sign bit set)`);
  o.push(`      marks += laneMarks(S, t, share, chars);`);
  o.push(`      if (marks > maxMarks) return -1;`);
  o.push(`    }`);
  o.push(`  }`);
  o.push(`  return marks;`);
  o.push(`}`);
  return o.join("\n");
}
if (process.argv[2]?.startsWith("lanes")) console.log(process.argv.slice(2).map((s) => (s === "lanes32i" ? genLanes32() : genLanes16())).join("\n\n"));
