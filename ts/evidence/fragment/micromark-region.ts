/**
 * A region micromark reads: its lines parsed alone with the definitions it may use, and the
 * mdast nodes turned into blocks in the document's coordinates (`fromMdast`).
 */
import type { RootContent } from "mdast";
import type { BlockNode, Definitions } from "./shapes.js";
import { plainText, offsets } from "./mdast.js";
import { fromMarkdown } from "./micromark.js";
import { lineEndings } from "./lines.js";
import { rowCells, cellOf } from "./tables.js";

/** mdast (from a region parsed on its own) → BlockNodes, offsets shifted by `shift` and lines by `lineShift`. */
export function fromMdast(node: RootContent, region: string, shift: number, lineShift: number, limit = region.length): BlockNode {
  const o = offsets(node, node.type, undefined, lineShift);
  // An open fence or HTML block runs on into the definitions appended after the region: cut it at the region's end.
  // (`limit`: the end of the region's last line, before its line ending: `micromarkRegion`.)
  const end = Math.min(o.end, limit);
  const at = (type: BlockNode["type"]): BlockNode => ({ type, start: o.start + shift, end: end + shift, line: o.line + lineShift });
  const kids = (n: { children: RootContent[] }) => n.children.map((c) => fromMdast(c, region, shift, lineShift, limit));
  switch (node.type) {
    case "heading":
      return { ...at("heading"), depth: node.depth, label: plainText(node) };
    case "paragraph":
      return at("paragraph");
    case "code":
      return at("code");
    case "html":
      return at("html");
    case "thematicBreak":
      return at("break");
    case "yaml":
      return at("frontmatter");
    case "definition":
      return { ...at("definition"), label: node.label ?? node.identifier, titled: node.title != null };
    case "blockquote":
      return { ...at("quote"), children: kids(node) };
    case "footnoteDefinition":
      return { ...at("footnote"), label: node.label ?? node.identifier, children: kids(node) };
    case "list":
      return { ...at("list"), children: node.children.map((item) => ({ ...fromMdast(item as unknown as RootContent, region, shift, lineShift, limit), type: "item" as const })) };
    case "listItem":
      return { ...at("item"), children: kids(node) };
    case "table": {
      const rows = node.children.map((row) => {
        const r = offsets(row, "tableRow", o.line + lineShift, lineShift);
        return { start: r.start + shift, end: r.end + shift, line: r.line + lineShift, cells: row.children.map((cell) => cellOf(region, cell, shift, r.line + lineShift)) };
      });
      const width = rows[0]?.cells.length ?? 0;
      for (const row of rows) row.cells = rowCells(row.cells, width, row.end);
      return { ...at("table"), rows };
    }
    default:
      // TOML front matter comes through as a type mdast's typings do not list; any other block a
      // future extension yields stays citable as raw HTML-like text.
      return at((node as { type: string }).type === "toml" ? "frontmatter" : "html");
  }
}

/**
 * Parse `text.slice(start, end)` (whole lines) with micromark and return its blocks
 * in the coordinates of `text`, none ending past `limit` (default `end`; a region that ends with
 * the line ending of its last, blank line is read up to it: `convertChunk`). The document's definitions the region may use (lines `[label]: #`,
 * `[^label]: x`; `DefinitionLines`) are appended so that its references resolve as they do in the
 * whole document.
 */
export function micromarkRegion(text: string, start: number, end: number, firstLine: number, definitions: Definitions, limit = end): BlockNode[] {
  const region = text.slice(start, end);
  const defs = definitions(region, true);
  // The region is read from `parsed`, `skip` code units and `lines` line endings in.
  let parsed = defs ? `${region}\n\n${defs}` : region;
  let skip = 0;
  let lines = 0;
  // A region that ends the document without a line ending is read at the end of the text, as in the
  // whole document: micromark ends a last line there unlike before a line ending (`[^n]: x\n<custom-tag>`
  // at the end is a footnote and an HTML block of kind 7, which may not interrupt its paragraph when a
  // line ending and more text follow).
  const atEnd = end === text.length && !/[\n\r]$/.test(region);
  const after = atEnd && defs ? null : fromMarkdown(parsed, firstLine);
  const last = after?.children.filter((node) => offsets(node, node.type).start < region.length).at(-1);
  const before = after === null || (defs !== "" && last !== undefined && offsets(last, last.type).end > region.length);
  if (before) {
    // The region's last block (an unclosed fence or HTML block) ran on into the definitions, which then
    // define nothing, or the region ends the document: they go before the region instead, closed by a
    // thematic break (a footnote definition would take an indented first line of the region as its
    // content), a blank line between each (the region's blocks then start as they do alone, after a
    // blank line).
    const prefix = definitionsBefore(defs);
    parsed = `${prefix}${region}`;
    skip = prefix.length;
    lines = lineEndings(prefix, 0, prefix.length);
  }
  const tree = before || after === null ? fromMarkdown(parsed, firstLine) : after;
  const out: BlockNode[] = [];
  for (const node of tree.children) {
    const at = offsets(node, node.type).start;
    if (at < skip) continue;
    if (at >= skip + region.length) break;
    out.push(fromMdast(node, parsed, start - skip, firstLine - 1 - lines, limit - start + skip));
  }
  return out;
}

/**
 * The definitions `defs` (lines `[label]: #`, `[^label]: x`) as text to read before a piece of the
 * document: closed by a thematic break (a footnote definition would take an indented first line of
 * the piece as its content), a blank line on each side of it, so the piece's blocks start as they
 * do alone.
 */
export function definitionsBefore(defs: string): string {
  return `${defs}\n\n***\n\n`;
}
