/**
 * Writing graphs back out, losslessly, with N3.js's Writer: every literal keeps its lexical
 * form (numbers are written bare only when N3.js's Writer can do so without changing the
 * lexical form: `7.50`, `1.0E-7`, `007` stay as written), language tags and datatypes are
 * kept, IRIs use the graph's prefixes where the local part is a valid PN_LOCAL.
 */
import { ArgumentError } from "../errors.js";
import { n3Writer } from "../deps/n3.js";
import type * as RDF from "@rdfjs/types";
import type { Graph, RdfFormat } from "./graph.js";
import { checkArgs } from "../arg-kinds.js";

/** An absolute IRI starts with a scheme (RFC 3987 §2.2). */
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const WRITER_FORMAT: Record<RdfFormat, string> = {
  turtle: "Turtle",
  ntriples: "N-Triples",
  nquads: "N-Quads",
  trig: "TriG",
};

/**
 * Serialize a graph to text.
 *
 * @param graph the graph; its `prefixes` become `@prefix` lines in Turtle
 * @param options.format "turtle" (default), "ntriples" (canonical escapes, one triple a
 *   line; quads in named graphs lose their graph; so does "turtle", see {@link namedGraphCount}),
 *   "nquads" or "trig" (datasets)
 * @returns the document (UTF-8 when written), ending in a newline when non-empty
 * @throws ArgumentError for an unknown format; Error naming the first relative IRI (N-Triples and
 *   N-Quads cannot hold one, and in Turtle it would resolve against the reader's base: the file
 *   would not read back as this graph). Parse with a `baseIRI`; files are read against their URL.
 */
export function serializeGraph(graph: Graph, options: { format?: RdfFormat } = {}): string {
  checkArgs("serializeGraph", arguments, "graph:graph options?:object");
  const format = options.format ?? "turtle";
  const writerFormat = WRITER_FORMAT[format];
  if (!writerFormat) throw new ArgumentError("serializeGraph", "options.format", "turtle, ntriples, nquads or trig", format);
  const writer = new (n3Writer())({ format: writerFormat, prefixes: format === "turtle" || format === "trig" ? graph.prefixes : undefined });
  const quads = graph.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
  for (const quad of quads) {
    for (const term of [quad.subject, quad.predicate, quad.object, quad.graph]) {
      const iri = term.termType === "NamedNode" ? term.value : term.termType === "Literal" ? term.datatype.value : null;
      if (iri !== null && !ABSOLUTE_IRI.test(iri)) {
        throw new Error(`cannot write the relative IRI <${iri.length > 80 ? `${iri.slice(0, 77)}...` : iri}>: no reader would read it back as written (parse the graph with a baseIRI)`);
      }
    }
    if ((format === "ntriples" || format === "turtle") && quad.graph.termType !== "DefaultGraph") {
      writer.addQuad(quad.subject as never, quad.predicate as never, quad.object as never);
    } else {
      writer.addQuad(quad as never);
    }
  }
  let result = "";
  // Without an output stream N3.js's Writer calls back synchronously with the whole text.
  writer.end((error: Error | null, text: string) => {
    if (error) throw error;
    result = text;
  });
  return result;
}

/**
 * How many distinct named graphs the graph's quads use (0 for a plain graph). Turtle and
 * N-Triples cannot hold them: write such a dataset as N-Quads or TriG.
 */
export function namedGraphCount(graph: Graph): number {
  checkArgs("namedGraphCount", arguments, "graph:graph");
  let count = 0;
  for (const g of graph.store.getGraphs(null, null, null) as unknown as RDF.Term[]) if (g.termType !== "DefaultGraph") count++;
  return count;
}
