// Probe (session 10): a large top-level list with a table in one item, against the reference fragmenter.
import { fragmentMarkdown } from "../../ts/node.js";
import { fragmentMarkdown as reference } from "../../test/evidence/reference-fragmenter.js";
const n = Number(process.argv[2] ?? 4000);
const items: string[] = [];
for (let i = 0; i < n; i++) {
  items.push(`- [Project ${i}](https://example.org/p/${i}) - a library for thing ${i}.`);
  if (i === 10) items.push("", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
  if (i % 997 === 5) items.push("  * nested", "    lazy");
}
const text = `# Awesome\n\n${items.join("\n")}\n\nafter\n`;
const key = (f: { fragmentId: string; contentHash: string; path: string; start: number; end: number; line: number }) => [f.fragmentId, f.contentHash, f.path, f.start, f.end, f.line].join(" ");
let t = performance.now();
const a = fragmentMarkdown("d", text).map(key);
console.log("ours", (performance.now() - t).toFixed(0), "ms", a.length);
t = performance.now();
const b = reference("d", text).map(key);
console.log("reference", (performance.now() - t).toFixed(0), "ms", b.length);
let diff = 0;
for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) { if (diff++ < 5) console.log("differs at", i, a[i], "|", b[i]); }
console.log(text.length, "chars; differences", diff);
