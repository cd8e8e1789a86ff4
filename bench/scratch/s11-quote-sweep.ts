// Seeded documents of nested block quotes and lists with marker-only, blank, lazy and content lines:
// fragmentMarkdown against the reference fragmenter (paths, offsets, lines, text, hashes). Prints the
// first differences. usage: npx tsx bench/scratch/s11-quote-sweep.ts [count] [seed]
import { initNodeBackends } from "../../bindings/init-node.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { fragmentMarkdown as ref } from "../../test/evidence/reference-fragmenter.js";
import { mulberry32 } from "../../test/prng.js";
await initNodeBackends();
const count = Number(process.argv[2] ?? 2000);
const rand = mulberry32(Number(process.argv[3] ?? 11));
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const prefixes = ["", "> ", ">", "> > ", ">> ", "> > > ", "- ", "  ", "- > ", "> - ", ">   ", "1. ", "   > "];
const bodies = ["", "a", "b c", "> ", ">", "- x", "# h", "***", "    code", "lazy", " ", "[x]: /u", "| a |"];
let diffs = 0;
for (let n = 0; n < count; n++) {
  const lines: string[] = [];
  const k = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < k; i++) lines.push(pick(prefixes) + pick(bodies));
  const doc = lines.join("\n") + (rand() < 0.5 ? "\n" : "");
  let a: string, b: string;
  const show = (fs: readonly any[]) => fs.map((f) => `${f.path} [${f.start},${f.end}) L${f.line} ${f.contentHash.slice(7, 15)}`).join(" | ");
  try { a = show(fragmentMarkdown("x", doc)); } catch (e) { a = `ERR ${(e as Error).message}`; }
  try { b = show(ref("x", doc)); } catch (e) { b = `ERR ${(e as Error).message}`; }
  if (a !== b && diffs++ < 12) console.log(JSON.stringify(doc), "\n new:", a, "\n ref:", b);
}
console.log(`${diffs} of ${count} documents differ`);
