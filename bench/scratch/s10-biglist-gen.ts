// Probe (session 10): seeded large top-level lists (one item holds a table, so micromark reads the
// list) against the reference fragmenter. npx tsx bench/scratch/s10-biglist-gen.ts <seed> <items> [crlf]
import { fragmentMarkdown } from "../../ts/node.js";
import { fragmentMarkdown as reference } from "../../test/evidence/reference-fragmenter.js";
import { largeListDocument } from "../../test/evidence/large-list-document.js";
const seed = Number(process.argv[2] ?? 1), n = Number(process.argv[3] ?? 3500);
let text = largeListDocument(seed, n, process.argv[5] !== "one");
if (process.argv[4] === "crlf") text = text.replace(/\n/g, "\r\n");
const key = (f: { fragmentId: string; contentHash: string; path: string; start: number; end: number; line: number }) => [f.fragmentId, f.contentHash, f.path, f.start, f.end, f.line].join(" ");
let t = performance.now();
let a: string[];
try { a = fragmentMarkdown("d", text).map(key); } catch (e) { console.log("ours threw", (e as Error).message); process.exit(1); }
console.log("ours", (performance.now() - t).toFixed(0), "ms", a.length);
t = performance.now();
const b = reference("d", text).map(key);
console.log("reference", (performance.now() - t).toFixed(0), "ms", b.length);
let diff = 0;
for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) { if (diff++ < 5) console.log("differs at", i, a[i], "|", b[i]); }
console.log(text.length, "chars; differences", diff);
