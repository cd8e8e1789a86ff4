/**
 * Heading labels and table cell texts with markup: read by markdown-it's inline rules where they
 * agree with micromark (`inlinePlainText`), else by micromark in batches (`labelsByMicromark`),
 * once every definition of the document is known.
 */
import type { Env, Token } from "markdown-it";
import type { Nodes } from "mdast";
import { MAX_MICROMARK_LENGTH, BATCH_CHARS } from "./limits.js";
import type { Later, Definitions } from "./shapes.js";
import { plainText, offsets } from "./mdast.js";
import { fromMarkdown } from "./micromark.js";
import { labelsMayDiffer, md } from "./markdown-it.js";

/** Characters after which a heading's inline content may differ from its source text. */
export const INLINE_MARKUP = /[\\`*_&<[~]/;

/**
 * A heading label's or a cell's piece of markdown, read alone by micromark: `# <content>` (or
 * `<content>\n===` for a setext heading's), and a one-cell table `| x |\n| - |\n| <content> |`.
 */
function labelSource(w: Later): string {
  return w.heading ? (w.setext ? `${w.content}\n===` : `# ${w.content}`) : `| x |\n| - |\n| ${w.content} |`;
}

/**
 * A heading's or a cell's plain text from micromark's reading of `labelSource` (mdast-util-to-string's
 * rules), given the tree's node read from it (its first block); the content itself when micromark
 * read something else there.
 */
function labelFrom(w: Later, node: Nodes | undefined): string {
  if (w.heading) return node?.type === "heading" ? plainText(node) : w.content;
  return node?.type === "table" && node.children[1] ? plainText(node.children[1].children[0]) : w.content;
}

/** The document line (1-based) of a heading or of a cell's row, for errors. */
function labelLine(w: Later): number {
  return w.heading ? w.heading.line : w.row!;
}

export function setLabel(w: Later, text: string): void {
  if (w.heading) w.heading.label = text;
  else w.cell!.text = text;
}

/**
 * Heading labels and cell texts markdown-it's inline reading cannot give (`inlinePlainText` null:
 * footnote calls, strikethrough, odd white space in labels), read by micromark with the document's
 * definitions they may use: many at a time, each `labelSource` after a blank line (no inline
 * construct and no block that could hold a heading or table's text crosses one, but an HTML block of
 * kinds 1–5 may run on: an item whose own block is not found where its source starts is read alone),
 * in parses of at most about BATCH_CHARS (a micromark call costs half a millisecond even on one short
 * line: 1,000 sections with a footnote call in the heading and in two cells took 2.5 s one by one).
 */
export function labelsByMicromark(items: readonly Later[], definitions: Definitions): void {
  for (let from = 0; from < items.length; ) {
    const sources: string[] = [];
    const starts: number[] = [];
    let at = 0;
    let to = from;
    while (to < items.length && (to === from || at < BATCH_CHARS)) {
      const source = labelSource(items[to++]);
      starts.push(at);
      sources.push(source);
      at += source.length + 2;
    }
    let body = sources.join("\n\n");
    let defs = definitions(body, false);
    // A batch and the definitions it uses stay under micromark's bound: halved until they do (one item alone is checked as itself).
    while (to - from > 1 && body.length + defs.length + 2 > MAX_MICROMARK_LENGTH) {
      to = from + ((to - from) >> 1);
      sources.length = starts.length = to - from;
      body = sources.join("\n\n");
      defs = definitions(body, false);
    }
    const tree = fromMarkdown(defs ? `${body}\n\n${defs}` : body, labelLine(items[from]));
    const byStart = new Map<number, Nodes>();
    for (const node of tree.children) byStart.set(offsets(node, node.type).start, node);
    for (let k = from; k < to; k++) {
      const w = items[k];
      const node = byStart.get(starts[k - from]);
      if (node && (node.type === (w.heading ? "heading" : "table"))) setLabel(w, labelFrom(w, node));
      else {
        const source = labelSource(w);
        const alone = definitions(source, false);
        setLabel(w, labelFrom(w, fromMarkdown(alone ? `${source}\n\n${alone}` : source, labelLine(w)).children[0]));
      }
    }
    from = to;
  }
}

/** Plain text of markdown-it inline tokens by mdast-util-to-string's rules (text, code, image alt; HTML dropped). */
function inlinePlain(tokens: readonly Token[]): string {
  let out = "";
  for (const t of tokens) {
    if (t.type === "text" || t.type === "code_inline" || t.type === "text_special") out += t.content;
    else if (t.type === "image") out += inlinePlain(t.children ?? []);
    else if (t.type === "softbreak" || t.type === "hardbreak") out += " ";
  }
  return out;
}

/** How many `~` a string holds (0 for none). */
function tildes(v: string | number | null | undefined): number {
  const s = v == null ? "" : String(v);
  let n = 0;
  for (let i = s.indexOf("~"); i >= 0; i = s.indexOf("~", i + 1)) n++;
  return n;
}

/** `~` in the parts of inline tokens that are never inline text: link and image destinations, code spans, inline HTML. */
function inertTildes(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) {
    if (t.type === "link_open") n += tildes(t.attrGet("href"));
    else if (t.type === "image") n += tildes(t.attrGet("src")) + inertTildes(t.children ?? []);
    else if (t.type === "code_inline" || t.type === "html_inline") n += tildes(t.content);
  }
  return n;
}

/**
 * Plain text of inline `content` (already normalized: no CR, no NUL) read by markdown-it's
 * inline rules alone (no core chain: one StateInline), as mdast-util-to-string would give
 * it from micromark's reading; or null where the two readings may differ and micromark
 * must decide: a footnote call (`[^`); a link label with white space other than spaces, tabs and line endings, in `content` or in a definition of the document (`labelRecorder`); a `~` anywhere but in a link or image destination, a
 * code span or inline HTML (GFM reads single-tilde strikethrough, markdown-it only `~~`).
 * Links, autolinks, emphasis, code spans, entities, escapes and HTML are CommonMark, which
 * both follow (the instance neither validates nor rewrites URLs, see `md`: an autolink's
 * text is the URL as written, as in mdast); the golden test holds them equal over every
 * real document.
 */
export function inlinePlainText(content: string, env: Env): string | null {
  if (content.includes("[^")) return null;
  if (labelsMayDiffer(content, env)) return null;
  const parser = md();
  const tokens: Token[] = [];
  parser.inline.parse(content, parser, env, tokens);
  const text = inlinePlain(tokens);
  if (content.includes("~")) {
    if (text.includes("~") || inertTildes(tokens) !== tildes(content)) return null;
  }
  return text;
}
