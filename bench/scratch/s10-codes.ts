// The byte codes (min(id, 254)) of the bench quotes' first 32 characters, and how often text
// characters of each code occur (does the alphabet put common characters first?).
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
const { books, quotes } = targetQuotes();
const ix = __quoteIndexInternals.prepare(books);
const hist = new Float64Array(256);
for (const c of ix.chars) hist[Math.min(c, 254)]++;
let acc = 0;
const C = ix.chars.length;
console.log("codes 0-31 share:", Array.from(hist.slice(0, 32)).map((h, i) => { acc += h; return `${i}:${(acc / C).toFixed(4)}`; }).join(" "));
for (const i of [3, 11, 7, 10]) {
  const q = __quoteIndexInternals.prepareQuote(ix, quotes[i]).q;
  console.log(i, Array.from(q.ids.subarray(0, 32)).join(","));
}
