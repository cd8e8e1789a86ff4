import { compare, listDoc } from "./brk-lib.js";
const only = process.argv[2];
const cases: Record<string, () => string> = {
  plain: () => listDoc((i) => `- [Project ${i}](https://e.org/${i}) - thing ${i}.`),
  ordered: () => listDoc((i) => `${i + 1}. item ${i} text text text`).replace("- Table", "4. Table"),
  orderedParen: () => listDoc((i) => `${i + 1}) item ${i} text text text`).replace("- Table", "4) Table"),
  ordered9: () => listDoc((i) => `${100000000 + i}. item ${i} text`).replace(/- Table (\d+)\n\n  /, "100000003. Table $1\n\n           ").replace(/\n  \| /g, "\n           | "),
  emptyItems: () => listDoc((i) => (i % 3 === 0 ? "-" : `- item ${i}`)),
  blankStart: () => listDoc((i) => (i % 2 ? `-\n  item ${i} on next line` : `- item ${i}`)),
  indentedMarkers: () => listDoc((i) => `${" ".repeat(i % 4)}- item ${i}`),
  indentedCode: () => listDoc((i) => `-     code ${i}\n      more code`),
  fences: () => listDoc((i) => `- item ${i}\n  \`\`\`\n  code ${i}\n\n  - not item\n  \`\`\``),
  openFences: () => listDoc((i) => `- item ${i}\n  \`\`\`\n  code ${i}\n  more\n  more more more more more more more`),
  html: () => listDoc((i) => `- <div>\n  html ${i}\n\n  </div>`),
  htmlPre: () => listDoc((i) => `- <pre>\n  pre ${i}\n\n  x\n  </pre>`),
  lazy: () => listDoc((i) => `- item ${i}\nlazy ${i}\nlazy again`),
  quotes: () => listDoc((i) => `- > quote ${i}\n  > more\nlazy`),
  nested: () => listDoc((i) => `- a ${i}\n  - b\n    - c\n      - d ${i}\n    lazy`),
  setext: () => listDoc((i) => (i % 50 === 7 ? `- item ${i}\n---` : i % 50 === 9 ? `- item ${i}\n  ---` : `- item ${i}`)),
  thematic: () => listDoc((i) => (i % 40 === 7 ? `* * *` : `* item ${i}`)).replace("- Table", "* Table"),
  tabs: () => listDoc((i) => `-\titem ${i}\n\tcontinued\n-\t\tcode?`),
  defsInItems: () => listDoc((i) => (i % 10 === 0 ? `- [r${i}]: https://e.org/${i}` : `- see [x][r${i - (i % 10)}] and # no`)),
  footnotes: () => listDoc((i) => (i % 10 === 0 ? `- [^f${i}]: note ${i}\n  more` : `- call [^f${i - (i % 10)}]`)),
  headings: () => listDoc((i) => `- # H [x][r] ${i}\n  text`, 300_000, { post: "\n[r]: /u\n" }),
  markerChange: () => listDoc((i) => `${["-", "*", "+"][Math.floor(i / 97) % 3]} item ${i}`),
};
let bad = 0;
for (const [k, f] of Object.entries(cases)) if (!only || only.split(",").includes(k)) bad += compare(k, f());
console.log("bad", bad);
