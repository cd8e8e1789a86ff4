import { readFileSync } from "node:fs";
import { fragmentMarkdown } from "../../ts/node.js";
const text = readFileSync("/work/shared/data/markdown/system-design-primer/v039.md", "utf8");
for (let i = 0; i < 30; i++) fragmentMarkdown("bench", text);
const xs: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); fragmentMarkdown("bench", text); xs.push(performance.now() - t); }
console.log(xs.map((x) => x.toFixed(1)).join(" "));
