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
