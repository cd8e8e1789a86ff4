/**
 * The MemDSL terms of groundwire's small ontology, as constants for browser-safe
 * code (no fs). `data/ontology/memdsl.ttl` declares exactly these IRIs; the test
 * suite checks the two agree, term for term, so this module is the one source
 * the code reads and the Turtle is its published description.
 */

/** Namespace of the MemDSL epistemic terms. */
export const MEMDSL_NS = "https://w3id.org/groundwire/memdsl#";

/** Properties applyNodeStatuses reads from a graph. */
export const MEMDSL_PROPERTIES = {
  /** `gwm:epistemicStatus` — object one of {@link MEMDSL_STATUS}: an explicit verdict for the subject. */
  epistemicStatus: `${MEMDSL_NS}epistemicStatus`,
  /** `gwm:taint` — object one of {@link MEMDSL_TAINT}: the subject is stale, unresolved or outdated. */
  taint: `${MEMDSL_NS}taint`,
  /** `gwm:statusNote` — a literal explaining the verdict or taint; becomes the gap's detail. */
  statusNote: `${MEMDSL_NS}statusNote`,
} as const;

/** Status individuals (objects of gwm:epistemicStatus), keyed by their wire word. */
export const MEMDSL_STATUS = {
  verified: `${MEMDSL_NS}verified`,
  asserted: `${MEMDSL_NS}asserted`,
  inferred: `${MEMDSL_NS}inferred`,
} as const;

/** Taint individuals (objects of gwm:taint), keyed by their gap kind. */
export const MEMDSL_TAINT = {
  stale: `${MEMDSL_NS}stale`,
  unresolved: `${MEMDSL_NS}unresolved`,
  outdated: `${MEMDSL_NS}outdated`,
} as const;

/** Classes the ontology declares. */
export const MEMDSL_CLASSES = {
  EpistemicStatus: `${MEMDSL_NS}EpistemicStatus`,
  Taint: `${MEMDSL_NS}Taint`,
} as const;

/** Other vocabularies applyNodeStatuses and assembleNeighborhood read (well-known IRIs). */
export const WELL_KNOWN = {
  rdfType: "http://www.w3.org/1999/02/22-rdf-syntax-ns#type",
  rdfsLabel: "http://www.w3.org/2000/01/rdf-schema#label",
  rdfsComment: "http://www.w3.org/2000/01/rdf-schema#comment",
  skosPrefLabel: "http://www.w3.org/2004/02/skos/core#prefLabel",
  skosDefinition: "http://www.w3.org/2004/02/skos/core#definition",
  dctermsTitle: "http://purl.org/dc/terms/title",
  dctermsDescription: "http://purl.org/dc/terms/description",
  dctermsSource: "http://purl.org/dc/terms/source",
  dcTitle: "http://purl.org/dc/elements/1.1/title",
  schemaName: "https://schema.org/name",
  schemaDescription: "https://schema.org/description",
  schemaSupersededBy: "https://schema.org/supersededBy",
  schemaNameHttp: "http://schema.org/name",
  schemaDescriptionHttp: "http://schema.org/description",
  schemaSupersededByHttp: "http://schema.org/supersededBy",
  provWasDerivedFrom: "http://www.w3.org/ns/prov#wasDerivedFrom",
  owlDeprecated: "http://www.w3.org/2002/07/owl#deprecated",
} as const;
