/**
 * groundwire's checks as Model Context Protocol tools, on the official SDK's McpServer.
 * Each tool's input schema is the request body schema of the matching HTTP route
 * (schemas.ts) and its handler the same check function (checks.ts); results are
 * structured (`structuredContent`) and also given as JSON text for clients that only
 * read `content`. A check that refuses its input answers `isError` with the reason, so
 * the model can correct the call.
 *
 * Served over stdio by `groundwire mcp` and over Streamable HTTP at `/mcp` by `groundwire serve`.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { formatLimit, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";
import type { z } from "zod";
import {
  checkSparql,
  critiqueGraph,
  fragmentDocumentBody,
  indexGraph,
  renderGraph,
  resolveCitations,
  searchBook,
  verifyQuotes,
  type CheckContext,
} from "./checks.js";
import {
  citationsResolveBodySchema,
  fragmentsBodySchema,
  graphCritiqueBodySchema,
  graphIndexBodySchema,
  graphRenderBodySchema,
  queryBodySchema,
  sparqlCheckBodySchema,
  verifyQuotesBodySchema,
} from "./schemas.js";
import { errorResponse } from "./errors.js";
import { runCheck } from "./pool.js";

/** One tool: its name, what a model should know to call it, its input schema and its check. */
interface ToolSpec {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  run: (ctx: CheckContext, body: never) => unknown;
}

/** The tools, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: "verify_quotes",
    title: "Verify quotes against sources",
    description:
      'Check every "quoted" phrase (3+ words) of a reply against source passages and every [sN] tag against the passages given (s1 = first passage). ' +
      "Returns whether the reply passes, each quote found or not with the reason, and the reply with every quote snapped to the source's exact words or unquoted. " +
      "Give either passages (inline texts) or book (a corpus key such as novel/frankenstein; see search_book).",
    schema: verifyQuotesBodySchema,
    run: verifyQuotes as ToolSpec["run"],
  },
  {
    name: "check_sparql",
    title: "Type-check a SPARQL query or op-list plan",
    description:
      "Check a SPARQL 1.1 query (query) or an op-list plan (ops) against a schema (a name the server holds, or inline Turtle) without running it: unknown terms with did-you-mean, domain/range and type clashes, and open goals. " +
      'Optionally give the goal, e.g. {"answer":["?c"],"kind":"entity","type":"ex:City"}. Fix every error before running the query.',
    schema: sparqlCheckBodySchema,
    run: checkSparql as ToolSpec["run"],
  },
  {
    name: "index_graph",
    title: "List a graph's triples with stable ids",
    description:
      "Number a graph's triples (1..N, stable across parses) and return the listing, its fingerprint and numbering. Cite the ids in apply_critique instead of re-quoting triples; pass back the numbering as fingerprint.",
    schema: graphIndexBodySchema,
    run: indexGraph as ToolSpec["run"],
  },
  {
    name: "apply_critique",
    title: "Apply a critique to a graph by triple ids",
    description:
      'Apply items [{"op":"remove","tripleIds":[3]},{"op":"replace","tripleIds":[5],"correctValue":"ex:a ex:p ex:b ."}] to the graph listed by index_graph. ' +
      "fingerprint must be the listing's numbering: if the graph changed since, nothing is applied (drift). Returns applied and rejected items with reasons, and the new graph as Turtle.",
    schema: graphCritiqueBodySchema,
    run: critiqueGraph as ToolSpec["run"],
  },
  {
    name: "render_neighborhood",
    title: "Render a node's neighborhood as MemDSL",
    description:
      "Render the neighborhood of focus (an IRI or prefixed name of the graph) within hops steps as a MemDSL envelope: each node's body, status (asserted, inferred, contested…) and handles to expand further.",
    schema: graphRenderBodySchema,
    run: renderGraph as ToolSpec["run"],
  },
  {
    name: "fragment_markdown",
    title: "List a document's citable fragments",
    description:
      "Cut a markdown (or plain text) document into citable fragments (sections, paragraphs, list items, code, table cells), each with a stable address (fragmentId) and a versionId to store with a citation.",
    schema: fragmentsBodySchema,
    run: fragmentDocumentBody as ToolSpec["run"],
  },
  {
    name: "resolve_citations",
    title: "Resolve stored citations against a document",
    description:
      "For each stored versionId (<fragmentId>#sha256:<hex>), say whether it is current, moved (with the new address), stale (the address now holds other text) or lost (with the nearest candidates), against the document as it is now.",
    schema: citationsResolveBodySchema,
    run: resolveCitations as ToolSpec["run"],
  },
  {
    name: "search_book",
    title: "Search one book of the corpus",
    description:
      "The k passages of one book (corpus: <genre>/<book>, e.g. novel/frankenstein or diary/pepys-1660) that best match text (BM25). Quote from these passages and verify with verify_quotes.",
    schema: queryBodySchema,
    run: searchBook as ToolSpec["run"],
  },
];

/**
 * Refuse JSON-RPC messages nested deeper than {@link MAX_JSON_DEPTH} before the SDK sees
 * them: it validates tool arguments against their (recursive) zod schemas before any
 * handler runs, and 20,000 levels of arrays overflowed the stack there ("Maximum call
 * stack size exceeded" came back as the tool's answer). A request gets JSON-RPC's
 * "invalid params" error (-32602) naming the limit; a notification is dropped. Call after
 * `server.connect(transport)` (which installs the handler this wraps).
 *
 * @param transport a connected transport (stdio or Streamable HTTP)
 */
export function guardMessageDepth(transport: Transport): void {
  const inner = transport.onmessage;
  if (!inner) throw new Error("guardMessageDepth: connect the server to the transport first");
  transport.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
    if (!valueTooDeep(message)) return (inner as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
    const id = (message as { id?: string | number }).id;
    if (id === undefined) return;
    void transport.send({
      jsonrpc: "2.0",
      id,
      error: { code: -32602, message: `params nested deeper than ${formatLimit(MAX_JSON_DEPTH)} levels of arrays and objects` },
    });
  }) as Transport["onmessage"];
}

/**
 * An McpServer with every tool of {@link TOOLS} bound to `ctx`.
 * @param version reported to clients as the server version
 */
export function createMcpServer(ctx: CheckContext, version: string): McpServer {
  const server = new McpServer({ name: "groundwire", version });
  for (const tool of TOOLS) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.schema as never }, (async (args: unknown) => {
      try {
        const result = JSON.parse(await runCheck(ctx, tool.run as never, args)) as Record<string, unknown>;
        return { content: [{ type: "text" as const, text: JSON.stringify(result) }], structuredContent: result };
      } catch (error) {
        const { code, message } = errorResponse(error);
        return { isError: true, content: [{ type: "text" as const, text: `${code}: ${message}` }] };
      }
    }) as never);
  }
  return server;
}
