// Probe (session 9): the q-gram filter's chain test (`searchBest` (k), `chainedPairs`) on the bench
// quotes at their best ratio: pairs before/after the chain, and gramRanges' CPU ms with and without it.
//   npx tsx bench/scratch/s9-chain-probe.ts [quote indexes, comma-separated]
import { initNodeBackends } from "../../bindings/init-node.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/moot/quote-index.js";
import { targetQuotes } from "./target-quotes.js";

await initNodeBackends();
const { prepare, prepareQuote, gramRanges, tuning, searchPaths } = __quoteIndexInternals;
const { books, quotes } = targetQuotes();
const ix = prepare(books);
const index = createQuoteIndex(books, { backend: "wasm" });
const which = (process.argv[2] ?? "1,2,5,6,7,9,10").split(",").map(Number);
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const i of which) {
  const best = index.locate(quotes[i], { limit: 1 })[0];
  const q = prepareQuote(ix, quotes[i]).q;
  const lb = q.ids.length;
  const D = Math.floor((2 * lb * (1 - best.ratio)) / best.ratio + 1e-6);
  const out: string[] = [];
  for (const chain of [false, true]) {
    tuning.gramChain = chain;
    tuning.gramShare = 0;
    const r = gramRanges(ix, q, D, -1, Infinity);
    const ms = med(Array.from({ length: 9 }, () => cpu(() => gramRanges(ix, q, D, -1, Infinity))));
    out.push(`chain ${chain}: ${r ? r.length / 2 : "null"} ranges, ${ms.toFixed(3)} ms`);
  }
  tuning.gramChain = true;
  tuning.gramShare = 16;
  const before = { ...searchPaths };
  const lms = med(Array.from({ length: 9 }, () => cpu(() => index.locate(quotes[i], { limit: 1 }))));
  const way = Object.keys(searchPaths).filter((k) => (searchPaths as Record<string, number>)[k] !== (before as Record<string, number>)[k]).join("+");
  console.log(`q${i} lb=${lb} D=${D} ratio ${best.ratio.toFixed(3)}: ${out.join(" | ")} | locate ${lms.toFixed(3)} ms via ${way}`);
}
