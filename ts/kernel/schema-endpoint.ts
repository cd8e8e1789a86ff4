/**
 * A schema read from a live SPARQL endpoint (Node-only: the cache is a file). Paged, bounded
 * CONSTRUCT queries read the class and property declarations, `rdfs:subClassOf`,
 * `rdfs:subPropertyOf`, `rdfs:domain` and `rdfs:range`, then the labels and comments of the
 * declared terms; the triples are read as Turtle and built with `Schema.fromGraph`, so the schema
 * equals the one read from the same triples in a file.
 *
 * The queries are fixed texts parsed once; each page sets LIMIT and a FILTER on the subject (keyset
 * paging from the last subject read) on the parsed algebra and, with `graph`, wraps the pattern in
 * GRAPH there (nothing pasted into query text). A page is cut at `pageSize` triples.
 * The triples fetched are cached in one file per endpoint and graph (`cacheDir`, the file named
 * by the SHA-256 of both), written atomically with the time they were read and the SHA-256 of
 * the triples, and reused while younger than `maxAgeMs` unless `refresh` is set. A cache file
 * that does not read back whole (truncated, edited, not JSON, another endpoint's, a checksum
 * that does not match) is never trusted: the endpoint is read again and the file replaced.
 *
 * The endpoint's answers are an untrusted peer's: each page is bounded in bytes and time, the
 * pages in all by `maxTriples` and `maxBytes`, and an answer that is not Turtle or N-Triples is
 * the endpoint's fault (SparqlStoreError, 502), never the caller's.
 */
import { sha256Hex } from "../../bindings/sha256.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../files.js";
import { EndpointError, parseEndpointUrl, postToEndpoint } from "../net/http.js";
import { redactUrl } from "../net/redact.js";
import { parseGraph, type Graph } from "../rdf/graph.js";
import { toSparql, type Group, type Query } from "./algebra.js";
import { Schema } from "./schema.js";
import { parseSparql } from "./sparql.js";
import { SparqlStoreError } from "./store.js";
import { checkArgs } from "../args.js";

const PREFIXES = `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
`;
/** The schema's structure: declarations and the four RDFS relations, in a stable order for paging. */
const STRUCTURE = `${PREFIXES}CONSTRUCT { ?s ?p ?o } WHERE {
  { ?s ?p ?o VALUES ?p { rdfs:subClassOf rdfs:subPropertyOf rdfs:domain rdfs:range } }
  UNION { ?s ?p ?o VALUES ?p { rdf:type } VALUES ?o { owl:Class rdfs:Class rdf:Property owl:ObjectProperty owl:DatatypeProperty owl:AnnotationProperty rdfs:Datatype } }
} ORDER BY ?s ?p ?o`;
/** Labels and comments of declared classes and properties. */
const TEXTS = `${PREFIXES}CONSTRUCT { ?s ?p ?o } WHERE {
  ?s rdf:type ?t . VALUES ?t { owl:Class rdfs:Class rdf:Property owl:ObjectProperty owl:DatatypeProperty rdfs:Datatype }
  ?s ?p ?o . VALUES ?p { rdfs:label rdfs:comment }
} ORDER BY ?s ?p ?o`;

/** Settings of {@link schemaFromEndpoint}. */
export interface EndpointSchemaOptions {
  /** Read only this named graph (default: the endpoint's default graph). */
  graph?: string;
  /** Triples per CONSTRUCT page (default 10,000; many endpoints cap a page at 10,000). */
  pageSize?: number;
  /** Triples read at most in all (default 1,000,000); past it SparqlStoreError names the bound. */
  maxTriples?: number;
  /** Characters of N-Triples read at most in all (default 256 Mi); past it SparqlStoreError names the bound. */
  maxBytes?: number;
  /** Per-request timeout, ms (default 60,000). */
  timeoutMs?: number;
  /** Longest the whole reading may take, ms (default 600,000): checked before each page, so an endpoint that answers every page slowly (or after a Retry-After) cannot stretch it without end. */
  maxTimeMs?: number;
  /** Request headers (e.g. authorization: redacted from every message). */
  headers?: Record<string, string>;
  /** Folder of the cache files; absent: no cache. */
  cacheDir?: string;
  /** Reuse a cached read younger than this, ms (default 24 h). */
  maxAgeMs?: number;
  /** Read the endpoint again even when the cache is fresh. */
  refresh?: boolean;
  fetch?: typeof fetch;
}

/** What {@link schemaFromEndpoint} returns: the schema, its triples, and when and where they were read. */
export interface EndpointSchema {
  schema: Schema;
  graph: Graph;
  /** ISO 8601 time the triples were read from the endpoint. */
  fetchedAt: string;
  /** Whether they came from the cache file. */
  cached: boolean;
  /** The cache file, when there is a cache. */
  cacheFile?: string;
  /** CONSTRUCT pages asked (0 from the cache). */
  pages: number;
}

/** The cache file of an endpoint and graph: `<sha256 of url and graph>.json` in `dir`. */
export function endpointSchemaCacheFile(dir: string, url: string, graph?: string): string {
  checkArgs("endpointSchemaCacheFile", arguments, "dir:text url:text graph?:string");
  return join(dir, `${sha256Hex(JSON.stringify([url, graph ?? null]))}.json`);
}

/**
 * Read a schema from a SPARQL endpoint (see the module comment).
 * @throws TypeError when `url` is not http(s); SparqlStoreError (502, 504 on a timeout) when the endpoint fails or the triples pass `maxTriples`
 */
export async function schemaFromEndpoint(url: string, options: EndpointSchemaOptions = {}): Promise<EndpointSchema> {
  checkArgs("schemaFromEndpoint", arguments, "url:text options?:object");
  const target = parseEndpointUrl(url, "schemaFromEndpoint", "url");
  const cacheFile = options.cacheDir !== undefined ? endpointSchemaCacheFile(options.cacheDir, url, options.graph) : undefined;
  const maxAge = options.maxAgeMs ?? 24 * 3600 * 1000;
  if (cacheFile && !options.refresh && existsSync(cacheFile)) {
    const saved = readCache(cacheFile, url, options.graph);
    if (saved && Date.now() - Date.parse(saved.fetchedAt) < maxAge) return { schema: Schema.fromGraph(saved.graph), graph: saved.graph, fetchedAt: saved.fetchedAt, cached: true, cacheFile, pages: 0 };
  }
  const pageSize = options.pageSize ?? 10_000;
  const maxTriples = options.maxTriples ?? 1_000_000;
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  let bytes = 0;
  const maxTime = options.maxTimeMs ?? 600_000;
  const started = Date.now();
  const shown = redactUrl(target);
  const fetchedAt = new Date().toISOString();
  const lines = new Set<string>();
  let pages = 0;
  for (const text of [STRUCTURE, TEXTS]) {
    const base = parseSparql(text);
    // keyset paging: each page after the first starts at the last subject read (Virtuoso refuses
    // sorted pages past OFFSET + LIMIT of 10,000; a subject's triples repeated across the seam are deduplicated)
    let after: string | undefined;
    for (;;) {
      const patterns = [...base.where.patterns];
      if (after !== undefined) patterns.push({ type: "filter", expr: { kind: "call", name: ">=", args: [{ kind: "call", name: "str", args: [{ kind: "term", term: { kind: "var", name: "s" } }] }, { kind: "term", term: { kind: "literal", value: after, datatype: "http://www.w3.org/2001/XMLSchema#string" } }] } });
      if (Date.now() - started > maxTime) {
        const message = `timed out: reading the schema from ${shown} took over ${(maxTime / 1000).toLocaleString("en-US")} s (maxTimeMs) after ${pages} pages`;
        throw new SparqlStoreError(message, shown, undefined, { cause: new EndpointError(message, "timeout", shown) });
      }
      const where: Group = { type: "group", patterns };
      const page: Query = { ...base, limit: pageSize, where: options.graph === undefined ? where : { type: "group", patterns: [{ type: "graph", name: { kind: "iri", value: options.graph }, group: where }] } };
      let body: string;
      try {
        ({ text: body } = await postToEndpoint({
          what: "the SPARQL endpoint",
          url: target,
          body: new URLSearchParams({ query: toSparql(page) }).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/n-triples, text/turtle;q=0.9", ...options.headers },
          timeoutMs: options.timeoutMs ?? 60_000,
          fetch: options.fetch,
          secrets: Object.values(options.headers ?? {}),
        }));
      } catch (error) {
        if (error instanceof EndpointError) throw new SparqlStoreError(error.message, shown, error.upstreamStatus, { cause: error });
        throw error;
      }
      pages++;
      // N-Triples is Turtle: one reader for both answers
      let got: Graph;
      try {
        got = parseGraph(body, { format: "turtle", source: shown });
      } catch (error) {
        throw new SparqlStoreError(`${shown}: the answer to a CONSTRUCT page is not Turtle or N-Triples: ${(error as Error).message.slice(0, 300)}`, shown, undefined, { cause: error });
      }
      const before = lines.size;
      for (const line of toNTriplesLines(got)) {
        if (lines.has(line)) continue;
        bytes += line.length + 1;
        if (bytes > maxBytes) throw new SparqlStoreError(`${shown}: the schema's triples pass ${maxBytes.toLocaleString("en-US")} characters of N-Triples (maxBytes)`, shown);
        lines.add(line);
      }
      if (lines.size > maxTriples) throw new SparqlStoreError(`${shown}: the schema holds more than ${maxTriples.toLocaleString("en-US")} triples (maxTriples)`, shown);
      // a CONSTRUCT page holds fewer triples than solutions (duplicates merge), so only a page that adds nothing ends the reading
      if (got.store.size === 0 || lines.size === before) break;
      let last = "";
      for (const q of got.store.getQuads(null, null, null, null)) if (q.subject.value > last) last = q.subject.value;
      after = last;
    }
  }
  const ntriples = [...lines].join("\n") + "\n";
  if (cacheFile) writeFileAtomic(cacheFile, JSON.stringify({ url, graph: options.graph ?? null, fetchedAt, sha256: sha256Hex(ntriples), ntriples }));
  const graph = parseGraph(ntriples, { format: "ntriples", source: shown });
  return { schema: Schema.fromGraph(graph), graph, fetchedAt, cached: false, cacheFile, pages };
}

/**
 * A cache file read back whole, or undefined when it cannot be trusted: unreadable, not JSON,
 * another endpoint's or graph's, a time that is not one, a checksum that does not match its
 * triples (a truncated or edited file), or triples that do not parse.
 */
function readCache(file: string, url: string, graph: string | undefined): { fetchedAt: string; graph: Graph } | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    if (saved === null || typeof saved !== "object" || saved.url !== url || saved.graph !== (graph ?? null)) return undefined;
    const { fetchedAt, ntriples, sha256 } = saved;
    if (typeof fetchedAt !== "string" || Number.isNaN(Date.parse(fetchedAt)) || Date.parse(fetchedAt) > Date.now() + 60_000) return undefined;
    if (typeof ntriples !== "string" || typeof sha256 !== "string" || sha256Hex(ntriples) !== sha256) return undefined;
    return { fetchedAt, graph: parseGraph(ntriples, { format: "ntriples", source: file }) };
  } catch {
    return undefined;
  }
}

/** A graph's triples without blank nodes as N-Triples lines. */
function toNTriplesLines(graph: Graph): string[] {
  const term = (t: { termType: string; value: string; language?: string; datatype?: { value: string } }): string => {
    if (t.termType === "NamedNode") return `<${t.value}>`;
    if (t.termType === "BlankNode") return `_:${t.value}`;
    const lit = JSON.stringify(t.value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
    if (t.language) return `${lit}@${t.language}`;
    return t.datatype && t.datatype.value !== "http://www.w3.org/2001/XMLSchema#string" ? `${lit}^^<${t.datatype.value}>` : lit;
  };
  // a blank node is never a schema term (Schema.fromGraph reads IRIs only), and its label is one answer's own
  return graph.store.getQuads(null, null, null, null).filter((q) => q.subject.termType !== "BlankNode" && q.object.termType !== "BlankNode").map((q) => `${term(q.subject)} ${term(q.predicate)} ${term(q.object)} .`);
}
