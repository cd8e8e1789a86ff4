/**
 * Tables: a top-level table's rows and cells read from its lines (`tableOf`, `splitRow`), a cell
 * from micromark's table (`cellOf`), and rows filled or cut to the header's width (`rowCells`).
 * A row's anchor is the slug of its first cell's text (`emitBlocks`, builder.ts); the table rule
 * that gives markdown-it's table extents is table-rule.ts.
 */
import type { TableCell } from "mdast";
import type { FragmentCell } from "./types.js";
import type { BlockNode, Lines } from "./shapes.js";
import { plainText, offsets, positioned } from "./mdast.js";
import { lineEnd, skipBlanks, trimBlanks } from "./lines.js";
import { NeedsMicromark } from "./fallback-rules.js";
import { INLINE_MARKUP } from "./labels.js";

/**
 * GFM renders a row with as many cells as the header: missing cells are empty,
 * excess cells are dropped (they stay part of the row's text). A missing cell
 * points at the empty spot at the row's end.
 */
export function rowCells(cells: FragmentCell[], width: number, rowEnd: number): FragmentCell[] {
  if (cells.length === width) return cells;
  const out = cells.slice(0, width);
  while (out.length < width) out.push({ text: "", start: rowEnd, end: rowEnd });
  return out;
}

/**
 * A cell's text (mdast-util-to-string's, `plainText`) and the offsets of its content: from its first
 * to its last inline node, or, where mdast gave those no position (mdast-util-gfm-autolink-literal's
 * transform splits text nodes around a `www.` or e-mail literal and leaves the pieces without one:
 * `| [see www.x.com |`), the cell's own span less its pipes and padding (`cellContent`), which is
 * where micromark's table tokenizer puts a cell's content. `line` is the row's, for errors.
 */
export function cellOf(region: string, cell: TableCell, shift: number, line: number): FragmentCell {
  const text = plainText(cell);
  const kids = cell.children;
  if (kids.length && positioned(kids[0]) && positioned(kids[kids.length - 1])) {
    return { text, start: offsets(kids[0], "tableCell", line).start + shift, end: offsets(kids[kids.length - 1], "tableCell", line).end + shift };
  }
  const o = offsets(cell, "tableCell", line);
  const c = cellContent(region, o.start, o.end);
  // An empty cell: the (empty) spot after its pipe and padding.
  return kids.length ? { text, start: c.start + shift, end: c.end + shift } : { text: "", start: c.start + shift, end: c.start + shift };
}

/**
 * The content of a table cell whose span (micromark's, `[start, end)` of `src`) is given: after
 * a leading `|` and spaces or tabs, before trailing spaces or tabs and a closing `|` (one not
 * escaped: preceded by an even number of backslashes, as micromark-extension-gfm-table reads `\\|`).
 */
function cellContent(src: string, start: number, end: number): { start: number; end: number } {
  let a = start;
  if (src.charCodeAt(a) === 0x7c) a++;
  a = skipBlanks(src, a, end);
  let e = end;
  if (e > a && src.charCodeAt(e - 1) === 0x7c) {
    let slashes = 0;
    while (e - 2 - slashes >= a && src.charCodeAt(e - 2 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) e--;
  }
  return { start: a, end: trimBlanks(src, a, e) };
}

/**
 * Split a table row's line into cells as GFM does: at pipes not escaped by a backslash;
 * a leading and a trailing pipe open and close the row. Each cell: its trimmed content's
 * offsets (an empty cell: the spot after its pipe and padding).
 */
function splitRow(src: string, start: number, end: number): { start: number; end: number }[] {
  const cells: { start: number; end: number }[] = [];
  let p = skipBlanks(src, start, end);
  const e = trimBlanks(src, p, end);
  if (src.charCodeAt(p) === 0x7c) p++;
  let cellStart = p;
  for (let k = p; k < e; k++) {
    const c = src.charCodeAt(k);
    if (c === 0x5c) k++;
    else if (c === 0x7c) {
      const a = skipBlanks(src, cellStart, k);
      cells.push({ start: a, end: trimBlanks(src, a, k) });
      cellStart = k + 1;
    }
  }
  // A trailing pipe closes the row; otherwise the rest is the last cell.
  if (cellStart < e || src.charCodeAt(e - 1) !== 0x7c || cellStart === p) {
    const a = skipBlanks(src, cellStart, e);
    cells.push({ start: a, end: trimBlanks(src, a, e) });
  }
  return cells;
}

/** A top-level table from its lines `[a, b)` (the second is the delimiter row). */
export function tableOf(l: Lines, a: number, b: number): BlockNode {
  const { src, base } = l;
  const rows: NonNullable<BlockNode["rows"]> = [];
  let width = 0;
  for (let line = a; line < b; line++) {
    if (line === a + 1) continue;
    const lineStart = l.begin[line];
    const lineStop = l.end[line];
    for (let k = lineStart; k < lineStop; k++) if (src.charCodeAt(k) === 0x09) throw new NeedsMicromark();
    if (src.indexOf("|", lineStart) >= lineStop || src.indexOf("|", lineStart) < 0) throw new NeedsMicromark();
    const spans = splitRow(src, lineStart, lineStop);
    const cells = spans.map((c) => {
      const content = src.slice(c.start, c.end);
      const cell = { text: content, start: c.start + base, end: c.end + base };
      if (INLINE_MARKUP.test(content)) l.later.push({ heading: null, cell, content, setext: false, row: line + 1 });
      return cell;
    });
    if (line === a) width = cells.length;
    let first = lineStart;
    while (first < lineStop && src.charCodeAt(first) === 0x20) first++;
    const end = lineEnd(l, line) + base;
    rows.push({ start: first + base, end, line: line + 1, cells: rowCells(cells, width, end) });
  }
  // A table without body rows ends with its delimiter row (micromark's table node spans it; the row list does not).
  return { type: "table", start: rows[0].start, end: lineEnd(l, b - 1) + base, line: a + 1, rows };
}
