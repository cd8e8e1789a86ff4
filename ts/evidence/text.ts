/**
 * Text rules of the evidence spine: whitespace normalization (what a content hash
 * covers), slugs (what an address anchor is made of) and the escape that keeps
 * disambiguated anchors apart from every slug.
 */

/**
 * Collapse every run of whitespace (JS `\s`: Unicode spaces, tabs, CR, LF, NBSP)
 * to one U+0020 and trim both ends. Reflowing a paragraph or adding trailing
 * spaces therefore never changes a content hash.
 */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/**
 * Characters a slug keeps: letters, combining marks, numbers, connector punctuation
 * (`_`) and `-`. Everything else (punctuation, symbols, `~`, `/`, `:`, `#`) is dropped,
 * as GitHub's heading slugger drops it.
 */
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\-\s]/gu;

/**
 * The slug of a label (heading text, a table's header row, a row's first cell):
 * NFC, Unicode default lowercase, characters other than `[\p{L}\p{M}\p{N}\p{Pc}-]`
 * and whitespace dropped, then whitespace normalized and spaces turned into `-`.
 * Like github-slugger except that whitespace runs collapse (so `Setup  1` and
 * `Setup 1` share a slug, and `P(A | B)` gives `pa-b`, not `pa--b`). The result
 * never contains `~`, `/`, `:` or `#`: those are free for the path syntax and
 * the duplicate escape (see `anchorFor`). May be "" (a label of punctuation only,
 * or no label).
 */
export function slugify(label: string): string {
  return normalizeWhitespace(label.normalize("NFC").toLowerCase().replace(DROPPED, "")).replace(/ /g, "-");
}

/**
 * The anchor of the `occurrence`-th (1-based) sibling of one kind whose label slugs
 * to `slug`: the slug itself for the first occurrence, `slug~N` for later ones and
 * `~N` when the slug is empty. `~` is a character no slug contains, so a
 * disambiguated anchor can never equal another label's slug: headings `Setup`,
 * `Setup`, `Setup 1`, `Setup-1` get `setup`, `setup~2`, `setup-1`, `setup-1~2`
 * (github-slugger would give `setup`, `setup-1`, `setup-1-1`, `setup-1-2`, where the
 * second heading's anchor is the third heading's slug).
 */
export function anchorFor(slug: string, occurrence: number): string {
  return occurrence === 1 && slug !== "" ? slug : `${slug}~${occurrence}`;
}

/** 1 at every UTF-16 code unit `normalizeWhitespace`'s `\s` matches; built from that regex, so the two never disagree. */
let whitespaceUnits: Uint8Array | null = null;

function whitespaceTable(): Uint8Array {
  if (whitespaceUnits) return whitespaceUnits;
  const table = new Uint8Array(0x10000);
  for (let from = 0; from < 0x10000; from += 0x1000) {
    const units: number[] = [];
    for (let c = from; c < from + 0x1000; c++) units.push(c);
    // Surrogates never match `\s` (paired or not), so reading the block as code points is harmless.
    for (const m of String.fromCharCode(...units).matchAll(/\s/gu)) table[from + m.index!] = 1;
  }
  return (whitespaceUnits = table);
}

/** Code units per entry of CollapsedText's offset table. */
const BLOCK = 32;

/**
 * A whole text whitespace-normalized once, with a map from its offsets to offsets in the
 * normalized copy: `collapsed.slice(...span(start, end))` equals
 * `normalizeWhitespace(text.slice(start, end))` for every `0 <= start <= end <= text.length`
 * (collapsing whitespace runs commutes with slicing up to one space at either end, which the
 * span leaves out). Normalizing once costs one pass over the text where normalizing every
 * fragment costs a pass per nesting level (a section's text holds its subsections').
 * Memory: the copy plus 4 bytes per 32 code units.
 */
export class CollapsedText {
  /** `text` with every whitespace run replaced by one U+0020 (not trimmed). */
  readonly collapsed: string;
  /** Offset in `collapsed` of every 32nd code unit of `text`. */
  private readonly blocks: Uint32Array;
  private readonly ws = whitespaceTable();

  constructor(private readonly text: string) {
    this.collapsed = text.replace(/\s+/gu, " ");
    const { ws } = this;
    const blocks = new Uint32Array(Math.floor(text.length / BLOCK) + 1);
    let n = 0;
    let previous = 0;
    for (let i = 0; i < text.length; i++) {
      if (i % BLOCK === 0) blocks[i / BLOCK] = n;
      const w = ws[text.charCodeAt(i)];
      // A whitespace unit right after another is the one a run collapses away.
      if ((w & previous) === 0) n++;
      previous = w;
    }
    if (text.length % BLOCK === 0) blocks[text.length / BLOCK] = n;
    if (n !== this.collapsed.length) throw new Error(`CollapsedText: offset map (${n}) disagrees with the normalized copy (${this.collapsed.length})`);
    this.blocks = blocks;
  }

  /** Offset in `collapsed` after the collapsed form of `text.slice(0, offset)`. */
  private at(offset: number): number {
    const { ws, text } = this;
    const k = Math.floor(offset / BLOCK);
    let n = this.blocks[k];
    let i = k * BLOCK;
    let previous = i > 0 ? ws[text.charCodeAt(i - 1)] : 0;
    for (; i < offset; i++) {
      const w = ws[text.charCodeAt(i)];
      if ((w & previous) === 0) n++;
      previous = w;
    }
    return n;
  }

  /**
   * `[from, to)` in `collapsed` of `normalizeWhitespace(text.slice(start, end))`.
   * @throws RangeError when not `0 <= start <= end <= text.length`
   */
  span(start: number, end: number): [number, number] {
    if (!(start >= 0 && start <= end && end <= this.text.length)) throw new RangeError(`CollapsedText.span: ${start}–${end} is not within 0–${this.text.length}`);
    const c = this.collapsed;
    let from = this.at(start);
    let to = this.at(end);
    if (from < to && c.charCodeAt(from) === 0x20) from++;
    if (to > from && c.charCodeAt(to - 1) === 0x20) to--;
    return [from, to];
  }
}
