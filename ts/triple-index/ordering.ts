/**
 * The listing order of DESIGN §1, computed once per graph: every triple rendered with
 * formatTerm, subjects by rendered form in code-point order, then within a subject
 * `rdf:type` first, then by rendered predicate, then rendered object (code-point order).
 *
 * Cost: each distinct term is rendered once; distinct subjects and predicates are sorted
 * once (O(k log k) string comparisons); triples are grouped by subject (the store's own
 * subject index on the fast path, a counting sort by subject rank on the generic one), and
 * only inside a subject block are triples compared, predicate rank first and object strings
 * last. For n triples over k distinct subjects this is O(n + k log k + Σ b log b) for block
 * sizes b, not O(n log n) string comparisons. The result holds each rendering once and three
 * term numbers per triple; no string per line is built unless asked for.
 *
 * Fast path: when the store holds one graph, N3.Store's own subject → predicate → object
 * index (entity numbers) is walked directly, so terms are materialised once per distinct
 * entity instead of three times per triple, and no quad objects are made unless asked for.
 * That reads two internals of N3.js (`_graphs`, `_entityIndex`), pinned by the exact `n3`
 * version in package.json; when they are absent the public `getQuads` path is used, with the
 * same result (the parity is tested).
 */
import type * as RDF from "@rdfjs/types";
import { DataFactory, type Store } from "n3";
import { codePointSortKey, escapeLiteral, formatTerm, RDF_TYPE, type PrefixMap } from "../rdf/index.js";

/** A term as the listing shows it, with its code-point sort key and (for subjects/predicates) its rank. */
interface Rendered {
  readonly text: string;
  readonly key: string;
  readonly num: number;
  subjectRank: number;
  predicateRank: number;
}

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

  constructor(
    /** Rendered text per term number. */
    readonly texts: readonly string[],
    /** Subject, predicate, object term numbers of triple k at 3k, 3k+1, 3k+2. */
    readonly spo: Int32Array,
    /** Index where each subject block starts, plus a final `count`. */
    readonly blockStarts: number[],
    /** Makes triple k as an RDF/JS quad (called once per k, on demand). */
    private readonly makeQuad: (k: number) => RDF.Quad,
  ) {}

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

const byKey = (a: Rendered, b: Rendered) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function termId(term: RDF.Term): string {
  // N3.js terms carry a unique id string; others (never in an N3.Store) are keyed by type + value.
  const id = (term as { id?: string }).id;
  return id ?? `${term.termType}\u0000${term.value}\u0000${(term as RDF.Literal).language ?? ""}\u0000${(term as RDF.Literal).datatype?.value ?? ""}`;
}

function sortTriplesGeneric(store: Store, prefixes: PrefixMap): SortedTriples {
  let quads = store.getQuads(null, null, null, null) as RDF.Quad[];
  const cache = new Map<string, Rendered>();
  const texts: string[] = [];
  const render = (term: RDF.Term): Rendered => {
    const id = termId(term);
    let r = cache.get(id);
    if (r === undefined) {
      const text = formatTerm(term, prefixes);
      r = { text, key: codePointSortKey(text), num: texts.length, subjectRank: -1, predicateRank: -1 };
      texts.push(text);
      cache.set(id, r);
    }
    return r;
  };

  const n0 = quads.length;
  let S: Rendered[] = new Array(n0);
  let P: Rendered[] = new Array(n0);
  let O: Rendered[] = new Array(n0);
  const subjects: Rendered[] = [];
  const predicates: Rendered[] = [];
  for (let i = 0; i < n0; i++) {
    const q = quads[i];
    const s = render(q.subject);
    const p = render(q.predicate);
    if (s.subjectRank === -1) {
      s.subjectRank = -2;
      subjects.push(s);
    }
    if (p.predicateRank === -1) {
      p.predicateRank = -2;
      predicates.push(p);
    }
    S[i] = s;
    P[i] = p;
    O[i] = render(q.object);
  }

  // Quads in named graphs may repeat a triple: keep its first occurrence only.
  if (n0 > 0 && store.countQuads(null, null, null, DataFactory.defaultGraph()) !== n0) {
    const seen = new Set<string>();
    const keep: number[] = [];
    for (let i = 0; i < n0; i++) {
      const line = `${S[i].text}\t${P[i].text}\t${O[i].text}`;
      if (!seen.has(line)) {
        seen.add(line);
        keep.push(i);
      }
    }
    quads = keep.map((i) => quads[i]);
    S = keep.map((i) => S[i]);
    P = keep.map((i) => P[i]);
    O = keep.map((i) => O[i]);
  }
  const n = quads.length;

  subjects.sort(byKey);
  for (let r = 0; r < subjects.length; r++) subjects[r].subjectRank = r;
  predicates.sort(byKey);
  // rdf:type sorts before every other predicate: rank 0, the rest 1..
  const typeText = formatTerm({ termType: "NamedNode", value: RDF_TYPE } as RDF.NamedNode, prefixes);
  for (let r = 0; r < predicates.length; r++) predicates[r].predicateRank = predicates[r].text === typeText ? 0 : r + 1;

  // Counting sort by subject rank.
  const counts = new Int32Array(subjects.length + 1);
  for (let i = 0; i < n; i++) counts[S[i].subjectRank + 1]++;
  for (let r = 0; r < subjects.length; r++) counts[r + 1] += counts[r];
  const blockStarts = Array.from(counts);
  const order = new Int32Array(n);
  const fill = counts.slice(0, subjects.length);
  for (let i = 0; i < n; i++) order[fill[S[i].subjectRank]++] = i;

  // Sort inside each subject block by (predicate rank, object key).
  const byPredicateObject = (a: number, b: number) => {
    const d = P[a].predicateRank - P[b].predicateRank;
    if (d !== 0) return d;
    const x = O[a].key;
    const y = O[b].key;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  for (let r = 0; r < subjects.length; r++) {
    const start = blockStarts[r];
    const end = blockStarts[r + 1];
    if (end - start > 1) order.subarray(start, end).sort(byPredicateObject);
  }

  const sortedQuads: RDF.Quad[] = new Array(n);
  const spo = new Int32Array(3 * n);
  for (let k = 0; k < n; k++) {
    const i = order[k];
    sortedQuads[k] = quads[i];
    spo[3 * k] = S[i].num;
    spo[3 * k + 1] = P[i].num;
    spo[3 * k + 2] = O[i].num;
  }
  return new SortedTriples(texts, spo, blockStarts, (k) => sortedQuads[k]);
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
 */
export function sortTriples(
  store: Store,
  prefixes: PrefixMap,
  options: { withQuads?: boolean; path?: "fast" | "generic" } = {},
): SortedTriples {
  const internals = store as unknown as StoreInternals;
  const graphs = internals._graphs;
  const entityIndex = internals._entityIndex;
  const fastPossible =
    graphs !== undefined &&
    entityIndex !== undefined &&
    typeof entityIndex._termFromId === "function" &&
    typeof entityIndex._id === "number" &&
    Object.keys(graphs).filter((g) => hasKeys(graphs[g].subjects)).length <= 1;
  if (options.path === "generic" || !fastPossible) {
    if (options.path === "fast") throw new Error("sortTriples: the N3.Store fast path is unavailable for this store");
    return sortTriplesGeneric(store, prefixes);
  }
  return sortTriplesFast(graphs!, entityIndex!, prefixes, options.withQuads ?? true, store.size);
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
const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
/** A literal key `"lexical"` or `"lexical"@tag` whose lexical form needs no escape (as escapeLiteral) and whose tag is lower-case. */
const PLAIN_LITERAL_KEY = /^"[ !#-[\]-~\u0080-\uD7FF\uE000-\uFFFD]*"(?:@[a-z0-9-]+)?$/;
/** Characters at or above U+D800, where code-unit and code-point order can disagree (see codePointSortKey). */
const HIGH_UNITS = /[\uD800-\uFFFF]/;
const RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

/** Whether `record` has an own enumerable key (without listing all of them). */
function hasKeys(record: object): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

/** Blocks up to this many triples are ordered by insertion sort in place; larger ones by Array#sort. */
const INSERTION_SORT_MAX = 24;

function sortTriplesFast(
  graphs: NonNullable<StoreInternals["_graphs"]>,
  entityIndex: NonNullable<StoreInternals["_entityIndex"]>,
  prefixes: PrefixMap,
  _withQuads: boolean,
  expectedCount: number,
): SortedTriples {
  const graphKey = Object.keys(graphs).find((g) => hasKeys(graphs[g].subjects));
  const blockStarts: number[] = [0];
  if (graphKey === undefined) return new SortedTriples([], new Int32Array(0), blockStarts, () => {
    throw new RangeError("no triples");
  });
  const content = graphs[graphKey];
  const entities = entityIndex._entities;
  const graphTerm = entityIndex._termFromId(entities[graphKey]) as RDF.Quad["graph"];

  // Term numbers by entity number (-1: not rendered yet), and per term number its text, its
  // code-point key (made when first compared) and its predicate rank. No object per term.
  const entityCount = entityIndex._id + 1;
  const numOf = new Int32Array(entityCount).fill(-1);
  const texts: string[] = [];
  const keys: (string | undefined)[] = [];
  const entityOf: number[] = []; // term number → entity number
  const render = (id: number): number => {
    const key = entities[id];
    const text = renderEntityKey(key, prefixes) ?? formatTerm(entityIndex._termFromId(key), prefixes);
    const num = texts.length;
    texts.push(text);
    // A rendering that is the entity key itself (most literals, blank nodes) is its own sort
    // key when the key has no unit ≥ U+D800 (the check runs on the flat key, not a new string).
    keys.push(text === key && !HIGH_UNITS.test(key) ? key : undefined);
    entityOf.push(id);
    numOf[id] = num;
    return num;
  };
  const sortKey = (num: number): string => keys[num] ?? (keys[num] = codePointSortKey(texts[num]));

  const typeText = formatTerm({ termType: "NamedNode", value: RDF_TYPE } as RDF.NamedNode, prefixes);
  const predicateNums = Object.keys(content.predicates).map((key) => render(+key));
  predicateNums.sort((a, b) => {
    const x = sortKey(a);
    const y = sortKey(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const predicateRank = new Int32Array(entityCount); // by term number; predicates are rendered first
  for (let r = 0; r < predicateNums.length; r++) predicateRank[predicateNums[r]] = texts[predicateNums[r]] === typeText ? 0 : r + 1;

  const subjects = content.subjects;
  // Sort (sort key, entity key) pairs: no number parsing or lookups inside the comparator.
  const subjectKeys = Object.keys(subjects);
  const subjectNums: number[] = new Array(subjectKeys.length);
  for (let i = 0; i < subjectKeys.length; i++) {
    const id = +subjectKeys[i];
    const num = numOf[id];
    subjectNums[i] = num < 0 ? render(id) : num;
    sortKey(subjectNums[i]);
  }
  subjectNums.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });

  // Inside a block: predicate rank, then object key (p, o are term numbers at 3k+1, 3k+2).
  let spo: Int32Array = new Int32Array(3 * Math.max(1, expectedCount));
  const comparePO = (p1: number, o1: number, p2: number, o2: number): number => {
    const d = predicateRank[p1] - predicateRank[p2];
    if (d !== 0) return d;
    const x = sortKey(o1);
    const y = sortKey(o2);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  let at = 0;
  for (let i = 0; i < subjectNums.length; i++) {
    const sNum = subjectNums[i];
    const byPredicate = subjects[entityOf[sNum]];
    const blockAt = at;
    const pKeys = Object.keys(byPredicate);
    for (let pi = 0; pi < pKeys.length; pi++) {
      const pKey = pKeys[pi];
      const pNum = numOf[+pKey];
      const oKeys = Object.keys(byPredicate[pKey]);
      for (let oi = 0; oi < oKeys.length; oi++) {
        const o = +oKeys[oi];
        let oNum = numOf[o];
        if (oNum < 0) oNum = render(o);
        if (at === spo.length) spo = growInt32(spo);
        spo[at] = sNum;
        spo[at + 1] = pNum;
        spo[at + 2] = oNum;
        at += 3;
      }
    }
    const size = (at - blockAt) / 3;
    if (size > INSERTION_SORT_MAX) sortBlock(spo, blockAt, size, comparePO);
    else if (size > 1) {
      for (let j = blockAt + 3; j < at; j += 3) {
        const p = spo[j + 1];
        const o = spo[j + 2];
        let k = j - 3;
        while (k >= blockAt && comparePO(spo[k + 1], spo[k + 2], p, o) > 0) {
          spo[k + 4] = spo[k + 1];
          spo[k + 5] = spo[k + 2];
          k -= 3;
        }
        spo[k + 4] = p;
        spo[k + 5] = o;
      }
    }
    blockStarts.push(at / 3);
  }
  const triples = spo.subarray(0, at);
  const terms: (RDF.Term | undefined)[] = [];
  const termOf = (num: number): RDF.Term => (terms[num] ??= entityIndex._termFromId(entities[entityOf[num]]));
  return new SortedTriples(texts, triples, blockStarts, (k) =>
    DataFactory.quad(termOf(triples[3 * k]) as RDF.Quad_Subject, termOf(triples[3 * k + 1]) as RDF.Quad_Predicate, termOf(triples[3 * k + 2]) as RDF.Quad_Object, graphTerm) as unknown as RDF.Quad,
  );
}

/** Order one large block (`size` triples from `start` in `spo`) by (predicate, object) with Array#sort. */
function sortBlock(spo: Int32Array, start: number, size: number, comparePO: (p1: number, o1: number, p2: number, o2: number) => number): void {
  const p = new Int32Array(size);
  const o = new Int32Array(size);
  const order = new Array<number>(size);
  for (let k = 0; k < size; k++) {
    p[k] = spo[start + 3 * k + 1];
    o[k] = spo[start + 3 * k + 2];
    order[k] = k;
  }
  order.sort((a, b) => comparePO(p[a], o[a], p[b], o[b]));
  for (let k = 0; k < size; k++) {
    spo[start + 3 * k + 1] = p[order[k]];
    spo[start + 3 * k + 2] = o[order[k]];
  }
}

function growInt32(a: Int32Array): Int32Array {
  // Only when the store's size undercounts (it never does for one graph); kept for safety.
  const b = new Int32Array(Math.max(30, a.length * 2));
  b.set(a);
  return b;
}
