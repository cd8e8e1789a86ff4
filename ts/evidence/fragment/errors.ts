/**
 * The fragmenter's errors: a format it cannot read, nesting or a micromark piece over its bound.
 */
import { GroundwireError } from "../../errors.js";
import { MAX_MARKDOWN_NESTING, MAX_MICROMARK_NESTING, MAX_MICROMARK_LENGTH } from "./limits.js";

/** A format the spine cannot fragment yet (PDF, HTML, …): names the media type and what is supported. */
export class UnsupportedFormatError extends GroundwireError {
  constructor(readonly mediaType: string, readonly source?: string) {
    super(
      `fragmenting ${mediaType}${source ? ` (${source})` : ""} is not supported yet; supported: text/markdown (.md, .markdown), text/plain (.txt)`, { code: "unsupported_media_type", status: 415 },
    );
    this.name = "UnsupportedFormatError";
  }
}

/**
 * A document whose block containers nest deeper than `MAX_MARKDOWN_NESTING` (or, in a group
 * read by micromark, `MAX_MICROMARK_NESTING`): names the limit and the 1-based line.
 */
export class MarkdownNestingError extends GroundwireError {
  constructor(readonly line: number, readonly limit: number = MAX_MARKDOWN_NESTING) {
    super(`nesting deeper than ${limit.toLocaleString("en-US")} at line ${line}${limit === MAX_MICROMARK_NESTING ? " (around a table, footnote or other block read by micromark)" : ""}`, { code: "limit", status: 422 });
    this.name = "MarkdownNestingError";
  }
}

/**
 * A piece of the document the fragmenter must hand to micromark (a table, footnote, task item or
 * other block it cannot read itself, in a list or quote; a heading or cell with markup) that is over
 * `MAX_MICROMARK_LENGTH`: names the 1-based line the piece starts on, its length and the limit. A
 * longer region of top-level blocks is read in pieces where its blocks allow it
 * (`micromarkLargeRegion`: between top-level blocks, across the rows of a top-level table and
 * between the items of a top-level list), so it names the block that does not: one top-level
 * block over the limit other than a table or a list, or one list item over it.
 */
export class MarkdownSizeError extends GroundwireError {
  constructor(readonly line: number, readonly length: number, readonly limit: number = MAX_MICROMARK_LENGTH) {
    super(
      `a block of ${length.toLocaleString("en-US")} UTF-16 code units at line ${line} that only micromark reads exactly (an unclosed fence or HTML block, a table, footnote or task item in a list or block quote, a footnote definition, a paragraph or list against a table, or a heading or cell with markup), over the limit of ${limit.toLocaleString("en-US")} (MAX_MICROMARK_LENGTH; micromark holds 1-2.5 KB per code unit; a top-level table or list is read in pieces)`, { code: "too_large", status: 413 },
    );
    this.name = "MarkdownSizeError";
  }
}
