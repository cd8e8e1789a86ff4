/**
 * `groundwire mcp`: the checks as MCP tools (ts/server/mcp.ts) over stdio, for an MCP
 * client (an agent, an IDE) that spawns the command. stdout carries the protocol only;
 * notices go to stderr.
 */
import { resolveSchemaPairs } from "./schema-sources.js";
import { endpointHelp, ENDPOINT_OPTIONS, readDialectOptions, readEndpointOptions } from "./endpoint-options.js";
import { CliError, echo, escapeMessage, parseCommandArgs, type Command } from "./common.js";
import { MCP_PACKAGES, requirePackages } from "./optional-packages.js";
import { CHECK_HELP, CHECK_OPTIONS, readCheckOptions, startCheckPool } from "./check-options.js";
import { corpusHelp, CORPUS_OPTIONS, corpusDirs, localCorpus } from "./corpus-dir.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";
import type { Book } from "../moot/index.js";
import { packageVersion } from "./package-root.js";

const HELP = `usage: groundwire mcp [options]

An MCP server over stdio with the tools verify_quotes, check_sparql, index_graph,
apply_critique, render_neighborhood, fragment_markdown, resolve_citations and
search_book (all read-only), the corpus books as resources groundwire://book/{genre}/{book}
and each --graph as groundwire://graph/{name} (Turtle). Configure your MCP client to run:
groundwire mcp

One message a line (newline-delimited JSON-RPC), each up to 64 MiB (67,108,864 bytes):
above every tool's largest input (a document or inline graph holds up to 8,000,000
characters). A longer line, a line that is not JSON or not a JSON-RPC message, and a
batch under protocol 2025-06-18 or later get a JSON-RPC error (-32600 or -32700) and one
line on stderr; the server goes on.

${corpusHelp(22)}
  --store URL         the books of a PostgreSQL store instead (postgres://…, or GROUNDWIRE_STORE)
  --graph NAME=FILE   a graph tools may name (repeatable; NAME defaults to the file's base name)
  --schema NAME=FILE  a schema check_sparql may name (repeatable); NAME=sparql:URL reads it from a live
                      SPARQL endpoint (classes, properties, domains, ranges, labels; cached 24 h)
${endpointHelp(22)}

The tools run in a pool of worker threads, each bounded (past a bound: the tool's error, limit):
${CHECK_HELP}`;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("mcp", args, {
      ...CORPUS_OPTIONS,
      store: { type: "string" },
      graph: { type: "string", multiple: true },
      schema: { type: "string", multiple: true },
      ...CHECK_OPTIONS,
      ...ENDPOINT_OPTIONS,
    }, HELP);
    const checks = readCheckOptions("mcp", values);
    const endpoints = readEndpointOptions("mcp", values);
    const sparql = readDialectOptions("mcp", values);
    // NAME=sparql:URL: the endpoint's schema, read (or cached) and written as a file the workers load
    const schemaPairs = await resolveSchemaPairs("mcp", values.schema ?? []);
    if (positionals.length) throw new CliError(`mcp: takes no positional arguments, got ${echo(positionals[0])}`, 2);
    // the SDK and the checks load only now, so --help stays fast; the MCP SDK and the pool
    // are optional peers of a library install
    requirePackages("mcp", "groundwire mcp", MCP_PACKAGES);
    const [{ LineStdioServerTransport }, { loadBooks }, { createEmbeddedCorpus }, { loadServerContext }, { createMcpServer, guardMessages }] = await Promise.all([
      import("../server/mcp-stdio.js"),
      import("../moot/corpus-node.js"),
      import("../moot/index.js"),
      import("../server/checks.js"),
      import("../server/mcp.js"),
    ]);
    oneLibrary("mcp", values.corpus, values.store, values.books);
    const stored = !localCorpus(values) ? await openCliCorpus("mcp", values.store) : null;
    let ctx;
    const corpus = corpusDirs("mcp", values.corpus, values.books);
    // read and cut once: the check workers get these books
    let books: Book[] | undefined;
    try {
      if (!stored) books = loadBooks(corpus);
      ctx = loadServerContext(stored ? stored.corpus : createEmbeddedCorpus(books!), values.graph ?? [], schemaPairs, endpoints, sparql);
    } catch (error) {
      throw new CliError(`mcp: ${(error as Error).message}`);
    }
    const log = (line: string) => process.stderr.write(`groundwire mcp: ${line}\n`);
    const runner = await startCheckPool(checks, { corpusDir: corpus, books, graphPairs: values.graph ?? [], schemaPairs, endpoints, sparql }, (m) => log(escapeMessage(m)));
    const server = createMcpServer({ ...ctx, limits: checks.limits, runner, libraryInStore: stored?.corpus }, packageVersion());
    const transport = new LineStdioServerTransport(process.stdin, process.stdout, { log });
    await server.connect(transport);
    guardMessages(transport, log);
    // the process lives until the client closes stdin (or stdout fails: the client is gone)
    await new Promise<void>((resolve) => {
      const onclose = transport.onclose;
      transport.onclose = () => {
        onclose?.();
        resolve();
      };
      process.stdout.once("error", () => resolve());
    });
    await server.close();
    stored?.corpus.close();
    await runner?.close();
    return 0;
  },
};
export default command;
