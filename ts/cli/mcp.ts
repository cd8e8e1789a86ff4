/**
 * `groundwire mcp`: the checks as MCP tools (ts/server/mcp.ts) over stdio, for an MCP
 * client (an agent, an IDE) that spawns the command. stdout carries the protocol only;
 * notices go to stderr.
 */
import { CliError, echo, escapeMessage, parseCommandArgs, type Command } from "./common.js";
import { CHECK_HELP, CHECK_OPTIONS, readCheckOptions, startCheckPool } from "./check-options.js";
import { corpusDir } from "./corpus-dir.js";
import { packageVersion } from "./package-root.js";

const HELP = `usage: groundwire mcp [options]

An MCP server over stdio with the tools verify_quotes, check_sparql, index_graph,
apply_critique, render_neighborhood, fragment_markdown, resolve_citations and
search_book. Configure your MCP client to run: groundwire mcp

  --corpus DIR        folder of <genre>__<book>.txt files (default: the bundled data/books)
  --graph NAME=FILE   a graph tools may name (repeatable; NAME defaults to the file's base name)
  --schema NAME=FILE  a schema check_sparql may name (repeatable)

The tools run in a pool of worker threads, each bounded (past a bound: the tool's error, limit):
${CHECK_HELP}`;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("mcp", args, {
      corpus: { type: "string" },
      graph: { type: "string", multiple: true },
      schema: { type: "string", multiple: true },
      ...CHECK_OPTIONS,
    }, HELP);
    const checks = readCheckOptions("mcp", values);
    if (positionals.length) throw new CliError(`mcp: takes no positional arguments, got ${echo(positionals[0])}`, 2);
    // the SDK and the checks load only now, so --help stays fast
    const [{ StdioServerTransport }, { loadCorpus }, { loadServerContext }, { createMcpServer, guardMessageDepth }] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("../moot/corpus-node.js"),
      import("../server/checks.js"),
      import("../server/mcp.js"),
    ]);
    let ctx;
    const corpus = corpusDir(values.corpus);
    try {
      ctx = loadServerContext(loadCorpus(corpus), values.graph ?? [], values.schema ?? []);
    } catch (error) {
      throw new CliError(`mcp: ${(error as Error).message}`);
    }
    const runner = await startCheckPool(checks, corpus, values.graph ?? [], values.schema ?? [], (m) => process.stderr.write(`groundwire mcp: ${escapeMessage(m)}\n`));
    const server = createMcpServer({ ...ctx, limits: checks.limits, runner }, packageVersion());
    const transport = new StdioServerTransport();
    await server.connect(transport);
    guardMessageDepth(transport);
    // the process lives until the client closes stdin
    await new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
    });
    await server.close();
    await runner?.close();
    return 0;
  },
};
export default command;
