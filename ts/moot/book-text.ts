/** The text of a book as paragraphs and passages (browser-safe): paragraphs with their source spans, sentence cuts, packing into passages of about CHUNK_CHARS, ids. Offsets are UTF-16 code units into the text as given. */

/** Target size of a book passage, in characters; paragraphs are never split below it. */
export const CHUNK_CHARS = 1200;

/** How a book was cut: by dated entries, verses, headwords, chapters (acts and scenes too), poems, or plain paragraphs. */
export type BookStructure = "diary" | "verses" | "dictionary" | "chapters" | "poems" | "paragraphs";

/** One passage of a book, in reading order. */
export interface BookPassage {
  /** `<key>#<name>`. */
  node_id: string;
  /** Id of the passage within its book (`entry-1660-05-29`, `genesis-1-1-5`, `chapter-3-2`). */
  name: string;
  /** Where a reader finds it, as the book prints it: `MAY 1660: 29th`, `Genesis 1:1–5`, `Chapter 3, part 2`. */
  label: string;
  /** The passage's text: paragraphs with their wrapped lines joined by one space, separated by a blank line; verse numbers left out. */
  content: string;
  /**
   * A diary entry's date as printed, ISO `YYYY-MM-DD` (the year in modern
   * numbering: an Old Style `1659–60` is 1660); absent when the entry does not
   * say its date or the year is unknown.
   */
  timestamp?: string;
  /** For an Old Style (Julian) diary, {@link timestamp} converted to the Gregorian calendar. */
  gregorianDate?: string;
  /** UTF-16 offset of the passage's first character in the book's text. */
  start?: number;
  /** UTF-16 offset just past the passage's last character. */
  end?: number;
}

/** A paragraph of the body: its text (lines joined) and its span in the source. */
export interface Paragraph {
  text: string;
  /** The paragraph as written in the source (`source.slice(start, end)`). */
  raw: string;
  start: number;
  end: number;
  /** Lines of the paragraph as written (for headings standing alone on a line). */
  lines: number;
}


/** Paragraphs (blank-line separated) of `text[start, end)`, with offsets. */
export function paragraphsOf(text: string, start: number, end: number): Paragraph[] {
  const out: Paragraph[] = [];
  // searched in the range only: a search running on to the text's end made a book of many ranges
  // and few blank lines (one 15 MB line) quadratic, minutes to cut
  const part = text.slice(start, end);
  const blank = /\n[ \t]*(?:\n[ \t]*)+/g;
  let from = start;
  const push = (a: number, b: number) => {
    const raw = text.slice(a, b);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (!body) return;
    out.push({
      text: body.replace(/[ \t]*\n[ \t]*/g, " "),
      raw: body,
      start: a + lead,
      end: a + lead + body.length,
      lines: body.split("\n").length,
    });
  };
  for (let m = blank.exec(part); m; m = blank.exec(part)) {
    push(from, start + m.index);
    from = start + m.index + m[0].length;
  }
  push(from, end);
  return out;
}

// ---------------------------------------------------------------------------
// Packing

/**
 * The sentences of `raw` (ending at . ! ? or the CJK 。！？, with closing quotes and the space after),
 * each longer than `chunkChars` cut further at its last whitespace before that length (or at that
 * length, between code points, when it has none): a book of one unpunctuated line, or a long
 * sentence, would otherwise be one passage of any size.
 */
export function* sentencesOf(raw: string, chunkChars: number): Generator<{ index: number; text: string }> {
  for (const m of raw.matchAll(/[^.!?。！？]+[.!?。！？]+["'”’)」』]*\s*|[^.!?。！？]+$/g)) {
    let index = m.index!;
    let text = m[0];
    while (text.length > chunkChars) {
      let cut = chunkChars;
      while (cut > 0 && !/\s/.test(text[cut - 1]!)) cut--;
      if (cut === 0) cut = chunkChars - (/[\uDC00-\uDFFF]/.test(text[chunkChars]!) ? 1 : 0);
      yield { index, text: text.slice(0, cut) };
      index += cut;
      text = text.slice(cut);
    }
    if (text) yield { index, text };
  }
}

/** A long paragraph cut at sentence ends into pieces of about `chunkChars` characters, each with its own source span. */
export function splitLong(p: Paragraph, chunkChars: number): Paragraph[] {
  if (p.text.length <= 2 * chunkChars) return [p];
  const pieces: Paragraph[] = [];
  let from = -1;
  let to = 0;
  const flush = () => {
    const raw = p.raw.slice(from, to).trimEnd();
    if (raw.trim()) pieces.push({ text: raw.replace(/[ \t]*\n[ \t]*/g, " "), raw, start: p.start + from, end: p.start + from + raw.length, lines: raw.split("\n").length });
  };
  for (const m of sentencesOf(p.raw, chunkChars)) {
    if (from >= 0 && to - from + m.text.length > chunkChars) {
      flush();
      from = -1;
    }
    if (from < 0) from = m.index + (m.text.length - m.text.trimStart().length);
    to = m.index + m.text.length;
  }
  if (from >= 0) flush();
  return pieces.length ? pieces : [p];
}

/** Whole paragraphs packed in order into passages of about `chunkChars` characters. */
export function pack(paragraphs: readonly Paragraph[], chunkChars: number): Paragraph[][] {
  const groups: Paragraph[][] = [];
  let current: Paragraph[] = [];
  let size = 0;
  for (const p of paragraphs.flatMap((q) => splitLong(q, chunkChars))) {
    if (size && size + p.text.length > chunkChars) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(p);
    size += p.text.length + 2;
  }
  if (current.length) groups.push(current);
  return groups;
}

export function passageOf(key: string, name: string, label: string, group: readonly Paragraph[], join = "\n\n"): BookPassage {
  return {
    node_id: `${key}#${name}`,
    name,
    label,
    content: group.map((p) => p.text).join(join),
    start: group[0]!.start,
    end: group.at(-1)!.end,
  };
}

export function slug(text: string): string {
  return (
    text
      .normalize("NFKD")
      // Accents off Latin, Greek and Cyrillic letters (`capítulo` → `capitulo`); the vowel
      // signs of Indic scripts stay, they are part of the letter.
      .replace(/(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{M}*)\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "") || "x"
  );
}

/** Names made unique within a book by a `-2`, `-3`… suffix on repeats. */
export function uniqueNames(passages: BookPassage[], key: string): BookPassage[] {
  const seen = new Map<string, number>();
  for (const p of passages) {
    const n = (seen.get(p.name) ?? 0) + 1;
    seen.set(p.name, n);
    if (n > 1) {
      p.name = `${p.name}-${n}`;
      p.node_id = `${key}#${p.name}`;
    }
  }
  return passages;
}
