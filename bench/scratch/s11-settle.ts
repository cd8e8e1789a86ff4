// How long the old fragmenter's garbage slows the runs after it: fragmentMarkdown's k-th run after one
// old-fragmenter run (k = 1..12), medians over rounds, against its median with no old run between.
import { readFileSync } from "node:fs";
import { initNodeBackends } from "../../bindings/init-node.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { fragmentMarkdown as old } from "../../test/evidence/reference-fragmenter.js";
await initNodeBackends();
const text = readFileSync(process.argv[2] ?? "../shared/data/markdown/system-design-primer/v039.md", "utf8");
const rounds = Number(process.argv[3] ?? 12);
for (let i = 0; i < 20; i++) fragmentMarkdown("bench", text);
old("bench", text); old("bench", text);
const after: number[][] = Array.from({ length: 12 }, () => []);
const clean: number[] = [];
for (let r = 0; r < rounds; r++) {
  old("bench", text);
  for (let k = 0; k < 12; k++) { const t = performance.now(); fragmentMarkdown("bench", text); after[k].push(performance.now() - t); }
  for (let k = 0; k < 12; k++) { const t = performance.now(); fragmentMarkdown("bench", text); if (k >= 8) clean.push(performance.now() - t); }
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log("k-th run after the old fragmenter:", after.map((v, k) => `${k + 1}: ${med(v).toFixed(1)}`).join("  "));
console.log("clean:", med(clean).toFixed(2), "ms");
