/** Shared pieces of the CLI: the command shape and the error that becomes one stderr line. */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A subcommand: gets its arguments (after the command name), returns the exit code. */
export interface Command {
  run(args: string[]): Promise<number>;
}

/** An error to print as one line `groundwire: <message>` with `exitCode` (2 = usage, 1 = failure). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = "CliError";
  }
}

/** Thrown after `--help` printed the usage: the command ends there with exit 0 and no stderr line. */
export class HelpShown extends CliError {
  constructor() {
    super("", 0);
    this.name = "HelpShown";
  }
}

const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  quiet: { type: "boolean", short: "q" },
} as const;

/**
 * node:util parseArgs, strict, for one command. Every command gets `--help`/`-h`: it prints
 * `usage` on stdout and ends the command (HelpShown, exit 0), so no command handles it
 * itself; and `--quiet`/`-q` (no progress lines on stderr). Parse errors become one-line
 * CliErrors (exit 2) that name the command.
 * Returns values (with `quiet`) and positionals.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
  usage: string,
) {
  const all = { ...options, ...COMMON_OPTIONS } as T & typeof COMMON_OPTIONS;
  let parsed;
  try {
    parsed = parseArgs({ args, options: all, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's messages can span lines (e.g. a negative number taken as an option); keep one.
    const message = (error as Error).message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
    throw new CliError(`${command}: ${message}`, 2);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    console.log(usage);
    throw new HelpShown();
  }
  return parsed;
}

// C0 controls but LF and TAB, DEL, and C1 controls: what a terminal may act on.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text safe to print on a terminal: every C0 control except LF and TAB, DEL and every C1
 * control becomes a visible escape (`\x1B`, `\x9B`), so text from a model or a file cannot
 * clear the screen, recolour it, or write the clipboard (OSC 52). JSON output is not passed
 * through this: it keeps the exact text.
 */
export function escapeTerminal(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
