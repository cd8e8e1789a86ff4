// Probe (session 10): a top-level list over MAX_MICROMARK_LENGTH with one item holding a table.
import { fragmentMarkdown } from "../../ts/node.js";
const n = Number(process.argv[2] ?? 6000);
const items: string[] = [];
for (let i = 0; i < n; i++) {
  items.push(`- [Project ${i}](https://example.org/p/${i}) - a library for thing ${i}.`);
  if (i === 10) items.push("", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
}
const text = `# Awesome\n\n${items.join("\n")}\n`;
const t = performance.now();
try {
  const f = fragmentMarkdown("d", text);
  console.log(text.length, "chars", f.length, "fragments", (performance.now() - t).toFixed(0), "ms");
} catch (e) { console.log(text.length, "chars: ", (e as Error).message); }
