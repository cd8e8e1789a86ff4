// Probe (session 9): the q-gram filter (`gramRanges`, sorted entries and a sliding window) on the
// bench quotes at their best ratio, all books: word ranges returned and gramRanges' median CPU ms
// (warm), with the cost guess off (tuning.gramShare = 0: it never declines on it), and `locate`'s
// way and CPU ms with the tuning as shipped.   npx tsx bench/scratch/s9-gram-probe.ts [quotes, e.g. 7,9,10]
import { initNodeBackends } from "../../bindings/init-node.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";

await initNodeBackends();
const { prepare, prepareQuote, gramRanges, tuning, searchPaths } = __quoteIndexInternals;
const { books, quotes } = targetQuotes();
const ix = prepare(books);
const index = createQuoteIndex(books, { backend: "wasm" });
const which = (process.argv[2] ?? "1,2,5,6,7,9,10").split(",").map(Number);
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const share = tuning.gramShare;
if (process.env.SURV) tuning.gramSurvivorCost = Number(process.env.SURV);
for (const i of which) {
  const best = index.locate(quotes[i], { limit: 1 })[0];
  const q = prepareQuote(ix, quotes[i]).q;
  const lb = q.ids.length;
  const D = Math.floor((2 * lb * (1 - best.ratio)) / best.ratio + 1e-6);
  tuning.gramShare = 0;
  const r = gramRanges(ix, q, D, -1, Infinity);
  const ms = med(Array.from({ length: 15 }, () => cpu(() => gramRanges(ix, q, D, -1, Infinity))));
  tuning.gramShare = share;
  const before = { ...searchPaths };
  const lms = med(Array.from({ length: 15 }, () => cpu(() => index.locate(quotes[i], { limit: 1 }))));
  const way = Object.keys(searchPaths).filter((k) => (searchPaths as Record<string, number>)[k] !== (before as Record<string, number>)[k]).join("+");
  console.log(`q${i} lb=${lb} D=${D} ratio ${best.ratio.toFixed(3)}: ${r ? r.length / 2 : "null"} ranges, gramRanges ${ms.toFixed(3)} ms | locate ${lms.toFixed(3)} ms via ${way}`);
}
