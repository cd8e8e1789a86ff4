// Warm medians of `locate(q, {limit: 1})` (WASM, CPU ms) for chosen bench quotes, alone in a process:
//   npx tsx bench/scratch/s8-prof.ts 6,9,10 30   (quotes by bench index, rounds)
import { initNodeBackends } from "../../bindings/init-node.js";
import { createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
await initNodeBackends();
const { books, quotes } = targetQuotes();
const ix = createQuoteIndex(books, { backend: "wasm" });
const which = (process.argv[2] ?? "6,9").split(",").map(Number);
const R = Number(process.argv[3] ?? 50);
for (const i of which) { console.log(i, JSON.stringify(quotes[i]), ix.locate(quotes[i], { limit: 1 })[0]?.ratio); }
for (let w = 0; w < 10; w++) for (const i of which) ix.locate(quotes[i], { limit: 1 });
const t: Record<number, number[]> = {};
for (let r = 0; r < R; r++) for (const i of which) { const c = process.cpuUsage(); ix.locate(quotes[i], { limit: 1 }); const d = process.cpuUsage(c); (t[i] ??= []).push((d.user + d.system) / 1000); }
for (const i of which) { const s = t[i].sort((a, b) => a - b); console.log(`q${i}: median ${s[s.length >> 1].toFixed(3)} ms, min ${s[0].toFixed(3)}`); }
