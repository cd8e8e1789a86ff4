// Interleaved A/B of fragmentMarkdown: two built packages (dist dirs), the same files; medians of
// blocks (2 settling + 5 timed runs per block, blocks alternating). Checks the version ids agree.
// usage: node bench/scratch/s11-frag-ab.mjs <distA/node.js> <distB/node.js> [rounds] [files...]
import { readFileSync } from "node:fs";
const [a, b, roundsArg, ...files] = process.argv.slice(2);
const A = await import(a), B = await import(b);
const rounds = Number(roundsArg ?? 15);
const list = files.length ? files : ["../shared/data/markdown/system-design-primer/v039.md", "../shared/data/markdown/commonmark/spec.txt"];
for (const file of list) {
  let text; try { text = readFileSync(file, "utf8"); } catch { console.log(`skip ${file}`); continue; }
  const ids = (fr) => fr.map((f) => f.versionId + " " + f.start + " " + f.end + " " + f.line + " " + JSON.stringify(f.cells ?? null)).join("\n");
  if (ids(A.fragmentMarkdown("bench", text)) !== ids(B.fragmentMarkdown("bench", text))) console.log(`!! ${file}: the two builds give different fragments`);
  const xs = { A: [], B: [] };
  for (let r = 0; r < rounds; r++) for (const [k, m] of r % 2 ? [["A", A], ["B", B]] : [["B", B], ["A", A]]) {
    for (let i = 0; i < 2; i++) m.fragmentMarkdown("bench", text);
    for (let i = 0; i < 5; i++) { const t = performance.now(); m.fragmentMarkdown("bench", text); xs[k].push(performance.now() - t); }
  }
  const med = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
  console.log(`${file.split("/").slice(-2).join("/")}: A ${med(xs.A).toFixed(2)} ms, B ${med(xs.B).toFixed(2)} ms, A/B ${(med(xs.A) / med(xs.B)).toFixed(3)}`);
}
