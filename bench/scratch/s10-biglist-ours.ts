// Probe (session 10): time fragmentMarkdown alone on the large-list document of s10-biglist-ref.ts.
import { fragmentMarkdown } from "../../ts/node.js";
const n = Number(process.argv[2] ?? 4000);
const items: string[] = [];
for (let i = 0; i < n; i++) {
  items.push(`- [Project ${i}](https://example.org/p/${i}) - a library for thing ${i}.`);
  if (i === 10) items.push("", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
  if (i % 997 === 5) items.push("  * nested", "    lazy");
}
const text = `# Awesome\n\n${items.join("\n")}\n\nafter\n`;
const t = performance.now();
console.log(fragmentMarkdown("d", text).length, (performance.now() - t).toFixed(0), "ms");
