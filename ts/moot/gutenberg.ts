
import { checkArgs } from "../args.js";/**
 * Project Gutenberg's own text around a book (browser-safe): the header up to
 * its START marker, the producer lines right after it, and the footer and
 * licence from its END marker on. Everything between is the book's body, and
 * every word of the body is in some passage (book-structure.ts).
 *
 * Markers are matched as files write them: a START marker whose title wraps
 * onto following lines up to its closing `***`, with or without a space after
 * `***`, in any case, `THE` or `THIS PROJECT GUTENBERG`, and the old
 * `*END*THE SMALL PRINT!…` line that closes an old header's licence.
 */

/** A START marker's first line: `*** START OF THE PROJECT GUTENBERG EBOOK …`, `***START OF THIS …` (any case). */
const START_LINE = /^[ \t]*\*{3}[ \t]*START OF (?:THE |THIS )?PROJECT GUTENBERG\b.*$/gim;
/** The old header's closing line: `*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*`. */
const SMALL_PRINT_END = /^[ \t]*\*END\*[ \t]*THE SMALL PRINT\b.*$/gim;
/**
 * A line where the footer starts: the END marker, the `End of the Project Gutenberg EBook…` line,
 * the licence's own heading. One alternation, so the text is scanned once: its first match is the
 * first line any of them would match (a regex's match is the leftmost, whichever branch gives it).
 */
const END_LINE =
  /^[ \t]*(?:\*{3}[ \t]*END OF (?:THE |THIS )?PROJECT GUTENBERG\b|End of (?:the |this )?Project Gutenberg\b|\*{3}[ \t]*START:? FULL LICEN[CS]E\b|THE FULL PROJECT GUTENBERG LICEN[CS]E\b|START: FULL LICEN[CS]E\b|Section 1\. General Terms of Use and Redistributing Project Gutenberg)/im;
/** A paragraph right after the START marker that is about the file, not the book: it belongs to the header. */
export const PRODUCER_NOTE = /^(?:produced by|e-?text prepared by|this e-?text was prepared by|updated editions will replace|this ebook is for the use of anyone)/i;

/** How many lines a wrapped START marker's title may run onto before its closing `***`. */
const MAX_MARKER_LINES = 4;

/** End (UTF-16, just past the marker) of the last START marker or old small-print line; 0 when none. */
function headerEnd(text: string): number {
  let end = 0;
  START_LINE.lastIndex = 0;
  for (let m = START_LINE.exec(text); m; m = START_LINE.exec(text)) {
    let at = m.index + m[0].length;
    if (!/\*{3}[ \t]*$/.test(m[0])) {
      // a title wrapped over lines: the marker runs on to the first line (no blank between) closing with ***
      let cursor = at;
      for (let n = 0; n < MAX_MARKER_LINES; n++) {
        const nl = text.indexOf("\n", cursor + 1);
        const line = text.slice(cursor + 1, nl < 0 ? text.length : nl);
        if (cursor >= text.length || !line.trim()) break;
        cursor = nl < 0 ? text.length : nl;
        if (/\*{3}[ \t]*$/.test(line)) {
          at = cursor;
          break;
        }
      }
    }
    end = Math.max(end, at);
  }
  SMALL_PRINT_END.lastIndex = 0;
  for (let m = SMALL_PRINT_END.exec(text); m; m = SMALL_PRINT_END.exec(text)) end = Math.max(end, m.index + m[0].length);
  return end;
}

/**
 * The span of a book's own text: after Project Gutenberg's header (its START
 * marker, wrapped titles included, or the old `*END*THE SMALL PRINT` line, and
 * the producer lines right after it: `Produced by …`), before its footer (the
 * END marker, the `End of the Project Gutenberg EBook…` line or the licence's
 * own heading, whichever comes first). Leading and trailing whitespace is left
 * out.
 *
 * @returns `[start, end)` in UTF-16 code units; the whole text (trimmed) when no marker is present
 */
export function bookBody(text: string): { start: number; end: number } {
  checkArgs("bookBody", arguments, "text:string");
  let start = headerEnd(text);
  let end = text.length;
  const tail = text.slice(start);
  const footer = END_LINE.exec(tail);
  if (footer) end = start + footer.index;
  // producer paragraphs right after the marker are the header's
  if (start > 0) {
    for (;;) {
      const at = start + (text.slice(start, end).length - text.slice(start, end).trimStart().length);
      const blank = /\n[ \t]*\n/g;
      blank.lastIndex = at;
      const m = blank.exec(text);
      const paraEnd = m && m.index < end ? m.index : end;
      if (at >= end || !PRODUCER_NOTE.test(text.slice(at, paraEnd))) break;
      start = paraEnd;
    }
  }
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}
