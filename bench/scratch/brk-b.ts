import { compare } from "./brk-lib.js";
const only = process.argv[2];
const cases: Record<string, () => string> = {
  // top-level definitions with two-line titles, a footnote line in the same group (micromark reads it)
  defTitles: () => {
    const lines = ["# T", "", "Use [a1] and [a2000].", ""];
    for (let i = 0; lines.join("\n").length < 300_000; i++) lines.push(`[a${i}]: https://example.org/${i} "title of ${i}`, `second line ${i}"`);
    lines.push("[^f]: a footnote", "", "call [^f]", "");
    return lines.join("\n");
  },
  defDestNext: () => {
    const lines = ["# T", "", "Use [a1] and [a2000].", ""];
    for (let i = 0; lines.join("\n").length < 300_000; i++) lines.push(`[a${i}]:`, `https://example.org/${i}`, `"title ${i}"`);
    lines.push("[^f]: a footnote", "", "call [^f]", "");
    return lines.join("\n");
  },
};
let bad = 0;
for (const [k, f] of Object.entries(cases)) if (!only || only.split(",").includes(k)) bad += compare(k, f());
console.log("bad", bad);
// (appended) big items: each item ~ size code units, lines of prose
const big = (size: number, n: number) => {
  const out = ["# T", "", "intro", "", "- Table", "", "  | a | b |", "  | - | - |", "  | 1 | 2 |"];
  for (let i = 0; i < n; i++) {
    out.push(`- item ${i}`);
    let len = 0;
    for (let j = 0; len < size; j++) { const l = `  line ${j} of item ${i} with some words in it to fill`; out.push(l); len += l.length + 1; }
  }
  out.push("", "after", "");
  return out.join("\n");
};
for (const [size, n] of (process.argv[3] ?? "").split(",").filter(Boolean).map((s) => s.split("x").map(Number))) compare(`bigItems ${size}x${n}`, big(size, n));
