/** Title and author read from a book's own text (browser-safe). */
import { CHAPTER, ENTRY_HEADING, PREFACE, ROMAN, YEAR_HEADING } from "./book-structure.js";
import { checkArgs } from "../args.js";

// ---------------------------------------------------------------------------
// Title and author

/** Index of the last `sep` in `s` outside brackets, or -1. */
function lastTopLevel(s: string, sep: RegExp): number {
  let depth = 0;
  let found = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      sep.lastIndex = i;
      const m = sep.exec(s);
      if (m && m.index === i) found = i;
    }
  }
  return found;
}

/** `s` without bracketed parts (for telling a date range from a title that holds a year in brackets). */
const outsideBrackets = (s: string) => s.replace(/\([^()]*\)|\[[^[\]]*\]/g, "");

/** Longest first line taken as a book's title (UTF-16 code units); a longer one is prose. */
const MAX_TITLE_LINE = 300;

/**
 * Title and author read from a book's own text, whole: a Project Gutenberg
 * header's `Title:` (with its indented continuation lines, joined with ", ")
 * and `Author:`; else the first line, read as `[The Project Gutenberg EBook
 * of | Project Gutenberg's] <title>, by <author>` (split at the last `, by`
 * outside brackets, so `The Holy Bible, King James Version (Authorized
 * Version), by Anonymous` keeps its whole title) or as `<title>, <dates>` (a
 * trailing date range outside brackets dropped); failing that, an `Author:`
 * or `by <name>` line, or a title of the form "The Diary (Journal, Letters,
 * Memoirs) of <Name>", names the author. Missing fields are "".
 */
export function readBookMetadata(text: string): { title: string; author: string } {
  checkArgs("readBookMetadata", arguments, "text:string");
  const head = text.slice(0, 6000);
  const field = (name: string): string => {
    const m = new RegExp(`^${name}:[ \\t]*(.+)((?:\\n[ \\t]+\\S.*)*)`, "m").exec(head);
    if (!m) return "";
    const more = m[2] ? m[2].split("\n").map((l) => l.trim()).filter(Boolean) : [];
    return [m[1]!.trim(), ...more].join(", ");
  };
  let title = field("Title");
  let author = field("Author");
  if (!title) {
    let first = (head.split("\n").map((l) => l.trim()).find(Boolean) ?? "").replace(/^\uFEFF/, "");
    first = first.replace(/^(?:The\s+)?Project Gutenberg(?:['’]s|\s+e-?book(?:\s+of|,)?)\s+/i, "");
    const by = lastTopLevel(first, /,?\s+by\s+/iy);
    if (by > 0) {
      const m = /,?\s+by\s+/iy;
      m.lastIndex = by;
      m.exec(first);
      if (!author) author = first.slice(m.lastIndex).trim();
      first = first.slice(0, by).replace(/,\s*$/, "");
    }
    const comma = lastTopLevel(first, /,/y);
    if (comma > 0 && /\d{3,4}/.test(outsideBrackets(first.slice(comma + 1)))) first = first.slice(0, comma);
    title = first.trim();
    // A book with no title line opens with its structure (`CHAPTER I.`, `1854`, `January 1st. …`):
    // that is no title; the caller falls back to the key's book part.
    // (A chapter heading only with a numeral: "Book of Mormon" is a title.)
    const chapter = CHAPTER.exec(title);
    // Nor is a first line longer than any title line (a book of one long line, a paragraph unwrapped):
    // it would be every listing's title and every transcript's tree name.
    if (title.length > MAX_TITLE_LINE) title = "";
    if ((chapter && /^(?:\d{1,4}|[IVXLCDM]{1,8}|[ivxlcdm]{1,8})$/.test(chapter[2]!)) || [ROMAN, YEAR_HEADING, PREFACE, ENTRY_HEADING].some((re) => re.test(title))) title = "";
  }
  if (!author) {
    const by = /^by\s+(.+)$/im.exec(head);
    const of = /^(?:the\s+)?(?:diary|journal|letters|memoirs|autobiography)\s+of\s+(.+)$/i.exec(title);
    author = by?.[1]?.trim() ?? of?.[1]?.trim() ?? "";
  }
  return { title, author };
}
