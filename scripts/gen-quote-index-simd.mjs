// Writes the SIMD loops of the quote index's edit-distance pass (assembly/quote-index.ts, phase A):
// simd{B}x{V} advances 2V lanes (V i64x2 vectors, two lanes each) over a quote of B 64-bit blocks.
// The loops are written out (no loops over blocks or vectors) so every value stays in a register;
// assembly/quote-index.ts holds the output of
//   node scripts/gen-quote-index-simd.mjs 1x2 2x2 3x1 1x2d 2x2d 3x1d
// (a trailing d: the dense form, storing E after every character, for low minRatio).
// pasted in place of the functions it replaces. `BxVxU` also unrolls U steps per iteration
// (measured: no faster; see docs/moot.md "Quote index: the pass").
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
if (process.argv[2]) {
  const specs = process.argv.slice(2).map((s) => s.split("x").map(Number));
  console.log(process.argv.slice(2).map((s) => {
    const [b, v, u] = s.replace(/d$/, "").split("x").map(Number);
    return gen(b, v, { unroll: u ?? 1, dense: s.endsWith("d") });
  }).join("\n\n"));
}
