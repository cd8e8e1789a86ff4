/**
 * The `groundwire` command list and its usage text: the one copy, read by the ESM CLI
 * (ts/cli/index.ts) and by the CommonJS launcher (ts/cli/launcher.ts, built to dist/cli.cjs,
 * the package's `bin`) that prints it without starting Node's ES module loader.
 *
 * No imports at all: both entries stay one file that loads nothing else.
 */

/** Each command's name and one-line summary, in the order `--help` lists them. */
export const COMMAND_SUMMARIES = {
  moot: "two books converse, every quote checked",
  books: "list the corpus books, or how one was cut into passages",
  locate: "where a quote is from across the books (span, ratio, diff)",
  corpus: "load, list or remove the books of a PostgreSQL store",
  index: "list a graph's triples with ids and its fingerprint",
  critique: "apply a critique (triple ids) to a graph",
  check: "type-check a SPARQL query or op-list plan against a schema",
  prove: "plan a SPARQL query for a question, verified step by step",
  render: "render a graph neighborhood as a MemDSL envelope",
  fragments: "list a document's citable fragments",
  cite: "resolve stored citations against a document",
  slice: "print a document's RDF graph slice (N-Quads or Turtle), optionally SHACL-validated",
  serve: "HTTP worker: retrieval, live moots, the checks, MCP at /mcp",
  mcp: "MCP server over stdio exposing the checks as tools",
  bench: "run the benchmark harness (from a clone: npm run bench)",
} as const;

/** A command's name. */
export type CommandName = keyof typeof COMMAND_SUMMARIES;

/**
 * Whether `argv` asks for the general usage (exit 0): `--help` or `-h` first, `help` alone, or
 * help about help (`help help`, `help --help`, `help -h`, as `git help --help` answers).
 */
export function asksForUsage(argv: readonly string[]): boolean {
  const [name, next] = argv;
  if (name === "--help" || name === "-h") return true;
  return name === "help" && (argv.length === 1 || next === "help" || next === "--help" || next === "-h");
}

/** The text `groundwire --help` prints (no trailing newline). */
export function usage(): string {
  const names = Object.keys(COMMAND_SUMMARIES) as CommandName[];
  const width = Math.max(...names.map((c) => c.length));
  const lines = names.map((name) => `  ${name.padEnd(width)}  ${COMMAND_SUMMARIES[name]}`);
  return (
    `usage: groundwire <command> [options]\n\ncommands:\n${lines.join("\n")}\n\n` +
    "Run groundwire help <command> (or groundwire <command> --help) for a command's options; groundwire --version for the version.\n" +
    "Every file argument may be - for standard input (with --format when the format is not in the name); --quiet silences progress."
  );
}
