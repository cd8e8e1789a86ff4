/**
 * Help lines several commands share (`--corpus`/`--books`, `--progress`, `--endpoint`/`--dialect`,
 * `--max-bytes`), written once as rows and laid out in the column of the command that prints
 * them, so a command's options read as one table. No imports.
 */

/** One option: its flag as the help shows it (`--corpus DIR`) and its description, `\n` between its lines. */
export type OptionRow = readonly [flag: string, description: string];

/**
 * The rows as help lines: two spaces, the flag, the description from `column` on, each further
 * line of a description indented to `column`. A flag that leaves less than two spaces before
 * `column` stands alone on its line and its description starts on the next, at `column` (as
 * GNU tools and Python's argparse lay it out), so every description starts in one place.
 */
export function optionLines(column: number, rows: readonly OptionRow[]): string {
  const indent = " ".repeat(column);
  return rows
    .map(([flag, description]) => {
      const head = `  ${flag}`;
      const [first, ...rest] = description.split("\n");
      const lines = head.length + 2 <= column ? [head.padEnd(column) + first] : [head, indent + first];
      return [...lines, ...rest.map((line) => indent + line)].join("\n");
    })
    .join("\n");
}
