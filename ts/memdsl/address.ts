import { toPrefixMap } from "../rdf/format-term.js";

/**
 * Address tokens: the stable handle of a node. A token is an absolute IRI that
 * can stand on a wire line unquoted and unescaped and cannot hide anything.
 */

/**
 * Scheme per RFC 3987 §2.2, then at least one character; no whitespace (any
 * Unicode space or line break), no controls, no format/default-ignorable
 * (bidi, zero-width) characters, no surrogates or private use, and none of
 * `<>"{}|\^\``, the characters Turtle's IRIREF forbids.
 */
const ADDRESS_TOKEN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`\p{C}\p{Z}\p{DI}]+$/u;

/**
 * True when `token` is a valid address token (see ADDRESS_TOKEN above). Blank
 * node labels (`_:b0`) and relative IRIs are not: a blank node's label is not
 * stable across parses, so it cannot be addressed again.
 */
export function isAddressToken(token: string): boolean {
  return typeof token === "string" && ADDRESS_TOKEN.test(token);
}

/**
 * Compact an IRI with a prefix map (`{prefix: namespace}`) by ts/rdf's PrefixMap
 * rules (longest namespace, valid Turtle PN_LOCAL remainder). Returns `prefix:local`,
 * or the IRI itself (an address token is a bare IRI) when none fits. The PrefixMap is
 * cached per prefixes object while its content is unchanged (toPrefixMap).
 */
export function compactIri(iri: string, prefixes: Readonly<Record<string, string>>): string {
  return toPrefixMap(prefixes).shorten(iri) ?? iri;
}

/** Prefixes every compaction may use, below the graph's own (which win on conflict). */
export const STANDARD_PREFIXES: Readonly<Record<string, string>> = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  prov: "http://www.w3.org/ns/prov#",
  dcterms: "http://purl.org/dc/terms/",
  gwm: "https://w3id.org/groundwire/memdsl#",
};
