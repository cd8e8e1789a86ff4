// ts/evidence: the evidence spine (browser-safe; file reading is in ./node.ts).
export { createArtifact, mediaTypeForPath, type Artifact, type FragmentableMediaType } from "./artifact.js";
export {
  fragmentMarkdown,
  fragmentPlainText,
  fragmentDocument,
  contentHashOf,
  UnsupportedFormatError,
  MarkdownNestingError,
  MarkdownSizeError,
  MAX_MARKDOWN_NESTING,
  MAX_MICROMARK_NESTING,
  MAX_MICROMARK_LENGTH,
  FRAGMENT_KINDS,
  type Fragment,
  type FragmentCell,
  type FragmentKind,
} from "./fragment/index.js";
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
export { normalizeWhitespace, slugify, anchorFor } from "./text.js";
export { EVIDENCE_ONTOLOGY_TURTLE, EVIDENCE_SHAPES_TURTLE } from "./vocabulary.generated.js";
export { formatFragmentListing, firstWords } from "./listing.js";
