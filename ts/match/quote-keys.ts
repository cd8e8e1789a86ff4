/**
 * A quote as both word-window searches read it (bestSpan, ts/match/best-span.ts, and the quote
 * index, ts/match/quote-index/): the size bounds that keep its quadratic cost in check, and
 * its keys interned to the ids of the text searched. Kept apart so the two searches share one
 * definition without importing each other.
 */
import { GroundwireError } from "../errors.js";

/**
 * The longest quote (in words) `bestSpan` accepts; longer ones throw a QuoteTooLongError.
 * Why 200: the cost per window grows with the square of the quote's length
 * (~6 characters a word: a 200-word quote is a 1,200 × 1,200 comparison per
 * window), so an unbounded quote could freeze a turn. 200 words is far above
 * anything a model quotes in a moot, and the grounding layer unquotes longer
 * quotes with the reason "too long" (a verbatim one is found by its exact path first).
 */
export const MAX_QUOTE_WORDS = 200;

/**
 * The longest quote in characters `bestSpan` accepts: code points of its
 * normalized form (keys joined by one space); longer ones throw a QuoteTooLongError.
 * Why: a quote of 200 words can still be arbitrarily long (a word of 100,000
 * letters), and the cost per window is quadratic in characters, not words.
 * 2,000 allows the 200 words of `MAX_QUOTE_WORDS` at 10 characters a word.
 */
export const MAX_QUOTE_CHARS = 2_000;

/**
 * A quote over {@link MAX_QUOTE_WORDS} words or {@link MAX_QUOTE_CHARS} characters, refused by
 * `bestSpan`, `createQuoteMatcher(…).bestSpan` and the quote index's `locate` before any search.
 * A GroundwireError, 413 `too_large`, with the quote's size and the bound it broke:
 * `words` (the quote's word count), `characters` (code points of its normalized form: keys joined
 * by one space; counted exactly), `limit` = "MAX_QUOTE_WORDS" or "MAX_QUOTE_CHARS" and `max` its value.
 */
export class QuoteTooLongError extends GroundwireError {
  override readonly name = "QuoteTooLongError";
  constructor(
    readonly words: number,
    readonly characters: number,
    readonly limit: "MAX_QUOTE_WORDS" | "MAX_QUOTE_CHARS",
    readonly max: number,
    verb: string,
  ) {
    super(
      limit === "MAX_QUOTE_WORDS"
        ? `quote has ${words} words, more than MAX_QUOTE_WORDS (${max}); too long to ${verb}`
        : `quote has ${characters} characters, more than MAX_QUOTE_CHARS (${max}) characters once normalized; too long to ${verb}`, { code: "too_large", status: 413 },
    );
  }
}

/**
 * null when a quote's words fit {@link MAX_QUOTE_WORDS} and {@link MAX_QUOTE_CHARS}, else the
 * {@link QuoteTooLongError} the search throws (message `quote has … more than … too long to <verb>`).
 * O(the quote's characters).
 * @param ws the quote's words (`words(quote)`); only `key` is read
 * @param verb what the caller would do with it: "match" (bestSpan), "locate" (the quote index)
 */
export function quoteTooLong(ws: readonly { key: string }[], verb = "match"): QuoteTooLongError | null {
  let chars = Math.max(0, ws.length - 1);
  for (const w of ws) for (const _ of w.key) chars++;
  if (ws.length > MAX_QUOTE_WORDS) return new QuoteTooLongError(ws.length, chars, "MAX_QUOTE_WORDS", MAX_QUOTE_WORDS, verb);
  if (chars > MAX_QUOTE_CHARS) return new QuoteTooLongError(ws.length, chars, "MAX_QUOTE_CHARS", MAX_QUOTE_CHARS, verb);
  return null;
}

/**
 * null when a quote's words fit {@link MAX_QUOTE_WORDS} and {@link MAX_QUOTE_CHARS}, else the
 * message of the {@link QuoteTooLongError} the search throws (`… too long to <verb>`).
 * @param ws the quote's words (`words(quote)`); only `key` is read
 * @param verb what the caller would do with it: "match" (bestSpan), "locate" (the quote index)
 */
export function quoteSize(ws: readonly { key: string }[], verb = "match"): string | null {
  return quoteTooLong(ws, verb)?.message ?? null;
}

/**
 * A quote's keys as the ratio reads them: each code point interned to its id in the
 * searched text's `alphabet` (code point → id; id 0 is the space between keys, put between
 * words here too); a code point the text lacks gets a fresh id past the alphabet, so it
 * matches nothing. Shared by bestSpan's pool and the quote index.
 *
 * @param ws the quote's words (`words(quote)`)
 * @returns ids (UTF-16-independent: one per code point, keys joined by 0), the word count,
 *   and the alphabet size those ids need
 */
export function internQuote(
  ws: readonly { key: string }[],
  alphabet: ReadonlyMap<number, number>,
): { ids: Int32Array; words: number; alphabetSize: number } {
  const extra = new Map<number, number>();
  const ids: number[] = [];
  for (let i = 0; i < ws.length; i++) {
    if (i) ids.push(0);
    for (const ch of ws[i]!.key) {
      const cp = ch.codePointAt(0)!;
      let id = alphabet.get(cp) ?? extra.get(cp);
      if (id === undefined) extra.set(cp, (id = alphabet.size + extra.size));
      ids.push(id);
    }
  }
  return { ids: Int32Array.from(ids), words: ws.length, alphabetSize: alphabet.size + extra.size };
}
