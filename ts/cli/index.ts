#!/usr/bin/env node
/**
 * The `groundwire` command. Each subcommand lives in its own module and is loaded
 * on demand. Output is human-readable by default, `--json` for machines; an error
 * is one clear line on stderr and a non-zero exit (2 for usage errors).
 */
//
// No static imports: `groundwire --help` (and a bare `groundwire`) print from this one file
// and load nothing else, not even node:util or node:fs (docs/package.md has the start-up
// figures). Everything else is imported where it is needed.
import type { Command } from "./common.js";

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  moot: { summary: "two books converse, every quote checked", load: async () => (await import("./moot.js")).default },
  books: { summary: "list the corpus books, or how one was cut into passages", load: async () => (await import("./books.js")).default },
  locate: { summary: "where a quote is from across the books (span, ratio, diff)", load: async () => (await import("./locate.js")).default },
  index: { summary: "list a graph's triples with ids and its fingerprint", load: async () => (await import("./index-command.js")).default },
  critique: { summary: "apply a critique (triple ids) to a graph", load: async () => (await import("./critique.js")).default },
  check: { summary: "type-check a SPARQL query or op-list plan against a schema", load: async () => (await import("./check.js")).default },
  prove: { summary: "plan a SPARQL query for a question, verified step by step", load: async () => (await import("./prove.js")).default },
  render: { summary: "render a graph neighborhood as a MemDSL envelope", load: async () => (await import("./render.js")).default },
  fragments: { summary: "list a document's citable fragments", load: async () => (await import("./fragments.js")).default },
  cite: { summary: "resolve stored citations against a document", load: async () => (await import("./cite.js")).default },
  slice: { summary: "print a document's RDF graph slice (N-Quads or Turtle), optionally SHACL-validated", load: async () => (await import("./slice.js")).default },
  serve: { summary: "HTTP worker: retrieval, live moots, the checks, MCP at /mcp", load: async () => (await import("./serve.js")).default },
  mcp: { summary: "MCP server over stdio exposing the checks as tools", load: async () => (await import("./mcp.js")).default },
  bench: { summary: "run the benchmark harness (from a clone: npm run bench)", load: async () => (await import("./bench.js")).default },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return (
    `usage: groundwire <command> [options]\n\ncommands:\n${lines.join("\n")}\n\n` +
    "Run groundwire help <command> (or groundwire <command> --help) for a command's options; groundwire --version for the version.\n" +
    "Every file argument may be - for standard input (with --format when the format is not in the name); --quiet silences progress."
  );
}


/** The command being run, for the error prefix `groundwire <command>: …` (none before one is known). */
let current: string | null = null;

async function main(argv: string[]): Promise<number> {
  let [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V") {
    const { packageVersion } = await import("./package-root.js");
    console.log(packageVersion());
    return 0;
  }
  if (name === "help") {
    if (rest.length === 0) {
      console.log(usage());
      return 0;
    }
    [name, ...rest] = [rest[0], "--help"];
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  const { CliError } = await import("./common.js");
  if (!entry) throw new CliError(`unknown command ${JSON.stringify(name.slice(0, 80))}; commands: ${Object.keys(COMMANDS).join(", ")}`, 2);
  current = name;
  // loaded only for a command, so `groundwire --help` does not compile the WASM core
  const { initNodeBackends } = await import("../../bindings/init-node.js");
  await initNodeBackends();
  const command = await entry.load();
  return command.run(rest);
}

/** Longest error message printed (a last guard: messages quote input through io.ts's echo). */
const MAX_MESSAGE = 2000;

/**
 * The one error line: `groundwire <command>: <message>` (a message that already starts with
 * `<command>: ` is not prefixed twice), terminal controls escaped, cut to MAX_MESSAGE.
 */
function errorLine(command: string | null, message: string, escapeTerminal: (text: string) => string): string {
  let text = message;
  if (command !== null && text.startsWith(`${command}: `)) text = text.slice(command.length + 2);
  if (text.length > MAX_MESSAGE) text = `${text.slice(0, MAX_MESSAGE)}… (${text.length} characters)`;
  return `groundwire${command !== null ? ` ${command}` : ""}: ${escapeTerminal(text)}`;
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
    const { CliError, escapeTerminal, HelpShown } = await import("./common.js");
    if (error instanceof HelpShown) {
      process.exitCode = 0;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${errorLine(current, message, escapeTerminal)}\n`);
    if (process.env.GROUNDWIRE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
