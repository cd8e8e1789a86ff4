/**
 * The checks `groundwire serve` and `groundwire mcp` expose, one function per part, each
 * taking a body its schema (schemas.ts) already validated and returning JSON-ready data.
 * They call the same exported functions a library user calls; the HTTP routes and the
 * MCP tools are thin wrappers around these. Errors are the parts' own (RdfParseError,
 * TripleIndexDriftError, …): the HTTP layer maps them to status codes in one place
 * (errors.ts).
 */
import { cloneGraph, parseGraph, type Graph } from "../rdf/graph.js";
import { loadGraphFile } from "../rdf/load.js";
import { serializeGraph } from "../rdf/serialize.js";
import { checkGrounding, passesGrounding, snapQuotes, type Book, type EmbeddedCorpus, type Hit } from "../moot/index.js";
import { createQuoteIndex, type QuoteIndex } from "../match/index.js";
import { Schema, createKernel } from "../kernel/index.js";
import { applyCritique, buildTripleIndex, renderLine, renderListing } from "../triple-index/index.js";
import { applyNodeStatuses, assembleNeighborhood, renderNeighborhood, serializeEnvelope } from "../memdsl/index.js";
import { citationStatus, fragmentMarkdown, fragmentPlainText, indexFragments } from "../evidence/index.js";
import { resolveTerm } from "../cli/render.js";
import { GroundwireError } from "../errors.js";
import { checkBound, workLimitError, type WorkLimits } from "../work-limits.js";
import type { CheckRunner } from "./check-runner.js";
import { loadEndpoints, type EndpointSpec, type EndpointTarget, type SparqlSettings } from "./endpoints.js";
import type {
  CitationsResolveBody,
  FragmentsBody,
  GraphCritiqueBody,
  GraphIndexBody,
  GraphRef,
  GraphRenderBody,
  QueryBody,
  SchemaRef,
  SparqlCheckBody,
  VerifyQuotesBody,
} from "./schemas.js";

/** A request named a graph, schema or moot the server does not hold (404). */
export class NotFoundError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "not_found", status: 404 });
    this.name = "NotFoundError";
  }
}

/** What the checks read besides the request: the corpus and the graphs and schemas named at start. */
export interface CheckContext {
  corpus: EmbeddedCorpus;
  /** Graph name → the graph as loaded at start (never mutated: requests work on a clone). */
  graphs: ReadonlyMap<string, Graph>;
  /** Schema name → the schema built at start. */
  schemas: ReadonlyMap<string, Schema>;
  /**
   * Work bounds of each check (the server's defaults are in defaults.ts); absent = none. They
   * bound what a request sends: the graphs and schemas named at start are the operator's.
   */
  limits?: CheckLimits;
  /** Where the HTTP routes and MCP tools run the checks (a worker pool; pool.ts); absent = in this thread. */
  runner?: CheckRunner;
  /**
   * The books' texts live in a --store database the pool's workers do not open: a check that
   * reads a whole book has it read here (with its version, the stored content hash) and sent
   * to the worker with the request (verifyBookText).
   */
  libraryInStore?: { loadBookVersion(key: string): Promise<{ book: Book; version: string } | undefined> };
  /** SPARQL endpoints `run_sparql` may run on (`--endpoint NAME=URL`; run-sparql.ts). */
  endpoints?: ReadonlyMap<string, EndpointTarget>;
  /** The SPARQL the checked queries are written in (`--dialect`, `--prefixes`); absent = SPARQL 1.1, no predeclared prefixes. */
  sparql?: SparqlSettings;
}

/** The work bounds of the checks: {@link WorkLimits} and the quotes checked per reply. */
export interface CheckLimits extends WorkLimits {
  /** Quotes of 3+ words checked per reply (checkGrounding's maxQuotes); later ones are reported unchecked. */
  maxQuotes?: number;
}

/**
 * Load `NAME=FILE` pairs (or bare `FILE`, named by its base name without extension) given
 * on the command line; the only files a server ever reads for a request.
 * @throws Error naming the pair when a name repeats or a file cannot be read or parsed
 */
export function loadNamedGraphs(pairs: readonly string[]): Map<string, Graph> {
  const out = new Map<string, Graph>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const file = eq > 0 ? pair.slice(eq + 1) : pair;
    const name = eq > 0 ? pair.slice(0, eq) : file.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
    if (out.has(name)) throw new Error(`the name ${JSON.stringify(name)} is given twice`);
    out.set(name, loadGraphFile(file));
  }
  return out;
}

/**
 * What `serve` and `mcp` hold for their requests, from their command-line flags: the book
 * corpus folder, `--graph NAME=FILE` pairs and `--schema NAME=FILE` pairs (schemas built with
 * `Schema.fromGraph`). Node-only (reads files).
 * @throws Error naming what failed (a missing corpus folder, a repeated name, an unreadable graph)
 */
export function loadServerContext(corpus: EmbeddedCorpus, graphPairs: readonly string[], schemaPairs: readonly string[], endpoints: readonly EndpointSpec[] = [], sparql?: SparqlSettings): CheckContext {
  return {
    corpus,
    graphs: loadNamedGraphs(graphPairs),
    schemas: new Map([...loadNamedGraphs(schemaPairs)].map(([name, g]) => [name, Schema.fromGraph(g)])),
    endpoints: loadEndpoints(endpoints),
    ...(sparql ? { sparql } : {}),
  };
}

function graphOf(ctx: CheckContext, ref: GraphRef, field: string): Graph {
  if ("name" in ref) {
    const g = ctx.graphs.get(ref.name);
    if (!g) throw new NotFoundError(`${field}: no graph named ${JSON.stringify(ref.name)} (the server holds ${[...ctx.graphs.keys()].join(", ") || "none"})`);
    return cloneGraph(g);
  }
  return parseGraph(ref.text, { format: ref.format, source: field, maxTriples: ctx.limits?.maxTriples });
}

export function schemaOf(ctx: CheckContext, ref: SchemaRef): Schema {
  if ("name" in ref) {
    const s = ctx.schemas.get(ref.name);
    if (!s) throw new NotFoundError(`schema: no schema named ${JSON.stringify(ref.name)} (the server holds ${[...ctx.schemas.keys()].join(", ") || "none"})`);
    return s;
  }
  return Schema.fromGraph(parseGraph(ref.text, { format: ref.format, source: "schema", maxTriples: ctx.limits?.maxTriples }));
}

/** The retrieval API: `{hits}` exactly as `WorkerClient.query` returns them. @throws UnknownBookError (404) */
export async function searchBook(ctx: CheckContext, body: QueryBody): Promise<{ hits: Hit[] }> {
  return ctx.corpus.query(body.text, { corpus: body.corpus, k: body.k });
}

/** One quote index per book a request verified against or located in, built on first use (the corpus is fixed while serving). */
const bookIndexes = new WeakMap<object, QuoteIndex>();

/** The quote index of a book of the corpus, built on its first use and kept (the corpus is fixed while serving). */
export function bookIndexOf(book: Book): QuoteIndex {
  let index = bookIndexes.get(book);
  if (!index) bookIndexes.set(book, (index = createQuoteIndex(book.passages.map((p) => p.content))));
  return index;
}

/**
 * Check a reply's quotes and tags (checkGrounding) and make every quote verbatim or
 * unquoted (snapQuotes). Inline passages are tagged `s1`… in order unless they carry a
 * tag; with `book`, every passage of that book is an untagged source.
 * @throws UnknownBookError (404) for an unknown book
 */
export function verifyQuotes(ctx: CheckContext, body: VerifyQuotesBody) {
  if (body.book !== undefined) {
    const book = ctx.corpus.book(ctx.corpus.resolve(body.book));
    // a --store library's text is read by runCheck (pool.ts), which sends it as verifyBookText
    if (!book) throw new GroundwireError(`book ${JSON.stringify(body.book)}: its text is not held by this process`, { code: "not_found", status: 404 });
    // A whole book is a pool of hundreds of passages: snapping searches it through a quote index
    // built once per book (an exhaustive bestSpan per missed quote held the server ~60 s).
    return verifyReply(ctx, body.reply, book.passages.map((p) => ({ content: p.content })), bookIndexOf(book));
  }
  const passages = body.passages!.map((p, i) => (typeof p === "string" ? { tag: `s${i + 1}`, content: p } : { tag: p.tag?.toLowerCase() ?? `s${i + 1}`, content: p.content }));
  return verifyReply(ctx, body.reply, passages, undefined);
}

/** A book's text as runCheck sends it to a worker: its key, its version (the stored content hash) and its passages' contents in order. */
export interface BookTextBody {
  reply: string;
  book: { key: string; version: string; passages: string[] };
}

/** Quote indexes of the last books verifyBookText searched, by key and version (few: each is tens of MB for a long book). */
const textIndexes = new Map<string, QuoteIndex>();
const TEXT_INDEXES = 2;

/**
 * {@link verifyQuotes} with `book`, for a book whose text the request carries (a --store
 * server reads it from the database): every passage an untagged source, snapped through the
 * book's quote index, so the answer is the one the embedded corpus gives for the same book.
 */
export function verifyBookText(ctx: CheckContext, body: BookTextBody) {
  return verifyReply(ctx, body.reply, body.book.passages.map((content) => ({ content })), textIndexOf(body.book.key, body.book.version, body.book.passages));
}

/** The quote index of a book whose text a request carried, by key and version (the last TEXT_INDEXES are kept). */
export function textIndexOf(key: string, version: string, passages: readonly string[]): QuoteIndex {
  const id = `${key}\0${version}`;
  let index = textIndexes.get(id);
  if (index) textIndexes.delete(id);
  else index = createQuoteIndex([...passages]);
  textIndexes.set(id, index);
  while (textIndexes.size > TEXT_INDEXES) textIndexes.delete(textIndexes.keys().next().value!);
  return index;
}

function verifyReply(ctx: CheckContext, reply: string, passages: Array<{ tag?: string; content: string }>, index: QuoteIndex | undefined) {
  const maxQuotes = ctx.limits?.maxQuotes;
  const grounding = checkGrounding(reply, passages, undefined, undefined, undefined, { maxQuotes });
  const { text, snaps } = snapQuotes(reply, passages, undefined, undefined, { index, maxQuotes });
  return { passes: passesGrounding(grounding), grounding, snapped: text, snaps };
}

/** Type-check a query or op list against a schema and an optional goal (Kernel.check). */
export function checkSparql(ctx: CheckContext, body: SparqlCheckBody) {
  // the query's parse and the plan's compilation grow with their size: bounded before they start
  const maxQueryChars = checkBound(ctx.limits?.maxQueryChars, "checkPlan", "maxQueryChars");
  const size = body.query !== undefined ? body.query.length : JSON.stringify(body.ops ?? []).length;
  if (size > maxQueryChars) throw workLimitError("maxQueryChars", maxQueryChars, `${body.query !== undefined ? "query" : "ops"}: ${size.toLocaleString("en-US")} characters`, "characters");
  const kernel = createKernel(schemaOf(ctx, body.schema));
  const { query: _query, ...result } = kernel.check(body.query ?? body.ops!, body.goal, { dialect: ctx.sparql?.dialect, prefixes: ctx.sparql?.prefixes });
  return result;
}

/** A graph's listing with triple ids, its fingerprint and numbering. */
export function indexGraph(ctx: CheckContext, body: GraphIndexBody) {
  const graph = graphOf(ctx, body.graph, "graph");
  const scope = body.scope ? graphOf(ctx, body.scope, "scope") : undefined;
  const index = buildTripleIndex(graph, { scope });
  return { fingerprint: index.fingerprint, numbering: index.numbering, tripleCount: index.tripleCount, scopeSize: index.scopeSize, listing: renderListing(index) };
}

/**
 * Apply a critique to a graph: the fingerprint must be the listing's numbering (else the
 * ids would name other triples: TripleIndexDriftError, 409). Returns the report with the
 * removed and added triples as listing lines, and the new graph as Turtle.
 */
export function critiqueGraph(ctx: CheckContext, body: GraphCritiqueBody) {
  const graph = graphOf(ctx, body.graph, "graph");
  const index = buildTripleIndex(graph);
  if (index.numbering !== body.fingerprint.toLowerCase()) {
    throw new DriftError(body.fingerprint.toLowerCase(), index.numbering);
  }
  const report = applyCritique(graph, index, body.critique, body.guards ?? {});
  const line = (q: Parameters<typeof renderLine>[0]) => renderLine(q, graph.prefixes);
  return {
    ...report,
    applied: report.applied.map((a) => ({ ...a, removed: a.removed.map(line), added: a.added.map(line) })),
    fingerprintNext: buildTripleIndex(graph).numbering,
    graph: serializeGraphText(graph),
  };
}

/** The fingerprint a critique names is not the graph's: its ids would name other triples (409). */
export class DriftError extends GroundwireError {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`the graph drifted: the critique was written against fingerprint ${expected}, the graph now has ${actual}; no item was applied`, { code: "drift", status: 409 });
    this.name = "DriftError";
  }
}

function serializeGraphText(graph: Graph): string {
  return serializeGraph(graph, { format: "turtle" });
}

/** A focus's neighborhood as a MemDSL envelope: the Envelope and its wire text. */
export function renderGraph(ctx: CheckContext, body: GraphRenderBody) {
  const graph = graphOf(ctx, body.graph, "graph");
  const focus = resolveTerm(body.focus, graph.prefixes, "focus");
  const expanded = body.expanded.map((e) => resolveTerm(e, graph.prefixes, "expanded entry"));
  const neighborhood = assembleNeighborhood(graph, focus, { hops: body.hops });
  const problems: string[] = [];
  const statuses = applyNodeStatuses(graph, neighborhood, { onProblem: (m) => problems.push(m) });
  const envelope = renderNeighborhood(neighborhood, statuses, {
    focus,
    expanded: [...neighborhood.expanded, ...expanded],
    maxBodyChars: body.maxBodyChars ?? null,
    logger: { warn: (m) => problems.push(m) },
  });
  return { text: serializeEnvelope(envelope), envelope, problems };
}

function fragmentsOf(ctx: CheckContext, body: FragmentsBody) {
  const options = { maxFragments: ctx.limits?.maxFragments };
  return body.mediaType === "text/plain" ? fragmentPlainText(body.artifactId, body.text, options) : fragmentMarkdown(body.artifactId, body.text, options);
}

/** A document's citable fragments. */
export function fragmentDocumentBody(ctx: CheckContext, body: FragmentsBody) {
  return { artifactId: body.artifactId, fragments: fragmentsOf(ctx, body) };
}

/** Each stored citation's status against the document as it is now. @throws CitationFormatError (400) */
export function resolveCitations(ctx: CheckContext, body: CitationsResolveBody) {
  const index = indexFragments(fragmentsOf(ctx, body));
  return { reports: body.citations.map((c) => citationStatus(c, index)) };
}
