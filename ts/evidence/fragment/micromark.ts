/**
 * Every call into micromark (the exact, slow parser) but the front matter probe, and the size
 * bound each parse is checked against (`checkMicromarkSize`, `micromarkLoad`).
 */
import { markdown } from "../../deps/markdown.js";
import type { Nodes, Root } from "mdast";
import { MAX_MICROMARK_LENGTH } from "./limits.js";
import { MarkdownSizeError } from "./errors.js";

/** Code units handed to micromark so far (`micromarkLoad`). */
let micromarkUnits = 0;

/** @internal Test hook: UTF-16 code units the fragmenter has handed to micromark since the process started (regions, labels, cells, probes). */
export function micromarkLoad(): number {
  return micromarkUnits;
}

/** @throws MarkdownSizeError when `length` (of a piece starting at document line `line`, in code units) is over `MAX_MICROMARK_LENGTH` */
export function checkMicromarkSize(length: number, line: number): void {
  if (length > MAX_MICROMARK_LENGTH) throw new MarkdownSizeError(line, length);
  micromarkUnits += length;
}

// The parsers load on first use (ts/deps), so importing the evidence spine costs nothing until it fragments.
let micromarkOptions: { extensions: unknown[]; mdastExtensions: unknown[] } | null = null;

/**
 * micromark → mdast with GFM: the exact path, for pieces of a document (a region, a heading, a
 * cell). Without the front matter extension: a piece is not the document's top, and front matter
 * is decided once, at the top (`frontmatterProbe`). With it, a region that opens with `---` read
 * as a document of its own could be front matter in the middle of a document
 * (`para\n\n---\n[^a]: x\n---`), and an unclosed `---` first line made micromark read no
 * list, block quote or footnote in the region (see `parseBlocks`).
 */
export function fromMarkdown(text: string, line: number): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
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
export function fromMarkdownAtExit(text: string, line: number): ReturnType<ReturnType<typeof markdown>["fromMarkdown"]> {
  checkMicromarkSize(text.length, line);
  const m = markdown();
  untransformedOptions ??= {
    extensions: [m.gfm()],
    mdastExtensions: (m.gfmFromMarkdown() as unknown as Record<string, unknown>[]).map((e) => ({ ...e, transforms: [] })),
  };
  return readAsGiven(text, (t) => m.fromMarkdown(t, untransformedOptions as never));
}

/**
 * The normalized identifiers (micromark's `normalizeIdentifier`: upper case, as the mdast
 * identifier is before lower-casing) of the reference definitions and the footnote definitions
 * micromark opens in `region`, parsed alone: micromark's document pass only (containers and flow),
 * which is where its definition construct records each definition (`parser.defined`) and
 * micromark-extension-gfm-footnote each footnote definition (`parser.gfmFootnotes`, the list its
 * footnote calls are checked against); no inline parsing, no mdast.
 */
export function definitionsIn(region: string): { references: readonly string[]; footnotes: readonly string[] } {
  const m = markdown();
  micromarkOptions ??= { extensions: [m.gfm()], mdastExtensions: [m.gfmFromMarkdown()] };
  const parser = m.parse(micromarkOptions as never);
  parser.document().write(m.preprocess()(region, undefined, true));
  return { references: parser.defined, footnotes: (parser as { gfmFootnotes?: string[] }).gfmFootnotes ?? [] };
}
