// One process: warm fragmentMarkdown on a file, then the median of N timed runs (ms). usage: node s11-frag-one.mjs <dist/node.js> <file> [N]
import { readFileSync } from "node:fs";
const [mod, file, nArg] = process.argv.slice(2);
const { fragmentMarkdown } = await import(mod);
const text = readFileSync(file, "utf8");
const n = Number(nArg ?? 150);
for (let i = 0; i < 30; i++) fragmentMarkdown("bench", text);
const xs = [];
for (let i = 0; i < n; i++) { const t = performance.now(); fragmentMarkdown("bench", text); xs.push(performance.now() - t); }
xs.sort((a, b) => a - b);
console.log(xs[n >> 1].toFixed(3));
