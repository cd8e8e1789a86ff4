// Minimal reproductions of the issue-15 FAILs: ours (fragmentMarkdown) vs the reference fragmenter (the addresses stored citations hold).
// npx tsx scratch-brk/repro15.ts
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { initSha256 } from "../../bindings/sha256.js";
import { fragmentMarkdown as refFragment } from "../../test/evidence/reference-fragmenter.js";
await initSha256();
const cases: [string, string][] = [
  ["F1 BOM at the start of a micromark region (mid-document)", "# T\n\n\uFEFFword | b\n-|-\n\tc | d\n"],
  ["F2 two leading BOMs, then a region micromark reads", "\uFEFF\uFEFF\n[^n]: fee 10\n"],
  ["F3 table header row without a pipe", "a\n|-\nb\n"],
  ["F4 one-column table, delimiter '------' without pipes", "| name |\n------\n| apples |\n"],
  ["F5 lazy '| z |' line, then setext underline indented 4 in a list item", "- a\n | z |\n    ---\n"],
  ["F6a NBSP before the header's first pipe", "\u00A0| a |\n|-|\n"],
  ["F6b NBSP after the header's last pipe", "| a |\u00A0\n|-|\n"],
];
const fmt = (f: { path: string; start: number; end: number; contentHash: string; cells?: { text: string }[] }, src: string, shift = 0) =>
  `${f.path} [${f.start + shift},${f.end + shift}) ${JSON.stringify(src.slice(f.start + shift, f.end + shift))}${f.cells ? " cells=" + JSON.stringify(f.cells.map((c) => c.text)) : ""}`;
for (const [name, src] of cases) {
  console.log(`\n${name}\n  input ${JSON.stringify(src)}`);
  for (const f of fragmentMarkdown("doc", src)) console.log("  ours", fmt(f, src));
  const bom = src.startsWith("\uFEFF") ? 1 : 0; // the reference drops a leading BOM: compare on the text after it, shifted back
  for (const f of refFragment("doc", src.slice(bom))) console.log("  ref ", fmt(f, src, bom));
}
