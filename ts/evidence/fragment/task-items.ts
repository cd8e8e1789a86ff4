/**
 * GFM task list items: where a task item's paragraph starts once its check is read (`taskParagraph`),
 * from the source, by markdown-it's inline rules, or by micromark in batches.
 */
import type { Env, Token } from "markdown-it";
import { BATCH_CHARS } from "./limits.js";
import type { BlockNode, Lines, Definitions } from "./shapes.js";
import { offsets } from "./mdast.js";
import { fromMarkdownAtExit } from "./micromark.js";
import { columnOf } from "./lines.js";
import { NeedsMicromark } from "./fallback-rules.js";
import { labelsMayDiffer, md } from "./markdown-it.js";

/**
 * A list item's first paragraph that opens with a GFM task list check (`[ ]`, `[x]`, `[X]`, a tab or
 * a line ending between the brackets), read as micromark-extension-gfm-task-list-item and
 * mdast-util-gfm-task-list-item read it, from the source (`node.start` is the `[`; `content` is
 * markdown-it's inline content of the paragraph, `first`/`last` its lines, `containers` the blocks
 * open around it). Sets `node.start` and `node.line` (or queues that in `l.later`); throws
 * NeedsMicromark where micromark must read the group:
 *
 * - The check holds only at the start of the item's first content (micromark-util-subtokenize marks
 *   the text of the first content after the item's prefix, a blank first line skipped), so only in
 *   the item's first paragraph (the caller's test); the check must be followed by a line ending
 *   inside the paragraph, or by spaces or tabs and then something before the paragraph's end.
 *   Setext headings get no check (their text is never marked; tested), so they are never passed here.
 * - The check itself is no content; mdast then moves the paragraph's start past the first code unit
 *   of its first inline node when that node is text and holds more than that unit (`head.value.slice(1)`
 *   non-empty), else leaves it at the `[`. The node after the check starts right after the `]`: text
 *   made of the whitespace there (spaces or tabs, then content), or, when the line ends after the
 *   check (trailing spaces and tabs are a line suffix, no content), the line ending itself (a text
 *   node `\n` or `\r\n`, to which the next line's text is added), or a hard break (two spaces or
 *   more, no tab, before the line ending).
 * - So: two or more whitespace units before content, or a CR LF: moved by one unit. One unit (or an
 *   LF / CR): moved when the first inline node of the rest is text (`headIsText`), else not.
 *   The start's line stays the check's line (mdast keeps the head's start line).
 *
 * A line ending between the brackets: the `]` must be the first unit the containers leave on the next
 * line (after the item's content column of spaces, or first on a lazy line; one space more and it is
 * text), and a moved start is then on that line. Inside a block quote, with tabs there, on a lazy
 * line with some indentation, and after definitions in the same content: micromark decides
 * (NeedsMicromark).
 * The moved start is set now, or after the last chunk (`Later.task`) when it depends on the inline
 * reading of the rest (emphasis, links, HTML, autolinks; definitions may come further down).
 */
export function taskParagraph(l: Lines, node: BlockNode, content: string, first: number, last: number, containers: readonly BlockNode[]): void {
  const { text } = l;
  const s = node.start;
  if (text.charCodeAt(s) !== 0x5b) return;
  const inside = text.charCodeAt(s + 1);
  // Where the `]` is: right after the value, or, after a line ending, first on the next line.
  let after = s + 3;
  let line = first;
  let afterRel = 3;
  if (inside === 0x0a || inside === 0x0d) {
    if (first === last) return;
    // The `]` must be the first unit the containers leave on the next line: after exactly the item's
    // content column of spaces, or first on a lazy line. Quotes, tabs, a lazy line with some
    // indentation: micromark decides.
    for (const c of containers) if (c.type === "quote") throw new NeedsMicromark();
    let p = l.begin[first + 1] + l.base;
    let w = 0;
    while (text.charCodeAt(p) === 0x20) {
      p++;
      w++;
    }
    if (text.charCodeAt(p) === 0x09) throw new NeedsMicromark();
    if (text.charCodeAt(p) !== 0x5d) return;
    const column = columnOf(text, s);
    if (w > column) return; // whitespace before the `]` is text: no check
    if (w !== column && w !== 0) throw new NeedsMicromark();
    const nl = content.indexOf("\n");
    if (content.charCodeAt(nl + 1) !== 0x5d) throw new NeedsMicromark();
    after = p + 1;
    line = first + 1;
    afterRel = nl + 2;
  } else {
    if ((inside !== 0x20 && inside !== 0x09 && inside !== 0x78 && inside !== 0x58) || text.charCodeAt(s + 2) !== 0x5d) return;
    // A tab is one code and virtual spaces up to the next tab stop (micromark's preprocess, columns of the
    // line as written): inside the brackets only a tab that ends on a stop leaves the `]` right after it.
    if (inside === 0x09 && columnOf(text, s + 1) % 4 !== 3) return;
  }
  let q = after;
  for (let c = text.charCodeAt(q); c === 0x20 || c === 0x09; c = text.charCodeAt(++q));
  const c = text.charCodeAt(q);
  const lineEnds = c === 0x0a || c === 0x0d || q >= text.length;
  // Anything but whitespace or a line ending right after the `]`: no check.
  if (q === after && !lineEnds) return;
  // The head's line: a moved start keeps it (mdast copies the head's start point, offset + 1).
  const movedLine = line + 1;
  if (lineEnds) {
    // Nothing after the check in the paragraph (eof to micromark): no check.
    if (line === last) return;
    if (q > after) {
      let spaces = true;
      for (let k = after; k < q; k++) if (text.charCodeAt(k) !== 0x20) spaces = false;
      if (spaces && q - after >= 2) return; // a hard break: the first node, not text
    }
    // The line ending is the head: a text node `\r\n` keeps a unit after slice(1); `\n` (or a lone CR) only with text after it.
    if (c === 0x0d && text.charCodeAt(q + 1) === 0x0a) {
      node.start = q + 1;
      node.line = movedLine;
      return;
    }
    const nl = content.indexOf("\n", afterRel);
    let x = nl + 1;
    while (content.charCodeAt(x) === 0x20 || content.charCodeAt(x) === 0x09) x++;
    // A backslash before a CR LF on the next line reads as a space before LF here (markdown-it's string): micromark.
    if (l.crlf && content.charCodeAt(x) === 0x5c && content.charCodeAt(x + 1) === 0x20 && content.charCodeAt(x + 2) === 0x0a) throw new NeedsMicromark();
    resolveHead(l, node, content.slice(x), q + 1, movedLine);
    return;
  }
  if (q - after >= 2) {
    node.start = after + 1;
    node.line = movedLine;
    return;
  }
  // Exactly one space or tab, then content on the check's line.
  const x = afterRel + 1;
  // A backslash before a CR LF inside the paragraph is a hard break (markdown-it's string has a space there).
  if (content.charCodeAt(x) === 0x5c && text.charCodeAt(q + 1) === 0x0d && line < last) return;
  resolveHead(l, node, content.slice(x), after + 1, movedLine);
}

/** Move `node` to `moved` (on line `line`) when the first inline node of `rest` is text: now where that is plain, else after the last chunk. */
function resolveHead(l: Lines, node: BlockNode, rest: string, moved: number, line: number): void {
  const now = headIsText(rest);
  if (now === 1) {
    node.start = moved;
    node.line = line;
  } else if (now === -1) l.later.push({ heading: null, cell: null, content: rest, setext: false, task: node, moved, line });
}

/** An autolink literal (GFM) may start here: `www.`, `http://`, `https://`, or an e-mail address's local part. */
const LITERAL_START = /^(?:www\.|https?:\/\/|[A-Za-z0-9.+_-]+@)/i;

/**
 * Whether the first inline node of `rest` (a paragraph's inline content from a non-blank unit
 * preceded by whitespace) is text to micromark → mdast: 1 text, 0 not, -1 it depends on the inline
 * reading (`taskHeadIsText`, after the last chunk). Text: a character no inline construct starts
 * with, a character reference, a backslash escape or a literal backslash (before a line ending it is
 * a hard break), a run of backticks no run of the same length closes (CommonMark code spans).
 */
function headIsText(rest: string): 0 | 1 | -1 {
  const c = rest.charCodeAt(0);
  switch (c) {
    case 0x5c: // \
      return rest.charCodeAt(1) === 0x0a ? 0 : 1;
    case 0x26: // &
      return 1;
    case 0x60: {
      // `: a code span when a backtick run of the same length follows
      let n = 1;
      while (rest.charCodeAt(n) === 0x60) n++;
      for (let k = rest.indexOf("`", n); k >= 0; ) {
        let m = k + 1;
        while (rest.charCodeAt(m) === 0x60) m++;
        if (m - k === n) return 0;
        k = rest.indexOf("`", m);
      }
      return 1;
    }
    case 0x2a: // *
    case 0x5f: // _
    case 0x3c: // <
    case 0x5b: // [
    case 0x21: // !
    case 0x7e: // ~
      return -1;
    default:
      return LITERAL_START.test(rest.slice(0, 80)) ? -1 : 1;
  }
}

/**
 * Whether the first inline node of `rest` is text, once every definition of the document is known,
 * by markdown-it's inline rules alone where they provably agree with micromark's on the first node
 * (links, images, autolinks, inline HTML and emphasis are CommonMark, which both follow); null where
 * micromark must decide (`taskHeadsByMicromark`): a link label with white space micromark keeps and
 * markdown-it collapses (as in `inlinePlainText`), a `~` anywhere (GFM strikethrough, single tildes
 * too, which markdown-it does not read), a footnote call, an autolink literal at the start, or
 * emphasis in a paragraph that holds one (`www.`, `://`, `@`).
 */
export function taskHeadByMarkdownIt(rest: string, env: Env): boolean | null {
  const c = rest.charCodeAt(0);
  if (rest.includes("~") || rest.includes("[^") || LITERAL_START.test(rest.slice(0, 80)) || ((c === 0x2a || c === 0x5f) && /www\.|:\/\/|@/i.test(rest))) return null;
  if (labelsMayDiffer(rest, env)) return null;
  const parser = md();
  const tokens: Token[] = [];
  parser.inline.parse(rest, parser, env, tokens);
  // (Emphasis leaves empty text tokens where its delimiters were: `**a**` is text "", strong_open, ….)
  let k = 0;
  while (k < tokens.length && tokens[k].type === "text" && tokens[k].content === "") k++;
  const head = tokens[k];
  return head !== undefined && (head.type === "text" || head.type === "text_special");
}

/**
 * For each rest, whether micromark → mdast reads its first inline node as text, so that the task
 * paragraph's start moves. Each rest is read as the paragraph `a <rest>` (lines joined): the first
 * node of the rest then follows a space, as it follows the check's whitespace in the item (the same
 * flanking for emphasis and strikethrough, the same "previous" for autolink literals, no label
 * start before it), and it is text exactly when mdast merges it into the text `a ` (read without mdast's
 * tree transforms, as the task-list utility reads it: when the paragraph exits). The paragraphs
 * are read together, a blank line between two (no inline construct crosses one), in parses of
 * `BATCH_CHARS`, with the document's definitions the batch may use appended: linear in the
 * rests' length (a micromark call costs about half a millisecond even on one short line). Joining a rest's
 * lines changes no first node: line endings and spaces are both whitespace to every inline rule, and
 * a hard break is never first (a rest starts with content).
 */
export function taskHeadsByMicromark(rests: readonly string[], lines: readonly number[], definitions: Definitions): boolean[] {
  const out: boolean[] = [];
  for (let from = 0; from < rests.length; ) {
    let to = from;
    let size = 0;
    while (to < rests.length && (to === from || size + rests[to].length < BATCH_CHARS)) {
      size += rests[to].length + 8;
      to++;
    }
    const items: string[] = [];
    const starts: number[] = [];
    let at = 0;
    for (let k = from; k < to; k++) {
      const item = `a ${rests[k].replace(/[\r\n]/g, " ")}`;
      starts.push(at);
      items.push(item);
      at += item.length + 2;
    }
    const body = items.join("\n\n");
    const defs = definitions(body, false);
    const tree = fromMarkdownAtExit(defs ? `${body}\n\n${defs}` : body, lines[from]);
    for (let k = 0; k < items.length; k++) {
      const paragraph = tree.children[k];
      if (paragraph?.type !== "paragraph" || offsets(paragraph, "paragraph").start !== starts[k]) throw new Error("fragmentMarkdown: micromark misread a task item");
      const head = paragraph.children[0];
      out.push(head.type === "text" && head.value.length > 2);
    }
    from = to;
  }
  return out;
}
