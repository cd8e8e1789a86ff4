
import { checkArgs } from "../args.js";/**
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
  checkArgs("normalizeWhitespace", arguments, "text:string");
  // Most labels are already normal (single spaces between words): one table lookup per unit
  // tells, and the string is returned as is, where the regex replace and trim make a copy.
  const ws = whitespaceTable();
  const last = text.length - 1;
  let i = 0;
  for (; i <= last; i++) {
    if (ws[text.charCodeAt(i)] === 0) continue;
    if (i === 0 || i === last || text.charCodeAt(i) !== 0x20 || ws[text.charCodeAt(i + 1)] === 1) break;
  }
  return i > last ? text : text.replace(/\s+/gu, " ").trim();
}

/**
 * The length in code points of `normalizeWhitespace(text)` (a surrogate pair counts once, a lone
 * surrogate once), without building it: a run of whitespace inside the text counts one, runs at
 * either end none. One pass, no copy.
 */
export function normalizedLength(text: string): number {
  const ws = whitespaceTable();
  let n = 0;
  let gap = false; // whitespace since the last kept unit, and something kept before it
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (ws[u] === 1) {
      gap = n > 0;
      continue;
    }
    if (gap) n++;
    gap = false;
    n++;
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length) {
      const v = text.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i++;
    }
  }
  return n;
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
  checkArgs("slugify", arguments, "label:string");
  return asciiSlug(label) ?? normalizeWhitespace(label.normalize("NFC").toLowerCase().replace(DROPPED, "")).replace(/ /g, "-");
}

/** Code units of an ASCII slug being built (labels longer than this take the general path). */
const slugUnits = new Uint16Array(256);

/**
 * `slugify` of an ASCII label in one pass, or null for any other label. On ASCII the rules
 * reduce to: NFC changes nothing, lowercasing is A–Z → a–z, the characters kept are
 * `[a-z0-9_-]` (the ASCII members of \p{L}, \p{N}, \p{Pc} and `-`; \p{M} has none) and the
 * whitespace `\s` matches in ASCII (tab, LF, VT, FF, CR, space), whose runs, once the dropped
 * characters are gone, become one `-`, none at either end. A test compares the two paths on
 * every ASCII character and on generated labels.
 */
function asciiSlug(label: string): string | null {
  if (label.length > slugUnits.length) return null;
  let n = 0;
  let gap = false;
  for (let i = 0; i < label.length; i++) {
    let c = label.charCodeAt(i);
    if (c >= 0x80) return null;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d) {
      if (gap && n > 0) slugUnits[n++] = 0x2d;
      gap = false;
      slugUnits[n++] = c;
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) gap = true;
  }
  return String.fromCharCode.apply(null, slugUnits.subarray(0, n) as unknown as number[]);
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
  checkArgs("anchorFor", arguments, "slug:string occurrence:int");
  return occurrence === 1 && slug !== "" ? slug : `${slug}~${occurrence}`;
}

/**
 * Collapse whitespace runs of `units[0, count)` (text offsets `s`…, `s` a multiple of `BLOCK`) in
 * place, recording the copy's offset at every BLOCK-th unit; `state` carries the copy's length and
 * whether the last unit read was whitespace across calls. Returns the units kept.
 */
function collapse(units: Uint8Array | Uint16Array, count: number, s: number, blocks: Uint32Array, ws: Uint8Array, state: { n: number; previous: number }): number {
  const n = state.n;
  let previous = state.previous;
  let used = 0;
  // One block of the offset table at a time (no test per unit).
  for (let b = 0; b < count; b += BLOCK) {
    blocks[(s + b) / BLOCK] = n + used;
    const e = Math.min(count, b + BLOCK);
    for (let k = b; k < e; k++) {
      const c = units[k];
      const w = ws[c];
      // Without branches (whitespace comes every few units, unpredictably: a branch per unit cost
      // ~25% more): the unit, or U+0020 for whitespace, is always written at `used`, and kept (used
      // moves on) unless it is a whitespace unit right after another, which a run collapses away.
      units[used] = c ^ ((c ^ 0x20) & -w);
      used += 1 - (w & previous);
      previous = w;
    }
  }
  state.n = n + used;
  state.previous = previous;
  return used;
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

/**
 * Whether the UTF-16 code unit at `i` of `text` is whitespace to `normalizeWhitespace` (the units
 * its `\s` matches, from the same table). `i` must be in [0, text.length).
 */
export function isWhitespaceAt(text: string, i: number): boolean {
  return whitespaceTable()[text.charCodeAt(i)] === 1;
}

/** Code units per piece of CollapsedText's normalized copy (at least; a piece ends at the next cut after it). */
const PIECE = 1 << 20;
/** Code units of the text read into a typed array, collapsed and turned into a string at a time. */
const STEP = 1 << 15;
/** Code units per `String.fromCharCode` call where there is no Buffer (its arguments). */
const UNITS = 8192;

/** Code units per entry of CollapsedText's offset table. */
const BLOCK = 32;

/**
 * Node's Buffer where there is one (it copies a string's code units into a typed array and makes a
 * string of them natively, lone surrogates kept); browsers go code unit by code unit.
 */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/**
 * The typed arrays CollapsedText reads each step into (two views of one 64 KB Buffer in Node), made
 * once per process: a constructor uses them only while it runs and calls nothing that makes
 * another CollapsedText. Allocating them per instance cost a 64 KB off-heap buffer per window.
 */
let scratch: { buffer: Buffer | null; units: Uint16Array; bytes: Uint8Array | null } | null = null;

function makeScratch(): NonNullable<typeof scratch> {
  const buffer = NodeBuffer ? NodeBuffer.allocUnsafeSlow(STEP * 2) : null;
  return {
    buffer,
    units: buffer ? new Uint16Array(buffer.buffer, buffer.byteOffset, STEP) : new Uint16Array(STEP),
    bytes: buffer ? new Uint8Array(buffer.buffer, buffer.byteOffset, STEP) : null,
  };
}

/**
 * A whole text whitespace-normalized once, with a map from its offsets to offsets in the
 * normalized copy: `normalized(start, end)` equals `normalizeWhitespace(text.slice(start, end))`
 * for every `0 <= start <= end <= text.length` (collapsing whitespace runs commutes with
 * slicing up to one space at either end, which `span` leaves out). Normalizing once costs one
 * pass over the text where normalizing every fragment costs a pass per nesting level (a
 * section's text holds its subsections').
 *
 * The copy is kept in pieces of about 1 M code units, never joined into one more whole copy.
 * Pieces are cut only after a character that is neither whitespace (no run spans two pieces)
 * nor a high surrogate (no pair is split). The whitespace set is the one `normalizeWhitespace`'s
 * `\s` matches (the table is built from that regex).
 * Memory: the copy plus 4 bytes per 32 code units (and one 64 KB scratch array per process, `scratch`).
 */
export class CollapsedText {
  /** The normalized copy (every whitespace run → one U+0020, not trimmed), in pieces. */
  readonly pieces: readonly string[];
  /** Offset of each piece in the normalized copy. */
  private readonly pieceStarts: number[];
  /** Length of the normalized copy. */
  readonly length: number;
  /** Offset in the normalized copy of every 32nd code unit of `text`. */
  private readonly blocks: Uint32Array;
  private readonly ws = whitespaceTable();
  /** Pieces before this index were dropped by `releaseBefore`. */
  private released = 0;

  constructor(private readonly text: string) {
    const { ws } = this;
    const pieces: string[] = [];
    const pieceStarts: number[] = [];
    const blocks = new Uint32Array(Math.floor(text.length / BLOCK) + 1);
    // The text is read STEP code units at a time into one typed array (natively, with Buffer's
    // write: one byte per unit when the step is ASCII, else UTF-16), collapsed in place (the copy is
    // never longer than what it was read from) and turned back into a string (natively again, a
    // one-byte string from ASCII): a typed-array loop instead of a charCodeAt per unit, and flat
    // strings (a global regex replace yields a tree of millions of slices and concatenations,
    // several times the text's size). Each step's strings are joined per piece.
    const { buffer, units, bytes } = (scratch ??= makeScratch());
    const state = { n: 0, previous: 0 };
    let parts: string[] = [];
    let pieceStart = 0;
    for (let s = 0; s < text.length; s += STEP) {
      const count = Math.min(STEP, text.length - s);
      let last: number;
      if (buffer) {
        const step = count === text.length ? text : text.slice(s, s + count);
        if (NodeBuffer!.byteLength(step, "utf8") === count) {
          buffer.write(step, 0, "latin1");
          const used = collapse(bytes!, count, s, blocks, ws, state);
          parts.push(buffer.toString("latin1", 0, used));
          last = bytes![used - 1];
        } else {
          buffer.write(step, 0, "utf16le");
          const used = collapse(units, count, s, blocks, ws, state);
          parts.push(buffer.toString("utf16le", 0, used * 2));
          last = units[used - 1];
        }
      } else {
        for (let k = 0; k < count; k++) units[k] = text.charCodeAt(s + k);
        const used = collapse(units, count, s, blocks, ws, state);
        for (let k = 0; k < used; k += UNITS) parts.push(String.fromCharCode.apply(null, units.subarray(k, Math.min(used, k + UNITS)) as unknown as number[]));
        last = units[used - 1];
      }
      // Cut after a unit that is neither whitespace nor a high surrogate.
      if (state.n - pieceStart >= PIECE && state.previous === 0 && (last & 0xfc00) !== 0xd800) {
        pieces.push(parts.length === 1 ? parts[0] : parts.join(""));
        pieceStarts.push(pieceStart);
        pieceStart = state.n;
        parts = [];
      }
    }
    const n = state.n;
    if (text.length % BLOCK === 0) blocks[text.length / BLOCK] = n;
    pieces.push(parts.length === 1 ? parts[0] : parts.join(""));
    pieceStarts.push(pieceStart);
    this.pieces = pieces;
    this.pieceStarts = pieceStarts;
    this.length = n;
    this.blocks = blocks;
  }

  /**
   * Offset in the normalized copy after the collapsed form of `text.slice(0, offset)`: from the
   * nearer entry of the offset table, counting the units kept (a whitespace unit right after
   * another is not) forward from the entry before or back from the entry after.
   */
  private at(offset: number): number {
    const { ws, text, blocks } = this;
    const k = Math.floor(offset / BLOCK);
    const next = (k + 1) * BLOCK;
    if (offset - k * BLOCK > BLOCK / 2 && next <= text.length) {
      let n = blocks[k + 1];
      let w = ws[text.charCodeAt(next - 1)];
      for (let i = next - 1; i >= offset; i--) {
        const before = i > 0 ? ws[text.charCodeAt(i - 1)] : 0;
        if ((w & before) === 0) n--;
        w = before;
      }
      return n;
    }
    let n = blocks[k];
    let i = k * BLOCK;
    let previous = i > 0 ? ws[text.charCodeAt(i - 1)] : 0;
    for (; i < offset; i++) {
      const w = ws[text.charCodeAt(i)];
      if ((w & previous) === 0) n++;
      previous = w;
    }
    return n;
  }

  /** Index of the piece holding normalized offset `i` (the last piece for `i === length`). */
  private pieceOf(i: number): number {
    const starts = this.pieceStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The code unit at normalized offset `i` (0 ≤ i < length). */
  private unitAt(i: number): number {
    const k = this.pieceOf(i);
    return this.pieces[k].charCodeAt(i - this.pieceStarts[k]);
  }

  /**
   * `[from, to)` in the normalized copy of `normalizeWhitespace(text.slice(start, end))`.
   * @throws RangeError when not `0 <= start <= end <= text.length`
   */
  span(start: number, end: number): [number, number] {
    if (!(start >= 0 && start <= end && end <= this.text.length)) throw new RangeError(`CollapsedText.span: ${start}–${end} is not within 0–${this.text.length}`);
    let from = this.at(start);
    let to = this.at(end);
    if (from < to && this.unitAt(from) === 0x20) from++;
    if (to > from && this.unitAt(to - 1) === 0x20) to--;
    return [from, to];
  }

  /** `[from, to)` of the normalized copy when one piece holds it (a slice of it, no array made), else null. */
  sliceWithin(from: number, to: number): string | null {
    const k = this.pieceOf(from);
    const base = this.pieceStarts[k];
    const piece = this.pieces[k];
    return to - base <= piece.length ? piece.slice(from - base, to - base) : null;
  }

  /** `[from, to)` of the normalized copy as slices of its pieces (one slice unless it crosses a cut); no copy made. */
  slices(from: number, to: number): string[] {
    const out: string[] = [];
    for (let k = this.pieceOf(from); from < to; k++) {
      const base = this.pieceStarts[k];
      const stop = Math.min(to, base + this.pieces[k].length);
      out.push(this.pieces[k].slice(from - base, stop - base));
      from = stop;
    }
    return out;
  }

  /**
   * Drop the pieces that end before text offset `start`: a caller that asks for spans in order of
   * their start (fragments in document order) frees the copy as it goes. Spans starting before
   * `start` may not be asked for after.
   */
  releaseBefore(start: number): void {
    const before = this.at(start);
    const { pieces, pieceStarts } = this;
    for (let k = this.released; k < pieces.length - 1 && pieceStarts[k + 1] <= before; k++) {
      (pieces as string[])[k] = "";
      this.released = k + 1;
    }
  }

  /** `normalizeWhitespace(text.slice(start, end))`. @throws RangeError as `span` */
  normalized(start: number, end: number): string {
    return this.slices(...this.span(start, end)).join("");
  }
}
