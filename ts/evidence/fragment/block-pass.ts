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
import type MarkdownIt from "markdown-it";
/** A markdown-it parser. */
type MarkdownItInstance = InstanceType<typeof MarkdownIt>;
import type { Env, StateBlock, StateInline, Token } from "markdown-it";
import { markdown } from "../deps/markdown.js";
import type { Nodes, Root, RootContent, TableCell } from "mdast";
import { createSha256, sha256Hex, type Sha256Hasher } from "../../bindings/sha256.js";
import { anchorFor, CollapsedText, isWhitespaceAt, normalizeWhitespace, slugify } from "./text.js";
import { DocumentTooLargeError, MAX_DOCUMENT_LENGTH } from "./limits.js";

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

/** Per parent: the ordinals its children have reached, per kind (indexed as FRAGMENT_KINDS), and, once a labeled child comes, label occurrences. */
interface Counters {
  ordinals: number[];
  labels: Map<string, number> | null;
}

/**
 * A parent's ordinals before its first child, copied (`slice`) for each parent: mapping the frozen
 * FRAGMENT_KINDS per parent, as before, took ~250 ns a time (a sixth of `open`'s time on the primer).
 */
const NO_ORDINALS: readonly number[] = FRAGMENT_KINDS.map(() => 0);

/** Index of each kind in FRAGMENT_KINDS. */
const KIND_INDEX = new Map<FragmentKind, number>(FRAGMENT_KINDS.map((kind, i) => [kind, i]));

/** How many ordinal anchors are kept as shared strings. */
const ORDINAL_COUNT = 4096;
/**
 * Ordinal anchors "1"…"4096", made once, at the first fragmentation rather than at import
 * (≈ 0.8 ms of every `import("groundwire")`): most fragments are anchored by one.
 */
let ordinals: readonly string[] | null = null;
const ordinalAnchor = (ordinal: number): string =>
  (ordinals ??= Array.from({ length: ORDINAL_COUNT }, (_, i) => String(i + 1)))[ordinal - 1];

/** A fragment under construction: `end` grows to cover descendants; text and hashes are filled in by `finish`. */
type Draft = { -readonly [K in keyof Fragment]: Fragment[K] };

/**
 * Builds the fragments of one document. Each fragment object is made once, when its block is
 * met, and completed in `finish`; what only construction needs (parent, quote depth, the
 * per-parent counters) lives in arrays beside them, so a 50 MB document's ~1 M fragments
 * never exist twice (as drafts and as fragments).
 */
class Builder {
  private readonly fragments: Draft[] = [];
  /**
   * Per fragment: its parent's index (-1 at the top level) and how many block quotes enclose it.
   * Typed arrays grown by doubling: 4 bytes an entry rather than a JS array's 8, and the copies
   * left behind as they grow are outside the JS heap (a 50 MB document has ~1 M entries).
   */
  private parents = new Int32Array(1024);
  private quoteDepths = new Int32Array(1024);
  /** Per parent index (and -1 for the top level): ordinals and label occurrences of its children. */
  private readonly counters = new Map<number, Counters>();
  /**
   * Path segments of ordinal-anchored fragments (`/paragraph:3`; without the `/` at the top level),
   * per kind index, made once per document: a path is its parent's path plus a segment, so the
   * ~1 M paths of a 50 MB document share a few thousand segment strings instead of each holding
   * its own (32 bytes a fragment).
   */
  private readonly segments: string[][] = FRAGMENT_KINDS.map(() => []);
  private readonly topSegments: string[][] = FRAGMENT_KINDS.map(() => []);

  constructor(readonly artifactId: string, readonly source: string) {}

  /**
   * Create a fragment under the fragment at index `parent` (-1 = top level); its anchor, path
   * and id are computed now. Returns its index.
   */
  open(parent: number, kind: FragmentKind, label: string | null, start: number, end: number, line: number): number {
    let counters = this.counters.get(parent);
    if (!counters) this.counters.set(parent, (counters = { ordinals: NO_ORDINALS.slice(), labels: null }));
    const kindIndex = KIND_INDEX.get(kind)!;
    const ordinal = ++counters.ordinals[kindIndex];
    const up = parent >= 0 ? this.fragments[parent] : null;
    let anchor: string;
    let segment: string | undefined;
    const labeled = LABELED.has(kind);
    if (labeled) {
      const slug = slugify(label ?? "");
      const key = `${kind}\u0000${slug}`;
      const labels = (counters.labels ??= new Map());
      const occurrence = (labels.get(key) ?? 0) + 1;
      labels.set(key, occurrence);
      anchor = anchorFor(slug, occurrence);
    } else if (ordinal <= ORDINAL_COUNT) {
      anchor = ordinalAnchor(ordinal);
      segment = (up ? this.segments : this.topSegments)[kindIndex][ordinal - 1] ??= pathSegment(up !== null, kind, anchor);
    } else {
      anchor = String(ordinal);
    }
    // The parent's path and one flat `/kind:anchor`: one concatenation node per fragment, sharing the
    // parent's characters (a template literal would add two nodes and a third string).
    segment ??= pathSegment(up !== null, kind, anchor);
    const path = up ? up.path + segment : segment;
    // Every field in the final order now (ids, text and hashes are placeholders, filled in by `finish`), so
    // all fragments share one shape. The ids are made there, not here: the blocks die as fragments are
    // made, and the less this phase allocates, the more of them are dead when a full collection comes.
    const fragment: Draft = {
      fragmentId: "",
      artifactId: this.artifactId,
      path,
      kind,
      anchor,
      label: labeled ? normalizeWhitespace(label ?? "") : null,
      contentHash: "",
      versionId: "",
      ordinal,
      sequence: this.fragments.length,
      parentId: null,
      depth: up ? up.depth + 1 : 0,
      start,
      end,
      line,
      text: "",
    };
    const index = this.fragments.length;
    this.fragments.push(fragment);
    if (index === this.parents.length) {
      const parents = new Int32Array(index * 2);
      parents.set(this.parents);
      this.parents = parents;
      const quoteDepths = new Int32Array(index * 2);
      quoteDepths.set(this.quoteDepths);
      this.quoteDepths = quoteDepths;
    }
    this.parents[index] = parent;
    this.quoteDepths[index] = up ? this.quoteDepths[parent] + (up.kind === "quote" ? 1 : 0) : 0;
    return index;
  }

  /** The fragment at `index` will get no more children: its counters go (only open containers keep theirs). */
  close(index: number): void {
    this.counters.delete(index);
  }

  /** Set a section's heading level (1–6). */
  setLevel(index: number, level: number): void {
    this.fragments[index].level = level;
  }

  /** Set a table row's cells. */
  setCells(index: number, cells: FragmentCell[]): void {
    this.fragments[index].cells = cells;
  }

  /** Finish: grow every ancestor's end over its descendants, make the ids, slice, hash, freeze. */
  finish(): readonly Fragment[] {
    const { fragments, parents, quoteDepths, source } = this;
    this.counters.clear();
    for (let i = fragments.length - 1; i >= 0; i--) {
      const p = parents[i];
      if (p >= 0 && fragments[p].end < fragments[i].end) fragments[p].end = fragments[i].end;
    }
    // Whitespace is normalized once, a window of the text at a time, never per fragment (a section's
    // text holds its subsections': normalizing each fragment alone repeats the work once per nesting
    // level), and never for the whole document at once: a whole-document copy (100 MB for 50 MB of
    // two-byte text) lives through the hashing, is promoted to the old generation and stays there as
    // garbage until a full collection. A window holds a run of fragments no longer than WINDOW and is
    // about that long, so its copy dies young; a fragment's normalized text is a slice of its
    // window's copy (normalizing is slice-local: the same text a whole-document copy gives). A longer
    // fragment (a large section) is hashed as the text goes by: every window and every stretch of
    // text between windows is fed to the hashers of the long fragments open over it (`LongHashes`).
    const long = new LongHashes(source, (index, contentHash) => complete(fragments[index], contentHash));
    let window: CollapsedText | null = null;
    let windowStart = 0;
    let windowEnd = -1;
    // The ids first, in a loop of their own, and (below) a window's content hashes together: digests
    // that alternate with the slicing and normalizing cost more (on the primer, the 3,501 digests took
    // 2.50 ms in place before, 2.33 ms so, 1.8 ms in a tight loop; most likely OpenSSL's code and data
    // leaving the caches between two digests).
    const idPrefix = `${this.artifactId}\u0000`;
    for (let i = 0; i < fragments.length; i++) {
      const f = fragments[i];
      f.fragmentId = sha256Hex(idPrefix + f.path);
      // A parent comes before its children: its id is made.
      if (parents[i] >= 0) f.parentId = fragments[parents[i]].fragmentId;
    }
    // A window's content hashes are digested when the window is done (`digest`), before the next
    // window's copy is made: the inputs are slices of the window's copy.
    const waiting: Draft[] = [];
    const inputs: string[] = [];
    const digest = () => {
      for (let k = 0; k < waiting.length; k++) complete(waiting[k], flat("sha256:", sha256Hex(inputs[k])));
      waiting.length = inputs.length = 0;
    };
    for (let i = 0; i < fragments.length; i++) {
      const f = fragments[i];
      const text = source.slice(f.start, f.end);
      f.text = text;
      const quoteDepth = quoteDepths[i];
      if (quoteDepth > 0 && /[\r\n]/.test(text)) {
        // Inside block quotes, the markers of enclosing quotes on continuation lines are not content: the slow rule.
        complete(f, contentHashOf(f.kind, text, quoteDepth));
      } else if (f.end - f.start > WINDOW) {
        // Hashed as the text goes by (completed when the text reaches its end); alone if the text went past its start.
        if (f.start >= long.pos) long.open(i, f.kind, f.start, f.end);
        else complete(f, collapsedHash(f.kind, new CollapsedText(readable(text)), 0, text.length));
      } else {
        if (!window || f.start < windowStart || f.end > windowEnd) {
          digest();
          // This fragment and the ones after it (fragments come in document order, a parent before its
          // children) until a long one, or a disjoint one once the window is WINDOW long.
          windowStart = f.start;
          windowEnd = f.end;
          for (let j = i + 1; j < fragments.length; j++) {
            const g = fragments[j];
            if (g.end - g.start > WINDOW || (g.start >= windowEnd && windowEnd - windowStart >= WINDOW)) break;
            if (g.end > windowEnd) windowEnd = g.end;
          }
          window = new CollapsedText(readable(source.slice(windowStart, windowEnd)));
          long.advance(windowStart);
          long.feed(windowStart, windowEnd, window);
        }
        const input = hashInput(f.kind, window, f.start - windowStart, f.end - windowStart);
        if (input === null) complete(f, streamedHash(f.kind, window, f.start - windowStart, f.end - windowStart));
        else {
          waiting.push(f);
          inputs.push(input);
        }
      }
    }
    digest();
    long.advance(source.length);
    this.parents = this.quoteDepths = new Int32Array(0);
    return Object.freeze(fragments as Fragment[]);
  }
}

/** A path segment as one flat string: `/kind:anchor` under a parent, `kind:anchor` at the top level. */
function pathSegment(nested: boolean, kind: FragmentKind, anchor: string): string {
  return nested ? ["/", kind, ":", anchor].join("") : [kind, ":", anchor].join("");
}

/**
 * Length (UTF-16 code units) of the windows `finish` normalizes at a time, and the longest fragment
 * hashed from a window: short enough that a window's copy is rarely alive when a scavenge comes
 * (it would be promoted to the old generation and stay there as garbage), long enough that the
 * per-window cost (a CollapsedText and its tables) stays small beside the hashing.
 */
const WINDOW = 1 << 14;

/** Set a fragment's content hash and version id, and freeze it. */
function complete(f: Draft, contentHash: string): void {
  f.contentHash = contentHash;
  f.versionId = `${f.fragmentId}#${contentHash}`;
  Object.freeze(f);
}

/**
 * Content hashes of long fragments, streamed: the text is fed in document order, a stretch at a
 * time, to an incremental hasher per open fragment, each stretch clipped to the fragment's span.
 * A stretch's normalized text (whitespace runs collapsed, ends trimmed) plus whether whitespace
 * stood at its edges gives `normalizeWhitespace` of the whole span: one space between two
 * stretches' texts where whitespace stood between them, none at the ends. So a long fragment
 * costs no copy of its text and no normalizing pass of its own.
 */
class LongHashes {
  private readonly hashing: { index: number; end: number; hasher: Sha256Hasher; started: boolean; space: boolean }[] = [];
  /** Text before this offset has been fed. */
  pos = 0;

  /**
   * @param source the document
   * @param done called with a fragment's index and content hash once the text has reached its end
   */
  constructor(private readonly source: string, private readonly done: (index: number, contentHash: string) => void) {}

  /** Start hashing fragment `index` (its span `[start, end)`, `start >= pos`): the text before `start` is fed first. */
  open(index: number, kind: FragmentKind, start: number, end: number): void {
    this.advance(start);
    this.hashing.push({ index, end, hasher: createSha256().update(`${kind}\n`), started: false, space: false });
  }

  /** Feed the text from `pos` to `to`, normalized here. */
  advance(to: number): void {
    if (to <= this.pos) return;
    if (!this.hashing.length) {
      this.pos = to;
      return;
    }
    const stretch = this.source.slice(this.pos, to);
    // Blank lines between windows are most stretches: whitespace only, nothing to normalize.
    this.feed(this.pos, to, /\S/u.test(stretch) ? new CollapsedText(readable(stretch)) : null);
  }

  /**
   * Feed the text `[start, end)` (from `pos` on), whose normalized copy is `normalized` (null: the
   * text is whitespace only), to every open fragment, then complete the ones that end by `end`.
   */
  feed(start: number, end: number, normalized: CollapsedText | null): void {
    const from = Math.max(this.pos, start);
    const { hashing, source } = this;
    for (const h of hashing) {
      const to = Math.min(end, h.end);
      if (to <= from) continue;
      const [a, b] = normalized ? normalized.span(from - start, to - start) : [0, 0];
      if (a === b) {
        h.space = true; // whitespace only
        continue;
      }
      if (h.started && (h.space || isWhitespaceAt(source, from))) h.hasher.update(" ");
      updateSlices(h.hasher, normalized!.slices(a, b));
      h.started = true;
      h.space = isWhitespaceAt(source, to - 1);
    }
    if (end > this.pos) this.pos = end;
    for (let k = hashing.length - 1; k >= 0; k--) {
      if (hashing[k].end > this.pos) continue;
      const [h] = hashing.splice(k, 1);
      this.done(h.index, flat("sha256:", h.hasher.digestHex()));
    }
  }
}

/** The text as a reader sees it for hashing: NUL read as U+FFFD (CommonMark 2.3), same length. */
function readable(text: string): string {
  return text.includes("\0") ? text.replace(/\0/g, "\uFFFD") : text;
}

/**
 * The content hash of a fragment: `sha256:` + hex SHA-256 of UTF-8(`kind` ‖ "\n" ‖
 * normalized), where normalized = the text (NUL read as U+FFFD) with up to `quoteDepth` leading `>`
 * markers removed from each line after the first (the markers of enclosing block
 * quotes, which move when a quoted paragraph is reflowed), then whitespace
 * normalized. The kind is hashed too because a one-item list and its item are the
 * same characters but not the same claim.
 */
export function contentHashOf(kind: FragmentKind, text: string, quoteDepth = 0): string {
  // A reader sees U+FFFD where the source has NUL (CommonMark 2.3): hash what is seen.
  let body = text.includes("\0") ? text.replace(/\0/g, "\uFFFD") : text;
  if (quoteDepth > 0 && /[\r\n]/.test(body)) {
    const marker = new RegExp(`^(?:[ \\t]*>){1,${quoteDepth}}`);
    // Every line ending CommonMark knows (LF, CR LF, lone CR) starts a line whose markers go.
    const lines = body.split(/\r\n?|\n/);
    for (let i = 1; i < lines.length; i++) lines[i] = lines[i].replace(marker, "");
    body = lines.join("\n");
  }
  return `sha256:${sha256Hex(`${kind}\n${normalizeWhitespace(body)}`)}`;
}

/**
 * Normalized text longer than this (UTF-16 code units) goes through an incremental hasher, in
 * slices of the normalized copy (which share its characters): hashing `kind ‖ "\n" ‖ text` in
 * one call would first copy the text into one flat string, for every nesting level of a large
 * document (garbage the size of the document, times its depth).
 */
const HASH_STREAM = 1 << 14;
/** Size of those slices: each is UTF-8 encoded on its own, outside the JS heap. */
const HASH_PIECE = 1 << 20;

/**
 * `contentHashOf(kind, source.slice(start, end))` for text outside block quotes, read from
 * the document's normalized copy: the same digest, no per-fragment normalization, and a
 * long text (a section of a large document) streamed through an incremental hasher in
 * slices rather than concatenated into one more copy.
 */
function collapsedHash(kind: FragmentKind, text: CollapsedText, start: number, end: number): string {
  const input = hashInput(kind, text, start, end);
  return input !== null ? flat("sha256:", sha256Hex(input)) : streamedHash(kind, text, start, end);
}

/** `collapsedHash` where `hashInput` is null: the normalized text streamed through an incremental hasher in slices. */
function streamedHash(kind: FragmentKind, text: CollapsedText, start: number, end: number): string {
  const [from, to] = text.span(start, end);
  return flat("sha256:", updateSlices(createSha256().update(`${kind}\n`), text.slices(from, to)).digestHex());
}

/**
 * What `collapsedHash` digests in one call, `kind ‖ "\n" ‖ normalized text` (the text a slice of one
 * piece of `text`'s copy), or null when the normalized text is longer than HASH_STREAM or crosses a
 * piece: it is then streamed.
 */
function hashInput(kind: FragmentKind, text: CollapsedText, start: number, end: number): string | null {
  const [from, to] = text.span(start, end);
  const within = to - from <= HASH_STREAM ? text.sliceWithin(from, to) : null;
  return within === null ? null : `${kind}\n${within}`;
}

/** Feed `slices` (of a normalized copy) to `hasher` in pieces of at most about HASH_PIECE code units. Returns the hasher. */
function updateSlices(hasher: Sha256Hasher, slices: readonly string[]): Sha256Hasher {
  for (const slice of slices) {
    for (let p = 0; p < slice.length; ) {
      let q = Math.min(slice.length, p + HASH_PIECE);
      // Never cut a surrogate pair: each piece is UTF-8 encoded alone (the slices never split one).
      // Only a pair: a lone high surrogate before the cut encodes as U+FFFD either way, and moving
      // the cut past it could split a pair that follows it.
      if (q < slice.length && (slice.charCodeAt(q - 1) & 0xfc00) === 0xd800 && (slice.charCodeAt(q) & 0xfc00) === 0xdc00) q++;
      hasher.update(p === 0 && q === slice.length ? slice : slice.slice(p, q));
      p = q;
    }
  }
  return hasher;
}

/**
 * `a + b` as one flat string: a concatenation is a two-pointer node over both parts (32 bytes
 * more per content hash, a million times in a 50 MB document); Array#join builds one string.
 */
function flat(a: string, b: string): string {
  return [a, b].join("");
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

/** Deepest container nesting `fragmentMarkdown` accepts (block quotes, lists, list items, footnotes; a nested list counts list and item). */
export const MAX_MARKDOWN_NESTING = 1000;

/**
 * Deepest container nesting (counted as for `MAX_MARKDOWN_NESTING`) of a group of blocks the
 * fragmenter hands to micromark (a table, footnote or task check it cannot read itself, inside
 * lists or quotes). mdast-util-from-markdown walks each list's events once per enclosing list, so
 * its time grows with depth × size: measured, a list item nested 100 deep with a table in each
 * took 0.8 s, 200 deep 3.1 s, 300 deep 6.3 s (CPU, 2026-12-02). markdown-it's own default
 * `maxNesting` is 100.
 */
export const MAX_MICROMARK_NESTING = 128;

/**
 * A document whose block containers nest deeper than `MAX_MARKDOWN_NESTING` (or, in a group
 * read by micromark, `MAX_MICROMARK_NESTING`): names the limit and the 1-based line.
 */
export class MarkdownNestingError extends Error {
  constructor(readonly line: number, readonly limit: number = MAX_MARKDOWN_NESTING) {
    super(`nesting deeper than ${limit.toLocaleString("en-US")} at line ${line}${limit === MAX_MICROMARK_NESTING ? " (around a table, footnote or other block read by micromark)" : ""}`);
    this.name = "MarkdownNestingError";
  }
}

/**
 * One block as the fragmenter needs it, whichever parser found it: offsets are
 * UTF-16 code units of the string as given, `line` 1-based.
 */
interface BlockNode {
  type: "heading" | "paragraph" | "code" | "html" | "break" | "frontmatter" | "definition" | "quote" | "footnote" | "list" | "item" | "table";
  start: number;
  end: number;
  line: number;
  /** Heading level. */
  depth?: number;
  /** Heading plain text, definition or footnote label. */
  label?: string;
  /** Whether a definition has a title (`opensTitle`). */
  titled?: boolean;
  children?: BlockNode[];
  rows?: { start: number; end: number; line: number; cells: FragmentCell[] }[];
}

/**
 * Most UTF-16 code units the fragmenter hands to micromark in one parse (a region of blocks it
 * cannot read itself, a heading or cell with markup, a batch of task items, with the definitions
 * appended to it). micromark → mdast holds 1–2.5 KB of memory per code unit while it parses
 * (peak RSS of one parse of 200,000 code units, 2026-12-02: an unclosed fence's lines in a list
 * item 249 MB, prose 106 MB, `*a* ` 384 MB, `[a](b) ` 487 MB, a table in a list item 456 MB); at
 * 2^18 code units, the worst measured (a list item holding a table of links) peaks at 733 MB
 * through the CLI (docs/evidence.md, "Block ends and the micromark size bound"). Nothing in `../shared/data/markdown`
 * comes close: its largest such piece is 800 code units (a top-level unclosed fence or HTML block,
 * which once went to micromark whole, is read natively: `runsToEnd`).
 */
export const MAX_MICROMARK_LENGTH = 1 << 18;

/**
 * A piece of the document the fragmenter must hand to micromark (a table, footnote, task item or
 * other block it cannot read itself, in a list or quote; a heading or cell with markup) that is over
 * `MAX_MICROMARK_LENGTH`: names the 1-based line the piece starts on, its length and the limit. A
 * longer region of top-level blocks is read in pieces where its blocks allow it
 * (`micromarkLargeRegion`: between top-level blocks, across the rows of a top-level table and
 * between the items of a top-level list), so it names the block that does not: one top-level
 * block over the limit other than a table or a list, or one list item over it.
 */
export class MarkdownSizeError extends Error {
  constructor(readonly line: number, readonly length: number, readonly limit: number = MAX_MICROMARK_LENGTH) {
    super(
      `a block of ${length.toLocaleString("en-US")} UTF-16 code units at line ${line} that only micromark reads exactly (an unclosed fence or HTML block, a table, footnote or task item in a list or block quote, a footnote definition, a paragraph or list against a table, or a heading or cell with markup), over the limit of ${limit.toLocaleString("en-US")} (MAX_MICROMARK_LENGTH; micromark holds 1-2.5 KB per code unit; a top-level table or list is read in pieces)`,
    );
    this.name = "MarkdownSizeError";
  }
}

/** Code units handed to micromark so far (`micromarkLoad`). */
let micromarkUnits = 0;

/** @internal Test hook: UTF-16 code units the fragmenter has handed to micromark since the process started (regions, labels, cells, probes). */
export function micromarkLoad(): number {
  return micromarkUnits;
}

/** @throws MarkdownSizeError when `length` (of a piece starting at document line `line`, in code units) is over `MAX_MICROMARK_LENGTH` */
function checkMicromarkSize(length: number, line: number): void {
  if (length > MAX_MICROMARK_LENGTH) throw new MarkdownSizeError(line, length);
  micromarkUnits += length;
}

// The parsers load on first use (ts/deps), so importing the evidence spine costs nothing until it fragments.
let micromarkOptions: { extensions: unknown[]; mdastExtensions: unknown[] } | null = null;
let frontmatterOptions: { extensions: unknown[]; mdastExtensions: unknown[] } | null = null;

/**
 * micromark → mdast with GFM: the exact path, for pieces of a document (a region, a heading, a
 * cell). Without the front matter extension: a piece is not the document's top, and front matter
 * is decided once, at the top (`frontmatterProbe`). With it, a region that opens with `---` read
 * as a document of its own could be front matter in the middle of a document
 * (`para\n\n---\n[^a]: x\n---`), and an unclosed `---` first line made micromark read no
 * list, block quote or footnote in the region (see `parseBlocks`).
 */
function fromMarkdown(text: string, line: number): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
  checkMicromarkSize(text.length, line);
  const m = markdown();
  micromarkOptions ??= { extensions: [m.gfm()], mdastExtensions: [m.gfmFromMarkdown()] };
  return readAsGiven(text, (t) => m.fromMarkdown(t, micromarkOptions as never));
}

/**
 * `parse(text)`, positions counted in `text` as given. micromark drops a U+FEFF that starts the
 * text it reads, as a byte-order mark, and counts positions without it; but a piece of the document
 * (a region, a label, the document after its own BOM) that starts with U+FEFF starts with an
 * ordinary character (only the document's first code unit is a BOM, and `parseBlocks` keeps it out
 * of what micromark reads). Such a piece is read after one blank line (which opens and closes no
 * block) and its positions are moved back over that line: `# T\n\n\uFEFFword | b\n-|-\n\tc | d\n`
 * ended its table a code unit early, so a change of its last character kept a citation current.
 */
function readAsGiven(text: string, parse: (text: string) => Root): Root {
  if (text.charCodeAt(0) !== 0xfeff) return parse(text);
  const tree = parse(`\n${text}`);
  const back = (point: { line: number; column: number; offset?: number }) => {
    if (point.line <= 1) {
      point.line = 1;
      point.column = 1;
      point.offset = 0;
    } else {
      point.line--;
      if (point.offset !== undefined) point.offset--;
    }
  };
  const stack: Nodes[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.position) {
      back(node.position.start);
      back(node.position.end);
    }
    if ("children" in node) for (const child of node.children as Nodes[]) stack.push(child);
  }
  return tree;
}

let untransformedOptions: { extensions: unknown[]; mdastExtensions: unknown[] } | null = null;

/**
 * micromark → mdast with GFM, less mdast's tree transforms (mdast-util-gfm-autolink-literal's
 * find-and-replace of URLs and e-mail addresses left in text nodes): the tree as it is when
 * paragraphs exit, which is what mdast-util-gfm-task-list-item reads (`taskHeadsByMicromark`).
 */
function fromMarkdownAtExit(text: string, line: number): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
  checkMicromarkSize(text.length, line);
  const m = markdown();
  untransformedOptions ??= {
    extensions: [m.gfm()],
    mdastExtensions: (m.gfmFromMarkdown() as unknown as Record<string, unknown>[]).map((e) => ({ ...e, transforms: [] })),
  };
  return readAsGiven(text, (t) => m.fromMarkdown(t, untransformedOptions as never));
}

/** micromark → mdast with GFM and front matter, for `frontmatterProbe` only. */
function fromMarkdownWithFrontmatter(text: string): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
  checkMicromarkSize(text.length, 1);
  const m = markdown();
  frontmatterOptions ??= {
    extensions: [m.frontmatter(["yaml", "toml"]), m.gfm()],
    mdastExtensions: [m.frontmatterFromMarkdown(["yaml", "toml"]), m.gfmFromMarkdown()],
  };
  return m.fromMarkdown(text, frontmatterOptions as never);
}

// --- micromark path (exact, slow): front matter, tables, footnotes, heading labels with markup ---

/**
 * A node's offsets and 1-based line within the text micromark read.
 * @param near the line (in the document, 1-based) of the nearest enclosing node known, for the error
 * @param lineShift lines before the text micromark read (a region's), so the error names a document line
 * @throws Error naming the node's type and a line when mdast gave the node no position
 */
function offsets(node: Nodes, what: string, near?: number, lineShift = 0): { start: number; end: number; line: number } {
  const p = node.position;
  if (!p || p.start.offset === undefined || p.end.offset === undefined) {
    const line = p?.start.line !== undefined ? p.start.line + lineShift : near;
    throw new Error(`fragmentMarkdown: the parser gave no source position for a ${what} node ${line === undefined ? "(no line known)" : `at line ${line}`}`);
  }
  return { start: p.start.offset, end: p.end.offset, line: p.start.line };
}

/** Whether mdast gave the node offsets (mdast-util-gfm-autolink-literal's transform drops them on the text nodes it splits). */
function positioned(node: Nodes): boolean {
  return node.position?.start.offset !== undefined && node.position.end.offset !== undefined;
}

/**
 * GFM renders a row with as many cells as the header: missing cells are empty,
 * excess cells are dropped (they stay part of the row's text). A missing cell
 * points at the empty spot at the row's end.
 */
function rowCells(cells: FragmentCell[], width: number, rowEnd: number): FragmentCell[] {
  if (cells.length === width) return cells;
  const out = cells.slice(0, width);
  while (out.length < width) out.push({ text: "", start: rowEnd, end: rowEnd });
  return out;
}

/** mdast (from a region parsed on its own) → BlockNodes, offsets shifted by `shift` and lines by `lineShift`. */
function fromMdast(node: RootContent, region: string, shift: number, lineShift: number, limit = region.length): BlockNode {
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
 * A cell's text (mdast-util-to-string's, `plainText`) and the offsets of its content: from its first
 * to its last inline node, or, where mdast gave those no position (mdast-util-gfm-autolink-literal's
 * transform splits text nodes around a `www.` or e-mail literal and leaves the pieces without one:
 * `| [see www.x.com |`), the cell's own span less its pipes and padding (`cellContent`), which is
 * where micromark's table tokenizer puts a cell's content. `line` is the row's, for errors.
 */
function cellOf(region: string, cell: TableCell, shift: number, line: number): FragmentCell {
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
 * Parse `text.slice(start, end)` (whole lines) with micromark and return its blocks
 * in the coordinates of `text`, none ending past `limit` (default `end`; a region that ends with
 * the line ending of its last, blank line is read up to it: `convertChunk`). The document's definitions the region may use (lines `[label]: #`,
 * `[^label]: x`; `DefinitionLines`) are appended so that its references resolve as they do in the
 * whole document.
 */
function micromarkRegion(text: string, start: number, end: number, firstLine: number, definitions: Definitions, limit = end): BlockNode[] {
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
function definitionsBefore(defs: string): string {
  return `${defs}\n\n***\n\n`;
}

/**
 * Where the line holding offset `at` of `text` starts: after the last line ending (LF, CR LF or a
 * lone CR, as micromark reads them) before `at`; an `at` between the CR and the LF of a CR LF counts
 * as in the line the CR ends.
 */
function lineStartOf(text: string, at: number): number {
  const lf = text.lastIndexOf("\n", at - 1);
  const cr = text.lastIndexOf("\r", at - 1);
  if (cr > lf && text.charCodeAt(cr + 1) === 0x0a) return cr + 2 > at ? lineStartOf(text, cr) : cr + 2;
  return Math.max(lf, cr) + 1;
}

/** Where the line after the one holding offset `at` starts (`text.length` when there is none). */
function nextLineStart(text: string, at: number): number {
  for (let k = at; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a) return k + 1;
    if (c === 0x0d) return text.charCodeAt(k + 1) === 0x0a ? k + 2 : k + 1;
  }
  return text.length;
}

/** Line endings (LF, CR LF or a lone CR) that end in `text.slice(from, to)`. */
function lineEndings(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a)) n++;
  }
  return n;
}

/**
 * Code units of a region over MAX_MICROMARK_LENGTH that `micromarkLargeRegion` hands to micromark in
 * one parse (besides a table's head and the definitions): peak RSS for the 788 KB table of its
 * docstring 483 / 538 / 551 MB at 2^15 / 2^16 / 2^17, CPU time alike.
 */
const TABLE_PIECE = 1 << 16;

/**
 * `micromarkRegion` for a region of top-level blocks longer than MAX_MICROMARK_LENGTH, read in
 * pieces of about TABLE_PIECE code units cut at line starts, where the blocks allow it:
 * - Between top-level blocks. CommonMark reads blocks line by line and never reopens a closed one
 *   (spec, appendix "A parsing strategy"), so every block of a piece before its last is the whole
 *   region's reading, as is a last one that cannot go on past the blank lines after it (a table,
 *   paragraph, heading, thematic break or definition that ends before the cut). The region's next
 *   top-level block starts on a fresh line at the top level and reads alone as in the whole region
 *   (no open block may take it: the one before it closed), so the next piece starts at the first line
 *   of the piece's last block, which is read again.
 * - Across the rows of a top-level table: micromark-extension-gfm-table reads each body row from its
 *   own line and the table's head (the header's cell count, the delimiter row), and ends the table
 *   at a blank line or at a line that opens another block, a test of that line alone (GFM spec
 *   §4.10). When a piece's last block is a table that runs to the cut, the next piece is read as the
 *   table's header and delimiter lines followed by the next lines of the region, and its body rows,
 *   shifted back to their place in the text, are the whole reading's.
 * - Between the items of a top-level list: an item closes when the line of the next one opens it,
 *   and a sibling item's line (its marker indented 0–3 columns) read alone opens a list with that
 *   item, whose next items are the whole reading's (the same marker continues it). When a piece's
 *   last block is a list, its items before the last are final; the next piece starts at the last
 *   item's line, and its first block's items join the list (`joined`).
 * A definition without a title right before the piece's last block, on the line before it, is read
 * again with it when that block's first line may open its title (`opensTitle`). A piece whose
 * definitions make it longer than MAX_MICROMARK_LENGTH is cut shorter (`readFitting`).
 * A piece whose only block runs past the cut and is not a table, nor a list past its first item,
 * is read again up to MAX_MICROMARK_LENGTH; a block longer than that (a paragraph, quote, footnote
 * or fence, or one list item) is refused as before: `MarkdownSizeError`. Lines end at LF, CR LF and a lone CR, as micromark reads
 * them (`lineStartOf`). A 26,300-row table with a tab
 * in one cell (788 KB, `node dist/cli.cjs fragments`, 2026-12-02): 6.4 s CPU and 415 MB peak RSS;
 * the reference fragmenter's one parse of it 5.4 s and 954 MB. The same fragments (the seeded
 * differential in test/evidence/large-regions.test.ts).
 */
function micromarkLargeRegion(text: string, start: number, end: number, firstLine: number, definitions: Definitions, limit: number): BlockNode[] {
  const out: BlockNode[] = [];
  let at = start;
  let line = firstLine;
  /** The table that runs on at `at`, and its header and delimiter lines. */
  let table: BlockNode | null = null;
  let head = "";
  /** The top-level list that runs on at `at` (its items so far) and where its next item starts: the next piece's first block, a list, holds its next items. */
  let list: BlockNode | null = null;
  let itemStart = -1;
  /** Where the line after `node`'s last line starts (the region's end when it has none). */
  const after = (node: BlockNode) => Math.min(nextLineStart(text, node.end), end);
  /** A cut at the start of the line holding `at` (a line start itself stays). */
  const cutAt = (at: number) => (at >= end ? end : lineStartOf(text, at));
  /** Where the line of a list's last item starts: a list whose one item starts at `at` gives `at` (no progress). */
  const lastItemLine = (node: BlockNode) => lineStartOf(text, node.children!.at(-1)!.start);
  /** `blocks` (a piece's, from `at`) with the first joined to the list that runs on at `at` (`list`). */
  const joined = (blocks: BlockNode[]): BlockNode[] => {
    if (list === null) return blocks;
    const first = blocks[0];
    // The item's line read alone opens a list with that item (a sibling item's marker is indented 0–3
    // columns, and no open block takes the line: the item before it closed): anything else is a fault here.
    if (first?.type !== "list" || first.children![0]?.start !== itemStart) {
      throw new Error(`fragmentMarkdown: the item at line ${line} of the list at line ${list.line} did not read as a list item again`);
    }
    list.children!.push(...first.children!);
    list.end = first.end;
    blocks[0] = list;
    list = null;
    return blocks;
  };
  /** Whether the list's items before its last are final and its last starts after `at` (`micromarkLargeRegion`: lists). */
  const splits = (node: BlockNode) => node.type === "list" && node.children!.length >= 2 && lastItemLine(node) > at;
  /**
   * The index of the block of a piece from which the next piece starts (the blocks before it are
   * final): the last, or the untitled definition right before it when the last block's first line
   * may open that definition's title (`opensTitle`): the title would run on past the cut.
   */
  const carried = (blocks: readonly BlockNode[]) => {
    const k = blocks.length - 1;
    return k >= 1 && opensTitle(text, blocks[k - 1], blocks[k], after(blocks[k - 1])) ? k - 1 : k;
  };
  /**
   * micromarkRegion of `[at, to)`, `to` moved back to an earlier line start while the definitions
   * the piece uses make it longer than MAX_MICROMARK_LENGTH (each step by the excess): the cut is
   * returned with the blocks. A piece whose definitions alone are over the bound is refused.
   */
  const readFitting = (to: number): [BlockNode[], number] => {
    for (let cut = to; ; ) {
      try {
        return [micromarkRegion(text, at, cut, line, definitions, cut), cut];
      } catch (error) {
        if (!(error instanceof MarkdownSizeError)) throw error;
        const shorter = cutAt(cut - (error.length - MAX_MICROMARK_LENGTH));
        if (shorter <= at || shorter >= cut) throw error;
        cut = shorter;
      }
    }
  };
  while (at < end) {
    if (table === null && end - at <= MAX_MICROMARK_LENGTH) {
      let rest: BlockNode[] | null = null;
      try {
        rest = micromarkRegion(text, at, end, line, definitions, limit);
      } catch (error) {
        // The rest and the definitions it uses are over the bound together: read on in pieces.
        if (!(error instanceof MarkdownSizeError)) throw error;
      }
      if (rest !== null) {
        out.push(...joined(rest));
        break;
      }
    }
    let cut: number = table !== null && end - at <= TABLE_PIECE ? end : cutAt(at + TABLE_PIECE);
    if (table === null) {
      /**
       * Whether the piece up to `cut` gives no block to keep and none to go on with: the block the
       * next piece would start from is its first, and it is not a table running to the cut, a
       * block that ended before it, nor a list past its first item.
       */
      const stuck = (blocks: readonly BlockNode[]): boolean => {
        if (blocks.length === 0) return true;
        const last = blocks[blocks.length - 1];
        if ((after(last) < cut && ENDED.test(last.type)) || splits(last)) return false;
        const k = carried(blocks);
        return k === 0 && !(k === blocks.length - 1 && last.type === "table" && after(last) === cut);
      };
      let blocks: BlockNode[] = [];
      if (cut > at) [blocks, cut] = readFitting(cut);
      if (stuck(blocks)) {
        // One block runs past the cut: read again in one piece as long as the bound allows.
        cut = cutAt(at + MAX_MICROMARK_LENGTH);
        if (cut <= at) throw new MarkdownSizeError(line, end - at);
        [blocks, cut] = readFitting(cut);
      }
      if (stuck(blocks)) throw new MarkdownSizeError(line, end - at);
      blocks = joined(blocks);
      const last = blocks[blocks.length - 1];
      if (after(last) < cut && ENDED.test(last.type)) {
        // A block that a line after it ended (a blank line, or one that opened another block) and
        // that no later line reopens: final, as the blocks before it (the piece may end in blank lines).
        out.push(...blocks);
        line += lineEndings(text, at, after(last));
        at = after(last);
        continue;
      }
      if (splits(last)) {
        // A list that may go on past the cut: its items before the last are final (the next item's
        // line closed each), and the next piece starts at the last item's line and adds to the list.
        blocks.pop();
        out.push(...blocks);
        const item = last.children!.pop()!;
        last.end = last.children!.at(-1)!.end;
        list = last;
        itemStart = item.start;
        at = lineStartOf(text, item.start);
        line = item.line;
        continue;
      }
      const k = carried(blocks);
      out.push(...blocks.slice(0, k));
      if (k < blocks.length - 1 || last.type !== "table" || after(last) !== cut) {
        // The block may go on past the cut: it is read again from its first line.
        at = lineStartOf(text, blocks[k].start);
        line = blocks[k].line;
        continue;
      }
      line += lineEndings(text, at, cut);
      at = cut;
      table = last;
      const headStart = lineStartOf(text, last.start);
      head = text.slice(headStart, nextLineStart(text, nextLineStart(text, headStart)));
      continue;
    }
    // The table runs on at `at`: its next rows, read after its head.
    const piece = `${head}${text.slice(at, cut)}`;
    const defs = definitions(piece, true);
    // The definitions go before the head, closed by a thematic break (as in `micromarkRegion`): after
    // the piece, an unclosed fence or HTML block opened after the table's end would swallow them.
    const prefix = defs ? definitionsBefore(defs) : "";
    const parsed = `${prefix}${piece}`;
    const first = fromMarkdown(parsed, line).children.find((node) => offsets(node, node.type).start >= prefix.length);
    // The head read alone is the table it opened in the whole reading: anything else is a fault here.
    if (first?.type !== "table" || offsets(first, "table").start >= prefix.length + nextLineStart(head, 0)) {
      throw new Error(`fragmentMarkdown: the head of the table at line ${table.line} did not read as a table again (line ${line})`);
    }
    const prefixLines = lineEndings(prefix, 0, prefix.length);
    const skip = prefix.length + head.length;
    const rows = fromMdast(first, parsed, at - skip, line - 3 - prefixLines, cut - at + skip).rows!.slice(1);
    if (rows.length) {
      table.rows!.push(...rows);
      table.end = rows.at(-1)!.end;
    }
    if (rows.length && cut < end && after(table) === cut) {
      line += lineEndings(text, at, cut);
      at = cut;
      continue;
    }
    // The table ended in this piece (or with it): the rest of the region starts after its last row.
    out.push(table);
    const next = rows.length ? after(table) : at;
    line = rows.length ? table.rows!.at(-1)!.line + 1 : line;
    table = null;
    at = next;
  }
  if (table) out.push(table);
  return out;
}

/**
 * Whether `next`, the block after the definition `node` with no line between them (`afterNode`:
 * where the line after `node`'s last starts), starts with what may be `node`'s title: `node` has
 * none, and the line opens with `"`, `'` or `(` after spaces or tabs (CommonMark §4.7: a title may
 * start on the line after the destination and span lines up to a blank one). Read in a piece cut
 * before the title closes, micromark ends the definition at its destination and reads the title's
 * lines as a paragraph; the whole text may close it (`micromarkLargeRegion` reads on from `node`).
 */
function opensTitle(text: string, node: BlockNode, next: BlockNode, afterNode: number): boolean {
  if (node.type !== "definition" || node.titled || lineStartOf(text, next.start) !== afterNode) return false;
  return /^[ \t]*["'(]/.test(text.slice(afterNode, nextLineStart(text, afterNode)));
}

/** Blocks that a blank line ends for good (`micromarkLargeRegion`): no later line joins them. */
const ENDED = /^(?:table|paragraph|heading|break|definition)$/;

/** Characters after which a heading's inline content may differ from its source text. */
const INLINE_MARKUP = /[\\`*_&<[~]/;

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

function setLabel(w: Later, text: string): void {
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
function labelsByMicromark(items: readonly Later[], definitions: Definitions): void {
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

// --- markdown-it path (fast): block structure from markdown-it, offsets from its line marks ---

/** markdown-it's `env` as the fragmenter uses it: its own `references`, and `labels` (`labelRecorder`). */
type FragmentEnv = Env & { labels?: string[]; labelsAt?: number[]; oddSpace?: boolean };

/**
 * markdown-it's reference-definition rule, recording each definition's label as written (lines
 * joined by "\n", each from its content start as the rule reads it) in `env.labels` (and where its
 * `[` stands in markdown-it's string in `env.labelsAt`), and in
 * `env.oddSpace` whether one holds white space micromark does not collapse. markdown-it keys
 * `env.references` by its `normalizeReference`, which trims and collapses all Unicode white space
 * (U+00A0, U+2003, U+FEFF, …); micromark's `normalizeIdentifier` and CommonMark (§4.7, matching
 * labels) only spaces, tabs and line endings. So `[a\u00A0b]: /u` defines the key "A B" for
 * markdown-it, and `[t][a b]` resolved there, not in micromark. The labels as written are what a
 * piece parsed alone needs (`definitionLines`), and `inlinePlainText` leaves links to micromark
 * in a document where the two keys may differ.
 */
function labelRecorder(stock: (...a: never[]) => boolean) {
  return (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
    const ok = (stock as unknown as (s: StateBlock, a: number, b: number, c: boolean) => boolean)(state, startLine, endLine, silent);
    if (!ok || silent) return ok;
    const { src, bMarks, tShift, eMarks } = state;
    let line = startLine;
    let pos = bMarks[line] + tShift[line] + 1;
    let segment = pos;
    let raw = "";
    for (;;) {
      if (pos >= eMarks[line]) {
        raw += `${src.slice(segment, eMarks[line])}\n`;
        if (++line >= state.lineMax) return ok; // (never: the rule found the label's end)
        pos = segment = bMarks[line] + tShift[line];
        continue;
      }
      const c = src.charCodeAt(pos);
      if (c === 0x5d) break;
      pos += c === 0x5c ? 2 : 1;
    }
    raw += src.slice(segment, pos);
    const env = state.env as FragmentEnv;
    (env.labels ??= []).push(raw);
    (env.labelsAt ??= []).push(bMarks[startLine] + tShift[startLine]);
    if (ODD_SPACE.test(raw)) env.oddSpace = true;
    return ok;
  };
}

/** A definition-like start whose label is white space only, some of it white space CommonMark does not collapse (`ODD_SPACE`). */
const ODD_BLANK_LABEL = /^\[[\t\n\r ]*[^\S\t\n\r ]\s*\]:/;

/**
 * Whether markdown-it's inline reading of `content` may resolve a link label otherwise than
 * micromark: it holds a `[` and white space markdown-it collapses and micromark keeps stands in it
 * or in a definition's label (`env.oddSpace`, `labelRecorder`). Then micromark decides.
 */
function labelsMayDiffer(content: string, env: Env): boolean {
  return content.includes("[") && ((env as FragmentEnv).oddSpace === true || ODD_SPACE.test(content));
}

/** White space other than what CommonMark collapses in a label (space, tab, line endings): where markdown-it's keys and micromark's differ. */
const ODD_SPACE = /[^\S\t\n\r ]/;

let mdInstance: MarkdownItInstance | null = null;

/**
 * Token index → offset of its first character / of its first line's start within its
 * containers (in markdown-it's string), recorded by the rule that opened it (arrays indexed
 * like `state.tokens`, which block rules only push to: cheaper than a map per token), for
 * blocks inside containers only: a top-level block's come from the line table.
 */
let firstCharAt: number[] = [];
let lineStartAt: number[] = [];

/**
 * Where, on a line, the current container's content begins: the first character at
 * column `blkIndent` (markdown-it's list-item indentation; block quotes move `bMarks`
 * instead). -1 when a tab straddles that column (micromark then decides).
 */
function columnStart(src: string, bMark: number, eMark: number, blkIndent: number, bsCount: number): number {
  let p = bMark;
  // A tab right after a quote's `>` is partly its optional space: micromark's column, not markdown-it's.
  if (src.charCodeAt(p) === 0x09 && p > 0 && src.charCodeAt(p - 1) === 0x3e) return -1;
  if (blkIndent === 0) return p;
  let col = 0;
  while (col < blkIndent && p < eMark) {
    const c = src.charCodeAt(p);
    if (c === 0x20) col++;
    else if (c === 0x09) col += 4 - ((col + bsCount) % 4);
    else break;
    p++;
  }
  return col === blkIndent ? p : -1;
}

// Every block rule is wrapped to record where, within its containers, the block it opens starts:
// markdown-it keeps only line ranges (`map`), and its per-line marks are rewritten while a
// container is parsed and restored afterwards, so the position must be read while the rule runs.
/** The markdown-it instance, made (and its block rules wrapped) on first use. */
function md(): MarkdownItInstance {
  if (mdInstance) return mdInstance;
  const instance = new (markdown().MarkdownIt)("default", { html: true, linkify: false, typographer: false, maxNesting: MAX_MARKDOWN_NESTING + 2 });
  const rules = (instance.block.ruler as unknown as { __rules__?: { name: string; alt: string[]; fn: (...a: unknown[]) => boolean }[] }).__rules__;
  if (!Array.isArray(rules)) throw new Error("fragmentMarkdown: markdown-it's block ruler changed shape; pin markdown-it 15.0.x");
  for (const { name, alt, fn: stock } of [...rules]) {
    const fn = name === "table" ? tableExtent(stock) : name === "reference" ? labelRecorder(stock) : stock;
    const wrapped = (state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean => {
      // Silent calls (a paragraph asking, line after line, whether a rule would end it) open nothing.
      // At the top level (no container open) the marks are the line table's own, which no rule
      // leaves changed (containers restore what they rewrite): GroupReader reads them there.
      if (silent || state.level === 0) return fn(state, startLine, endLine, silent);
      const at = state.tokens.length;
      // The marks as they are before the rule runs (a container rewrites them while it parses its content).
      const bMark = state.bMarks[startLine];
      const tShift = state.tShift[startLine];
      const eMark = state.eMarks[startLine];
      const blkIndent = state.blkIndent;
      const bsCount = state.bsCount[startLine];
      const ok = fn(state, startLine, endLine, silent);
      if (ok && state.tokens.length > at) {
        firstCharAt[at] = bMark + tShift;
        lineStartAt[at] = columnStart(state.src, bMark, eMark, blkIndent, bsCount);
      }
      return ok;
    };
    instance.block.ruler.at(name, wrapped as never, { alt: [...alt] });
  }
  // micromark neither validates nor rewrites link destinations and autolinks; markdown-it's defaults
  // refuse `javascript:`, `vbscript:`, `file:` and most `data:` URLs (so `[a]: javascript:x` was a
  // paragraph to markdown-it and a definition to micromark, `[x](javascript:y)` text against a link),
  // and percent-decode an autolink's text (mdast keeps it as written). With these three the
  // fragmenter's markdown-it reads links, definitions and autolinks as micromark does (the hrefs
  // are never rendered: only their `~` are counted, which neither rewrite changed), and the URL
  // parsing and punycode they cost (a twentieth of the fragmenter's time on the primer's link
  // tables) are gone.
  instance.validateLink = () => true;
  instance.normalizeLink = (url: string) => url;
  instance.normalizeLinkText = (text: string) => text;
  plainTokenStates(instance);
  return (mdInstance = instance);
}

/** A markdown-it block rule. */
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** markdown-it 15.0.3's cap on a table's autocompleted (missing) cells (`MAX_AUTOCOMPLETED_CELLS`). */
const MAX_AUTOCOMPLETED_CELLS = 65536;

/**
 * markdown-it 15.0.3's GFM table rule (`rules_block/table`) reduced to what the fragmenter reads
 * of a table: its lines, in the `table_open` token's map (`tableOf` reads rows and cells from
 * the lines themselves). The stock rule decides, called silent (no tokens), whether the lines
 * start a table; the loop here is the stock rule's body loop line for line, less the tokens of
 * every row and cell (a heading row and a body row of markdown-it make 3 tokens a cell, each
 * cell's text split, trimmed and kept): a table ends before the line a block quote's
 * terminators take, a blank line, a line indented by 4 or more, or one indented less than its
 * container. The stock rule also stops once more than 65,536 cells were autocompleted, which
 * needs more rows × header cells than that: such a table goes to the stock rule. Tokens:
 * `table_open` (map: the table's lines) and `table_close`, at the stock levels.
 * test/evidence/markdown-it-golden.test.ts holds them equal to the stock rule's table_open and
 * table_close on real documents.
 */
function tableExtent(stock: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    if (!stock(state, startLine, endLine, true)) return false;
    if (silent) return true;
    // At most one header cell per pipe, plus one: a bound on the stock rule's column count.
    let columnBound = 1;
    for (let p = state.bMarks[startLine] + state.tShift[startLine]; p < state.eMarks[startLine]; p++) if (state.src.charCodeAt(p) === 0x7c) columnBound++;
    const oldParentType = state.parentType;
    state.parentType = "table" as typeof state.parentType;
    const terminatorRules = state.md.block.ruler.getRules("blockquote") as unknown as BlockRule[];
    let nextLine = startLine + 2;
    for (; nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine] < state.blkIndent) break;
      let terminate = false;
      for (let i = 0; i < terminatorRules.length; i++) {
        if (terminatorRules[i](state, nextLine, endLine, true)) {
          terminate = true;
          break;
        }
      }
      if (terminate) break;
      if (!state.src.slice(state.bMarks[nextLine] + state.tShift[nextLine], state.eMarks[nextLine]).trim()) break;
      if (state.sCount[nextLine] - state.blkIndent >= 4) break;
      if ((nextLine - startLine - 1) * columnBound > MAX_AUTOCOMPLETED_CELLS) {
        state.parentType = oldParentType;
        return stock(state, startLine, endLine, false);
      }
    }
    const open = state.push("table_open", "table", 1);
    open.map = [startLine, nextLine];
    state.push("table_close", "table", -1);
    state.parentType = oldParentType;
    state.line = nextLine;
    return true;
  };
}

type StateConstructor<S> = new (src: string, md: MarkdownItInstance, env: Env, tokens: Token[]) => S;

/**
 * Give `instance` block and inline states that make plain tokens. markdown-it 15's published
 * build sets each defaulted field of a Token, and of an inline state, through a transpiled
 * `_defineProperty` helper (a `toPropertyKey`, a `typeof` and an `in` test per field, per
 * object): on the primer that was an eighth of all the fragmenter's time, more than its block
 * rules. The states here are markdown-it 15.0.3's, line for line: the block state subclasses
 * `StateBlock` (its constructor builds the line table once per document) with `push`; the
 * inline state (one per heading label or table cell read) has `StateInline`'s constructor, `push`
 * and `pushPending`. Their tokens assign the same fields plainly, in the same order, and share
 * Token's prototype (its attr* methods, `instanceof`); rules make tokens only through `push`,
 * `pushPending` and `state.Token`. `md.block.State` / `md.inline.State` are own fields of the
 * parsers, which `parse` instantiates, so markdown-it's own parse loops run unchanged.
 * test/evidence/markdown-it-golden.test.ts holds the tokens and state fields equal to the stock
 * ones over real documents, so an upgrade that changes either is caught.
 */
function plainTokenStates(instance: MarkdownItInstance): void {
  const BlockBase = instance.block.State as unknown as StateConstructor<StateBlock>;
  const InlineBase = instance.inline.State as unknown as StateConstructor<StateInline>;
  const TokenClass = new BlockBase("", instance, {}, []).Token;
  // Plain assignments in a function (class fields would compile to defineProperty semantics).
  function PlainToken(this: Record<string, unknown>, type: string, tag: string, nesting: number): void {
    this.map = null;
    this.level = 0;
    this.children = null;
    this.content = "";
    this.markup = "";
    this.info = "";
    this.block = false;
    this.hidden = false;
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.nesting = nesting;
    this.meta = null;
  }
  PlainToken.prototype = TokenClass.prototype;
  const NewToken = PlainToken as unknown as new (type: string, tag: string, nesting: number) => Token;

  class BlockState extends BlockBase {
    constructor(src: string, md: MarkdownItInstance, env: Env, tokens: Token[]) {
      // The stock constructor reads the whole text a code unit at a time for the line table (a
      // twentieth of the fragmenter's time on the primer): on an empty text it builds none, and
      // `lineTable` builds the same one with indexOf from each line's first non-blank unit.
      super("", md, env, tokens);
      this.src = src;
      lineTable(this, src);
    }

    override push(type: string, tag: string, nesting: Token["nesting"]): Token {
      const token = new NewToken(type, tag, nesting);
      token.block = true;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }
  }
  (BlockState.prototype as { Token: unknown }).Token = NewToken;

  type Inline = StateInline;
  function InlineState(this: Record<string, unknown>, src: string, md: MarkdownItInstance, env: Env, outTokens: Token[]): void {
    this.pos = 0;
    this.level = 0;
    this.pending = "";
    this.pendingLevel = 0;
    this.cache = {};
    this.backticks = {};
    this.backticksScanned = false;
    this.skipHtmlSpecial = false;
    this.linkLevel = 0;
    this.delimiters = [];
    this._prev_delimiters = [];
    this.Token = NewToken;
    this.src = src;
    this.env = env;
    this.md = md;
    this.tokens = outTokens;
    this.tokens_meta = Array(outTokens.length);
    this.posMax = src.length;
  }
  const inline = Object.create(InlineBase.prototype) as Inline;
  inline.pushPending = function (this: Inline): Token {
    const token = new NewToken("text", "", 0);
    token.content = this.pending;
    token.level = this.pendingLevel;
    this.tokens.push(token);
    this.pending = "";
    return token;
  };
  inline.push = function (this: Inline, type: string, tag: string, nesting: Token["nesting"]): Token {
    if (this.pending) this.pushPending();
    const token = new NewToken(type, tag, nesting);
    let tokenMeta: StateInline["tokens_meta"][number] = undefined;
    if (nesting < 0) {
      this.level--;
      this.delimiters = this._prev_delimiters.pop()!;
    }
    token.level = this.level;
    if (nesting > 0) {
      this.level++;
      this._prev_delimiters.push(this.delimiters);
      this.delimiters = [];
      tokenMeta = { delimiters: this.delimiters };
    }
    this.pendingLevel = this.level;
    this.tokens.push(token);
    this.tokens_meta.push(tokenMeta);
    return token;
  };
  InlineState.prototype = inline;
  (instance.block as { State: unknown }).State = BlockState;
  (instance.inline as { State: unknown }).State = InlineState;
}

/**
 * markdown-it 15.0.3's line table (`StateBlock`'s constructor), the same arrays: per line its
 * start (`bMarks`), its end before the LF (`eMarks`), its indentation in code units (`tShift`)
 * and in columns, tabs to the next multiple of 4 (`sCount`), `bsCount` 0; then one entry at the
 * text's end, and `lineMax` = the number of lines. The stock loop tests every code unit; here
 * only a line's leading spaces and tabs are read one by one, the rest of it is skipped with
 * `indexOf("\n")`. Its quirk is kept: a last line of spaces and tabs alone, with no LF after it,
 * gets no entry (the stock loop's blank test skips its end-of-text test).
 */
function lineTable(state: StateBlock, s: string): void {
  const bMarks: number[] = [];
  const eMarks: number[] = [];
  const tShift: number[] = [];
  const sCount: number[] = [];
  const bsCount: number[] = [];
  const len = s.length;
  for (let pos = 0; pos < len; ) {
    const start = pos;
    let offset = 0;
    let c = s.charCodeAt(pos);
    while (c === 0x20 || c === 0x09) {
      offset += c === 0x09 ? 4 - (offset % 4) : 1;
      c = s.charCodeAt(++pos); // NaN past the end
    }
    if (pos >= len) break;
    const lf = s.indexOf("\n", pos);
    const end = lf < 0 ? len : lf;
    bMarks.push(start);
    eMarks.push(end);
    tShift.push(pos - start);
    sCount.push(offset);
    bsCount.push(0);
    pos = end + 1;
  }
  bMarks.push(len);
  eMarks.push(len);
  tShift.push(0);
  sCount.push(0);
  bsCount.push(0);
  state.bMarks = bMarks;
  state.eMarks = eMarks;
  state.tShift = tShift;
  state.sCount = sCount;
  state.bsCount = bsCount;
  state.lineMax = bMarks.length - 1;
}

/** @internal Test hook: the fragmenter's markdown-it instance (plain-token states, URLs neither validated nor rewritten). */
export function fragmenterMarkdownIt(): MarkdownItInstance {
  return md();
}

/** A top-level block markdown-it cannot give exactly as micromark does: parse its lines with micromark. */
class NeedsMicromark extends Error {}

interface Lines {
  src: string;
  /** Offset of each line's first character / of its end (before the line feed); its indentation (markdown-it's `tShift`). */
  begin: number[];
  end: number[];
  shift: number[];
  /** Offset of markdown-it's string within the text as given (1 after a byte-order mark). */
  base: number;
  /** The text as given, and whether it holds a CR LF (turned into space LF for markdown-it). */
  text: string;
  crlf: boolean;
  env: Env;
  /** Labels and cells with markup: read once every definition of the document is known, after the last chunk. */
  later: Later[];
  /** Whether the document holds `[^` at all (else no group needs the footnote-definition test). */
  footnotes: boolean;
  /** Start and end (in the text as given) of each micromark region holding a line that may open a footnote definition (`FOOTNOTE_DEFINITION`), flat. */
  footnoteRegions: number[];
  /** Start and end (in the text as given) of every region read by micromark, in document order, flat. */
  regions: number[];
  /** Per line: the `>` on it when it holds only `>`, spaces and tabs, else -1 (`markersOnLine`, made on first use). */
  markers?: Int32Array;
}

/** A heading label or a cell text to read after the last chunk (it may use definitions further down). */
interface Later {
  heading: BlockNode | null;
  cell: FragmentCell | null;
  content: string;
  setext: boolean;
  /** A task item's paragraph whose start moves to `moved` when the first inline node of `content` is text (`taskParagraph`). */
  task?: BlockNode;
  moved?: number;
  line?: number;
  /** A cell's row's line (1-based), for errors. */
  row?: number;
}

function isBlank(l: Lines, line: number): boolean {
  for (let i = l.begin[line]; i < l.end[line]; i++) {
    const c = l.src.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/**
 * A quote or list on lines `[a, b)` inside the containers `enclosing` (nothing to do unless a block
 * quote is among them): where a line after its first, or the line right after it, holds only the
 * enclosing containers' markers (`>` and blanks: blank once they are removed), micromark decides where it ends. micromark ends such a container before or
 * after that line depending on what it held and on what follows (`> >\n>\n` ends the inner, empty
 * quote on its first line, `> > > - x\n>` runs every inner container over the `>` line), and
 * markdown-it's map follows neither rule.
 * @throws NeedsMicromark there
 */
function outerMarkersAfter(l: Lines, a: number, b: number, enclosing: readonly BlockNode[]): void {
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

/** End of a line as micromark ends a block on it: trailing whitespace kept, a CR (of CR LF) not. */
function lineEnd(l: Lines, line: number): number {
  const e = l.end[line];
  return e > l.begin[line] && l.crlf && l.text.charCodeAt(e - 1 + l.base) === 0x0d ? e - 1 : e;
}

/** End of a line's content, trailing spaces and tabs excluded. */
function trimmedEnd(l: Lines, line: number): number {
  let e = l.end[line];
  while (e > l.begin[line]) {
    const c = l.src.charCodeAt(e - 1);
    if (c !== 0x20 && c !== 0x09) break;
    e--;
  }
  return e;
}

/**
 * Where a list item's marker is on its first line: skip the `>` of enclosing
 * quotes and the indentation of enclosing items (markdown-it does not keep it).
 */
function markerStart(l: Lines, line: number, containers: readonly BlockNode[]): number {
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

/** The first offset in `[p, end)` that is not a space or a tab (`end` if none). */
function skipBlanks(src: string, p: number, end: number): number {
  while (p < end && (src.charCodeAt(p) === 0x20 || src.charCodeAt(p) === 0x09)) p++;
  return p;
}

/** The offset after the last character in `[start, e)` that is not a space or a tab (`start` if none). */
function trimBlanks(src: string, start: number, e: number): number {
  while (e > start && (src.charCodeAt(e - 1) === 0x20 || src.charCodeAt(e - 1) === 0x09)) e--;
  return e;
}

/** A definition's label as written (between `[` and `]:` on its first line), or NeedsMicromark. */
function definitionLabel(l: Lines, start: number, line: number): string {
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
function fenceClosed(l: Lines, t: Token, nested: boolean, firstChar: number): boolean {
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
function htmlClosed(l: Lines, t: Token, firstChar: number): boolean {
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
function htmlUnclosed(l: Lines, t: Token): boolean {
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
 * Columns of leading whitespace of a line (tab stops of 4). The line ends before its CR of a CR LF:
 * markdown-it's string holds a space there (`parseBlocks`), which would count as one more column
 * of a whitespace-only line (`"   \r\n"` is 3 columns to micromark, not 4).
 */
function indentColumns(l: Lines, line: number): number {
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

/**
 * Where indented code ends as micromark ends it (an offset into markdown-it's string): markdown-it
 * stops at the last line with content, micromark also takes the whitespace-only lines after it
 * that are still indented four columns (up to the next line with content), the CR of a CR LF not
 * counted as one (`indentColumns`), and a whitespace-only last line without a line ending, which
 * markdown-it's line table leaves out (`lineTable`: `"    code\n     "` is all code to micromark).
 */
function indentedCodeEnd(l: Lines, next: number, nested: boolean): number {
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
function taskParagraph(l: Lines, node: BlockNode, content: string, first: number, last: number, containers: readonly BlockNode[]): void {
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

/** The 0-based column of `at` in its line of `text` (tab stops of 4), as micromark counts it. */
function columnOf(text: string, at: number): number {
  let p = at;
  while (p > 0 && text.charCodeAt(p - 1) !== 0x0a && text.charCodeAt(p - 1) !== 0x0d) p--;
  let col = 0;
  for (; p < at; p++) col = text.charCodeAt(p) === 0x09 ? col + 4 - (col % 4) : col + 1;
  return col;
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
function taskHeadByMarkdownIt(rest: string, env: Env): boolean | null {
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
 * Code units of task rests, heading labels or cells read by one micromark parse (`taskHeadsByMicromark`,
 * `labelsByMicromark`): micromark → mdast
 * holds some 1.5 KB per code unit while it parses, so a batch stays small. The definitions appended
 * to a batch are the ones its rests may use (`DefinitionLines`), at most a few lines per bracket.
 */
const BATCH_CHARS = 1 << 16;

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
function taskHeadsByMicromark(rests: readonly string[], lines: readonly number[], definitions: Definitions): boolean[] {
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
function delimiterLikeIn(l: Lines, from: number, to: number): void {
  for (let line = from; line < to; line++) if (delimiterLike(l.src.slice(l.begin[line], l.end[line]))) throw new NeedsMicromark();
}

/**
 * A block quote (at the top level, so nested ones too) with a `>` after four columns of
 * indentation on a line after its first: markdown-it continues the quote there, CommonMark does
 * not (`> \t\tq\n    > quote`: the second line is indented code). Over-approximates (any run of
 * four columns before a `>` in the line's prefix): micromark decides.
 */
function quoteIndents(l: Lines, t: Token): void {
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
function listQuoteIndents(l: Lines, t: Token, firstColumn: number): void {
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
function afterDefinition(t: Token, definitionLevel: number): void {
  if (t.level < definitionLevel || t.type === "code_block" || t.type === "html_block" || t.type === "bullet_list_open" || t.type === "ordered_list_open") throw new NeedsMicromark();
}

const FOOTNOTE_DEFINITION = /^[ \t>*+\-\d.)]*\[\^/m;

/**
 * Converts the tokens of one group of top-level blocks, `tokens[from..to)`, to BlockNodes.
 * A class rather than closures in a function: one reader serves every group of a document.
 */
class GroupReader {
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
function inlinePlainText(content: string, env: Env): string | null {
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

/** A top-level table from its lines `[a, b)` (the second is the delimiter row). */
function tableOf(l: Lines, a: number, b: number): BlockNode {
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

/**
 * The definition lines (`DefinitionLines`) a piece of the document parsed alone may use, joined by
 * line endings ("" when none): `piece` is the text micromark reads, `region` whether it is a
 * region of the document as written (container markers inside it) rather than inline content.
 */
type Definitions = (piece: string, region: boolean) => string;

/**
 * The document's definitions as micromark reads the whole document, as lines to append to a
 * piece of it parsed alone (`[label]: #` for a reference definition, `[^label]: x` for a footnote
 * definition), so that `[x]` and `[^x]` in a heading, a cell or a region resolve as in the whole
 * document. Where markdown-it read the blocks, its reference definitions, with their labels as
 * written (`labelRecorder`: markdown-it's own keys collapse white space micromark keeps). In a region
 * micromark reads (`l.regions`), micromark's: its block pass over the region (`definitionsIn`)
 * lists the reference and footnote definitions it opens there; markdown-it's readings of those
 * lines are dropped, as they may differ (`[^n]: x\n[a]: /u` is a footnote with a lazy line to
 * micromark, a definition of `a` to markdown-it; `[^n]: [a]: /u` defines `a` to micromark only;
 * `[a]: /u\n    [b]: /u` is two definitions to micromark, where markdown-it's reading went to
 * micromark). Every line that may open a footnote definition is in a region (`FOOTNOTE_DEFINITION`),
 * so a `[^n]: x` line in a fenced or indented code block, an HTML block, front matter, after `***`,
 * or too deeply indented for its list item is none. Linear: the regions are disjoint, each read
 * once, and only those with a `]:` or a footnote line.
 */
function definitionLines(env: Env, l: Lines): DefinitionLines {
  const { text, regions, base } = l;
  /** Footnote identifiers, each with a label that normalizes to it (`writtenLabel`). */
  const footnotes = new Map<string, string>();
  const micromarkIds: string[] = [];
  const footnoteRegion = new Set<number>();
  for (let k = 0; k < l.footnoteRegions.length; k += 2) footnoteRegion.add(l.footnoteRegions[k]);
  for (let k = 0; k < regions.length; k += 2) {
    const region = text.slice(regions[k], regions[k + 1]);
    if (!footnoteRegion.has(regions[k]) && !region.includes("]:")) continue;
    const found = region.length > MAX_MICROMARK_LENGTH ? definitionsInLarge(text, regions[k], regions[k + 1]) : definitionsIn(region);
    for (const id of found.footnotes) if (!footnotes.has(id)) footnotes.set(id, writtenLabel(region, id, true));
    for (const id of found.references) micromarkIds.push(writtenLabel(region, id, false));
  }
  /** Whether text offset `at` lies in a region micromark read (regions are sorted and disjoint). */
  const inRegion = (at: number): boolean => {
    let lo = 0;
    let hi = regions.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (regions[2 * mid + 1] <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo < regions.length / 2 && regions[2 * lo] <= at;
  };
  const lines: [label: string, line: string][] = [];
  const seen = new Set<string>();
  const add = (label: string) => {
    // As written (micromark normalizes it as it normalizes the references), once per identifier;
    // on one line (white space is collapsed: a line ending would end the appended definition's label).
    const id = identifierOf(label);
    if (seen.has(id)) return;
    seen.add(id);
    const written = label.replace(/[\r\n]+/g, " ");
    lines.push([written, `[${written}]: #`]);
  };
  const { labels = [], labelsAt = [] } = env as FragmentEnv;
  for (let k = 0; k < labels.length; k++) {
    if (inRegion(labelsAt[k] + base)) continue;
    const label = labels[k];
    // markdown-it, which knows no footnotes, reads `[^n]: x` as a reference definition; appended, the
    // line would be a footnote definition to micromark whether or not micromark reads one there.
    // micromark never reads a line whose label is a footnote label as a reference definition, so
    // such a label is dropped (the footnote, if micromark reads one, comes from a region's pass).
    if (label.startsWith("^") && FOOTNOTE_LABEL.test(label.slice(1))) continue;
    add(label);
  }
  for (const id of micromarkIds) add(id);
  const references = lines.length;
  for (const label of footnotes.values()) lines.push([`^${label}`, `[^${label}]: x`]);
  return new DefinitionLines(lines, references);
}

/**
 * A label for the definition with normalized identifier `id` (`normalizeIdentifier`, upper case) that
 * micromark reads as a label again when appended: `id` itself, unless case mapping made it longer
 * than the 999 characters micromark allows a label (`ß` → `SS`: a footnote `[^ß…ß]` of 500 is called
 * in the document, but `[^SS…SS]: x`, 1,000, is no definition, so the call read as text); then the
 * label as written in `region` on one line (a footnote label always is) whose identifier is `id`,
 * else `id` (a reference label over lines in a container is not looked for).
 */
function writtenLabel(region: string, id: string, footnote: boolean): string {
  if (id.length <= 999) return id;
  const candidates = footnote ? /\[\^((?:[^\\[\] \t\r\n]|\\[^ \t\r\n])+)\]:/g : /\[((?:[^\\[\]\r\n]|\\[^\r\n])+)\]:/g;
  for (const m of region.matchAll(candidates)) if (m[1].length <= 999 && identifierOf(m[1]) === id) return m[1];
  return id;
}

/**
 * The definition lines of a document, looked up by the labels a piece may use. Appending every
 * definition to every piece parsed alone cost pieces × definitions: 400 sections, each with a
 * footnote call in its heading and a table, took 105 s (a 44 KB document).
 *
 * Which lines a piece needs: micromark resolves a reference (full, collapsed or shortcut; link or
 * image) or a footnote call whose label L (`^x` for a footnote) has N(L) = N(K) for a definition
 * label K, where N is micromark's `normalizeIdentifier` (line endings, tabs and spaces collapsed to
 * one space and trimmed, then lower case, then upper case). L contains no unescaped bracket (a
 * definition's label cannot, so no other L matches) and stands between a `[` and the first `]` after
 * it that no backslash escapes; so scanning the piece from every `[` to the next unescaped bracket
 * finds every L that can resolve (and some that cannot, which only adds lines). In inline content (a
 * heading's, a cell's, a task rest) the scanned text is L itself. In a region of the document as
 * written, a label over several lines has the markers of its containers (`>`, indentation) on its
 * continuation lines, which L does not; so such a candidate is compared under the coarser
 * M(s) = C(s without white space and `>`), C = upper case of lower case: N(L) = N(K) implies
 * M(L) = M(K) (C maps characters one by one, white space and `>` to themselves and nothing else to
 * them; the only context rule of JavaScript's toLowerCase, the final sigma, is undone by the upper
 * case), and M of the source text equals M(L). NUL is read as U+FFFD on both sides (micromark's
 * preprocessing). Lines with equal keys are all appended.
 */
class DefinitionLines {
  /** Indices into `lines`, by `identifierOf` / `coarseKey` of their labels. */
  private readonly exact = new Map<string, number[]>();
  private coarse: Map<string, number[]> | null = null;
  /** `identifierOf` of each line's label. */
  private readonly ids: string[];

  /**
   * @param lines each definition's label as written in its line (`^id` for a footnote), and the line
   * @param references how many of them, first, are reference definitions
   */
  constructor(
    private readonly lines: readonly (readonly [label: string, line: string])[],
    private readonly references: number,
  ) {
    this.ids = lines.map(([label]) => identifierOf(label));
    this.ids.forEach((id, k) => push(this.exact, id, k));
  }

  /**
   * The lines `piece` may use, joined by "\n" in the order of `lines` (reference definitions before
   * footnote definitions: a reference definition cannot interrupt a paragraph, so one after a
   * footnote's `x` would be read as its text); "" when none. See `Definitions`.
   */
  for(piece: string, region: boolean): string {
    if (this.lines.length === 0) return "";
    const found = new Set<number>();
    for (let open = piece.indexOf("["); open >= 0; ) {
      // to the next unescaped bracket (micromark's label escapes: `\[`, `\]`, `\\`)
      let p = open + 1;
      let multiline = false;
      for (; p < piece.length; p++) {
        const c = piece.charCodeAt(p);
        if (c === 0x5c) {
          const d = piece.charCodeAt(p + 1);
          if (d === 0x5b || d === 0x5d || d === 0x5c) p++;
        } else if (c === 0x5b || c === 0x5d) break;
        else if (c === 0x0a || c === 0x0d) multiline = true;
      }
      if (p >= piece.length) break;
      if (piece.charCodeAt(p) === 0x5d) {
        const label = piece.slice(open + 1, p);
        if (region && multiline) {
          for (const k of this.coarseMap().get(coarseKey(label)) ?? []) if (mayBeLabel(label, this.ids[k])) found.add(k);
        } else for (const k of this.exact.get(identifierOf(label)) ?? []) found.add(k);
        open = piece.indexOf("[", p + 1);
      } else open = p;
    }
    return [...found].sort((a, b) => a - b).map((k) => this.lines[k][1]).join("\n");
  }

  /**
   * markdown-it's `env.references` for this set of reference definitions (keys by its
   * `normalizeReference`), so that its inline reading resolves what micromark resolves, and whether a
   * label holds white space where the two normalizations differ (`labelRecorder`).
   */
  markdownItReferences(normalizeReference: (label: string) => string): { references: Record<string, { href: string; title: string }>; oddSpace: boolean } {
    const references: Record<string, { href: string; title: string }> = {};
    let oddSpace = false;
    for (let k = 0; k < this.references; k++) {
      const label = this.lines[k][0];
      if (ODD_SPACE.test(label)) oddSpace = true;
      const key = normalizeReference(label);
      if (key) references[key] ??= { href: "#", title: "" };
    }
    return { references, oddSpace };
  }

  /** Lines by `coarseKey` of their label, made on first use (only multi-line labels in regions need it). */
  private coarseMap(): Map<string, number[]> {
    if (!this.coarse) {
      const coarse = (this.coarse = new Map());
      this.lines.forEach(([label], k) => push(coarse, coarseKey(label), k));
    }
    return this.coarse;
  }
}

/** Append `value` to the list at `key`. */
function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** micromark's `normalizeIdentifier` of a label, NUL read as U+FFFD first (micromark's preprocessing). */
function identifierOf(label: string): string {
  return markdown().normalizeIdentifier(label.replace(/\0/g, "\uFFFD"));
}

/**
 * The coarser key of a label written over several lines in a region: the white space micromark
 * collapses (space, tab, line endings) and `>` removed. Other white space (U+00A0, U+3000) is kept:
 * `normalizeIdentifier` keeps it, and container markers are spaces, tabs and `>` only.
 */
function coarseKey(label: string): string {
  return label.replace(/\0/g, "\uFFFD").replace(/[\t\n\r >]+/g, "").toLowerCase().toUpperCase();
}

/**
 * Whether `source`, a label written over several lines in a region of the document as written, may be
 * a label whose `identifierOf` is `id`: whether N(L) = id for some L that `source` may stand for.
 * Each continuation line of `source` opens with the markers of its containers, a prefix of its run of
 * spaces, tabs and `>` (the rest of the run is the label's own), so L is `source` with a prefix of
 * each such run removed; N (`normalizeIdentifier`) reads L as its words (runs without space, tab or
 * line ending) joined by one space, each upper case of lower case (C maps characters one by one and
 * never to or from white space and `>`: `DefinitionLines`). So each line gives a few possible word
 * strings, one per prefix, and `id` must be their concatenation for one choice per line: a walk over
 * the positions of `" " + id` each choice can reach (at most |id| + 1 positions a line; linear in
 * the label's length, which micromark bounds at 999, times the run lengths). This refines the coarse
 * key: N labels equal under it (`a >b`, `a > >b`, …) cost pieces × N appended lines otherwise.
 */
function mayBeLabel(source: string, id: string): boolean {
  const target = ` ${id}`;
  const words = (s: string) => s.split(/[\t\n\r ]+/).filter(Boolean).join(" ").toLowerCase().toUpperCase();
  let reach = new Set<number>([0]);
  source
    .replace(/\0/g, "\uFFFD")
    .split(/\r\n|\r|\n/)
    .forEach((line, i) => {
      const options = new Set<string>();
      const run = i === 0 ? 0 : /^[\t >]*/.exec(line)![0].length;
      for (let j = 0; j <= run; j++) options.add(words(line.slice(j)));
      const next = new Set<number>();
      for (const at of reach) {
        for (const option of options) {
          if (option === "") next.add(at);
          else if (target.startsWith(` ${option}`, at)) next.add(at + option.length + 1);
        }
      }
      reach = next;
    });
  return reach.has(target.length);
}

/**
 * A footnote label after its caret, as micromark-extension-gfm-footnote accepts it (as written or
 * normalized): no space, tab or line ending, no unescaped bracket, at most
 * 999 characters (micromark's `linkReferenceSizeMax`).
 */
const FOOTNOTE_LABEL = /^(?:[^\\[\] \t\r\n]|\\[^ \t\r\n]?){1,999}$/;

/**
 * The normalized identifiers (micromark's `normalizeIdentifier`: upper case, as the mdast
 * identifier is before lower-casing) of the reference definitions and the footnote definitions
 * micromark opens in `region`, parsed alone: micromark's document pass only (containers and flow),
 * which is where its definition construct records each definition (`parser.defined`) and
 * micromark-extension-gfm-footnote each footnote definition (`parser.gfmFootnotes`, the list its
 * footnote calls are checked against); no inline parsing, no mdast.
 */
function definitionsIn(region: string): { references: readonly string[]; footnotes: readonly string[] } {
  const m = markdown();
  micromarkOptions ??= { extensions: [m.gfm()], mdastExtensions: [m.gfmFromMarkdown()] };
  const parser = m.parse(micromarkOptions as never);
  parser.document().write(m.preprocess()(region, undefined, true));
  return { references: parser.defined, footnotes: (parser as { gfmFootnotes?: string[] }).gfmFootnotes ?? [] };
}

/**
 * `definitionsIn` for a region over MAX_MICROMARK_LENGTH, whose document pass would hold memory in
 * proportion to the region (a 788 KB table with one `]:` in a cell: 783 MB peak, against 415 MB
 * without): its blocks read in pieces (`micromarkLargeRegion`, without definitions: which lines
 * are definitions does not depend on other definitions), and the identifiers of the reference and
 * footnote definitions among them, at any depth (as a set: `definitionLines` dedupes them). Read twice (here, then with the definitions), only
 * for a large region that holds a `]:` or may open a footnote definition.
 */
function definitionsInLarge(text: string, start: number, end: number): { references: readonly string[]; footnotes: readonly string[] } {
  const line = 1 + lineEndings(text, 0, start);
  const references: string[] = [];
  const footnotes: string[] = [];
  const stack = micromarkLargeRegion(text, start, end, line, () => "", end);
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "definition") references.push(identifierOf(node.label!));
    else if (node.type === "footnote") footnotes.push(identifierOf(node.label!));
    if (node.children) stack.push(...node.children);
  }
  return { references, footnotes };
}

/** micromark's verdicts on front matter fence pairs (a few distinct pairs in any corpus: `---`/`---` nearly always). */
const frontmatterVerdicts = new Map<string, number | null>();

/**
 * Whether micromark-extension-frontmatter reads the fence lines `opening` and `closing` (as
 * written, at the top of a document) as front matter, and if so where its node ends,
 * relative to the closing line's start; null when it does not. The content between the
 * fences is never parsed, so micromark reads the two lines alone, and its answer depends on
 * them only: it is kept (a micromark call costs about a millisecond, even on three lines).
 */
function frontmatterProbe(opening: string, closing: string): number | null {
  const key = `${opening}\n${closing}`;
  const known = frontmatterVerdicts.get(key);
  if (known !== undefined) return known;
  const probe = fromMarkdownWithFrontmatter(`${opening}\nx\n${closing}`).children[0];
  const verdict = probe && (probe.type === "yaml" || (probe as { type: string }).type === "toml") ? offsets(probe, "frontmatter").end - (opening.length + 3) : null;
  if (key.length <= 200) {
    if (frontmatterVerdicts.size >= 256) frontmatterVerdicts.clear(); // bounded, as are the keys (trailing whitespace has no limit)
    frontmatterVerdicts.set(key, verdict);
  }
  return verdict;
}

/**
 * The blocks of a markdown document. markdown-it finds the block structure (its
 * block pass only: no inline parsing) and its line marks give the offsets; a
 * top-level block markdown-it may read differently from micromark (tables,
 * footnotes, definitions over several lines, front matter) is parsed again alone
 * with micromark, together with the blocks it touches without a blank line between.
 */
function parseBlocks(text: string): BlockNode[] {
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
      firstCharAt = [];
      lineStartAt = [];
      md().block.tokenize(state, s, e);
      if (e === state.lineMax || !reachesCut(state.tokens, e)) break;
      e = nextCut(l, e + (e - s), state.lineMax);
    }
    convertChunk(state.tokens, l, reader, definitions, pieces, e === state.lineMax);
    s = e;
  }
  state.tokens = [];
  firstCharAt = [];
  lineStartAt = [];
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
      const fast = !INLINE_MARKUP.test(w.content) ? w.content : inlinePlainText(w.content, env);
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
 * Whether a line of the group `tokens[g.from..g.to)` (lines `[g.a, g.b)`) may open a footnote
 * definition (`FOOTNOTE_DEFINITION`), the content lines of top-level fences and HTML blocks
 * aside: those are raw text to micromark too (read natively only where both parsers agree on the
 * block's extent), and a `[^n]: x` line in a 4 MB unclosed fence would otherwise send the whole
 * fence to micromark (about 1.5 KB of memory per byte of it).
 */
function mayOpenFootnote(l: Lines, tokens: readonly Token[], g: { from: number; to: number; a: number; b: number }): boolean {
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
 * Emit fragments from blocks without recursion (a document may nest a thousand
 * quotes): headings open sections scoped to the container they are in.
 */
function emitBlocks(b: Builder, roots: readonly BlockNode[]): void {
  // Fragment indices: `parent` is the container's (-1 = top level), `open` the sections open in it.
  const frames: { nodes: readonly BlockNode[]; i: number; parent: number; open: { index: number; level: number }[] }[] = [{ nodes: roots, i: 0, parent: -1, open: [] }];
  while (frames.length) {
    const f = frames[frames.length - 1];
    if (f.i >= f.nodes.length) {
      for (const section of f.open) b.close(section.index);
      if (f.parent >= 0) b.close(f.parent);
      frames.pop();
      continue;
    }
    const node = f.nodes[f.i];
    // Blocks are dropped as they become fragments: the two never all coexist.
    (f.nodes as (BlockNode | undefined)[])[f.i++] = undefined;
    if (node.type === "heading") {
      while (f.open.length && f.open[f.open.length - 1].level >= node.depth!) b.close(f.open.pop()!.index);
      const owner = f.open.length ? f.open[f.open.length - 1].index : f.parent;
      const section = b.open(owner, "section", node.label ?? "", node.start, node.end, node.line);
      b.setLevel(section, node.depth!);
      f.open.push({ index: section, level: node.depth! });
      continue;
    }
    const parent = f.open.length ? f.open[f.open.length - 1].index : f.parent;
    switch (node.type) {
      case "quote":
      case "footnote":
      case "item":
      case "list": {
        const index = b.open(parent, node.type, node.label ?? null, node.start, node.end, node.line);
        frames.push({ nodes: node.children ?? [], i: 0, parent: index, open: [] });
        break;
      }
      case "table": {
        const rows = node.rows ?? [];
        const table = b.open(parent, "table", (rows[0]?.cells ?? []).map((c) => c.text).join(" "), node.start, node.end, node.line);
        for (const row of rows) b.setCells(b.open(table, "row", row.cells[0]?.text ?? "", row.start, row.end, row.line), row.cells);
        b.close(table);
        break;
      }
      default:
        b.open(parent, node.type, node.label ?? null, node.start, node.end, node.line);
    }
  }
}

function checkInputs(fn: string, artifactId: unknown, text: unknown): void {
  if (typeof artifactId !== "string" || artifactId === "") throw new TypeError(`${fn}: artifactId must be a non-empty string`);
  if (typeof text !== "string") throw new TypeError(`${fn}: text must be a string (got ${text === null ? "null" : typeof text})`);
  if (text.length > MAX_DOCUMENT_LENGTH) throw new DocumentTooLargeError(fn, text.length);
}

/**
 * Fragment a markdown document (CommonMark + GFM tables, task lists, footnotes,
 * strikethrough, autolinks; YAML `---` / TOML `+++` front matter) into its Fragment
 * tree, parsed from the verbatim source: markdown-it's block pass for the structure, micromark
 * (mdast-util-from-markdown) where the two may read differently; the addresses are those of
 * the micromark → mdast fragmenter it replaced (docs/evidence.md, "Fragmenting at corpus scale").
 * Time and memory are linear in the text: one normalized copy of it while hashing.
 *
 * @param artifactId the artifact the fragments belong to (part of every fragmentId)
 * @param text the whole document as written (not pre-normalized)
 * @returns the fragments in document order (`sequence` 0..n-1); frozen, so
 *   `citationStatus` may index the array once and reuse the index
 * @throws TypeError on a non-string text or an empty artifactId; DocumentTooLargeError for a text over MAX_DOCUMENT_LENGTH (2^27) UTF-16 code units
 */
export function fragmentMarkdown(artifactId: string, text: string): readonly Fragment[] {
  checkInputs("fragmentMarkdown", artifactId, text);
  const b = new Builder(artifactId, text);
  emitBlocks(b, parseBlocks(text));
  return b.finish();
}

/**
 * Fragment plain text into paragraphs: maximal runs of lines that are not blank
 * (blank = only whitespace). Each paragraph spans from its first non-blank line's
 * start to its last non-blank line's end (line break excluded, a trailing `\r` too);
 * anchors are ordinals `paragraph:1`, `paragraph:2`, …
 *
 * @returns frozen fragments in document order
 * @throws TypeError on a non-string text or an empty artifactId; DocumentTooLargeError for a text over MAX_DOCUMENT_LENGTH (2^27) UTF-16 code units
 */
export function fragmentPlainText(artifactId: string, text: string): readonly Fragment[] {
  checkInputs("fragmentPlainText", artifactId, text);
  const b = new Builder(artifactId, text);
  let start = -1;
  let end = -1;
  let startLine = 0;
  let line = 0;
  const flush = () => {
    if (start >= 0) b.open(-1, "paragraph", null, start, end, startLine);
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
