import { compare, listDoc } from "./brk-lib.js";
const only = process.argv[2];
const mixed = (i: number) => [`- [P ${i}](https://e.org/${i}) x`, `-\n  next line ${i}`, `  - indented ${i}\n  lazy`, `- item ${i}\n  \`\`\`\n  code\n  \`\`\``, `-`, `- > q ${i}`][i % 6];
const cases: Record<string, () => string> = {
  crlf: () => listDoc(mixed, 300_000, { eol: "\r\n" }),
  cr: () => listDoc(mixed, 300_000, { eol: "\r" }),
  frontmatter: () => listDoc(mixed, 300_000, { pre: "---\ntitle: x\n---\n# T\n\n" }),
  frontmatterList: () => listDoc(mixed, 300_000, { pre: "---\ntitle: x\n---\n", tableItem: 0 }),
  afterTable: () => { const rows = ["| a | b |", "| - | - |"]; for (let i = 0; i < 3000; i++) rows.push(`| ${i} | row ${i} [^f] |`); return rows.join("\n") + "\n" + listDoc(mixed, 200_000, { pre: "" }) + "\n[^f]: note\n"; },
  eofNoNewline: () => listDoc(mixed, 300_000, { post: "- last item" }),
  eofOpenFence: () => listDoc(mixed, 300_000, { post: "- last\n  ```\n  open" }),
  footnoteDefsAfter: () => listDoc((i) => `- call [^n${i % 500}] x`, 300_000, { post: "\n" + Array.from({ length: 500 }, (_, i) => `[^n${i}]: note ${i}`).join("\n") + "\n" }),
  taskItems: () => listDoc((i) => `- [${i % 2 ? "x" : " "}] task ${i}`),
  tabsMarkers: () => listDoc((i) => [`-\tx ${i}`, `1.\ty`, `- \t  code? ${i}`][i % 3]),
};
let bad = 0;
for (const [k, f] of Object.entries(cases)) if (!only || only.split(",").includes(k)) bad += compare(k, f());
console.log("bad", bad);
