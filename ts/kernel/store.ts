/**
 * Where a verified plan runs: any SPARQL 1.1 store behind one small interface.
 * This file has the HTTP endpoint store (SPARQL 1.1 Protocol, fetch, so it runs
 * in Node and browsers) and the SPARQL JSON results reader; the embedded
 * Oxigraph store is Node-only (ts/kernel/store-oxigraph.ts, exported from the Node entry).
 */
import { EndpointError, parseEndpointUrl, postToEndpoint, upstreamFault } from "../net/http.js";
import { ArgumentError, GroundwireError } from "../errors.js";
import { redactUrl } from "../net/redact.js";
import { checkArgs } from "../arg-kinds.js";

/** One RDF term of a result row, as SPARQL 1.1 Query Results JSON writes it. */
export interface ResultTerm {
  type: "uri" | "literal" | "bnode" | "triple";
  value: string;
  "xml:lang"?: string;
  datatype?: string;
}

/** The result of a query: solutions (SELECT) or a boolean (ASK). */
export type SparqlResult =
  | { kind: "bindings"; variables: string[]; rows: Record<string, ResultTerm>[] }
  | { kind: "boolean"; boolean: boolean };

/** A SPARQL store the kernel's verified plans run on. */
export interface SparqlStore {
  /** e.g. "oxigraph (embedded)" or the endpoint URL. */
  readonly name: string;
  /** Run a SELECT or ASK query. */
  query(sparql: string): Promise<SparqlResult>;
  /** An HTTP endpoint's store: the answer's text, unread (a server waits for it on one thread and reads it on another; `parseSparqlJsonResults(text, name)` reads it as `query` does). */
  queryText?(sparql: string): Promise<string>;
}

/** A store failed: names the store, and the HTTP status when there was one. */
export class SparqlStoreError extends GroundwireError {
  constructor(
    message: string,
    readonly store: string,
    /** The store's HTTP status, when it answered (`status` is groundwire's own: 504 for a timeout, else 502). */
    readonly upstreamStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, { ...upstreamFault(options?.cause instanceof EndpointError ? options.cause.failure : undefined), cause: options?.cause });
    this.name = "SparqlStoreError";
  }
}

/** Most variables a results document may name (a wider head is not an answer to a query the kernel checked). */
export const MAX_RESULT_VARIABLES = 1_000;

/**
 * Read SPARQL 1.1 Query Results JSON (W3C Recommendation, 2013). The answer is an untrusted
 * peer's: every row and term is checked and copied field by field (`type`, `value`, `xml:lang`,
 * `datatype`, strings only; anything else in a term is dropped), so a malformed or hostile
 * document (a null row, a term 10,000 arrays deep, `head.vars` that is not a list) is refused
 * with a named error instead of crashing a later step.
 * @throws SparqlStoreError (502 `upstream`) when the text is not results JSON
 */
export function parseSparqlJsonResults(text: string, store = "<results>"): SparqlResult {
  checkArgs("parseSparqlJsonResults", arguments, "text:string store?:string");
  const refuse = (why: string) => new SparqlStoreError(`${store}: the answer is not SPARQL results JSON: ${why}`, store);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw refuse((error as Error).message.slice(0, 200));
  }
  if (!isRecord(doc)) throw refuse("not a JSON object");
  if (typeof doc.boolean === "boolean") return { kind: "boolean", boolean: doc.boolean };
  const results = doc.results;
  if (!isRecord(results) || !Array.isArray(results.bindings)) throw new SparqlStoreError(`${store}: the answer has neither "boolean" nor "results.bindings"`, store);
  const head = doc.head;
  const vars = isRecord(head) ? head.vars ?? [] : [];
  if (!Array.isArray(vars) || vars.length > MAX_RESULT_VARIABLES || !vars.every((v) => typeof v === "string")) throw refuse(`"head.vars" is not a list of at most ${MAX_RESULT_VARIABLES.toLocaleString("en-US")} names`);
  const rows = results.bindings.map((row: unknown, i: number) => {
    if (!isRecord(row)) throw refuse(`row ${i + 1} is not an object`);
    const out: Record<string, ResultTerm> = {};
    for (const v of Object.keys(row)) {
      const term = resultTerm(row[v], 0);
      if (!term) throw refuse(`row ${i + 1}, ?${v.slice(0, 50)}: not an RDF term (an object with a "type" of uri, literal, bnode or triple and a string "value")`);
      Object.defineProperty(out, v, { value: term, enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
  return { kind: "bindings", variables: vars as string[], rows };
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** One term of a row, copied, or undefined when it is not one. A quoted triple (RDF-star) becomes its text `<< s p o >>`, two levels deep at most. */
function resultTerm(x: unknown, depth: number): ResultTerm | undefined {
  if (!isRecord(x)) return undefined;
  // Virtuoso still writes the 2008 draft's "typed-literal" for a literal with a datatype: read it as the Recommendation's "literal"
  const type = x.type === "typed-literal" ? "literal" : x.type;
  if (type === "triple" && isRecord(x.value) && depth < 2) {
    const parts = [x.value.subject, x.value.predicate, x.value.object].map((t) => resultTerm(t, depth + 1));
    if (parts.some((t) => !t)) return undefined;
    const show = (t: ResultTerm) => (t.type === "uri" ? `<${t.value}>` : t.type === "bnode" ? `_:${t.value}` : t.type === "literal" ? JSON.stringify(t.value) : t.value);
    return { type: "triple", value: `<< ${(parts as ResultTerm[]).map(show).join(" ")} >>` };
  }
  if ((type !== "uri" && type !== "literal" && type !== "bnode") || typeof x.value !== "string") return undefined;
  const term: ResultTerm = { type, value: x.value };
  if (type === "literal" && typeof x["xml:lang"] === "string") term["xml:lang"] = x["xml:lang"];
  if (type === "literal" && typeof x.datatype === "string") term.datatype = x.datatype;
  return term;
}

/** Number of solutions of a result (1 for ASK). */
export function solutionCount(result: SparqlResult): number {
  checkArgs("solutionCount", arguments, "result:sparqlResult");
  return result.kind === "boolean" ? 1 : result.rows.length;
}

/** Settings of {@link createSparqlEndpointStore}. */
export interface SparqlEndpointOptions {
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Extra request headers (e.g. authorization; their values are redacted from messages). */
  headers?: Record<string, string>;
  /** Per-attempt timeout, ms (default 60,000). */
  timeoutMs?: number;
  /** Attempts per query, retrying HTTP 429, 500, 502, 503 and 504 only (default 3). */
  attempts?: number;
  /** Longest `Retry-After` honoured, ms (default 60,000). */
  maxRetryAfterMs?: number;
  /** First backoff without `Retry-After`, ms (default 500). */
  retryDelayMs?: number;
  /** Cap on a results body, bytes (default 16 MiB). */
  maxResponseBytes?: number;
}

/**
 * A SPARQL 1.1 Protocol endpoint over HTTP (W3C SPARQL 1.1 Protocol §2.1.2,
 * query via POST with URL-encoded parameters): `POST` with
 * `application/x-www-form-urlencoded` `query=…`, `Accept: application/sparql-results+json`,
 * through the shared endpoint wrapper (ts/net/http.ts: retries on 429, 500, 502, 503 and 504 with
 * Retry-After, timeouts named as timeouts, redirects not followed, capped body).
 * @param url the endpoint URL, e.g. `https://dbpedia.org/sparql` or `http://127.0.0.1:7878/query`
 * @throws ArgumentError at once when `url` is not an http(s) URL
 * @throws SparqlStoreError from `query` when the endpoint is unreachable (with the
 *   cause, e.g. ECONNREFUSED), times out, redirects, answers non-2xx after its
 *   retries, or sends an oversized body; the message names the URL, redacted
 */
export function createSparqlEndpointStore(url: string, options: SparqlEndpointOptions = {}): SparqlStore {
  checkArgs("createSparqlEndpointStore", arguments, "url:text options?:object");
  const target = parseEndpointUrl(url, "createSparqlEndpointStore", "url");
  const shown = redactUrl(target);
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new ArgumentError("createSparqlEndpointStore", "options.timeoutMs", "a positive integer (milliseconds)", timeoutMs);
  const queryText = async (sparql: string): Promise<string> => {
    let text: string;
    try {
      ({ text } = await postToEndpoint({
        what: "the SPARQL endpoint",
        url: target,
        // The query travels as a form value (URLSearchParams encodes it), never pasted into the URL.
        body: new URLSearchParams({ query: sparql }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/sparql-results+json", ...options.headers },
        timeoutMs,
        attempts: options.attempts,
        maxRetryAfterMs: options.maxRetryAfterMs,
        retryDelayMs: options.retryDelayMs,
        maxResponseBytes: options.maxResponseBytes,
        fetch: options.fetch,
        secrets: Object.values(options.headers ?? {}),
      }));
    } catch (error) {
      if (error instanceof EndpointError) throw new SparqlStoreError(error.message, shown, error.upstreamStatus, { cause: error });
      throw error;
    }
    return text;
  };
  return {
    name: shown,
    queryText,
    async query(sparql) {
      return parseSparqlJsonResults(await queryText(sparql), shown);
    },
  };
}
