// breaker: top-level definitions whose title starts on the line after the destination and runs over two lines,
// in a group micromark reads (a footnote line ends it), over 2^18.
import { compare } from "./brk-lib.js";
for (const n of (process.argv[2] ?? "1000").split(",").map(Number)) {
  const lines = ["# T", "", "Use [a1] and [a20].", ""];
  const pad = "x".repeat(120);
  for (let i = 0; i < n; i++) lines.push(`[a${i}]: https://example.org/${i}`, `"title of ${i} ${pad}`, `second line ${i} ${pad}"`);
  lines.push("[^f]: a footnote", "", "call [^f]", "");
  compare(`defs with titles on the next two lines x${n}`, lines.join("\n"));
}
