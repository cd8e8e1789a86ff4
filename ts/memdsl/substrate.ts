/**
 * The substrate: a neighborhood of nodes and edges, assembled from an RDF graph
 * around a focus. This is what the renderer reads; it holds raw (unwrapped,
 * untrusted) text.
 */
import type * as RDF from "@rdfjs/types";
import type { Graph } from "../rdf/index.js";
import { compactIri, STANDARD_PREFIXES } from "./address.js";
import { compareCodePoints } from "./text.js";
import { MEMDSL_NS, WELL_KNOWN } from "./vocab.js";
import { GroundwireError, ArgumentError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

/** One node: its address token (an absolute IRI, or `_:label` for a blank node, which is unaddressable), what it is, and its text. */
export interface Node {
  token: string;
  /** Its types, compacted and joined by ", ", or "resource". */
  kind: string;
  /** Short name (a label); "" when there is none. Untrusted. */
  title: string;
  /** Longer text (a comment and other literals); "" when there is none. Untrusted. */
  body: string;
}

/** A directed edge `src --relation--> dst` between node tokens; `relation` is a compact IRI. */
export interface Edge {
  src: string;
  dst: string;
  relation: string;
}

/** Nodes and edges, in any order: the renderer imposes its own. */
export interface Neighborhood {
  nodes: Node[];
  edges: Edge[];
}

/** A neighborhood assembled from a graph, with how it was cut. */
export interface AssembledNeighborhood extends Neighborhood {
  /** The focus token. */
  focus: string;
  hops: number;
  /**
   * Tokens whose every edge is in the neighborhood (distance < hops from the
   * focus), in code point order: pass them as `expanded` to renderNeighborhood.
   */
  expanded: string[];
}

/** The focus named is not a node of the graph. */
export class UnknownFocusError extends GroundwireError {
  constructor(
    readonly focus: string,
    readonly source: string,
  ) {
    super(`unknown focus <${focus}>: it occurs in no triple of ${source}`, { code: "bad_request", status: 400 });
    this.name = "UnknownFocusError";
  }
}

const TITLE_PREDICATES = [
  WELL_KNOWN.rdfsLabel,
  WELL_KNOWN.skosPrefLabel,
  WELL_KNOWN.schemaName,
  WELL_KNOWN.schemaNameHttp,
  WELL_KNOWN.dctermsTitle,
  WELL_KNOWN.dcTitle,
];
const BODY_PREDICATES = [
  WELL_KNOWN.rdfsComment,
  WELL_KNOWN.skosDefinition,
  WELL_KNOWN.dctermsDescription,
  WELL_KNOWN.schemaDescription,
  WELL_KNOWN.schemaDescriptionHttp,
];
const TEXT_PREDICATES = new Set<string>([...TITLE_PREDICATES, ...BODY_PREDICATES]);

/**
 * Types in these namespaces (rdfs:Class, owl:Class, rdf:Property, skos:Concept…)
 * say what kind of term a node is; following them as edges would make every
 * class a neighbor of every other. They become the node's kind only.
 */
const META_TYPE_NAMESPACES = [
  "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  "http://www.w3.org/2000/01/rdf-schema#",
  "http://www.w3.org/2002/07/owl#",
  "http://www.w3.org/2004/02/skos/core#",
];

function isMetaType(iri: string): boolean {
  return META_TYPE_NAMESPACES.some((ns) => iri.startsWith(ns));
}

/** Is this triple an edge? Object is a node, predicate is not our own status vocabulary, and not a meta type. */
function isEdge(q: RDF.Quad): boolean {
  if (q.object.termType !== "NamedNode" && q.object.termType !== "BlankNode") return false;
  if (q.predicate.value.startsWith(MEMDSL_NS)) return false;
  if (q.predicate.value === WELL_KNOWN.rdfType && isMetaType(q.object.value)) return false;
  return true;
}

/** Token of a node term: the IRI itself, or `_:label` for a blank node. */
function tokenOf(term: RDF.Term): string {
  return term.termType === "BlankNode" ? `_:${term.value}` : term.value;
}

function termOf(token: string): RDF.Term {
  return (token.startsWith("_:") ? { termType: "BlankNode", value: token.slice(2) } : { termType: "NamedNode", value: token }) as RDF.Term;
}

/**
 * Rank of a language tag for choosing one literal: `en` first, then `en-*`,
 * then untagged, then any other tag (tags compared lowercased).
 */
function languageRank(lang: string): number {
  const l = lang.toLowerCase();
  if (l === "en") return 0;
  if (l.startsWith("en-")) return 1;
  if (l === "") return 2;
  return 3;
}

/**
 * Choose one literal deterministically: by language rank (see languageRank),
 * then by lowercased tag in code point order, then by value in code point order.
 * Input order never matters.
 */
export function pickLiteral(literals: readonly RDF.Literal[]): RDF.Literal | null {
  checkArgs("pickLiteral", arguments, "literals:array");
  let best: RDF.Literal | null = null;
  for (const lit of literals) {
    if (best === null) {
      best = lit;
      continue;
    }
    const d =
      languageRank(lit.language) - languageRank(best.language) ||
      compareCodePoints(lit.language.toLowerCase(), best.language.toLowerCase()) ||
      compareCodePoints(lit.value, best.value);
    if (d < 0) best = lit;
  }
  return best;
}

function describe(graph: Graph, token: string, prefixes: Record<string, string>): Node {
  const quads = graph.store.getQuads(termOf(token) as never, null, null, null) as unknown as RDF.Quad[];
  const literalsBy = new Map<string, RDF.Literal[]>();
  const types = new Set<string>();
  const otherLines: string[] = [];
  for (const q of quads) {
    const p = q.predicate.value;
    if (p === WELL_KNOWN.rdfType && q.object.termType === "NamedNode") types.add(compactIri(q.object.value, prefixes));
    if (q.object.termType !== "Literal") continue;
    if (TEXT_PREDICATES.has(p)) {
      const list = literalsBy.get(p) ?? [];
      list.push(q.object);
      literalsBy.set(p, list);
    } else if (!p.startsWith(MEMDSL_NS)) {
      otherLines.push(`${compactIri(p, prefixes)}: ${q.object.value}`);
    }
  }
  const firstOf = (preds: readonly string[]) => {
    for (const p of preds) {
      const lit = pickLiteral(literalsBy.get(p) ?? []);
      if (lit) return lit.value;
    }
    return "";
  };
  const comment = firstOf(BODY_PREDICATES);
  otherLines.sort(compareCodePoints);
  const body = otherLines.length ? (comment ? `${comment}\n\n` : "") + otherLines.join("\n") : comment;
  const kinds = [...types].sort(compareCodePoints);
  return { token, kind: kinds.length ? kinds.join(", ") : "resource", title: firstOf(TITLE_PREDICATES), body };
}

/**
 * Assemble the neighborhood of `focus` in `graph`: every node within `hops`
 * undirected steps, and every edge with at least one end closer than `hops`.
 *
 * - Edges are the triples whose object is an IRI or blank node, except
 *   `rdf:type` toward a meta type (rdf:/rdfs:/owl:/skos: terms such as
 *   owl:Class, which would make all classes neighbors) and the gwm: status
 *   vocabulary. Their relation is the predicate compacted with the graph's
 *   prefixes (then rdf, rdfs, owl, xsd, skos, prov, dcterms, gwm).
 * - Title: the first of rdfs:label, skos:prefLabel, schema:name, dcterms:title,
 *   dc:title that has a literal; body: likewise from rdfs:comment,
 *   skos:definition, dcterms:description, schema:description, followed by a
 *   blank line and one `pred: value` line per other literal (code point order).
 *   Among several literals of one predicate: `@en`, then `@en-*`, then
 *   untagged, then the first tag in code point order; ties by value.
 * - Kind: the node's rdf:type IRIs, compacted, in code point order, joined by ", ".
 * - Tokens: IRIs as they are; blank nodes as `_:label` (unaddressable, so the
 *   renderer drops them and logs it).
 *
 * The result's node and edge order is code point order of tokens (edges by
 * src, relation, dst), so the same graph in any triple order gives the same
 * neighborhood. O(edges touched × log).
 *
 * @param focus an absolute IRI (or `_:label`) that occurs in the graph
 * @param options.hops non-negative integer, default 1
 * @throws UnknownFocusError when the focus occurs in no triple; RangeError for a bad `hops`
 */
export function assembleNeighborhood(graph: Graph, focus: string, options: { hops?: number } = {}): AssembledNeighborhood {
  checkArgs("assembleNeighborhood", arguments, "graph:graph focus:text options?:object");
  const hops = options.hops ?? 1;
  if (!Number.isInteger(hops) || hops < 0) throw new ArgumentError("assembleNeighborhood", "options.hops", "a whole number ≥ 0", hops);
  const focusTerm = termOf(focus) as never;
  if (graph.store.countQuads(focusTerm, null, null, null) + graph.store.countQuads(null, null, focusTerm, null) === 0) {
    throw new UnknownFocusError(focus, graph.source ?? "the graph");
  }
  const prefixes = { ...STANDARD_PREFIXES, ...graph.prefixes };
  const distance = new Map<string, number>([[focus, 0]]);
  const edgeKeys = new Set<string>();
  const edges: Edge[] = [];
  let frontier = [focus];
  for (let d = 0; d < hops && frontier.length; d++) {
    const next: string[] = [];
    for (const token of frontier) {
      const term = termOf(token) as never;
      const touching = [
        ...(graph.store.getQuads(term, null, null, null) as unknown as RDF.Quad[]),
        ...(graph.store.getQuads(null, null, term, null) as unknown as RDF.Quad[]),
      ];
      for (const q of touching) {
        if (!isEdge(q)) continue;
        const src = tokenOf(q.subject);
        const dst = tokenOf(q.object);
        const relation = compactIri(q.predicate.value, prefixes);
        const key = `${src}\u0000${relation}\u0000${dst}`;
        if (!edgeKeys.has(key)) {
          edgeKeys.add(key);
          edges.push({ src, dst, relation });
        }
        for (const other of [src, dst]) {
          if (!distance.has(other)) {
            distance.set(other, d + 1);
            next.push(other);
          }
        }
      }
    }
    frontier = next;
  }
  const tokens = [...distance.keys()].sort(compareCodePoints);
  edges.sort((a, b) => compareCodePoints(a.src, b.src) || compareCodePoints(a.relation, b.relation) || compareCodePoints(a.dst, b.dst));
  return {
    nodes: tokens.map((t) => describe(graph, t, prefixes)),
    edges,
    focus,
    hops,
    expanded: tokens.filter((t) => distance.get(t)! < hops),
  };
}
