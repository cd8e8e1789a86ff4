/**
 * The fragmenter's public shapes: FragmentKind, FRAGMENT_KINDS, Fragment, FragmentCell.
 */

/**
 * What a fragment is. `section` = a heading and everything under it up to the next
 * heading of the same or a higher level (within the same container); `item` = a
 * list item; `row` = a table row (the header row included); `quote` = a block
 * quote; `break` = a thematic break; `html` = an HTML block; `definition` = a link
 * reference definition; `footnote` = a GFM footnote definition; `frontmatter` = a
 * YAML (`---`) or TOML (`+++`) block at the very top.
 */
export type FragmentKind =
  | "frontmatter"
  | "section"
  | "paragraph"
  | "list"
  | "item"
  | "code"
  | "table"
  | "row"
  | "quote"
  | "html"
  | "break"
  | "definition"
  | "footnote";

/** Every kind, in a fixed order (the SHACL shape's `sh:in` list is the same set). */
export const FRAGMENT_KINDS: readonly FragmentKind[] = Object.freeze([
  "frontmatter", "section", "paragraph", "list", "item", "code", "table", "row", "quote", "html", "break", "definition", "footnote",
]);

/** One table cell of a `row` fragment. */
export interface FragmentCell {
  /** The cell's text with markdown resolved (`P(A \| B)` is written, `P(A | B)` is the text). */
  text: string;
  /** Offsets (UTF-16 code units) of the cell content as written in the source, pipes and padding excluded. */
  start: number;
  end: number;
}

/** One addressable piece of a document. */
export interface Fragment {
  /** 64 lowercase hex: sha256(artifactId ‖ NUL ‖ path). The address a citation stores. */
  fragmentId: string;
  artifactId: string;
  /** Structural path, e.g. `section:guide/section:install/code:1`. */
  path: string;
  kind: FragmentKind;
  /** The last path segment's anchor: a slug (`install`, `setup~2`) or an ordinal (`3`). */
  anchor: string;
  /** The label the anchor was made from (heading text, header row, first cell), or null for ordinal kinds. */
  label: string | null;
  /** `sha256:<64 hex>` over the kind and the whitespace-normalized text (block-quote markers of enclosing quotes removed). */
  contentHash: string;
  /** `<fragmentId>#<contentHash>`. */
  versionId: string;
  /** 1-based position among the siblings of the same kind under the same parent. */
  ordinal: number;
  /** 0-based position in document order (pre-order: a section comes before its contents). */
  sequence: number;
  /** The enclosing fragment's id, or null at the top level (directly under the artifact). */
  parentId: string | null;
  /** Number of enclosing fragments (0 at the top level). */
  depth: number;
  /** Start offset in UTF-16 code units of the source string (inclusive). */
  start: number;
  /** End offset in UTF-16 code units (exclusive). */
  end: number;
  /** 1-based source line of `start`. */
  line: number;
  /** The verbatim source: `source.slice(start, end)`. */
  text: string;
  /** Heading level 1–6, for sections. */
  level?: number;
  /** The cells, for table rows. */
  cells?: FragmentCell[];
}

/** Options of the fragmenters. */
export interface FragmentOptions {
  /** Most fragments the document may be cut into (default: no bound); past it, WorkLimitError. */
  maxFragments?: number;
}
