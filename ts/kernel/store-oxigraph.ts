/**
 * The embedded store: Oxigraph (Rust, compiled to WASM, `oxigraph` on npm). Node-only
 * here (the package's Node build); exported from the Node entry.
 */
import { createRequire } from "node:module";
import { ArgumentError } from "../errors.js";
import { n3Writer } from "../deps/n3.js";
import type { Graph } from "../rdf/index.js";
import { parseSparqlJsonResults, SparqlStoreError, type SparqlStore } from "./store.js";

// Oxigraph is Rust compiled to WebAssembly and instantiates it when loaded (≈ 100 ms), so it
// is loaded at the first createOxigraphStore, not with the package: `import("groundwire")`
// stays fast, and where WebAssembly is disabled only this call fails (with the reason).
const require = createRequire(import.meta.url);
let oxigraph: typeof import("oxigraph") | null = null;
let oxigraphError: string | null = null;

function loadOxigraph(): typeof import("oxigraph") | null {
  if (oxigraph || oxigraphError !== null) return oxigraph;
  try {
    oxigraph = require("oxigraph") as typeof import("oxigraph");
  } catch (error) {
    oxigraphError = (error as Error).message;
  }
  return oxigraph;
}

/** Serialize a Graph's triples as N-Triples (n3's writer). */
function toNTriples(graph: Graph): string {
  const writer = new (n3Writer())({ format: "N-Triples" });
  let out = "";
  writer.addQuads(graph.store.getQuads(null, null, null, null));
  writer.end((error, text) => {
    if (error) throw error;
    out = text;
  });
  return out;
}

/**
 * An in-memory Oxigraph store holding `graph` (its default graph). Queries are
 * evaluated by Oxigraph and read back as SPARQL results JSON.
 * @throws SparqlStoreError from `query` when Oxigraph rejects the query, and from this
 *   call when Oxigraph could not be loaded (it needs WebAssembly)
 */
export function createOxigraphStore(graph: Graph): SparqlStore & { size: number } {
  if (graph === null || typeof graph !== "object" || typeof (graph as Graph).store?.getQuads !== "function") {
    throw new ArgumentError("createOxigraphStore", "graph", "a Graph (from parseGraph, createGraph or loadGraphFile)", graph);
  }
  const oxigraph = loadOxigraph();
  if (!oxigraph) throw new SparqlStoreError(`oxigraph (embedded) is unavailable: ${oxigraphError}`, "oxigraph (embedded)");
  const store = new oxigraph.Store();
  store.load(toNTriples(graph), { format: "application/n-triples" });
  const name = "oxigraph (embedded)";
  return {
    name,
    size: store.size,
    async query(sparql) {
      let text: unknown;
      try {
        text = store.query(sparql, { results_format: "application/sparql-results+json" });
      } catch (error) {
        throw new SparqlStoreError(`${name}: ${(error as Error).message ?? String(error)}`, name);
      }
      if (typeof text !== "string") throw new SparqlStoreError(`${name}: a CONSTRUCT or DESCRIBE query is not a plan the kernel runs`, name);
      return parseSparqlJsonResults(text, name);
    },
  };
}
