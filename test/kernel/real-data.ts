/**
 * Shared by the real-data suites and the bench: the DBpedia schema, the QALD-9 train
 * gold queries, the near-miss mutation of one schema term per query, and the W3C
 * SPARQL 1.1 query files. Everything reads ../shared/data (absent in a user's clone).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { compactIri } from "../../ts/kernel/algebra.js";
import { Schema, createKernel, parseSparql, type Kernel, type Iri, type Path, type Pattern, type Group, type Query, type Expr, type Term } from "../../ts/kernel/index.js";
import { mulberry32 } from "../prng.js";

export const SHARED = new URL("../../../shared/data/", import.meta.url);
export const hasShared = existsSync(SHARED);
export const DBPEDIA_ONTOLOGY = fileURLToPath(new URL("rdf/dbpedia-ontology.ttl", SHARED));
export const QALD9_TRAIN = fileURLToPath(new URL("sparql/qald9/qald-9-train-multilingual.json", SHARED));
export const W3C_SPARQL11 = fileURLToPath(new URL("sparql/w3c-sparql11/", SHARED));

/** The prefixes DBpedia's endpoint (Virtuoso) predeclares; QALD-9's gold queries were run there and some rely on them. */
export const DBPEDIA_ENDPOINT_PREFIXES: Record<string, string> = {
  dbo: "http://dbpedia.org/ontology/",
  dbr: "http://dbpedia.org/resource/",
  res: "http://dbpedia.org/resource/",
  dbp: "http://dbpedia.org/property/",
  yago: "http://dbpedia.org/class/yago/",
  foaf: "http://xmlns.com/foaf/0.1/",
  dct: "http://purl.org/dc/terms/",
  skos: "http://www.w3.org/2004/02/skos/core#",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

let cached: Kernel | null = null;
/** The kernel over the DBpedia ontology (parsed once per process). */
export function dbpediaKernel(): Kernel {
  return (cached ??= createKernel(Schema.fromGraph(loadGraphFile(DBPEDIA_ONTOLOGY))));
}

export interface GoldQuery {
  id: string;
  question: string;
  sparql: string;
}

/** QALD-9 train: id, English question, gold SPARQL. */
export function qaldTrain(): GoldQuery[] {
  const data = JSON.parse(readFileSync(QALD9_TRAIN, "utf8")) as {
    questions: { id: string; question: { language: string; string: string }[]; query: { sparql: string } }[];
  };
  return data.questions.map((q) => ({ id: q.id, question: q.question.find((x) => x.language === "en")?.string ?? "", sparql: q.query.sparql }));
}

/** Every IRI the query uses as a schema term (a predicate, or the class of rdf:type), with its span. */
export function schemaTermsOf(q: Query): { iri: Iri; role: "property" | "class" }[] {
  const out: { iri: Iri; role: "property" | "class" }[] = [];
  const path = (p: Path | Iri | { kind: "var" }): void => {
    if (p.kind === "iri") out.push({ iri: p, role: "property" });
    else if (p.kind === "link") out.push({ iri: p.iri, role: "property" });
    else if (p.kind === "inv" || p.kind === "mod") path(p.path);
    else if (p.kind === "seq" || p.kind === "alt" || p.kind === "nps") p.items.forEach(path);
  };
  const group = (g: Group) => g.patterns.forEach(pattern);
  const pattern = (p: Pattern): void => {
    if (p.type === "bgp")
      for (const t of p.triples) {
        path(t.p);
        if (t.p.kind === "iri" && t.p.value.endsWith("#type") && t.o.kind === "iri") out.push({ iri: t.o, role: "class" });
      }
    else if (p.type === "group") group(p);
    else if (p.type === "optional" || p.type === "minus" || p.type === "graph" || p.type === "service") group(p.group);
    else if (p.type === "union") p.branches.forEach(group);
    else if (p.type === "subquery") group(p.query.where);
  };
  group(q.where);
  return out;
}

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

/**
 * Every IRI the query uses outside the schema-term positions: the subject and object of a
 * triple pattern (not the class of rdf:type, also as a path's first step), VALUES cells, and
 * IRI constants of FILTER/BIND/projection/HAVING/ORDER BY/GROUP BY expressions.
 */
export function nodeTermsOf(q: Query): Iri[] {
  const out: Iri[] = [];
  const term = (t: Term | undefined) => {
    if (t?.kind === "iri") out.push(t);
  };
  const expr = (e: Expr): void => {
    if (e.kind === "term") term(e.term);
    else if (e.kind === "call") e.args.forEach(expr);
    else if (e.kind === "aggregate") {
      if (e.arg !== "*") expr(e.arg);
    } else group(e.group);
  };
  const first = (p: Path | Iri | { kind: "var" }): string | undefined =>
    p.kind === "iri" ? p.value : p.kind === "link" ? p.iri.value : p.kind === "seq" ? first(p.items[0]) : undefined;
  const group = (g: Group) => g.patterns.forEach(pattern);
  const pattern = (p: Pattern): void => {
    if (p.type === "bgp")
      for (const t of p.triples) {
        term(t.s);
        if (first(t.p) !== RDF_TYPE) term(t.o);
      }
    else if (p.type === "group") group(p);
    else if (p.type === "optional" || p.type === "minus" || p.type === "graph" || p.type === "service") group(p.group);
    else if (p.type === "union") p.branches.forEach(group);
    else if (p.type === "filter" || p.type === "bind") expr(p.expr);
    else if (p.type === "values") p.rows.forEach((r) => r.forEach(term));
    else if (p.type === "subquery") query(p.query);
  };
  const query = (x: Query) => {
    group(x.where);
    if (x.projection !== "*") for (const c of x.projection) if (c.expr) expr(c.expr);
    x.having.forEach(expr);
    x.orderBy.forEach((o) => expr(o.expr));
    x.groupBy.forEach((g) => expr(g.expr));
    x.values?.rows.forEach((r) => r.forEach(term));
  };
  query(q);
  return out;
}

/** One or two character edits (substitute, delete, insert, swap neighbours) of a local name, deterministic in `rnd`. */
export function nearMiss(local: string, rnd: () => number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let s = local;
  const edits = rnd() < 0.5 ? 1 : 2;
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(rnd() * s.length);
    const c = letters[Math.floor(rnd() * 26)];
    const kind = Math.floor(rnd() * 4);
    if (kind === 0) s = s.slice(0, i) + (c === s[i] ? letters[(letters.indexOf(c) + 1) % 26] : c) + s.slice(i + 1);
    else if (kind === 1 && s.length > 2) s = s.slice(0, i) + s.slice(i + 1);
    else if (kind === 2) s = s.slice(0, i) + c + s.slice(i);
    else if (i + 1 < s.length && s[i] !== s[i + 1]) s = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
    else s = s.slice(0, i) + c + s.slice(i);
  }
  return s;
}

export interface Mutation {
  id: string;
  original: string;
  mutated: string;
  text: string;
  /** The original term as the kernel names it (for comparing with did-you-mean). */
  originalName: string;
}

/**
 * For every gold query that uses a known term of a described namespace: replace one such
 * term (chosen by a PRNG seeded with the query id) by a near miss that is not itself a term.
 * Only predicates and classes of rdf:type are mutated: QALD-9 train has no described (dbo:)
 * IRI in any other position (see `nodeTermsOf`).
 */
export function mutateGoldQueries(kernel: Kernel, queries: GoldQuery[]): Mutation[] {
  const schema = kernel.schema;
  const out: Mutation[] = [];
  for (const g of queries) {
    let q: Query;
    try {
      q = parseSparql(g.sparql, { prefixes: DBPEDIA_ENDPOINT_PREFIXES });
    } catch {
      continue;
    }
    const terms = schemaTermsOf(q).filter(
      ({ iri, role }) => iri.at?.span && schema.describes(iri.value) && (role === "class" ? schema.isClass(iri.value) : schema.isProperty(iri.value)) && !iri.value.startsWith("http://www.w3.org/"),
    );
    if (!terms.length) continue;
    const rnd = mulberry32(Number(g.id) * 7919 + 1);
    const { iri } = terms[Math.floor(rnd() * terms.length)];
    const span = iri.at!.span!;
    const written = g.sparql.slice(span.start, span.end);
    const cut = Math.max(iri.value.lastIndexOf("/"), iri.value.lastIndexOf("#")) + 1;
    const local = iri.value.slice(cut);
    let mutated = local;
    for (let tries = 0; tries < 20 && (mutated === local || schema.isClass(iri.value.slice(0, cut) + mutated) || schema.isProperty(iri.value.slice(0, cut) + mutated) || !/^[A-Za-z0-9_]+$/.test(mutated)); tries++)
      mutated = nearMiss(local, rnd);
    if (mutated === local) continue;
    const replacement = written.startsWith("<") ? `<${iri.value.slice(0, cut)}${mutated}>` : written.slice(0, written.length - local.length) + mutated;
    const text = g.sparql.slice(0, span.start) + replacement + g.sparql.slice(span.end);
    out.push({ id: g.id, original: iri.value, mutated: iri.value.slice(0, cut) + mutated, text, originalName: compactIri(iri.value, { ...DBPEDIA_ENDPOINT_PREFIXES, ...q.prefixes }) });
  }
  return out;
}

export const WORDNET = fileURLToPath(new URL("rdf/wordnet30-noun-taxonomy.nt", SHARED));

/**
 * The rdfs:subClassOf edges of the WordNet noun taxonomy, interned to ids in order of
 * first appearance. A line scan of the N-Triples file (one triple a line, IRIs in <>):
 * ten times faster than a full parse, which the closure does not need.
 */
export function wordnetSubclassEdges(): { n: number; child: Uint32Array; parent: Uint32Array; iris: string[] } {
  const text = readFileSync(WORDNET, "utf8");
  const ids = new Map<string, number>();
  const iris: string[] = [];
  const id = (iri: string) => {
    let v = ids.get(iri);
    if (v === undefined) ids.set(iri, (v = iris.push(iri) - 1));
    return v;
  };
  const child: number[] = [];
  const parent: number[] = [];
  const SUB = " <http://www.w3.org/2000/01/rdf-schema#subClassOf> ";
  for (const line of text.split("\n")) {
    const at = line.indexOf(SUB);
    if (at < 0 || line.startsWith("#")) continue;
    const s = line.slice(1, at - 1);
    const rest = line.slice(at + SUB.length).trim();
    const o = rest.slice(1, rest.indexOf(">"));
    child.push(id(s));
    parent.push(id(o));
  }
  return { n: iris.length, child: Uint32Array.from(child), parent: Uint32Array.from(parent), iris };
}
