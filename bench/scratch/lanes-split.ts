// Where `locate(q, {limit: 1})`'s CPU time goes for the lanes quotes: the whole call vs its lanes pass.
import { initNodeBackends } from "../../bindings/init-node.js";
import { wasmFor } from "../../bindings/wasm.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";
await initNodeBackends();
const b = quoteIndexBindingFor(wasmFor("wasm")!) as any;
const orig = b.scanLanes;
let inLanes = 0;
b.scanLanes = (...a: unknown[]) => { const c = process.cpuUsage(); const r = orig(...a); const d = process.cpuUsage(c); inLanes += (d.user + d.system) / 1000; return r; };
const origScan = b.scan; let inScan = 0;
b.scan = (...a: unknown[]) => { const c = process.cpuUsage(); const r = origScan(...a); const d = process.cpuUsage(c); inScan += (d.user + d.system) / 1000; return r; };
const origR = b.scanRanges; let inRanges = 0;
b.scanRanges = (...a: unknown[]) => { const c = process.cpuUsage(); const r = origR(...a); const d = process.cpuUsage(c); inRanges += (d.user + d.system) / 1000; return r; };
const books = loadBooks("/work/shared/data/books/");
const texts = books.map((bk) => bk.passages.map((p) => p.content).join("\n\n"));
const quotes = makeQuotes(texts, 12, mulberry32(18), 5, 30, 3);
const ix = createQuoteIndex(books, { backend: "wasm" });
for (const i of (process.env.Q ?? "3,6,9,10,11,7").split(",").map(Number)) {
  ix.locate(quotes[i], { limit: 1 });
  let total = 0; inLanes = 0; inScan = 0; inRanges = 0;
  const R = 7;
  for (let r = 0; r < R; r++) { const c = process.cpuUsage(); ix.locate(quotes[i], { limit: 1 }); const d = process.cpuUsage(c); total += (d.user + d.system) / 1000; }
  console.log(`q${i}: total ${(total / R).toFixed(2)} ms, lanes ${(inLanes / R).toFixed(2)}, full scan ${(inScan / R).toFixed(2)}, ranges (seeds) ${(inRanges / R).toFixed(2)}, rest ${((total - inLanes - inScan - inRanges) / R).toFixed(2)}`);
}
