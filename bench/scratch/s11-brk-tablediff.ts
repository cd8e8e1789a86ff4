// Table-focused differential against the reference fragmenter: header / delimiter / body lines built from small pieces
// (pipes, dashes, colons, Unicode spaces, no pipes) in containers. Usage: npx tsx scratch-brk/tablediff.ts [runs] [seed]
import fc from "fast-check";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { initSha256 } from "../../bindings/sha256.js";
import { fragmentMarkdown as refFragment } from "../../test/evidence/reference-fragmenter.js";
await initSha256();
const cell = fc.constantFrom("a", "b c", "", " ", "\u00a0", "\u2003", "\uFEFF", "x\u00a0", "`|`", "\\|", "*e*", "1");
const delim = fc.constantFrom("-", "--", "---", ":-", "-:", ":-:", " - ", "-\u00a0", "=");
const row = (c: fc.Arbitrary<string>) => fc.tuple(fc.array(c, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean()).map(([cs, l, r]) => (l ? "|" : "") + cs.join("|") + (r ? "|" : ""));
const prefix = fc.constantFrom("", "", "> ", "- ", "  ");
const doc = fc.tuple(fc.constantFrom("", "para\n", "- a\n", "> a\n", "para\n\n"), prefix, row(cell), row(delim), fc.array(row(cell), { maxLength: 2 }), fc.constantFrom("", "\n", "---\n", "\ttab\n", "    code\n"))
  .map(([pre, p, h, d, body, post]) => pre + [h, d, ...body].map((l, i) => (i === 0 ? p : p.replace(/[-*]/, " ")) + l + "\n").join("") + post);
const runs = Number(process.argv[2] ?? 3000), seed = Number(process.argv[3] ?? 1);
let diffs = 0; const shown = new Map<string, number>();
fc.assert(fc.property(doc, (src) => {
  const a = fragmentMarkdown("doc", src).map((f) => `${f.path} ${f.kind} ${f.start}-${f.end} ${f.contentHash.slice(7, 13)}`);
  const b = refFragment("doc", src).map((f) => `${f.path} ${f.kind} ${f.start}-${f.end} ${f.contentHash.slice(7, 13)}`);
  if (a.join() !== b.join()) {
    diffs++;
    const key = /\uFEFF/.test(src) ? "bom" : /[\u00a0\u2003]/.test(src) ? "nbsp-emsp" : "other";
    const n = (shown.get(key) ?? 0) + 1; shown.set(key, n);
    if (n <= 6) console.log(`[${key}] ${JSON.stringify(src)}\n   ours: ${a.filter((x) => !b.includes(x)).join(" ; ")}\n   ref:  ${b.filter((x) => !a.includes(x)).join(" ; ")}`);
  }
  return true;
}), { numRuns: runs, seed });
console.log({ runs, diffs, byKind: Object.fromEntries(shown) });
