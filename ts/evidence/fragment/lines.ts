/**
 * Line arithmetic, as micromark counts lines (LF, CR LF, a lone CR) and columns (tab stops of 4),
 * over the text as given and over markdown-it's line table (`Lines`).
 */
import type { Lines } from "./shapes.js";

/**
 * Where the line holding offset `at` of `text` starts: after the last line ending (LF, CR LF or a
 * lone CR, as micromark reads them) before `at`; an `at` between the CR and the LF of a CR LF counts
 * as in the line the CR ends.
 */
export function lineStartOf(text: string, at: number): number {
  const lf = text.lastIndexOf("\n", at - 1);
  const cr = text.lastIndexOf("\r", at - 1);
  if (cr > lf && text.charCodeAt(cr + 1) === 0x0a) return cr + 2 > at ? lineStartOf(text, cr) : cr + 2;
  return Math.max(lf, cr) + 1;
}

/** Where the line after the one holding offset `at` starts (`text.length` when there is none). */
export function nextLineStart(text: string, at: number): number {
  for (let k = at; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a) return k + 1;
    if (c === 0x0d) return text.charCodeAt(k + 1) === 0x0a ? k + 2 : k + 1;
  }
  return text.length;
}

/** Line endings (LF, CR LF or a lone CR) that end in `text.slice(from, to)`. */
export function lineEndings(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a)) n++;
  }
  return n;
}

export function isBlank(l: Lines, line: number): boolean {
  for (let i = l.begin[line]; i < l.end[line]; i++) {
    const c = l.src.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** End of a line as micromark ends a block on it: trailing whitespace kept, a CR (of CR LF) not. */
export function lineEnd(l: Lines, line: number): number {
  const e = l.end[line];
  return e > l.begin[line] && l.crlf && l.text.charCodeAt(e - 1 + l.base) === 0x0d ? e - 1 : e;
}

/** End of a line's content, trailing spaces and tabs excluded. */
export function trimmedEnd(l: Lines, line: number): number {
  let e = l.end[line];
  while (e > l.begin[line]) {
    const c = l.src.charCodeAt(e - 1);
    if (c !== 0x20 && c !== 0x09) break;
    e--;
  }
  return e;
}

/** The first offset in `[p, end)` that is not a space or a tab (`end` if none). */
export function skipBlanks(src: string, p: number, end: number): number {
  while (p < end && (src.charCodeAt(p) === 0x20 || src.charCodeAt(p) === 0x09)) p++;
  return p;
}

/** The offset after the last character in `[start, e)` that is not a space or a tab (`start` if none). */
export function trimBlanks(src: string, start: number, e: number): number {
  while (e > start && (src.charCodeAt(e - 1) === 0x20 || src.charCodeAt(e - 1) === 0x09)) e--;
  return e;
}

/**
 * Columns of leading whitespace of a line (tab stops of 4). The line ends before its CR of a CR LF:
 * markdown-it's string holds a space there (`parseBlocks`), which would count as one more column
 * of a whitespace-only line (`"   \r\n"` is 3 columns to micromark, not 4).
 */
export function indentColumns(l: Lines, line: number): number {
  let col = 0;
  const end = lineEnd(l, line);
  for (let i = l.begin[line]; i < end; i++) {
    const c = l.src.charCodeAt(i);
    if (c === 0x20) col++;
    else if (c === 0x09) col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** The 0-based column of `at` in its line of `text` (tab stops of 4), as micromark counts it. */
export function columnOf(text: string, at: number): number {
  let p = at;
  while (p > 0 && text.charCodeAt(p - 1) !== 0x0a && text.charCodeAt(p - 1) !== 0x0d) p--;
  let col = 0;
  for (; p < at; p++) col = text.charCodeAt(p) === 0x09 ? col + 4 - (col % 4) : col + 1;
  return col;
}
