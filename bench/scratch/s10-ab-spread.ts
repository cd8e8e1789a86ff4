// Paired A/B spread for chosen bench quotes: per round, main's and this branch's `locate(q, {limit: 1})`
// (WASM) in alternating order, CPU ms; prints each side's median and the per-round ratio main ÷ branch
// (quartiles).  npx tsx bench/scratch/s10-ab-spread.ts /work/main 3,11 [rounds]
import { pathToFileURL } from "node:url";
import { initNodeBackends } from "../../bindings/init-node.js";
import { createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";

const other = process.argv[2];
const which = (process.argv[3] ?? "3,11").split(",").map(Number);
const rounds = Number(process.argv[4] ?? 30);
await initNodeBackends();
const otherInit = await import(pathToFileURL(`${other}/bindings/init-node.ts`).href);
await otherInit.initNodeBackends();
const otherQi = await import(pathToFileURL(`${other}/ts/match/quote-index.ts`).href);
const { books, quotes } = targetQuotes();
const mine = createQuoteIndex(books, { backend: "wasm" });
const theirs = otherQi.createQuoteIndex(books, { backend: "wasm" });
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.floor(f * (xs.length - 1))];
for (const i of which) {
  if (JSON.stringify(theirs.locate(quotes[i], { limit: 1 })) !== JSON.stringify(mine.locate(quotes[i], { limit: 1 }))) throw new Error(`first spans differ: ${i}`);
  const a: number[] = [], b: number[] = [], r: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const [x, y] = k % 2 ? [cpu(() => mine.locate(quotes[i], { limit: 1 })), cpu(() => theirs.locate(quotes[i], { limit: 1 }))].reverse() : [cpu(() => theirs.locate(quotes[i], { limit: 1 })), cpu(() => mine.locate(quotes[i], { limit: 1 }))];
    a.push(x); b.push(y); r.push(x / y);
  }
  console.log(`q${i}: main ${q(a, 0.5).toFixed(2)} ms, branch ${q(b, 0.5).toFixed(2)} ms; ratio per round: median ${q(r, 0.5).toFixed(2)}, quartiles ${q(r, 0.25).toFixed(2)}–${q(r, 0.75).toFixed(2)}, min ${q(r, 0).toFixed(2)}`);
}
