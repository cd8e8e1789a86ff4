/**
 * Reading mdast nodes (micromark's output): their offsets, and their plain text as a reader sees it.
 */
import type { Nodes } from "mdast";

/** Plain text of inline content, as a reader sees it (mdast-util-to-string's rules: text, code, image alt). */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
      return node.value;
    case "image":
    case "imageReference":
      return node.alt ?? "";
    case "break":
      return " ";
    case "html":
      return "";
    default:
      return "children" in node ? (node.children as Nodes[]).map(plainText).join("") : "";
  }
}

/**
 * A node's offsets and 1-based line within the text micromark read.
 * @param near the line (in the document, 1-based) of the nearest enclosing node known, for the error
 * @param lineShift lines before the text micromark read (a region's), so the error names a document line
 * @throws Error naming the node's type and a line when mdast gave the node no position
 */
export function offsets(node: Nodes, what: string, near?: number, lineShift = 0): { start: number; end: number; line: number } {
  const p = node.position;
  if (!p || p.start.offset === undefined || p.end.offset === undefined) {
    const line = p?.start.line !== undefined ? p.start.line + lineShift : near;
    throw new Error(`fragmentMarkdown: the parser gave no source position for a ${what} node ${line === undefined ? "(no line known)" : `at line ${line}`}`);
  }
  return { start: p.start.offset, end: p.end.offset, line: p.start.line };
}

/** Whether mdast gave the node offsets (mdast-util-gfm-autolink-literal's transform drops them on the text nodes it splits). */
export function positioned(node: Nodes): boolean {
  return node.position?.start.offset !== undefined && node.position.end.offset !== undefined;
}
