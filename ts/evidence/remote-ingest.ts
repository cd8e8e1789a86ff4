/**
 * `ingest` into a remote triple store through the SPARQL 1.1 Graph Store HTTP Protocol: the slice
 * is validated exactly as for the embedded store (validateSlice: SHACL shapes, then the slice
 * checks), then written as the artifact's named graph with one PUT, which the protocol defines as
 * replacing the graph's content (§5.3): the store holds the old revision or the new one, never a
 * mix. A slice that fails validation sends nothing. The body is N-Triples (as Turtle, which every
 * Graph Store implementation reads) written by N3.js from the slice's terms; the graph IRI travels
 * as the `graph` query parameter, set with URLSearchParams: nothing is pasted into a query or a path.
 */
import type * as RDF from "@rdfjs/types";
import { n3Writer } from "../deps/n3.js";
import { EndpointError, parseEndpointUrl, postToEndpoint } from "../net/http.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";
import { sliceArtifact, validateSlice, type GraphSlice, type IngestReport } from "./graph-slice.js";

/** Where and how {@link ingestToGraphStore} writes. */
export interface GraphStoreTarget {
  /** The Graph Store Protocol endpoint, e.g. Virtuoso's `http://host:8890/sparql-graph-crud-auth` (or `/sparql-graph-crud` where updates are granted). */
  url: string;
  /** Request headers, e.g. `authorization` (never shown in a message). */
  headers?: Record<string, string>;
  /** The query parameter naming the graph: `graph` (the protocol's, default) or `graph-uri` (Virtuoso's older name). */
  graphParameter?: "graph" | "graph-uri";
  /** Per-attempt timeout, ms (default 60,000). */
  timeoutMs?: number;
  /** Attempts in all (default 3; a PUT is idempotent, so a 502/503 is retried). */
  attempts?: number;
  fetch?: typeof fetch;
}

/**
 * A remote write failed. `replaced` says what the store holds: `false` when the store refused
 * the PUT or was never reached (it keeps the previous revision); `"unknown"` when the request
 * went out and no answer came back (a timeout, a connection broken off): a PUT replaces the graph
 * whole, so the store holds either the previous revision or this one, and only reading the
 * graph back tells which. 502 `upstream`, 504 `timeout`.
 */
export class GraphStoreError extends GroundwireError {
  readonly replaced: false | "unknown";
  constructor(message: string, options: { status: 502 | 504; cause?: unknown; replaced?: false | "unknown" }) {
    super(message, { code: options.status === 504 ? "timeout" : "upstream", status: options.status, cause: options.cause });
    this.replaced = options.replaced ?? false;
  }
}

/** Causes that mean the request never reached the store (nothing can have been written). */
const NEVER_SENT = /\((ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\)$/;

/** A validated slice's triples (all in the default graph) as N-Triples: the PUT names their graph. */
export function sliceNTriples(slice: GraphSlice): string {
  checkArgs("sliceNTriples", arguments, "slice:slice");
  return new (n3Writer())({ format: "N-Triples" }).quadsToString(slice.quads as RDF.Quad[]);
}

/**
 * Validate a slice, then replace its artifact's named graph in a remote store with one Graph Store
 * Protocol PUT (see the module comment). Same report as `ingest`: `{ok, written, graph, violations}`.
 * @throws GraphStoreError (502 `upstream`, 504 `timeout`) when the store does not accept the PUT; TypeError for a URL that is not http(s)
 */
export async function ingestToGraphStore(target: GraphStoreTarget, slice: GraphSlice): Promise<IngestReport> {
  checkArgs("ingestToGraphStore", arguments, "target:object slice:slice");
  const outcome = await validateSlice(slice);
  if (!outcome.conforms) return { ok: false, written: 0, graph: sliceArtifact(slice.quads)?.value ?? "", violations: outcome.violations };
  const url = parseEndpointUrl(target.url, "ingestToGraphStore", "target.url");
  url.searchParams.set(target.graphParameter ?? "graph", slice.artifactIri);
  try {
    await postToEndpoint({
      what: "the graph store",
      url,
      method: "put",
      body: sliceNTriples(slice),
      headers: { "content-type": "text/turtle; charset=utf-8", ...target.headers },
      timeoutMs: target.timeoutMs ?? 60_000,
      attempts: target.attempts,
      fetch: target.fetch,
      secrets: Object.values(target.headers ?? {}),
    });
  } catch (error) {
    if (!(error instanceof EndpointError)) throw error;
    // the store said 2xx: the graph was replaced, whatever became of the rest of its answer (cut, slow, oversized)
    if (error.upstreamStatus !== undefined && error.upstreamStatus >= 200 && error.upstreamStatus < 300) return { ok: true, written: slice.quads.length, graph: slice.artifactIri, violations: [] };
    const status = error.status === 504 ? 504 : 502;
    const refused = error.failure === "status" || error.failure === "redirect" || (error.failure === "unreachable" && NEVER_SENT.test(error.message));
    if (refused) throw new GraphStoreError(`ingest: ${error.message}; the graph <${slice.artifactIri}> was not replaced`, { status, cause: error, replaced: false });
    throw new GraphStoreError(`ingest: ${error.message}; the PUT was sent but not answered, so the graph <${slice.artifactIri}> holds either its previous revision or this one (a PUT replaces it whole): read it back to know`, { status, cause: error, replaced: "unknown" });
  }
  return { ok: true, written: slice.quads.length, graph: slice.artifactIri, violations: [] };
}
