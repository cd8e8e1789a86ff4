/**
 * The listing order of DESIGN §1, computed once per graph: every triple rendered with
 * formatTerm, subjects by rendered form in code-point order, then within a subject
 * `rdf:type` first, then by rendered predicate, then rendered object (code-point order).
 *
 * Cost: each distinct term is rendered once; distinct subjects and predicates are sorted
 * once (O(k log k) comparisons); triples are grouped by subject with a counting sort by
 * subject rank, and only inside a subject block are triples compared, predicate rank first
 * and object renderings last. For n triples over k distinct subjects this is
 * O(n + k log k + Σ b log b) for block sizes b, not O(n log n) string comparisons. The
 * result holds each rendering once and three term numbers per triple; no string per line is
 * built unless asked for.
 *
 * Fast path: the store's triples are read as N3.js entity numbers — from a GraphStore's flat
 * quad table (ts/rdf/graph-store.ts), or by walking N3.Store's subject → predicate → object
 * index (reading two internals, `_graphs` and `_entityIndex`, pinned by the exact `n3`
 * version) — so each distinct term is rendered once from its entity key, and no quad object
 * is made unless asked for. The terms are then rendered, ordered and written out by the WASM
 * kernel (assembly/listing.ts: UTF-8 byte order is code point order) or, on the TS backend,
 * by the code below; when the store holds several graphs, or lacks those internals, the
 * public `getQuads` path is used. All paths give the same listing (tested for parity).
 */
import type * as RDF from "@rdfjs/types";
import type { Store } from "n3";
import { n3DataFactory } from "../deps/n3.js";
import { encodePrefixTable, listingTriplesView, listingWasm, listingWasmFor as wasmFor } from "../../bindings/listing.js";
import { sha256Hex } from "../../bindings/sha256.js";
import { type BackendRequest } from "../../bindings/wasm.js";
import { codePointSortKey, escapeLiteral, formatTerm, GraphStore, RDF_NS, RDF_TYPE, walkQuadRows, XSD, type PrefixMap } from "../rdf/index.js";
import { checkArgs } from "../arg-kinds.js";

const encoder = new TextEncoder();
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/;

/** UTF-8 byte length of a well-formed JS string (lone surrogates count 3, as TextEncoder's U+FFFD). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * The triples of one graph in listing order, held compactly: each distinct term's rendering
 * once (`texts`), and three term numbers per triple (`spo`). Lines are built on demand.
 */
export class SortedTriples {
  private cachedLines: string[] | null = null;
  private textCache: readonly string[] | null;
  private readonly makeTexts: (() => string[]) | null;
  private fingerprintCache: string | null;

  /**
   * @param texts rendered text per term number, or a function making them on first use
   * @param spo subject, predicate, object term numbers of triple k at 3k, 3k+1, 3k+2
   * @param blockStarts index where each subject block starts, plus a final `count`
   * @param makeQuad makes triple k as an RDF/JS quad (called once per k, on demand)
   * @param fingerprint SHA-256 hex of {@link encode}'s bytes when already known
   */
  constructor(
    texts: readonly string[] | (() => string[]),
    readonly spo: Int32Array,
    readonly blockStarts: number[],
    private readonly makeQuad: (k: number) => RDF.Quad,
    fingerprint: string | null = null,
  ) {
    checkArgs("SortedTriples", arguments, "texts:array|function spo:object blockStarts:array makeQuad:function fingerprint?:string|null");
    this.textCache = typeof texts === "function" ? null : texts;
    this.makeTexts = typeof texts === "function" ? texts : null;
    this.fingerprintCache = fingerprint;
  }

  /** Rendered text per term number (made on first read when the WASM kernel rendered them). */
  get texts(): readonly string[] {
    return (this.textCache ??= this.makeTexts!());
  }

  /** SHA-256 (lowercase hex) of {@link encode}'s bytes: the graph's fingerprint (DESIGN §1). */
  fingerprint(): string {
    return (this.fingerprintCache ??= sha256Hex(this.encode()));
  }

  private quadCache: (RDF.Quad | undefined)[] | null = null;

  /** Triple k as an RDF/JS quad (graph as stored); the same object on every call. */
  quad(k: number): RDF.Quad {
    this.quadCache ??= new Array(this.count).fill(undefined);
    return (this.quadCache[k] ??= this.makeQuad(k));
  }

  /** Every triple as an RDF/JS quad, in order. */
  get quads(): RDF.Quad[] {
    return Array.from({ length: this.count }, (_, k) => this.quad(k));
  }

  /** Number of triples. */
  get count(): number {
    return this.spo.length / 3;
  }

  /** `s\tp\to` for triple k. */
  line(k: number): string {
    const { texts, spo } = this;
    return `${texts[spo[3 * k]]}\t${texts[spo[3 * k + 1]]}\t${texts[spo[3 * k + 2]]}`;
  }

  /** Every line, in order (built once). */
  get lines(): string[] {
    if (this.cachedLines === null) this.cachedLines = Array.from({ length: this.count }, (_, k) => this.line(k));
    return this.cachedLines;
  }

  /**
   * The fingerprint's bytes: every line `s\tp\to` + "\n", UTF-8, in one buffer. Each distinct
   * term is encoded once (all of them in one TextEncoder call, into one arena) and its bytes
   * are copied into place per triple — the same bytes as encoding the joined lines, without
   * building a string per line.
   */
  encode(): Uint8Array {
    const { texts, spo } = this;
    const joined = texts.join("");
    // Byte offsets of each term in the arena. First assume every term is ASCII (offsets are
    // character offsets); TextEncoder then fills the arena completely exactly when that holds.
    // Otherwise each term holding a non-ASCII character is measured and the arena re-encoded.
    const start = new Int32Array(texts.length + 1);
    for (let t = 0; t < texts.length; t++) start[t + 1] = start[t] + texts[t].length;
    const outputLength = (): number => {
      let total = 0;
      for (let i = 0; i < spo.length; i++) total += start[spo[i] + 1] - start[spo[i]] + 1;
      return total;
    };
    let total = outputLength();
    // One buffer: the output first, the terms' bytes (the arena) after it, so every copy is a
    // native copyWithin inside one ArrayBuffer; the result is a view of the output part.
    let buffer = new Uint8Array(total + joined.length);
    if (encoder.encodeInto(joined, buffer.subarray(total)).read !== joined.length) {
      for (let t = 0; t < texts.length; t++) {
        const text = texts[t];
        start[t + 1] = start[t] + (NON_ASCII.test(text) ? utf8Length(text) : text.length);
      }
      total = outputLength();
      buffer = new Uint8Array(total + start[texts.length]);
      encoder.encodeInto(joined, buffer.subarray(total));
    }
    let at = 0;
    for (let i = 0; i < spo.length; i += 3) {
      for (let j = 0; j < 3; j++) {
        const t = spo[i + j];
        const from = total + start[t];
        const length = start[t + 1] - start[t];
        if (length < 16) for (let b = 0; b < length; b++) buffer[at + b] = buffer[from + b];
        else buffer.copyWithin(at, from, from + length);
        at += length;
        buffer[at++] = j === 2 ? 0x0a : 0x09;
      }
    }
    return buffer.subarray(0, total);
  }
}

function termId(term: RDF.Term): string {
  // N3.js terms carry a unique id string; others (never in an N3.Store) are keyed by type + value.
  const id = (term as { id?: string }).id;
  return id ?? `${term.termType}\u0000${term.value}\u0000${(term as RDF.Literal).language ?? ""}\u0000${(term as RDF.Literal).datatype?.value ?? ""}`;
}

/** Blocks up to this many triples are ordered by insertion sort; larger ones by Array#sort (stable). */
const INSERTION_SORT_MAX = 24;

/**
 * The listing order of n numbered triples (the TS twin of assembly/listing.ts's ordering):
 * subjects by rendering in code-point order, then within a subject the predicate `typeTerm`
 * (rdf:type) first, then by predicate rendering, then object rendering. Both steps are
 * stable: a counting sort by subject rank, then each block on its own.
 *
 * @param texts rendering per term number
 * @param spo subject, predicate, object term numbers of triple i at 3i, 3i+1, 3i+2
 * @param typeTerm the term number of rdf:type, or -1
 * @returns `order` (triple numbers in listing order) and `blockStarts` (where each subject
 *   block starts in it, plus a final n)
 */
function orderTriples(texts: readonly string[], spo: Int32Array, typeTerm: number): { order: Int32Array; blockStarts: number[] } {
  const sortKeys: (string | undefined)[] = new Array(texts.length);
  const byRendering = (a: number, b: number): number => {
    const x = (sortKeys[a] ??= codePointSortKey(texts[a]));
    const y = (sortKeys[b] ??= codePointSortKey(texts[b]));
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const n = spo.length / 3;
  // Distinct subjects and predicates, each sorted by rendering; rdf:type is predicate rank 0.
  const subjectRank = new Int32Array(texts.length).fill(-1);
  const predicateRank = new Int32Array(texts.length).fill(-1);
  const subjects: number[] = [];
  const predicates: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = spo[3 * i];
    const p = spo[3 * i + 1];
    if (subjectRank[s] < 0) {
      subjectRank[s] = 0;
      subjects.push(s);
    }
    if (predicateRank[p] < 0) {
      predicateRank[p] = 0;
      predicates.push(p);
    }
  }
  subjects.sort(byRendering);
  for (let r = 0; r < subjects.length; r++) subjectRank[subjects[r]] = r;
  predicates.sort(byRendering);
  for (let r = 0; r < predicates.length; r++) predicateRank[predicates[r]] = predicates[r] === typeTerm ? 0 : r + 1;

  // Group by subject rank (counting sort, stable), then order each block.
  const counts = new Int32Array(subjects.length + 1);
  for (let i = 0; i < n; i++) counts[subjectRank[spo[3 * i]] + 1]++;
  for (let r = 0; r < subjects.length; r++) counts[r + 1] += counts[r];
  const blockStarts = Array.from(counts);
  const cursor = counts.slice(0, subjects.length);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[cursor[subjectRank[spo[3 * i]]]++] = i;
  const byPredicateObject = (a: number, b: number): number => {
    const d = predicateRank[spo[3 * a + 1]] - predicateRank[spo[3 * b + 1]];
    return d !== 0 ? d : byRendering(spo[3 * a + 2], spo[3 * b + 2]);
  };
  for (let r = 0; r < subjects.length; r++) {
    const start = blockStarts[r];
    const end = blockStarts[r + 1];
    if (end - start > INSERTION_SORT_MAX) order.set(Array.from(order.subarray(start, end)).sort(byPredicateObject), start);
    else {
      for (let j = start + 1; j < end; j++) {
        const v = order[j];
        let k = j - 1;
        while (k >= start && byPredicateObject(order[k], v) > 0) {
          order[k + 1] = order[k];
          k--;
        }
        order[k + 1] = v;
      }
    }
  }
  return { order, blockStarts };
}

/** The triples `spo` (3 term numbers each) permuted into `order`. */
function permuteTriples(spo: Int32Array, order: Int32Array): Int32Array {
  const sorted = new Int32Array(spo.length);
  for (let k = 0; k < order.length; k++) {
    const i = 3 * order[k];
    sorted[3 * k] = spo[i];
    sorted[3 * k + 1] = spo[i + 1];
    sorted[3 * k + 2] = spo[i + 2];
  }
  return sorted;
}

/** The public-API path: every quad from getQuads, a triple held in several graphs listed once. */
function sortTriplesGeneric(store: Store, prefixes: PrefixMap): SortedTriples {
  const quads = store.getQuads(null, null, null, null) as RDF.Quad[];
  // Quads in named graphs may repeat a triple (the same line): keep its first occurrence only.
  const dedupe = quads.length > 0 && store.countQuads(null, null, null, n3DataFactory().defaultGraph()) !== quads.length;
  return sortQuadList(quads, prefixes, dedupe);
}

/**
 * Render and order quads that are not in a store (the store-free twin of sortTriples'
 * generic path, used by `fingerprintQuads`): identical quads count once, as a store keeps
 * them, and a triple in several graphs is listed once. References no `N3.Store`, so a page
 * using it does not bundle one.
 */
export function sortQuads(quads: Iterable<RDF.Quad>, prefixes: PrefixMap): SortedTriples {
  const seen = new Set<string>();
  const unique: RDF.Quad[] = [];
  let named = false;
  for (const q of quads) {
    const key = `${termId(q.subject)}\u0001${termId(q.predicate)}\u0001${termId(q.object)}\u0001${termId(q.graph)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(q);
    if (q.graph.termType !== "DefaultGraph") named = true;
  }
  return sortQuadList(unique, prefixes, named);
}

/** Order distinct quads; `dedupe`: drop a quad whose line an earlier one already showed. */
function sortQuadList(quads: readonly RDF.Quad[], prefixes: PrefixMap, dedupe: boolean): SortedTriples {
  const numbers = new Map<string, number>();
  const texts: string[] = [];
  const number = (term: RDF.Term): number => {
    const id = termId(term);
    let t = numbers.get(id);
    if (t === undefined) {
      numbers.set(id, (t = texts.length));
      texts.push(formatTerm(term, prefixes));
    }
    return t;
  };
  const seen = new Set<string>();
  const kept: RDF.Quad[] = [];
  const numbered: number[] = [];
  for (const q of quads) {
    const s = number(q.subject);
    const p = number(q.predicate);
    const o = number(q.object);
    if (dedupe) {
      const line = `${texts[s]}\t${texts[p]}\t${texts[o]}`;
      if (seen.has(line)) continue;
      seen.add(line);
    }
    kept.push(q);
    numbered.push(s, p, o);
  }
  const spo = Int32Array.from(numbered);
  const typeTerm = numbers.get(termId(n3DataFactory().namedNode(RDF_TYPE))) ?? -1;
  const { order, blockStarts } = orderTriples(texts, spo, typeTerm);
  return new SortedTriples(texts, permuteTriples(spo, order), blockStarts, (k) => kept[order[k]]);
}

/** The parts of N3.js 2.x's Store this module reads on its fast path. */
interface StoreInternals {
  _graphs?: Record<string, { subjects: Record<string, Record<string, Record<string, unknown>>>; predicates: Record<string, unknown> }>;
  _entityIndex?: { _id: number; _entities: Record<string, string>; _termFromId(key: string): RDF.Term };
}

/**
 * Render and order every triple of `store` (all graphs; a triple present in several named
 * graphs is listed once).
 *
 * @param options.withQuads ignored (kept for callers): quads are made on demand by `quad(k)`
 * @param options.path force "generic" (public API) or "fast"; default: fast when possible
 * @param options.backend "wasm", "ts" or "auto" (default: the global choice, see setBackend)
 *   for the fast path's rendering and ordering; the results are identical
 * @param options.fingerprint hash the listing bytes now (the WASM path hashes them where
 *   they lie, without copying them out); `fingerprint()` is then free
 * @throws Error when `path: "fast"` is forced on a store that does not allow it, or
 *   `backend: "wasm"` is forced and the module is not loaded
 */
export function sortTriples(
  store: Store,
  prefixes: PrefixMap,
  options: { withQuads?: boolean; path?: "fast" | "generic"; backend?: BackendRequest; fingerprint?: boolean } = {},
): SortedTriples {
  checkArgs("sortTriples", arguments, "store:store prefixes:object options?:object");
  const entityTriples = options.path === "generic" ? null : readEntityTriples(store);
  if (entityTriples === null) {
    if (options.path === "fast") throw new Error("sortTriples: the N3.Store fast path is unavailable for this store");
    return sortTriplesGeneric(store, prefixes);
  }
  return sortTriplesFast(entityTriples, prefixes, wasmFor(options.backend), options.fingerprint ?? false);
}

/** A store's triples as N3.js entity numbers, and what is needed to render them. */
interface EntityTriples {
  /** Subject, predicate, object, graph entity numbers of triple k at 4k, +1, +2, +3. */
  rows: Int32Array;
  count: number;
  entityIndex: NonNullable<StoreInternals["_entityIndex"]>;
  graphTerm: RDF.Quad["graph"];
}

/**
 * The triples of a one-graph store as entity numbers: a GraphStore's flat table (read in
 * place), or a walk of any N3.Store's index. Null when the store holds triples in more than
 * one graph (the generic path removes duplicates across graphs) or lacks the internals read
 * here.
 */
function readEntityTriples(store: Store): EntityTriples | null {
  const internals = store as unknown as StoreInternals;
  const entityIndex = internals._entityIndex;
  if (internals._graphs === undefined || entityIndex === undefined || typeof entityIndex._termFromId !== "function" || typeof entityIndex._id !== "number") return null;
  const { rows, count } = store instanceof GraphStore ? store.quadRows() : walkQuadRows(store);
  const graph = count > 0 ? rows[3] : 1;
  for (let i = 7; i < 4 * count; i += 4) if (rows[i] !== graph) return null;
  const graphTerm = count > 0 ? (entityIndex._termFromId(entityIndex._entities[graph]) as RDF.Quad["graph"]) : n3DataFactory().defaultGraph();
  return { rows, count, entityIndex, graphTerm };
}

/**
 * Render an N3.js entity key (the store's internal term id) exactly as formatTerm renders
 * the term, without materialising the term: IRIs are the IRI (wrapped in `<…>` when it starts
 * with a marker character), `_:label`, `"value"`, `"value"@lang[--dir]`, `"value"^^datatype`.
 * Returns null for keys it does not handle (quoted triples, variables): the caller renders
 * the term instead. Parity with formatTerm is tested.
 */
function renderEntityKey(key: string, prefixes: PrefixMap): string | null {
  const first = key.charCodeAt(0);
  if (first === 0x22 /* " */) {
    // Most literals need no escape and carry a lower-case tag or none: the key is the rendering.
    if (PLAIN_LITERAL_KEY.test(key)) return key;
    const close = key.lastIndexOf('"');
    const body = `"${escapeLiteral(key.slice(1, close))}"`;
    if (close === key.length - 1) return body;
    if (key.charCodeAt(close + 1) === 0x40 /* @ */) return body + key.slice(close + 1).toLowerCase();
    const datatype = key.slice(close + 3);
    return datatype === XSD_STRING || datatype === RDF_LANG_STRING ? body : `${body}^^${prefixes.formatIri(datatype)}`;
  }
  if (first === 0x5f /* _ */ && key.charCodeAt(1) === 0x3a) return key;
  if (first === 0x3c /* < */) return prefixes.formatIri(key.slice(1, -1));
  if (first === 0x2e /* . */ || first === 0x3f /* ? */ || key === "") return null;
  return prefixes.formatIri(key);
}
const XSD_STRING = `${XSD}string`;
/** A literal key `"lexical"` or `"lexical"@tag` whose lexical form needs no escape (as escapeLiteral) and whose tag is lower-case. */
const PLAIN_LITERAL_KEY = /^"[ !#-[\]-~\u0080-\u0084\u0086-\u2027\u202A-\uD7FF\uE000-\uFFFD]*"(?:@[a-z0-9-]+)?$/;
const RDF_LANG_STRING = `${RDF_NS}langString`;

const prefixTables = new WeakMap<PrefixMap, Uint8Array>();
/** Whether the WASM listing kernel's memory holds a call's input now (re-entry guard). */
let listingBusy = false;

function sortTriplesFast(
  { rows, count, entityIndex, graphTerm }: EntityTriples,
  prefixes: PrefixMap,
  wasm: ReturnType<typeof wasmFor>,
  hashNow: boolean,
): SortedTriples {
  const entities = entityIndex._entities;
  // Term numbers in order of first appearance, written straight into WASM memory on the
  // WASM path; the entity key (N3.js's term id) of each term.
  // Everything user code could run during (the prefix table reads `shorteningOrder`, which a
  // PrefixMap subclass may override) happens before the kernel's memory is written, and a
  // call that re-enters while the kernel holds its memory (a getter calling buildTripleIndex
  // on another graph) takes the TS path instead of overwriting the outer call's input.
  let table: Uint8Array | undefined;
  if (wasm !== null && count > 0 && !listingBusy) {
    table = prefixTables.get(prefixes);
    if (table === undefined) prefixTables.set(prefixes, (table = encodePrefixTable(prefixes.shorteningOrder)));
  }
  const useWasm = wasm !== null && count > 0 && !listingBusy;
  const numOf = new Int32Array(entityIndex._id + 1).fill(-1);
  const keys: string[] = [];
  const numberInto = (spo: Int32Array): Int32Array => {
    for (let k = 0; k < count; k++) {
      for (let j = 0; j < 3; j++) {
        const e = rows[4 * k + j];
        let t = numOf[e];
        if (t < 0) {
          t = numOf[e] = keys.length;
          keys.push(entities[e]);
        }
        spo[3 * k + j] = t;
      }
    }
    return spo;
  };
  if (useWasm) listingBusy = true;
  try {
    return finishSort(useWasm);
  } finally {
    if (useWasm) listingBusy = false;
  }

  function finishSort(useWasm: boolean): SortedTriples {
    let spo = numberInto(useWasm ? listingTriplesView(wasm!, count) : new Int32Array(3 * count));
    const typeEntity = (entityIndex as unknown as { _ids?: Record<string, number> })._ids?.[RDF_TYPE];
    const typeTerm = typeEntity !== undefined ? numOf[typeEntity] : -1;
    const terms: (RDF.Term | undefined)[] = [];
    const termOf = (num: number): RDF.Term => (terms[num] ??= entityIndex._termFromId(keys[num]));
    const renderAll = (): string[] => keys.map((key, t) => renderEntityKey(key, prefixes) ?? formatTerm(termOf(t), prefixes));

    if (useWasm) {
      const listing = listingWasm(wasm!, keys, typeTerm, table!, { digest: hashNow ? sha256Hex : undefined });
      if (listing !== null) {
        const sorted = listing.spo;
        // The texts are the TS renderings of the same keys (identical by the parity contract),
        // made only if lines are asked for.
        return new SortedTriples(
          renderAll,
          sorted,
          listing.blockStarts,
          (k) => n3DataFactory().quad(termOf(sorted[3 * k]) as RDF.Quad_Subject, termOf(sorted[3 * k + 1]) as RDF.Quad_Predicate, termOf(sorted[3 * k + 2]) as RDF.Quad_Object, graphTerm) as unknown as RDF.Quad,
          listing.fingerprint,
        );
      }
      // The kernel declined (a key only the TS path renders): the WASM view is stale now.
      spo = numberInto(new Int32Array(3 * count));
    }

    // The TS backend: render each term from its key, then the same ordering as the kernel.
    const texts = renderAll();
    const { order, blockStarts } = orderTriples(texts, spo, typeTerm);
    const sorted = permuteTriples(spo, order);
    const result = new SortedTriples(texts, sorted, blockStarts, (k) =>
      n3DataFactory().quad(termOf(sorted[3 * k]) as RDF.Quad_Subject, termOf(sorted[3 * k + 1]) as RDF.Quad_Predicate, termOf(sorted[3 * k + 2]) as RDF.Quad_Object, graphTerm) as unknown as RDF.Quad,
    );
    if (hashNow) result.fingerprint();
    return result;
  }
}

