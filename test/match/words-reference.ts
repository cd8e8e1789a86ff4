// The words() of ts/match/words.ts as it was before the class-table scanner (commit 48e52e8),
// kept verbatim (less its cache) as the reference the new words() must equal on every input:
// test/match/words.test.ts compares them, bench/words.bench.ts times them side by side.
// Do not "fix" this file: its behaviour is the contract.
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
 * - key(word) = Unicode default lowercase (JS `toLowerCase`, as Python
 *   `str.lower`), apostrophes removed.
 * - normalize(text) = the keys of its words joined by one space.
 *
 * Segmenting is the costly step (ICU); {@link words} keeps the last few
 * hundred texts' results (passages are checked again every turn of a moot).
 */

const DOUBLE_QUOTES = "“”„‟″«»「」『』";
const SINGLE_QUOTES = "‘’‚‛";
const QUOTE_CHAR_RE = /[“”„‟″«»「」『』‘’‚‛]/g;
/** Characters the matching text changes: ligatures, default-ignorables. */
const FOLD_RE = /[\uFB00-\uFB06\p{Default_Ignorable_Code_Point}]/u;
const FOLD_ALL_RE = /[\uFB00-\uFB06]|\p{Default_Ignorable_Code_Point}/gu;
/** A character that may continue the grapheme cluster of the character before it, or a Prepend one that joins the next. */
const CLUSTER_EDGE_RE = /^[\p{M}\p{Cf}\u200D\u{1F3FB}-\u{1F3FF}\u0D4E\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u1160-\u11FF\uD7B0-\uD7FF]/u;

/** A word of a text: its key and its UTF-16 span [start, end) in that text. */
interface Word {
  key: string;
  start: number;
  end: number;
}

let wordSegmenter: Intl.Segmenter | null = null;
let graphemeSegmenter: Intl.Segmenter | null = null;
// Created on first use: building an ICU break iterator costs time at import.
const segmentWords = (text: string) => chunked((wordSegmenter ??= new Intl.Segmenter("en", { granularity: "word" })), text);
const segmentGraphemes = (text: string) => chunked((graphemeSegmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" })), text);

/** Segmenting at most this many UTF-16 units at a time (then up to the next safe cut). */
const CHUNK = 1024;
const IDEOGRAPHIC_STOPS = "。！？，、；：";
const JOINS_BEFORE_RE = /^[\p{M}\p{Cf}\u200D]/u;

/**
 * The segments of `text`, in order, with their index into `text`, taken chunk
 * by chunk. Why: iterating `Intl.Segmenter` segments is quadratic in the
 * string's length in Node 20's V8 (30 KB: 0.5 s, 120 KB: 50 s). A chunk ends
 * where both word and grapheme segmentation always break whatever the context:
 * before a space or line feed that follows a character below U+0600 (no
 * Prepend character, no space run, no CR LF pair is split), or after
 * ideographic punctuation that no mark follows (dictionary runs of Chinese and
 * Japanese stop there). Text with no such place for 16 chunks is cut anyway,
 * before a character that is no mark or format character.
 */
function* chunked(segmenter: Intl.Segmenter, text: string): Generator<{ segment: string; index: number; isWordLike?: boolean }> {
  if (text.length <= CHUNK) {
    yield* segmenter.segment(text);
    return;
  }
  let from = 0;
  while (from < text.length) {
    let to = text.length;
    if (text.length - from > CHUNK) {
      to = -1;
      const hard = Math.min(text.length, from + 16 * CHUNK);
      for (let p = from + CHUNK; p < hard && to < 0; p++) {
        const c = text.charCodeAt(p);
        const prev = text.charCodeAt(p - 1);
        if ((c === 0x20 || c === 0x0a) && prev < 0x600 && prev !== 0x20 && prev !== 0x0d) to = p;
        else if (IDEOGRAPHIC_STOPS.includes(text[p - 1]!) && !JOINS_BEFORE_RE.test(text.slice(p, p + 2))) to = p;
      }
      if (to < 0) {
        to = hard;
        while (to < text.length && (JOINS_BEFORE_RE.test(text.slice(to, to + 2)) || (text.charCodeAt(to) & 0xfc00) === 0xdc00)) to++;
      }
    }
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    for (const s of segmenter.segment(piece)) yield { segment: s.segment, index: s.index + from, isWordLike: s.isWordLike };
    from = to;
  }
}

/**
 * Map typographic quote characters to ASCII `"` and `'`, one code unit for one,
 * so every offset into the result is an offset into `text`.
 */
export function translateQuoteChars(text: string): string {
  return text.replace(QUOTE_CHAR_RE, (c) => (DOUBLE_QUOTES.includes(c) ? '"' : SINGLE_QUOTES.includes(c) ? "'" : c));
}

/** The comparison key of one word: Unicode default lowercase, apostrophes (ASCII or typographic) removed. */
export function key(word: string): string {
  return word.toLowerCase().replace(/['‘’‚‛]/g, "");
}

/**
 * The matching text of `text` (quote characters translated, ligatures folded,
 * default-ignorables dropped, NFC) with, for each of its UTF-16 units, the
 * span [from[i], to[i]) of the grapheme cluster of `text` it comes from.
 * Built cluster by cluster: NFC never composes across a cluster boundary.
 */
function matchingText(text: string): { folded: string; from: Int32Array; to: Int32Array } {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (const g of segmentGraphemes(text)) {
    const start = g.index;
    const end = start + g.segment.length;
    const f = translateQuoteChars(g.segment)
      .replace(FOLD_ALL_RE, (c) => (c.charCodeAt(0) >= 0xfb00 && c.charCodeAt(0) <= 0xfb06 ? c.normalize("NFKC") : ""))
      .normalize("NFC");
    parts.push(f);
    for (let i = 0; i < f.length; i++) {
      from.push(start);
      to.push(end);
    }
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

/** Push the words of one word-like segment `seg` (at `at` in the segmented text), cut as {@link CUT_RE} says. */
function pushPieces(out: Word[], seg: string, at: number): void {
  let from = 0;
  CUT_RE.lastIndex = 0;
  for (let m = CUT_RE.exec(seg); m; m = CUT_RE.exec(seg)) {
    const i = m.index;
    if (m[0] !== "_" && i > 0 && DIGIT_RE.test(seg[i - 1]!) && DIGIT_RE.test(seg[i + 1] ?? "")) continue;
    if (i > from) out.push({ key: key(seg.slice(from, i)), start: at + from, end: at + i });
    from = i + 1;
  }
  if (seg.length > from) out.push({ key: key(from ? seg.slice(from) : seg), start: at + from, end: at + seg.length });
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
 * UAX #29 word-like segments of ASCII text, cut as {@link pushPieces} cuts
 * them: letters and digits, joined through `'` between two letters (WB6/WB7;
 * `:` and `.` there are cut, see CUT_RE) and `,` `;` `.` `'` between two digits
 * (WB11/WB12), letters and digits joining each other (WB9/WB10). `_`
 * (ExtendNumLet, WB13a/b) only joins, and words are cut at it, so it acts as a separator. Equal to `Intl.Segmenter` on ASCII text
 * (test/moot/grounding-cases.test.ts checks it on random strings) and ~10×
 * faster: iterating segments costs microseconds each.
 */
const ASCII_WORD_RE = /[A-Za-z0-9]+(?:(?:(?<=[A-Za-z])'(?=[A-Za-z])|(?<=[0-9])[,;.'](?=[0-9]))[A-Za-z0-9]+)*/g;
const ASCII_RE = /^[\x00-\x7f]*$/;

export function referenceWords(text: string): Word[] {
  const out: Word[] = [];
  // Fast path: the text is its own matching text (NFC, nothing to fold), so segments index it directly.
  if (!FOLD_RE.test(text) && text.normalize("NFC") === text) {
    const flat = translateQuoteChars(text);
    if (ASCII_RE.test(flat)) {
      for (const m of flat.matchAll(ASCII_WORD_RE)) out.push({ key: key(m[0]), start: m.index!, end: m.index! + m[0].length });
      return out;
    }
    let clean = true;
    for (const s of segmentWords(flat)) {
      if (!s.isWordLike) continue;
      const end = s.index + s.segment.length;
      if (nearClusterEdge(text, s.index) || nearClusterEdge(text, end)) {
        clean = false;
        break;
      }
      pushPieces(out, s.segment, s.index);
    }
    if (clean) return out;
    out.length = 0;
  }
  const { folded, from, to } = matchingText(text);
  const tmp: Word[] = [];
  for (const s of segmentWords(folded)) if (s.isWordLike) pushPieces(tmp, s.segment, s.index);
  for (const w of tmp) out.push({ key: w.key, start: from[w.start]!, end: to[w.end - 1]! });
  return out;
}

