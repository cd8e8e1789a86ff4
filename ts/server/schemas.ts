/**
 * Every request body of `groundwire serve` and every MCP tool input, as zod schemas: one
 * definition per input, the source of the TypeScript types (`z.infer`), the HTTP body
 * check (routes.ts) and the MCP tools' input schemas (mcp.ts). The part-level shapes come
 * from their parts: a critique from triple-index/critique-schema.ts, ops and goals from
 * kernel/plan-schema.ts.
 *
 * Every string and list is bounded, so no field can make the server do unbounded work
 * beyond the request body cap.
 */
import { z } from "zod";
import { critiqueSchema } from "../triple-index/index.js";
import { goalSchema, opSchema } from "../kernel/index.js";

/** Longest free text (a reply, a query text, a focus) accepted in a field, in UTF-16 code units. */
export const MAX_TEXT = 100_000;
/** Longest document or inline graph accepted in a field (the body cap is usually lower). */
export const MAX_DOCUMENT = 8_000_000;

const bookKey = z.string().min(3).max(200).regex(/^[^/\s]+\/[^/\s]+$/, { error: "must be a book key <genre>/<book>, e.g. novel/frankenstein" });
const name = z.string().min(1).max(200);

/** `POST /query`: the seed's worker API (`WorkerClient.query`); the MCP tool `search_book` takes it with `book` ({@link searchBookInputSchema}). */
export const queryBodySchema = z.strictObject({
  text: z.string().min(1).max(MAX_TEXT).describe("what to search for"),
  corpus: bookKey.describe("the book to search, <genre>/<book> (GET /books lists them)"),
  k: z.number().int().min(1).max(100).default(6).describe("how many passages (default 6)"),
});
export type QueryBody = z.infer<typeof queryBodySchema>;

/**
 * The MCP tool `search_book`: `POST /query`'s body with the book named `book`, as in
 * `verify_quotes` (the HTTP route keeps `corpus`, the seed's worker API `query(text, {corpus, k})`).
 */
export const searchBookInputSchema = queryBodySchema.omit({ corpus: true }).extend({
  book: bookKey.describe("the book to search, <genre>/<book>, e.g. novel/frankenstein (the resources groundwire://book/… list them)"),
});
export type SearchBookInput = z.infer<typeof searchBookInputSchema>;

/** `POST /moots`: start a live moot between two books of the server's corpus. */
export const mootCreateBodySchema = z.strictObject({
  keys: z.tuple([bookKey, bookKey]).describe("the two books, in speaking order"),
  topic: z.string().max(1_000).nullish().describe("what the moot discusses"),
  turns: z.number().int().min(1).max(200).default(8).describe("utterances in all"),
  k: z.number().int().min(1).max(50).default(6).describe("passages retrieved per turn"),
  model: z.string().min(1).max(200).optional().describe("model id for the server's endpoint"),
});
export type MootCreateBody = z.infer<typeof mootCreateBodySchema>;

const passage = z.union([
  z.string().max(MAX_TEXT),
  z.strictObject({ tag: z.string().regex(/^s\d+$/i).optional(), content: z.string().max(MAX_TEXT) }),
]);

/**
 * `POST /quotes/verify` and `verify_quotes`: a reply checked against passages given inline
 * (tagged `s1`… in order unless they carry a tag), or against every passage of a corpus book.
 */
export const verifyQuotesBodySchema = z
  .strictObject({
    reply: z.string().max(MAX_TEXT).describe("the text whose quotes and [sN] tags are checked"),
    passages: z.array(passage).max(200).optional().describe("the sources, tagged s1, s2… in order (or {tag, content})"),
    book: bookKey.optional().describe("instead of passages: a book of the corpus; every passage of it is a source"),
  })
  .refine((b) => (b.passages === undefined) !== (b.book === undefined), { error: 'give exactly one of "passages" and "book"', path: ["passages"] });
export type VerifyQuotesBody = z.infer<typeof verifyQuotesBodySchema>;

/** A graph named when the server started (`--graph NAME=FILE`), or sent inline. */
export const graphRefSchema = z.union([
  z.strictObject({ name: name.describe("a graph the server was started with (--graph NAME=FILE)") }),
  z.strictObject({
    text: z.string().max(MAX_DOCUMENT).describe("the graph itself"),
    format: z.enum(["turtle", "ntriples", "nquads"]).default("turtle"),
  }),
], { error: 'must be {"name": …} (a graph the server was started with) or {"text": …, "format"?: "turtle"|"ntriples"|"nquads"}' });
export type GraphRef = z.infer<typeof graphRefSchema>;

/** A schema named when the server started (`--schema NAME=FILE`), or sent inline as Turtle. */
export const schemaRefSchema = z.union([
  z.strictObject({ name: name.describe("a schema the server was started with (--schema NAME=FILE)") }),
  z.strictObject({ text: z.string().max(MAX_DOCUMENT).describe("the schema (RDFS/OWL) as Turtle"), format: z.enum(["turtle", "ntriples", "nquads"]).default("turtle") }),
], { error: 'must be {"name": …} (a schema the server was started with) or {"text": …, "format"?: "turtle"|"ntriples"|"nquads"}' });
export type SchemaRef = z.infer<typeof schemaRefSchema>;

/** `POST /sparql/check` and `check_sparql`: a query or an op list, against a schema, with an optional goal. */
export const sparqlCheckBodySchema = z
  .strictObject({
    query: z.string().max(MAX_TEXT).optional().describe("SPARQL 1.1 query text"),
    ops: z.array(opSchema).max(500).optional().describe("instead of query: an op-list plan"),
    schema: schemaRefSchema,
    goal: z.union([goalSchema, z.string().max(10_000)]).optional().describe('what the question asks for, e.g. {"answer":["?c"],"kind":"entity","type":"ex:City"}'),
  })
  .refine((b) => (b.query === undefined) !== (b.ops === undefined), { error: 'give exactly one of "query" and "ops"', path: ["query"] });
export type SparqlCheckBody = z.infer<typeof sparqlCheckBodySchema>;

/** Most rows `run_sparql` returns (its `limit` is clamped to this). */
export const MAX_RUN_ROWS = 10_000;
/** Longest `run_sparql` waits for an endpoint, in ms (its `timeoutMs` is clamped to this). */
export const MAX_RUN_TIMEOUT_MS = 60_000;

/** `POST /sparql/run` and `run_sparql`: the check's body, where to run it, and the row limit and timeout. */
export const sparqlRunBodySchema = z
  .strictObject({
    query: z.string().max(MAX_TEXT).optional().describe("SPARQL 1.1 query text (SELECT or ASK)"),
    ops: z.array(opSchema).max(500).optional().describe("instead of query: an op-list plan"),
    schema: schemaRefSchema,
    goal: z.union([goalSchema, z.string().max(10_000)]).optional().describe('what the question asks for, e.g. {"answer":["?c"],"kind":"entity","type":"ex:City"}'),
    endpoint: name.optional().describe("an endpoint the server was started with (--endpoint NAME=URL)"),
    graph: name.optional().describe("instead of endpoint: a graph the server holds (--graph NAME=FILE), queried in the embedded Oxigraph store"),
    limit: z.number().int().min(1).max(MAX_RUN_ROWS).default(100).describe(`rows returned at most (default 100, at most ${MAX_RUN_ROWS})`),
    timeoutMs: z.number().int().min(1).max(MAX_RUN_TIMEOUT_MS).default(10_000).describe(`longest wait for the endpoint, ms (default 10,000, at most ${MAX_RUN_TIMEOUT_MS})`),
  })
  .refine((b) => (b.query === undefined) !== (b.ops === undefined), { error: 'give exactly one of "query" and "ops"', path: ["query"] })
  .refine((b) => b.endpoint === undefined || b.graph === undefined, { error: 'give at most one of "endpoint" and "graph"', path: ["graph"] });
export type SparqlRunBody = z.infer<typeof sparqlRunBodySchema>;

/** `GET /schema/NAME` and `explore_schema`: search a schema's terms, or describe one (with examples from a store). */
export const exploreSchemaInputSchema = z
  .strictObject({
    schema: name.describe("a schema the server was started with (--schema NAME=FILE)"),
    search: z.string().min(1).max(200).optional().describe("text to find among class and property labels and local names, e.g. birth place"),
    term: z.string().min(1).max(2000).optional().describe("instead of search: one term to describe, e.g. dbo:birthPlace"),
    limit: z.coerce.number().int().min(1).max(50).optional().describe("hits, or entries per list, at most (default 10 hits, 20 entries)"),
    endpoint: name.optional().describe("with term: the endpoint to take example triples from (default: the only endpoint or graph the server holds)"),
    graph: name.optional().describe("with term: instead of endpoint, a graph the server holds"),
  })
  .refine((b) => (b.search === undefined) !== (b.term === undefined), { error: 'give exactly one of "search" and "term"', path: ["search"] });
export type ExploreSchemaInput = z.infer<typeof exploreSchemaInputSchema>;

/** `explore_schema`: hits of a search, or a term's description. */
export const exploreSchemaOutputSchema = z.strictObject({
  hits: z.array(z.looseObject({ iri: z.string(), name: z.string(), kind: z.string(), match: z.string() })).optional(),
  term: z.looseObject({ iri: z.string(), name: z.string(), kind: z.string() }).optional(),
  text: z.string().describe("the answer as a few lines a model reads"),
});

/** `POST /graph/index` and `index_graph`: list a graph's triples with ids and its fingerprint. */
export const graphIndexBodySchema = z
  .strictObject({
    graph: graphRefSchema,
    scope: graphRefSchema.optional().describe("only these triples get ids; the rest are listed read-only"),
  })
  // one document's worth of inline text in all, as every other tool takes (the MCP stdio line limit counts on it)
  .refine((b) => inlineLength(b.graph) + inlineLength(b.scope) <= MAX_DOCUMENT, { error: `graph and scope given inline hold more than ${MAX_DOCUMENT} characters together`, path: ["scope"] });
export type GraphIndexBody = z.infer<typeof graphIndexBodySchema>;

function inlineLength(ref: GraphRef | undefined): number {
  return ref && "text" in ref ? ref.text.length : 0;
}

/** `POST /graph/critique` and `apply_critique`: apply items citing triple ids; 409 when the graph drifted. */
export const graphCritiqueBodySchema = z.strictObject({
  graph: graphRefSchema,
  fingerprint: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: "must be the listing's 64-hex fingerprint" }).describe("the fingerprint of the listing the critic read"),
  critique: critiqueSchema,
  guards: z
    .strictObject({
      maxDeleteShare: z.number().min(0).max(1).optional(),
      keepSubjects: z.boolean().optional(),
      keepSubjectOnReplace: z.boolean().optional(),
      wholeBlankNodes: z.boolean().optional(),
    })
    .optional(),
});
export type GraphCritiqueBody = z.infer<typeof graphCritiqueBodySchema>;

/** `POST /graph/render` and `render_neighborhood`: a focus's neighborhood as a MemDSL envelope. */
export const graphRenderBodySchema = z.strictObject({
  graph: graphRefSchema,
  focus: z.string().min(1).max(2_000).describe("absolute IRI, <iri> or a prefixed name of the graph"),
  hops: z.number().int().min(0).max(4).default(1),
  maxBodyChars: z.number().int().min(1).max(1_000_000).optional(),
  expanded: z.array(z.string().max(2_000)).max(1_000).default([]),
});
export type GraphRenderBody = z.infer<typeof graphRenderBodySchema>;

const documentFields = {
  text: z.string().max(MAX_DOCUMENT).describe("the document"),
  artifactId: z.string().min(1).max(500).default("document").describe("the key fragment ids hang off"),
  mediaType: z.enum(["text/markdown", "text/plain"]).default("text/markdown"),
};

/** `POST /fragments` and `fragment_markdown`: a document's citable fragments. */
export const fragmentsBodySchema = z.strictObject(documentFields);
export type FragmentsBody = z.infer<typeof fragmentsBodySchema>;

/** `POST /citations/resolve` and `resolve_citations`: stored citations against the document as it is now. */
export const citationsResolveBodySchema = z.strictObject({
  ...documentFields,
  citations: z.array(z.string().min(1).max(1_000)).min(1).max(1_000).describe("version ids <fragmentId>#sha256:<hex>"),
});
export type CitationsResolveBody = z.infer<typeof citationsResolveBodySchema>;

// The page's routes (page.ts): a passage with quotes found in it, a quote located in a book, a book's passages by label.
/** `POST /passages/show`. */
export const passageShowBodySchema = z
  .strictObject({
    node: z.string().min(3).max(500).optional().describe("a passage's node id <book key>#<name>"),
    text: z.string().max(100_000).optional().describe("instead of node: the passage itself (a pasted source)"),
    label: z.string().max(200).optional().describe("with text: the label it is shown under"),
    quotes: z.array(z.string().max(5_000)).max(20).optional().describe("quotes to find in the passage: each one's best span"),
  })
  .refine((b) => (b.node === undefined) !== (b.text === undefined), { error: 'give exactly one of "node" and "text"', path: ["node"] });
/** `POST /locate`. */
export const locateBodySchema = z.strictObject({
  quote: z.string().min(1).max(5_000),
  book: z.string().min(1).max(200),
  minRatio: z.number().gt(0).max(1).optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
/** `GET /books/passages`: its query string. */
export const passagesQuerySchema = z.strictObject({
  book: z.string().min(1).max(200),
  label: z.string().max(200).optional(),
  offset: z.coerce.number().int().min(0).max(1e7).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

// ---------------------------------------------------------------------------------------
// What the checks answer (checks.ts), as the MCP tools' output schemas: the SDK checks every
// `structuredContent` against them. Top-level objects are exact (strict); nested records
// name every field a client reads and pass through the rest of the part's own type.

const quoteSource = z.enum(["own", "other", "self"]);
const quoteReason = z.enum(["not in source", "ellipsis", "elision drops a negation", "negation differs", "too long", "under 3 words", "no words", "unchecked"]);

/** `search_book` (and `POST /query`): the passages found, best first. */
export const searchBookOutputSchema = z.strictObject({
  hits: z.array(
    z.looseObject({
      node_id: z.string().describe("the passage's stable id, <genre>/<book>#<name>"),
      name: z.string(),
      label: z.string().optional().describe("where a reader finds the passage, as the book prints it"),
      content: z.string(),
      title: z.string(),
      author: z.string(),
      genre: z.string(),
      timestamp: z.string().optional(),
      gregorianDate: z.string().optional(),
      score: z.number().optional(),
    }),
  ),
});

/** `verify_quotes`: the grounding report, the snapped reply and each correction. */
export const verifyQuotesOutputSchema = z.strictObject({
  passes: z.boolean().describe("every quote found and every [sN] tag valid"),
  grounding: z.strictObject({
    tagsValid: z.boolean(),
    tagsCited: z.number().int(),
    quotesFound: z.number().int(),
    quotesTotal: z.number().int(),
    otherQuotesFound: z.number().int(),
    otherQuotesTotal: z.number().int(),
    selfQuotesFound: z.number().int(),
    selfQuotesTotal: z.number().int(),
    quotesCited: z.number().int(),
    quotesMisattributed: z.number().int(),
    quotesUncited: z.number().int(),
    quotesUnchecked: z.number().int(),
    quotes: z.array(
      z.strictObject({
        text: z.string(),
        found: z.boolean(),
        source: quoteSource,
        reason: quoteReason.optional(),
        attribution: z.enum(["cited", "misattributed", "uncited"]).optional(),
        cites: z.array(z.string()).optional(),
      }),
    ),
  }),
  snapped: z.string().describe("the reply with every quote made verbatim or unquoted"),
  snaps: z.array(
    z.strictObject({
      text: z.string(),
      source: quoteSource,
      action: z.enum(["snapped", "unquoted"]),
      to: z.string().nullable(),
      ratio: z.number(),
      reason: quoteReason.nullable(),
    }),
  ),
});

const diagnostic = z.looseObject({
  code: z.string(),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
  term: z.string().optional(),
  candidates: z.array(z.string()).optional(),
  hint: z.string().optional(),
  fix: z.string().optional(),
});

/** `check_sparql`: the kernel's findings (Kernel.check without the algebra). */
export const sparqlCheckOutputSchema = z.strictObject({
  context: z.array(
    z.looseObject({
      variable: z.string(),
      kind: z.enum(["entity", "literal", "unknown"]),
      classes: z.array(z.string()),
      numeric: z.boolean(),
      aggregate: z.boolean(),
      text: z.string(),
    }),
  ),
  errors: z.array(diagnostic),
  warnings: z.array(diagnostic),
  openGoals: z.array(z.string()),
  goal: z.looseObject({ answer: z.array(z.string()), kind: z.string(), type: z.string().optional(), many: z.boolean() }).optional(),
  sparql: z.string().describe("the plan as SPARQL text"),
});

/** `run_sparql`: the rows as SPARQL JSON, a short table, the count and whether the limit cut it. */
export const sparqlRunOutputSchema = z.strictObject({
  target: z.string().describe("where the query ran: endpoint NAME or graph NAME"),
  sent: z.string().describe("the query as sent (the plan with its LIMIT rewritten)"),
  results: z.looseObject({ head: z.looseObject({ vars: z.array(z.string()) }), results: z.looseObject({ bindings: z.array(z.record(z.string(), z.looseObject({ type: z.string(), value: z.string() }))) }).optional(), boolean: z.boolean().optional() }),
  count: z.number().int(),
  truncated: z.boolean().describe("true when the store had more rows than limit"),
  table: z.string(),
  warnings: z.array(diagnostic),
  context: z.array(z.string()),
});

/** `index_graph`: the listing with triple ids. */
export const graphIndexOutputSchema = z.strictObject({
  fingerprint: z.string(),
  numbering: z.string().describe("pass it back to apply_critique as fingerprint"),
  tripleCount: z.number().int(),
  scopeSize: z.number().int(),
  listing: z.string(),
});

const critiqueOp = z.enum(["remove", "replace"]);

/** `apply_critique`: what was applied and refused, and the new graph. */
export const graphCritiqueOutputSchema = z.strictObject({
  fingerprintBefore: z.string(),
  fingerprintAfter: z.string(),
  applied: z.array(z.strictObject({ item: z.number().int(), op: critiqueOp, tripleIds: z.array(z.number().int()), removed: z.array(z.string()), added: z.array(z.string()) })),
  rejected: z.array(z.strictObject({ item: z.number().int(), op: critiqueOp, tripleIds: z.array(z.number().int()), code: z.string(), reason: z.string(), guard: z.string().optional() })),
  removedCount: z.number().int(),
  addedCount: z.number().int(),
  fingerprintNext: z.string().describe("the numbering of the new graph"),
  graph: z.string().describe("the new graph as Turtle"),
});

/** `render_neighborhood`: the MemDSL envelope, as text and as data. */
export const graphRenderOutputSchema = z.strictObject({
  text: z.string().describe("the envelope's wire text (memdsl 1)"),
  envelope: z.strictObject({
    focus: z.string().nullable(),
    nodes: z.array(z.looseObject({ ref: z.string(), token: z.string(), kind: z.string(), status: z.string(), title: z.string(), body: z.string(), affordances: z.array(z.looseObject({})) })),
    gaps: z.array(z.looseObject({ ref: z.string(), kind: z.string(), detail: z.string() })),
  }),
  problems: z.array(z.string()),
});

const fragment = z.looseObject({
  fragmentId: z.string(),
  artifactId: z.string(),
  path: z.string(),
  kind: z.string(),
  anchor: z.string(),
  label: z.string().nullable(),
  contentHash: z.string(),
  versionId: z.string(),
  ordinal: z.number().int(),
  sequence: z.number().int(),
  parentId: z.string().nullable(),
  depth: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  line: z.number().int(),
  text: z.string(),
});

/** `fragment_markdown`: the document's fragments in document order. */
export const fragmentsOutputSchema = z.strictObject({ artifactId: z.string(), fragments: z.array(fragment) });

/** `resolve_citations`: one report per citation, in order. */
export const citationsResolveOutputSchema = z.strictObject({
  reports: z.array(
    z.strictObject({
      status: z.enum(["current", "moved", "stale", "lost"]),
      citation: z.looseObject({ fragmentId: z.string(), contentHash: z.string() }),
      fragment: fragment.nullable(),
      candidates: z.array(z.strictObject({ fragment, score: z.number() })),
      reason: z.string(),
    }),
  ),
});
