// Probe (session 10): gramRanges' phases on quote 7, repeated (does the time fall once V8 optimizes?).
import { initNodeBackends } from "../../bindings/init-node.js";
import { __quoteIndexInternals, createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
await initNodeBackends();
const { prepare, prepareQuote, gramRanges, tuning } = __quoteIndexInternals;
const { books, quotes } = targetQuotes();
const ix = prepare(books);
const index = createQuoteIndex(books, { backend: "wasm" });
const i = Number(process.argv[2] ?? 7);
const best = index.locate(quotes[i], { limit: 1 })[0];
const q = prepareQuote(ix, quotes[i]).q;
const lb = q.ids.length;
const D = Math.floor((2 * lb * (1 - best.ratio)) / best.ratio + 1e-6);
tuning.gramShare = 0;
for (let r = 0; r < Number(process.argv[3] ?? 60); r++) gramRanges(ix, q, D, -1, Infinity);
