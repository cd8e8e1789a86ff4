/**
 * The catalog identity of a graph: SHA-256 over its RDFC-1.0 canonical N-Quads (W3C RDF
 * Dataset Canonicalization, formerly URDNA2015), computed by Digital Bazaar's
 * `rdf-canonize`. It survives reloads, reordering and blank-node relabelling.
 *
 * It is NOT the drift check of the triple index — that is {@link fingerprintGraph}: the
 * question there is "is this still the listing I numbered?", answered in linear time by
 * hashing the very lines the critic read. Canonicalization answers a different question
 * (isomorphism), costs far more, and on "poison" graphs (many indistinguishable blank
 * nodes) its N-degree hashing grows combinatorially — which is why its work is bounded here
 * and a graph over the bound fails with {@link CanonicalizationLimitError}.
 */
import type * as RDF from "@rdfjs/types";
import { sha256Hex } from "../../bindings/sha256.js";
import type { Graph } from "../rdf/index.js";
import { GroundwireError } from "../errors.js";

interface CanonizeApi {
  canonize(
    dataset: unknown[],
    options: { algorithm: "RDFC-1.0"; maxWorkFactor?: number; maxDeepIterations?: number; signal?: AbortSignal },
  ): Promise<string>;
}
// rdf-canonize is CommonJS without types; its API is small and typed here. Loaded at the
// first call (the functions are async anyway), so importing the package does not load it.
let canonizerLoad: Promise<CanonizeApi> | null = null;
function loadCanonizer(): Promise<CanonizeApi> {
  return (canonizerLoad ??= import("rdf-canonize").then((m) => ((m as { default?: unknown }).default ?? m) as CanonizeApi));
}

/** Canonicalization gave up: the graph needs more work than the bound allows (or was aborted). */
export class CanonicalizationLimitError extends GroundwireError {
  constructor(
    readonly maxWorkFactor: number,
    readonly detail: string,
  ) {
    super(`RDFC-1.0 canonicalization exceeded its work bound (maxWorkFactor ${maxWorkFactor}): ${detail}`, { code: "limit", status: 422 });
    this.name = "CanonicalizationLimitError";
  }
}

/**
 * Default bound: O(n²) deep iterations for n non-unique blank nodes (rdf-canonize counts them
 * and stops past n^maxWorkFactor). 2 accepts every graph in the shared RDF data and the common
 * shapes that 1 refused (a list of equal literals `( 1 1 1 1 )`, 2- and 3-cycles of blank
 * nodes, in about a millisecond) and still refuses the poison graphs: a 20-node blank-node
 * clique stops after 400 deep iterations (under a second on this machine).
 */
export const DEFAULT_MAX_WORK_FACTOR = 2;

/**
 * SHA-256 (hex) of the graph's RDFC-1.0 canonical N-Quads.
 *
 * @param graph the graph (all its quads; prefixes play no part)
 * @param options.maxWorkFactor bound on N-degree hashing: 0 none allowed, 1 O(n), 2 (default)
 *   O(n²), … in the number of non-unique blank nodes; `Infinity` unbounded (don't, on
 *   untrusted input)
 * @param options.signal abort after a deadline (`AbortSignal.timeout(ms)`), checked
 *   periodically by rdf-canonize
 * @returns 64 lowercase hex characters; identical for isomorphic graphs
 * @throws CanonicalizationLimitError when the bound is exceeded or the signal aborts
 */
export async function canonicalHash(
  graph: Graph,
  options: { maxWorkFactor?: number; signal?: AbortSignal } = {},
): Promise<string> {
  return sha256Hex(await canonicalNQuads(graph, options));
}

/**
 * The graph's RDFC-1.0 canonical N-Quads text (sorted lines, blank nodes `_:c14nN`).
 * Same options and errors as {@link canonicalHash}.
 */
export async function canonicalNQuads(
  graph: Graph,
  options: { maxWorkFactor?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const maxWorkFactor = options.maxWorkFactor ?? DEFAULT_MAX_WORK_FACTOR;
  const quads = graph.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
  // rdf-canonize reads plain RDF/JS-shaped objects; copy out the fields it uses.
  const dataset = quads.map((q) => ({
    subject: plain(q.subject),
    predicate: plain(q.predicate),
    object: plain(q.object),
    graph: plain(q.graph),
  }));
  try {
    const canonizer = await loadCanonizer();
    return await canonizer.canonize(dataset, { algorithm: "RDFC-1.0", maxWorkFactor, signal: options.signal });
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/Maximum deep iterations exceeded|Abort signal received/.test(message)) {
      throw new CanonicalizationLimitError(maxWorkFactor, message);
    }
    throw error;
  }
}

function plain(term: RDF.Term): Record<string, unknown> {
  if (term.termType === "Literal") {
    return { termType: "Literal", value: term.value, language: term.language, datatype: { termType: "NamedNode", value: term.datatype.value } };
  }
  return { termType: term.termType, value: term.value };
}
