/**
 * RDF graphs for every part of groundwire: RDF/JS terms (from `n3`), parsed with
 * N3.js's Turtle / N-Triples / N-Quads parser and held in an `N3.Store`, with the
 * prefixes the source declared. Parsing is N3.js's business, never ours.
 */
import type { Store } from "n3";
import { n3DataFactory, n3Parser } from "../deps/n3.js";
import { GraphStore } from "./graph-store.js";
import type * as RDF from "@rdfjs/types";
import { GroundwireError, ArgumentError } from "../errors.js";
import { checkBound, WorkLimitError, workLimitError } from "../work-limits.js";
import { checkArgs } from "../arg-kinds.js";
import { head, quoteValue } from "../quote-value.js";

/** Serializations `parseGraph` reads. */
export type RdfFormat = "turtle" | "ntriples" | "nquads" | "trig";

const MEDIA_TYPE: Record<RdfFormat, string> = {
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  nquads: "application/n-quads",
  trig: "application/trig",
};

/**
 * A parsed graph: its triples (in an N3.Store; a {@link GraphStore} when groundwire made it),
 * the prefixes it declared, and where it came from.
 */
export interface Graph {
  store: Store;
  prefixes: Record<string, string>;
  /** File path or URL the text came from, when known (used in error messages). */
  source?: string;
}

/** A graph failed to parse: names the source, the 1-based line and column, and the parser's message. */
export class RdfParseError extends GroundwireError {
  constructor(
    readonly source: string,
    readonly line: number | null,
    readonly column: number | null,
    readonly detail: string,
  ) {
    super(`${source}${line != null ? `:${line}${column != null ? `:${column}` : ""}` : ""}: ${detail}`, { code: "bad_request", status: 400 });
    this.name = "RdfParseError";
  }
}

/**
 * Guess the format from a file name: `.ttl` turtle, `.nt` ntriples, `.nq` nquads, `.trig` trig.
 * Throws a TypeError naming the extension when it is none of those.
 */
export function formatFromPath(path: string): RdfFormat {
  checkArgs("formatFromPath", arguments, "path:string");
  const lower = path.toLowerCase();
  if (lower.endsWith(".ttl") || lower.endsWith(".turtle")) return "turtle";
  if (lower.endsWith(".nt")) return "ntriples";
  if (lower.endsWith(".nq")) return "nquads";
  if (lower.endsWith(".trig")) return "trig";
  // the extension of the file's name, not a dot in a folder's (`/tmp/a.b/data` has none)
  const name = lower.slice(Math.max(lower.lastIndexOf("/"), lower.lastIndexOf("\\")) + 1);
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".")) : "(none)";
  throw new GroundwireError(`unknown RDF format for ${path}: extension ${ext} (expected .ttl, .nt, .nq or .trig)`);
}

/** Options of {@link parseGraph} and {@link parseQuads}. */
export interface ParseOptions {
  format?: RdfFormat;
  source?: string;
  baseIRI?: string;
  /** Most triples the text may hold (default: no bound). */
  maxTriples?: number;
}

/** Parsed RDF text before it is put in a store: what {@link parseQuads} returns. */
export interface ParsedQuads {
  /** The quads in document order, as the parser made them (duplicates kept). */
  quads: RDF.Quad[];
  /** The prefixes the text declared, prefix → IRI. */
  prefixes: Record<string, string>;
  /** The `source` option, when given. */
  source?: string;
}

/**
 * Parse RDF text into a Graph. Strict per format (a Turtle file with N3-only syntax fails).
 *
 * Blank nodes are labelled deterministically, so the same text always yields the same
 * graph — and therefore the same triple-index fingerprint — in any process, in any order
 * of parses: labelled ones keep the document's label (`_:x` stays `_:x`), anonymous ones
 * (`[]`, `[ … ]`, collections) are numbered `b1, b2, …` in document order, skipping any
 * label the document itself uses. (N3.js alone would prefix labels with a per-process
 * counter, `b0_x`, `b1_x`…, and number anonymous nodes from a global counter.)
 *
 * @param text the document, as a JS string
 * @param options.format "turtle" (default), "ntriples", "nquads" or "trig"
 * @param options.source name used in errors (default "<input>")
 * @param options.baseIRI base for relative IRIs
 * @param options.maxTriples most triples (quads) the text may hold, counted as the parser makes
 *   them (an RDF list item is two: rdf:first and rdf:rest); the parse stops at the next one
 *   (default: no bound)
 * @throws RdfParseError with source, line and column (1-based) of the first error;
 *   WorkLimitError (code `limit`) past maxTriples
 */
export function parseGraph(
  text: string,
  options: ParseOptions = {},
): Graph {
  checkArgs("parseGraph", arguments, "text:string options?:object");
  const { quads, prefixes } = parseQuads(text, options);
  const store = new GraphStore();
  store.addQuads(quads as never);
  return { store, prefixes, source: options.source };
}

/**
 * Parse RDF text into an array of quads and its prefixes, without building an `N3.Store`:
 * exactly what {@link parseGraph} puts in its store (same terms, same blank-node labels,
 * same errors), for code that only reads the quads once — `fingerprintQuads` takes them.
 * A page that uses this and not `parseGraph` does not carry N3.js's `Store`, which brings
 * the readable-stream, `buffer` and `events` polyfills (≈ 35 KB gzip) into a browser bundle.
 *
 * @param text the document, as a JS string
 * @param options as for {@link parseGraph}
 * @returns the quads in document order (a triple repeated in the text appears twice; a store dedupes)
 * @throws RdfParseError with source, line and column (1-based) of the first error
 */
export function parseQuads(
  text: string,
  options: ParseOptions = {},
): ParsedQuads {
  checkArgs("parseQuads", arguments, "text:string options?:object");
  const format = options.format ?? "turtle";
  const source = options.source ?? "<input>";
  const maxTriples = checkBound(options.maxTriples, "parseGraph", "maxTriples");
  if (!(format in MEDIA_TYPE)) throw new GroundwireError(`unknown RDF format ${JSON.stringify(format)} (expected turtle, ntriples, nquads or trig)`, { code: "bad_request", status: 400 });
  // Anonymous blank nodes get `${anon}${n}`; if the document uses such a label itself,
  // parse again with a longer stem (rare, and deterministic).
  const DataFactory = n3DataFactory();
  const Parser = n3Parser();
  for (let anon = "b"; ; anon = `${anon}_`) {
    let collided = false;
    let counter = 0;
    let made = 0;
    const factory = {
      ...DataFactory,
      // every quad the parser makes passes here, as it is read: the bound stops the parse there,
      // not after a 2 MB list has become 2 million quads
      quad(...args: unknown[]) {
        if (++made > maxTriples) throw workLimitError("maxTriples", maxTriples, `${source}: the graph`, "triples");
        return (DataFactory.quad as (...a: unknown[]) => RDF.Quad)(...args);
      },
      blankNode(name?: string) {
        if (name === undefined) return DataFactory.blankNode(`${anon}${++counter}`);
        if (!collided && name.startsWith(anon)) {
          collided = /^\d+$/.test(name.slice(anon.length));
        }
        return DataFactory.blankNode(name);
      },
    };
    const parser = new Parser({
      format: MEDIA_TYPE[format],
      baseIRI: options.baseIRI,
      blankNodePrefix: "_:",
      factory: factory as unknown as typeof DataFactory,
    } as ConstructorParameters<typeof Parser>[0]);
    let quads: RDF.Quad[];
    const prefixes: Record<string, string> = {};
    try {
      quads = parser.parse(text, null, (prefix: string, iri: RDF.NamedNode) => {
        prefixes[prefix] = iri.value;
      }) as unknown as RDF.Quad[];
    } catch (error) {
      if (error instanceof WorkLimitError) throw error;
      const err = error as Error & { context?: { line?: number; token?: { start?: number }; previousToken?: { end?: number } } };
      const line = err.context?.line ?? null;
      const detail = err.message.replace(/ on line \d+\.?$/, "");
      // N3.js's lexer error quotes the rest of the line raw (`Unexpected ""open .`): quote it as a JSON string
      const unexpected = /^Unexpected "([\s\S]+)"$/.exec(detail)?.[1];
      // Quote at most 80 characters of it (a 50 MB one-line file must not become a 50 MB message).
      const shown = unexpected !== undefined ? `unexpected text ${quoteValue(unexpected)}` : cut(detail, 400);
      throw new RdfParseError(source, line, errorColumn(text, line, err.context, detail), shown);
    }
    if (collided && counter > 0) continue;
    return options.source === undefined ? { quads, prefixes } : { quads, prefixes, source: options.source };
  }
}

/** `text` cut to `limit` UTF-16 units with an ellipsis and the full length (never splitting a surrogate pair). */
function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${head(text, limit)}… (${text.length} characters)`;
}


/**
 * 1-based column of a parse error. N3.js gives the offending token's start for grammar
 * errors; for lexer errors (`Unexpected "…"`) it gives only the previous token, so the
 * unexpected text is looked up on the line after it.
 */
function errorColumn(
  text: string,
  line: number | null,
  context: { token?: { start?: number }; previousToken?: { end?: number; line?: number } } | undefined,
  detail: string,
): number | null {
  if (context?.token?.start != null) return context.token.start + 1;
  if (line === null) return null;
  // The previous token's end is a column on its own line, which need not be the error's line.
  const previous = context?.previousToken;
  const sameLine = previous?.end != null && previous.line === line;
  const after = sameLine ? previous!.end! : 0;
  const lineText = text.split("\n", line)[line - 1] ?? "";
  const unexpected = /^Unexpected "([\s\S]+)"$/.exec(detail)?.[1];
  if (unexpected !== undefined) {
    const at = lineText.indexOf(unexpected.slice(0, 16), after);
    if (at >= 0) return at + 1;
  }
  if (sameLine) return after + 1;
  const firstText = lineText.search(/\S/);
  return firstText >= 0 ? firstText + 1 : null;
}

/**
 * A Graph from quads already in hand (copied into a new GraphStore).
 * @param quads RDF/JS quads (any factory)
 * @param prefixes name → namespace, used when rendering and serializing
 * @param source where they came from, for messages
 */
export function createGraph(
  quads: Iterable<RDF.Quad> = [],
  prefixes: Record<string, string> = {},
  source?: string,
): Graph {
  checkArgs("createGraph", arguments, "quads?:iterable prefixes?:prefixes source?:string");
  const store = new GraphStore();
  for (const quad of quads) store.addQuad(quad as never);
  return { store, prefixes: { ...prefixes }, source };
}

/** A copy of `graph` with its own store (quads shared as immutable terms) and prefixes. */
export function cloneGraph(graph: Graph): Graph {
  checkArgs("cloneGraph", arguments, "graph:graph");
  return createGraph(graph.store.getQuads(null, null, null, null) as unknown as RDF.Quad[], graph.prefixes, graph.source);
}
