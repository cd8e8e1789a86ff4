/**
 * Blocks → fragments: `emitBlocks` walks the block tree (headings open sections, a table's rows
 * are its children, a row's label and anchor its first cell's text), and `Builder` gives each
 * fragment its anchor (a slug of its label, or an ordinal per parent and kind), path and ids,
 * then slices and hashes them in `finish`.
 */
import { workLimitError } from "../../work-limits.js";
import { sha256Hex } from "../../../bindings/sha256.js";
import { anchorFor, CollapsedText, normalizeWhitespace, slugify } from "../text.js";
import { type FragmentKind, FRAGMENT_KINDS, type FragmentCell, type Fragment } from "./types.js";
import type { BlockNode } from "./shapes.js";
import { LongHashes, readable, contentHashOf, collapsedHash, streamedHash, hashInput, flat } from "./hashing.js";

/** Kinds whose anchor is a slug of their own label rather than an ordinal. */
const LABELED: ReadonlySet<FragmentKind> = new Set<FragmentKind>(["section", "table", "row", "definition", "footnote"]);

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
export class Builder {
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

  constructor(
    readonly artifactId: string,
    readonly source: string,
    /** Most fragments the document may be cut into; the next one stops the cut (WorkLimitError). */
    private readonly maxFragments = Infinity,
  ) {}

  /**
   * Create a fragment under the fragment at index `parent` (-1 = top level); its anchor, path
   * and id are computed now. Returns its index.
   */
  open(parent: number, kind: FragmentKind, label: string | null, start: number, end: number, line: number): number {
    if (this.fragments.length >= this.maxFragments) throw workLimitError("maxFragments", this.maxFragments, `${this.artifactId}: the document`, "fragments");
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
 * Emit fragments from blocks without recursion (a document may nest a thousand
 * quotes): headings open sections scoped to the container they are in.
 */
export function emitBlocks(b: Builder, roots: readonly BlockNode[]): void {
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
