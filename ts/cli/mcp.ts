/**
 * `groundwire mcp`: the checks as MCP tools (ts/server/mcp.ts) over stdio, for an MCP
 * client (an agent, an IDE) that spawns the command. stdout carries the protocol only;
 * notices go to stderr.
 */
import { CliError, echo, parseCommandArgs, type Command } from "./common.js";
import { corpusDir } from "./corpus-dir.js";
import { oneLibrary, openCliCorpus } from "./store-option.js";
import { packageVersion } from "./package-root.js";

const HELP = `usage: groundwire mcp [options]

An MCP server over stdio with the tools verify_quotes, check_sparql, index_graph,
apply_critique, render_neighborhood, fragment_markdown, resolve_citations and
search_book. Configure your MCP client to run: groundwire mcp

  --corpus DIR        folder of <genre>__<book>.txt files (default: the bundled data/books)
  --store URL         the books of a PostgreSQL store instead (postgres://…, or GROUNDWIRE_STORE)
  --graph NAME=FILE   a graph tools may name (repeatable; NAME defaults to the file's base name)
  --schema NAME=FILE  a schema check_sparql may name (repeatable)`;

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("mcp", args, {
      corpus: { type: "string" },
      store: { type: "string" },
      graph: { type: "string", multiple: true },
      schema: { type: "string", multiple: true },
    }, HELP);
    if (positionals.length) throw new CliError(`mcp: takes no positional arguments, got ${echo(positionals[0])}`, 2);
    // the SDK and the checks load only now, so --help stays fast
    const [{ StdioServerTransport }, { loadCorpus }, { loadServerContext }, { createMcpServer, guardMessageDepth }] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("../moot/corpus-node.js"),
      import("../server/checks.js"),
      import("../server/mcp.js"),
    ]);
    oneLibrary("mcp", values.corpus, values.store);
    const stored = values.corpus === undefined ? await openCliCorpus("mcp", values.store) : null;
    let ctx;
    try {
      ctx = loadServerContext(stored ? stored.corpus : loadCorpus(corpusDir(values.corpus)), values.graph ?? [], values.schema ?? []);
    } catch (error) {
      throw new CliError(`mcp: ${(error as Error).message}`);
    }
    const server = createMcpServer(ctx, packageVersion());
    const transport = new StdioServerTransport();
    await server.connect(transport);
    guardMessageDepth(transport);
    // the process lives until the client closes stdin
    await new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
    });
    await server.close();
    return 0;
  },
};
export default command;
