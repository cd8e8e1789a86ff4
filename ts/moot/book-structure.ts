/**
 * Books cut by their own structure (browser-safe): a plain-text book is split
 * into the passages a reader knows — a diary into dated entries, a
 * verse-numbered book into verse ranges, a dictionary into headword runs, a
 * novel into chapters (and parts of chapters) — and labelled so that a reader
 * can find each passage in the printed book (`MAY 1660: 29th`, `Genesis 1:1–5`,
 * `Chapter 3, part 2`, `ABASEMENT – ABDOMEN`).
 *
 * Project Gutenberg (and similar) headers, footers, licences, producer and
 * transcriber notes, and the file's own front matter (title page, table of
 * contents) are never passages, for every kind of book.
 *
 * Offsets are UTF-16 code units into the text as given to {@link cutBook}.
 */

import { bookBody } from "./gutenberg.js";
import { coverBody } from "./book-cover.js";
import { cutPoems } from "./book-poems.js";
import { CHUNK_CHARS, pack, paragraphsOf, passageOf, slug, splitLong, uniqueNames, type BookPassage, type BookStructure, type Paragraph } from "./book-text.js";
import { checkArgs } from "../args.js";

export { bookBody } from "./gutenberg.js";
export { CHUNK_CHARS, sentencesOf, type BookPassage, type BookStructure } from "./book-text.js";

// ---------------------------------------------------------------------------
// Diaries

const MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december",
];
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const WEEKDAY = String.raw`(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?)(?:day)?\.?`;
/** A year heading alone on a line: `1660`, `JANUARY 1659–60`, `April, 1660.` */
export const YEAR_HEADING = new RegExp(String.raw`^(?:(${MONTH})\.?,?\s+)?(\d{4})(?:\s*[–—-]\s*(\d{1,4}))?\.?$`, "i");
/**
 * A dated entry heading at the start of a paragraph: optional weekday, optional
 * month, the day (with or without its ordinal suffix), optional year, optional
 * bracketed note, then `.`, `,`, `:` or a dash (`January 1st.`, `APRIL 3.—`,
 * `Sunday 12th`, `Jan. 1st (Lord’s day).`, `Monday, January 1, 1855.`).
 */
export const ENTRY_HEADING = new RegExp(
  String.raw`^((?:${WEEKDAY},?\s+)?(?:(${MONTH})\.?\s+)?(\d{1,2})(?:st|nd|rd|th|d)?(?:,?\s+(\d{4}))?(?:,?\s+${WEEKDAY})?(?:\s*\([^()\n]{1,40}\))?(?:\s+[A-Z][a-z’']+(?:\s+[a-z’']+){0,2}(?=\.))?)(?:\.\s*[—–-]*|,|:|\s*[—–]+|(?=\s*$))`,
  "i",
);

function monthIndex(name: string | undefined): number | null {
  if (!name) return null;
  const n = name.toLowerCase().replace(/\.$/, "");
  const i = MONTHS.findIndex((m) => m.startsWith(n.slice(0, 3)));
  return i < 0 ? null : i;
}

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, "0")}-${String(m + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m && t.getUTCDate() === d;
}

/**
 * A Julian calendar date as the Gregorian date of the same day, by Julian Day
 * Number (Richards, "Mapping Time", and the Explanatory Supplement to the
 * Astronomical Almanac §12.95): 1 January 1660 (Julian) is 11 January 1660.
 *
 * @param y year (astronomical numbering), m month 0–11, d day 1–31
 * @returns ISO `YYYY-MM-DD`
 */
export function julianToGregorian(y: number, m: number, d: number): string {
  checkArgs("julianToGregorian", arguments, "y:int m:int d:int");
  const a = Math.floor((14 - (m + 1)) / 12);
  const yy = y + 4800 - a;
  const mm = m + 1 + 12 * a - 3;
  const jdn = d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
  const t = new Date(Date.UTC(-4713, 10, 24) + jdn * 86_400_000);
  // Date.UTC maps years 0–99 to 1900+; the epoch above is far outside that range, so no correction is needed.
  return iso(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
}

/** A diary's year context: the printed heading and the year(s) it names. */
interface YearContext {
  printed: string;
  /** Year in modern numbering for January–March (the later year of a dual `1659–60`). */
  early: number;
  /** Year for the rest of the year (the earlier one of a dual year). */
  late: number;
  month: number | null;
}

/**
 * Cut a diary into dated entries found in its text. An entry starts at a
 * paragraph opening with a dated heading ({@link ENTRY_HEADING}); it runs to
 * the next entry or year heading. The year comes from the entry itself or the
 * nearest year heading above it (`JANUARY 1659–60`, `1660`); the month from
 * the entry, the heading, or the entry before. A day that goes backwards
 * without a new month, or a year nowhere printed, leaves the timestamp empty
 * rather than guessed. A dual year (`1659–60`) marks Old Style dating: the
 * timestamp keeps the printed day and month (the year in modern numbering) and
 * `gregorianDate` carries the conversion.
 *
 * @returns the entries, or null when the text has fewer than 3 dated headings
 */
export function cutDiary(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] | null {
  checkArgs("cutDiary", arguments, "key:string text:string chunkChars?:int");
  const { start, end } = bookBody(text);
  const paras = paragraphsOf(text, start, end);
  type Mark = { para: number; kind: "year" | "entry" | "chapter"; heading: string; match?: RegExpExecArray };
  const marks: Mark[] = [];
  let entries = 0;
  let oldStyle = false;
  paras.forEach((p, i) => {
    if (p.lines === 1 && sectionKind(p.text) !== null && !ENTRY_HEADING.test(p.text)) {
      marks.push({ para: i, kind: "chapter", heading: p.text.replace(/[.:。：]$/, "").replace(/\s+/g, " ") });
      return;
    }
    const y = p.lines === 1 ? YEAR_HEADING.exec(p.text) : null;
    if (y) {
      marks.push({ para: i, kind: "year", heading: p.text.replace(/\.$/, ""), match: y });
      if (y[3]) oldStyle = true;
      return;
    }
    const e = ENTRY_HEADING.exec(p.text);
    if (e && (p.text.length > e[0].length + 2 || p.lines === 1)) {
      marks.push({ para: i, kind: "entry", heading: e[1]!.trim(), match: e });
      entries++;
    }
  });
  if (entries < 3) return null;
  const out: BookPassage[] = [];
  let ctx: YearContext | null = null;
  let month: number | null = null;
  let lastDay = 0;
  let chapter = "";
  for (let k = 0; k < marks.length; k++) {
    const mark = marks[k]!;
    const next = marks[k + 1]?.para ?? paras.length;
    if (mark.kind === "chapter") {
      // a chapter's own text before its first entry (a synopsis, an epigraph, its opening) is the chapter's passage
      chapter = mark.heading;
      const body = paras.slice(mark.para, next);
      if (body.length > 1) out.push(passageOf(key, `${slug(chapter)}`, chapter, body));
      continue;
    }
    if (mark.kind === "year") {
      const m = mark.match!;
      const y = Number(m[2]);
      let later = y;
      if (m[3]) {
        const tail = m[3];
        later = Number(String(y).slice(0, 4 - tail.length) + tail);
        if (later < y) later += 10 ** tail.length;
      }
      ctx = { printed: mark.heading, early: later, late: y, month: monthIndex(m[1]) };
      if (ctx.month !== null) month = ctx.month;
      lastDay = 0;
      const body = paras.slice(mark.para + 1, next);
      // Text between a year heading and the first dated entry under it is one undated entry.
      if (body.length) out.push(passageOf(key, `entry-${slug(mark.heading)}`, chapter ? `${chapter}, ${mark.heading}` : mark.heading, body));
      continue;
    }
    const e = mark.match!;
    const printedMonth = monthIndex(e[2]);
    const day = Number(e[3]);
    let dateKnown = true;
    if (printedMonth !== null) month = printedMonth;
    else if (day < lastDay) dateKnown = false; // a new month nobody printed: do not guess it
    lastDay = day;
    let year: number | null = e[4] ? Number(e[4]) : null;
    if (year === null && ctx) year = month !== null && month <= 2 ? ctx.early : ctx.late;
    const dated = ctx && !e[4] ? `${ctx.printed}: ${mark.heading}` : mark.heading;
    const label = chapter ? `${chapter}, ${dated}` : dated;
    const passage = passageOf(key, "", label, paras.slice(mark.para, next));
    if (dateKnown && year !== null && month !== null && validDate(year, month, day)) {
      passage.timestamp = iso(year, month, day);
      if (oldStyle) {
        // In an Old Style diary the dual year marks January–24 March; the printed year of the rest is the modern one.
        passage.gregorianDate = julianToGregorian(year, month, day);
      }
      passage.name = `entry-${passage.timestamp}`;
    } else {
      passage.name = `entry-${slug(label)}`;
    }
    passage.node_id = `${key}#${passage.name}`;
    out.push(passage);
  }
  return uniqueNames(out, key);
}

// ---------------------------------------------------------------------------
// Verses

/** A verse reference at the start of a line: optional book name, then `chapter:verse`. */
const VERSE = /^(?:((?:[1-4] )?[A-Z][A-Za-z]+(?: (?:of )?[A-Z][A-Za-z]+)*) )?(\d{1,3}):(\d{1,3})[ \t]+/gm;
/** A verse reference as {@link VERSE} finds it (structure, not words: no passage quotes it). */
export const VERSE_REFERENCE = VERSE;

/**
 * Cut a verse-numbered book (`Genesis 1:1 In the beginning…`, or `1:1 …`
 * under a book heading) into verse ranges within one chapter, packed to about
 * `chunkChars` characters and labelled `Genesis 1:1–5`. Verse numbers are
 * structure: they are left out of the content (one verse per line). Lines
 * before the first verse are front matter; a line standing alone between
 * verses names the book for verses that do not name it (`The First Book of
 * Moses: Called Genesis` → `Genesis`).
 *
 * @returns the passages, or null when fewer than 50 verse references are found
 */
export function cutVerses(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] | null {
  checkArgs("cutVerses", arguments, "key:string text:string chunkChars?:int");
  const { start, end } = bookBody(text);
  const body = text.slice(start, end);
  type Verse = { book: string; chapter: number; verse: number; start: number; end: number; text: string };
  const verses: Verse[] = [];
  const refs = [...body.matchAll(VERSE)];
  if (refs.length < 50) return null;
  let book = "";
  let prevEnd = 0;
  for (const [i, m] of refs.entries()) {
    const between = body.slice(prevEnd, m.index);
    // A heading between verses (a line alone, not verse text) names the book that follows.
    const heading = between
      .split(/\n[ \t]*\n/)
      .map((s) => s.trim())
      .filter((s) => s && !s.includes("\n") && s.length < 80)
      .at(-1);
    if (verses.length && heading && between.trim() !== verses.at(-1)!.text) {
      const called = /called\s+(.+?)\.?$/i.exec(heading);
      book = (called?.[1] ?? heading).trim();
    } else if (!verses.length && heading) {
      const called = /called\s+(.+?)\.?$/i.exec(heading);
      book = (called?.[1] ?? heading).trim();
    }
    if (m[1]) book = m[1];
    const from = m.index + m[0].length;
    const to = i + 1 < refs.length ? refs[i + 1]!.index : body.length;
    const raw = body.slice(from, to);
    const trimmed = raw.replace(/\s+$/, "");
    // A trailing heading line before the next verse is not verse text.
    const cut = refs[i + 1] && !refs[i + 1]![1] ? trimmed.replace(/\n[ \t]*\n[^\n]*$/, "") : trimmed;
    verses.push({
      book,
      chapter: Number(m[2]),
      verse: Number(m[3]),
      // the span holds the verse's reference; the content does not
      start: start + m.index!,
      end: start + from + cut.length,
      text: cut.replace(/\s*\n\s*/g, " ").trim(),
    });
    prevEnd = from + cut.length;
  }
  const out: BookPassage[] = [];
  let group: Verse[] = [];
  let size = 0;
  const flush = () => {
    if (!group.length) return;
    const a = group[0]!;
    const b = group.at(-1)!;
    const verseRange = a.verse === b.verse ? `${a.verse}` : `${a.verse}–${b.verse}`;
    const label = `${a.book ? `${a.book} ` : ""}${a.chapter}:${verseRange}`.trim();
    out.push({
      node_id: "",
      name: slug(`${a.book} ${a.chapter} ${a.verse} ${b.verse}`),
      label,
      content: group.map((v) => v.text).join("\n"),
      start: a.start,
      end: b.end,
    });
    group = [];
    size = 0;
  };
  for (const v of verses) {
    const last = group.at(-1);
    if (last && (last.book !== v.book || last.chapter !== v.chapter || size + v.text.length > chunkChars)) flush();
    group.push(v);
    size += v.text.length + 1;
  }
  flush();
  for (const p of out) p.node_id = `${key}#${p.name}`;
  return uniqueNames(out, key);
}

// ---------------------------------------------------------------------------
// Dictionaries

/** A headword entry at the start of a paragraph: `ABASEMENT, n.`, `ABRACADABRA.` */
const HEADWORD = /^([A-Z][A-Z0-9'’ -]*[A-Z0-9])(?:,\s*(?:n|v|adj|adv|pp|p|pro|prep|conj|interj|x|v\.\s?t|v\.\s?i)\.|\.(?=\s|$))/;

/**
 * Cut a dictionary into runs of whole entries of about `chunkChars`
 * characters, labelled by their first and last headword (`ABASEMENT –
 * ABDOMEN`). Section letters standing alone (`A`) are structure. Text before
 * the first entry under a heading of its own (`AUTHOR'S PREFACE`) is kept,
 * labelled by that heading; the title page is not.
 *
 * @returns the passages, or null when fewer than 50 headwords are found
 */
export function cutDictionary(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] | null {
  checkArgs("cutDictionary", arguments, "key:string text:string chunkChars?:int");
  const { start, end } = bookBody(text);
  const paras = paragraphsOf(text, start, end);
  const letter = (p: Paragraph) => /^[A-Z]$/.test(p.text);
  const firstEntry = paras.findIndex((p) => HEADWORD.test(p.text) && p.text.length > 20);
  if (firstEntry < 0 || paras.filter((p) => HEADWORD.test(p.text)).length < 50) return null;
  const out: BookPassage[] = [];
  const entries: Paragraph[][] = [];
  // a section letter (`C`) heads the entry after it
  let pending: Paragraph[] = [];
  for (const p of paras.slice(firstEntry)) {
    if (letter(p)) pending.push(p);
    else if (HEADWORD.test(p.text) || !entries.length) {
      entries.push([...pending, p]);
      pending = [];
    } else entries.at(-1)!.push(...pending.splice(0), p);
  }
  if (pending.length) entries.at(-1)!.push(...pending);
  let group: Paragraph[][] = [];
  let size = 0;
  const flush = () => {
    if (!group.length) return;
    const headword = (e: Paragraph[]) => HEADWORD.exec(e.find((p) => !letter(p))!.text)?.[1] ?? e.find((p) => !letter(p))!.text.slice(0, 40);
    const first = headword(group[0]!);
    const last = headword(group.at(-1)!);
    const label = first === last ? first : `${first} – ${last}`;
    out.push(passageOf(key, slug(first), label, group.flat()));
    group = [];
    size = 0;
  };
  for (const e of entries) {
    const length = e.reduce((n, p) => n + p.text.length + 2, 0);
    if (size && size + length > chunkChars) flush();
    group.push(e);
    size += length;
  }
  flush();
  return uniqueNames(out, key);
}

// ---------------------------------------------------------------------------
// Chapters

/**
 * Words that head a division of a book, in the languages Project Gutenberg
 * holds most books in. Each is matched Capitalized or in CAPITALS, never in
 * lower case (a line of prose may start with "chapter").
 */
const SECTION_WORDS = [
  // English
  "Chapter", "Letter", "Book", "Part", "Volume", "Stave", "Canto", "Section", "Act", "Scene",
  // French, German, Dutch
  "Chapitre", "Livre", "Partie", "Tome", "Acte", "Scène", "Lettre",
  "Kapitel", "Buch", "Teil", "Abschnitt", "Brief", "Akt", "Szene", "Aufzug", "Auftritt",
  "Hoofdstuk", "Boek", "Deel",
  // Spanish, Italian, Portuguese, Latin
  "Capítulo", "Capitulo", "Libro", "Parte", "Tomo", "Carta", "Acto", "Escena", "Tratado",
  "Capitolo", "Atto", "Scena", "Lettera", "Livro", "Ato", "Cena", "Caput", "Liber",
  // Scandinavian, Finnish, Polish, Czech
  "Kapittel", "Del", "Luku", "Rozdział", "Część", "Księga", "Kapitola",
  // Russian, Ukrainian, Greek
  "Глава", "Часть", "Книга", "Том", "Письмо", "Действие", "Явление", "Розділ", "Частина",
  "Κεφάλαιο", "Μέρος",
];
// toUpperCase is the locale-independent (root, "und") mapping already; toLocaleUpperCase
// would start ICU's locale machinery at import (≈ 0.7 ms of every `import("groundwire")`)
const SECTION_WORD = SECTION_WORDS.flatMap((w) => [w, w.toUpperCase()]).join("|");
/**
 * An ordinal after a section word: digits, Roman numerals, or one or two words
 * in any script (`I`, `12`, `the First`, `premier`, `первая`).
 */
const ORDINAL = String.raw`(?:\d{1,4}|[IVXLCDM]{1,8}|[ivxlcdm]{1,8}|(?:the\s+)?\p{L}+(?:[- ]\p{L}+)?)`;
/** End of a word in any script (`\b` is ASCII-only even with the `u` flag). */
const WORD_END = String.raw`(?![\p{L}\p{M}\p{N}])`;
/** A heading's optional title after its number: `Chapter III. The Return`, `Глава 1. Утро`. */
const HEADING_TITLE = String.raw`(?:\s*[.:—–-]+\s*\S.{0,78})?`;
/**
 * A chapter heading alone on a line: `CHAPTER I.`, `Chapter 12`, `LETTER 4`,
 * `Chapter III. The Return`, `BOOK THE FIRST`, `Chapitre premier`, `Глава 1`,
 * `Erstes Kapitel` (German puts the ordinal first). Group 1 is the section word.
 */
export const CHAPTER = new RegExp(
  String.raw`^(?:(${SECTION_WORD})\s+(${ORDINAL})${WORD_END}\.?${HEADING_TITLE}|\p{Lu}\p{Ll}*(?:es|er|te|tes)\s+(Kapitel|KAPITEL|Buch|BUCH|Teil|TEIL|Abschnitt|ABSCHNITT)\.?${HEADING_TITLE})$`,
  "u",
);
/**
 * A chapter heading in Chinese, Japanese or Korean: `第一章`, `第三回 …` (the
 * chapters of classical novels), `第2卷`, `제1장`. Group 1 is the unit.
 */
const CJK_CHAPTER = /^(?:第[〇零一二三四五六七八九十百千两兩壹贰貳叁參肆伍陆陸柒捌玖拾佰0-9０-９]{1,8}([章回卷節节部篇幕話话])|제\s?[0-9]{1,4}\s?([장부권화]))(?:[\s\u3000:：.．、]*\S.{0,78})?$/u;

/** The kind of division a one-line paragraph heads (`chapter`, `part`, `章`…), or null. */
export function sectionKind(line: string): string | null {
  const m = CHAPTER.exec(line);
  if (m) return (m[1] ?? m[3]!).toLocaleLowerCase("und");
  const c = CJK_CHAPTER.exec(line);
  return c ? (c[1] ?? c[2]!) : null;
}

/** An ordinal that is a number (`12`, `IV`), not a word (`premier`, `Rio`). */
const NUMERAL_ORDINAL = /^(?:\d{1,4}|[IVXLCDM]{1,8}|[ivxlcdm]{1,8})$/;

/**
 * Whether a heading's ordinal is a word (`Chapitre premier`, `Erstes Kapitel`), which one-line
 * prose can also be (`Del Rio`, `Brief pause.`, `Act now.`): such a heading counts only when
 * its section word heads another one-line paragraph too.
 */
function hasWordOrdinal(line: string): boolean {
  const m = CHAPTER.exec(line);
  return m ? m[3] !== undefined || !NUMERAL_ORDINAL.test(m[2]!) : false;
}

/** A Roman numeral alone on a line (`IV.`), counted as a chapter heading only when there are several. */
export const ROMAN = /^([IVXLCDM]{1,8})\.?$/;
/** A front-matter heading whose text is the author's own. */
export const PREFACE = /^(?:(?:the\s+)?(?:author['’]s\s+)?(?:preface|introduction|foreword|prologue|prefatory note|to the reader))\.?$/i;

/**
 * Cut a book into its chapters (`CHAPTER I.`, `Chapter 12`, roman numerals,
 * `LETTER 4`…), each packed into passages of about `chunkChars` characters
 * labelled with the chapter (`Chapter 3`, or `Chapter 3, part 2` when the
 * chapter takes several), each chapter's passages starting at its heading.
 * A run of headings with no text between them is a table of contents: front
 * matter, with everything before the first chapter (given to passages by
 * coverBody). A heading with no text of its own before a heading of another
 * kind (`PART I` then `CHAPTER I`) prefixes its label.
 *
 * @returns the passages, or null when fewer than 2 chapters are found
 */
export function cutChapters(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] | null {
  checkArgs("cutChapters", arguments, "key:string text:string chunkChars?:int");
  const { start, end } = bookBody(text);
  const paras = paragraphsOf(text, start, end);
  const kinds = paras.map((p) => (p.lines === 1 ? sectionKind(p.text) : null));
  const kindCount = new Map<string, number>();
  for (const k of kinds) if (k) kindCount.set(k, (kindCount.get(k) ?? 0) + 1);
  const keyword = kinds.map((k, i) => (k && kindCount.get(k)! < 2 && hasWordOrdinal(paras[i]!.text) ? null : k));
  const romans = paras.filter((p) => p.lines === 1 && ROMAN.test(p.text)).length;
  const heads = paras.map((p, i) => keyword[i] ?? (romans >= 3 && p.lines === 1 && ROMAN.test(p.text) ? "roman" : null));
  const idx = heads.flatMap((h, i) => (h ? [i] : []));
  if (idx.length < 2) return null;
  // The first real chapter is the first heading followed by some prose before the next heading.
  const prose = (i: number, j: number) => paras.slice(i + 1, j).reduce((n, p) => n + p.text.length, 0);
  let firstReal = -1;
  for (const [n, i] of idx.entries()) {
    if (prose(i, idx[n + 1] ?? paras.length) >= 200) {
      firstReal = n;
      break;
    }
  }
  if (firstReal < 0) return null;
  // a heading of another kind right above the first chapter (`ACT I` over `SCENE I`) encloses it
  const encloses = (n: number) => idx[n - 1] === idx[n]! - 1 && heads[idx[n - 1]!] !== heads[idx[n]!] && (n < 2 || idx[n - 2] !== idx[n - 1]! - 1);
  if (firstReal > 0 && encloses(firstReal)) firstReal--;
  const out: BookPassage[] = [];
  // the enclosing heading (`ACT II`) and its kind, prefixed to every heading under it until the next of its kind
  let outer = "";
  let outerKind: string | null = null;
  for (let n = firstReal; n < idx.length; n++) {
    const i = idx[n]!;
    const j = idx[n + 1] ?? paras.length;
    const heading = paras[i]!.text.replace(/[.:。：]$/, "").replace(/\s+/g, " ");
    const body = paras.slice(i + 1, j);
    if (heads[i] === outerKind) outer = "";
    if (!body.length) {
      if (heads[idx[n + 1] ?? -1] && heads[idx[n + 1]!] !== heads[i]) {
        outer = heading;
        outerKind = heads[i]!;
      }
      continue;
    }
    const title = outer ? `${outer}, ${heading}` : heading;
    // the heading is the chapter's first words
    const groups = pack(paras.slice(i, j), chunkChars);
    groups.forEach((g, k) => {
      const label = groups.length > 1 ? `${title}, part ${k + 1}` : title;
      out.push(passageOf(key, `${slug(title)}${groups.length > 1 ? `-${k + 1}` : ""}`, label, g));
    });
  }
  return uniqueNames(out, key);
}

/**
 * Cut a book with no structure found into passages of about `chunkChars`
 * characters of whole paragraphs, named and labelled `chunk:0001`…
 */
export function cutParagraphs(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] {
  checkArgs("cutParagraphs", arguments, "key:string text:string chunkChars?:int");
  const { start, end } = bookBody(text);
  return pack(paragraphsOf(text, start, end), chunkChars).map((g, i) => {
    const name = `chunk:${String(i + 1).padStart(4, "0")}`;
    return passageOf(key, name, name, g);
  });
}

/**
 * Cut a book by its own structure. The genre (the key's first part) says
 * where to look first — `diary`/`journal` for dated entries,
 * `scripture`/`bible` for verses, `dictionary`/`glossary` for headwords — and
 * every book falls back to chapters, then to plain paragraph chunks. A book
 * of another genre whose text is verse-numbered or dated is cut as such.
 *
 * @param key `<genre>/<book>`
 * @param text the whole text as read (LF line ends)
 */
export function cutBook(key: string, text: string, chunkChars = CHUNK_CHARS): { structure: BookStructure; passages: BookPassage[] } {
  checkArgs("cutBook", arguments, "key:string text:string chunkChars?:int");
  const genre = key.split("/", 1)[0]!.toLowerCase();
  const tries: Array<[BookStructure, (k: string, t: string, c: number) => BookPassage[] | null]> = [];
  if (/^(?:diary|diaries|journal|letters)$/.test(genre)) tries.push(["diary", cutDiary]);
  if (/^(?:scripture|bible|verse|verses)$/.test(genre)) tries.push(["verses", cutVerses]);
  if (/^(?:dictionary|glossary|lexicon)$/.test(genre)) tries.push(["dictionary", cutDictionary]);
  if (/^(?:poetry|poems|poem|verse)$/.test(genre)) tries.push(["poems", cutPoems]);
  tries.push(["chapters", cutChapters]);
  const body = bookBody(text);
  for (const [structure, cut] of tries) {
    const passages = cut(key, text, chunkChars);
    if (passages?.length) return { structure, passages: coverBody(key, text, body, passages, chunkChars, unitHeading).filter((p) => p.content) };
  }
  return { structure: "paragraphs", passages: coverBody(key, text, body, cutParagraphs(key, text, chunkChars), chunkChars).filter((p) => p.content) };
}

/** A line that heads a unit of some book: a chapter's heading, a diary's year heading, a dictionary's section letter. */
export function unitHeading(line: string): boolean {
  return sectionKind(line) !== null || YEAR_HEADING.test(line) || /^\p{Lu}\.?$/u.test(line);
}
