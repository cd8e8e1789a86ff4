// Books cut by their own structure: the bundled books and the real books in ../shared/data (a diary, the KJV,
// two novels, a dictionary), diaries written here with and without year headings, boilerplate, titles and
// the entries-index override.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  bookBody,
  createEmbeddedCorpus,
  createExtractiveSynthesizer,
  CHUNK_CHARS,
  cutBook,
  cutParagraphs,
  julianToGregorian,
  parseBook,
  readBookMetadata,
  readEntriesIndex,
  runMoot,
  searchTerms,
  type BookPassage,
} from "../../ts/moot/index.js";
import { loadBooks, loadCorpus, MAX_BOOK_BYTES } from "../../ts/moot/corpus-node.js";

const BUNDLED = new URL("../../data/books/", import.meta.url);
const SHARED = new URL("../../../shared/data/books/", import.meta.url);
const read = (dir: URL, file: string) => readFileSync(new URL(file, dir), "utf8");

/** Project Gutenberg's own text, never a passage. */
const BOILERPLATE = /Project Gutenberg|PROJECT GUTENBERG|gutenberg\.(?:org|net)|\*\*\*|START OF TH|END OF TH|Produced by|This eBook is for the use/;
/** Notes of the file's maker (../shared's sources): the book's front matter, kept there and nowhere else. */
const SOURCE_NOTES = /Standard Ebooks|Converted to plain text|bible -f|Debian package|Selected books:/;

function expectNoBoilerplate(passages: readonly BookPassage[]) {
  // (a maker's note in the front matter may name Project Gutenberg as its source; its markers never)
  for (const p of passages) expect(p.content, p.label).not.toMatch(/\*\*\*|START OF TH|END OF TH|Produced by|This eBook is for the use/);
  for (const p of units(passages)) expect(p.content, p.label).not.toMatch(BOILERPLATE);
  for (const p of units(passages)) expect(p.content, p.label).not.toMatch(SOURCE_NOTES);
}

/** The passages after the front matter (the title page, a table of contents). */
function units<T extends { label: string }>(passages: readonly T[]): T[] {
  return passages.filter((p) => p.label !== "Front matter" && p.label !== "CONTENTS");
}

/** Each passage's span in the source holds its content's first and last words. */
function expectSpans(text: string, passages: readonly BookPassage[]) {
  for (const p of passages) {
    // (a verse's reference is in its span, not its content)
    const span = text.slice(p.start, p.end).replace(/^(?:(?:[1-4] )?[A-Z][A-Za-z]+(?: (?:of )?[A-Z][A-Za-z]+)* )?\d{1,3}:\d{1,3}[ \t]+/gm, "").replace(/\s+/g, " ");
    const ws = p.content.replace(/\s+/g, " ").split(" ");
    expect(span.startsWith(ws.slice(0, 3).join(" ")), p.label).toBe(true);
    expect(span.endsWith(ws.slice(-3).join(" ")), p.label).toBe(true);
  }
}

describe("the bundled books, cut by their own structure", () => {
  const books = loadBooks(BUNDLED);
  const byKey = new Map(books.map((b) => [b.key, b]));

  it("Frankenstein: letters then chapters, from the first letter's first words to the last chapter's last", () => {
    const book = byKey.get("novel/frankenstein")!;
    const text = read(BUNDLED, "novel__frankenstein.txt");
    expect(book.structure).toBe("chapters");
    const first = units(book.passages)[0]!;
    const last = book.passages.at(-1)!;
    // the title page and the table of contents are front matter, kept under their headings
    expect(book.passages.slice(0, 2).map((p) => p.label)).toEqual(["Front matter", "CONTENTS"]);
    expect(first.label).toBe("Letter 1, part 1");
    expect(first.content.startsWith("Letter 1\n\n_To Mrs. Saville, England._\n\nSt. Petersburgh, Dec. 11th, 17—.")).toBe(true);
    expect(last.label).toMatch(/^Chapter 24, part \d+$/);
    expect(last.content.endsWith("He was soon borne away by the waves and lost in darkness and distance.")).toBe(true);
    // The table of contents (Letter 1 … Chapter 24 with nothing between) is front matter.
    expect(book.passages.filter((p) => p.label.startsWith("Letter 1,")).every((p) => p.start! >= text.lastIndexOf("Letter 1\n"))).toBe(true);
    const chapters = new Set(units(book.passages).map((p) => p.label.replace(/, part \d+$/, "")));
    expect(chapters.size).toBe(4 + 24);
    expectNoBoilerplate(book.passages);
    expectSpans(text, book.passages);
  });

  it("Pepys: 367 entries labelled as printed, every label's day at the start of its own text", () => {
    const book = byKey.get("diary/pepys-1660")!;
    const text = read(BUNDLED, "diary__pepys-1660.txt");
    expect(book.structure).toBe("diary");
    // the title page, then 367 entries
    expect(book.passages).toHaveLength(1 + 367);
    expect(book.passages[0]!.label).toBe("Front matter");
    expect(book.passages[1]).toMatchObject({ label: "JANUARY 1659–60", name: "entry-january-1659-60" });
    expect(book.passages[1]!.content.startsWith("JANUARY 1659–60\n\nBlessed be God, at the end of the last year")).toBe(true);
    expect(book.passages.at(-1)).toMatchObject({
      label: "DECEMBER 1660: 31st",
      timestamp: "1660-12-31",
      gregorianDate: "1661-01-10",
      name: "entry-1660-12-31",
    });
    expect(book.passages.at(-1)!.content.startsWith("31st. At the office all the morning")).toBe(true);
    for (const p of book.passages.slice(2)) {
      const heading = p.label.split(": ").at(-1)!;
      // a month heading standing above the entry is the entry's first line
      expect(p.content.replace(/^[A-Z]+ \d{4}(?:–\d+)?\n\n/, "").startsWith(heading), p.label).toBe(true);
      expect(p.timestamp, p.label).toMatch(/^16(59|60)-\d\d-\d\d$/);
      expect(Number(p.timestamp!.slice(8)), p.label).toBe(Number(/(\d+)(?:st|nd|rd|th)/.exec(heading)![1]));
    }
    // The issue's case: the King's birthday is the 29th of May as Pepys wrote it, not the converted 8 June.
    const birthday = book.passages.find((p) => p.content.startsWith("29th. The King’s birthday"))!;
    expect(birthday).toMatchObject({ label: "MAY 1660: 29th", timestamp: "1660-05-29", gregorianDate: "1660-06-08" });
    expectNoBoilerplate(book.passages);
    expectSpans(text, book.passages);
  });
});

describe.skipIf(!existsSync(SHARED))("real books in ../shared/data/books (skipped when ../shared is absent)", () => {
  it("Pepys: the entries found in the text are Standard Ebooks' index, offsets and Gregorian dates alike", () => {
    const text = read(SHARED, "diary__pepys-1660.txt");
    const index = JSON.parse(read(SHARED, "diary__pepys-1660.entries.json")).entries as Array<{ offset: number; date: string | null }>;
    const passages = units(cutBook("diary/pepys-1660", text).passages);
    expect(passages).toHaveLength(index.length);
    // each entry starts where the index says, or at the month heading standing above it
    passages.forEach((p, i) => expect(text.slice(p.start, index[i]!.offset), p.label).toMatch(/^[A-Z0-9 –—-]*\s*$/));
    expect(passages.map((p) => p.gregorianDate ?? null)).toEqual(index.map((e) => e.date));
  });

  it("the KJV: verse ranges within a chapter, labelled by book, chapter and verses; no verse numbers, no file header", () => {
    const text = read(SHARED, "scripture__kjv.txt");
    const book = parseBook("scripture/kjv", text);
    expect(book.title).toBe("The Holy Bible, King James Version (Authorized Version, 1611 translation)");
    expect(book.structure).toBe("verses");
    const first = units(book.passages)[0]!;
    expect(first.label).toBe("Genesis 1:1–10");
    expect(first.content.split("\n")[0]).toBe("In the beginning God created the heaven and the earth.");
    const last = book.passages.at(-1)!;
    expect(last.label).toMatch(/^Revelation 22:\d+–21$/);
    expect(last.content.endsWith("The grace of our Lord Jesus Christ be with you all. Amen.")).toBe(true);
    for (const p of units(book.passages)) {
      expect(p.content, p.label).not.toMatch(/\b\d{1,3}:\d{1,3}\b/);
      expect(p.label, p.label).toMatch(/^(?:[1-3] )?[A-Z][a-z]+(?: [A-Z][a-z]+)* \d+:\d+(–\d+)?$/);
    }
    // John 3:16 is found under its own label.
    const john = book.passages.find((p) => p.content.includes("For God so loved the world"))!;
    expect(john.label).toMatch(/^John 3:\d+–\d+$/);
    const [from, to] = john.label.split(":")[1]!.split("–").map(Number);
    expect(from! <= 16 && 16 <= to!).toBe(true);
    expectNoBoilerplate(book.passages);
    expectSpans(text, book.passages);
  });

  it("Pride and Prejudice: the title page as front matter, 61 chapters, licence left out", () => {
    const text = read(SHARED, "novel__pride-and-prejudice.txt");
    const book = parseBook("novel/pride-and-prejudice", text);
    expect(book).toMatchObject({ title: "Pride and Prejudice", author: "Jane Austen", structure: "chapters" });
    expect(book.passages[0]!.label).toBe("Front matter");
    expect(book.passages[1]!.label).toBe("Chapter 1, part 1");
    expect(book.passages[1]!.content.startsWith("Chapter 1\n\nIt is a truth universally acknowledged, that a single man in possession")).toBe(true);
    expect(book.passages.at(-1)!.label).toMatch(/^Chapter 61, part \d+$/);
    expect(book.passages.at(-1)!.content.endsWith("had been the means of uniting them.")).toBe(true);
    expect(new Set(units(book.passages).map((p) => p.label.replace(/, part \d+$/, ""))).size).toBe(61);
    expectNoBoilerplate(book.passages);
    expectSpans(text, book.passages);
  });

  it("The Devil's Dictionary: the author's preface, then runs of headwords", () => {
    const text = read(SHARED, "dictionary__devils-dictionary.txt");
    const book = parseBook("dictionary/devils-dictionary", text);
    expect(book.structure).toBe("dictionary");
    expect(book.passages.slice(0, 2).map((p) => p.label)).toEqual(["Front matter", "AUTHOR'S PREFACE, part 1"]);
    expect(book.passages.find((p) => p.label.startsWith("ABASEMENT"))!.content.startsWith("A\n\nABASEMENT, n.  A decent and customary")).toBe(true);
    expect(book.passages.at(-1)!.label).toBe("ZOOLOGY");
    expectNoBoilerplate(book.passages);
    expectSpans(text, book.passages);
  });
});

/** A diary written here: a year heading, month names on some entries, a weekday heading, no index. */
const DIARY = `My Little Diary
Kept by A. Walker

1854

January 1st. Snow all day, and the lane closed by noon.

2nd. Walked to the mill; the wheel was frozen fast.

Sunday 8th. Church in the morning, and a long sermon on patience.

FEBRUARY 3.—The thaw at last; water in every ditch.

March 4, 1855. A year on, and the same lane flooded again.

1st. A line whose day goes back with no month printed.
`;

describe("a diary with no entries index", () => {
  it("entries come from the dated headings, with the year carried from the heading above or printed on the entry", () => {
    const book = parseBook("diary/walker", DIARY);
    expect(book.structure).toBe("diary");
    expect(book.title).toBe("My Little Diary");
    expect(book.passages.map((p) => [p.label, p.timestamp ?? null])).toEqual([
      ["Front matter", null],
      ["1854: January 1st", "1854-01-01"],
      ["1854: 2nd", "1854-01-02"],
      ["1854: Sunday 8th", "1854-01-08"],
      ["1854: FEBRUARY 3", "1854-02-03"],
      ["March 4, 1855", "1855-03-04"],
      // The day goes backwards with no new month printed: no date is guessed.
      ["1854: 1st", null],
    ]);
    expect(book.passages.every((p) => p.gregorianDate === undefined)).toBe(true);
    expect(book.passages[4]!.content).toBe("FEBRUARY 3.—The thaw at last; water in every ditch.");
  });

  it("without any year printed, entries keep their printed labels and no timestamp", () => {
    const book = parseBook("diary/undated", "April 3. Rain.\n\n4th. More rain.\n\n5th. Sun at last.\n");
    expect(book.passages.map((p) => [p.label, p.timestamp ?? null])).toEqual([
      ["April 3", null],
      ["4th", null],
      ["5th", null],
    ]);
  });

  it("a dual year (1659–60) marks Old Style dates: printed day kept, the Gregorian conversion beside it", () => {
    expect(julianToGregorian(1660, 0, 1)).toBe("1660-01-11");
    expect(julianToGregorian(1660, 4, 29)).toBe("1660-06-08");
    expect(julianToGregorian(1752, 8, 2)).toBe("1752-09-13");
    const book = parseBook("diary/old", "MARCH 1659–60\n\n1st. A cold morning.\n\n2nd. Colder.\n\n3rd. Snow.\n");
    expect(book.passages.map((p) => [p.label, p.timestamp, p.gregorianDate])).toEqual([
      ["MARCH 1659–60: 1st", "1660-03-01", "1660-03-11"],
      ["MARCH 1659–60: 2nd", "1660-03-02", "1660-03-12"],
      ["MARCH 1659–60: 3rd", "1660-03-03", "1660-03-13"],
    ]);
  });
});

const PG_HEADER = `The Project Gutenberg EBook of A Walker's Diary, by A. Walker

This eBook is for the use of anyone anywhere at no cost and with
almost no restrictions whatsoever.

Title: A Walker's Diary

Author: A. Walker

*** START OF THIS PROJECT GUTENBERG EBOOK A WALKER'S DIARY ***




Produced by Volunteers at the Online Distributed Proofreading Team


`;
const PG_FOOTER = `



End of the Project Gutenberg EBook of A Walker's Diary, by A. Walker

*** END OF THIS PROJECT GUTENBERG EBOOK A WALKER'S DIARY ***

***** This file should be named 99999.txt or 99999.zip *****

Updating the public domain print editions means that no one owns a
United States copyright in these works.

*** START: FULL LICENSE ***

THE FULL PROJECT GUTENBERG LICENSE
PLEASE READ THIS BEFORE YOU DISTRIBUTE OR USE THIS WORK
`;

describe("boilerplate is never a passage", () => {
  it("a diary whose last entry is followed by the Gutenberg footer and licence ends with that entry's last sentence", () => {
    const text = PG_HEADER + DIARY.split("\n").slice(3).join("\n") + PG_FOOTER;
    const book = parseBook("diary/walker", text);
    expect(book).toMatchObject({ title: "A Walker's Diary", author: "A. Walker" });
    expect(book.passages.at(-1)!.content).toBe("1st. A line whose day goes back with no month printed.");
    expectNoBoilerplate(book.passages);
  });

  it("with a hand-made entries index too: the last entry stops where the book's own text ends", () => {
    const text = PG_HEADER + DIARY.split("\n").slice(3).join("\n") + PG_FOOTER;
    const offsets = [text.indexOf("January 1st."), text.indexOf("2nd."), text.indexOf("1st. A line")];
    const book = parseBook("diary/walker", text, offsets.map((offset, i) => ({ offset, date: i < 2 ? `1854-01-0${i + 1}` : null })));
    expect(book.structure).toBe("index");
    expect(book.passages.map((p) => p.label)).toEqual(["1854-01-01", "1854-01-02", "entry-3"]);
    expect(book.passages.at(-1)!.content).toBe("1st. A line whose day goes back with no month printed.");
    expectNoBoilerplate(book.passages);
  });

  it("the licence is cut even when only its own heading marks it", () => {
    const text = `Chapter 1\n\n${"A line of the story. ".repeat(20)}\n\nChapter 2\n\n${"More of the story. ".repeat(20)}\n\n*** START: FULL LICENSE ***\n\nTHE FULL PROJECT GUTENBERG LICENSE\n`;
    expect(text.slice(bookBody(text).end).trimStart().startsWith("*** START: FULL LICENSE ***")).toBe(true);
    expect(parseBook("novel/story", text).passages.at(-1)!.content.endsWith("More of the story.")).toBe(true);
  });
});

describe("chapters in other languages and scripts", () => {
  /** A book of `heads.length` chapters, each a heading line then two paragraphs of `prose`. */
  const book = (title: string, heads: string[], prose: (n: number) => string) =>
    [`Title: ${title}`, "", "*** START OF THE PROJECT GUTENBERG EBOOK ***", "", title, "",
      ...heads.flatMap((h, n) => [h, "", prose(n + 1), "", prose(n + 1), ""]),
      "*** END OF THE PROJECT GUTENBERG EBOOK ***", "", "Licence text that is never a passage.", ""].join("\n");
  const RU = (n: number) => `Утро ${n}-го дня было холодным и ясным, и вся деревня ещё спала, когда старый мельник вышел на дорогу. Он долго смотрел на реку, на туман над водой, на тёмный лес за полем, и думал о том, что зима придёт рано в этом году.`;
  const FR = (n: number) => `Le matin du jour ${n}, la ville dormait encore lorsque le vieux meunier sortit sur la route. Il regarda longtemps la rivière, la brume sur l'eau, la forêt sombre au-delà des champs, et pensa que l'hiver viendrait tôt cette année.`;
  const DE = (n: number) => `Am Morgen des ${n}. Tages schlief das Dorf noch, als der alte Müller auf die Straße trat. Er sah lange auf den Fluss, auf den Nebel über dem Wasser, auf den dunklen Wald hinter dem Feld, und dachte, dass der Winter in diesem Jahr früh kommen werde.`;
  const ZH = (n: number) => `第${n}日清晨，村子还在沉睡，老磨坊主走到路上。他久久地望着河水，望着水面上的雾，望着田野那边黑暗的树林，心想今年冬天会来得很早。他回到屋里，生起了火，坐在窗前，等着天亮，听着远处的钟声一下一下地响着，直到太阳从山后升起来。`;

  it("Russian `Глава 1.` headings cut a novel into labelled chapters, licence left out", () => {
    const b = parseBook("novel/melnik", book("Мельник", ["Глава 1. Утро", "Глава 2. Река", "ГЛАВА 3"], RU));
    expect(b.structure).toBe("chapters");
    expect(units(b.passages).map((p) => p.label)).toEqual(["Глава 1. Утро", "Глава 2. Река", "ГЛАВА 3"]);
    // the title line above the first chapter is front matter
    expect(b.passages[0]).toMatchObject({ label: "Front matter", content: "Мельник" });
    expect(b.passages[1]!.name).toBe("глава-1-утро");
    expect(b.passages[2]!.content.startsWith("Глава 2. Река\n\nУтро 2-го дня")).toBe(true);
    expect(b.passages.some((p) => p.content.includes("Licence"))).toBe(false);
  });

  it("French `Chapitre premier` and Spanish `Capítulo II` headings, accents dropped from the name only", () => {
    const fr = parseBook("novel/meunier", book("Le Meunier", ["Chapitre premier", "Chapitre II", "Chapitre III"], FR));
    expect(units(fr.passages).map((p) => p.label)).toEqual(["Chapitre premier", "Chapitre II", "Chapitre III"]);
    const es = parseBook("novel/molinero", book("El Molinero", ["Capítulo I", "Capítulo II"], FR));
    expect(units(es.passages).map((p) => [p.name, p.label])).toEqual([["capitulo-i", "Capítulo I"], ["capitulo-ii", "Capítulo II"]]);
  });

  it("German headings with the ordinal first (`Erstes Kapitel`) and after (`Kapitel 3`)", () => {
    const b = parseBook("novel/mueller", book("Der Müller", ["Erstes Kapitel", "Zweites Kapitel", "Kapitel 3"], DE));
    expect(b.structure).toBe("chapters");
    expect(units(b.passages).map((p) => p.label)).toEqual(["Erstes Kapitel", "Zweites Kapitel", "Kapitel 3"]);
  });

  it("Chinese `第一回` / Japanese `第一章` headings, with and without a title after them", () => {
    const b = parseBook("novel/mofang", book("磨坊", ["第一回　清晨", "第二回", "第三回 河水"], ZH));
    expect(b.structure).toBe("chapters");
    expect(units(b.passages).map((p) => p.label)).toEqual(["第一回 清晨", "第二回", "第三回 河水"]);
    expect(b.passages[3]!.content.startsWith("第三回 河水\n\n第3日清晨")).toBe(true);
    const ja = parseBook("novel/suisha", book("水車", ["第一章", "第二章"], ZH));
    expect(units(ja.passages).map((p) => p.label)).toEqual(["第一章", "第二章"]);
  });

  it("a moot of two Chinese books with no topic retrieves and quotes from both (terms cut by word segmentation)", async () => {
    const SEA = (n: number) => `第${n}夜，海上起了大风，船长站在甲板上，看着黑色的海浪。水手们都害怕了，可是他没有说话。他想起了家乡的河水和磨坊，想起了母亲在火边讲的故事。天快亮的时候，风停了，海面上一片安静，只有海鸟在船边飞来飞去，叫个不停。`;
    const corpus = createEmbeddedCorpus([
      parseBook("novel/mofang", book("磨坊", ["第一章", "第二章", "第三章"], ZH)),
      parseBook("novel/chuanzhang", book("船长", ["第一章", "第二章", "第三章"], SEA)),
    ]);
    expect(corpus.book("novel/chuanzhang")!.structure).toBe("chapters");
    const transcript = await runMoot(corpus, createExtractiveSynthesizer(), ["novel/mofang", "novel/chuanzhang"], null, 4);
    for (const u of transcript.utterances) {
      expect(u.retrieved.length, `turn ${u.turn}`).toBeGreaterThan(0);
      const own = u.quotes.filter((q) => q.source === "own");
      expect(own.length, `turn ${u.turn}`).toBeGreaterThan(0);
      expect(own.every((q) => q.found)).toBe(true);
    }
    const terms = searchTerms("老磨坊主走到路上。He said: no.");
    expect(terms.length).toBeGreaterThan(3);
    expect(terms.slice(-3)).toEqual(["He", "said", "no"]);
    expect(terms.slice(0, -3).join("")).toBe("老磨坊主走到路上");
  });

  it("a one-line paragraph whose second word is a word, not a numeral, heads nothing unless its section word heads another line too", () => {
    // `Del` (Norwegian "part"), `Brief` (German "letter"), `Act`: section words that open English one-liners
    const EN = (n: number) => `On the morning of day ${n} the village was still asleep when the old miller stepped out onto the road. He looked for a long time at the river, at the mist over the water, at the dark wood beyond the field, and thought that winter would come early this year.`;
    const prose = parseBook("novel/miller", book("The Miller", ["Del Rio", "Brief pause.", "Act now."], EN));
    expect(prose.structure).toBe("paragraphs");
    const chapters = parseBook("novel/miller", book("The Miller", ["Chapter 1", "Del Rio", "Chapter 2", "Chapter the Last"], EN));
    expect(units(chapters.passages).map((p) => p.label)).toEqual(["Chapter 1", "Chapter 2", "Chapter the Last"]);
    expect(units(chapters.passages)[0]!.content).toContain("\n\nDel Rio\n\n");
    const parts = parseBook("novel/miller", book("The Miller", ["Part One", "Part Two"], EN));
    expect(units(parts.passages).map((p) => p.label)).toEqual(["Part One", "Part Two"]);
  });

  it("a one-line paragraph in lower case is prose, not a heading", () => {
    const b = parseBook("novel/plain", book("Plain", ["глава 1", "chapitre deux"], RU));
    expect(b.structure).toBe("paragraphs");
  });
});

describe("title and author, whole", () => {
  it.each([
    [
      "Project Gutenberg's The Holy Bible, King James Version (Authorized Version), by Anonymous\n\nText.",
      { title: "The Holy Bible, King James Version (Authorized Version)", author: "Anonymous" },
    ],
    [
      "The Holy Bible, King James Version (Authorized Version, 1611 translation)\nSelected books\n",
      { title: "The Holy Bible, King James Version (Authorized Version, 1611 translation)", author: "" },
    ],
    [
      "The Project Gutenberg EBook of Frankenstein; or, The Modern Prometheus, by Mary Shelley\n",
      { title: "Frankenstein; or, The Modern Prometheus", author: "Mary Shelley" },
    ],
    ["The Diary of Samuel Pepys, January 1659-60 to December 1660\n", { title: "The Diary of Samuel Pepys", author: "Samuel Pepys" }],
    ["Title: Frankenstein\n       or The Modern Prometheus\n\nAuthor: Mary Shelley\n", { title: "Frankenstein, or The Modern Prometheus", author: "Mary Shelley" }],
    // no title line: the book opens with its structure, which is not its title
    ["CHAPTER I.\n\nThe cafe was full that evening.\n", { title: "", author: "" }],
    ["1854\n\nJanuary 1st. Went walking in the snow.\n", { title: "", author: "" }],
    ["January 1st. Went walking in the snow.\n", { title: "", author: "" }],
    ["IV.\n\nText.\n", { title: "", author: "" }],
    // a section word without a numeral is a title
    ["Book of Mormon\n\nText.\n", { title: "Book of Mormon", author: "" }],
    // a first line longer than a title line is prose (a one-line book), not a title
    [`${"word ".repeat(2000)}\n`, { title: "", author: "" }],
    [`${"A Long Title ".repeat(23)}\n\nText.\n`, { title: "A Long Title ".repeat(23).trim(), author: "" }],
  ])("%j", (text, expected) => {
    expect(readBookMetadata(text)).toEqual(expected);
  });

  it("a dropped-in book with no title line is titled by its key's book part, not by its first heading", () => {
    expect(parseBook("novel/story", "CHAPTER I.\n\nAnother story about rivers, boats and the sea.\n").title).toBe("story");
  });
});

describe("the entries-index override", () => {
  it("a JSON array instead of the documented object is a one-line error naming the file and the shape", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-entries-"));
    writeFileSync(join(dir, "diary__walker.txt"), DIARY);
    writeFileSync(join(dir, "diary__walker.entries.json"), JSON.stringify([{ offset: 0 }]));
    expect(() => loadBooks(dir)).toThrow(/diary__walker\.entries\.json: expected \{"entries": \[\{"offset": <UTF-16 index>.*\}, got an array$/);
    try {
      loadBooks(dir);
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("each entry is checked: offsets inside the text, dates as YYYY-MM-DD", () => {
    expect(() => readEntriesIndex({ entries: [{ offset: 99 }] }, 10, "x.json")).toThrow(
      'x.json: entries[0].offset must be an integer from 0 to 10 (the text\'s length in UTF-16 code units), got 99',
    );
    expect(() => readEntriesIndex({ entries: [{ offset: 1, date: "29 May" }] }, 10, "x.json")).toThrow('x.json: entries[0].date must be "YYYY-MM-DD" or null, got "29 May"');
    expect(() => readEntriesIndex({ items: [] }, 10, "x.json")).toThrow(/got an object without an "entries" array$/);
    expect(readEntriesIndex({ entries: [{ offset: 3, label: "x" }] }, 10)).toEqual([{ offset: 3, label: "x" }]);
  });

  it("a valid index overrides the structure found in the text", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-entries-"));
    writeFileSync(join(dir, "diary__walker.txt"), DIARY);
    const at = DIARY.indexOf("2nd.");
    writeFileSync(join(dir, "diary__walker.entries.json"), JSON.stringify({ entries: [{ offset: at, id: "two", label: "the second", date: "1854-01-02" }] }));
    const [book] = loadBooks(dir);
    expect(book!.structure).toBe("index");
    // the text before the index's first entry is front matter: every word is in a passage
    expect(book!.passages[0]).toMatchObject({ label: "Front matter" });
    expect(book!.passages[0]!.content).toContain("January 1st. Snow all day");
    expect(book!.passages[1]).toMatchObject({ name: "two", label: "the second", timestamp: "1854-01-02" });
    expect(book!.passages[1]!.content.startsWith("2nd. Walked to the mill")).toBe(true);
  });
});

describe("the corpus folder and its book files", () => {
  it("a file given as the folder, a folder named like a book, and a Latin-1 book: one line naming what is wrong", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    const file = join(dir, "novel__plain.txt");
    writeFileSync(file, "CHAPTER I.\n\nIt was a plain tale, told plainly.\n");
    expect(() => loadBooks(file)).toThrow(`corpus folder ${file} is not a folder`);
    expect(() => loadBooks(join(dir, "missing"))).toThrow(`corpus folder ${join(dir, "missing")} does not exist`);

    const latin = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    // "café" in ISO-8859-1: 0xE9 is not UTF-8, and decoding it leniently would put U+FFFD in quotes
    writeFileSync(join(latin, "novel__latin.txt"), Buffer.from([...Buffer.from("The caf"), 0xe9, ...Buffer.from(" was full.\n")]));
    expect(() => loadBooks(latin)).toThrow(`${join(latin, "novel__latin.txt")}: not UTF-8 text (convert it first, e.g. iconv -f latin1 -t utf-8)`);

    // UTF-16 with a BOM (the Latin-1 advice would garble it) and without one (valid UTF-8, a NUL after every letter)
    for (const [name, bytes] of [
      ["bom", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("CHAPTER I.\n\nIt was dark.\n", "utf16le")])],
      ["bombe", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("CHAPTER I.\n\nIt was dark.\n", "utf16le").swap16()])],
      ["nobom", Buffer.from("CHAPTER I.\n\nIt was dark.\n", "utf16le")],
    ] as const) {
      const wide = mkdtempSync(join(tmpdir(), "gw-corpus-"));
      writeFileSync(join(wide, `novel__${name}.txt`), bytes);
      expect(() => loadBooks(wide)).toThrow(`${join(wide, `novel__${name}.txt`)}: UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)`);
    }

    // a book over the size cap is refused by its size, before it is read (a sparse file: no disk used)
    const huge = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    writeFileSync(join(huge, "novel__huge.txt"), "");
    truncateSync(join(huge, "novel__huge.txt"), MAX_BOOK_BYTES + 1);
    expect(() => loadBooks(huge)).toThrow(`${join(huge, "novel__huge.txt")}: 67,108,865 bytes, over the 64 MiB a book may hold`);

    // an empty book, and one that is only Project Gutenberg's end matter: nothing a moot could quote
    for (const text of ["", "\n\n", "*** END OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***\n\nUpdated editions will replace the previous one.\n"]) {
      const bare = mkdtempSync(join(tmpdir(), "gw-corpus-"));
      writeFileSync(join(bare, "novel__bare.txt"), text);
      expect(() => loadBooks(bare)).toThrow(`${join(bare, "novel__bare.txt")}: no passage of text (the file is empty or only front matter and licence)`);
    }

    const folder = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    mkdirSync(join(folder, "novel__odd.txt"));
    expect(() => loadBooks(folder)).toThrow(`${join(folder, "novel__odd.txt")}: not a regular file`);
  });

  it("a .txt meant as a book (named with __) whose name is not a key is refused by name, not silently left out", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    writeFileSync(join(dir, "novel__plain.txt"), "CHAPTER I.\n\nIt was a plain tale, told plainly.\n");
    writeFileSync(join(dir, "README.txt"), "not a book: no __ in the name, skipped\n");
    expect(loadBooks(dir).map((b) => b.key)).toEqual(["novel/plain"]);
    writeFileSync(join(dir, "novel__café.txt"), "CHAPTER I.\n\nThe café was full.\n");
    expect(() => loadBooks(dir)).toThrow(
      `${join(dir, "novel__café.txt")}: a book file is named <genre>__<book>.txt with ASCII letters, digits and - (the book part also . and _), e.g. novel__cafe-society.txt`,
    );
  });

  it("UTF-8 with a byte-order mark still reads, the mark dropped", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    writeFileSync(join(dir, "novel__bom.txt"), "\uFEFFThe Title\n\nCHAPTER I.\n\nA café by the river, and nobody in it.\n");
    const [book] = loadBooks(dir);
    expect(book!.passages.map((p) => p.content).join(" ")).toContain("A café by the river");
    expect(book!.passages.some((p) => p.content.includes("\uFFFD") || p.content.includes("\uFEFF"))).toBe(false);
  });
});

describe("the offline synthesizer's rolling summary moves through the moot", () => {
  it("the summaries before turns 5, 9 and 13 all differ, each naming the latest turns", async () => {
    const corpus = loadCorpus(BUNDLED);
    const transcript = await runMoot(corpus, createExtractiveSynthesizer(), ["novel/frankenstein", "diary/pepys-1660"], "fire and ruin", 13);
    const summaries = transcript.summaries;
    expect(summaries.map((s) => s.beforeTurn)).toEqual([5, 9, 13]);
    expect(new Set(summaries.map((s) => s.text)).size).toBe(3);
    for (const s of summaries) {
      expect(s.text.split(/\s+/).length).toBeLessThanOrEqual(80);
      // The turn just before the summary is in it: its first phrase quoted from its own book (tagged
      // [sN]; the [oN] echo of the other book's words comes first in a reply), as the summarizer quotes it.
      const last = transcript.utterances[s.beforeTurn - 2]!;
      const phrase = /"([^"]+)"\s*\[s\d+\]/.exec(last.text)![1]!.split(/\s+/).slice(0, 4).join(" ");
      expect(s.text).toContain(phrase);
    }
  });
});

/** Where a reader looks for a label in the book's text: the heading, verse reference or headword it names. */
function anchorsOf(label: string): string[] {
  // the book's opening (title page, notes) before its first heading: found by opening the book
  if (/^Front matter(?:, part \d+)?$/.test(label)) return [];
  const diary = /^(.+?): (.+)$/.exec(label);
  if (diary) return [`\n${diary[1]}\n`, `\n${diary[2]}`];
  const verse = /^(.+ \d+):(\d+)/.exec(label);
  if (verse) return [`${verse[1]}:${verse[2]} `];
  const chapter = /^(.+?)(?:, part \d+)?$/.exec(label)!;
  if (/^[A-Z][A-Z' -]+( – [A-Z][A-Z' -]+)?$/.test(label)) return [`\n${label.split(" – ")[0]}`];
  return [`\n${chapter[1]}\n`];
}

describe("a moot cites labels a reader can find in the book, and quotes no boilerplate", () => {
  const pairs: Array<[URL, string, string]> = [[BUNDLED, "novel/frankenstein", "diary/pepys-1660"]];
  if (existsSync(SHARED)) pairs.push([SHARED, "scripture/kjv", "dictionary/devils-dictionary"], [SHARED, "novel/pride-and-prejudice", "diary/pepys-1660"]);
  it.each(pairs)("%s: %s and %s", async (dir, a, b) => {
    // Each book cut from its own text (../shared also holds an entries index for Pepys, with converted dates).
    const corpus = createEmbeddedCorpus([a, b].map((k) => parseBook(k, read(dir, `${k.replace("/", "__")}.txt`))));
    const transcript = await runMoot(corpus, createExtractiveSynthesizer(), [a, b], "the law and the heart", 4);
    let cited = 0;
    for (const u of transcript.utterances) {
      const text = read(dir, `${u.speaker.replace("/", "__")}.txt`);
      for (const [tag, nodeId] of Object.entries(u.cited)) {
        const cites = u.retrieved.find((r) => r.tag === tag)!.label;
        const passage = corpus.book(u.speaker)!.passages.find((p) => p.node_id === nodeId)!;
        // a dated diary entry is cited by its date (passagesFromHits, as the seed does): that date is
        // the entry's, and the label the book prints for it is what a reader finds
        if (passage.timestamp) expect(cites).toBe(String(passage.timestamp).split("T", 1)[0]);
        const label = passage.timestamp ? passage.label : cites;
        for (const anchor of anchorsOf(label)) expect(text, `${label} (${anchor.trim()})`).toContain(anchor);
        expect(passage.label).toBe(label);
        cited++;
      }
      for (const q of u.quotes) expect(q.text).not.toMatch(BOILERPLATE);
    }
    expect(cited).toBeGreaterThanOrEqual(4);
  });
});

describe("a paragraph with no sentence end that fits a passage", () => {
  it("a one-line unpunctuated book, a long run of one word and a Chinese paragraph are cut into passages of at most CHUNK_CHARS, each its own span", () => {
    const line = Array.from({ length: 20_000 }, (_, i) => `word${i % 997}`).join(" ");
    const long = "x".repeat(5_000);
    // 。 ends a sentence in Chinese as . does in English
    const chinese = "我今天很高兴，因为天气很好。".repeat(400);
    for (const text of [line, `${line}\n`, long, chinese]) {
      const passages = cutParagraphs("novel/one-line", text);
      expect(passages.length).toBeGreaterThan(1);
      for (const p of passages) {
        expect(p.content.length).toBeLessThanOrEqual(CHUNK_CHARS);
        expect(text.slice(p.start, p.end)).toBe(p.content);
      }
      expect(passages.map((p) => p.content).join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
    }
    const words = cutParagraphs("novel/one-line", line);
    // cut between words, not inside one
    for (const p of words) expect(p.content).toMatch(/^word\d+( word\d+)*$/);
    expect(cutParagraphs("novel/one-line", chinese)[0]!.content.endsWith("。")).toBe(true);
  });
});
