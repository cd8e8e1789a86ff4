/** A seeded linear congruential generator (Numerical Recipes' constants): the same documents on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * A seeded document whose top-level lists run over MAX_MICROMARK_LENGTH and that micromark must read
 * (an item holds a table): `n` items of an awesome list — links, nested lists with lazy lines, loose
 * items after blank lines, fences, footnote calls, items indented 1–3 columns, ordered runs — now
 * and then a change of marker (a new list), a paragraph or a heading between lists, and the
 * footnote and link definitions at the end. Without `breaks`, no new list starts: one list of `n` items.
 */
export function largeListDocument(seed: number, n: number, breaks = true): string {
  const random = generator(seed);
  const lines: string[] = ["# Awesome things", "", "A curated list.", ""];
  let bullet = "-";
  let ordered = 0;
  const marker = () => (ordered > 0 ? `${ordered++}.` : bullet);
  for (let i = 0; i < n; i++) {
    const x = random();
    const m = marker();
    const pad = " ".repeat(m.length + 1);
    if (i === 3 || x < 0.002) lines.push(`${m} Table ${i}`, "", `${pad}| a | b |`, `${pad}| - | - |`, `${pad}| ${i} | x\ty |`, "");
    else if (x < 0.05) lines.push(`${m} [Nested ${i}](https://example.org/n/${i})`, `${pad}* child ${i}`, `${pad}  lazy line ${i}`, `${pad}* child two`);
    else if (x < 0.08) lines.push("", `${m} Loose ${i}: after a blank line [^f${i % 3}].`, "");
    else if (x < 0.1) lines.push(`${m} Code ${i}`, `${pad}\`\`\`js`, `${pad}let x = ${i};`, "", `${pad}x | y`, `${pad}\`\`\``);
    else if (x < 0.11) lines.push(`${" ".repeat(1 + (i % 3))}${m} Indented ${i} [ref][r]`);
    else if (breaks && x < 0.113) {
      bullet = bullet === "-" ? "*" : "-";
      ordered = 0;
      lines.push(`${marker()} New list ${i} with a [link](https://example.org/${i}).`);
    } else if (breaks && x < 0.115) {
      ordered = ordered > 0 ? 0 : 1;
      lines.push("", `Between lists ${i}.`, "", `${marker()} Item ${i}`);
    } else if (breaks && x < 0.116) lines.push("", `## Part ${i}`, "", `${marker()} Item ${i} after a heading`);
    else lines.push(`${m} [Project ${i}](https://example.org/p/${i}) - a library for thing ${i}.`);
  }
  lines.push("", "after the lists", "", "[^f0]: zero", "[^f1]: one", "[^f2]: two", "[r]: https://example.org/r");
  return `${lines.join("\n")}\n`;
}
