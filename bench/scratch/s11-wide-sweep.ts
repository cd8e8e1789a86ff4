// Seeded documents from a wide set of line shapes (containers, fences, HTML, tables, setext, tabs,
// definitions, footnotes, CR LF): fragmentMarkdown against the reference fragmenter. Prints the first
// differences. usage: npx tsx bench/scratch/s11-wide-sweep.ts [count] [seed] [maxLines]
import { initNodeBackends } from "../../bindings/init-node.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { fragmentMarkdown as ref } from "../../test/evidence/reference-fragmenter.js";
import { mulberry32 } from "../../test/prng.js";
await initNodeBackends();
const count = Number(process.argv[2] ?? 2000);
const rand = mulberry32(Number(process.argv[3] ?? 7));
const maxLines = Number(process.argv[4] ?? 7);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const prefixes = ["", "", "", "> ", "- ", "  ", "    ", "1. ", "\t", "> > ", "- > ", "* ", "2) ", " ", "   "];
const bodies = ["", "text", "two words", "# head", "## h2", "===", "---", "***", "```", "~~~", "```js", "    code", "<div>", "</div>", "<!-- c -->", "| a | b |", "|---|---|", "| 1 | 2 |", "a | b", "[x]: /url", "[x]: /url \"t\"", "[^1]: note", "see [x] and [^1]", "- [ ] task", "- [x] done", "*em* **strong**", "`code`", "<http://a.b>", "\\- esc", "&amp;", "a\tb", "  ", ">"];
let diffs = 0;
for (let n = 0; n < count; n++) {
  const lines: string[] = [];
  const k = 1 + Math.floor(rand() * maxLines);
  for (let i = 0; i < k; i++) lines.push(pick(prefixes) + pick(bodies));
  const eol = rand() < 0.2 ? "\r\n" : "\n";
  const doc = lines.join(eol) + (rand() < 0.5 ? eol : "");
  // An unclosed `---` first line is a deliberate divergence (docs/evidence.md): micromark-extension-frontmatter then reads no list or quote.
  if (/^(?:---|\+\+\+)[ \t]*(?:\r?\n|$)/.test(doc)) continue;
  const show = (fs: readonly any[]) => fs.map((f) => `${f.path} [${f.start},${f.end}) L${f.line} ${f.contentHash.slice(7, 15)}`).join(" | ");
  let a: string, b: string;
  try { a = show(fragmentMarkdown("x", doc)); } catch (e) { a = `ERR ${(e as Error).message}`; }
  try { b = show(ref("x", doc)); } catch (e) { b = `ERR ${(e as Error).message}`; }
  if (a !== b && diffs++ < 10) console.log(JSON.stringify(doc), "\n new:", a, "\n ref:", b);
}
console.log(`${diffs} of ${count} documents differ`);
