/**
 * A region over MAX_MICROMARK_LENGTH read in pieces (`micromarkLargeRegion`): between top-level
 * blocks, across a top-level table's rows and between a top-level list's items.
 */
import { MAX_MICROMARK_LENGTH } from "./limits.js";
import { MarkdownSizeError } from "./errors.js";
import type { BlockNode, Definitions } from "./shapes.js";
import { offsets } from "./mdast.js";
import { fromMarkdown } from "./micromark.js";
import { lineStartOf, nextLineStart, lineEndings } from "./lines.js";
import { fromMdast, micromarkRegion, definitionsBefore } from "./micromark-region.js";

/**
 * Code units of a region over MAX_MICROMARK_LENGTH that `micromarkLargeRegion` hands to micromark in
 * one parse (besides a table's head and the definitions): peak RSS for the 788 KB table of its
 * docstring 483 / 538 / 551 MB at 2^15 / 2^16 / 2^17, CPU time alike.
 */
const TABLE_PIECE = 1 << 16;

/**
 * `micromarkRegion` for a region of top-level blocks longer than MAX_MICROMARK_LENGTH, read in
 * pieces of about TABLE_PIECE code units cut at line starts, where the blocks allow it:
 * - Between top-level blocks. CommonMark reads blocks line by line and never reopens a closed one
 *   (spec, appendix "A parsing strategy"), so every block of a piece before its last is the whole
 *   region's reading, as is a last one that cannot go on past the blank lines after it (a table,
 *   paragraph, heading, thematic break or definition that ends before the cut). The region's next
 *   top-level block starts on a fresh line at the top level and reads alone as in the whole region
 *   (no open block may take it: the one before it closed), so the next piece starts at the first line
 *   of the piece's last block, which is read again.
 * - Across the rows of a top-level table: micromark-extension-gfm-table reads each body row from its
 *   own line and the table's head (the header's cell count, the delimiter row), and ends the table
 *   at a blank line or at a line that opens another block, a test of that line alone (GFM spec
 *   §4.10). When a piece's last block is a table that runs to the cut, the next piece is read as the
 *   table's header and delimiter lines followed by the next lines of the region, and its body rows,
 *   shifted back to their place in the text, are the whole reading's.
 * - Between the items of a top-level list: an item closes when the line of the next one opens it,
 *   and a sibling item's line (its marker indented 0–3 columns) read alone opens a list with that
 *   item, whose next items are the whole reading's (the same marker continues it). When a piece's
 *   last block is a list, its items before the last are final; the next piece starts at the last
 *   item's line, and its first block's items join the list (`joined`).
 * A definition without a title right before the piece's last block, on the line before it, is read
 * again with it when that block's first line may open its title (`opensTitle`). A piece whose
 * definitions make it longer than MAX_MICROMARK_LENGTH is cut shorter (`readFitting`).
 * A piece whose only block runs past the cut and is not a table, nor a list past its first item,
 * is read again up to MAX_MICROMARK_LENGTH; a block longer than that (a paragraph, quote, footnote
 * or fence, or one list item) is refused as before: `MarkdownSizeError`. Lines end at LF, CR LF and a lone CR, as micromark reads
 * them (`lineStartOf`). A 26,300-row table with a tab
 * in one cell (788 KB, `node dist/cli.cjs fragments`, 2026-12-02): 6.4 s CPU and 415 MB peak RSS;
 * the reference fragmenter's one parse of it 5.4 s and 954 MB. The same fragments (the seeded
 * differential in test/evidence/large-regions.test.ts).
 */
export function micromarkLargeRegion(text: string, start: number, end: number, firstLine: number, definitions: Definitions, limit: number): BlockNode[] {
  const out: BlockNode[] = [];
  let at = start;
  let line = firstLine;
  /** The table that runs on at `at`, and its header and delimiter lines. */
  let table: BlockNode | null = null;
  let head = "";
  /** The top-level list that runs on at `at` (its items so far) and where its next item starts: the next piece's first block, a list, holds its next items. */
  let list: BlockNode | null = null;
  let itemStart = -1;
  /** Where the line after `node`'s last line starts (the region's end when it has none). */
  const after = (node: BlockNode) => Math.min(nextLineStart(text, node.end), end);
  /** A cut at the start of the line holding `at` (a line start itself stays). */
  const cutAt = (at: number) => (at >= end ? end : lineStartOf(text, at));
  /** Where the line of a list's last item starts: a list whose one item starts at `at` gives `at` (no progress). */
  const lastItemLine = (node: BlockNode) => lineStartOf(text, node.children!.at(-1)!.start);
  /** `blocks` (a piece's, from `at`) with the first joined to the list that runs on at `at` (`list`). */
  const joined = (blocks: BlockNode[]): BlockNode[] => {
    if (list === null) return blocks;
    const first = blocks[0];
    // The item's line read alone opens a list with that item (a sibling item's marker is indented 0–3
    // columns, and no open block takes the line: the item before it closed): anything else is a fault here.
    if (first?.type !== "list" || first.children![0]?.start !== itemStart) {
      throw new Error(`fragmentMarkdown: the item at line ${line} of the list at line ${list.line} did not read as a list item again`);
    }
    list.children!.push(...first.children!);
    list.end = first.end;
    blocks[0] = list;
    list = null;
    return blocks;
  };
  /** Whether the list's items before its last are final and its last starts after `at` (`micromarkLargeRegion`: lists). */
  const splits = (node: BlockNode) => node.type === "list" && node.children!.length >= 2 && lastItemLine(node) > at;
  /**
   * The index of the block of a piece from which the next piece starts (the blocks before it are
   * final): the last, or the untitled definition right before it when the last block's first line
   * may open that definition's title (`opensTitle`): the title would run on past the cut.
   */
  const carried = (blocks: readonly BlockNode[]) => {
    const k = blocks.length - 1;
    return k >= 1 && opensTitle(text, blocks[k - 1], blocks[k], after(blocks[k - 1])) ? k - 1 : k;
  };
  /**
   * micromarkRegion of `[at, to)`, `to` moved back to an earlier line start while the definitions
   * the piece uses make it longer than MAX_MICROMARK_LENGTH (each step by the excess): the cut is
   * returned with the blocks. A piece whose definitions alone are over the bound is refused.
   */
  const readFitting = (to: number): [BlockNode[], number] => {
    for (let cut = to; ; ) {
      try {
        return [micromarkRegion(text, at, cut, line, definitions, cut), cut];
      } catch (error) {
        if (!(error instanceof MarkdownSizeError)) throw error;
        const shorter = cutAt(cut - (error.length - MAX_MICROMARK_LENGTH));
        if (shorter <= at || shorter >= cut) throw error;
        cut = shorter;
      }
    }
  };
  while (at < end) {
    if (table === null && end - at <= MAX_MICROMARK_LENGTH) {
      let rest: BlockNode[] | null = null;
      try {
        rest = micromarkRegion(text, at, end, line, definitions, limit);
      } catch (error) {
        // The rest and the definitions it uses are over the bound together: read on in pieces.
        if (!(error instanceof MarkdownSizeError)) throw error;
      }
      if (rest !== null) {
        out.push(...joined(rest));
        break;
      }
    }
    let cut: number = table !== null && end - at <= TABLE_PIECE ? end : cutAt(at + TABLE_PIECE);
    if (table === null) {
      /**
       * Whether the piece up to `cut` gives no block to keep and none to go on with: the block the
       * next piece would start from is its first, and it is not a table running to the cut, a
       * block that ended before it, nor a list past its first item.
       */
      const stuck = (blocks: readonly BlockNode[]): boolean => {
        if (blocks.length === 0) return true;
        const last = blocks[blocks.length - 1];
        if ((after(last) < cut && ENDED.test(last.type)) || splits(last)) return false;
        const k = carried(blocks);
        return k === 0 && !(k === blocks.length - 1 && last.type === "table" && after(last) === cut);
      };
      let blocks: BlockNode[] = [];
      if (cut > at) [blocks, cut] = readFitting(cut);
      if (stuck(blocks)) {
        // One block runs past the cut: read again in one piece as long as the bound allows.
        cut = cutAt(at + MAX_MICROMARK_LENGTH);
        if (cut <= at) throw new MarkdownSizeError(line, end - at);
        [blocks, cut] = readFitting(cut);
      }
      if (stuck(blocks)) throw new MarkdownSizeError(line, end - at);
      blocks = joined(blocks);
      const last = blocks[blocks.length - 1];
      if (after(last) < cut && ENDED.test(last.type)) {
        // A block that a line after it ended (a blank line, or one that opened another block) and
        // that no later line reopens: final, as the blocks before it (the piece may end in blank lines).
        out.push(...blocks);
        line += lineEndings(text, at, after(last));
        at = after(last);
        continue;
      }
      if (splits(last)) {
        // A list that may go on past the cut: its items before the last are final (the next item's
        // line closed each), and the next piece starts at the last item's line and adds to the list.
        blocks.pop();
        out.push(...blocks);
        const item = last.children!.pop()!;
        last.end = last.children!.at(-1)!.end;
        list = last;
        itemStart = item.start;
        at = lineStartOf(text, item.start);
        line = item.line;
        continue;
      }
      const k = carried(blocks);
      out.push(...blocks.slice(0, k));
      if (k < blocks.length - 1 || last.type !== "table" || after(last) !== cut) {
        // The block may go on past the cut: it is read again from its first line.
        at = lineStartOf(text, blocks[k].start);
        line = blocks[k].line;
        continue;
      }
      line += lineEndings(text, at, cut);
      at = cut;
      table = last;
      const headStart = lineStartOf(text, last.start);
      head = text.slice(headStart, nextLineStart(text, nextLineStart(text, headStart)));
      continue;
    }
    // The table runs on at `at`: its next rows, read after its head.
    const piece = `${head}${text.slice(at, cut)}`;
    const defs = definitions(piece, true);
    // The definitions go before the head, closed by a thematic break (as in `micromarkRegion`): after
    // the piece, an unclosed fence or HTML block opened after the table's end would swallow them.
    const prefix = defs ? definitionsBefore(defs) : "";
    const parsed = `${prefix}${piece}`;
    const first = fromMarkdown(parsed, line).children.find((node) => offsets(node, node.type).start >= prefix.length);
    // The head read alone is the table it opened in the whole reading: anything else is a fault here.
    if (first?.type !== "table" || offsets(first, "table").start >= prefix.length + nextLineStart(head, 0)) {
      throw new Error(`fragmentMarkdown: the head of the table at line ${table.line} did not read as a table again (line ${line})`);
    }
    const prefixLines = lineEndings(prefix, 0, prefix.length);
    const skip = prefix.length + head.length;
    const rows = fromMdast(first, parsed, at - skip, line - 3 - prefixLines, cut - at + skip).rows!.slice(1);
    if (rows.length) {
      table.rows!.push(...rows);
      table.end = rows.at(-1)!.end;
    }
    if (rows.length && cut < end && after(table) === cut) {
      line += lineEndings(text, at, cut);
      at = cut;
      continue;
    }
    // The table ended in this piece (or with it): the rest of the region starts after its last row.
    out.push(table);
    const next = rows.length ? after(table) : at;
    line = rows.length ? table.rows!.at(-1)!.line + 1 : line;
    table = null;
    at = next;
  }
  if (table) out.push(table);
  return out;
}

/**
 * Whether `next`, the block after the definition `node` with no line between them (`afterNode`:
 * where the line after `node`'s last starts), starts with what may be `node`'s title: `node` has
 * none, and the line opens with `"`, `'` or `(` after spaces or tabs (CommonMark §4.7: a title may
 * start on the line after the destination and span lines up to a blank one). Read in a piece cut
 * before the title closes, micromark ends the definition at its destination and reads the title's
 * lines as a paragraph; the whole text may close it (`micromarkLargeRegion` reads on from `node`).
 */
function opensTitle(text: string, node: BlockNode, next: BlockNode, afterNode: number): boolean {
  if (node.type !== "definition" || node.titled || lineStartOf(text, next.start) !== afterNode) return false;
  return /^[ \t]*["'(]/.test(text.slice(afterNode, nextLineStart(text, afterNode)));
}

/** Blocks that a blank line ends for good (`micromarkLargeRegion`): no later line joins them. */
const ENDED = /^(?:table|paragraph|heading|break|definition)$/;
