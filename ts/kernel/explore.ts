/**
 * Show a model the schema it should write against: search its classes and properties by label or
 * local name, and describe one term (label, comment, domain, range, super- and subclasses, the
 * properties whose domain it is), with example triples from a store when one is given. Every
 * list is bounded so the answer stays small enough for a model to read.
 *
 * Ranking of a search, best first: the local name or label equal to the text (case-insensitive);
 * then a local name or label starting with it; then one containing it (as a word first); then the
 * kernel's did-you-mean near misses (`closest`: Levenshtein with transpositions, ≤ 2 edits, 3 for
 * 12+ characters). Ties: classes before properties, then the shorter name, then code-unit order.
 */
import { compactIri, emptyQuery, toSparql, type Query, type Term } from "./algebra.js";
import { closest } from "./check/did-you-mean.js";
import { expandName } from "./goal.js";
import type { Schema } from "./schema.js";
import { RDF_TYPE } from "./schema.js";
import type { SparqlStore } from "./store.js";
import { formatResultTerm } from "./run.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

/** Most hits a search returns, and most entries of each list of a term's description. */
export const MAX_EXPLORE_ITEMS = 50;
/** Longest comment shown, in characters (longer ones end in `…`). */
const MAX_COMMENT = 300;

/** One search hit. */
export interface SchemaHit {
  iri: string;
  /** The IRI with the schema's prefixes (`dbo:birthPlace`). */
  name: string;
  kind: "class" | "property";
  label?: string;
  /** Why it matched: `exact`, `prefix`, `contains`, `near` (a did-you-mean near miss). */
  match: "exact" | "prefix" | "contains" | "near";
}

/** A term described. Lists are cut at `limit`; `more` counts what was left out of each. */
export interface TermDescription {
  iri: string;
  name: string;
  kind: "class" | "property" | "datatype" | "unknown";
  label?: string;
  comment?: string;
  /** Property: its domains and ranges, inherited through rdfs:subPropertyOf included. */
  domains?: string[];
  ranges?: string[];
  /** Property: object (an entity), datatype (a literal) or unknown. */
  propertyKind?: "object" | "datatype" | "unknown";
  superProperties?: string[];
  /** Class: stated superclasses and subclasses (direct). */
  superClasses?: string[];
  subClasses?: string[];
  /** Class: properties whose stated domain it is. */
  properties?: string[];
  /** Entries left out of each list past the limit. */
  more: Record<string, number>;
  /** For an unknown term: the did-you-mean candidates. */
  candidates?: string[];
  /** Example triples from the store, as text (`dbr:Oslo dbo:country dbr:Norway`). */
  examples?: string[];
}

function localName(iri: string): string {
  const cut = Math.max(iri.lastIndexOf("#"), iri.lastIndexOf("/"), iri.lastIndexOf(":"));
  return iri.slice(cut + 1);
}

/**
 * Classes and properties of `schema` matching `text` (see the module comment for the ranking).
 * @param limit hits at most (1–{@link MAX_EXPLORE_ITEMS}, default 10)
 * @param options.prefixes prefixes to write names with besides the schema's (an endpoint's predeclared ones)
 */
export function searchSchema(schema: Schema, text: string, limit = 10, options: { prefixes?: Record<string, string> } = {}): SchemaHit[] {
  checkArgs("searchSchema", arguments, "schema:schema text:string limit?:int options?:object");
  const prefixes = displayPrefixes(schema, options.prefixes);
  const want = text.trim().toLowerCase();
  if (!want) return [];
  const n = Math.max(1, Math.min(MAX_EXPLORE_ITEMS, Math.floor(limit)));
  const terms: { iri: string; kind: "class" | "property" }[] = [];
  // the RDF, RDFS, OWL and XSD vocabularies are every schema's: found by their exact name only
  const own = (iri: string) => schema.describes(iri) && !BUILT_IN.some((ns) => iri.startsWith(ns));
  for (const c of schema.classes) if (own(c) || localName(c).toLowerCase() === want) terms.push({ iri: c, kind: "class" });
  for (const p of schema.properties.keys()) if (own(p) || localName(p).toLowerCase() === want) terms.push({ iri: p, kind: "property" });
  const scored: { hit: SchemaHit; score: number }[] = [];
  const byLocal = new Map<string, { iri: string; kind: "class" | "property" }[]>();
  for (const t of terms) {
    const local = localName(t.iri);
    const label = schema.labels.get(t.iri);
    const keys = [local.toLowerCase(), ...(label ? [label.toLowerCase()] : [])];
    let match: SchemaHit["match"] | null = null;
    let score = 9;
    if (keys.some((k) => k === want)) (match = "exact"), (score = 0);
    else if (keys.some((k) => k.startsWith(want))) (match = "prefix"), (score = 1);
    else if (keys.some((k) => startsAWord(k, want))) (match = "contains"), (score = 2);
    else if (keys.some((k) => k.includes(want))) (match = "contains"), (score = 3);
    if (match) scored.push({ hit: hitOf(schema, prefixes, t.iri, t.kind, match), score });
    else {
      const list = byLocal.get(local);
      if (list) list.push(t);
      else byLocal.set(local, [t]);
    }
  }
  if (scored.length < n) {
    // the kernel's did-you-mean over the local names (case as typed: `birthplace` finds `birthPlace`)
    for (const local of closest(text.trim(), [...byLocal.keys()])) for (const t of byLocal.get(local)!) scored.push({ hit: hitOf(schema, prefixes, t.iri, t.kind, "near"), score: 4 });
  }
  scored.sort((a, b) => a.score - b.score || (a.hit.kind === b.hit.kind ? 0 : a.hit.kind === "class" ? -1 : 1) || a.hit.name.length - b.hit.name.length || (a.hit.name < b.hit.name ? -1 : a.hit.name > b.hit.name ? 1 : 0));
  return scored.slice(0, n).map((s) => s.hit);
}

const BUILT_IN = ["http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2000/01/rdf-schema#", "http://www.w3.org/2002/07/owl#", "http://www.w3.org/2001/XMLSchema#"];

/** The schema's prefixes and the caller's (an endpoint's predeclared ones win), without an empty prefix another prefix also names. */
function displayPrefixes(schema: Schema, extra: Record<string, string> = {}): Record<string, string> {
  const all: Record<string, string> = { ...schema.prefixes, ...extra };
  if (all[""] !== undefined && Object.entries(all).some(([p, ns]) => p !== "" && ns === all[""])) delete all[""];
  return all;
}

function hitOf(schema: Schema, prefixes: Record<string, string>, iri: string, kind: "class" | "property", match: SchemaHit["match"]): SchemaHit {
  const hit: SchemaHit = { iri, name: compactIri(iri, prefixes), kind, match };
  const label = schema.labels.get(iri);
  if (label !== undefined) hit.label = label;
  return hit;
}

/** A term as written (`dbo:birthPlace`, `<http://…>` or a full IRI) as an IRI. @throws GroundwireError (400) for an undeclared prefix */
export function termIri(schema: Schema, term: string, prefixes?: Record<string, string>): string {
  checkArgs("termIri", arguments, "schema:schema term:string prefixes?:prefixes");
  prefixes ??= schema.prefixes;
  const t = term.trim();
  if (t.startsWith("<") && t.endsWith(">")) return t.slice(1, -1);
  const iri = expandName(t, prefixes);
  if (iri === undefined) throw new GroundwireError(`term: ${JSON.stringify(t.slice(0, 200))} is neither an IRI nor a prefixed name of the schema's prefixes (${Object.keys(prefixes).filter(Boolean).sort().join(", ") || "none"})`, { code: "bad_request", status: 400 });
  return iri;
}

/**
 * Describe one term of `schema`; with `store`, up to `examples` triples that use it (a class: its
 * instances' `rdf:type` triples; a property: triples with it as predicate), asked with a query
 * built on the algebra (never text pasting) and bounded by LIMIT.
 * @param limit entries at most per list (1–{@link MAX_EXPLORE_ITEMS}, default 20)
 */
export async function describeTerm(schema: Schema, term: string, options: { limit?: number; store?: SparqlStore; examples?: number; prefixes?: Record<string, string> } = {}): Promise<TermDescription> {
  checkArgs("describeTerm", arguments, "schema:schema term:string options?:object");
  const prefixes = displayPrefixes(schema, options.prefixes);
  const iri = termIri(schema, term, { ...schema.prefixes, ...options.prefixes });
  const n = Math.max(1, Math.min(MAX_EXPLORE_ITEMS, Math.floor(options.limit ?? 20)));
  const name = (x: string) => compactIri(x, prefixes);
  const more: Record<string, number> = {};
  const list = (key: string, values: Iterable<string>): string[] => {
    const all = [...new Set(values)].map(name).sort();
    if (all.length > n) more[key] = all.length - n;
    return all.slice(0, n);
  };
  const isClass = schema.classes.has(iri);
  const isProperty = schema.properties.has(iri);
  const out: TermDescription = { iri, name: name(iri), kind: isClass ? "class" : isProperty ? "property" : schema.datatypes.has(iri) ? "datatype" : "unknown", more };
  const label = schema.labels.get(iri);
  if (label !== undefined) out.label = label;
  const comment = schema.comments.get(iri);
  if (comment !== undefined) out.comment = comment.length > MAX_COMMENT ? `${comment.slice(0, MAX_COMMENT - 1)}…` : comment;
  if (isProperty) {
    out.propertyKind = schema.properties.get(iri)!.kind;
    out.domains = list("domains", schema.domainsOf(iri));
    out.ranges = list("ranges", schema.rangesOf(iri));
    out.superProperties = list("superProperties", schema.superPropertiesOf.get(iri) ?? []);
  }
  if (isClass) {
    out.superClasses = list("superClasses", schema.superClassesOf.get(iri) ?? []);
    out.subClasses = list("subClasses", schema.subClassesOf.get(iri) ?? []);
    out.properties = list("properties", [...schema.properties.values()].filter((p) => p.domains.includes(iri)).map((p) => p.iri));
  }
  if (out.kind === "unknown") {
    const bucket = schema.termsByNamespace.get(iri.slice(0, iri.length - localName(iri).length));
    const pool = bucket ? [...bucket.classes, ...bucket.properties].map(localName) : [];
    const near = closest(localName(iri), pool);
    out.candidates = near.map((l) => name(iri.slice(0, iri.length - localName(iri).length) + l));
  }
  if (options.store && (isClass || isProperty)) out.examples = await examplesOf(options.store, iri, isClass, Math.max(1, Math.min(20, options.examples ?? 5)), prefixes);
  return out;
}

/**
 * The example triples {@link describeTerm} adds with a store, for a description made without
 * one (a server describes in a worker and asks the endpoint from its main thread).
 * @returns the description with `examples` set (a class or property), else as given
 */
export async function addTermExamples(schema: Schema, description: TermDescription, store: SparqlStore, options: { examples?: number; prefixes?: Record<string, string> } = {}): Promise<TermDescription> {
  checkArgs("addTermExamples", arguments, "schema:schema description:object store:sparqlStore options?:object");
  if (description.kind !== "class" && description.kind !== "property") return description;
  const examples = await examplesOf(store, description.iri, description.kind === "class", Math.max(1, Math.min(20, options.examples ?? 5)), displayPrefixes(schema, options.prefixes));
  return { ...description, examples };
}

async function examplesOf(store: SparqlStore, iri: string, isClass: boolean, count: number, prefixes: Record<string, string>): Promise<string[]> {
  const s: Term = { kind: "var", name: "s" };
  const o: Term = { kind: "var", name: "o" };
  const query: Query = emptyQuery({});
  query.projection = isClass ? [{ variable: s }] : [{ variable: s }, { variable: o }];
  query.where.patterns.push({ type: "bgp", triples: [isClass ? { s, p: { kind: "iri", value: RDF_TYPE }, o: { kind: "iri", value: iri } } : { s, p: { kind: "iri", value: iri }, o }] });
  query.limit = count;
  const answer = await store.query(toSparql(query));
  if (answer.kind !== "bindings") return [];
  const term = formatResultTerm({ type: "uri", value: iri }, prefixes);
  // at most `count`, even from a store that ignores the LIMIT it was sent
  return answer.rows.slice(0, count).map((r) => (isClass ? `${formatResultTerm(r.s, prefixes)} a ${term}` : `${formatResultTerm(r.s, prefixes)} ${term} ${formatResultTerm(r.o, prefixes)}`));
}

/** Whether `want` occurs in `key` at the start of a word (after a character that is not a letter, digit or `_`): "label" in "rdfs label". */
function startsAWord(key: string, want: string): boolean {
  if (!want) return false;
  for (let at = key.indexOf(want); at >= 0; at = key.indexOf(want, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}_]/u.test(key[at - 1]!)) return true;
  }
  return false;
}
