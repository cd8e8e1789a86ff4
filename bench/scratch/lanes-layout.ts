// CPU time of the lanes layout (qiLanesLayout) over all books, after the texts are in WASM memory.
import { initNodeBackends } from "../../bindings/init-node.js";
import { wasmFor } from "../../bindings/wasm.js";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
await initNodeBackends();
const x = wasmFor("wasm")! as unknown as { qiLanesLayout(c: number): number };
const b = quoteIndexBindingFor(wasmFor("wasm")!);
const ix = __quoteIndexInternals.prepare(loadBooks("/work/shared/data/books/"));
const q = __quoteIndexInternals.prepareQuote(ix, "it is a truth universally acknowledged").q;
b.scan({}, ix, q, 0.99, -1); // copies the texts in
const ts: number[] = [];
for (let r = 0; r < 9; r++) { const c = process.cpuUsage(); x.qiLanesLayout(ix.chars.length); const d = process.cpuUsage(c); ts.push((d.user + d.system) / 1000); }
console.log("qiLanesLayout over", ix.chars.length, "chars, CPU ms:", ts.map((t) => t.toFixed(1)).join(" "));
