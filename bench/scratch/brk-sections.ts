// breaker: an awesome list in sections (## heading, blank, 5 items, blank), no blank line needed; item 3 holds a table
// and the sections are adjacent enough to be one micromark region: a piece that ends in a section's first item.
import { compare } from "./brk-lib.js";
const lines = ["# Awesome", "", "intro", ""];
for (let i = 0; lines.join("\n").length < 300_000; i++) {
  if (i % 5 === 0) lines.push(`## Section ${i / 5}`);
  if (i === 3) lines.push("- Table", "", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
  else lines.push(`- [Project ${i}](https://example.org/p/${i}) - a library for thing ${i}.`);
}
lines.push("", "after", "");
compare("sections of 5 items, each after a heading line (no blank lines)", lines.join("\n"));
