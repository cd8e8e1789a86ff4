// Every command's help lists its options in one column: the lines shared by several commands
// (--corpus/--books, --progress, --endpoint/--dialect, --max-bytes) are padded to the column of
// the command they are printed in, not to a column of their own.
import { describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { COMMAND_SUMMARIES } from "../../ts/cli/usage.js";

/** An option line: two spaces, the flag (`-q, --quiet`, `--corpus DIR`, `--format md|txt`), then its description. */
const OPTION = /^ {2}((?:-\w, )?--[\w-]+(?: (?:[A-Z[][^\s]*|[a-z]+(?:\|[a-z]+)+))?)( +)(\S)/;

interface Block {
  /** Each option line written with a gap of two spaces or more: its flag and where its description starts. */
  options: { flag: string; column: number }[];
  /** Each line continuing a description: its text and indent. */
  continued: { text: string; column: number }[];
}

/** The option blocks of a help text: runs of option lines and the lines that continue them. */
function blocks(help: string): Block[] {
  const out: Block[] = [];
  let block: Block | null = null;
  for (const line of help.split("\n")) {
    const m = OPTION.exec(line);
    if (m) {
      block ??= { options: [], continued: [] };
      if (m[2]!.length >= 2) block.options.push({ flag: m[1]!, column: 2 + m[1]!.length + m[2]!.length });
      continue;
    }
    const indent = /^ {3,}(?=\S)/.exec(line);
    if (block && indent) {
      block.continued.push({ text: line.trim(), column: indent[0].length });
      continue;
    }
    if (block) out.push(block);
    block = null;
  }
  if (block) out.push(block);
  return out.filter((b) => b.options.length > 0);
}

/** Each line out of its block's column (the column most of its options use), as `flag@column` or `…text@column`. */
function misaligned(help: string): string[] {
  const bad: string[] = [];
  for (const b of blocks(help)) {
    const counts = new Map<number, number>();
    for (const o of b.options) counts.set(o.column, (counts.get(o.column) ?? 0) + 1);
    const column = [...counts].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
    // a flag too long for the column is followed by two spaces instead
    for (const o of b.options) if (o.column !== column && 2 + o.flag.length + 2 <= column) bad.push(`${o.flag}@${o.column} (the block's column: ${column})`);
    for (const c of b.continued) if (c.column !== column) bad.push(`…${c.text.slice(0, 30)}@${c.column} (the block's column: ${column})`);
  }
  return bad;
}

describe("help texts: one column of options per block", () => {
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
});
