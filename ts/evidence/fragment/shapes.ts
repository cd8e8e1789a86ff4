/**
 * The shapes the fragmenter's passes share: a block as either parser found it (`BlockNode`),
 * markdown-it's line table with the document's state (`Lines`), the work left for after the
 * last chunk (`Later`) and the definitions lookup handed to every micromark parse (`Definitions`).
 */
import type { Env } from "markdown-it";
import type { FragmentCell } from "./types.js";

/**
 * One block as the fragmenter needs it, whichever parser found it: offsets are
 * UTF-16 code units of the string as given, `line` 1-based.
 */
export interface BlockNode {
  type: "heading" | "paragraph" | "code" | "html" | "break" | "frontmatter" | "definition" | "quote" | "footnote" | "list" | "item" | "table";
  start: number;
  end: number;
  line: number;
  /** Heading level. */
  depth?: number;
  /** Heading plain text, definition or footnote label. */
  label?: string;
  /** Whether a definition has a title (`opensTitle`). */
  titled?: boolean;
  children?: BlockNode[];
  rows?: { start: number; end: number; line: number; cells: FragmentCell[] }[];
}

export interface Lines {
  src: string;
  /** Offset of each line's first character / of its end (before the line feed); its indentation (markdown-it's `tShift`). */
  begin: number[];
  end: number[];
  shift: number[];
  /** Offset of markdown-it's string within the text as given (1 after a byte-order mark). */
  base: number;
  /** The text as given, and whether it holds a CR LF (turned into space LF for markdown-it). */
  text: string;
  crlf: boolean;
  env: Env;
  /** Labels and cells with markup: read once every definition of the document is known, after the last chunk. */
  later: Later[];
  /** Whether the document holds `[^` at all (else no group needs the footnote-definition test). */
  footnotes: boolean;
  /** Start and end (in the text as given) of each micromark region holding a line that may open a footnote definition (`FOOTNOTE_DEFINITION`), flat. */
  footnoteRegions: number[];
  /** Start and end (in the text as given) of every region read by micromark, in document order, flat. */
  regions: number[];
  /** Per line: the `>` on it when it holds only `>`, spaces and tabs, else -1 (`markersOnLine`, made on first use). */
  markers?: Int32Array;
}

/** A heading label or a cell text to read after the last chunk (it may use definitions further down). */
export interface Later {
  heading: BlockNode | null;
  cell: FragmentCell | null;
  content: string;
  setext: boolean;
  /** A task item's paragraph whose start moves to `moved` when the first inline node of `content` is text (`taskParagraph`). */
  task?: BlockNode;
  moved?: number;
  line?: number;
  /** A cell's row's line (1-based), for errors. */
  row?: number;
}

/**
 * The definition lines (`DefinitionLines`) a piece of the document parsed alone may use, joined by
 * line endings ("" when none): `piece` is the text micromark reads, `region` whether it is a
 * region of the document as written (container markers inside it) rather than inline content.
 */
export type Definitions = (piece: string, region: boolean) => string;
