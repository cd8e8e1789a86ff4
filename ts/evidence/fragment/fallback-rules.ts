/**
 * When micromark reads a group of blocks instead of markdown-it: each rule here finds a place where
 * markdown-it's reading may differ from micromark's and throws `NeedsMicromark` there; the group
 * is then a region micromark parses (`convertChunk` in block-pass.ts routes it).
 */
import type { Token } from "markdown-it";
import type { BlockNode, Lines } from "./shapes.js";
import { isBlank, lineEnd, skipBlanks, indentColumns } from "./lines.js";

/** A top-level block markdown-it cannot give exactly as micromark does: parse its lines with micromark. */
export class NeedsMicromark extends Error {}

/**
 * A quote or list on lines `[a, b)` inside the containers `enclosing` (nothing to do unless a block
 * quote is among them): where a line after its first, or the line right after it, holds only the
 * enclosing containers' markers (`>` and blanks: blank once they are removed), micromark decides where it ends. micromark ends such a container before or
 * after that line depending on what it held and on what follows (`> >\n>\n` ends the inner, empty
 * quote on its first line, `> > > - x\n>` runs every inner container over the `>` line), and
 * markdown-it's map follows neither rule.
 * @throws NeedsMicromark there
 */
export function outerMarkersAfter(l: Lines, a: number, b: number, enclosing: readonly BlockNode[]): void {
  let quotes = 0;
  for (const c of enclosing) if (c.type === "quote") quotes++;
  if (quotes === 0) return;
  const last = Math.min(b, l.begin.length - 2);
  const markers = (l.markers ??= markersOnLine(l));
  // A line with more `>` than the enclosing quotes is not blank once theirs are removed: one
  // lookup a line, so closing D nested quotes over N lines costs D × N lookups, not D × N lines read.
  for (let line = a + 1; line <= last; line++) {
    const n = markers[line];
    if (n > 0 && n <= quotes && markerStart(l, line, enclosing) === l.end[line]) throw new NeedsMicromark();
  }
}

/** Per line of `l`: how many `>` it holds when it holds only `>`, spaces and tabs (at least one `>`), else -1. */
function markersOnLine(l: Lines): Int32Array {
  const out = new Int32Array(l.begin.length).fill(-1);
  for (let line = 0; line < l.begin.length - 1; line++) {
    let n = 0;
    let i = l.begin[line];
    for (; i < l.end[line]; i++) {
      const c = l.src.charCodeAt(i);
      if (c === 0x3e) n++;
      else if (c !== 0x20 && c !== 0x09) break;
    }
    if (i === l.end[line] && n > 0) out[line] = n;
  }
  return out;
}

/**
 * Where a list item's marker is on its first line: skip the `>` of enclosing
 * quotes and the indentation of enclosing items (markdown-it does not keep it).
 */
export function markerStart(l: Lines, line: number, containers: readonly BlockNode[]): number {
  const { src } = l;
  const end = l.end[line];
  let p = skipBlanks(src, l.begin[line], end);
  for (const c of containers) {
    if (c.type === "quote") {
      if (src.charCodeAt(p) !== 0x3e) throw new NeedsMicromark();
      p = skipBlanks(src, p + 1, end);
    }
  }
  return p;
}

/** A definition's label as written (between `[` and `]:` on its first line), or NeedsMicromark. */
export function definitionLabel(l: Lines, start: number, line: number): string {
  const { src } = l;
  if (src.charCodeAt(start) !== 0x5b) throw new NeedsMicromark();
  for (let i = start + 1; i < l.end[line]; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x5b) throw new NeedsMicromark();
    else if (c === 0x5d) return src.slice(start + 1, i);
  }
  throw new NeedsMicromark(); // a label over several lines
}

/** Whether a fence's last line closes it (same character, at least as long, nothing after but whitespace). */
export function fenceClosed(l: Lines, t: Token, nested: boolean, firstChar: number): boolean {
  const [a, b] = t.map!;
  if (b - 1 <= a) return false;
  const m = /^([ \t>]*)(`{3,}|~{3,})[ \t]*$/.exec(l.src.slice(l.begin[b - 1], l.end[b - 1]));
  if (m === null || m[2][0] !== t.markup[0] || m[2].length < t.markup.length) return false;
  // At the top level nothing may come before the closing fence but up to three columns of white space (`> \`\`\`` closes nothing).
  if (!nested) return !m[1].includes(">") && indentColumns(l, b - 1) <= 3;
  // In a container: only the plain case, the closing fence in the opening fence's column (same prefix).
  const open = firstChar;
  return m[1].length === open - l.begin[a] && !m[1].includes("\t") && l.src.slice(l.begin[a], open) === m[1];
}

/** The end markers of HTML blocks of kinds 1–5 (CommonMark 4.6), which run to the end of the document when missing. */
const HTML_ENDS: [RegExp, RegExp][] = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

/** Whether an HTML block ends where markdown-it says (kinds 6 and 7 always; 1–5 when the end marker is on its last line). */
export function htmlClosed(l: Lines, t: Token, firstChar: number): boolean {
  const [a, b] = t.map!;
  const first = l.src.slice(firstChar, l.end[a]);
  for (const [open, close] of HTML_ENDS) {
    if (!open.test(first)) continue;
    const last = l.src.slice(b - 1 === a ? firstChar + 2 : l.begin[b - 1], l.end[b - 1]);
    return close.test(last);
  }
  return true;
}

/**
 * Whether a top-level HTML block of kinds 1–5 never closes, as markdown-it reads it: no line of the
 * token holds its kind's end marker (markdown-it tests the first line from its `<`, so it finds
 * more ends there than micromark, which looks only after the opener: `<?>`; on the other lines both
 * look for the same strings, `-->`, `?>`, `>`, `]]>`, `</pre>` and the like, case-insensitively
 * for kind 1). Unclosed to markdown-it is then unclosed to micromark, which runs it to the end of
 * the document (`runsToEnd`); the converse does not matter (then `htmlClosed` decides).
 */
export function htmlUnclosed(l: Lines, t: Token): boolean {
  const [a, b] = t.map!;
  const first = l.src.slice(l.begin[a] + l.shift[a], l.end[a]);
  for (const [open, close] of HTML_ENDS) {
    if (!open.test(first)) continue;
    // markdown-it stops at the first line with the marker: only the last line may hold it.
    return b === l.begin.length - 1 && !close.test(l.src.slice(l.begin[b - 1] + l.shift[b - 1], l.end[b - 1]));
  }
  return false;
}

/**
 * Where indented code ends as micromark ends it (an offset into markdown-it's string): markdown-it
 * stops at the last line with content, micromark also takes the whitespace-only lines after it
 * that are still indented four columns (up to the next line with content), the CR of a CR LF not
 * counted as one (`indentColumns`), and a whitespace-only last line without a line ending, which
 * markdown-it's line table leaves out (`lineTable`: `"    code\n     "` is all code to micromark).
 */
export function indentedCodeEnd(l: Lines, next: number, nested: boolean): number {
  let last = next - 1;
  const lineMax = l.begin.length - 1;
  let line = next;
  for (; line < lineMax; line++) {
    if (!isBlank(l, line)) {
      // In a block quote, a line of only `>` and white space may be a whitespace-only line of the code (`>     code\n>     `).
      if (nested && /^[ \t>]*$/.test(l.src.slice(l.begin[line], l.end[line]))) throw new NeedsMicromark();
      break;
    }
    if (l.begin[line] === lineEnd(l, line)) continue; // empty (a CR LF alone is empty too)
    if (nested) throw new NeedsMicromark();
    if (indentColumns(l, line) >= 4) last = line;
  }
  const { src } = l;
  // Only blank lines after the code, then white space to the end that the line table has no line for.
  if (line === lineMax && lineMax > 0 && l.end[lineMax - 1] + 1 < src.length) {
    if (nested) throw new NeedsMicromark();
    let col = 0;
    for (let i = l.end[lineMax - 1] + 1; i < src.length; i++) col += src.charCodeAt(i) === 0x09 ? 4 - (col % 4) : 1;
    if (col >= 4) return src.length;
  }
  return lineEnd(l, last);
}

/**
 * Whether a line may be a GFM table's delimiter row (after the markers of enclosing quotes): only
 * `|`, `:`, `-` and blanks, a `-` and a `|` or `:` among them (`:-` alone is the delimiter row of a
 * one-column table; `---` alone a setext underline or a break). (Linear: one anchored run, then tests of the rest.)
 */
function delimiterLike(line: string): boolean {
  const rest = line.slice(/^[ \t>]*/.exec(line)![0].length);
  return (rest.includes("|") || rest.includes(":")) && rest.includes("-") && /^[|:\- \t]+$/.test(rest);
}

/**
 * Lines `[from, to)` of a paragraph's text (its first line excluded by the caller): a delimiter-like
 * one may make a table markdown-it did not read.
 * @throws NeedsMicromark there
 */
export function delimiterLikeIn(l: Lines, from: number, to: number): void {
  for (let line = from; line < to; line++) if (delimiterLike(l.src.slice(l.begin[line], l.end[line]))) throw new NeedsMicromark();
}

/**
 * A block quote (at the top level, so nested ones too) with a `>` after four columns of
 * indentation on a line after its first: markdown-it continues the quote there, CommonMark does
 * not (`> \t\tq\n    > quote`: the second line is indented code). Over-approximates (any run of
 * four columns before a `>` in the line's prefix): micromark decides.
 */
export function quoteIndents(l: Lines, t: Token): void {
  const [a, b] = t.map!;
  for (let line = a + 1; line < b; line++) {
    const c = l.src.charCodeAt(l.begin[line]);
    if ((c === 0x20 || c === 0x09 || c === 0x3e) && indentedMarker(l.src.slice(l.begin[line], l.end[line]))) throw new NeedsMicromark();
  }
}

/**
 * `quoteIndents` for a block quote in a top-level list, whose lines' prefixes hold the items'
 * indentation: a `>` on a line after its first that stands right of the quote's own marker
 * (`firstColumn`) after four columns or more of spaces and tabs (a tab counted as four). markdown-it
 * continues the quote there; CommonMark does not when the `>` is four columns or more past the
 * item's content (`- > # h\n      > x`: the second line is indented code in the item). Every such
 * marker is caught (the item's content column is at most the quote's, and at least three columns
 * left of its marker); a few quotes read right go too: micromark decides.
 */
export function listQuoteIndents(l: Lines, t: Token, firstColumn: number): void {
  const [a, b] = t.map!;
  const { src } = l;
  for (let line = a + 1; line < b; line++) {
    let column = 0;
    let run = 0;
    for (let p = l.begin[line]; p < l.end[line]; p++) {
      const c = src.charCodeAt(p);
      if (c === 0x20) {
        column++;
        run++;
      } else if (c === 0x09) {
        column += 4 - (column % 4);
        run += 4;
      } else if (c === 0x3e) {
        if (column > firstColumn && run >= 4) throw new NeedsMicromark();
        column++;
        run = 0;
      } else break;
    }
  }
}

/**
 * Whether the line's run of leading spaces, tabs and `>` holds four spaces or a tab before a `>`
 * (what `/^[ \t>]*?(?: {4}|\t)[ \t]*>/` tests, in linear time: that pattern backtracks
 * quadratically on a long line of spaces, 4 s for 40,000).
 */
function indentedMarker(line: string): boolean {
  const prefix = /^[ \t>]*/.exec(line)![0];
  const lastMarker = prefix.lastIndexOf(">");
  return lastMarker > 0 && /(?: {4}|\t)/.test(prefix.slice(0, lastMarker));
}

/**
 * A block that markdown-it starts on the line right after a definition (of level
 * `definitionLevel`). CommonMark takes definitions from the start of a paragraph, so what
 * follows one without a blank line is still that paragraph unless it may interrupt one: indented
 * code, an HTML block of kind 7, an ordered list not starting at 1 and a list opening with an
 * empty item may not (`[ref]: /u\n    indented` is a definition and the paragraph `indented`),
 * and a line after a definition in a block quote or list item is a lazy continuation of that
 * paragraph when it would be one after text (`> [q]: /q\nmore` is a quote of a definition and
 * the paragraph `more`). markdown-it's reference rule ends the paragraph there and reads the next
 * line afresh, and its block quotes and items take no lazy line after a definition: micromark
 * decides. (Lists and HTML blocks that may interrupt, and blocks of an enclosing container, are
 * sent too: rare after a definition, and read exactly.)
 */
export function afterDefinition(t: Token, definitionLevel: number): void {
  if (t.level < definitionLevel || t.type === "code_block" || t.type === "html_block" || t.type === "bullet_list_open" || t.type === "ordered_list_open") throw new NeedsMicromark();
}

export const FOOTNOTE_DEFINITION = /^[ \t>*+\-\d.)]*\[\^/m;

/**
 * Whether a line of the group `tokens[g.from..g.to)` (lines `[g.a, g.b)`) may open a footnote
 * definition (`FOOTNOTE_DEFINITION`), the content lines of top-level fences and HTML blocks
 * aside: those are raw text to micromark too (read natively only where both parsers agree on the
 * block's extent), and a `[^n]: x` line in a 4 MB unclosed fence would otherwise send the whole
 * fence to micromark (about 1.5 KB of memory per byte of it).
 */
export function mayOpenFootnote(l: Lines, tokens: readonly Token[], g: { from: number; to: number; a: number; b: number }): boolean {
  const { src } = l;
  const stop = l.end[g.b - 1];
  let from = l.begin[g.a];
  for (let k = g.from; k < g.to; k++) {
    const t = tokens[k];
    if (t.level !== 0 || (t.type !== "fence" && t.type !== "html_block") || t.map === null || t.map[1] - t.map[0] < 2) continue;
    if (FOOTNOTE_DEFINITION.test(src.slice(from, l.end[t.map[0]]))) return true;
    from = t.map[1] < g.b ? l.begin[t.map[1]] : stop;
  }
  return FOOTNOTE_DEFINITION.test(src.slice(from, stop));
}
