// A/B of the lanes pass (qiScanLanes) against the one-block prefix pass and the full pass, at each
// linear/prefix bench quote's best ratio; checks the windows are the same. Run:
//   W=16,32 npx tsx bench/scratch/lanes-ab.ts build.wasm [reps]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { instantiateSync } from "@assemblyscript/loader";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";
const BOOKS = fileURLToPath(new URL("../../../shared/data/books/", import.meta.url));
const file = process.argv[2];
const reps = Number(process.argv[3] ?? 7);
const x = instantiateSync<Record<string, unknown>>(new WebAssembly.Module(readFileSync(file)), { env: { abort() { throw new Error("abort"); } } }).exports;
const b = quoteIndexBindingFor(x as never);
const books = loadBooks(BOOKS);
const ix = __quoteIndexInternals.prepare(books);
const texts = books.map((bk) => bk.passages.map((p) => p.content).join("\n\n"));
const quotes = makeQuotes(texts, 12, mulberry32(18), 5, 30, 3);
const best: Record<number, number> = { 3: 0.846, 6: 0.928, 7: 0.911, 9: 0.933, 10: 0.915, 11: 0.838 };
const owner = {};
const key = (h: { word: number; size: number; ratio: number }[]) => h.map((w) => `${w.word}/${w.size}/${w.ratio}`).sort().join(",");
const med = (xs: number[]) => [...xs].sort((a, c) => a - c)[Math.floor((xs.length - 1) / 2)];
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); const r = f(); const d = process.cpuUsage(c); return [(d.user + d.system) / 1000, r] as const; };
const widths = (process.env.W ?? "16").split(",");
for (const [qi, T0] of Object.entries(best)) {
  const q = __quoteIndexInternals.prepareQuote(ix, quotes[+qi]).q;
  const lb = q.ids.length;
  // the threshold: the best window's exact ratio (from the full pass at 0.8)
  const all = b.scan(owner, ix, q, 0.8, -1);
  const T = Math.max(...all.map((h) => h.ratio));
  const D = Math.floor((2 * lb * (1 - T)) / T + 1e-6);
  const want = key(all.filter((h) => h.ratio >= T));
  const ways: Record<string, () => unknown> = {
    full: () => b.scan(owner, ix, q, T, -1),
    prefix64: () => (lb > 64 ? b.scanPrefix(owner, ix, q, T, -1, 64, D, 1e6) : null),
  };
  for (const w of widths) ways[`lanes${w}`] = () => (Math.min(lb, Number(w)) > D ? b.scanLanes(owner, ix, q, T, -1, Number(w) as 16 | 32, D, 200000, 1e6) : null);
  // the pass alone: no range may be kept, so it returns null right after marking
  for (const w of widths) ways[`pass${w}`] = () => (Math.min(lb, Number(w)) > D ? (b.scanLanes(owner, ix, q, T, -1, Number(w) as 16 | 32, D, 1e9, 0), null) : null);
  const times: Record<string, number[]> = {};
  const res: Record<string, string> = {};
  for (let r = 0; r < reps; r++) for (const [k, f] of Object.entries(ways)) {
    const [t, out] = cpu(f);
    (times[k] ??= []).push(t);
    res[k] = out === null ? "null" : key(out as never);
  }
  const line = Object.keys(ways).map((k) => `${k} ${med(times[k]).toFixed(2)}ms${res[k] === "null" ? " (null)" : res[k] === want ? "" : " DIFF"}`).join("  ");
  console.log(`q${qi} lb=${lb} T=${T.toFixed(3)} D=${D}: ${line}`);
}
