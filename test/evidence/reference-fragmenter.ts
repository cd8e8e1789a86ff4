// REFERENCE ONLY (test tree): the micromark → mdast fragmenter as it was before the markdown-it block pass
// (commit 83d6cc8). The golden test (reference-golden.test.ts) compares fragmentMarkdown with it over every
// real file; do not change it, it is the definition of the addresses stored citations hold.
/**
 * Fragments: the citation unit. A document's verbatim source becomes a tree of
 * addressable, hashed, ordered fragments (DESIGN §4, the seed's identity scheme).
 *
 *   fragmentId  = sha256(UTF-8(artifactId) ‖ 0x00 ‖ UTF-8(path))   — where is it?
 *   contentHash = "sha256:" + sha256(UTF-8(kind ‖ "\n" ‖ normalized text)) — does it still say that?
 *   versionId   = fragmentId + "#" + contentHash                      — a pinned, immutable citation
 *
 * A path is the `/`-joined list of segments `<kind>:<anchor>` from the document root
 * down to the fragment. The anchor is the slug of the node's own label when it has
 * one (a heading's text, a table's header row, a table row's first cell, a link
 * definition's or footnote's label) and otherwise the 1-based ordinal counted per
 * (parent, kind), so inserting a code block never renumbers the paragraphs beside
 * it. Duplicate labels among siblings of one kind get `slug~N` (see `anchorFor`).
 *
 * Offsets (`start`, `end`) are UTF-16 code units of the JS string given (the unit
 * mdast positions use): `text.slice(start, end) === fragment.text`, always.
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import type { Nodes, RootContent, Table, TableCell } from "mdast";
import { sha256Hex } from "../../bindings/sha256.js";
import { anchorFor, normalizeWhitespace, slugify } from "../../ts/evidence/text.js";

/**
 * What a fragment is. `section` = a heading and everything under it up to the next
 * heading of the same or a higher level (within the same container); `item` = a
 * list item; `row` = a table row (the header row included); `quote` = a block
 * quote; `break` = a thematic break; `html` = an HTML block; `definition` = a link
 * reference definition; `footnote` = a GFM footnote definition; `frontmatter` = a
 * YAML (`---`) or TOML (`+++`) block at the very top.
 */
export type FragmentKind =
  | "frontmatter"
  | "section"
  | "paragraph"
  | "list"
  | "item"
  | "code"
  | "table"
  | "row"
  | "quote"
  | "html"
  | "break"
  | "definition"
  | "footnote";

/** Every kind, in a fixed order (the SHACL shape's `sh:in` list is the same set). */
export const FRAGMENT_KINDS: readonly FragmentKind[] = Object.freeze([
  "frontmatter", "section", "paragraph", "list", "item", "code", "table", "row", "quote", "html", "break", "definition", "footnote",
]);

/** Kinds whose anchor is a slug of their own label rather than an ordinal. */
const LABELED: ReadonlySet<FragmentKind> = new Set<FragmentKind>(["section", "table", "row", "definition", "footnote"]);

/** One table cell of a `row` fragment. */
export interface FragmentCell {
  /** The cell's text with markdown resolved (`P(A \| B)` is written, `P(A | B)` is the text). */
  text: string;
  /** Offsets (UTF-16 code units) of the cell content as written in the source, pipes and padding excluded. */
  start: number;
  end: number;
}

/** One addressable piece of a document. */
export interface Fragment {
  /** 64 lowercase hex: sha256(artifactId ‖ NUL ‖ path). The address a citation stores. */
  fragmentId: string;
  artifactId: string;
  /** Structural path, e.g. `section:guide/section:install/code:1`. */
  path: string;
  kind: FragmentKind;
  /** The last path segment's anchor: a slug (`install`, `setup~2`) or an ordinal (`3`). */
  anchor: string;
  /** The label the anchor was made from (heading text, header row, first cell), or null for ordinal kinds. */
  label: string | null;
  /** `sha256:<64 hex>` over the kind and the whitespace-normalized text (block-quote markers of enclosing quotes removed). */
  contentHash: string;
  /** `<fragmentId>#<contentHash>`. */
  versionId: string;
  /** 1-based position among the siblings of the same kind under the same parent. */
  ordinal: number;
  /** 0-based position in document order (pre-order: a section comes before its contents). */
  sequence: number;
  /** The enclosing fragment's id, or null at the top level (directly under the artifact). */
  parentId: string | null;
  /** Number of enclosing fragments (0 at the top level). */
  depth: number;
  /** Start offset in UTF-16 code units of the source string (inclusive). */
  start: number;
  /** End offset in UTF-16 code units (exclusive). */
  end: number;
  /** 1-based source line of `start`. */
  line: number;
  /** The verbatim source: `source.slice(start, end)`. */
  text: string;
  /** Heading level 1–6, for sections. */
  level?: number;
  /** The cells, for table rows. */
  cells?: FragmentCell[];
}

/** A format the spine cannot fragment yet (PDF, HTML, …): names the media type and what is supported. */
export class UnsupportedFormatError extends Error {
  constructor(readonly mediaType: string, readonly source?: string) {
    super(
      `fragmenting ${mediaType}${source ? ` (${source})` : ""} is not supported yet; supported: text/markdown (.md, .markdown), text/plain (.txt)`,
    );
    this.name = "UnsupportedFormatError";
  }
}

interface Counters {
  ordinals: Map<FragmentKind, number>;
  labels: Map<string, number>;
}

/** A fragment under construction; `end` grows to cover descendants, text and hashes come last. */
interface Draft {
  kind: FragmentKind;
  anchor: string;
  label: string | null;
  path: string;
  fragmentId: string;
  parent: Draft | null;
  ordinal: number;
  sequence: number;
  depth: number;
  start: number;
  end: number;
  line: number;
  quoteDepth: number;
  counters: Counters;
  level?: number;
  cells?: FragmentCell[];
}

class Builder {
  readonly drafts: Draft[] = [];
  private readonly rootCounters: Counters = { ordinals: new Map(), labels: new Map() };

  constructor(readonly artifactId: string, readonly source: string) {}

  /** Create a fragment under `parent` (null = top level); computes its anchor and id now. */
  open(parent: Draft | null, kind: FragmentKind, label: string | null, start: number, end: number, line: number): Draft {
    const counters = parent ? parent.counters : this.rootCounters;
    const ordinal = (counters.ordinals.get(kind) ?? 0) + 1;
    counters.ordinals.set(kind, ordinal);
    let anchor: string;
    if (LABELED.has(kind)) {
      const slug = slugify(label ?? "");
      const key = `${kind}\u0000${slug}`;
      const occurrence = (counters.labels.get(key) ?? 0) + 1;
      counters.labels.set(key, occurrence);
      anchor = anchorFor(slug, occurrence);
    } else {
      anchor = String(ordinal);
    }
    const segment = `${kind}:${anchor}`;
    const path = parent ? `${parent.path}/${segment}` : segment;
    const draft: Draft = {
      kind,
      anchor,
      label: LABELED.has(kind) ? normalizeWhitespace(label ?? "") : null,
      path,
      fragmentId: sha256Hex(`${this.artifactId}\u0000${path}`),
      parent,
      ordinal,
      sequence: this.drafts.length,
      depth: parent ? parent.depth + 1 : 0,
      start,
      end,
      line,
      quoteDepth: parent ? parent.quoteDepth + (parent.kind === "quote" ? 1 : 0) : 0,
      counters: { ordinals: new Map(), labels: new Map() },
    };
    this.drafts.push(draft);
    return draft;
  }

  /** Finish: grow every ancestor's end over its descendants, slice, hash, freeze. */
  finish(): readonly Fragment[] {
    const { drafts, source } = this;
    for (let i = drafts.length - 1; i >= 0; i--) {
      const d = drafts[i];
      if (d.parent && d.parent.end < d.end) d.parent.end = d.end;
    }
    const out = drafts.map((d): Fragment => {
      const text = source.slice(d.start, d.end);
      const contentHash = contentHashOf(d.kind, text, d.quoteDepth);
      const fragment: Fragment = {
        fragmentId: d.fragmentId,
        artifactId: this.artifactId,
        path: d.path,
        kind: d.kind,
        anchor: d.anchor,
        label: d.label,
        contentHash,
        versionId: `${d.fragmentId}#${contentHash}`,
        ordinal: d.ordinal,
        sequence: d.sequence,
        parentId: d.parent ? d.parent.fragmentId : null,
        depth: d.depth,
        start: d.start,
        end: d.end,
        line: d.line,
        text,
      };
      if (d.level !== undefined) fragment.level = d.level;
      if (d.cells) fragment.cells = d.cells;
      return Object.freeze(fragment);
    });
    return Object.freeze(out);
  }
}

/**
 * The content hash of a fragment: `sha256:` + hex SHA-256 of UTF-8(`kind` ‖ "\n" ‖
 * normalized), where normalized = the text with up to `quoteDepth` leading `>`
 * markers removed from each line after the first (the markers of enclosing block
 * quotes, which move when a quoted paragraph is reflowed), then whitespace
 * normalized. The kind is hashed too because a one-item list and its item are the
 * same characters but not the same claim.
 */
export function contentHashOf(kind: FragmentKind, text: string, quoteDepth = 0): string {
  let body = text;
  if (quoteDepth > 0 && body.includes("\n")) {
    const marker = new RegExp(`^(?:[ \\t]*>){1,${quoteDepth}}`);
    const lines = body.split("\n");
    for (let i = 1; i < lines.length; i++) lines[i] = lines[i].replace(marker, "");
    body = lines.join("\n");
  }
  return `sha256:${sha256Hex(`${kind}\n${normalizeWhitespace(body)}`)}`;
}

/** Plain text of inline content, as a reader sees it (mdast-util-to-string's rules: text, code, image alt). */
function plainText(node: Nodes): string {
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

function offsets(node: Nodes, what: string): { start: number; end: number; line: number } {
  const p = node.position;
  if (!p || p.start.offset === undefined || p.end.offset === undefined) {
    throw new Error(`fragmentMarkdown: the parser gave no source position for a ${what} node at line ${p?.start.line ?? "?"}`);
  }
  return { start: p.start.offset, end: p.end.offset, line: p.start.line };
}

/** Walk one container's block children; headings open sections scoped to this container. */
function emitBlocks(b: Builder, nodes: readonly RootContent[], parent: Draft | null): void {
  const open: Draft[] = [];
  for (const node of nodes) {
    if (node.type === "heading") {
      while (open.length && (open[open.length - 1].level ?? 0) >= node.depth) open.pop();
      const owner = open.length ? open[open.length - 1] : parent;
      const o = offsets(node, "heading");
      const section = b.open(owner, "section", plainText(node), o.start, o.end, o.line);
      section.level = node.depth;
      open.push(section);
    } else {
      emitNode(b, node, open.length ? open[open.length - 1] : parent);
    }
  }
}

function emitNode(b: Builder, node: RootContent, parent: Draft | null): void {
  const leaf = (kind: FragmentKind, label: string | null = null): Draft => {
    const o = offsets(node, node.type);
    return b.open(parent, kind, label, o.start, o.end, o.line);
  };
  switch (node.type) {
    case "paragraph":
      leaf("paragraph");
      return;
    case "code":
      leaf("code");
      return;
    case "html":
      leaf("html");
      return;
    case "thematicBreak":
      leaf("break");
      return;
    case "yaml":
      leaf("frontmatter");
      return;
    case "definition":
      leaf("definition", node.label ?? node.identifier);
      return;
    case "blockquote":
      emitBlocks(b, node.children, leaf("quote"));
      return;
    case "footnoteDefinition":
      emitBlocks(b, node.children, leaf("footnote", node.label ?? node.identifier));
      return;
    case "list": {
      const list = leaf("list");
      for (const item of node.children) {
        const o = offsets(item, "listItem");
        emitBlocks(b, item.children, b.open(list, "item", null, o.start, o.end, o.line));
      }
      return;
    }
    case "table":
      emitTable(b, node, parent);
      return;
    default: {
      // TOML front matter (`+++`) comes through as a node type mdast's typings do not list.
      if ((node as { type: string }).type === "toml") {
        leaf("frontmatter");
        return;
      }
      // Any other block a future extension yields: keep it citable as raw HTML-like text.
      leaf("html");
    }
  }
}

function cellOf(b: Builder, cell: TableCell): FragmentCell {
  const text = plainText(cell);
  const kids = cell.children;
  if (kids.length) {
    return { text, start: offsets(kids[0], "tableCell").start, end: offsets(kids[kids.length - 1], "tableCell").end };
  }
  // An empty cell: point at the (empty) spot after its pipe and padding.
  const o = offsets(cell, "tableCell");
  const raw = b.source.slice(o.start, o.end);
  const lead = raw.match(/^\|?[ \t]*/)![0].length;
  return { text: "", start: o.start + lead, end: o.start + lead };
}

function emitTable(b: Builder, node: Table, parent: Draft | null): void {
  const rows = node.children.map((row) => row.children.map((cell) => cellOf(b, cell)));
  const header = rows[0] ?? [];
  const o = offsets(node, "table");
  const table = b.open(parent, "table", header.map((c) => c.text).join(" "), o.start, o.end, o.line);
  node.children.forEach((row, i) => {
    const r = offsets(row, "tableRow");
    const draft = b.open(table, "row", rows[i][0]?.text ?? "", r.start, r.end, r.line);
    draft.cells = rows[i];
  });
}

function checkInputs(fn: string, artifactId: unknown, text: unknown): void {
  if (typeof artifactId !== "string" || artifactId === "") throw new TypeError(`${fn}: artifactId must be a non-empty string`);
  if (typeof text !== "string") throw new TypeError(`${fn}: text must be a string (got ${text === null ? "null" : typeof text})`);
}

/**
 * Fragment a markdown document (CommonMark + GFM tables, task lists, footnotes,
 * strikethrough, autolinks; YAML `---` / TOML `+++` front matter) into its Fragment
 * tree, parsed from the verbatim source with mdast-util-from-markdown.
 *
 * @param artifactId the artifact the fragments belong to (part of every fragmentId)
 * @param text the whole document as written (not pre-normalized)
 * @returns the fragments in document order (`sequence` 0..n-1); frozen, so
 *   `citationStatus` may index the array once and reuse the index
 * @throws TypeError on a non-string text or an empty artifactId
 */
export function fragmentMarkdown(artifactId: string, text: string): readonly Fragment[] {
  checkInputs("fragmentMarkdown", artifactId, text);
  const tree = fromMarkdown(text, {
    extensions: [frontmatter(["yaml", "toml"]), gfm()],
    mdastExtensions: [frontmatterFromMarkdown(["yaml", "toml"]), gfmFromMarkdown()],
  });
  const b = new Builder(artifactId, text);
  emitBlocks(b, tree.children, null);
  return b.finish();
}

/**
 * Fragment plain text into paragraphs: maximal runs of lines that are not blank
 * (blank = only whitespace). Each paragraph spans from its first non-blank line's
 * start to its last non-blank line's end (line break excluded, a trailing `\r` too);
 * anchors are ordinals `paragraph:1`, `paragraph:2`, …
 *
 * @returns frozen fragments in document order
 * @throws TypeError on a non-string text or an empty artifactId
 */
export function fragmentPlainText(artifactId: string, text: string): readonly Fragment[] {
  checkInputs("fragmentPlainText", artifactId, text);
  const b = new Builder(artifactId, text);
  let start = -1;
  let end = -1;
  let startLine = 0;
  let line = 0;
  const flush = () => {
    if (start >= 0) b.open(null, "paragraph", null, start, end, startLine);
    start = -1;
  };
  for (const m of text.matchAll(/([^\n]*)(\n|$)/g)) {
    line++;
    const content = m[1];
    if (/^\s*$/u.test(content)) {
      flush();
    } else {
      if (start < 0) {
        start = m.index!;
        startLine = line;
      }
      end = m.index! + content.length - (content.endsWith("\r") ? 1 : 0);
    }
    if (m[2] === "") break;
  }
  flush();
  return b.finish();
}

/**
 * Fragment a document by media type: `text/markdown` (also `text/x-markdown`) →
 * `fragmentMarkdown`, `text/plain` → `fragmentPlainText`.
 *
 * @param artifactId the artifact key
 * @param text the verbatim document
 * @param mediaType e.g. from `createArtifact(...).mediaType` or `mediaTypeForPath`
 * @param source optional name for the error message
 * @throws UnsupportedFormatError for any other media type (PDF, HTML, reStructuredText, …)
 */
export function fragmentDocument(artifactId: string, text: string, mediaType: string, source?: string): readonly Fragment[] {
  const base = mediaType.split(";")[0].trim().toLowerCase();
  if (base === "text/markdown" || base === "text/x-markdown") return fragmentMarkdown(artifactId, text);
  if (base === "text/plain") return fragmentPlainText(artifactId, text);
  throw new UnsupportedFormatError(base, source);
}
