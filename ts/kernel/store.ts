/**
 * Where a verified plan runs: any SPARQL 1.1 store behind one small interface.
 * This file has the HTTP endpoint store (SPARQL 1.1 Protocol, fetch, so it runs
 * in Node and browsers) and the SPARQL JSON results reader; the embedded
 * Oxigraph store is Node-only (ts/kernel/store-oxigraph.ts, exported from the Node entry).
 */

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
}

/** A store failed: names the store, and the HTTP status when there was one. */
export class SparqlStoreError extends Error {
  constructor(
    message: string,
    readonly store: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "SparqlStoreError";
  }
}

/**
 * Read SPARQL 1.1 Query Results JSON (W3C Recommendation, 2013).
 * @throws SparqlStoreError when the text is not results JSON
 */
export function parseSparqlJsonResults(text: string, store = "<results>"): SparqlResult {
  let doc: { head?: { vars?: string[] }; boolean?: boolean; results?: { bindings?: Record<string, ResultTerm>[] } };
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new SparqlStoreError(`${store}: the answer is not SPARQL results JSON: ${(error as Error).message}`, store);
  }
  if (typeof doc.boolean === "boolean") return { kind: "boolean", boolean: doc.boolean };
  if (!doc.results || !Array.isArray(doc.results.bindings)) throw new SparqlStoreError(`${store}: the answer has neither "boolean" nor "results.bindings"`, store);
  return { kind: "bindings", variables: doc.head?.vars ?? [], rows: doc.results.bindings };
}

/** Number of solutions of a result (1 for ASK). */
export function solutionCount(result: SparqlResult): number {
  return result.kind === "boolean" ? 1 : result.rows.length;
}

/**
 * A SPARQL 1.1 Protocol endpoint over HTTP: `POST` with
 * `application/x-www-form-urlencoded` `query=…`, `Accept: application/sparql-results+json`.
 * @param url the endpoint URL, e.g. `https://dbpedia.org/sparql` or `http://127.0.0.1:7878/query`
 * @param options.fetch the fetch to use (default the global one); options.headers extra request headers; options.timeoutMs (default 60,000)
 * @throws SparqlStoreError from `query` when the endpoint is unreachable, times out, or answers non-2xx
 */
export function createSparqlEndpointStore(
  url: string,
  options: { fetch?: typeof fetch; headers?: Record<string, string>; timeoutMs?: number } = {},
): SparqlStore {
  if (!/^https?:\/\//.test(url)) throw new TypeError(`createSparqlEndpointStore: expected an http(s) URL, got ${JSON.stringify(url)}`);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    name: url,
    async query(sparql) {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/sparql-results+json", ...options.headers },
          body: new URLSearchParams({ query: sparql }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new SparqlStoreError(`SPARQL endpoint ${url} unreachable: ${(error as Error).message}`, url);
      }
      const text = await response.text();
      if (!response.ok) throw new SparqlStoreError(`SPARQL endpoint ${url} answered ${response.status}: ${text.slice(0, 200)}`, url, response.status);
      return parseSparqlJsonResults(text, url);
    },
  };
}
