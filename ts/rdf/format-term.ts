/**
 * One RDF term as one line of text, for listings a model reads and for fingerprints
 * (DESIGN §1): `_:label`, `ex:Thing` or `<iri>`, `"lexical"@lang`, `"lexical"^^xsd:decimal`.
 *
 * Literals keep the lexical form the graph holds — `"7.50"^^xsd:decimal` is never shown
 * as `7.5`, `"98765.4321012345"^^xsd:double` never as `9.876543e+04` (the failure of a
 * popular Python writer that formats doubles with `%e`). Escapes follow canonical
 * N-Triples (RDF 1.2): `\"`, `\\`, and `\b \t \n \f \r` where the grammar has a short
 * escape, `\uXXXX` (upper-case hex) for the other C0 controls, U+007F, U+FFFE, U+FFFF and
 * lone surrogates, and also for the line breaks outside C0 that some reader splits on —
 * U+0085 NEL (Python `str.splitlines`), U+2028 and U+2029 (those too, and JavaScript's
 * multiline `^`/`$`) — so a rendered literal is one line for every common reader and
 * re-parses to the same value in Turtle, N-Triples and N-Quads (`\u0085` is a UCHAR).
 */
import type * as RDF from "@rdfjs/types";
import { PrefixMap } from "./prefixes.js";
import { checkArgs } from "../arg-kinds.js";
import { ArgumentError } from "../errors.js";

export const XSD = "http://www.w3.org/2001/XMLSchema#";
export const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
export const RDF_TYPE = `${RDF_NS}type`;
const XSD_STRING = `${XSD}string`;
const RDF_LANG_STRING = `${RDF_NS}langString`;
const RDF_DIR_LANG_STRING = `${RDF_NS}dirLangString`;

// Characters outside these ranges are escaped. Surrogates are matched as well-formed pairs
// first, so only lone ones escape.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[^ !#-[\]-~\u0080-\u0084\u0086-\u2027\u202A-\uD7FF\uE000-\uFFFD]/;
// eslint-disable-next-line no-control-regex
const ESCAPE_ALL = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[^ !#-[\]-~\u0080-\u0084\u0086-\u2027\u202A-\uD7FF\uE000-\uFFFD]/g;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
  "\b": "\\b",
  "\f": "\\f",
};

function escapeChar(c: string): string {
  if (c.length === 2) return c; // a well-formed surrogate pair stays as it is
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Escape a literal's lexical form for `"…"` in canonical N-Triples style (see the module
 * note). Returns the input itself when nothing needs escaping.
 */
export function escapeLiteral(lexical: string): string {
  return NEEDS_ESCAPE.test(lexical) ? lexical.replace(ESCAPE_ALL, escapeChar) : lexical;
}

const mapCache = new WeakMap<object, { map: PrefixMap; count: number }>();

/**
 * A PrefixMap for `prefixes`, reusing one per record object while its content is unchanged:
 * the cache is keyed on the object and checked against its entries on every call (O(number
 * of prefixes), no allocation), so a record edited in place (`graph.prefixes.ex = …`) gets a
 * new map instead of a stale one.
 */
export function toPrefixMap(prefixes: PrefixMap | Readonly<Record<string, string>> | undefined): PrefixMap {
  if (prefixes instanceof PrefixMap) return prefixes;
  if (prefixes === undefined) return EMPTY_PREFIXES;
  if (prefixes === null || typeof prefixes !== "object") throw new ArgumentError("toPrefixMap", "prefixes", "an object of prefix name → namespace IRI", prefixes);
  const cached = mapCache.get(prefixes);
  if (cached !== undefined && sameEntries(cached, prefixes)) return cached.map;
  const map = new PrefixMap(prefixes);
  mapCache.set(prefixes, { map, count: Object.keys(map.prefixes).length });
  return map;
}

function sameEntries(cached: { map: PrefixMap; count: number }, prefixes: Readonly<Record<string, string>>): boolean {
  const seen = cached.map.prefixes;
  let count = 0;
  for (const name in prefixes) {
    if (!Object.hasOwn(prefixes, name)) continue;
    count++;
    if (seen[name] !== prefixes[name]) return false;
  }
  return count === cached.count;
}
const EMPTY_PREFIXES = new PrefixMap({});

/**
 * Render one RDF/JS term as one line (DESIGN §1).
 *
 * - blank node: `_:label`
 * - IRI: a prefixed name when a namespace of `prefixes` matches and the rest is a valid
 *   PN_LOCAL, else `<iri>`
 * - literal: `"lexical"` for xsd:string, `"lexical"@lang` (tag lower-cased: RDF 1.2 tags
 *   are case-insensitive, and N3.js stores them lower-case), `"lexical"@lang--ltr` for a
 *   directional one, else `"lexical"^^datatype` with the datatype rendered as an IRI. The
 *   lexical form is never recomputed from a value.
 * - triple term (RDF 1.2): `<<( s p o )>>`; variable `?name`; default graph: empty string.
 *
 * @param term any RDF/JS term (N3.js terms or others)
 * @param prefixes a PrefixMap or a name → namespace record (a Graph's `prefixes`)
 * @returns the rendering; never contains a raw tab, newline or carriage return
 */
export function formatTerm(term: RDF.Term, prefixes?: PrefixMap | Readonly<Record<string, string>>): string {
  checkArgs("formatTerm", arguments, "term:term prefixes?:prefixes");
  return formatWith(term, toPrefixMap(prefixes));
}

function formatWith(term: RDF.Term, map: PrefixMap): string {
  switch (term.termType) {
    case "NamedNode":
      return map.formatIri(term.value);
    case "BlankNode":
      return `_:${term.value}`;
    case "Literal": {
      const body = `"${escapeLiteral(term.value)}"`;
      if (term.language) {
        const direction = (term as RDF.Literal & { direction?: string }).direction;
        return `${body}@${term.language.toLowerCase()}${direction ? `--${direction.toLowerCase()}` : ""}`;
      }
      const datatype = term.datatype?.value ?? XSD_STRING;
      if (datatype === XSD_STRING || datatype === RDF_LANG_STRING || datatype === RDF_DIR_LANG_STRING) return body;
      return `${body}^^${map.formatIri(datatype)}`;
    }
    case "Quad":
      return `<<( ${formatWith(term.subject, map)} ${formatWith(term.predicate, map)} ${formatWith(term.object, map)} )>>`;
    case "Variable":
      return `?${term.value}`;
    case "DefaultGraph":
      return "";
  }
}
