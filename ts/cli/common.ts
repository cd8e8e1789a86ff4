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

/**
 * node:util parseArgs, strict, with its errors turned into CliError (exit 2) that
 * names the command. Returns values and positionals.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's messages can span lines (e.g. a negative number taken as an option); keep one.
    const message = (error as Error).message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
    throw new CliError(`${command}: ${message}`, 2);
  }
}
