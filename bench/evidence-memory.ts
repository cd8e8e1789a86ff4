/**
 * Peak RSS of fragmenting one large markdown document, in a fresh process (so nothing
 * else the bench did counts): the real docs of ../shared/data/markdown (spec.txt, every
 * awesome and system-design-primer version) concatenated, repeated until the text
 * reaches the size asked for. Prints one JSON line: {bytes, fragments, ms, maxRssMB, peakRssBytes}:
 * `maxRssMB` is the peak RSS in MiB (getrusage's maxRSS, in KiB, / 1024; the key keeps its name for
 * bench/evidence.bench.ts), `peakRssBytes` the same in bytes (maxRSS × 1024), so 1 GB (10^9 bytes)
 * and 1 GiB can both be checked.
 * Run: npx tsx bench/evidence-memory.ts [MB=50]
 */
import { readdirSync, readFileSync } from "node:fs";
import { initNodeStart } from "../ts/node-start.js";
import { fragmentMarkdown } from "../ts/evidence/index.js";

const MARKDOWN = new URL("../../shared/data/markdown/", import.meta.url);

await initNodeStart();
const wantBytes = Number(process.argv[2] ?? 50) * 1e6;
const docs = [readFileSync(new URL("commonmark/spec.txt", MARKDOWN), "utf8")];
for (const history of ["awesome", "system-design-primer"]) {
  const dir = new URL(`${history}/`, MARKDOWN);
  for (const n of readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) docs.push(readFileSync(new URL(n, dir), "utf8"));
}
const parts: string[] = [];
let bytes = 0;
for (let i = 0; bytes < wantBytes; i++) {
  const doc = docs[i % docs.length];
  parts.push(doc, "\n\n");
  bytes += Buffer.byteLength(doc) + 2;
}
const text = parts.join("");
parts.length = 0;
const start = performance.now();
const fragments = fragmentMarkdown("memory", text);
const ms = performance.now() - start;
const maxRssKiB = process.resourceUsage().maxRSS;
process.stdout.write(`${JSON.stringify({ bytes, fragments: fragments.length, ms: Math.round(ms), maxRssMB: Math.round(maxRssKiB / 1024), peakRssBytes: maxRssKiB * 1024 })}\n`);
