/**
 * groundwire's checks as Model Context Protocol tools, on the official SDK's McpServer.
 * Each tool's input schema is the request body schema of the matching HTTP route
 * (schemas.ts) and its handler the same check function (checks.ts); results are
 * structured (`structuredContent`, checked by the SDK against the tool's output schema,
 * also schemas.ts) and also given as JSON text for clients that only read `content`. A
 * check that refuses its input, like arguments that fail the input schema, answers
 * `isError` with the reason, so the model can correct the call (SEP-1303, spec 2025-11-25);
 * an unknown tool is JSON-RPC's -32602. Every tool is read-only (annotations). The corpus
 * books and the named graphs are resources (groundwire://book/{genre}/{book},
 * groundwire://graph/{name}).
 *
 * Served over stdio by `groundwire mcp` and over Streamable HTTP at `/mcp` by `groundwire serve`.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError, type JSONRPCMessage, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { echo } from "../cli/common.js";
import { serializeGraph } from "../rdf/serialize.js";
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
  citationsResolveOutputSchema,
  fragmentsBodySchema,
  fragmentsOutputSchema,
  graphCritiqueBodySchema,
  graphCritiqueOutputSchema,
  graphIndexBodySchema,
  graphIndexOutputSchema,
  graphRenderBodySchema,
  graphRenderOutputSchema,
  MAX_DOCUMENT,
  searchBookInputSchema,
  searchBookOutputSchema,
  sparqlCheckBodySchema,
  sparqlCheckOutputSchema,
  sparqlRunBodySchema,
  sparqlRunOutputSchema,
  exploreSchemaInputSchema,
  exploreSchemaOutputSchema,
  verifyQuotesBodySchema,
  verifyQuotesOutputSchema,
  type SearchBookInput,
} from "./schemas.js";
import { toolErrorText } from "./errors.js";
import { MCP_MAX_MESSAGE_BYTES } from "./mcp-messages.js";
import { runCheck } from "./pool.js";
import { runSparql } from "./run-sparql.js";
import { exploreSchema } from "./explore-schema.js";

/** One tool: its name, what a model should know to call it, its input and output schemas and its check. */
interface ToolSpec {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  outputSchema: z.ZodType;
  run: (ctx: CheckContext, body: never) => unknown;
  /** Annotations besides {@link TOOL_ANNOTATIONS} (run_sparql reaches an endpoint: open world). */
  annotations?: ToolAnnotations;
  /** The check's body from the tool's arguments, when they differ (search_book names the book `book`, the check `corpus`). */
  body?: (args: never) => unknown;
}

/** Every tool only reads: nothing is written, the same call gives the same answer, no outside world is reached. */
export const TOOL_ANNOTATIONS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The server's `instructions` (sent in the initialize result): what the tools are for and the usual flow. */
export const MCP_INSTRUCTIONS =
  "groundwire checks what a model writes against its sources; every tool only reads and answers structured JSON. " +
  "To quote a book: search_book finds passages of one book of the corpus (resources groundwire://book/{genre}/{book} list them), " +
  "then verify_quotes checks each quoted phrase and [sN] tag of the reply and returns the reply with every quote made verbatim. " +
  "To edit a graph: index_graph lists its triples with ids (graphs the server holds are resources groundwire://graph/{name}), " +
  "apply_critique removes or replaces triples by id, render_neighborhood shows a node's surroundings as MemDSL. " +
  "check_sparql type-checks a query against a schema before it runs; explore_schema finds the classes and properties to write it with; run_sparql checks it and, when it passes, runs it on an endpoint or graph the server holds. To cite a document: fragment_markdown gives each part " +
  "a stable address and version id; resolve_citations says later whether stored citations are current, moved, stale or lost. " +
  "A tool that refuses its arguments answers isError with the reason: correct the call and retry. " +
  `A document or inline graph holds up to ${MAX_DOCUMENT.toLocaleString("en-US")} characters; over stdio one message holds up to ${MCP_MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes.`;

/** Longest book or graph text a resource read returns, in characters. */
export const MAX_RESOURCE_CHARS = MAX_DOCUMENT;

/** The tool `search_book` names its book `book` as verify_quotes does; the check (and POST /query) says `corpus`. */

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
    outputSchema: verifyQuotesOutputSchema,
    run: verifyQuotes as ToolSpec["run"],
  },
  {
    name: "check_sparql",
    title: "Type-check a SPARQL query or op-list plan",
    description:
      "Check a SPARQL 1.1 query (query) or an op-list plan (ops) against a schema (a name the server holds, or inline Turtle) without running it: unknown terms with did-you-mean, domain/range and type clashes, and open goals. " +
      'Optionally give the goal, e.g. {"answer":["?c"],"kind":"entity","type":"ex:City"}. Fix every error before running the query.',
    schema: sparqlCheckBodySchema,
    outputSchema: sparqlCheckOutputSchema,
    run: checkSparql as ToolSpec["run"],
  },
  {
    name: "explore_schema",
    title: "Find and describe a schema's classes and properties",
    description:
      "Before writing SPARQL: search (search: text) a schema the server holds for classes and properties by label or local name (exact, prefix, contains, then did-you-mean near misses), " +
      "or describe one term (term: e.g. dbo:birthPlace): its label, comment, domain, range, super- and subclasses, the properties whose domain a class is, and example triples from the endpoint or graph the server holds.",
    schema: exploreSchemaInputSchema,
    outputSchema: exploreSchemaOutputSchema,
    run: exploreSchema as ToolSpec["run"],
    annotations: { openWorldHint: true },
  },
  {
    name: "run_sparql",
    title: "Check a SPARQL query, then run it",
    description:
      "Check a SELECT or ASK query (query) or an op-list plan (ops) against a schema and an optional goal exactly as check_sparql does; while any error or open goal remains it is refused with the plan state (nothing runs): fix and call again. " +
      "A plan that passes runs on an endpoint the server holds (endpoint) or on a graph it holds in the embedded store (graph; either may be left out when the server holds just one), " +
      "with at most limit rows (default 100) and timeoutMs (default 10,000). Returns the rows as SPARQL JSON results, a short table, the count and truncated (true when there were more rows than limit).",
    schema: sparqlRunBodySchema,
    outputSchema: sparqlRunOutputSchema,
    run: runSparql as ToolSpec["run"],
    annotations: { openWorldHint: true },
  },
  {
    name: "index_graph",
    title: "List a graph's triples with stable ids",
    description:
      "Number a graph's triples (1..N, stable across parses) and return the listing, its fingerprint and numbering. Cite the ids in apply_critique instead of re-quoting triples; pass back the numbering as fingerprint.",
    schema: graphIndexBodySchema,
    outputSchema: graphIndexOutputSchema,
    run: indexGraph as ToolSpec["run"],
  },
  {
    name: "apply_critique",
    title: "Apply a critique to a graph by triple ids",
    description:
      'Apply items [{"op":"remove","tripleIds":[3]},{"op":"replace","tripleIds":[5],"correctValue":"ex:a ex:p ex:b ."}] to the graph listed by index_graph. ' +
      "fingerprint must be the listing's numbering: if the graph changed since, nothing is applied (drift). Returns applied and rejected items with reasons, and the new graph as Turtle.",
    schema: graphCritiqueBodySchema,
    outputSchema: graphCritiqueOutputSchema,
    run: critiqueGraph as ToolSpec["run"],
  },
  {
    name: "render_neighborhood",
    title: "Render a node's neighborhood as MemDSL",
    description:
      "Render the neighborhood of focus (an IRI or prefixed name of the graph) within hops steps as a MemDSL envelope: each node's body, status (asserted, inferred, contested…) and handles to expand further.",
    schema: graphRenderBodySchema,
    outputSchema: graphRenderOutputSchema,
    run: renderGraph as ToolSpec["run"],
  },
  {
    name: "fragment_markdown",
    title: "List a document's citable fragments",
    description:
      "Cut a markdown (or plain text) document into citable fragments (sections, paragraphs, list items, code, table cells), each with a stable address (fragmentId) and a versionId to store with a citation. " +
      `text holds up to ${MAX_DOCUMENT.toLocaleString("en-US")} characters; over stdio one message holds up to ${MCP_MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes of JSON.`,
    schema: fragmentsBodySchema,
    outputSchema: fragmentsOutputSchema,
    run: fragmentDocumentBody as ToolSpec["run"],
  },
  {
    name: "resolve_citations",
    title: "Resolve stored citations against a document",
    description:
      "For each stored versionId (<fragmentId>#sha256:<hex>), say whether it is current, moved (with the new address), stale (the address now holds other text) or lost (with the nearest candidates), against the document as it is now.",
    schema: citationsResolveBodySchema,
    outputSchema: citationsResolveOutputSchema,
    run: resolveCitations as ToolSpec["run"],
  },
  {
    name: "search_book",
    title: "Search one book of the corpus",
    description:
      "The k passages of one book (book: <genre>/<book>, e.g. novel/frankenstein or diary/pepys-1660) that best match text (BM25). Quote from these passages and verify with verify_quotes.",
    schema: searchBookInputSchema,
    outputSchema: searchBookOutputSchema,
    run: searchBook as ToolSpec["run"],
    body: (({ book, ...rest }: SearchBookInput) => ({ ...rest, corpus: book })) as ToolSpec["body"],
  },
];

/** The tools' names, for the unknown-tool check. */
const TOOL_NAMES = new Set(TOOLS.map((t) => t.name));

/**
 * Answer, before the SDK sees them, the requests it would answer off the spec or not at all:
 *
 * - a message nested deeper than {@link MAX_JSON_DEPTH}: the SDK validates tool arguments
 *   against their (recursive) zod schemas before any handler runs, and 20,000 levels of
 *   arrays overflowed the stack there. A request gets -32602 naming the limit; a
 *   notification is dropped (logged).
 * - `tools/call` naming a tool the server does not have: -32602, as the tools spec lists it
 *   (the SDK answers an `isError` result).
 *
 * Call after `server.connect(transport)` (which installs the handler this wraps).
 *
 * @param transport a connected transport (stdio or Streamable HTTP)
 * @param log where each refusal is reported, one line
 */
export function guardMessages(transport: Transport, log: (line: string) => void = () => {}): void {
  const inner = transport.onmessage;
  if (!inner) throw new Error("guardMessages: connect the server to the transport first");
  const refuse = (id: string | number | undefined, message: string) => {
    log(`refused a message (-32602, id ${JSON.stringify(id ?? null)}): ${message}`);
    if (id === undefined) return;
    void transport.send({ jsonrpc: "2.0", id, error: { code: -32602, message } });
  };
  transport.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
    const id = (message as { id?: string | number }).id;
    if (valueTooDeep(message)) return refuse(id, `params nested deeper than ${formatLimit(MAX_JSON_DEPTH)} levels of arrays and objects`);
    if ("method" in message && message.method === "tools/call" && id !== undefined) {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      if (typeof name === "string" && !TOOL_NAMES.has(name)) return refuse(id, `unknown tool ${echo(name)} (the tools are ${[...TOOL_NAMES].join(", ")})`);
    }
    return (inner as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
  }) as Transport["onmessage"];
}

/** JSON-RPC's code for a resource the server does not hold (resources spec). */
const RESOURCE_NOT_FOUND = -32002;

function boundedText(text: string, uri: string): string {
  if (text.length > MAX_RESOURCE_CHARS) {
    throw new McpError(-32603, `${uri} is ${text.length} characters, over the ${MAX_RESOURCE_CHARS}-character limit of a resource read`);
  }
  return text;
}

/** The corpus books and the named graphs as resources. */
function registerResources(server: McpServer, ctx: CheckContext): void {
  const books = ctx.corpus.books();
  server.registerResource(
    "book",
    new ResourceTemplate("groundwire://book/{genre}/{book}", {
      list: () => ({
        resources: books.map((b) => ({
          uri: `groundwire://book/${b.key}`,
          name: b.key,
          title: `${b.title}, ${b.author}`,
          description: `${b.title} by ${b.author} (${b.genre}), ${b.passages} passages; search it with search_book {book: "${b.key}"}`,
          mimeType: "text/plain",
        })),
      }),
    }),
    { title: "A book of the corpus", description: "Its passages as plain text, each under its label and node id", mimeType: "text/plain" },
    async (uri, variables) => {
      const key = `${variables.genre}/${variables.book}`;
      // a --store library's text is read from the database
      const book = ctx.libraryInStore ? (ctx.corpus.keys().includes(key) ? (await ctx.libraryInStore.loadBookVersion(key))?.book : undefined) : ctx.corpus.book(key);
      if (!book) throw new McpError(RESOURCE_NOT_FOUND, `resource not found: no book ${echo(key)} in the corpus`, { uri: uri.href });
      const header = `${book.title}\nby ${book.author}\n${book.genre}, ${book.passages.length} passages\n`;
      const text = header + book.passages.map((p) => `\n## ${p.label} (${p.node_id})\n\n${p.content}\n`).join("");
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: boundedText(text, uri.href) }] };
    },
  );
  server.registerResource(
    "graph",
    new ResourceTemplate("groundwire://graph/{name}", {
      list: () => ({
        resources: [...ctx.graphs].map(([name, graph]) => ({
          uri: `groundwire://graph/${encodeURIComponent(name)}`,
          name,
          description: `the graph ${name} (${graph.store.size} triples), as given with --graph; tools take it as {"name": "${name}"}`,
          mimeType: "text/turtle",
        })),
      }),
    }),
    { title: "A graph the server holds (--graph)", description: "The graph as Turtle", mimeType: "text/turtle" },
    (uri, variables) => {
      let name = String(variables.name);
      try {
        name = decodeURIComponent(name);
      } catch {
        // not percent-encoded: the name as written
      }
      const graph = ctx.graphs.get(name);
      if (!graph) throw new McpError(RESOURCE_NOT_FOUND, `resource not found: no graph named ${echo(name)} (the server holds ${[...ctx.graphs.keys()].join(", ") || "none"})`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: "text/turtle", text: boundedText(serializeGraph(graph, { format: "turtle" }), uri.href) }] };
    },
  );
}

/**
 * An McpServer with every tool of {@link TOOLS} bound to `ctx`, the books and graphs as
 * resources, and {@link MCP_INSTRUCTIONS}.
 * @param version reported to clients as the server version
 */
export function createMcpServer(ctx: CheckContext, version: string): McpServer {
  const server = new McpServer({ name: "groundwire", version }, { instructions: MCP_INSTRUCTIONS });
  for (const tool of TOOLS) {
    const config = { title: tool.title, description: tool.description, inputSchema: tool.schema, outputSchema: tool.outputSchema, annotations: { ...TOOL_ANNOTATIONS, ...tool.annotations } };
    server.registerTool(tool.name, config as never, (async (args: unknown) => {
      try {
        const result = JSON.parse(await runCheck(ctx, tool.run as never, tool.body ? tool.body(args as never) : args)) as Record<string, unknown>;
        return { content: [{ type: "text" as const, text: JSON.stringify(result) }], structuredContent: result };
      } catch (error) {
        return { isError: true, content: [{ type: "text" as const, text: toolErrorText(error, tool.name) }] };
      }
    }) as never);
  }
  registerResources(server, ctx);
  return server;
}
