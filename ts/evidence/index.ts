// ts/evidence: the evidence spine (browser-safe; file reading is in ./node.ts).
export { createArtifact, mediaTypeForPath, type Artifact, type FragmentableMediaType } from "./artifact.js";
// From the fragmenter's files, not ./fragment/index.js: a re-export there that this entry does not use
// (its test hooks) makes rollup hoist that file's imports (the markdown stack) into dist/index.js.
export { fragmentMarkdown, fragmentPlainText, fragmentDocument } from "./fragment/documents.js";
export { contentHashOf } from "./fragment/hashing.js";
export { UnsupportedFormatError, MarkdownNestingError, MarkdownSizeError } from "./fragment/errors.js";
export { MAX_MARKDOWN_NESTING, MAX_MICROMARK_NESTING, MAX_MICROMARK_LENGTH } from "./fragment/limits.js";
export { FRAGMENT_KINDS, type Fragment, type FragmentCell, type FragmentKind, type FragmentOptions } from "./fragment/types.js";
export { DocumentTooLargeError, MAX_DOCUMENT_LENGTH } from "./limits.js";
export {
  citationStatus,
  resolveFragment,
  indexFragments,
  parseCitation,
  citeFragment,
  CitationFormatError,
  type Citation,
  type CitationStatus,
  type CitationReport,
  type CitationOptions,
  type Candidate,
  type FragmentIndex,
} from "./citation.js";
export {
  toGraphSlice,
  validateSlice,
  ingest,
  artifactIri,
  fragmentIri,
  EVIDENCE_NS,
  type GraphSlice,
  type Violation,
  type ValidationOutcome,
  type IngestReport,
  type QuadStore,
} from "./graph-slice.js";
export { ingestToGraphStore, sliceNTriples, GraphStoreError, type GraphStoreTarget } from "./remote-ingest.js";
export { normalizeWhitespace, slugify, anchorFor } from "./text.js";
export { EVIDENCE_ONTOLOGY_TURTLE, EVIDENCE_SHAPES_TURTLE } from "./vocabulary.generated.js";
export { formatFragmentListing, listingLines, firstWords } from "./listing.js";
