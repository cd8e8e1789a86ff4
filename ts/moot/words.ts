/**
 * Words, keys and normalization for quote grounding (DESIGN.md section 5).
 *
 * - Quote characters: “ ” „ ‟ ″ « » 「 」 『 』 count as `"`; ‘ ’ ‚ ‛ as `'`.
 *   Each maps one UTF-16 code unit to one, so offsets into the translated text
 *   are offsets into the original.
 * - A word is a maximal run of letters and numbers (Unicode categories L and N),
 *   joined through internal apostrophes: `don't` is one word, `well-known` two.
 * - key(word) = Unicode default lowercase (JS toLowerCase, as Python str.lower),
 *   apostrophes removed.
 * - normalize(text) = the keys of its words joined by one space.
 *
 * All offsets here are UTF-16 code units (JS string indices).
 */

const DOUBLE_QUOTES = "“”„‟″«»「」『』";
const SINGLE_QUOTES = "‘’‚‛";
const QUOTE_CHAR_RE = /[“”„‟″«»「」『』‘’‚‛]/g;

/** A word of a text: its key and its UTF-16 span [start, end) in that text. */
export interface Word {
  key: string;
  start: number;
  end: number;
}

/** Word pattern over quote-translated text (only ASCII `'` remains as apostrophe). */
export const WORD_RE = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

/**
 * Map typographic quote characters to ASCII `"` and `'`, one code unit for one,
 * so every offset into the result is an offset into `text`.
 */
export function translateQuoteChars(text: string): string {
  return text.replace(QUOTE_CHAR_RE, (c) => (DOUBLE_QUOTES.includes(c) ? '"' : SINGLE_QUOTES.includes(c) ? "'" : c));
}

/** The comparison key of one word: lowercased, apostrophes (ASCII or typographic) removed. */
export function key(word: string): string {
  return word.toLowerCase().replace(/['‘’‚‛]/g, "");
}

/**
 * Every word of `text` in order, with its key and UTF-16 span in `text`.
 * Quote characters are translated first (offsets are unchanged by that).
 */
export function words(text: string): Word[] {
  const flat = translateQuoteChars(text);
  const out: Word[] = [];
  for (const m of flat.matchAll(WORD_RE)) {
    const start = m.index!;
    out.push({ key: key(m[0]), start, end: start + m[0].length });
  }
  return out;
}

/** The keys of `text`'s words joined by one space; "" when it has none. */
export function normalize(text: string): string {
  return words(text)
    .map((w) => w.key)
    .join(" ");
}

/** Number of words in `text` (by the word rule above). */
export function wordCount(text: string): number {
  let n = 0;
  for (const _ of translateQuoteChars(text).matchAll(WORD_RE)) n++;
  return n;
}
