// ts/triple-index: stable triple ids, listings and drift-safe critiques (DESIGN §1). Browser-safe.
export {
  buildTripleIndex,
  fingerprintGraph,
  fingerprintQuads,
  fingerprintLines,
  encodeLines,
  renderLine,
  listingPrefixes,
  listingPrefixRecord,
  DEFAULT_LISTING_PREFIXES,
  TripleIndex,
  TripleIds,
  type IndexedTriple,
  type SubjectBlock,
} from "./triple-index.js";
export { renderListing, READ_ONLY_MARKER } from "./listing.js";
export {
  applyCritique,
  parseCritique,
  CritiqueFormatError,
  TripleIndexDriftError,
  type Critique,
  type CritiqueItem,
  type CritiqueOp,
  type CritiqueGuards,
  type GuardName,
  type RejectionCode,
  type AppliedItem,
  type RejectedItem,
  type CritiqueReport,
} from "./critique.js";
export { critiqueSchema, critiqueItemSchema, removeItemSchema, replaceItemSchema, tripleIdSchema } from "./critique-schema.js";
export {
  canonicalHash,
  canonicalNQuads,
  canonicalize,
  CanonicalizationLimitError,
  CanonicalizationInputError,
  DEFAULT_MAX_WORK_FACTOR,
  DEFAULT_CANONICAL_TIME_BUDGET_MS,
  type CanonicalizeOptions,
  type Canonicalization,
  type CanonicalHashAlgorithm,
  type CanonicalizationLimit,
} from "./canonical-hash.js";
export { sortTriples, SortedTriples } from "./ordering.js";
