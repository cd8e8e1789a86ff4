/**
 * A/B of the WASM quote-index pass (issue 18): loads several builds of the kernel
 * (paths in argv) into one process and times `qiScan` on the same quotes, alternating builds,
 * checking every build returns the same hits as the first.
 * Run: npx tsx bench/scratch/pass-ab.ts old.wasm new.wasm [reps]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { instantiateSync } from "@assemblyscript/loader";
import { quoteIndexBindingFor } from "../../bindings/quote-index.js";
import { __quoteIndexInternals } from "../../ts/match/quote-index/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { makeQuotes } from "../quote-index.bench.js";
import { mulberry32 } from "../../test/prng.js";

const BOOKS = fileURLToPath(new URL("../../../shared/data/books/", import.meta.url));

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const files = process.argv.slice(2).filter((a) => a.endsWith(".wasm"));
const reps = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const minRatio = Number(process.env.MIN_RATIO ?? 0.8);
const builds = files.map((f) => {
  const m = new WebAssembly.Module(readFileSync(f));
  const x = instantiateSync<Record<string, unknown>>(m, { env: { abort() { throw new Error("abort"); } } }).exports;
  return { f, b: quoteIndexBindingFor(x as never) };
});
const books = loadBooks(BOOKS);
const ix = __quoteIndexInternals.prepare(books);
const texts = books.map((b) => b.passages.map((p) => p.content).join("\n\n"));
const rand = mulberry32(18);
const sets: [string, string[]][] = [
  ["bench12 (5-30w, 0-3 edits)", makeQuotes(texts, 12, rand, 5, 30, 3)],
  ["1 block (5-9w)", makeQuotes(texts, 6, mulberry32(1), 5, 9, 3)],
  ["2 blocks", makeQuotes(texts, 30, mulberry32(2), 12, 22, 3)],
  ["3 blocks", makeQuotes(texts, 40, mulberry32(3), 22, 34, 3)],
  [">192 chars", makeQuotes(texts, 4, mulberry32(4), 40, 50, 3)],
];
const owner = {};
for (const [name, qs0] of sets.filter(([n]) => !process.env.SETS || process.env.SETS.split(",").some((s) => n.startsWith(s)))) {
  let qs = qs0.map((q) => __quoteIndexInternals.prepareQuote(ix, q).q);
  if (name === "2 blocks") qs = qs.filter((q) => q.ids.length > 64 && q.ids.length <= 128).slice(0, 6);
  if (name === "3 blocks") qs = qs.filter((q) => q.ids.length > 128 && q.ids.length <= 192).slice(0, 6);
  if (name === "1 block (5-9w)") qs = qs.filter((q) => q.ids.length <= 64);
  const perQ: number[][][] = builds.map(() => qs.map(() => []));
  const cpu: number[] = builds.map(() => 0);
  for (const { b } of builds) b.scan(owner, ix, qs[0], minRatio, -1); // warm
  for (let r = 0; r < reps; r++) {
    for (let k = 0; k < builds.length; k++) {
      const bi = (k + r) % builds.length;
      const c0 = process.cpuUsage();
      qs.forEach((q, i) => {
        const s = performance.now();
        const hits = builds[bi].b.scan(owner, ix, q, minRatio, -1);
        perQ[bi][i].push(performance.now() - s);
        if (r === 0) (q as any)[`h${bi}`] = JSON.stringify(hits);
      });
      const c = process.cpuUsage(c0);
      cpu[bi] += (c.user + c.system) / 1000;
    }
  }
  if (!process.env.SKIPCHECK) for (const q of qs) for (let bi = 1; bi < builds.length; bi++) if ((q as any)[`h${bi}`] !== (q as any).h0) throw new Error(`hits differ: build ${builds[bi].f}, ${name}`);
  const lens = qs.map((q) => q.ids.length);
  const meds = perQ.map((pq) => med(pq.map(med)));
  const mins = perQ.map((pq) => pq.reduce((s, xs) => s + Math.min(...xs), 0) / qs.length);
  console.log(`${name}: ${qs.length} quotes, chars ${Math.min(...lens)}-${Math.max(...lens)}, hits identical`);
  builds.forEach((bd, bi) => console.log(`  ${bd.f.padEnd(28)} median ${meds[bi].toFixed(2)} ms  (x${(meds[bi] / meds[0]).toFixed(3)})  cpu/quote ${(cpu[bi] / reps / qs.length).toFixed(2)} ms  mean of per-quote minima ${mins[bi].toFixed(2)} ms (x${(mins[bi] / mins[0]).toFixed(3)})`));
}
