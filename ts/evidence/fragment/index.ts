/**
 * Fragments: the citation unit. A document's verbatim source becomes a tree of
 * addressable, hashed, ordered fragments (DESIGN §4, the seed's identity scheme).
 *
 *   fragmentId  = sha256(UTF-8(artifactId) ‖ 0x00 ‖ UTF-8(path))   — where is it?
 *   contentHash = "sha256:" + sha256(UTF-8(kind ‖ "\n" ‖ normalized text)) — does it still say that?
 *   versionId   = fragmentId + "#" + contentHash                      — a pinned, immutable citation
 *
 * A path is the `/`-joined list of segments `<kind>:<anchor>` from the document root
 * down to the fragment. The anchor is the slug of the node's own label when it has
 * one (a heading's text, a table's header row, a table row's first cell, a link
 * definition's or footnote's label) and otherwise the 1-based ordinal counted per
 * (parent, kind), so inserting a code block never renumbers the paragraphs beside
 * it. Duplicate labels among siblings of one kind get `slug~N` (see `anchorFor`).
 *
 * Offsets (`start`, `end`) are UTF-16 code units of the JS string given (the unit
 * mdast positions use): `text.slice(start, end) === fragment.text`, always.
 *
 * The folder, one concern a file (each imports only files above it in this list):
 *   types.ts             the public shapes: FragmentKind, FRAGMENT_KINDS, Fragment, FragmentCell
 *   limits.ts            the bounds: nesting, the longest micromark parse, batch size
 *   errors.ts            UnsupportedFormatError, MarkdownNestingError, MarkdownSizeError
 *   shapes.ts            the passes' shared internal shapes (BlockNode, Lines, Later, Definitions)
 *   hashing.ts           content hashes (contentHashOf), windowed and streamed
 *   builder.ts           blocks → fragments: anchors, paths, ids, sections (Builder, emitBlocks)
 *   mdast.ts             offsets and plain text of mdast nodes
 *   micromark.ts         every micromark parse and the size bound it is checked against
 *   front-matter.ts      whether a document opens with front matter
 *   lines.ts             line and column arithmetic, micromark's way
 *   fallback-rules.ts    where markdown-it's reading may differ: micromark reads the group (NeedsMicromark)
 *   table-rule.ts        markdown-it's table rule reduced to a table's extent
 *   markdown-it.ts       the fragmenter's markdown-it instance (md)
 *   labels.ts            heading labels and cell texts with markup
 *   tables.ts            table rows and cells
 *   micromark-region.ts  a region read by micromark, as blocks
 *   large-region.ts      a region over MAX_MICROMARK_LENGTH, read in pieces
 *   task-items.ts        where a GFM task item's paragraph starts
 *   definitions.ts       the document's definitions, as lines a piece parsed alone may use
 *   group-reader.ts      markdown-it tokens → blocks, a group of top-level blocks at a time
 *   block-pass.ts        the block pass: chunks, groups, routing to micromark (parseBlocks)
 *   documents.ts         fragmentMarkdown, fragmentPlainText, fragmentDocument
 */
export type { FragmentKind, FragmentCell, Fragment } from "./types.js";
export { FRAGMENT_KINDS } from "./types.js";
export { MAX_MARKDOWN_NESTING, MAX_MICROMARK_NESTING, MAX_MICROMARK_LENGTH } from "./limits.js";
export { UnsupportedFormatError, MarkdownNestingError, MarkdownSizeError } from "./errors.js";
export { contentHashOf } from "./hashing.js";
export { micromarkLoad } from "./micromark.js";
export { fragmenterMarkdownIt } from "./markdown-it.js";
export { setMarkdownChunkLines } from "./block-pass.js";
export { fragmentMarkdown, fragmentPlainText, fragmentDocument } from "./documents.js";
