// Interleaved A/B of `locate(q, {limit: 1})` (WASM) between another checkout's code (argv[2], e.g.
// /work/main) and this one, against the exhaustive bestSpan scan (as bench/quote-index.bench.ts's
// case "locate vs exhaustive bestSpan"), in one process: per round, each quote, each contender
// once; per quote the median CPU ms (process.cpuUsage). Checks both give the same first span.
//   npx tsx bench/scratch/main-ab.ts /work/main [rounds]
import { pathToFileURL } from "node:url";
import { initNodeBackends } from "../../bindings/init-node.js";
import { wasmFor } from "../../bindings/wasm.js";
import { seqBindingFor } from "../../bindings/sequence-match.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";

const other = process.argv[2];
const rounds = Number(process.argv[3] ?? 8);
await initNodeBackends();
const otherInit = await import(pathToFileURL(`${other}/bindings/init-node.ts`).href);
await otherInit.initNodeBackends();
const otherQi = await import(pathToFileURL(`${other}/ts/match/quote-index.ts`).href);
const { books, quotes } = targetQuotes();
const mine = createQuoteIndex(books, { backend: "wasm" });
const theirs = otherQi.createQuoteIndex(books, { backend: "wasm" });
const prepared = __quoteIndexInternals.prepare(books);
const seq = seqBindingFor(wasmFor("wasm")!);
const seqOwner = {};
const exhaustive = (q: string) => seq.match(seqOwner, prepared, [__quoteIndexInternals.prepareQuote(prepared, q).q])[0];
const contenders: Record<string, (q: string) => unknown> = {
  exhaustive,
  main: (q) => theirs.locate(q, { limit: 1 }),
  branch: (q) => mine.locate(q, { limit: 1 }),
};
for (const q of quotes) {
  const a = JSON.stringify(theirs.locate(q, { limit: 1 })), b = JSON.stringify(mine.locate(q, { limit: 1 }));
  if (a !== b) throw new Error(`first spans differ: ${q}`);
}
const paths = __quoteIndexInternals.searchPaths as Record<string, number>;
const way = quotes.map((q) => {
  const before = { ...paths };
  mine.locate(q, { limit: 1 });
  return Object.keys(paths).filter((k) => paths[k] !== before[k]).join("+");
});
const t: Record<string, number[][]> = {};
for (let r = 0; r < rounds; r++) {
  quotes.forEach((q, i) => {
    // main and this branch in alternating order (the one right after the exhaustive scan finds its caches cold)
    const order = r % 2 ? ["exhaustive", "branch", "main"] : ["exhaustive", "main", "branch"];
    for (const name of order) {
      const f = contenders[name];
      if (name === "exhaustive" && r >= 3) continue;
      const c = process.cpuUsage();
      f(q);
      const d = process.cpuUsage(c);
      ((t[name] ??= quotes.map(() => []))[i]).push((d.user + d.system) / 1000);
    }
  });
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.map(med)]));
console.log("quote | way (this branch) | exhaustive ms | main limit 1 ms | this limit 1 ms | exhaustive ÷ main | exhaustive ÷ this");
quotes.forEach((_, i) => {
  const e = m.exhaustive[i], a = m.main[i], b = m.branch[i];
  console.log(`${i} | ${way[i]} | ${e.toFixed(1)} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${Math.round(e / a)}× | ${Math.round(e / b)}×`);
});
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
const ratios = (k: string) => m.exhaustive.map((e: number, i: number) => e / m[k][i]).sort((x: number, y: number) => x - y);
for (const k of ["main", "branch"]) console.log(`${k}: median ${Math.round(ratios(k)[6] * 0.5 + ratios(k)[5] * 0.5)}×, min ${Math.round(ratios(k)[0])}×, aggregate ${Math.round(sum(m.exhaustive) / sum(m[k]))}×, Σ ${sum(m[k]).toFixed(1)} ms`);
