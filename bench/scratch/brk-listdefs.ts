// breaker: a top-level list over 2^18 that micromark reads (item 3 holds a table) whose items use reference
// links defined after the list: the last piece plus the definitions appended to it goes over 2^18.
import { compare } from "./brk-lib.js";
const n = Number(process.argv[2] ?? 9000);
const lines = ["# Awesome", "", "intro", ""];
for (let i = 0; i < n; i++) {
  if (i === 3) lines.push("- Table", "", "  | a | b |", "  | - | - |", "  | 1 | 2 |", "");
  else lines.push(`- [Project ${i}][p${i}] - thing`);
}
lines.push("", "after", "");
for (let i = 0; i < n; i++) lines.push(`[p${i}]: https://example.org/${i}`);
compare(`list of ${n} reference links`, lines.join("\n") + "\n");
