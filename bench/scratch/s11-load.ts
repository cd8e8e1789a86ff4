// Code units fragmentMarkdown hands to micromark for each real markdown file (micromarkLoad), to see what a change sends there.
import { readdirSync, readFileSync } from "node:fs";
import { initNodeBackends } from "../../bindings/init-node.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { micromarkLoad } from "../../ts/evidence/fragment/index.js";
await initNodeBackends();
const root = "../shared/data/markdown/";
let total = 0, files = 0, sent = 0;
for (const dir of readdirSync(root)) {
  let names: string[] = [];
  try { names = readdirSync(root + dir); } catch { continue; }
  for (const name of names.filter((n) => /\.(md|txt)$/.test(n))) {
    const text = readFileSync(`${root}${dir}/${name}`, "utf8");
    const before = micromarkLoad();
    fragmentMarkdown("x", text);
    const used = micromarkLoad() - before;
    total += used; files++; if (used) sent++;
    if (name === "v039.md" || name === "spec.txt") console.log(`${dir}/${name}: ${used} code units to micromark of ${text.length}`);
  }
}
console.log(`${files} files, ${sent} sent something to micromark, ${total} code units in all`);
