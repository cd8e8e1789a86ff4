/**
 * Words, keys and normalization for quote grounding (DESIGN.md section 5, "Matching text" and "Words").
 *
 * - Quote characters: “ ” „ ‟ ″ « » 「 」 『 』 count as `"`; ‘ ’ ‚ ‛ as `'`
 *   (one UTF-16 code unit for one).
 * - Matching text: before words are taken, the text is compared in Unicode
 *   canonical form (NFC), the typographic ligatures U+FB00–FB06 are folded to
 *   their letters (as NFKC folds them: ﬁ → fi, ﬅ → st), and default-ignorable
 *   code points (soft hyphen, zero-width space and joiners, variation
 *   selectors, …) are dropped. This is for matching only: every offset this
 *   module returns is a UTF-16 offset into the text *as given*, and word spans
 *   never start or end inside a grapheme cluster of that text.
 * - A word is a word-like segment of Unicode word segmentation (UAX #29, via
 *   `Intl.Segmenter` with `granularity: "word"`, locale "en" fixed so results
 *   do not depend on the machine), split at `_` (plain-text books mark
 *   emphasis with it: `_not_` is the word `not`). So a word keeps its combining
 *   marks (Devanagari, Bengali vowel signs), Chinese, Japanese and Thai have
 *   words (ICU's dictionaries), and internal apostrophes join (`don't` is one
 *   word, `well-known` two), as do the marks UAX #29 keeps between digits
 *   (`3.14`, `1,000`); a `.` or `:` between letters cuts (`e.g` is two words:
 *   ICU versions disagree there, see CUT_RE).
 * - A markdown link `[text](dest "title")` is its text: the `(dest "title")` part
 *   holds no words (ts/match/markup.ts, `readerText`).
 * - key(word) = Unicode default lowercase (JS `toLowerCase`, as Python
 *   `str.lower`), apostrophes removed.
 * - normalize(text) = the keys of its words joined by one space.
 *
 * Finding words: text made of the characters of WORD_CLASS_RUNS (Latin, Greek, Cyrillic,
 * punctuation, symbols; see UNSAFE for what is left out) is read by a scanner over a class
 * table, equal to the segmenter there and ~10-20x faster; a chunk of text holding anything
 * else goes to `Intl.Segmenter` (ICU work, ~1 µs a character). {@link words} keeps the last
 * few hundred texts' results (passages are checked again every turn of a moot);
 * {@link wordsInto} hands words to a sink without one object a word (the quote index build).
 */

import { WORD_CLASS_RUNS } from "./word-classes.generated.js";
import { readerText } from "./markup.js";
import { checkArgs } from "../args.js";
import { ArgumentError } from "../errors.js";

const DOUBLE_QUOTES = "“”„‟″«»「」『』";
const SINGLE_QUOTES = "‘’‚‛";
const QUOTE_CHAR_RE = /[“”„‟″«»「」『』‘’‚‛]/g;
/** Characters the matching text changes: ligatures, default-ignorables. */
const FOLD_RE = /[\uFB00-\uFB06\p{Default_Ignorable_Code_Point}]/u;
const FOLD_ALL_RE = /[\uFB00-\uFB06]|\p{Default_Ignorable_Code_Point}/gu;
/** A character that may continue the grapheme cluster of the character before it, or a Prepend one that joins the next. */
const CLUSTER_EDGE_RE = /^[\p{M}\p{Cf}\u200D\u{1F3FB}-\u{1F3FF}\u0D4E\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u1160-\u11FF\uD7B0-\uD7FF]/u;

/** A word of a text: its key and its UTF-16 span [start, end) in that text. */
export interface Word {
  key: string;
  start: number;
  end: number;
}

let wordSegmenter: Intl.Segmenter | null = null;
let graphemeSegmenter: Intl.Segmenter | null = null;

/** Segmenting at most this many UTF-16 units at a time (then up to the next safe cut). */
const CHUNK = 1024;
const IDEOGRAPHIC_STOPS = "。！？，、；：";
const JOINS_BEFORE_RE = /^[\p{M}\p{Cf}\u200D]/u;

/**
 * Where the chunk of `text` that starts at `from` ends. Why chunks: iterating
 * `Intl.Segmenter` segments is quadratic in the string's length in Node 20's V8
 * (30 KB: 0.5 s, 120 KB: 50 s). A chunk ends where both word and grapheme
 * segmentation always break whatever the context: before a space or line feed
 * that follows a character below U+0600 (no Prepend character, no space run, no
 * CR LF pair is split), or after ideographic punctuation that no mark follows
 * (dictionary runs of Chinese and Japanese stop there). Text with no such place
 * for 16 chunks is cut anyway, before a character that is no mark or format
 * character. A text of CHUNK units or fewer is one chunk.
 */
function chunkEnd(text: string, from: number): number {
  if (text.length - from <= CHUNK) return text.length;
  const hard = Math.min(text.length, from + 16 * CHUNK);
  for (let p = from + CHUNK; p < hard; p++) {
    const c = text.charCodeAt(p);
    const prev = text.charCodeAt(p - 1);
    if ((c === 0x20 || c === 0x0a) && prev < 0x600 && prev !== 0x20 && prev !== 0x0d) return p;
    if (IDEOGRAPHIC_STOPS.includes(text[p - 1]!) && !JOINS_BEFORE_RE.test(text.slice(p, p + 2))) return p;
  }
  let to = hard;
  while (to < text.length && (JOINS_BEFORE_RE.test(text.slice(to, to + 2)) || (text.charCodeAt(to) & 0xfc00) === 0xdc00)) to++;
  return to;
}

/**
 * Map typographic quote characters to ASCII `"` and `'`, one code unit for one,
 * so every offset into the result is an offset into `text`.
 */
export function translateQuoteChars(text: string): string {
  checkArgs("translateQuoteChars", arguments, "text:string");
  return text.replace(QUOTE_CHAR_RE, (c) => (DOUBLE_QUOTES.includes(c) ? '"' : SINGLE_QUOTES.includes(c) ? "'" : c));
}

/** The comparison key of one word: Unicode default lowercase, apostrophes (ASCII or typographic) removed. */
export function key(word: string): string {
  if (typeof word !== "string") throw new ArgumentError("key", "word", "a string", word);
  return word.toLowerCase().replace(/['‘’‚‛]/g, "");
}

/**
 * The matching text of `text` (quote characters translated, ligatures folded,
 * default-ignorables dropped, NFC) with, for each of its UTF-16 units, the
 * span [from[i], to[i]) of the grapheme cluster of `text` it comes from.
 * Built cluster by cluster: NFC never composes across a cluster boundary.
 * Chunk by chunk as {@link chunkEnd} cuts `text`; a chunk of scanned characters
 * (see UNSAFE) is its own matching text but for quote characters, one cluster a
 * unit but CR LF, so only other chunks go through the grapheme segmenter.
 */
function matchingText(text: string): { folded: string; from: Int32Array; to: Int32Array } {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let at = 0; at < text.length; ) {
    const end = chunkEnd(text, at);
    const piece = at === 0 && end === text.length ? text : text.slice(at, end);
    if (allScanned(text, at, end)) {
      parts.push(translateQuoteChars(piece));
      for (let i = at; i < end; i++) {
        const crlf = text.charCodeAt(i) === 0x0d && i + 1 < end && text.charCodeAt(i + 1) === 0x0a;
        from.push(i);
        to.push(crlf ? i + 2 : i + 1);
        if (crlf) {
          from.push(i);
          to.push(i + 2);
          i++;
        }
      }
    } else {
      for (const g of (graphemeSegmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" })).segment(piece)) {
        const start = g.index + at;
        const gEnd = start + g.segment.length;
        const f = translateQuoteChars(g.segment)
          .replace(FOLD_ALL_RE, (c) => (c.charCodeAt(0) >= 0xfb00 && c.charCodeAt(0) <= 0xfb06 ? c.normalize("NFKC") : ""))
          .normalize("NFC");
        parts.push(f);
        for (let i = 0; i < f.length; i++) {
          from.push(start);
          to.push(gEnd);
        }
      }
    }
    at = end;
  }
  return { folded: parts.join(""), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/**
 * Where a word-like segment is cut besides `_`: a full stop or colon (and their
 * small and fullwidth forms) that is not between two digits. Why: ICU versions
 * disagree there (Node 20's ICU 74 keeps `e.g`, `U.S.A` and `a:b` whole, the
 * ICU of current Chromium splits them), and a quote must get the same words in
 * every runtime; `3.14` stays one word in both.
 */
const CUT_RE = /[_.:\u2024\uFE13\uFE52\uFE55\uFF0E\uFF1A]/g;
const DIGIT_RE = /\p{Nd}/u;

/** Put the words of one word-like segment `seg` (at `at` in the segmented text), cut as {@link CUT_RE} says, into `sink`. */
function pushPieces(sink: WordSink, seg: string, at: number): void {
  let from = 0;
  CUT_RE.lastIndex = 0;
  for (let m = CUT_RE.exec(seg); m; m = CUT_RE.exec(seg)) {
    const i = m.index;
    if (m[0] !== "_" && i > 0 && DIGIT_RE.test(seg[i - 1]!) && DIGIT_RE.test(seg[i + 1] ?? "")) continue;
    if (i > from) sink.keyed(key(seg.slice(from, i)), at + from, at + i);
    from = i + 1;
  }
  if (seg.length > from) sink.keyed(key(from ? seg.slice(from) : seg), at + from, at + seg.length);
}

/** Whether a word boundary at `i` of `text` might fall inside a grapheme cluster (checked only past U+02FF). */
function nearClusterEdge(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const c = text.codePointAt(i)!;
  const lo = text.charCodeAt(i - 1);
  const p = lo >= 0xdc00 && lo <= 0xdfff && i >= 2 ? text.codePointAt(i - 2)! : lo;
  return (c >= 0x300 && CLUSTER_EDGE_RE.test(String.fromCodePoint(c))) || (p >= 0x600 && CLUSTER_EDGE_RE.test(String.fromCodePoint(p)));
}

/**
 * Word-break classes of the scanner: UAX #29 Word_Break values as they act once the cuts of
 * {@link pushPieces} are applied, over the characters the scanner handles (WORD_CLASS_RUNS).
 *
 * - LETTER: ALetter (Alphabetic, plus UAX #29's listed extras); DIGIT: Numeric (only 0-9 is
 *   Numeric in these blocks). Letters and digits join each other (WB5, WB8, WB9, WB10).
 * - MID_LETTER (MidLetter `·` U+00B7, `‧` U+2027) joins two letters (WB6/WB7).
 * - MID_NUM (MidNum `,` `;` `⁄`, and MidNumLet `.` `․`) joins two digits (WB11/WB12). `.` and
 *   `․` also join two letters in UAX #29, but words are cut there (CUT_RE) unless between
 *   digits, and a join then a cut at the same character leaves the pieces a break leaves:
 *   WB6/WB7/WB11/WB12 read only the character on each side of the middle one, so whether
 *   the middle one joins changes no other boundary.
 * - MID_NUM_LET (Single_Quote `'`, MidNumLet ‘ ’, and ‚ ‛ which the matching text turns into
 *   `'`) joins two letters or two digits.
 * - OTHER: breaks on both sides and is never word-like alone: spaces (WB3d joins a run of
 *   them into one segment that is not word-like), newlines, punctuation, symbols, `"` (it
 *   joins only Hebrew letters, WB7b/c, not scanned), `:` (MidLetter, always cut: it never
 *   sits between digits in a segment), and `_` (ExtendNumLet: it joins what touches it,
 *   WB13a/b, and words are always cut at it; no rule reads past the character beside it).
 * - UNSAFE: anything else; a chunk holding one is segmented by Intl.Segmenter as before.
 *   Marks, format characters (WB4 Extend/Format/ZWJ: they attach to what precedes them,
 *   and a grapheme cluster grows with them), default-ignorables and ligatures (the matching
 *   text changes them), characters NFC changes, unassigned code points (their properties
 *   may change), digits other than 0-9, and the other ExtendNumLet characters (U+202F,
 *   U+203F, U+2040, U+2054: they join words, not cut them).
 *
 * Every scanned character is NFC_QC=Yes with canonical combining class 0 (it is neither a
 * mark nor changed by NFC), so a string of them is NFC; and each is a grapheme cluster of
 * its own except CR LF (no Extend, SpacingMark, Prepend, ZWJ, Hangul or Regional
 * Indicator among them: GB3-GB13 only ever join CR LF). test/match/words.test.ts checks
 * the class of every scanned code point against Intl.Segmenter, and the words of mixed
 * random text and of every book against the segmenter-based words() this replaced.
 */
const UNSAFE = 0;
const OTHER = 1;
const LETTER = 2;
const DIGIT = 3;
const MID_LETTER = 4;
const MID_NUM = 5;
const MID_NUM_LET = 6;

/**
 * The scanner's class of every UTF-16 code unit, as runs `lo, hi, class` (inclusive; UNSAFE
 * elsewhere). Derived by test/match/words.test.ts from the rules above over the blocks it names
 * (Basic Latin to Cyrillic Supplement, U+0000–052F; Latin Extended Additional and Greek
 * Extended; General Punctuation to Miscellaneous Symbols and Arrows, U+2000–2BFF; Latin
 * Extended-C; Supplemental Punctuation; Latin Extended-D), checked there against
 * Intl.Segmenter code point by code point, and generated into a file so the table does not
 * depend on the Unicode version of the engine's regular expressions, and costs nothing to load.
 */
let classTable: Uint8Array | null = null;

/** The scanner's class of every UTF-16 code unit (64 KB, filled from WORD_CLASS_RUNS on first use). */
function classes(): Uint8Array {
  if (classTable) return classTable;
  const t = new Uint8Array(0x10000); // UNSAFE everywhere else, surrogates included
  for (let i = 0; i < WORD_CLASS_RUNS.length; i += 3) t.fill(WORD_CLASS_RUNS[i + 2]!, WORD_CLASS_RUNS[i]!, WORD_CLASS_RUNS[i + 1]! + 1);
  return (classTable = t);
}

/**
 * Where {@link wordsInto} puts the words of a text, in order. A word's key comes one of two
 * ways: `plain` when it is the UTF-16 units flat[start, end) as they stand (`upper`: with
 * A-Z lowered to a-z; the word is ASCII with no apostrophe, so no other unit changes under
 * `key`), `keyed` when it is made (`key` given). `flat` is the text with its quote characters
 * translated (same length, same offsets). Offsets are UTF-16 units into the text as given.
 * `count` is the number of words put so far; `truncate(n)` drops all but the first n (the
 * tokenizer takes back a chunk or a path it cannot finish).
 */
export interface WordSink {
  readonly count: number;
  plain(flat: string, start: number, end: number, upper: boolean): void;
  keyed(key: string, start: number, end: number): void;
  truncate(n: number): void;
}

/** The sink of {@link words}: one `Word` object a word. */
class WordArraySink implements WordSink {
  readonly out: Word[] = [];
  get count(): number {
    return this.out.length;
  }
  plain(flat: string, start: number, end: number, upper: boolean): void {
    const w = flat.slice(start, end);
    this.out.push({ key: upper ? w.toLowerCase() : w, start, end });
  }
  keyed(key: string, start: number, end: number): void {
    this.out.push({ key, start, end });
  }
  truncate(n: number): void {
    this.out.length = n;
  }
}

/** Start of the first and end of the last word the last successful {@link scan} put (-1: none). */
let scannedFirst = -1;
let scannedLast = -1;

/**
 * The words of flat[from, to) when every code unit there is scanned (not UNSAFE), equal to
 * the word-like segments `Intl.Segmenter` finds in that slice, cut as {@link pushPieces}
 * cuts them; false (and `sink` as it was) otherwise. O(to - from), one table read a unit.
 */
function scan(flat: string, from: number, to: number, sink: WordSink): boolean {
  const cls = classes();
  const mark = sink.count;
  let start = -1;
  let last = OTHER;
  let upper = false; // has A-Z
  let wide = false; // has a unit past U+007F: lowered by toLowerCase
  let apos = false; // joined through an apostrophe, which the key drops
  scannedFirst = scannedLast = -1;
  for (let i = from; i < to; i++) {
    const c = flat.charCodeAt(i);
    const k = cls[c]!;
    if (k === LETTER || k === DIGIT) {
      if (start < 0) {
        start = i;
        upper = wide = apos = false;
        if (scannedFirst < 0) scannedFirst = i;
      }
      if (c < 0x5b) upper ||= c >= 0x41;
      else if (c > 0x7f) wide = true;
      last = k;
    } else if (k === UNSAFE) {
      sink.truncate(mark);
      return false;
    } else if (start >= 0) {
      if (k >= MID_LETTER && i + 1 < to && cls[flat.charCodeAt(i + 1)] === last) {
        // WB6/WB7 (letter, mid, letter) and WB11/WB12 (digit, mid, digit)
        if (k === MID_NUM_LET || (k === MID_LETTER ? last === LETTER : last === DIGIT)) {
          if (k === MID_NUM_LET) apos = true;
          else if (c > 0x7f) wide = true;
          continue;
        }
      }
      if (apos || wide) sink.keyed(key(flat.slice(start, i)), start, i);
      else sink.plain(flat, start, i, upper);
      scannedLast = i;
      start = -1;
    }
  }
  if (start >= 0) {
    if (apos || wide) sink.keyed(key(flat.slice(start, to)), start, to);
    else sink.plain(flat, start, to, upper);
    scannedLast = to;
  }
  return true;
}

/**
 * A sink that takes an ASCII text's keys as code points laid out by the scan itself
 * (ts/match/word-table.ts `LayoutSink`): {@link scanAsciiLayout} writes each key unit, lowered,
 * as its alphabet id straight into `chars` while it reads the text, instead of handing each word
 * back to be read again (`plain`). The arrays and counters are the sink's own, read and written
 * in place; `add` numbers a code point met for the first time, in word `w`.
 */
export interface AsciiLayoutSink extends WordSink {
  count: number;
  used: number;
  /** First word of the text being read (no space before its first key). */
  readonly textFirst: number;
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  spans: Int32Array;
  /** Alphabet id of each ASCII code point, -1 until met. */
  readonly small: Int32Array;
  add(cp: number, w: number): number;
  /** `chars` grown (doubled), returned. */
  moreChars(): Int32Array;
  /** `charStart`, `charEnd` and `spans` grown (doubled). */
  moreWords(): void;
  /** A sink that gets every word too, as `plain`/`keyed` (the word table's key interner), or null. */
  readonly also: WordSink | null;
}

/**
 * {@link scan} of a whole ASCII text into an {@link AsciiLayoutSink}: the same words, keys and
 * spans, in one pass. A key is its word's units with A–Z lowered and apostrophes dropped, which is
 * `key` of an ASCII word (`plain` keys have no apostrophe; the others, joined through a MID_NUM_LET,
 * are `keyed` with `key`, which lowers and drops only the apostrophe of ASCII). Every ASCII unit
 * has a class other than UNSAFE, so nothing is taken back.
 */
function scanAsciiLayout(flat: string, sink: AsciiLayoutSink): void {
  const cls = classes();
  const to = flat.length;
  const { small, textFirst, also } = sink;
  let chars = sink.chars;
  let w = sink.count;
  let at = sink.used;
  let start = -1;
  let last = OTHER;
  let upper = false;
  let apos = false;
  for (let i = 0; i < to; i++) {
    let c = flat.charCodeAt(i);
    const k = cls[c]!;
    if (k === LETTER || k === DIGIT) {
      // room for this unit's id and, at a word's first, the space before it
      if (at + 2 > chars.length) chars = sink.moreChars();
      if (start < 0) {
        start = i;
        upper = apos = false;
        if (w === sink.charStart.length) sink.moreWords();
        if (w > textFirst) chars[at++] = 0;
        sink.charStart[w] = at;
      }
      if (c >= 0x41 && c <= 0x5a) {
        upper = true;
        c += 0x20;
      }
      const a = small[c]!;
      chars[at++] = a >= 0 ? a : sink.add(c, w);
      last = k;
    } else if (start >= 0) {
      if (k >= MID_LETTER && i + 1 < to && cls[flat.charCodeAt(i + 1)] === last) {
        // WB6/WB7 (letter, mid, letter) and WB11/WB12 (digit, mid, digit), as scan joins them
        if (k === MID_NUM_LET || (k === MID_LETTER ? last === LETTER : last === DIGIT)) {
          if (k === MID_NUM_LET) apos = true;
          if (c !== 0x27) {
            if (at + 1 > chars.length) chars = sink.moreChars();
            const a = small[c]!;
            chars[at++] = a >= 0 ? a : sink.add(c, w);
          }
          continue;
        }
      }
      endWord(sink, flat, w++, at, start, i, upper, apos);
      start = -1;
    }
  }
  if (start >= 0) endWord(sink, flat, w, at, start, to, upper, apos);
  sink.used = at;
}

/** The end of word `w` of a {@link scanAsciiLayout}: its key ends at `at`, it spans [start, end). */
function endWord(sink: AsciiLayoutSink, flat: string, w: number, at: number, start: number, end: number, upper: boolean, apos: boolean): void {
  sink.charEnd[w] = at;
  sink.spans[2 * w] = start;
  sink.spans[2 * w + 1] = end;
  sink.count = w + 1;
  sink.used = at;
  const also = sink.also;
  if (also) {
    if (apos) also.keyed(key(flat.slice(start, end)), start, end);
    else also.plain(flat, start, end, upper);
  }
}

/** Whether every code unit of text[from, to) is scanned: its own grapheme cluster (but CR LF) that the matching text keeps (but quote characters). */
function allScanned(text: string, from: number, to: number): boolean {
  const cls = classes();
  for (let i = from; i < to; i++) if (cls[text.charCodeAt(i)] === UNSAFE) return false;
  return true;
}

const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * The words of `flat` (a matching text) chunk by chunk as {@link chunkEnd} cuts it: a chunk of
 * scanned characters by {@link scan}, any other by `Intl.Segmenter`, so the result is what
 * segmenting every chunk gives. `check`, when given, sees the span from the first to the
 * last word of each scanned chunk, and each word-like segment of a chunk left to the
 * segmenter, before their words are put; when it returns false, wordsOf stops and returns false.
 */
function wordsOf(flat: string, sink: WordSink, check?: (start: number, end: number, segmenter: boolean) => boolean): boolean {
  for (let from = 0; from < flat.length; ) {
    const to = chunkEnd(flat, from);
    if (scan(flat, from, to, sink)) {
      if (check && scannedFirst >= 0 && !check(scannedFirst, scannedLast, false)) return false;
    } else {
      const piece = from === 0 && to === flat.length ? flat : flat.slice(from, to);
      for (const s of (wordSegmenter ??= new Intl.Segmenter("en", { granularity: "word" })).segment(piece)) {
        if (!s.isWordLike) continue;
        const at = s.index + from;
        if (check && !check(at, at + s.segment.length, true)) return false;
        pushPieces(sink, s.segment, at);
      }
    }
    from = to;
  }
  return true;
}

/**
 * Put every word of `text` into `sink`, in order: exactly the words, keys and spans of
 * {@link words} (which is this with an array sink), without one object a word. For callers
 * that intern keys as they go (the quote index build, ts/match/word-table.ts).
 * @param text any string
 * @param sink receives the words; may see some taken back (`truncate`) before the final ones
 * Complexity: O(length); chunks of scanned characters (WORD_CLASS_RUNS) cost a table read a
 * UTF-16 unit, the others ICU segmentation (~1 µs a character).
 */
export function wordsInto(text: string, sink: WordSink): void {
  const base = sink.count;
  // a link's `(destination "title")` is not read (ts/match/markup.ts): blanked, same offsets
  text = readerText(text);
  // ASCII text is its own matching text (no quote character, nothing NFC changes or folds): the
  // tests below, which cannot change it, are skipped
  const ascii = ASCII_RE.test(text);
  // Fast path: the text is its own matching text (NFC, nothing to fold), so segments index it directly.
  if (ascii || !FOLD_RE.test(text)) {
    const flat = ascii ? text : translateQuoteChars(text);
    // ASCII: scanned whole (no chunks; the scanner's classes hold every ASCII unit, and this path
    // never cut ASCII text into chunks)
    if (ascii || ASCII_RE.test(flat)) {
      if ((sink as Partial<AsciiLayoutSink>).moreChars) scanAsciiLayout(flat, sink as AsciiLayoutSink);
      else scan(flat, 0, flat.length, sink);
      return;
    }
    let nfc: boolean | undefined;
    const clean = wordsOf(flat, sink, (start, end, segmenter) => {
      // a chunk left to the segmenter: the text must be NFC for this path (a scanned chunk is)
      if (segmenter && !(nfc ??= text.normalize("NFC") === text)) return false;
      // a scanned chunk's words can touch a cluster edge only at the chunk's two ends (no
      // scanned character is one)
      return !nearClusterEdge(text, start) && !nearClusterEdge(text, end);
    });
    if (clean) return;
    sink.truncate(base);
  }
  const { folded, from, to } = matchingText(text);
  const tmp = new WordArraySink();
  wordsOf(folded, tmp);
  for (const w of tmp.out) sink.keyed(w.key, from[w.start]!, to[w.end - 1]!);
}

function segment(text: string): Word[] {
  const sink = new WordArraySink();
  wordsInto(text, sink);
  return sink.out;
}

// Last texts segmented, most recent last (a Map keeps insertion order). Bounded by count and characters.
const CACHE_TEXTS = 512;
const CACHE_CHARS = 4_000_000;
const CACHE_MIN_CHARS = 256;
const cache = new Map<string, readonly Word[]>();
let cachedChars = 0;

function cachedWords(text: string): readonly Word[] {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const ws = segment(text);
  // Short texts (quotes) are cheap to segment and many: only passage-sized texts are kept (and frozen, being shared).
  if (text.length >= CACHE_MIN_CHARS && text.length <= CACHE_CHARS / 8) {
    for (const w of ws) Object.freeze(w);
    Object.freeze(ws);
    cache.set(text, ws);
    cachedChars += text.length;
    for (const [k] of cache) {
      if (cache.size <= CACHE_TEXTS && cachedChars <= CACHE_CHARS) break;
      cache.delete(k);
      cachedChars -= k.length;
    }
  }
  return ws;
}

/**
 * Every word of `text` in order (DESIGN.md §5 "Words"), with its key and UTF-16 span in `text`.
 *
 * The tokenizer of every quote check (grounding, bestSpan, the quote index):
 * keys are taken over the matching text (NFC, ligatures folded,
 * default-ignorables dropped, quote characters translated), spans are into
 * `text` as given and never cut a grapheme cluster, so `text.slice(start, end)`
 * is the source's own writing of the word (a decomposed `cafe\u0301` keeps its
 * accent, `exam\u00ADple` its soft hyphen, and both have the key of the composed,
 * plain word).
 *
 * @param text any string (a TypeError otherwise)
 * @returns the words in order, read-only (those of a text of 256+ characters are frozen: shared with a small cache)
 * Complexity: O(length): a table read a UTF-16 unit where the scanner applies, ICU
 * segmentation (~1 µs a character) in chunks it does not cover; repeated texts of 256+
 * characters are served from a cache of the last 512 texts / 4M characters.
 */
export function words(text: string): readonly Word[] {
  if (typeof text !== "string") throw new ArgumentError("words", "text", "a string", text);
  return cachedWords(text);
}

/** The keys of `text`'s words joined by one space; "" when it has none. */
export function normalize(text: string): string {
  checkArgs("normalize", arguments, "text:string");
  return words(text)
    .map((w) => w.key)
    .join(" ");
}

/** Number of words in `text` (by the word rule above). */
export function wordCount(text: string): number {
  checkArgs("wordCount", arguments, "text:string");
  return words(text).length;
}

/** For tests: the scanner's class table and the blocks it covers. */
export const __wordsInternals = {
  classes,
  CLASS: { UNSAFE, OTHER, LETTER, DIGIT, MID_LETTER, MID_NUM, MID_NUM_LET } as const,
};
