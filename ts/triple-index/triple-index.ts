/**
 * Stable integer ids for the triples a critic is shown (DESIGN §1).
 *
 * A critic asked to re-quote the triples it wants changed gets them wrong most of the
 * time; a critic that cites ids cannot. Ids are 1..N in listing order; the index keeps the
 * fingerprint of the graph state they were assigned against, and every resolution of ids
 * against a graph first checks that the graph still has that fingerprint — the loop edits
 * the graph between passes, and an id carried forward must never resolve against a later
 * numbering.
 */
import type * as RDF from "@rdfjs/types";
import { sha256Hex } from "../../bindings/sha256.js";
import { formatTerm, toPrefixMap, PrefixMap, type Graph } from "../rdf/index.js";
import { sortQuads, sortTriples, SortedTriples } from "./ordering.js";
import { checkArgs } from "../arg-kinds.js";
import { ArgumentError } from "../errors.js";

/** One line of the listing: a triple and its id, or null when it is read-only (outside the scope). */
export interface IndexedTriple {
  readonly triple: RDF.Quad;
  readonly tripleId: number | null;
  /** The rendered triple, `s\tp\to` (the fingerprint line without its newline). */
  readonly line: string;
}

/** An IndexedTriple whose line is built from the sorted terms when read (no string per line up front). */
class ListedTriple implements IndexedTriple {
  constructor(
    readonly tripleId: number | null,
    private readonly sorted: SortedTriples,
    private readonly k: number,
  ) {}

  /** The quad, made on first read and then always the same object. */
  get triple(): RDF.Quad {
    return this.sorted.quad(this.k);
  }

  get line(): string {
    return this.sorted.line(this.k);
  }
}

/** A subject block whose subject term is read from its first triple. */
class Block implements SubjectBlock {
  constructor(readonly triples: readonly ListedTriple[]) {}
  get subject(): RDF.Term {
    return this.triples[0].triple.subject;
  }
}

/**
 * id → triple over the sorted triples: id i is listing position i - 1, or `positions[i - 1]`
 * when a scope left some lines without id (ids are 1..N without gaps, so arrays are the map).
 * Quads are made when first read; the same object is returned every time.
 */
class TriplesById implements ReadonlyMap<number, RDF.Quad> {
  constructor(
    private readonly sorted: SortedTriples,
    /** Listing position per id - 1, or null when every line has an id (position = id - 1). */
    private readonly positions: Int32Array | null,
  ) {}
  get size(): number {
    return this.positions === null ? this.sorted.count : this.positions.length;
  }
  private quadOf(id: number): RDF.Quad {
    return this.sorted.quad(this.positions === null ? id - 1 : this.positions[id - 1]);
  }
  get(id: number): RDF.Quad | undefined {
    return this.has(id) ? this.quadOf(id) : undefined;
  }
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 1 && id <= this.size;
  }
  *keys(): MapIterator<number> {
    for (let id = 1; id <= this.size; id++) yield id;
  }
  *values(): MapIterator<RDF.Quad> {
    for (let id = 1; id <= this.size; id++) yield this.quadOf(id);
  }
  *entries_(): Generator<[number, RDF.Quad]> {
    for (let id = 1; id <= this.size; id++) yield [id, this.quadOf(id)];
  }
  entries(): MapIterator<[number, RDF.Quad]> {
    return this.entries_() as MapIterator<[number, RDF.Quad]>;
  }
  forEach(callback: (value: RDF.Quad, key: number, map: ReadonlyMap<number, RDF.Quad>) => void): void {
    for (let id = 1; id <= this.size; id++) callback(this.quadOf(id), id, this);
  }
  [Symbol.iterator](): MapIterator<[number, RDF.Quad]> {
    return this.entries();
  }
}

/** One subject's block in the listing. */
export interface SubjectBlock {
  readonly subject: RDF.Term;
  readonly triples: readonly IndexedTriple[];
}

/**
 * Triple → id, looked up by the triple's rendering, so any RDF/JS triple equal to an indexed
 * one (from any factory) finds its id. Iterates as [line, id]. The underlying map is built
 * on first use (O(n) once).
 */
export class TripleIds implements Iterable<[string, number]> {
  private byLine: Map<string, number> | null = null;

  /**
   * @param sorted the listing's triples (the map is built from them on first use)
   * @param idOf the id per listing position (0: read-only), or null when position k has id k + 1
   */
  constructor(
    private readonly sorted: SortedTriples,
    private readonly idOf: Int32Array | null,
    private readonly prefixes: PrefixMap,
  ) {
    checkArgs("TripleIds", arguments, "sorted:object idOf:object|null prefixes:object");}

  // Built on first use: the loop resolves ids (byId) far more often than it looks triples up,
  // and a map keyed by every line costs as much as the rest of the index.
  private map(): Map<string, number> {
    if (this.byLine === null) {
      const map = new Map<string, number>();
      const { sorted, idOf } = this;
      for (let k = 0; k < sorted.count; k++) {
        const id = idOf === null ? k + 1 : idOf[k];
        if (id !== 0) map.set(sorted.line(k), id);
      }
      this.byLine = map;
    }
    return this.byLine;
  }

  /** The id of `triple` (an RDF/JS quad, graph ignored, or its `s\tp\to` line), or undefined. */
  get(triple: RDF.Quad | string): number | undefined {
    return this.map().get(typeof triple === "string" ? triple : renderLine(triple, this.prefixes));
  }

  /** Whether `triple` has an id. */
  has(triple: RDF.Quad | string): boolean {
    return this.get(triple) !== undefined;
  }

  /** Number of triples with an id. */
  get size(): number {
    return this.map().size;
  }

  [Symbol.iterator](): Iterator<[string, number]> {
    return this.map().entries();
  }
}

/**
 * The prefixes a listing binds by default, as the seed's rdflib does: `rdf:`, `rdfs:`, `xsd:`,
 * `owl:`. A graph's own binding wins: a default is dropped when the graph binds its name (to
 * any namespace) or its namespace (under any name).
 */
export const DEFAULT_LISTING_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  owl: "http://www.w3.org/2002/07/owl#",
});

/**
 * The prefixes a listing shows, as a record: DEFAULT_LISTING_PREFIXES under the graph's own
 * `prefixes` (see there). Also the prefixes a critic may write in a correctValue.
 */
export function listingPrefixRecord(given: PrefixMap | Readonly<Record<string, string>>): Record<string, string> {
  checkArgs("listingPrefixRecord", arguments, "prefixes:prefixes");
  const prefixes = given instanceof PrefixMap ? given.prefixes : given;
  const namespaces = new Set(Object.values(prefixes));
  const merged: Record<string, string> = {};
  for (const [name, ns] of Object.entries(DEFAULT_LISTING_PREFIXES)) if (!(name in prefixes) && !namespaces.has(ns)) merged[name] = ns;
  return Object.assign(merged, prefixes);
}

/**
 * The PrefixMap a listing and its fingerprint render with (listingPrefixRecord). Built from
 * the record's content on every call, so an edited record is never served from a stale cache.
 */
export function listingPrefixes(prefixes: PrefixMap | Readonly<Record<string, string>>): PrefixMap {
  checkArgs("listingPrefixes", arguments, "prefixes:prefixes");
  const merged = listingPrefixRecord(prefixes);
  const own = prefixes instanceof PrefixMap ? prefixes.prefixes : prefixes;
  // Nothing added: the graph's own map (a PrefixMap given stays the one used).
  return Object.keys(merged).length === Object.keys(own).length ? toPrefixMap(prefixes) : new PrefixMap(merged);
}

/** `s\tp\to` for one triple, as the listing and the fingerprint render it. */
export function renderLine(triple: RDF.Quad, prefixes: PrefixMap | Readonly<Record<string, string>>): string {
  checkArgs("renderLine", arguments, "triple:quad prefixes:prefixes");
  const map = toPrefixMap(prefixes);
  return `${formatTerm(triple.subject, map)}\t${formatTerm(triple.predicate, map)}\t${formatTerm(triple.object, map)}`;
}

const encoder = new TextEncoder();

/**
 * SHA-256 (lowercase hex) over `lines`, each followed by "\n", as UTF-8. The lines are joined
 * and encoded into one buffer (one copy) and hashed in one call on the active backend
 * (`sha256Backend()`: node:crypto in Node, hash-wasm in browsers).
 */
export function fingerprintLines(lines: readonly string[]): string {
  checkArgs("fingerprintLines", arguments, "lines:strings");
  return sha256Hex(encodeLines(lines));
}

/** The UTF-8 bytes a fingerprint hashes: every line followed by "\n", in one buffer. */
export function encodeLines(lines: readonly string[]): Uint8Array {
  checkArgs("encodeLines", arguments, "lines:strings");
  return lines.length === 0 ? new Uint8Array(0) : encoder.encode(`${lines.join("\n")}\n`);
}

/**
 * The drift check's digest: SHA-256 (hex) over the sorted rendered lines `s\tp\to\n`
 * (UTF-8) — exactly the strings the listing shows, in listing order (DESIGN §1).
 *
 * This is deliberately not {@link canonicalHash}: RDFC-1.0 canonicalization answers "is
 * this the same graph up to blank-node relabelling?", which is the right identity for a
 * catalog but far more work (and unbounded on poison graphs) than the question asked here:
 * "is this still the graph whose listing I numbered?". The fingerprint also changes when
 * the prefixes change, because the listing the critic read would change.
 *
 * @param graph a parsed Graph (its prefixes are used for rendering)
 * @returns 64 lowercase hex characters; for the empty graph, SHA-256 of zero bytes
 * @throws when no SHA-256 backend is initialised (import the package entry first)
 */
export function fingerprintGraph(graph: Graph): string {
  checkArgs("fingerprintGraph", arguments, "graph:graph");
  return sortTriples(graph.store, listingPrefixes(graph.prefixes), { fingerprint: true }).fingerprint();
}

/**
 * {@link fingerprintGraph} for quads not held in a store, e.g. `fingerprintQuads(parseQuads(text))`:
 * the same 64 hex characters as `fingerprintGraph(parseGraph(text))` for the same text —
 * identical quads count once, a triple in several graphs is listed once. It exists so that
 * a browser page that only fingerprints does not bundle N3.js's `Store` (and with it the
 * readable-stream, `buffer` and `events` polyfills); in Node both cost the same.
 *
 * @param parsed.quads any iterable of RDF/JS quads (terms from any factory)
 * @param parsed.prefixes prefix → IRI, or a PrefixMap, used for rendering as the listing does
 * @returns 64 lowercase hex characters; for no quads, SHA-256 of zero bytes
 * @throws when no SHA-256 backend is initialised (import the package entry first)
 */
export function fingerprintQuads(parsed: { quads: Iterable<RDF.Quad>; prefixes: PrefixMap | Readonly<Record<string, string>> }): string {
  checkArgs("fingerprintQuads", arguments, "parsed:quads");
  return sortQuads(parsed.quads, listingPrefixes(parsed.prefixes)).fingerprint();
}

/**
 * Ids 1..N over exactly the triples a listing shows, the reverse lookup, the listing order
 * and the fingerprint of the graph state they were assigned against. Built by
 * {@link buildTripleIndex}; valid for one graph state only.
 */
export class TripleIndex {
  /** id → triple, ids 1..scopeSize without gaps. */
  readonly byId: ReadonlyMap<number, RDF.Quad>;
  /** triple → id (by rendering; read-only triples are absent). */
  readonly ids: TripleIds;
  private orderCache: readonly SubjectBlock[] | null = null;
  private readonly makeOrder: () => readonly SubjectBlock[];
  /** SHA-256 hex of the listing's lines: the graph state these ids belong to. */
  readonly fingerprint: string;
  /**
   * Which numbering of that graph state these ids are: equal to {@link fingerprint} when every
   * listed triple has an id; with a scope that leaves lines read-only, SHA-256 hex of the
   * fingerprint, "\n", and the 0-based listing positions of the read-only lines, ascending,
   * comma-separated. Two indexes resolve every id to the same triple exactly when their
   * numberings are equal — a critique carried to another process must be checked against it
   * (the CLI does), since the same graph under another scope numbers other triples.
   */
  readonly numbering: string;
  /** Number of triples that received an id. */
  readonly scopeSize: number;
  /** Number of triples listed (with or without id). */
  readonly tripleCount: number;
  /** The prefixes the listing was rendered with. */
  readonly prefixes: PrefixMap;

  /** @internal use {@link buildTripleIndex}. */
  constructor(parts: {
    byId: ReadonlyMap<number, RDF.Quad>;
    ids: TripleIds;
    order: () => readonly SubjectBlock[];
    fingerprint: string;
    numbering: string;
    tripleCount: number;
    prefixes: PrefixMap;
  }) {
    checkArgs("TripleIndex", arguments, "parts:indexParts");
    this.byId = parts.byId;
    this.ids = parts.ids;
    this.makeOrder = parts.order;
    this.fingerprint = parts.fingerprint;
    this.numbering = parts.numbering;
    this.scopeSize = parts.byId.size;
    this.tripleCount = parts.tripleCount;
    this.prefixes = parts.prefixes;
  }

  /**
   * Subject blocks in listing order; the order is part of the contract, recorded here. Built
   * on first read (one entry object per line), then the same array every time.
   */
  get order(): readonly SubjectBlock[] {
    return (this.orderCache ??= this.makeOrder());
  }

  /** Number of triples with an id (as `len()` of the seed's index). */
  get size(): number {
    return this.byId.size;
  }

  /** True when no triple has an id (nothing can be cited). */
  get isEmpty(): boolean {
    return this.byId.size === 0;
  }

  /** The triple with id `tripleId`, or null when the id is unknown (read-only lines have none). */
  resolve(tripleId: number): RDF.Quad | null {
    return this.byId.get(tripleId) ?? null;
  }

  /**
   * Whether `graph` is still in the state these ids were assigned to: its fingerprint
   * (recomputed now, O(n) rendering plus sorting) equals {@link fingerprint}.
   */
  matches(graph: Graph): boolean {
    return fingerprintGraph(graph) === this.fingerprint;
  }
}

/**
 * Assign ids to `graph`'s triples, grouped and ordered by subject (DESIGN §1).
 *
 * @param graph the graph exactly as the critic will be shown it (for a chapter that
 *   condenses before showing, pass the condensed graph: an id on a triple the critic never
 *   saw is a delete ordered blind). Triples in named graphs are listed once, graph ignored.
 * @param options.scope when given, only triples also in this graph receive an id; the rest
 *   are listed read-only and cannot be cited — so deleting them is inexpressible, not merely
 *   refused after the fact. Blank nodes match by label.
 * @returns the index; ids 1..N follow listing order
 * @throws TypeError naming the argument when `graph` (or `options.scope`) is not a Graph
 */
export function buildTripleIndex(graph: Graph, options: { scope?: Graph } = {}): TripleIndex {
  checkArgs("buildTripleIndex", arguments, "graph:graph options?:object");
  checkGraphArgument("buildTripleIndex", "graph", graph);
  if (options !== null && options !== undefined && options.scope !== undefined) checkGraphArgument("buildTripleIndex", "options.scope", options.scope);
  const prefixes = listingPrefixes(graph.prefixes);
  const sorted: SortedTriples = sortTriples(graph.store, prefixes, { fingerprint: true });
  const scope = options.scope?.store;
  // Ids: listing position k has id k + 1 unless a scope leaves lines read-only (id 0 here).
  let idOf: Int32Array | null = null;
  let positions: Int32Array | null = null;
  if (scope !== undefined) {
    idOf = new Int32Array(sorted.count);
    const listed: number[] = [];
    for (let k = 0; k < sorted.count; k++) {
      if (inScope(scope, sorted.quad(k))) {
        listed.push(k);
        idOf[k] = listed.length;
      }
    }
    positions = Int32Array.from(listed);
  }
  const makeOrder = (): SubjectBlock[] => {
    const { blockStarts } = sorted;
    const order: SubjectBlock[] = new Array(blockStarts.length - 1);
    for (let b = 0; b + 1 < blockStarts.length; b++) {
      const start = blockStarts[b];
      const end = blockStarts[b + 1];
      const triples: ListedTriple[] = new Array(end - start);
      for (let k = start; k < end; k++) {
        const id = idOf === null ? k + 1 : idOf[k];
        triples[k - start] = new ListedTriple(id === 0 ? null : id, sorted, k);
      }
      order[b] = new Block(triples);
    }
    return order;
  };
  const fingerprint = sorted.fingerprint();
  let numbering = fingerprint;
  if (idOf !== null && positions!.length < sorted.count) {
    const readOnly: number[] = [];
    for (let k = 0; k < sorted.count; k++) if (idOf[k] === 0) readOnly.push(k);
    numbering = sha256Hex(`${fingerprint}\n${readOnly.join(",")}`);
  }
  return new TripleIndex({
    byId: new TriplesById(sorted, positions),
    ids: new TripleIds(sorted, idOf, prefixes),
    order: makeOrder,
    fingerprint,
    numbering,
    tripleCount: sorted.count,
    prefixes,
  });
}

function inScope(scope: Graph["store"], quad: RDF.Quad): boolean {
  return scope.countQuads(quad.subject, quad.predicate, quad.object, null) > 0;
}

/**
 * Public-API type check: `value` must be a Graph (an object with an RDF/JS `store` that has
 * `getQuads`, and a `prefixes` object or none), else a TypeError naming `fn` and `name`.
 */
export function checkGraphArgument(fn: string, name: string, value: unknown): void {
  const g = value as Partial<Graph> | null;
  if (g === null || typeof g !== "object") throw new ArgumentError(fn, name, "a Graph ({store, prefixes})", value);
  if (g.store === null || typeof g.store !== "object" || typeof (g.store as { getQuads?: unknown }).getQuads !== "function") {
    throw new ArgumentError(fn, name, "a Graph ({store, prefixes}) with an N3.Store as store (parseGraph or createGraph make one)", value);
  }
  if (g.prefixes !== undefined && (g.prefixes === null || typeof g.prefixes !== "object")) throw new ArgumentError(fn, `${name}.prefixes`, "an object of prefix name → namespace IRI", g.prefixes);
}
