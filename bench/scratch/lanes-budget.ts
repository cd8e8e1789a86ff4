// The lanes pass's raw marks per bench quote: the least maxMarks at which it completes (bisection).
//   [W=32] npx tsx bench/scratch/lanes-budget.ts
import { initNodeBackends } from "../../bindings/init-node.js";
import { wasmFor } from "../../bindings/wasm.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";
await initNodeBackends();
const b = quoteIndexBindingFor(wasmFor("wasm")!);
const books = loadBooks("/work/shared/data/books/");
const ix = __quoteIndexInternals.prepare(books);
const texts = books.map((bk) => bk.passages.map((p) => p.content).join("\n\n"));
const quotes = makeQuotes(texts, 12, mulberry32(18), 5, 30, 3);
const owner = {};
for (const [i, W] of (process.env.W === "32" ? [[3, 32], [7, 32], [10, 32], [11, 32]] : [[6, 16], [9, 16]]) as [number, 16 | 32][]) {
  const q = __quoteIndexInternals.prepareQuote(ix, quotes[i]).q;
  const T = Math.max(...b.scan(owner, ix, q, 0.8, -1).map((h) => h.ratio));
  const D = Math.floor((2 * q.ids.length * (1 - T)) / T + 1e-6);
  let lo = 0, hi = 1 << 22;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (b.scanLanes(owner, ix, q, T, -1, W, D, mid, 1e9)) hi = mid; else lo = mid + 1; }
  console.log(`q${i} W=${W} D=${D}: ${lo} marks (${(lo / ix.chars.length * 1e6).toFixed(0)} per M)`);
}
