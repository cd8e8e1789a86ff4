#!/usr/bin/env node
/**
 * The `groundwire` command. Each subcommand lives in its own module and is loaded
 * on demand. Output is human-readable by default, `--json` for machines; an error
 * is one clear line on stderr and a non-zero exit (2 for usage errors).
 */
//
// No static imports but ./usage.ts (bundled into this file): `groundwire --help` (and a bare
// `groundwire`) print from this one file and load nothing else, not even node:util or node:fs
// (docs/package.md has the start-up figures). Everything else is imported where it is needed.
// The package's `bin` is dist/cli.cjs (./launcher.ts), which answers --help and --version
// itself and imports this module for everything else.
import type { Command } from "./common.js";

import { asksForUsage, COMMAND_SUMMARIES, type CommandName, usage } from "./usage.js";

/** How each command's module is loaded (the names and summaries are in ./usage.ts). */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  moot: async () => (await import("./moot.js")).default,
  books: async () => (await import("./books.js")).default,
  locate: async () => (await import("./locate.js")).default,
  corpus: async () => (await import("./corpus.js")).default,
  index: async () => (await import("./index-command.js")).default,
  critique: async () => (await import("./critique.js")).default,
  check: async () => (await import("./check.js")).default,
  prove: async () => (await import("./prove.js")).default,
  render: async () => (await import("./render.js")).default,
  fragments: async () => (await import("./fragments.js")).default,
  cite: async () => (await import("./cite.js")).default,
  slice: async () => (await import("./slice.js")).default,
  serve: async () => (await import("./serve.js")).default,
  mcp: async () => (await import("./mcp.js")).default,
  bench: async () => (await import("./bench.js")).default,
};

/** The command being run, for the error prefix `groundwire <command>: …` (none before one is known). */
let current: string | null = null;

async function main(argv: string[]): Promise<number> {
  let [name, ...rest] = argv;
  if (!name || asksForUsage(argv)) {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V") {
    const { packageVersion } = await import("./package-root.js");
    console.log(packageVersion());
    return 0;
  }
  // `help` alone and help about help are answered above
  if (name === "help") [name, ...rest] = [rest[0]!, "--help"];
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
  const { CliError, closestNames, echo } = await import("./common.js");
  if (!load) {
    const commands = Object.keys(COMMAND_SUMMARIES);
    // an option before any command (`groundwire --jsno`) is not a misspelt command
    if (name.startsWith("-")) throw new CliError(`unknown option ${echo(name)}; options come after the command (groundwire <command> [options]); commands: ${commands.join(", ")}`, 2);
    const close = closestNames(name, commands);
    const list = commands.join(", ");
    throw new CliError(`unknown command ${echo(name)}${close.length ? `; did you mean ${close.join(" or ")}? (commands: ${list})` : `; commands: ${list}`}`, 2);
  }
  current = name;
  // loaded only for a command, so `groundwire --help` does not compile the WASM core
  const { initNodeStart } = await import("../node-start.js");
  await initNodeStart();
  const command = await load();
  return command.run(rest);
}

/** Longest error message printed (a last guard: messages quote input through io.ts's echo). */
const MAX_MESSAGE = 2000;

/**
 * The one error line: `groundwire <command>: <message>` (a message that already starts with
 * `<command>: ` is not prefixed twice), terminal controls, bidi controls, format characters
 * and lone surrogates escaped (escapeMessage), cut to MAX_MESSAGE.
 */
function errorLine(command: string | null, message: string, escape: (text: string) => string): string {
  let text = message;
  if (command !== null && text.startsWith(`${command}: `)) text = text.slice(command.length + 2);
  // input in a message is cut by echo() with its own length; this only guards the line itself
  // cut before a surrogate pair's second half, not through it (ts/errors.ts cutText, not imported: this module loads nothing before a command runs)
  if (text.length > MAX_MESSAGE) text = `${text.slice(0, MAX_MESSAGE - (/[\uD800-\uDBFF]/.test(text[MAX_MESSAGE - 1]!) ? 1 : 0))}… (message cut at ${MAX_MESSAGE} of its ${text.length} characters)`;
  return `groundwire${command !== null ? ` ${command}` : ""}: ${escape(text)}`;
}

// A reader that stops early (`groundwire index big.ttl | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (error) => {
    // loaded here, not at start-up (see the imports note): every error path has it
    const { CliError, escapeMessage, HelpShown } = await import("./common.js");
    if (error instanceof HelpShown) {
      process.exitCode = 0;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${errorLine(current, message, escapeMessage)}\n`);
    if (process.env.GROUNDWIRE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
