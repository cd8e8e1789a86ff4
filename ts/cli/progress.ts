/**
 * The progress line of commands that can take more than a second (building the quote index,
 * loading the corpus, a moot's turns): on stderr, shown on a terminal or with `--progress`,
 * never with `--quiet`. On a terminal the line is rewritten in place and cleared when done;
 * elsewhere (`--progress` into a file or pipe) each step is a line of its own.
 */
import { escapeMessage } from "./common.js";
import { optionLines } from "./help-rows.js";

export interface Progress {
  /** Show what is under way now. */
  step(text: string): void;
  /** Clear the line (a terminal) before the command's own output. */
  done(): void;
}

/** The `--progress` option, for commands' option tables. */
export const PROGRESS_OPTION = { progress: { type: "boolean" } } as const;
/** Its help line, the description from `column` on (the column of the command's own options). */
export function progressHelp(column: number): string {
  return optionLines(column, [["--progress", "show progress on stderr even when it is not a terminal (it is shown on one)"]]);
}

/**
 * A progress line for `command`.
 * @param forced `--progress` given
 * @param quiet `--quiet` given (wins over both)
 */
export function progressLine(command: string, forced: boolean, quiet = false): Progress {
  const tty = process.stderr.isTTY === true;
  if (quiet || !(forced || tty)) return { step() {}, done() {} };
  let shown = false;
  return {
    step(text) {
      const line = `groundwire ${command}: ${escapeMessage(text)}`;
      if (tty) {
        process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 80) - 1)}`);
        shown = true;
      } else process.stderr.write(`${line}\n`);
    },
    done() {
      if (tty && shown) process.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
