// Every word of a book's body is in a passage, under a label unique in its book, at offsets into
// the .txt file as given: over every book there is (the test books in test/fixtures/books, the
// bundled data/books and ../shared/data/books when present), and each rule on a case of its own.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookBody, bookKeyFromFileName, createQuoteIndex, cutBook, loadBooks, parseBook, type Book } from "../../ts/node.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/books", import.meta.url));
const BUNDLED = fileURLToPath(new URL("../../data/books", import.meta.url));
const SHARED = fileURLToPath(new URL("../../../shared/data/books", import.meta.url));
const DIRS = [FIXTURES, BUNDLED, ...(existsSync(SHARED) ? [SHARED] : [])];
const VERSE_REFERENCE = /^(?:((?:[1-4] )?[A-Z][A-Za-z]+(?: (?:of )?[A-Z][A-Za-z]+)*) )?(\d{1,3}):(\d{1,3})[ \t]+/gm;

const books: Array<{ dir: string; text: string; book: Book }> = DIRS.flatMap((dir) =>
  loadBooks(dir).map((book) => ({ dir, book, text: readFileSync(join(dir, `${book.key.replace("/", "__")}.txt`), "utf8") })),
);
const squeeze = (s: string) => s.replace(/\s+/g, "");

describe("every word of the body, in order, in exactly one passage", () => {
  it.each(books.map((b) => [`${b.book.key} (${b.dir.split("/").slice(-3).join("/")})`, b] as const))("%s", (_, { text, book }) => {
    const { start, end } = bookBody(text);
    const verses = book.structure === "verses";
    const body = text.slice(start, end);
    const joined = book.passages.map((p) => p.content).join("\n\n");
    // the passages' text joined is the body, whitespace aside (verse references are structure)
    const want = squeeze(verses ? body.replace(VERSE_REFERENCE, "") : body);
    const got = squeeze(joined);
    let d = 0;
    while (d < want.length && want[d] === got[d]) d++;
    expect(got.slice(d - 40, d + 80)).toBe(want.slice(d - 40, d + 80));
    expect(got.length).toBe(want.length);
    // spans in reading order, not overlapping, inside the body, each holding its content
    let at = start;
    for (const p of book.passages) {
      expect(p.start!, p.label).toBeGreaterThanOrEqual(at);
      expect(p.end!, p.label).toBeLessThanOrEqual(end);
      const span = text.slice(p.start, p.end);
      expect(squeeze(verses ? span.replace(VERSE_REFERENCE, "") : span), p.label).toBe(squeeze(p.content));
      at = p.end!;
    }
    // the searchable text is in the file's offsets: the same characters wherever a passage is
    expect(book.text!.length).toBe(book.passages.at(-1)!.end);
    for (const p of book.passages.filter((_, i) => i % 7 === 0)) {
      if (!verses) expect(book.text!.slice(p.start, p.end), p.label).toBe(text.slice(p.start, p.end));
    }
  });
});

describe("labels: one place each, written one way", () => {
  it.each(books.map((b) => [b.book.key, b] as const))("%s", (_, { book }) => {
    const labels = book.passages.map((p) => p.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const l of labels) expect(l, l).toMatch(/^\S(?:.*[^\s.,;:—–-])?$/);
    expect(new Set(book.passages.map((p) => p.name)).size).toBe(labels.length);
  });

  it("a label that would still repeat is `<label> (n)` from its second passage on, in reading order", () => {
    const poems = books.find((b) => b.book.key === "poetry/lamps-along-the-quay")!.book;
    expect(poems.passages.filter((p) => p.label.startsWith("THE FOG")).map((p) => [p.label, p.name])).toEqual([
      ["THE FOG", "the-fog"],
      ["THE FOG (2)", "the-fog-2"],
    ]);
  });
});

/** label → first words of content, for the test books. */
const shape = (key: string) => books.find((b) => b.book.key === key)!.book.passages.map((p) => [p.label, p.content.split(/\s+/).slice(0, 4).join(" ")]);

describe("each shape of book, cut as a reader finds it", () => {
  it("a diary in chapters over two years: introduction, chapters with their synopses, entries labelled by chapter and date, years where printed", () => {
    const diary = books.find((b) => b.book.key === "diary/the-lodger")!.book;
    expect(diary.structure).toBe("diary");
    expect(shape("diary/the-lodger")).toEqual([
      ["Front matter", "THE LODGER'S ACCOUNT BY"],
      ["INTRODUCTION", "INTRODUCTION Mr. Tilley kept"],
      ["CHAPTER I", "CHAPTER I I take"],
      ["CHAPTER I, April 3", "April 3. -- Moved"],
      ["CHAPTER I, April 8, Sunday", "April 8, Sunday. --"],
      ["CHAPTER I, April 9", "April 9. -- The"],
      ["CHAPTER I, April 14", "April 14. -- Bought"],
      ["CHAPTER II", "CHAPTER II The umbrella"],
      ["CHAPTER II, April 20", "April 20. -- Found"],
      ["CHAPTER II, April 29", "April 29. -- A"],
      ["CHAPTER II, May 10", "May 10. -- The"],
      ["CHAPTER III", "CHAPTER III A winter."],
      ["CHAPTER III, December 25", "December 25. -- Dined"],
      ["CHAPTER III, 1889: January 1", "1889 January 1. --"],
      ["CHAPTER III, 1889: January 14", "January 14. -- The"],
      ["CHAPTER III, 1889: March 2", "March 2. -- The"],
      ["CHAPTER IV", "CHAPTER IV A second"],
      ["CHAPTER IV, 1889: April 8, Sunday", "April 8, Sunday. --"],
      ["CHAPTER IV, 1889: April 9", "April 9. -- The"],
      ["CHAPTER IV, 1889: May 10", "May 10. -- The"],
    ]);
    // the opening of chapter 1 before its first entry is the chapter's, the letter stays in its entry
    expect(diary.passages[2]!.content).toContain("A man who owns his own umbrella stand has nothing to fear from the world.");
    expect(diary.passages.find((p) => p.label === "CHAPTER II, April 29")!.content).toMatch(/Dear Ambrose[\s\S]*I have not answered it\.$/);
    // the synopsis is not glued to the entry before it
    expect(diary.passages.find((p) => p.label === "CHAPTER I, April 14")!.content).not.toContain("umbrella stand is moved");
    expect(diary.passages.filter((p) => p.timestamp).map((p) => p.timestamp)).toEqual(["1889-01-01", "1889-01-14", "1889-03-02", "1889-04-08", "1889-04-09", "1889-05-10"]);
  });

  it("a play: dramatis personae, then scenes labelled with their act, speaker turns whole", () => {
    expect(shape("play/the-harbour-master")).toEqual([
      ["Front matter", "THE HARBOUR MASTER A"],
      ["DRAMATIS PERSONAE", "DRAMATIS PERSONAE CAPTAIN ROOKE,"],
      ["ACT I, SCENE I. The harbour office. Morning", "ACT I SCENE I."],
      ["ACT I, SCENE II. The quay. The same morning", "SCENE II. The quay."],
      ["ACT II, SCENE I. The harbour office. Evening", "ACT II SCENE I."],
    ]);
  });

  it("a book of verse: a note to the reader, then one passage per poem under its title", () => {
    expect(shape("poetry/lamps-along-the-quay")).toEqual([
      ["Front matter", "LAMPS ALONG THE QUAY"],
      ["TO THE READER", "TO THE READER These"],
      ["THE FIRST LAMP", "THE FIRST LAMP A"],
      ["THE FOG", "THE FOG It came"],
      ["A SONG FOR THE NIGHT FERRY", "A SONG FOR THE"],
      ["THE FOG (2)", "THE FOG A second"],
    ]);
  });

  it("a file with no Gutenberg markers: the whole file is the body, title page and preface kept", () => {
    const { text } = books.find((b) => b.book.key === "novel/the-tin-compass")!;
    expect(bookBody(text)).toEqual({ start: 0, end: text.trimEnd().length });
    expect(shape("novel/the-tin-compass")).toEqual([
      ["Front matter", "THE TIN COMPASS A"],
      ["PREFACE", "PREFACE This story was"],
      ["CHAPTER I", "CHAPTER I. The compass"],
      ["CHAPTER II", "CHAPTER II. In the"],
    ]);
  });
});

describe("Project Gutenberg's header and footer, matched as files write them", () => {
  const BODY = "CHAPTER I.\n\nThe first chapter, which is long enough to be a chapter of its own and then some more words to pass two hundred characters of prose, as the cutter asks of a real chapter, and a little more besides.\n\nA second paragraph, so that the first chapter is well over the length a chapter needs, whatever its heading says.\n\nCHAPTER II.\n\nThe second chapter, which also runs long enough to count as a chapter with prose of its own under its heading, and which ends the book here.";
  const body = (text: string) => text.slice(bookBody(text).start, bookBody(text).end);
  const header = {
    "one line": "Title: X\n\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\n",
    "no space after ***": "***START OF THE PROJECT GUTENBERG EBOOK X***\n\n",
    "lower case": "*** start of the project gutenberg ebook x ***\n\n",
    "THIS PROJECT GUTENBERG": "*** START OF THIS PROJECT GUTENBERG EBOOK X ***\n\n",
    "a title wrapped over two lines": "*** START OF THE PROJECT GUTENBERG EBOOK A LONG ACCOUNT OF THE HARBOUR AND\nTHE SHIPS THAT SAILED FROM IT ***\n\n",
    "the old small print": "***START**THE SMALL PRINT!**FOR PUBLIC DOMAIN ETEXTS**START***\nlawyers.\n*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n\n",
    "a producer line after the marker": "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\nProduced by Someone and the Online\nDistributed Proofreading Team\n\n",
  };
  const footer = {
    "END marker": "\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n\nlicence",
    "no space, lower case": "\n\n***end of the project gutenberg ebook x***\n\nlicence",
    "THIS, a wrapped title": "\n\n*** END OF THIS PROJECT GUTENBERG EBOOK A LONG ACCOUNT OF THE HARBOUR AND\nTHE SHIPS THAT SAILED FROM IT ***\n",
    "End of the Project Gutenberg EBook line": "\n\nEnd of the Project Gutenberg EBook of X, by Y\n\n*** END OF THIS PROJECT GUTENBERG EBOOK X ***",
    "the licence's heading only": "\n\nTHE FULL PROJECT GUTENBERG LICENSE\nPLEASE READ THIS",

    "*** START: FULL LICENSE ***": "\n\n*** START: FULL LICENSE ***\n\nTHE FULL PROJECT GUTENBERG LICENSE",
    "START: FULL LICENCE, no stars": "\n\n  START: FULL LICENCE\n\nterms",
    "the licence's Section 1 only": "\n\nSection 1. General Terms of Use and Redistributing Project Gutenberg-tm\nelectronic works",
    // the first footer line wins whichever form it has: a later END marker does not move the end
    "a licence heading before an END marker": "\n\nTHE FULL PROJECT GUTENBERG LICENCE\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***",
  };
  it.each(Object.entries(header))("header: %s", (_, h) => {
    expect(body(h + BODY)).toBe(BODY);
    const { passages } = cutBook("novel/x", h + BODY);
    expect(passages.map((p) => p.label)).toEqual(["CHAPTER I", "CHAPTER II"]);
    expect(passages.map((p) => p.content).join(" ")).not.toMatch(/SHIPS|small print|Produced/i);
  });
  it.each(Object.entries(footer))("footer: %s", (_, f) => {
    expect(body(BODY + f)).toBe(BODY);
  });
});

describe("one offset system: offsets into the .txt file as given", () => {
  it("a located span's offsets slice the file to the span's own text, in a diary, a play and the bundled books", () => {
    for (const [key, quote] of [
      ["diary/the-lodger", "A man who owns his own umbrella stand has nothing to fear from the world"],
      ["play/the-harbour-master", "Nothing is ever settled in a harbour, child"],
      ["novel/frankenstein", "You will rejoice to hear that no disaster has accompanied the commencement"],
    ] as const) {
      const b = books.find((x) => x.book.key === key)!;
      const [span] = createQuoteIndex([b.book]).locate(quote, { limit: 1 });
      expect(span!.ratio, key).toBe(1);
      expect(b.text.slice(span!.start, span!.end), key).toBe(span!.text);
      const p = b.book.passages.find((x) => x.start! <= span!.start && span!.end <= x.end!)!;
      expect(span!.passages, key).toEqual([p.label]);
    }
  });

  it("a marker's wrapped tail is not book text: locate finds nothing there", () => {
    const b = books.find((x) => x.book.key === "diary/the-lodger")!;
    expect(createQuoteIndex([b.book]).locate("ROOMS, HIS LANDLADY AND THE KETTLE")).toEqual([]);
    expect(parseBook(b.book.key, b.text).passages.some((p) => p.content.includes("LANDLADY AND THE KETTLE"))).toBe(false);
  });

  it("a verse-numbered book: verse references are never words of a span", () => {
    const kjv = "Genesis 1:1 In the beginning God created the heaven and the earth.\nGenesis 1:2 And the earth was without form, and void.\n";
    const text = kjv.repeat(1) + Array.from({ length: 60 }, (_, i) => `Genesis 2:${i + 1} And it was so, and the day was ${i + 1}.\n`).join("");
    const book = parseBook("scripture/x", text);
    const [span] = createQuoteIndex([book]).locate("the heaven and the earth. And the earth was without form", { limit: 1 });
    expect(span!.ratio).toBe(1);
    expect(text.slice(span!.start, span!.end)).toBe("the heaven and the earth.\nGenesis 1:2 And the earth was without form");
  });
});

it("book keys of the test books follow <genre>__<book>.txt", () => {
  for (const f of readdirSync(FIXTURES).filter((f) => f.endsWith(".txt"))) expect(bookKeyFromFileName(f), f).not.toBeNull();
});
