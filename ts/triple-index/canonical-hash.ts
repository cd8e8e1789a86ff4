/**
 * The catalog identity of a graph: a hash over its RDFC-1.0 canonical N-Quads (W3C RDF
 * Dataset Canonicalization, formerly URDNA2015), computed by Digital Bazaar's
 * `rdf-canonize`. It survives reloads, reordering and blank-node relabelling.
 *
 * It is NOT the drift check of the triple index — that is {@link fingerprintGraph}: the
 * question there is "is this still the listing I numbered?", answered in linear time by
 * hashing the very lines the critic read. Canonicalization answers a different question
 * (isomorphism), costs far more, and on "poison" graphs (many indistinguishable blank
 * nodes) its N-degree hashing grows combinatorially — which is why its work AND its time are
 * bounded here, and a graph over either bound fails with {@link CanonicalizationLimitError}.
 */
import type * as RDF from "@rdfjs/types";
import { sha256Hex } from "../../bindings/sha256.js";
import type { Graph } from "../rdf/index.js";
import { ArgumentError, GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

/** A message digest as rdf-canonize calls it (update strings, then a hex digest). */
interface MessageDigest {
  update(text: string): void;
  /** rdf-canonize awaits every digest: a promise here hands the event loop a turn. */
  digest(): string | Promise<string>;
}
interface CanonizeApi {
  canonize(
    dataset: unknown[],
    options: {
      algorithm: "RDFC-1.0";
      maxWorkFactor?: number;
      signal?: AbortSignal;
      createMessageDigest?: () => MessageDigest;
      canonicalIdMap?: Map<string, string>;
    },
  ): Promise<string>;
}
// rdf-canonize is CommonJS without types; its API is small and typed here. Loaded at the
// first call (the functions are async anyway), so importing the package does not load it.
let canonizerLoad: Promise<CanonizeApi> | null = null;
function loadCanonizer(): Promise<CanonizeApi> {
  return (canonizerLoad ??= import("rdf-canonize").then((m) => ((m as { default?: unknown }).default ?? m) as CanonizeApi));
}

/** Which bound stopped a canonicalization. */
export type CanonicalizationLimit = "work" | "time" | "aborted";

/** Canonicalization gave up: the graph needs more work or time than the bounds allow (or was aborted). */
export class CanonicalizationLimitError extends GroundwireError {
  constructor(
    readonly maxWorkFactor: number,
    readonly detail: string,
    /** `work`: maxWorkFactor; `time`: timeBudgetMs ran out; `aborted`: the caller's signal. */
    readonly limit: CanonicalizationLimit = "work",
    /** The time budget in milliseconds (the bound named when `limit` is `time`). */
    readonly timeBudgetMs?: number,
  ) {
    const bound = limit === "time" ? `its time budget (timeBudgetMs ${timeBudgetMs})` : limit === "aborted" ? "its caller's abort signal" : `its work bound (maxWorkFactor ${maxWorkFactor})`;
    super(`RDFC-1.0 canonicalization stopped at ${bound}: ${detail}`, { code: "limit", status: 422 });
    this.name = "CanonicalizationLimitError";
  }
}

/** The graph holds something RDFC-1.0 does not define: an RDF 1.2 triple term. */
export class CanonicalizationInputError extends GroundwireError {
  constructor(readonly detail: string) {
    super(`RDFC-1.0 cannot canonicalize this graph: ${detail}`, { code: "bad_request", status: 400 });
    this.name = "CanonicalizationInputError";
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
 * Default time budget, milliseconds: 10 s. The work bound alone is not a time bound — a ring
 * of 10,000 indistinguishable blank nodes is allowed 10^8 deep iterations at factor 2, and
 * ran past 240 s (2 GB) with the event loop blocked. The budget counts from the call (reading
 * the store's quads and loading rdf-canonize are inside it), is checked every 500 quads copied
 * and at every hash the algorithm starts or finishes (rdf-canonize itself checks its signal
 * only between permutations), and every YIELD_EVERY_MS of work a digest hands the event loop a
 * turn, so timers and sockets keep running while a graph is canonicalized. Measured with
 * bench/canonical-budget.ts (npm run bench:canonical): a refusal comes within about 0.1 s past the budget.
 */
export const DEFAULT_CANONICAL_TIME_BUDGET_MS = 10_000;

/** RDFC-1.0's hash algorithm parameter: SHA-256 (the default) or SHA-384 (test075c). */
export type CanonicalHashAlgorithm = "SHA-256" | "SHA-384";

/** Options of {@link canonicalize}, {@link canonicalNQuads} and {@link canonicalHash}. */
export interface CanonicalizeOptions {
  /** Bound on N-degree hashing: 0 none allowed, 1 O(n), 2 (default) O(n²), … in the number of non-unique blank nodes; `Infinity` unbounded. */
  maxWorkFactor?: number;
  /** Wall-clock budget in milliseconds (default DEFAULT_CANONICAL_TIME_BUDGET_MS, 10 s; `Infinity` none). */
  timeBudgetMs?: number;
  /** Abort on the caller's terms (checked with the budget). */
  signal?: AbortSignal;
  /** RDFC-1.0's hash algorithm (default "SHA-256"); canonicalHash hashes the N-Quads with it too. */
  hashAlgorithm?: CanonicalHashAlgorithm;
}

/** A canonicalization's result. */
export interface Canonicalization {
  /** The canonical N-Quads (sorted lines, blank nodes `_:c14nN`). */
  nquads: string;
  /** RDFC-1.0's issued identifiers map: the graph's blank node label → its canonical label (`c14nN`, no `_:`). */
  issuedIdentifiers: Map<string, string>;
  hashAlgorithm: CanonicalHashAlgorithm;
}

/** Quads copied out of the store between two checks of the bounds. */
const COPY_CHECK_EVERY = 500;
type PlainQuad = Record<"subject" | "predicate" | "object" | "graph", Record<string, unknown>>;

/** Work between two turns handed to the event loop, milliseconds. */
const YIELD_EVERY_MS = 20;
/** A macrotask turn: setImmediate in Node, a zero timeout where it is missing (browsers). */
const nextTurn = (): Promise<void> =>
  new Promise((resolve) => ((globalThis as { setImmediate?: (f: () => void) => void }).setImmediate ?? ((f: () => void) => setTimeout(f, 0)))(resolve));

const HASH_ALGORITHMS: readonly CanonicalHashAlgorithm[] = ["SHA-256", "SHA-384"];

/** Thrown inside rdf-canonize by the digests when a bound is hit; mapped to CanonicalizationLimitError. */
class Stop extends Error {
  constructor(readonly limit: "time" | "aborted") {
    super(limit);
  }
}

// SHA-384 (@noble/hashes, ts/deps/sha384), loaded at the first SHA-384 canonicalization: a dynamic import, so
// pages never carry it (not hash-wasm's: that would sit in the SHA-256 chunk every page loads).
let sha384Hex: ((text: string) => string) | null = null;

/** Hex digest of `text` (UTF-8) with `algorithm`, synchronously (SHA-384 loaded first by canonicalize). */
function digestHex(algorithm: CanonicalHashAlgorithm, text: string): string {
  if (algorithm === "SHA-256") return sha256Hex(text);
  return sha384Hex!(text);
}

function checkOptions(graph: unknown, options: unknown): Required<Omit<CanonicalizeOptions, "signal">> & { signal?: AbortSignal } {
  if (graph === null || typeof graph !== "object" || typeof (graph as Graph).store?.getQuads !== "function") {
    throw new GroundwireError("canonicalize: graph must be a Graph (from parseGraph, createGraph or loadGraphFile)");
  }
  if (options === null || typeof options !== "object") throw new ArgumentError("canonicalize", "options", "an object", options);
  // read each option once (a getter or a Proxy that throws is refused naming the option, never passed through raw)
  const read = (name: keyof CanonicalizeOptions): unknown => {
    try {
      return (options as CanonicalizeOptions)[name];
    } catch (e) {
      throw new ArgumentError("canonicalize", `options.${name}`, "readable", undefined, `a getter that throws (${e instanceof Error ? e.name : typeof e})`);
    }
  };
  const maxWorkFactor = (read("maxWorkFactor") ?? DEFAULT_MAX_WORK_FACTOR) as number;
  if (typeof maxWorkFactor !== "number" || !(maxWorkFactor >= 0)) throw new ArgumentError("canonicalize", "maxWorkFactor", "a number ≥ 0 (or Infinity)", maxWorkFactor);
  const timeBudgetMs = (read("timeBudgetMs") ?? DEFAULT_CANONICAL_TIME_BUDGET_MS) as number;
  if (typeof timeBudgetMs !== "number" || !(timeBudgetMs > 0)) throw new ArgumentError("canonicalize", "timeBudgetMs", "a number > 0 (or Infinity)", timeBudgetMs);
  const hashAlgorithm = (read("hashAlgorithm") ?? "SHA-256") as CanonicalHashAlgorithm;
  if (!HASH_ALGORITHMS.includes(hashAlgorithm)) throw new ArgumentError("canonicalize", "hashAlgorithm", `one of ${HASH_ALGORITHMS.join(", ")}`, hashAlgorithm);
  const signal = read("signal");
  if (signal !== undefined && (signal === null || typeof signal !== "object" || typeof (signal as AbortSignal).aborted !== "boolean")) throw new ArgumentError("canonicalize", "signal", "an AbortSignal", signal);
  return { maxWorkFactor, timeBudgetMs, hashAlgorithm, signal: signal as AbortSignal | undefined };
}

/**
 * Canonicalize a graph with RDFC-1.0: its canonical N-Quads and the issued identifiers map.
 *
 * @param graph the graph (all its quads; prefixes play no part)
 * @param options see {@link CanonicalizeOptions}
 * @returns `{nquads, issuedIdentifiers, hashAlgorithm}`; identical N-Quads for isomorphic graphs
 * @throws CanonicalizationLimitError when the work bound or the time budget is exceeded or the signal aborts
 * @throws CanonicalizationInputError when the graph holds an RDF 1.2 triple term (RDFC-1.0 defines none)
 */
export async function canonicalize(graph: Graph, options: CanonicalizeOptions = {}): Promise<Canonicalization> {
  checkArgs("canonicalize", arguments, "graph:graph options?:object");
  // The budget counts from the call: copying a large graph out of the store and loading
  // rdf-canonize are part of the time a caller waits for, so they are inside it.
  const started = performance.now();
  const { maxWorkFactor, timeBudgetMs, hashAlgorithm, signal } = checkOptions(graph, options);
  const deadline = started + timeBudgetMs;
  let turnAt = started + YIELD_EVERY_MS;
  const check = (): void => {
    if (signal?.aborted) throw new Stop("aborted");
    if (performance.now() > deadline) throw new Stop("time");
  };
  /** Check the bounds, and hand the event loop a turn when YIELD_EVERY_MS of work has passed since the last. */
  const pause = async (): Promise<void> => {
    check();
    if (performance.now() < turnAt) return;
    await nextTurn();
    turnAt = performance.now() + YIELD_EVERY_MS;
    check();
  };
  // Every hash the algorithm computes passes here: the bounds are checked between them.
  const createMessageDigest = (): MessageDigest => {
    check();
    let text = "";
    return {
      update(piece: string) {
        text += piece;
      },
      digest() {
        check();
        const hex = digestHex(hashAlgorithm, text);
        if (performance.now() < turnAt) return hex;
        return pause().then(() => hex);
      },
    };
  };
  const issuedIdentifiers = new Map<string, string>();
  try {
    // A snapshot of the store's quads (one synchronous read: the store may change while this
    // runs), then the plain RDF/JS-shaped copies rdf-canonize reads, the bounds checked as the copy goes.
    const quads = graph.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
    await pause();
    const dataset: PlainQuad[] = [];
    for (const q of quads) {
      dataset.push({ subject: plain(q.subject), predicate: plain(q.predicate), object: plain(q.object), graph: plain(q.graph) });
      if (dataset.length % COPY_CHECK_EVERY === 0) await pause();
    }
    if (hashAlgorithm === "SHA-384") sha384Hex ??= (await import("../deps/sha384.js")).sha384Hex;
    await pause();
    const canonizer = await loadCanonizer();
    check();
    const nquads = await canonizer.canonize(dataset, { algorithm: "RDFC-1.0", maxWorkFactor, signal, createMessageDigest, canonicalIdMap: issuedIdentifiers });
    return { nquads, issuedIdentifiers, hashAlgorithm };
  } catch (error) {
    if (error instanceof Stop) {
      const detail = error.limit === "time" ? `no canonical form within ${timeBudgetMs} ms` : `aborted (${String(signal?.reason)})`;
      throw new CanonicalizationLimitError(maxWorkFactor, detail, error.limit, timeBudgetMs);
    }
    const message = (error as Error).message ?? String(error);
    if (/Maximum deep iterations exceeded/.test(message)) throw new CanonicalizationLimitError(maxWorkFactor, message, "work", timeBudgetMs);
    if (/Abort signal received/.test(message)) throw new CanonicalizationLimitError(maxWorkFactor, message, "aborted", timeBudgetMs);
    throw error;
  }
}

/**
 * The hash (hex, of `hashAlgorithm`: 64 characters for SHA-256, 96 for SHA-384) of the
 * graph's RDFC-1.0 canonical N-Quads. Same options and errors as {@link canonicalize}.
 *
 * @returns lowercase hex; identical for isomorphic graphs
 */
export async function canonicalHash(graph: Graph, options: CanonicalizeOptions = {}): Promise<string> {
  checkArgs("canonicalHash", arguments, "graph:graph options?:object");
  const { nquads, hashAlgorithm } = await canonicalize(graph, options);
  return digestHex(hashAlgorithm, nquads);
}

/**
 * The graph's RDFC-1.0 canonical N-Quads text (sorted lines, blank nodes `_:c14nN`).
 * Same options and errors as {@link canonicalize}.
 */
export async function canonicalNQuads(graph: Graph, options: CanonicalizeOptions = {}): Promise<string> {
  checkArgs("canonicalNQuads", arguments, "graph:graph options?:object");
  return (await canonicalize(graph, options)).nquads;
}

function plain(term: RDF.Term): Record<string, unknown> {
  if (term.termType === "Literal") {
    return { termType: "Literal", value: term.value, language: term.language, datatype: { termType: "NamedNode", value: term.datatype.value } };
  }
  if (term.termType === "Quad") {
    throw new CanonicalizationInputError(
      `it holds an RDF 1.2 triple term (${termText(term)}); RDFC-1.0 canonicalizes RDF 1.1 datasets only (use fingerprintGraph, which lists triple terms, to identify it)`,
    );
  }
  return { termType: term.termType, value: term.value };
}

function termText(term: RDF.Term): string {
  const text = term.termType === "Quad" ? `<<( ${termText(term.subject)} ${termText(term.predicate)} ${termText(term.object)} )>>` : term.termType === "NamedNode" ? `<${term.value}>` : term.termType === "BlankNode" ? `_:${term.value}` : JSON.stringify(term.value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
