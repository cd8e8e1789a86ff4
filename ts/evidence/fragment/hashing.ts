/**
 * Content hashes: `contentHashOf` (the rule), and the same digest read from a window's
 * normalized copy or streamed for long fragments (`LongHashes`), without a copy per fragment.
 */
import { createSha256, sha256Hex, type Sha256Hasher } from "../../../bindings/sha256.js";
import { CollapsedText, isWhitespaceAt, normalizeWhitespace } from "../text.js";
import type { FragmentKind } from "./types.js";
import { checkArgs } from "../../args.js";

/**
 * Content hashes of long fragments, streamed: the text is fed in document order, a stretch at a
 * time, to an incremental hasher per open fragment, each stretch clipped to the fragment's span.
 * A stretch's normalized text (whitespace runs collapsed, ends trimmed) plus whether whitespace
 * stood at its edges gives `normalizeWhitespace` of the whole span: one space between two
 * stretches' texts where whitespace stood between them, none at the ends. So a long fragment
 * costs no copy of its text and no normalizing pass of its own.
 */
export class LongHashes {
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
export function readable(text: string): string {
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
  checkArgs("contentHashOf", arguments, "kind:text text:string quoteDepth?:int");
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
export function collapsedHash(kind: FragmentKind, text: CollapsedText, start: number, end: number): string {
  const input = hashInput(kind, text, start, end);
  return input !== null ? flat("sha256:", sha256Hex(input)) : streamedHash(kind, text, start, end);
}

/** `collapsedHash` where `hashInput` is null: the normalized text streamed through an incremental hasher in slices. */
export function streamedHash(kind: FragmentKind, text: CollapsedText, start: number, end: number): string {
  const [from, to] = text.span(start, end);
  return flat("sha256:", updateSlices(createSha256().update(`${kind}\n`), text.slices(from, to)).digestHex());
}

/**
 * What `collapsedHash` digests in one call, `kind ‖ "\n" ‖ normalized text` (the text a slice of one
 * piece of `text`'s copy), or null when the normalized text is longer than HASH_STREAM or crosses a
 * piece: it is then streamed.
 */
export function hashInput(kind: FragmentKind, text: CollapsedText, start: number, end: number): string | null {
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
export function flat(a: string, b: string): string {
  return [a, b].join("");
}
