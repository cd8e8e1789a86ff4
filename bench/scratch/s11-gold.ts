// One-off: fragmentMarkdown against the reference fragmenter on documents given as JSON strings (paths, offsets, lines, text, hash).
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { fragmentMarkdown as ref } from "../../test/evidence/reference-fragmenter.js";
import { initNodeBackends } from "../../bindings/init-node.js";
await initNodeBackends();
const cases = process.argv.slice(2).map((s) => JSON.parse(s));
for (const doc of cases) {
  const a = fragmentMarkdown("x", doc), b = ref("x", doc);
  const show = (fs: readonly any[]) => fs.map((f) => `${f.path} [${f.start},${f.end}) L${f.line} ${JSON.stringify(f.text)} ${f.contentHash.slice(7, 15)}`).join("\n   ");
  const same = show(a) === show(b);
  console.log(JSON.stringify(doc), same ? "SAME" : `DIFF\n new: ${show(a)}\n ref: ${show(b)}`);
}
