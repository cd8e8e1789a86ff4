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

/**
 * node:util parseArgs, strict, for one command. Every command gets `--help`/`-h`: it prints
 * `usage` on stdout and ends the command (HelpShown, exit 0), so no command handles it
 * itself. Parse errors become one-line CliErrors (exit 2) that name the command.
 * Returns values and positionals.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
  usage: string,
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } } as T, allowPositionals: true, strict: true });
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
