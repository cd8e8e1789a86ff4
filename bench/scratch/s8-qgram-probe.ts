// Probe (session 8): a q-gram pigeonhole filter with bucket masks (no anchors) for the six slow bench
// quotes at their best ratio: per P, the list entries and the surviving bucket groups. Q=4,3 SHIFT=3 npx tsx bench/scratch/s8-qgram-probe.ts
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
const { books, quotes } = targetQuotes();
const ix = __quoteIndexInternals.prepare(books);
const C = ix.chars.length;
const Ts: Record<number, number> = { 3: 0.8461538461538461, 6: 0.9278350515463918, 7: 0.9109947643979057, 9: 0.9333333333333333, 10: 0.914572864321608, 11: 0.8380952380952381 };
for (const q of (process.env.Q ?? "4").split(",").map(Number)) {
  const BITS = 21, H = 1 << BITS;
  const hash = (a: Int32Array, p: number) => { let h = 0; for (let t = 0; t < q; t++) h = Math.imul(h ^ a[p + t], 0x9e3779b1) + t; return (h >>> (32 - BITS)); };
  const t0 = performance.now();
  const start = new Int32Array(H + 1);
  for (let p = 0; p + q <= C; p++) start[hash(ix.chars, p) + 1]++;
  for (let h = 0; h < H; h++) start[h + 1] += start[h];
  const fill = start.slice(0, H);
  const pos = new Int32Array(C);
  for (let p = 0; p + q <= C; p++) pos[fill[hash(ix.chars, p)]++] = p;
  console.log(`q=${q}: index ${(performance.now() - t0).toFixed(0)} ms`);
  for (const [qi, T] of Object.entries(Ts)) {
    const b = __quoteIndexInternals.prepareQuote(ix, quotes[+qi]).q.ids;
    const lb = b.length;
    const D = Math.floor((2 * lb * (1 - T)) / T + 1e-6);
    const cnt = (x: number) => { const h = hash(b, x); return start[h + 1] - start[h]; };
    const res: string[] = [];
    for (let P = D + 1; P <= Math.min(32, Math.floor(lb / q)); P++) {
      // DP: P disjoint q-grams minimizing the total count
      const INF = 1e15;
      const f = Array.from({ length: lb + 1 }, () => new Float64Array(P + 1).fill(INF));
      const from = Array.from({ length: lb + 1 }, () => new Int8Array(P + 1));
      for (let i = 0; i <= lb; i++) f[i][0] = 0;
      for (let i = 1; i <= lb; i++) for (let j = 1; j <= P; j++) {
        f[i][j] = f[i - 1][j]; from[i][j] = 0;
        if (i >= q && f[i - q][j - 1] + cnt(i - q) < f[i][j]) { f[i][j] = f[i - q][j - 1] + cnt(i - q); from[i][j] = 1; }
      }
      if (f[lb][P] >= INF) break;
      const xs: number[] = [];
      for (let i = lb, j = P; j > 0; ) { if (from[i][j]) { xs.push(i - q); i -= q; j--; } else i--; }
      const shift = Number(process.env.SHIFT ?? 3);
      const w = 1 << shift;
      const g = Math.ceil(D / w) + 1;
      const nb = ((C + lb) >> shift) + 2;
      const mask = new Uint32Array(nb);
      const need = P - D;
      const t1 = performance.now();
      for (let k = 0; k < P; k++) {
        const h = hash(b, xs[k]);
        for (let o = start[h]; o < start[h + 1]; o++) { const B = pos[o] - xs[k] + lb; mask[B >> shift] |= 1 << k; }
      }
      let surv = 0;
      const pc = (x: number) => { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; };
      for (let j = 0; j + g <= nb; j++) { let m = 0; for (let t = 0; t < g; t++) m |= mask[j + t]; if (pc(m) >= need) surv++; }
      const ms = performance.now() - t1;
      res.push(`P=${P} need ${need} list ${f[lb][P]} surv ${surv} (${ms.toFixed(1)} ms)`);
    }
    console.log(`q${qi} lb=${lb} D=${D}: ${res.join(" | ")}`);
  }
}
