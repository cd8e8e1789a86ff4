/**
 * SPARQL dialects: what an engine accepts beyond SPARQL 1.1, read as the standard form it means.
 *
 * `sparql11` (the default) is the W3C grammar as Traqula parses it. `virtuoso` is OpenLink
 * Virtuoso's (the engine behind DBpedia's endpoint): it also accepts an aggregate or a function
 * call written bare as a SELECT column (`SELECT DISTINCT COUNT(?uri)`, `SELECT COUNT DISTINCT ?x`,
 * `SELECT COUNT(?s) AS ?n`, `COUNT(DISTINCT ?u AS ?u)`, `SELECT xsd:date(?d)`, `SELECT (?o + 1)`),
 * naming the column `callret-N`, and it predeclares the namespace prefixes of
 * {@link VIRTUOSO_PREFIXES}. Each of these forms was run on Virtuoso 7.2 (Debian's
 * virtuoso-opensource, test/kernel/dialect-virtuoso.test.ts) before the dialect accepted it.
 *
 * How: there is no second grammar. The query is parsed by Traqula; when the parse fails at a slip
 * syntax-hints.ts already explains, and that slip is one of the extensions above, the hint's
 * edit (the standard form, `(COUNT(?uri) AS ?n)`) is written into the text and the parse runs
 * again, at most {@link MAX_DIALECT_REWRITES} times. This is a bounded, token-level pre-pass
 * driven by the parser's own error positions: it cannot accept anything the parser would not
 * accept once the standard form is in place, so an extension the dialect does not know (bif:
 * functions, `DEFINE` pragmas, SQL calls…) stays a syntax error. Every rewrite becomes a warning
 * (`dialect-extension`) at the place it was written, naming the standard form and the fix; the
 * checked query, and the query `runCheckedPlan` sends, is the standard form. Spans of the parsed
 * query are mapped back to the text as written.
 */
import type { Query, Span } from "./algebra.js";
import type { Diagnostic } from "./check/diagnostics.js";
import { createLineIndex, offsetOf, parseSparql, SparqlSyntaxError } from "./sparql.js";
import type { SyntaxEdit } from "./syntax-hints.js";
import { checkArgs } from "../args.js";

/** The dialects a plan's text may be written in. */
export const SPARQL_DIALECTS = ["sparql11", "virtuoso"] as const;
export type SparqlDialect = (typeof SPARQL_DIALECTS)[number];

/** Rewrites one query may need before it parses (LC-QuAD and QALD-9 need at most one). */
export const MAX_DIALECT_REWRITES = 16;

/**
 * The namespace prefixes every Virtuoso 7.2 instance predeclares (its built-in list, as the
 * endpoint's own page shows it at `/sparql?nsdecl` on a fresh Debian virtuoso-opensource 7.2
 * install), less `bif:` and `sql:`, which name Virtuoso's SQL functions: the dialect does not
 * know those functions, so a query calling them stays an error.
 */
export const VIRTUOSO_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  dawgt: "http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#",
  dbpedia: "http://dbpedia.org/resource/",
  dbpprop: "http://dbpedia.org/property/",
  dc: "http://purl.org/dc/elements/1.1/",
  fn: "http://www.w3.org/2005/xpath-functions/#",
  foaf: "http://xmlns.com/foaf/0.1/",
  geo: "http://www.w3.org/2003/01/geo/wgs84_pos#",
  go: "http://purl.org/obo/owl/GO#",
  ldp: "http://www.w3.org/ns/ldp#",
  math: "http://www.w3.org/2000/10/swap/math#",
  mesh: "http://purl.org/commons/record/mesh/",
  mf: "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#",
  nci: "http://ncicb.nci.nih.gov/xml/owl/EVS/Thesaurus.owl#",
  obo: "http://www.geneontology.org/formats/oboInOwl#",
  ogc: "http://www.opengis.net/",
  ogcgml: "http://www.opengis.net/ont/gml#",
  ogcgs: "http://www.opengis.net/ont/geosparql#",
  ogcgsf: "http://www.opengis.net/def/function/geosparql/",
  ogcgsr: "http://www.opengis.net/def/rule/geosparql/",
  ogcsf: "http://www.opengis.net/ont/sf#",
  owl: "http://www.w3.org/2002/07/owl#",
  product: "http://www.buy.com/rss/module/productV2/",
  protseq: "http://purl.org/science/protein/bysequence/",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfa: "http://www.w3.org/ns/rdfa#",
  rdfdf: "http://www.openlinksw.com/virtrdf-data-formats#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  sc: "http://purl.org/science/owl/sciencecommons/",
  scovo: "http://purl.org/NET/scovo#",
  sd: "http://www.w3.org/ns/sparql-service-description#",
  sioc: "http://rdfs.org/sioc/ns#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  vcard: "http://www.w3.org/2001/vcard-rdf/3.0#",
  vcard2006: "http://www.w3.org/2006/vcard/ns#",
  virtcxml: "http://www.openlinksw.com/schemas/virtcxml#",
  virtrdf: "http://www.openlinksw.com/schemas/virtrdf#",
  void: "http://rdfs.org/ns/void#",
  xf: "http://www.w3.org/2004/07/xpath-functions",
  xml: "http://www.w3.org/XML/1998/namespace",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  xsl10: "http://www.w3.org/XSL/Transform/1.0",
  xsl1999: "http://www.w3.org/1999/XSL/Transform",
  xslwd: "http://www.w3.org/TR/WD-xsl",
  yago: "http://dbpedia.org/class/yago/",
});

/**
 * Prefix presets: the prefixes a known public endpoint predeclares, by name (`--prefixes dbpedia`).
 *
 * `dbpedia`: Virtuoso's built-in list above plus the prefixes DBpedia's endpoint adds. The
 * endpoint lists them on its "Namespace Prefixes" page (https://dbpedia.org/sparql?nsdecl); this
 * list was NOT read from that page (it is out of this build's reach) but from the namespaces
 * DBpedia's data and documentation use, so compare it with that page before relying on a rare
 * prefix: the DBpedia namespaces `dbo` (ontology), `dbr` (resource), `dbp` (property),
 * `dbc` (Category:), `dbt` (Template:), `dbd` (datatype), `yago`, and the vocabularies its data uses
 * (`dct`, `georss`, `prov`, `schema`, `wikidata`, `umbel-rc`…). QALD-9 and LC-QuAD were written
 * against this endpoint and rely on it (QALD-9 train #115 uses `dbo:` and `yago:` undeclared).
 */
export const PREFIX_PRESETS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  dbpedia: Object.freeze({
    ...VIRTUOSO_PREFIXES,
    dbo: "http://dbpedia.org/ontology/",
    dbr: "http://dbpedia.org/resource/",
    dbp: "http://dbpedia.org/property/",
    dbc: "http://dbpedia.org/resource/Category:",
    dbt: "http://dbpedia.org/resource/Template:",
    dbd: "http://dbpedia.org/datatype/",
    dct: "http://purl.org/dc/terms/",
    georss: "http://www.georss.org/georss/",
    prov: "http://www.w3.org/ns/prov#",
    schema: "http://schema.org/",
    wikidata: "http://www.wikidata.org/entity/",
    "umbel-rc": "http://umbel.org/umbel/rc/",
    "yago-res": "http://yago-knowledge.org/resource/",
  }),
});

/** The names of {@link PREFIX_PRESETS}. */
export const PREFIX_PRESET_NAMES = Object.keys(PREFIX_PRESETS);

/** The prefixes a dialect predeclares (Virtuoso's built-in list; none for SPARQL 1.1). */
export function dialectPrefixes(dialect: SparqlDialect = "sparql11"): Record<string, string> {
  checkArgs("dialectPrefixes", arguments, "dialect?:=sparql11/virtuoso");
  return dialect === "virtuoso" ? { ...VIRTUOSO_PREFIXES } : {};
}

const EXTENSION_WORDS: Record<NonNullable<SyntaxEdit["extension"]>, string> = {
  "bare-aggregate": "an aggregate written bare in SELECT",
  "unnamed-expression": "an expression in SELECT without a name",
  "bare-call": "a function call written bare in SELECT",
};

/**
 * Parse a query written in `dialect`: as {@link parseSparql}, plus, for `virtuoso`, the
 * extensions of the module comment read as their standard form, each reported in `notes`
 * (warnings, code `dialect-extension`, spans in `text` as written).
 * @throws SparqlSyntaxError as parseSparql, at its place in `text` as written; an extension the dialect does not know stays one
 */
export function parseSparqlDialect(text: string, options: { prefixes?: Record<string, string>; dialect?: SparqlDialect } = {}): { query: Query; notes: Diagnostic[] } {
  checkArgs("parseSparqlDialect", arguments, "text:string options?:object");
  const dialect = options.dialect ?? "sparql11";
  if (dialect === "sparql11") return { query: parseSparql(text, { prefixes: options.prefixes }), notes: [] };
  const prefixes = { ...dialectPrefixes(dialect), ...options.prefixes };
  const edits: { start: number; oldEnd: number; newEnd: number }[] = [];
  const notes: Diagnostic[] = [];
  const lineOfOriginal = createLineIndex(text);
  // an offset of the rewritten text → the offset in `text` (inside a rewrite: where it starts)
  const back = (offset: number): number => {
    let o = offset;
    for (let k = edits.length - 1; k >= 0; k--) {
      const e = edits[k]!;
      if (o >= e.newEnd) o = o - e.newEnd + e.oldEnd;
      else if (o > e.start) o = e.start;
    }
    return o;
  };
  const spanBack = (s: Span): Span => {
    const start = back(s.start);
    const end = Math.max(start, back(s.end));
    return { start, end, ...lineOfOriginal(start) };
  };
  let current = text;
  for (let round = 0; ; round++) {
    try {
      const query = parseSparql(current, { prefixes });
      if (edits.length) remapSpans(query, spanBack);
      return { query, notes };
    } catch (error) {
      if (!(error instanceof SparqlSyntaxError)) throw error;
      const edit = error.edit;
      if (!edit?.extension || round >= MAX_DIALECT_REWRITES) throw edits.length ? moved(error, current, back, lineOfOriginal) : error;
      const written = current.slice(edit.start, edit.end);
      const start = back(edit.start);
      const span: Span = { start, end: back(edit.end), ...lineOfOriginal(start) };
      notes.push({
        code: "dialect-extension",
        severity: "warning",
        message: `Virtuoso syntax: ${EXTENSION_WORDS[edit.extension]}, ${written.replace(/\s+/g, " ")}; standard SPARQL 1.1 writes ${edit.text} (read as that)`,
        span,
        fix: `write ${edit.text}`,
      });
      current = current.slice(0, edit.start) + edit.text + current.slice(edit.end);
      edits.push({ start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.text.length });
    }
  }
}

/** A syntax error of the rewritten text, placed in the text as written. */
function moved(error: SparqlSyntaxError, current: string, back: (offset: number) => number, lineOf: (offset: number) => { line: number; column: number }): SparqlSyntaxError {
  const offset = offsetOf(current, error.line, error.column);
  if (offset < 0) return error;
  const { line, column } = lineOf(back(offset));
  const placed = new SparqlSyntaxError(line, column, error.detail, error.fix, { code: error.code, status: error.status });
  if (error.edit) placed.edit = error.edit;
  return placed;
}

/** Replace every `span` of the query's nodes (plain data) with its place in the text as written. */
function remapSpans(node: unknown, map: (s: Span) => Span, seen = new WeakSet<object>()): void {
  if (node === null || typeof node !== "object" || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) remapSpans(item, map, seen);
    return;
  }
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === "span" && value && typeof value === "object" && typeof (value as Span).start === "number" && typeof (value as Span).end === "number") record[key] = map(value as Span);
    else remapSpans(value, map, seen);
  }
}
