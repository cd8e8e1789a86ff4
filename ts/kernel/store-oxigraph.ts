/**
 * The embedded store: Oxigraph (Rust, compiled to WASM, `oxigraph` on npm). Node-only
 * here (the package's Node build); exported from the Node entry.
 */
import { Writer } from "n3";
import type { Graph } from "../rdf/index.js";
import { parseSparqlJsonResults, SparqlStoreError, type SparqlStore } from "./store.js";

// Oxigraph is Rust compiled to WebAssembly and instantiates it when imported, so a static
// import would make the whole Node entry fail where WebAssembly is disabled. Load it here,
// once, and let only createOxigraphStore fail (with the reason) when it is unavailable.
let oxigraphError: string | null = null;
const oxigraph = await import("oxigraph").then(
  (m) => (m as { default?: typeof import("oxigraph") }).default ?? m,
  (error: Error) => {
    oxigraphError = error.message;
    return null;
  },
);

/** Serialize a Graph's triples as N-Triples (n3's writer). */
function toNTriples(graph: Graph): string {
  const writer = new Writer({ format: "N-Triples" });
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
