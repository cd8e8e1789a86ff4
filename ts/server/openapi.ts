/**
 * `GET /openapi.json`: the HTTP API of `groundwire serve` as an OpenAPI 3.1 document. Every
 * request body's schema is generated from the same zod schema the route checks its body with
 * (schemas.ts, through zod's `z.toJSONSchema`, JSON Schema 2020-12 as OpenAPI 3.1 takes it),
 * so the description cannot drift from the check. The answers are described by their status
 * and the error shape every failure shares.
 */
import { z } from "zod";
import {
  citationsResolveBodySchema,
  fragmentsBodySchema,
  graphCritiqueBodySchema,
  graphIndexBodySchema,
  graphRenderBodySchema,
  locateBodySchema,
  mootCreateBodySchema,
  passageShowBodySchema,
  queryBodySchema,
  sparqlCheckBodySchema,
  sparqlRunBodySchema,
  verifyQuotesBodySchema,
} from "./schemas.js";

/** One operation of the API. */
interface Operation {
  method: "get" | "post" | "delete";
  /** OpenAPI path (`/moots/{id}`). */
  path: string;
  summary: string;
  /** Name of the body schema under components/schemas, and the schema. */
  body?: [name: string, schema: z.ZodType];
  /** An example body (checked against the schema when the document is built). */
  example?: unknown;
  /** Status of success (200 unless said). */
  ok?: number;
  /** Open without a token (health and this document). */
  open?: boolean;
}

/** Every route of app.ts (test/server/openapi.test.ts checks the app registers exactly these). */
export const OPERATIONS: readonly Operation[] = [
  { method: "get", path: "/health", summary: "liveness: {ok, version, moots, running}; open without a token (Host still checked)", open: true },
  { method: "get", path: "/openapi.json", summary: "this document; open without a token (Host still checked)", open: true },
  { method: "post", path: "/query", summary: "passages of a corpus book for a text: {hits}", body: ["QueryBody", queryBodySchema], example: { text: "fire in the city", corpus: "diary/pepys-1660", k: 3 } },
  { method: "get", path: "/books", summary: "the corpus: {books: [{key, title, author, genre, passages}]}" },
  { method: "post", path: "/moots", summary: "start a live moot between two books: {id, trees, turns}", body: ["MootCreateBody", mootCreateBodySchema], ok: 201, example: { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "fire", turns: 2 } },
  { method: "post", path: "/moots/{id}/turns", summary: "the moot's next utterance (grounding, snaps)" },
  { method: "get", path: "/moots/{id}", summary: "the moot's transcript and {id, done}" },
  { method: "get", path: "/moots/{id}/events", summary: "the moot's turns as they are spoken, server-sent events (text/event-stream): state, speaking, utterance, failed, done, deleted; 503 too_many_streams past the cap" },
  { method: "delete", path: "/moots/{id}", summary: "delete the moot: {deleted: id}" },
  { method: "post", path: "/quotes/verify", summary: "check a reply's quotes and [sN] tags against passages or a book", body: ["VerifyQuotesBody", verifyQuotesBodySchema], example: { reply: 'It was "on a dreary night of November" [s1].', passages: ["It was on a dreary night of November that I beheld the accomplishment of my toils."] } },
  { method: "get", path: "/schema/{name}", summary: "a schema's classes and properties: ?search=TEXT finds terms, ?term=NAME describes one (&endpoint=E|&graph=G for examples, &limit=N)" },
  { method: "post", path: "/sparql/run", summary: "check a SPARQL query, then run it on an --endpoint or a --graph (422 refused while an error or open goal remains)", body: ["SparqlRunBody", sparqlRunBodySchema] },
  { method: "post", path: "/sparql/check", summary: "check a SPARQL query or op list against a schema", body: ["SparqlCheckBody", sparqlCheckBodySchema] },
  { method: "post", path: "/graph/index", summary: "a graph's triples with ids and its fingerprint", body: ["GraphIndexBody", graphIndexBodySchema], example: { graph: { text: "<urn:a> <urn:p> <urn:b> ." } } },
  { method: "post", path: "/graph/critique", summary: "apply a critique citing triple ids; 409 when the graph drifted", body: ["GraphCritiqueBody", graphCritiqueBodySchema] },
  { method: "post", path: "/graph/render", summary: "a focus's neighborhood as a MemDSL envelope", body: ["GraphRenderBody", graphRenderBodySchema] },
  { method: "post", path: "/fragments", summary: "a document's citable fragments", body: ["FragmentsBody", fragmentsBodySchema], example: { text: "# Guide\n\nRun it.\n", artifactId: "guide" } },
  { method: "post", path: "/citations/resolve", summary: "stored citations against the document as it is now", body: ["CitationsResolveBody", citationsResolveBodySchema] },
  { method: "get", path: "/moots", summary: "the moots held: {moots: [{id, topic, keys, spoken, turns, done}]} (at most 200)" },
  { method: "get", path: "/books/passages", summary: "a book's passages by label: ?book=KEY&label=TEXT&offset=N&limit=N → {book, total, offset, passages: [{name, label, node, words}]}" },
  { method: "post", path: "/passages/show", summary: "one passage ({node, book, title, name, label, content}) and each quote's best span in it: marks [{quote, start, end, ratio, text, diff}]", body: ["PassageShowBody", passageShowBodySchema], example: { node: "novel/frankenstein#chapter-5-1", quotes: ["on a dreary night in November"] } },
  { method: "post", path: "/locate", summary: "where a quote is in a book, best first: {quote, book, spans: [{name, label, node, start, end, ratio, text, diff}]}", body: ["LocateBody", locateBodySchema], example: { quote: "on a dreary night in November", book: "novel/frankenstein" } },
  { method: "get", path: "/histories", summary: "the --history folders the server was started with: {histories: [{name, versions: [{name, chars}]}]}" },
  { method: "get", path: "/histories/{name}/{version}", summary: "one version of a history: {history, version, text}" },
  { method: "post", path: "/mcp", summary: "the MCP tools over Streamable HTTP (stateless; JSON-RPC 2.0 messages)" },
];

/** A schema of zod as a component: `#/$defs/x` references rewritten to point inside the component. */
function component(name: string, schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  const base = `#/components/schemas/${name}/$defs/`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? base + v.slice(8) : rewrite(v);
    return out;
  };
  return rewrite(json) as Record<string, unknown>;
}

const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string", description: "stable machine code (docs/serving.md)" }, message: { type: "string" } },
    },
  },
};

/** The OpenAPI 3.1 document; `auth` says whether the server requires a bearer token. */
export function openApiDocument(options: { version: string; auth: boolean }): Record<string, unknown> {
  const schemas: Record<string, unknown> = { Error: ERROR_SCHEMA };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const ok = op.ok ?? 200;
    const operation: Record<string, unknown> = {
      operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, "By_$1").replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`,
      summary: op.summary,
      responses: {
        [ok]: { description: "success", content: { "application/json": { schema: { type: "object" } } } },
        default: { description: "an error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    if (op.open && options.auth) operation.security = [];
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string", maxLength: 200 } }));
    if (params.length) operation.parameters = params;
    if (op.body) {
      const [name, schema] = op.body;
      schemas[name] = component(name, schema);
      const media: Record<string, unknown> = { schema: { $ref: `#/components/schemas/${name}` } };
      if (op.example !== undefined) {
        schema.parse(op.example); // an example that its own schema refuses fails here, not in a client
        media.example = op.example;
      }
      operation.requestBody = { required: true, content: { "application/json": media } };
    } else if (op.path === "/mcp") {
      operation.requestBody = { required: true, content: { "application/json": { schema: { type: ["object", "array"], description: "a JSON-RPC 2.0 message" } } } };
    }
    (paths[op.path] ??= {})[op.method] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "groundwire serve", version: options.version, description: "The HTTP API of `groundwire serve` (docs/serving.md). JSON in and out; every error is {error: {code, message}}." },
    paths,
    components: {
      schemas,
      ...(options.auth ? { securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "the token serve printed or saved at start (--token-file, GROUNDWIRE_TOKEN, <--data>/token)" } } } : {}),
    },
    ...(options.auth ? { security: [{ bearer: [] }] } : {}),
  };
}
