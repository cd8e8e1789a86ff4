// Warm timing of fragmentMarkdown on the primer v039 (and spec.txt), for profiling with --cpu-prof.
import { readFileSync } from "node:fs";
import { fragmentMarkdown } from "../../ts/node.js";
const file = process.argv[2] ?? "../shared/data/markdown/system-design-primer/v039.md";
const text = readFileSync(file, "utf8");
const n = Number(process.argv[3] ?? 200);
for (let i = 0; i < 20; i++) fragmentMarkdown("bench", text);
const xs: number[] = [];
for (let i = 0; i < n; i++) {
  const t = performance.now();
  fragmentMarkdown("bench", text);
  xs.push(performance.now() - t);
}
xs.sort((a, b) => a - b);
console.log(`${file}: median ${xs[n >> 1].toFixed(2)} ms, min ${xs[0].toFixed(2)}, p90 ${xs[Math.floor(n * 0.9)].toFixed(2)}`);
