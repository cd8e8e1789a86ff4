/**
 * The fragmenter's bounds: how deep containers may nest, how much text one micromark parse
 * may take, and how much inline content one batched parse reads.
 */

/** Deepest container nesting `fragmentMarkdown` accepts (block quotes, lists, list items, footnotes; a nested list counts list and item). */
export const MAX_MARKDOWN_NESTING = 1000;

/**
 * Deepest container nesting (counted as for `MAX_MARKDOWN_NESTING`) of a group of blocks the
 * fragmenter hands to micromark (a table, footnote or task check it cannot read itself, inside
 * lists or quotes). mdast-util-from-markdown walks each list's events once per enclosing list, so
 * its time grows with depth × size: measured, a list item nested 100 deep with a table in each
 * took 0.8 s, 200 deep 3.1 s, 300 deep 6.3 s (CPU, 2026-12-02). markdown-it's own default
 * `maxNesting` is 100.
 */
export const MAX_MICROMARK_NESTING = 128;

/**
 * Most UTF-16 code units the fragmenter hands to micromark in one parse (a region of blocks it
 * cannot read itself, a heading or cell with markup, a batch of task items, with the definitions
 * appended to it). micromark → mdast holds 1–2.5 KB of memory per code unit while it parses
 * (peak RSS of one parse of 200,000 code units, 2026-12-02: an unclosed fence's lines in a list
 * item 249 MB, prose 106 MB, `*a* ` 384 MB, `[a](b) ` 487 MB, a table in a list item 456 MB); at
 * 2^18 code units, the worst measured (a list item holding a table of links) peaks at 733 MB
 * through the CLI (docs/evidence.md as of commit 2498501969, "Block ends and the micromark size
 * bound"; the bound today: docs/evidence.md, "Limits"). Nothing in `../shared/data/markdown`
 * comes close: its largest such piece is 800 code units (a top-level unclosed fence or HTML block,
 * which once went to micromark whole, is read natively: `runsToEnd`).
 */
export const MAX_MICROMARK_LENGTH = 1 << 18;

/**
 * Code units of task rests, heading labels or cells read by one micromark parse (`taskHeadsByMicromark`,
 * `labelsByMicromark`): micromark → mdast
 * holds some 1.5 KB per code unit while it parses, so a batch stays small. The definitions appended
 * to a batch are the ones its rests may use (`DefinitionLines`), at most a few lines per bracket.
 */
export const BATCH_CHARS = 1 << 16;
