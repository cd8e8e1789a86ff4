/**
 * The listing order of DESIGN §1, computed once per graph: every triple rendered with
 * formatTerm, subjects by rendered form in code-point order, then within a subject
 * `rdf:type` first, then by rendered predicate, then rendered object (code-point order).
 *
 * Cost: each distinct term is rendered once (cached by its N3.js id); distinct subjects
 * and predicates are sorted once (O(k log k) string comparisons); triples are bucketed by
 * subject rank (counting sort, O(n)), and only inside a subject block are triples compared,
 * by numbers first and object strings last. For n triples over k distinct subjects this is
 * O(n + k log k + Σ b log b) for block sizes b, not O(n log n) string comparisons.
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
import { codePointSortKey, formatTerm, RDF_TYPE, type PrefixMap } from "../rdf/index.js";

/** A term as the listing shows it, with its code-point sort key and (for subjects/predicates) its rank. */
interface Rendered {
  readonly text: string;
  readonly key: string;
  subjectRank: number;
  predicateRank: number;
}

/** The sorted rows of one graph: parallel arrays in listing order. */
export interface SortedTriples {
  /** The triples (as stored: quads, graph ignored), in listing order. */
  readonly quads: RDF.Quad[];
  /** `s\tp\to` per triple, same order. */
  readonly lines: string[];
  /** Index in `quads` where each subject block starts, plus a final `quads.length`. */
  readonly blockStarts: number[];
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
  const render = (term: RDF.Term): Rendered => {
    const id = termId(term);
    let r = cache.get(id);
    if (r === undefined) {
      const text = formatTerm(term, prefixes);
      r = { text, key: codePointSortKey(text), subjectRank: -1, predicateRank: -1 };
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
  const lines: string[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const i = order[k];
    sortedQuads[k] = quads[i];
    lines[k] = `${S[i].text}\t${P[i].text}\t${O[i].text}`;
  }
  return { quads: sortedQuads, lines, blockStarts };
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
 * @param options.withQuads also return the triples as RDF/JS quads (default true);
 *   the fingerprint needs only the lines
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
    Object.keys(graphs).filter((g) => Object.keys(graphs[g].subjects).length > 0).length <= 1;
  if (options.path === "generic" || !fastPossible) {
    if (options.path === "fast") throw new Error("sortTriples: the N3.Store fast path is unavailable for this store");
    return sortTriplesGeneric(store, prefixes);
  }
  return sortTriplesFast(graphs!, entityIndex!, prefixes, options.withQuads ?? true);
}

function sortTriplesFast(
  graphs: NonNullable<StoreInternals["_graphs"]>,
  entityIndex: NonNullable<StoreInternals["_entityIndex"]>,
  prefixes: PrefixMap,
  withQuads: boolean,
): SortedTriples {
  const graphKey = Object.keys(graphs).find((g) => Object.keys(graphs[g].subjects).length > 0);
  const lines: string[] = [];
  const quads: RDF.Quad[] = [];
  const blockStarts: number[] = [0];
  if (graphKey === undefined) return { quads, lines, blockStarts };
  const content = graphs[graphKey];
  const entities = entityIndex._entities;
  const graphTerm = entityIndex._termFromId(entities[graphKey]) as RDF.Quad["graph"];

  // Dense arrays indexed by entity number (sized up front so V8 keeps fast elements).
  const entityCount = entityIndex._id + 1;
  const terms: (RDF.Term | undefined)[] = new Array(entityCount).fill(undefined);
  const rendered: (Rendered | undefined)[] = new Array(entityCount).fill(undefined);
  const render = (id: number): Rendered => {
    let r = rendered[id];
    if (r === undefined) {
      const term = entityIndex._termFromId(entities[id]);
      terms[id] = term;
      const text = formatTerm(term, prefixes);
      r = { text, key: codePointSortKey(text), subjectRank: -1, predicateRank: -1 };
      rendered[id] = r;
    }
    return r;
  };

  const typeText = formatTerm({ termType: "NamedNode", value: RDF_TYPE } as RDF.NamedNode, prefixes);
  const predicateIds = Object.keys(content.predicates).map(Number);
  for (const id of predicateIds) render(id);
  predicateIds.sort((a, b) => byKey(rendered[a]!, rendered[b]!));
  for (let r = 0; r < predicateIds.length; r++) {
    const p = rendered[predicateIds[r]]!;
    p.predicateRank = p.text === typeText ? 0 : r + 1;
  }
  const byPredicateRank = (a: number, b: number) => rendered[a]!.predicateRank - rendered[b]!.predicateRank;
  const byObjectKey = (a: number, b: number) => byKey(rendered[a]!, rendered[b]!);

  const subjects = content.subjects;
  const subjectIds = Object.keys(subjects).map(Number);
  for (const id of subjectIds) render(id);
  subjectIds.sort((a, b) => byKey(rendered[a]!, rendered[b]!));

  for (const s of subjectIds) {
    const sText = rendered[s]!.text;
    const byPredicate = subjects[s];
    const pIds = Object.keys(byPredicate).map(Number);
    if (pIds.length > 1) pIds.sort(byPredicateRank);
    for (const p of pIds) {
      const prefix = `${sText}\t${rendered[p]!.text}\t`;
      const oIds = Object.keys(byPredicate[p]).map(Number);
      for (const o of oIds) render(o);
      if (oIds.length > 1) oIds.sort(byObjectKey);
      for (const o of oIds) {
        lines.push(prefix + rendered[o]!.text);
        if (withQuads) quads.push(DataFactory.quad(terms[s] as RDF.Quad_Subject, terms[p] as RDF.Quad_Predicate, terms[o] as RDF.Quad_Object, graphTerm) as unknown as RDF.Quad);
      }
    }
    blockStarts.push(lines.length);
  }
  return { quads, lines, blockStarts };
}
