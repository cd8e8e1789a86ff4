/**
 * markdown-it tokens → blocks, one group of top-level blocks at a time (`GroupReader`).
 */
import type { Token } from "markdown-it";
import { markdown } from "../../deps/markdown.js";
import { MAX_MARKDOWN_NESTING } from "./limits.js";
import { MarkdownNestingError } from "./errors.js";
import type { BlockNode, Lines } from "./shapes.js";
import { isBlank, lineEnd, columnOf } from "./lines.js";
import { NeedsMicromark, outerMarkersAfter, markerStart, definitionLabel, fenceClosed, htmlClosed, htmlUnclosed, indentedCodeEnd, delimiterLikeIn, quoteIndents, listQuoteIndents, afterDefinition } from "./fallback-rules.js";
import { ODD_BLANK_LABEL, ODD_SPACE, firstCharAt, lineStartAt } from "./markdown-it.js";
import { INLINE_MARKUP } from "./labels.js";
import { tableOf } from "./tables.js";
import { taskParagraph } from "./task-items.js";

/**
 * Converts the tokens of one group of top-level blocks, `tokens[from..to)`, to BlockNodes.
 * A class rather than closures in a function: one reader serves every group of a document.
 */
export class GroupReader {
  private roots: BlockNode[] = [];
  private readonly stack: BlockNode[] = [];
  private readonly opened: Token[] = [];
  private tokens: readonly Token[] = [];
  private i = 0;
  /** Whether the last group read holds a definition (at any depth). */
  definitions = false;

  constructor(private readonly l: Lines) {}

  private add(n: BlockNode): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.children!.push(n);
    else this.roots.push(n);
  }

  /** Where the block of the token at `i` starts (its first character, or its first line's start within its containers). */
  private startAt(lineStart = false): number {
    const t = this.tokens[this.i];
    if (t.level === 0) {
      const line = t.map![0];
      return lineStart ? this.l.begin[line] : this.l.begin[line] + this.l.shift[line];
    }
    const at = (lineStart ? lineStartAt : firstCharAt)[this.i];
    if (at === undefined || at < 0) throw new NeedsMicromark();
    return at;
  }

  /** A leaf block: micromark ends it at its last line's end, trailing whitespace included. */
  private leaf(type: BlockNode["type"], t: Token, fromLineStart = false, lastLine = t.map![1] - 1): BlockNode {
    const n: BlockNode = { type, start: this.startAt(fromLineStart) + this.l.base, end: lineEnd(this.l, lastLine) + this.l.base, line: t.map![0] + 1 };
    this.add(n);
    return n;
  }

  /**
   * A top-level fence or HTML block of kinds 1–5 that never closes: micromark's node runs from its
   * first character (a fence's; an HTML block's line start, as `leaf` takes them) to the end of the
   * document, every trailing blank or whitespace-only line and the final line ending (LF, CR LF,
   * lone CR) included: micromark-core-commonmark's code-fenced and html-flow constructs stay in
   * their content state until the end of file, and mdast-util-from-markdown closes the node at the
   * end point of the last event, which is the end of the text (the byte-order mark is not in the
   * text micromark reads, so "the end" is the same either way). Tested against the reference
   * (test/evidence/block-ends.test.ts). markdown-it's token then ends at the last line too (an
   * unclosed block runs to `endLine` at the top level, and a chunk whose fence or HTML block
   * reached its cut is tokenized again longer, `reachesCut`): a token that ends before the last
   * line was closed after all, and micromark decides.
   */
  private runsToEnd(type: "code" | "html", t: Token): void {
    if (t.map![1] !== this.l.begin.length - 1) throw new NeedsMicromark();
    const n = this.leaf(type, t, type === "html");
    n.end = this.l.text.length;
  }

  private open(n: BlockNode, t: Token): void {
    this.add(n);
    this.stack.push(n);
    this.opened.push(t);
    if (this.stack.length > MAX_MARKDOWN_NESTING) throw new MarkdownNestingError(t.map ? t.map[0] + 1 : n.line);
  }

  /**
   * A container ends at its last line that is not blank, or its last child's end. Blank as
   * written for quotes and lists (a `>` alone counts); for an item, blank once the `>` of the
   * quotes around it are removed (micromark's item ends before them, its list after them).
   */
  private close(t: Token): void {
    const { l, stack } = this;
    const n = stack.pop()!;
    const [a, b] = t.map!;
    let last = b - 1;
    if (n.type === "item") {
      while (last > a && markerStart(l, last, stack) === l.end[last]) last--;
    } else {
      outerMarkersAfter(l, a, b, stack);
      while (last > a && isBlank(l, last)) last--;
    }
    n.end = Math.max(n.end, lineEnd(l, last) + l.base);
    const kids = n.children!;
    if (kids.length) n.end = Math.max(n.end, kids[kids.length - 1].end);
    // An array grown by push holds 17 slots at least: an exact copy keeps what the (long-lived)
    // block tree holds small; the grown one dies young.
    n.children = kids.slice();
  }

  /**
   * A block quote or list opening right where another block quote or list closed, inside a block
   * quote: micromark ends the closed one (and the quotes and lists closed with it, though not their
   * items) where the new one starts, after the enclosing quote's marker on the new line
   * (`> - a\n> > q`: the list is `- a\n> `), and where the enclosing container is a list item, at its
   * last line's end. Rare; micromark decides (also where the enclosing quote is further out).
   */
  private siblingContainer(i: number, from: number): void {
    if (i === from) return;
    const before = this.tokens[i - 1].type;
    if (before !== "blockquote_close" && before !== "bullet_list_close" && before !== "ordered_list_close") return;
    for (const n of this.stack) if (n.type === "quote") throw new NeedsMicromark();
  }

  /**
   * The BlockNodes of `tokens[from..to)`.
   * @throws NeedsMicromark where markdown-it's reading may differ from micromark's
   * @throws MarkdownNestingError past MAX_MARKDOWN_NESTING containers
   */
  read(tokens: readonly Token[], from: number, to: number): BlockNode[] {
    const { l, stack } = this;
    const base = l.base;
    const roots: BlockNode[] = (this.roots = []);
    this.tokens = tokens;
    stack.length = 0;
    this.opened.length = 0;
    this.definitions = false;
    // The line after the last definition read, and the definition's level: a block markdown-it starts
    // there may be, to CommonMark, more of the paragraph the definition came from (`afterDefinition`).
    let definitionEnd = -1;
    let definitionLevel = 0;
    for (this.i = from; this.i < to; this.i++) {
      const i = this.i;
      const t = tokens[i];
      if (t.map !== null && t.map[0] === definitionEnd) afterDefinition(t, definitionLevel);
      switch (t.type) {
        case "paragraph_open": {
          // A paragraph right after a list or block quote, on the next line: CommonMark would have taken
          // its first line as a lazy line of the container's last paragraph, so markdown-it ended that
          // paragraph at a block it then did not read (`- a\n | z |\n    ---`: its table rule, asked as
          // a terminator, took `| z |` for a table's head; micromark reads a heading `a | z |` in the
          // item): micromark decides.
          if (i > from && t.map![0] > 0 && !isBlank(l, t.map![0] - 1) && /^(?:bullet_list|ordered_list|blockquote)_close$/.test(tokens[i - 1].type)) throw new NeedsMicromark();
          const node = this.leaf("paragraph", t);
          // `[\u00A0]: /u`: a definition to micromark (its label is not blank to CommonMark), a
          // paragraph to markdown-it (whose normalization trims every Unicode space): micromark decides.
          if (l.text.charCodeAt(node.start) === 0x5b && ODD_BLANK_LABEL.test(l.text.slice(node.start, node.start + 1002))) throw new NeedsMicromark();
          // A delimiter-like line after a paragraph's first may make a table markdown-it does not read: in
          // a block quote, a table's head may be a lazy line of the quote's paragraph (`> a\nb |\n> | - |`),
          // and anywhere a head without a pipe is one (`a\n|-\nb`: a table of one column to micromark
          // and cmark-gfm, a paragraph to markdown-it, whose table rule wants a pipe in the head): the
          // group goes to micromark.
          delimiterLikeIn(l, t.map![0] + 1, t.map![1]);
          // A task check opens only the item's first content: its first paragraph, or one after definitions of that content.
          if (stack.length > 0 && stack[stack.length - 1].type === "item" && l.text.charCodeAt(node.start) === 0x5b) {
            const before = tokens[i - 1].type;
            if (before === "list_item_open") taskParagraph(l, node, tokens[i + 1].content, t.map![0], t.map![1] - 1, stack);
            else if (before === "reference_definition" && stack[stack.length - 1].children!.every((c) => c === node || c.type === "definition")) throw new NeedsMicromark();
          }
          break;
        }
        case "heading_open": {
          // A setext heading's text lines are a paragraph's: a delimiter-like one after the first may
          // make a table markdown-it did not read (`x |b\u2003c| \n:-|---|-:\n---`): micromark decides.
          if (t.markup === "=" || t.markup === "-") delimiterLikeIn(l, t.map![0] + 1, t.map![1] - 1);
          const content = tokens[i + 1]?.type === "inline" ? tokens[i + 1].content : "";
          const node = this.leaf("heading", t);
          node.depth = Number(t.tag.slice(1));
          if (!INLINE_MARKUP.test(content)) node.label = content;
          else {
            node.label = "";
            l.later.push({ heading: node, cell: null, content, setext: t.markup === "=" || t.markup === "-" });
          }
          break;
        }
        case "fence":
          if (fenceClosed(l, t, stack.length > 0, this.startAt())) this.leaf("code", t);
          // An unclosed fence runs to the end of its container, which micromark and markdown-it end
          // differently; at the top level, to the end of the document (`runsToEnd`).
          else if (stack.length === 0) this.runsToEnd("code", t);
          else throw new NeedsMicromark();
          break;
        case "code_block":
          // Indented code may not interrupt a paragraph: right after a block quote it may be a lazy line of
          // the quote's last paragraph, which markdown-it misses in nested quotes (`> > b\n    ***`). Right
          // after a list it may be a lazy line of the last item's paragraph: a line indented four columns
          // or more but less than the item's content column that markdown-it reads as a block that ends
          // the paragraph (`-   a\n    > b`, `  1. a\n    ---`), and then, outside the item, as code.
          if (i > from && (tokens[i - 1].type === "blockquote_close" || tokens[i - 1].type === "bullet_list_close" || tokens[i - 1].type === "ordered_list_close")) throw new NeedsMicromark();
          this.leaf("code", t, true).end = indentedCodeEnd(l, t.map![1], stack.length > 0) + base;
          break;
        case "html_block":
          if (stack.length === 0 && htmlUnclosed(l, t)) this.runsToEnd("html", t);
          else if (!htmlClosed(l, t, this.startAt())) throw new NeedsMicromark();
          else this.leaf("html", t, true);
          break;
        case "hr":
          this.leaf("break", t);
          break;
        case "reference_definition": {
          // As mdast holds it (its `label`): character escapes and references decoded (`[AT&amp;T]` is "AT&T").
          const written = definitionLabel(l, this.startAt(), t.map![0]);
          this.leaf("definition", t).label = /[\\&]/.test(written) ? markdown().decodeString(written) : written;
          definitionEnd = t.map![1];
          definitionLevel = t.level;
          this.definitions = true;
          break;
        }
        case "blockquote_open": {
          this.siblingContainer(i, from);
          if (stack.length === 0) quoteIndents(l, t);
          else if (stack[0].type === "list") listQuoteIndents(l, t, columnOf(l.src, this.startAt()));
          const s = this.startAt() + base;
          this.open({ type: "quote", start: s, end: s + 1, line: t.map![0] + 1, children: [] }, t);
          break;
        }
        case "bullet_list_open":
        case "ordered_list_open": {
          this.siblingContainer(i, from);
          const s = this.startAt() + base;
          this.open({ type: "list", start: s, end: s, line: t.map![0] + 1, children: [] }, t);
          break;
        }
        case "list_item_open": {
          const line = t.map![0];
          const list = stack[stack.length - 1];
          // The first item starts where its list does (possibly after an enclosing item's marker on the same line).
          const s = list.children!.length === 0 ? list.start : markerStart(l, line, stack.slice(0, -1)) + base;
          const width = t.info ? t.info.length + 1 : 1;
          this.open({ type: "item", start: s, end: s + width, line: line + 1, children: [] }, t);
          break;
        }
        case "blockquote_close":
        case "bullet_list_close":
        case "ordered_list_close":
        case "list_item_close":
          this.close(this.opened.pop()!);
          break;
        case "table_open": {
          // Natively only a table alone in its group, at the top level, without tabs: else micromark.
          if (stack.length > 0 || i !== from) throw new NeedsMicromark();
          // markdown-it tries its table rule before lists, quotes, headings and HTML: a header row that opens
          // one of those (`- a | b\n  --|--` is a list item holding a table to micromark) is micromark's.
          if (/^[ \t]*(?:[-+*>#<`~]|\d{1,9}[.)])/.test(l.src.slice(l.begin[t.map![0]], l.begin[t.map![0]] + 16))) throw new NeedsMicromark();
          // A delimiter row without a pipe is also a setext underline (`| name |\n------`: a heading to
          // micromark); and markdown-it trims every Unicode white space off a row (JavaScript's trim),
          // GFM only spaces and tabs (`\u00A0| a |\n|-|` is no table: two cells against one): micromark decides.
          const head = l.src.slice(l.begin[t.map![0]], l.end[t.map![0] + 1]);
          if (!l.src.slice(l.begin[t.map![0] + 1], l.end[t.map![0] + 1]).includes("|") || ODD_SPACE.test(head)) throw new NeedsMicromark();
          let j = i + 1;
          while (j < to && tokens[j].type !== "table_close") j++;
          if (j + 1 !== to) throw new NeedsMicromark();
          this.add(tableOf(l, t.map![0], t.map![1]));
          this.i = j;
          break;
        }
        case "inline":
        case "paragraph_close":
        case "heading_close":
          break;
        default:
          throw new NeedsMicromark(); // tables, and anything a plugin might add
      }
    }
    this.tokens = []; // the chunk's tokens die with it
    return roots;
  }
}
