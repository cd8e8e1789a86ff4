// Interleaved CPU A/B (session 9) of values of one `tuning` field of the quote index (argv[2], e.g.
// gramSurvivorCost) for `locate(q, {limit: 1})` (WASM) on the bench quotes, one index and one process:
// per round, each quote, each value once (order rotating); per quote the median CPU ms, and the way.
//   npx tsx bench/scratch/s9-tuning-ab.ts gramSurvivorCost 300,3000,30000 [rounds] [quotes]
import { initNodeBackends } from "../../bindings/init-node.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
await initNodeBackends();
const { tuning, searchPaths } = __quoteIndexInternals;
const field = process.argv[2] as keyof typeof tuning;
const values = process.argv[3].split(",").map(Number);
const rounds = Number(process.argv[4] ?? 15);
const { books, quotes: all } = targetQuotes();
const which = (process.argv[5] ?? all.map((_, i) => i).join(",")).split(",").map(Number);
const index = createQuoteIndex(books, { backend: "wasm" });
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const set = (v: number) => { (tuning as Record<string, unknown>)[field] = v; };
const t = values.map(() => which.map(() => [] as number[]));
const ways = values.map(() => which.map(() => ""));
which.forEach((qi, j) => {
  const first = JSON.stringify(index.locate(all[qi], { limit: 1 }));
  values.forEach((v, a) => {
    set(v);
    const before = { ...searchPaths };
    if (JSON.stringify(index.locate(all[qi], { limit: 1 })) !== first) throw new Error(`answers differ: quote ${qi}, ${field} ${v}`);
    ways[a][j] = Object.keys(searchPaths).filter((k) => (searchPaths as Record<string, number>)[k] !== (before as Record<string, number>)[k]).join("+");
  });
});
for (let r = 0; r < rounds; r++) which.forEach((qi, j) => {
  for (let s = 0; s < values.length; s++) {
    const a = (s + r) % values.length;
    set(values[a]);
    t[a][j].push(cpu(() => index.locate(all[qi], { limit: 1 })));
  }
});
console.log(`quote | ${values.map((v) => `${field} ${v}`).join(" | ")}`);
which.forEach((qi, j) => console.log(`${qi} | ${values.map((_, a) => `${med(t[a][j]).toFixed(3)} (${ways[a][j]})`).join(" | ")}`));
