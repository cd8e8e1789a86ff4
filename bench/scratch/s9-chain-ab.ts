// Interleaved CPU A/B (session 9) of the q-gram filter's chain test (`chainedPairs`, tuning.gramChain)
// on and off, one index, `locate(q, {limit: 1})` (WASM) per bench quote; per quote the median CPU ms.
// Checks both give the same first span.   npx tsx bench/scratch/s9-chain-ab.ts [rounds]
import { initNodeBackends } from "../../bindings/init-node.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/moot/quote-index.js";
import { targetQuotes } from "./target-quotes.js";
await initNodeBackends();
const { tuning, searchPaths } = __quoteIndexInternals;
const rounds = Number(process.argv[2] ?? 15);
const { books, quotes } = targetQuotes();
const index = createQuoteIndex(books, { backend: "wasm" });
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const set = (on: boolean) => { tuning.gramChain = on; };
const t = { off: quotes.map(() => [] as number[]), on: quotes.map(() => [] as number[]) };
const ways: string[] = [];
quotes.forEach((q, i) => {
  set(false); const a = JSON.stringify(index.locate(q, { limit: 1 }));
  set(true); const before = { ...searchPaths }; const b = JSON.stringify(index.locate(q, { limit: 1 }));
  ways.push(Object.keys(searchPaths).filter((k) => (searchPaths as Record<string, number>)[k] !== (before as Record<string, number>)[k]).join("+"));
  if (a !== b) throw new Error(`first spans differ: ${q}`);
});
for (let r = 0; r < rounds; r++) quotes.forEach((q, i) => {
  for (const on of r % 2 ? [true, false] : [false, true]) { set(on); t[on ? "on" : "off"][i].push(cpu(() => index.locate(q, { limit: 1 }))); }
});
quotes.forEach((_, i) => console.log(`${i} | ${ways[i]} | off ${med(t.off[i]).toFixed(3)} | on ${med(t.on[i]).toFixed(3)}`));
