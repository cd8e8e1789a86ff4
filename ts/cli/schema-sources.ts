/**
 * `--schema NAME=sparql:URL` (serve, mcp) and `--schema sparql:URL` (check): a schema read from a
 * live SPARQL endpoint (`sparql:URL#graph=IRI`: from that named graph only; a fragment is never
 * sent, so it cannot be confused with the endpoint's own parameters) with `schemaFromEndpoint` (paged CONSTRUCT queries, cached for 24 hours in
 * the cache folder, `$XDG_CACHE_HOME/groundwire/endpoint-schemas`), then written there as an
 * N-Triples file, so the server's check workers load it like any `--schema NAME=FILE`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../bindings/sha256.js";
import { writeFileAtomic } from "../files.js";
import { schemaFromEndpoint } from "../kernel/node.js";
import { serializeGraph } from "../rdf/index.js";
import { CliError, echo } from "./common.js";
import { cacheDir } from "./quote-index-cache.js";

const SPARQL_SCHEME = "sparql:";

/** Whether a `--schema` value (`NAME=…` or bare) names an endpoint. */
export function isEndpointSchema(value: string): boolean {
  const eq = value.indexOf("=");
  const source = eq > 0 && !value.startsWith(SPARQL_SCHEME) ? value.slice(eq + 1) : value;
  return source.startsWith(SPARQL_SCHEME);
}

/**
 * The endpoint behind `sparql:URL`, read (or taken from the cache) and written as N-Triples into
 * the cache folder. @returns the file's path
 * @throws CliError naming the endpoint (its URL without credentials is in the kernel's message) when it cannot be read
 */
export async function endpointSchemaFile(command: string, source: string, options: { refresh?: boolean; headers?: Record<string, string> } = {}): Promise<string> {
  let url = source.slice(SPARQL_SCHEME.length);
  let graph: string | undefined;
  const hash = url.indexOf("#");
  if (hash >= 0) {
    const fragment = url.slice(hash + 1);
    if (!fragment.startsWith("graph=") || fragment.length === "graph=".length) throw new CliError(`${command}: --schema sparql:URL takes one fragment, #graph=IRI (the named graph to read), got ${echo(`#${fragment}`)}`, 2);
    try {
      graph = decodeURIComponent(fragment.slice("graph=".length));
    } catch {
      throw new CliError(`${command}: --schema sparql:URL#graph=IRI: the IRI is not percent-encoded properly, got ${echo(`#${fragment}`)}`, 2);
    }
    url = url.slice(0, hash);
  }
  const dir = join(cacheDir(undefined, false)!, "endpoint-schemas");
  mkdirSync(dir, { recursive: true });
  let read;
  try {
    read = await schemaFromEndpoint(url, { cacheDir: dir, graph, refresh: options.refresh, headers: options.headers });
  } catch (error) {
    throw new CliError(`${command}: --schema ${echo(source.replace(/\/\/[^/@]*@/, "//"))}: ${(error as Error).message}`);
  }
  const file = join(dir, `${sha256Hex(JSON.stringify([url, graph ?? null]))}.nt`);
  writeFileAtomic(file, serializeGraph(read.graph, { format: "ntriples" }));
  return file;
}

/** `--schema` pairs with every `NAME=sparql:URL` replaced by `NAME=FILE` (see the module comment). */
export async function resolveSchemaPairs(command: string, pairs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const pair of pairs) {
    if (!isEndpointSchema(pair)) {
      out.push(pair);
      continue;
    }
    const eq = pair.startsWith(SPARQL_SCHEME) ? -1 : pair.indexOf("=");
    if (eq <= 0) throw new CliError(`${command}: --schema NAME=sparql:URL needs a NAME, got ${echo(pair)}`, 2);
    out.push(`${pair.slice(0, eq)}=${await endpointSchemaFile(command, pair.slice(eq + 1))}`);
  }
  return out;
}
