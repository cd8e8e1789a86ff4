// Every command's help lists its options in one column: the lines shared by several commands
// (--corpus/--books, --progress, --endpoint/--dialect, --max-bytes) are padded to the column of
// the command they are printed in, not to a column of their own; a flag too long for its block's
// column stands alone and its description starts on the next line, at the column.
import { describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { COMMAND_SUMMARIES } from "../../ts/cli/usage.js";
import { optionLines } from "../../ts/cli/help-rows.js";

/**
 * An option line: two spaces, then the flag (`-q, --quiet`, `--corpus DIR`, `--format md|txt`,
 * `--endpoint-token-file [NAME=]FILE`) up to a gap of two spaces or more, then its description;
 * or the flag alone on its line, too long for the column, its description on the next.
 */
const OPTION = /^ {2}(-\S*(?: \S+)*?)(?:( {2,})(\S.*))?$/;

interface Row {
  line: string;
  flag: string;
  /** Where the description starts on the flag's line; undefined when the flag stands alone. */
  column?: number;
  /** The line after it (the description of a flag standing alone), if it continues the block. */
  next?: { text: string; column: number };
}

interface Block {
  rows: Row[];
  /** Each line continuing a description: its text and indent. */
  continued: { text: string; column: number }[];
}

/** The option blocks of a help text: runs of option lines and the lines that continue them (indented three or more). */
function blocks(help: string): Block[] {
  const out: Block[] = [];
  let block: Block | null = null;
  let last: Row | null = null;
  for (const line of help.split("\n")) {
    const m = OPTION.exec(line);
    if (m) {
      block ??= { rows: [], continued: [] };
      last = { line, flag: m[1]!, column: m[2] === undefined ? undefined : 2 + m[1]!.length + m[2].length };
      block.rows.push(last);
      continue;
    }
    const indent = /^ {3,}(?=\S)/.exec(line);
    if (block && indent) {
      const c = { text: line.trim(), column: indent[0].length };
      if (last && last.next === undefined) last.next = c;
      block.continued.push(c);
      last = null;
      continue;
    }
    if (block) out.push(block);
    block = null;
    last = null;
  }
  if (block) out.push(block);
  // a table is a block with at least one row in columns (prose that begins with a flag, as in
  // index's `--format names the format …`, is not)
  return out.filter((b) => b.rows.some((r) => r.column !== undefined));
}

/**
 * Each line out of its block's column (the column most of its options use): every description
 * starts at the column, two spaces or more after its flag; a flag that leaves less room than that
 * stands alone and its description starts on the next line, at the column (as GNU tools and
 * argparse lay it out); a flag that fits is not put alone; every further line is at the column.
 */
function misaligned(help: string): string[] {
  const bad: string[] = [];
  for (const b of blocks(help)) {
    const counts = new Map<number, number>();
    for (const r of b.rows) if (r.column !== undefined) counts.set(r.column, (counts.get(r.column) ?? 0) + 1);
    const column = [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
    const fits = (flag: string) => 2 + flag.length + 2 <= column;
    for (const r of b.rows) {
      if (r.column !== undefined) {
        if (r.column !== column) bad.push(`${r.flag}: description at ${r.column} (the block's column: ${column})`);
      } else if (fits(r.flag)) bad.push(`${r.flag}: alone on its line or one space from its description, though it fits the column ${column}: ${JSON.stringify(r.line)}`);
      else if (r.next?.column !== column) bad.push(`${r.flag}: alone on its line, but no description at ${column} on the next`);
    }
    for (const c of b.continued) if (c.column !== column) bad.push(`…${c.text.slice(0, 30)}@${c.column} (the block's column: ${column})`);
  }
  return bad;
}

describe("help texts: one column of options per block, every description starting at it", () => {
  it("locate: the shared --corpus, --books and --progress lines sit in its own options' column", async () => {
    const help = (await gw(["help", "locate"])).stdout;
    const column = (flag: string) => {
      const line = help.split("\n").find((l) => l.startsWith(`  ${flag} `))!;
      return line.length - line.slice(2 + flag.length).trimStart().length;
    };
    expect(column("--book KEY")).toBe(19);
    expect([column("--corpus DIR"), column("--books DIR"), column("--progress"), column("--cache-dir DIR")]).toEqual([19, 19, 19, 19]);
    expect(help).toContain("\n                   repeatable; a key already in the corpus is an error\n");
  });

  for (const command of Object.keys(COMMAND_SUMMARIES)) {
    it(`groundwire help ${command}`, async () => {
      const r = await gw(["help", command]);
      expect(r.code).toBe(0);
      expect(misaligned(r.stdout)).toEqual([]);
    });
  }

  it("the checker itself: a flag too long for the column, written after it, is caught; alone on its line it is not", () => {
    const table = (row: string) => `  --json          print JSON\n${row}\n  --quiet         no progress\n`;
    expect(misaligned(table("  --strict-citations  also fail"))).toEqual(["--strict-citations: description at 22 (the block's column: 18)"]);
    expect(misaligned(table("  --temperature X sampling"))).toHaveLength(1);
    expect(misaligned(table("  --strict-citations\n                  also fail"))).toEqual([]);
    expect(misaligned(table("  --strict-citations\n  --x             y"))).toHaveLength(1);
    expect(misaligned(table("  --max N\n                  the most"))).toHaveLength(1);
  });

  it("optionLines puts a flag that does not fit alone, its description on the next line at the column", () => {
    expect(optionLines(18, [["--max-bytes SIZE", "the largest\ndocument"], ["--json", "JSON"]])).toBe(
      "  --max-bytes SIZE\n                  the largest\n                  document\n  --json          JSON",
    );
    expect(optionLines(20, [["--max-bytes SIZE", "the largest"]])).toBe("  --max-bytes SIZE  the largest");
  });
});
