/**
 * The block pass: markdown-it tokenizes the document in chunks, each group of top-level blocks is
 * read from its tokens or routed to micromark as a region (`convertChunk`), and the labels and task
 * items left for later are read once every definition is known (`parseBlocks`).
 */
import type { Env, StateBlock, Token } from "markdown-it";
import { MAX_MICROMARK_NESTING, MAX_MICROMARK_LENGTH } from "./limits.js";
import { MarkdownNestingError } from "./errors.js";
import type { BlockNode, Lines, Later, Definitions } from "./shapes.js";
import { offsets } from "./mdast.js";
import { fromMarkdown } from "./micromark.js";
import { frontmatterProbe } from "./front-matter.js";
import { lineStartOf, isBlank, lineEnd, trimmedEnd } from "./lines.js";
import { NeedsMicromark, FOOTNOTE_DEFINITION, mayOpenFootnote } from "./fallback-rules.js";
import { type FragmentEnv, md, resetBlockStarts } from "./markdown-it.js";
import { INLINE_MARKUP, setLabel, labelsByMicromark, inlinePlainText } from "./labels.js";
import { micromarkRegion } from "./micromark-region.js";
import { micromarkLargeRegion } from "./large-region.js";
import { taskHeadByMarkdownIt, taskHeadsByMicromark } from "./task-items.js";
import { definitionLines, type DefinitionLines } from "./definitions.js";
import { GroupReader } from "./group-reader.js";

/**
 * The blocks of a markdown document. markdown-it finds the block structure (its
 * block pass only: no inline parsing) and its line marks give the offsets; a
 * top-level block markdown-it may read differently from micromark (tables,
 * footnotes, definitions over several lines, front matter) is parsed again alone
 * with micromark, together with the blocks it touches without a blank line between.
 */
export function parseBlocks(text: string): BlockNode[] {
  const base = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Same length as the text, so offsets carry over: CR LF → space LF, a lone CR → LF (both are line
  // endings to CommonMark; the space is trailing whitespace every block ignores), NUL → U+FFFD.
  const body = base ? text.slice(base) : text;
  // (Two memchr-fast scans first: most documents hold neither, and the regex scan costs more.)
  const src = body.includes("\r") || body.includes("\0") ? body.replace(/\r\n?|\0/g, (m) => (m === "\r\n" ? " \n" : m === "\r" ? "\n" : "\uFFFD")) : body;
  const env: Env = {};
  const state = new (md().block.State)(src, md(), env, []) as StateBlock;
  const l: Lines = { src, begin: state.bMarks, end: state.eMarks, shift: state.tShift, base, text, crlf: text.includes("\r\n"), env, later: [], footnotes: src.includes("[^"), footnoteRegions: [], regions: [] };
  const out: BlockNode[] = [];

  // Front matter: only at the very top, and micromark-extension-frontmatter decides what it is. Its
  // content is never parsed, so micromark reads the two fence lines alone (with one line between)
  // and the node is stretched over the real content: a document of a 23 KB "front matter" that
  // never closes is not parsed twice. Where it is not front matter, the rest is read as CommonMark
  // reads it, a deliberate divergence from the old fragmenter: the extension's failed attempt on
  // an unclosed `---` first line left micromark reading no list, quote or footnote in the whole
  // document (`---\n- item` was a break and a paragraph; docs/evidence.md).
  let firstLine = 0;
  if (/^(?:---|\+\+\+)[ \t]*$/.test(src.slice(0, l.end[0] ?? 0))) {
    const fence = src.slice(0, 3);
    for (let line = 1; line < state.lineMax; line++) {
      if (src.slice(l.begin[line], trimmedEnd(l, line)) !== fence) continue;
      const opening = text.slice(base, lineEnd(l, 0) + base);
      const closing = text.slice(l.begin[line] + base, lineEnd(l, line) + base);
      const probeEnd = frontmatterProbe(opening, closing);
      if (probeEnd !== null) {
        out.push({ type: "frontmatter", start: base, end: l.begin[line] + probeEnd + base, line: 1 });
        firstLine = line + 1;
      }
      break;
    }
  }
  let defs: DefinitionLines | undefined;
  // Only called from `l.later` work and pieces, which run once every chunk is tokenized: all definitions known.
  const definitions: Definitions = (piece, region) => (piece.includes("[") ? (defs ??= definitionLines(env, l)).for(piece, region) : "");
  const pieces: (BlockNode | (() => BlockNode[]))[] = [];
  const reader = new GroupReader(l);

  // The document is tokenized in chunks of about `chunkLines` lines, cut only before an ATX heading at
  // column 0 after a blank line (where every block but an open fence or HTML block has ended), so
  // markdown-it's tokens for one chunk at a time are alive, not the whole document's. A chunk whose
  // last block reached the cut (it ran on over the blank line) is tokenized again, longer.
  for (let s = firstLine; s < state.lineMax; ) {
    let e = nextCut(l, s + chunkLines, state.lineMax);
    for (;;) {
      state.tokens = [];
      resetBlockStarts();
      md().block.tokenize(state, s, e);
      if (e === state.lineMax || !reachesCut(state.tokens, e)) break;
      e = nextCut(l, e + (e - s), state.lineMax);
    }
    convertChunk(state.tokens, l, reader, definitions, pieces, e === state.lineMax);
    s = e;
  }
  state.tokens = [];
  resetBlockStarts();
  const byMicromark: Later[] = [];
  const labels: Later[] = [];
  // markdown-it's inline reading (below) resolves references against `env.references`, markdown-it's
  // reading of the definitions; where micromark read the blocks (regions) its definitions may differ:
  // the set micromark reads the whole document with replaces it.
  if (l.later.length > 0 && (env.references || l.regions.length > 0)) {
    const got = (defs ??= definitionLines(env, l)).markdownItReferences((md() as unknown as { utils: { normalizeReference: (s: string) => string } }).utils.normalizeReference);
    env.references = got.references;
    (env as FragmentEnv).oddSpace = got.oddSpace;
  }
  for (const w of l.later) {
    if (w.task) {
      const text = taskHeadByMarkdownIt(w.content, env);
      if (text === null) byMicromark.push(w);
      else if (text) {
        w.task.start = w.moved!;
        w.task.line = w.line!;
      }
    } else {
      const fast = !INLINE_MARKUP.test(w.content) ? w.content : inlinePlainText(w.cell ? cellPipesUnescaped(w.content) : w.content, env);
      if (fast === null) labels.push(w);
      else setLabel(w, fast);
    }
  }
  labelsByMicromark(labels, definitions);
  const moved = taskHeadsByMicromark(byMicromark.map((w) => w.content), byMicromark.map((w) => w.line!), definitions);
  for (let k = 0; k < moved.length; k++) {
    if (!moved[k]) continue;
    byMicromark[k].task!.start = byMicromark[k].moved!;
    byMicromark[k].task!.line = byMicromark[k].line!;
  }
  l.later.length = 0;
  for (const p of pieces) {
    if (typeof p === "function") for (const n of p()) out.push(n);
    else out.push(p);
  }
  return out;
}

/**
 * Lines per chunk markdown-it tokenizes at a time (about 100–200 KB of prose): a chunk's tokens
 * then die young, collected by the scavenger, instead of being promoted and piling up in the
 * old generation until a full collection (on a 50 MB document, hundreds of MB of dead tokens).
 */
let chunkLines = 2_000;

/** @internal Test hook: tokenize in chunks of `lines` lines (small values exercise the cuts). Returns the previous value. */
export function setMarkdownChunkLines(lines: number): number {
  const previous = chunkLines;
  chunkLines = Math.max(1, Math.floor(lines));
  return previous;
}

/** The first line at or after `from` where a chunk may end: an ATX heading at column 0 after a blank line. */
function nextCut(l: Lines, from: number, lineMax: number): number {
  for (let line = Math.max(from, 1); line < lineMax; line++) {
    if (l.src.charCodeAt(l.begin[line]) !== 0x23 || !isBlank(l, line - 1)) continue;
    if (/^#{1,6}(?:[ \t]|$)/.test(l.src.slice(l.begin[line], Math.min(l.end[line], l.begin[line] + 8)))) return line;
  }
  return lineMax;
}

/**
 * Whether the chunk's last top-level block may run on past the cut: a fence or an HTML block
 * that reached it (unclosed, it would go on). Any other block has ended at the cut, an ATX
 * heading at column 0 after a blank line, even when markdown-it's map counts that blank line
 * (a list does): checking the map alone sent every chunk of a list-heavy document (awesome)
 * back to be tokenized again, twice as long each time, up to 65,000 lines.
 */
function reachesCut(tokens: readonly Token[], cut: number): boolean {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.level === 0 && t.map) return t.map[1] >= cut && (t.type === "fence" || t.type === "html_block");
  }
  return false;
}

/** Group one chunk's top-level blocks (while no blank line separates them) and convert each group. */
function convertChunk(tokens: readonly Token[], l: Lines, reader: GroupReader, definitions: Definitions, pieces: (BlockNode | (() => BlockNode[]))[], lastChunk: boolean): void {
  const { src, base, text } = l;
  const groups: { from: number; to: number; a: number; b: number; emptyItem: boolean; micromark: boolean }[] = [];
  for (let i = 0; i < tokens.length; ) {
    const t = tokens[i];
    let j = i + 1;
    let emptyItem = false;
    if (t.nesting === 1) {
      for (let depth = 1; j < tokens.length && depth > 0; j++) {
        depth += tokens[j].nesting;
        if (tokens[j].type === "list_item_close" && tokens[j - 1].type === "list_item_open") emptyItem = true;
      }
    }
    const [a, b] = t.map ?? [0, 0];
    const last = groups[groups.length - 1];
    const adjacent = last !== undefined && a === last.b && last.b > 0 && !isBlank(l, last.b - 1);
    // An empty list item followed by two blank lines ends markdown-it's list (its item reader
    // stops at the second blank), where CommonMark and micromark keep the list going through any
    // number of blank lines ("-\n\n\n- a" is one list of two items): the group and the
    // blocks after it are read together by micromark.
    const afterEmptyItem = !adjacent && last?.emptyItem === true;
    // A footnote definition goes on after blank lines with lines indented four columns or more
    // (markdown-it, which knows no footnotes, reads indented code there): read with it.
    const footnoteGoesOn = !adjacent && !afterEmptyItem && l.footnotes && last !== undefined && t.type === "code_block" && FOOTNOTE_DEFINITION.test(src.slice(l.begin[last.a], l.end[last.b - 1]));
    // Indented code after blank lines after a list (the last item's content column is past the
    // code's): micromark ends the code after its first line (`-    a\n\n    x\n    y` is two code
    // blocks to micromark, one to CommonMark): read with the list by micromark, as the reference does.
    const codeAfterList = !adjacent && !afterEmptyItem && !footnoteGoesOn && last !== undefined && t.type === "code_block" && (tokens[i - 1].type === "bullet_list_close" || tokens[i - 1].type === "ordered_list_close");
    if (adjacent || afterEmptyItem || footnoteGoesOn || codeAfterList) {
      last.to = j;
      last.b = Math.max(last.b, b);
      last.emptyItem = afterEmptyItem ? emptyItem : last.emptyItem || emptyItem;
      last.micromark ||= afterEmptyItem || footnoteGoesOn || codeAfterList;
    } else {
      groups.push({ from: i, to: j, a, b, emptyItem, micromark: false });
    }
    i = j;
  }
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const later = l.later.length;
    try {
      if (g.micromark) throw new NeedsMicromark();
      if (l.footnotes && mayOpenFootnote(l, tokens, g)) throw new NeedsMicromark();
      const nodes = reader.read(tokens, g.from, g.to);
      // micromark starts a setext heading at the definitions before its text (they share one content
      // chunk), in containers too (`> [d]: /u\n> next\n> ---`).
      if (reader.definitions && tokens.slice(g.from, g.to).some((t) => t.type === "heading_open" && (t.markup === "=" || t.markup === "-"))) throw new NeedsMicromark();
      for (const n of nodes) pieces.push(n);
    } catch (error) {
      if (!(error instanceof NeedsMicromark)) throw error;
      // The reader gave up before it reached the group's deepest block: the nesting bound holds for
      // micromark's reading too (markdown-it's token levels count one per open list, item and quote),
      // and lower, as micromark's time grows with depth × size (MAX_MICROMARK_NESTING).
      for (let k = g.from; k < g.to; k++) {
        if (tokens[k].nesting === 1 && tokens[k].level >= MAX_MICROMARK_NESTING) throw new MarkdownNestingError(tokens[k].map ? tokens[k].map![0] + 1 : g.a + 1, MAX_MICROMARK_NESTING);
      }
      l.later.length = later; // labels of the abandoned reading
      const start = l.begin[g.a] + base;
      // (A group ends before the CR of its last line's CR LF: micromark would read a lone CR, a line ending, there.)
      const endOf = (k: number) => lineEnd(l, groups[k].b - 1) + base;
      // micromark's reading of the group may go on into the next groups where markdown-it's did not (a
      // list markdown-it ended at a lazy line, an HTML block of kind 1 it read inside one of kind 7):
      // they are read with it.
      if (gi + 1 < groups.length && RUNS_ON.test(src.slice(l.begin[g.a], l.end[g.b - 1]))) {
        // Each probe reads from the first line of the region's last block so far (the blocks before it
        // are final: `micromarkLargeRegion`), so a run of G joined groups costs G probes of a block and a
        // group each, not G of the whole region (`<x-y>\n<pre>\n\nx\n</pre>\n` × 400: 14 s, now linear).
        let probe: { from: number; line: number } | null = { from: start, line: g.a + 1 };
        while (gi + 1 < groups.length && (probe = runsOn(text, probe.from, endOf(gi), endOf(gi + 1), probe.line))) gi++;
      }
      // The last group runs to the end of the text: an open fence or HTML block ends there in micromark.
      let end = lastChunk && gi === groups.length - 1 ? text.length : endOf(gi);
      // The blank lines after the group (up to the next line with content) are read with it, line
      // ending of the last included, and no node ends past that line's end (`limit`): micromark's open
      // blocks take whitespace-only lines that markdown-it's maps (and so the group) may leave out:
      // indented code those indented four columns (`>  a\n    code\n    \n> q`), an open fence or HTML
      // block in a list item any (`- a\n  <pre>\n  \nx`: to 14). Read alone without the line ending,
      // micromark drops a whitespace-only last line (6–12); with it, the block runs on to the end of
      // the region (6–15); the whole document ends it at the line's end. No block micromark closes
      // ends on a blank line; one that goes on past it is read with the next group (`runsOn`).
      let limit = end;
      if (end < text.length) {
        let k = groups[gi].b;
        while (k < l.begin.length - 1 && isBlank(l, k)) k++;
        if (k > 0 && isBlank(l, k - 1) && lineEnd(l, k - 1) + base >= end) {
          limit = lineEnd(l, k - 1) + base;
          end = k < l.begin.length - 1 ? l.begin[k] + base : text.length;
        }
      }
      const firstLine = g.a + 1;
      const large = end - start > MAX_MICROMARK_LENGTH;
      // Every line that may open a footnote definition is in such a region (the group test above, or
      // a group read with one that was routed): micromark's block pass over it finds the definitions.
      if (l.footnotes && FOOTNOTE_DEFINITION.test(text.slice(start, end))) l.footnoteRegions.push(start, end);
      l.regions.push(start, end);
      pieces.push(() => (large ? micromarkLargeRegion : micromarkRegion)(text, start, end, firstLine, definitions, limit));
    }
  }
}

/**
 * Lines that open, to micromark, a block that may go on past blank lines: a list item, an HTML block
 * of kinds 1–5, a fence, a footnote definition (after the markers of enclosing containers).
 */
const RUNS_ON = /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|<(?:script|pre|style|textarea|!--|\?|![A-Za-z])|```|~~~|\[\^)/im;

/**
 * Whether micromark's last top-level block of `text.slice(start, end)` (`start` at a line start,
 * `line` its 1-based line), read alone, goes on past `end` when the text up to `next` (the next
 * group's end) is read: then the groups must be read together, and the result is where that block's
 * first line starts (and its line), from which the next probe may read (the blocks before it are
 * final, and the text from a top-level block's first line reads alone as in the whole region:
 * `micromarkLargeRegion`); null when it does not. Two micromark parses, the second from that line;
 * only for routed groups that may run on (`RUNS_ON`).
 */
function runsOn(text: string, start: number, end: number, next: number, line: number): { from: number; line: number } | null {
  if (end - start > MAX_MICROMARK_LENGTH || next - start > MAX_MICROMARK_LENGTH) return runsOnLarge(text, start, end, next, line);
  const region = text.slice(start, end);
  const alone = fromMarkdown(region, line).children;
  const last = alone[alone.length - 1];
  // (The region may end with blank lines a list's map counts, or the CR of a CR LF; no block ends after them.)
  if (!last || offsets(last, last.type).end < region.trimEnd().length || !/^(?:list|html|code|footnoteDefinition)$/.test(last.type)) return null;
  // A list runs on past `end` when its last item does: that item is probed (its line reads alone as a
  // list with it, `micromarkLargeRegion`), not the whole list again.
  const probed = last.type === "list" ? last.children[last.children.length - 1] : last;
  const o = offsets(probed, probed.type);
  const from = lineStartOf(text, start + o.start);
  const at = { from: Math.max(from, start), line: line + o.line - 1 };
  for (const node of fromMarkdown(text.slice(at.from, next), at.line).children) {
    const n = offsets(node, node.type);
    if (n.start === start + o.start - at.from) return n.end > end - at.from ? at : null;
  }
  return at;
}

/**
 * `runsOn` for a region or a next group longer than MAX_MICROMARK_LENGTH, read in pieces
 * (`micromarkLargeRegion`, without definitions: block ends do not depend on them): the last block
 * (a list's last item) is read again from its first line with the text up to `next` (the blocks from
 * a top-level block's or item's first line on read alone as in the whole region, `micromarkLargeRegion`).
 */
function runsOnLarge(text: string, start: number, end: number, next: number, line: number): { from: number; line: number } | null {
  const noDefinitions: Definitions = () => "";
  const blocksOf = (from: number, to: number, at: number) =>
    (to - from > MAX_MICROMARK_LENGTH ? micromarkLargeRegion : micromarkRegion)(text, from, to, at, noDefinitions, Number.MAX_SAFE_INTEGER);
  const last = blocksOf(start, end, line).at(-1);
  let contentEnd = end;
  while (contentEnd > start && /\s/.test(text[contentEnd - 1])) contentEnd--;
  if (!last || last.end < contentEnd || !/^(?:list|html|code|footnote)$/.test(last.type)) return null;
  // A list: its last item, as in `runsOn`.
  const probed = last.type === "list" ? last.children!.at(-1)! : last;
  const at = { from: Math.max(lineStartOf(text, probed.start), start), line: probed.line };
  for (const node of blocksOf(at.from, next, at.line)) if (node.start === probed.start) return node.end > end ? at : null;
  return at;
}

/**
 * A table cell's content as GFM reads it inline: every `\|` is a `|` before the inline
 * constructs are read, so inside a code span too (GFM 0.29 example 200: `` `\|` `` is the
 * code `|`; mdast-util-gfm-table and markdown-it's row split do the same). `\\` stays a pair,
 * so `\\\|` becomes `\\|` (an escaped backslash, then a pipe). Only the cell's text changes:
 * its offsets are the source's.
 */
function cellPipesUnescaped(content: string): string {
  return content.includes("\\|") ? content.replace(/\\([\\|])/g, (pair, c: string) => (c === "|" ? "|" : pair)) : content;
}
