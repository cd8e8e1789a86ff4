/**
 * Link reference and footnote definitions: the document's, as micromark reads the whole document,
 * as lines to append to a piece parsed alone (`definitionLines`, `DefinitionLines`). micromark's own
 * pass over a region (`definitionsIn`) is in micromark.ts, with the parser options it shares.
 */
import type { Env } from "markdown-it";
import { markdown } from "../../deps/markdown.js";
import { MAX_MICROMARK_LENGTH } from "./limits.js";
import type { Lines } from "./shapes.js";
import { definitionsIn } from "./micromark.js";
import { lineEndings } from "./lines.js";
import { type FragmentEnv, ODD_SPACE } from "./markdown-it.js";
import { micromarkLargeRegion } from "./large-region.js";

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
export function definitionLines(env: Env, l: Lines): DefinitionLines {
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
  // A label starts at an unescaped `[` (after an even run of backslashes) and holds at most 999
  // characters: started at every `[` of a long line of `[\` (escaped brackets), the scan ran to
  // the line's end from each, quadratic (the lookbehind is read only at a `[`).
  const candidates = footnote
    ? /\[(?<=(?:^|[^\\])(?:\\\\)*\[)\^((?:[^\\[\] \t\r\n]|\\[^ \t\r\n]){1,999})\]:/g
    : /\[(?<=(?:^|[^\\])(?:\\\\)*\[)((?:[^\\[\]\r\n]|\\[^\r\n]){1,999})\]:/g;
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
export class DefinitionLines {
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
// (a backslash takes the character after it, or stands last: `\\[^ \t\r\n]?` let `\\\\` be read
// as one escape or two, which a backtracking engine tried both ways)
const FOOTNOTE_LABEL = /^(?:[^\\[\] \t\r\n]|\\[^ \t\r\n]|\\$){1,999}$/;

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
