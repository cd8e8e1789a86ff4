// mark rates of prefix filters: semi-global Levenshtein and indel distance of the quote's first m chars
import { fileURLToPath } from "node:url";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";
const BOOKS = fileURLToPath(new URL("../../../shared/data/books/", import.meta.url));
const books = loadBooks(BOOKS);
const texts = books.map((b) => b.passages.map((p) => p.content).join("\n\n"));
const quotes = makeQuotes(texts, 12, mulberry32(18), 5, 30, 3);
const P = __quoteIndexInternals.prepare(books);
const N = Number(process.env.N ?? 1_000_000);
const chars = P.chars.subarray(0, N);
const Ds: Record<number, number> = { 3: 14, 6: 7, 7: 19, 9: 8, 10: 18, 11: 20 };
for (const [qi, D] of Object.entries(Ds)) {
  const b = __quoteIndexInternals.prepareQuote(P, quotes[+qi]).q.ids;
  const out: string[] = [];
  for (const m of [16, 24, 32, 48, 64].filter((m) => m <= b.length)) {
    // column DP, semi-global: lev[i], ind[i] for i = 0..m
    const lev = new Int32Array(m + 1), ind = new Int32Array(m + 1);
    for (let i = 0; i <= m; i++) { lev[i] = i; ind[i] = i; }
    let nl = 0, ni = 0;
    const hist = new Int32Array(m + 1);
    for (let p = 0; p < chars.length; p++) {
      const c = chars[p];
      let dl = 0, di = 0; // diagonal (row 0 = 0)
      for (let i = 1; i <= m; i++) {
        const eq = b[i - 1] === c;
        const l = Math.min(lev[i] + 1, lev[i - 1] + 1, dl + (eq ? 0 : 1));
        const x = Math.min(ind[i] + 1, ind[i - 1] + 1, eq ? di : 1 << 20);
        dl = lev[i]; di = ind[i];
        lev[i] = l; ind[i] = x;
      }
      if (lev[m] <= D) nl++;
      if (ind[m] <= D) ni++;
      hist[ind[m]]++;
    }
    out.push(`m=${m}: lev ${(nl / N * 1e6).toFixed(1)}/M indel ${(ni / N * 1e6).toFixed(1)}/M`);
  }
  console.log(`q${qi} lb=${b.length} D=${D}: ${out.join("; ")}`);
}
