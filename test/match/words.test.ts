// words() with its class-table scanner equals the Intl.Segmenter-based words() it replaced
// (test/match/words-reference.ts, kept verbatim) on every input: the class of every scanned code
// point is checked against the segmenter itself, then mixed random text, long text crossing the
// chunk edges, every test fixture and every book of ../shared/data/books.
//
// npm test: a tenth of each random sweep's runs (10 of the 40 long texts; fast-check draws its own
// seed, as in the deep run), and every book of ../shared/data/books on 40 of its passages spread from its first to its
// last, each alone and all of them joined as one long text (crossing the 16 KB chunk edges as a
// whole book does); the class table, the fixtures and the fixed cases in full. npm run test:deep
// (test/depth.ts): the sweeps in full, and every book whole and its first 200 passages.
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { buildKeyLayout, buildWordTable } from "../../ts/match/word-table.js";
import { WORD_CLASS_RUNS } from "../../ts/match/word-classes.generated.js";
import { __wordsInternals, translateQuoteChars, words, wordsInto, type Word, type WordSink } from "../../ts/match/words.js";
import { referenceWords as segmenterWords } from "./words-reference.js";
import { readerText } from "../../ts/match/markup.js";

/** The reference words of a text as a reader reads it: a link's `(destination)` blanked first (ts/match/markup.ts; same offsets). */
const referenceWords = (text: string) => segmenterWords(readerText(text));
import { DEEP, fcRuns, spread } from "../depth.js";

/** npm test: the passages of each book it reads (see above). */
const BOOK_PASSAGES = 40;
/**
 * What of a book the book tests read: the whole text and its first 200 passages in the deep run;
 * in npm test BOOK_PASSAGES of its passages, spread over the book, joined as its "whole" text too.
 */
function bookSample(b: { passages: readonly { content: string }[] }): { whole: string; passages: string[] } {
  const passages = DEEP ? b.passages.map((p) => p.content) : spread(b.passages, BOOK_PASSAGES).map((p) => p.content);
  return { whole: passages.join("\n\n"), passages: DEEP ? passages.slice(0, 200) : passages };
}

const { classes, CLASS } = __wordsInternals;
const BOOKS = fileURLToPath(new URL("../../../shared/data/books/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

const wordSeg = new Intl.Segmenter("en", { granularity: "word" });
const graphemeSeg = new Intl.Segmenter("en", { granularity: "grapheme" });
/** Segments of t as the segmenter gives them: W (word-like) or N, and their lengths. */
const segs = (t: string) => [...wordSeg.segment(t)].map((s) => (s.isWordLike ? "W" : "N") + s.segment.length).join(",");
/** How a character acts in UAX #29 contexts: alone, beside letters and digits, between them, twice, beside a mid. */
const signature = (c: string) =>
  [c, "a" + c, c + "a", "1" + c, c + "1", "a" + c + "a", "1" + c + "1", c + c, "a'" + c, c + "'a", "1." + c, c + ".1", "a" + c + "1", "1" + c + "a"]
    .map(segs)
    .join(" ");

/**
 * The blocks the scanner reads (code points, inclusive): Basic Latin to Cyrillic Supplement,
 * Latin Extended Additional and Greek Extended, General Punctuation to Miscellaneous Symbols and
 * Arrows, Latin Extended-C, Supplemental Punctuation, Latin Extended-D.
 */
const SCANNED_BLOCKS = [[0x0000, 0x052f], [0x1e00, 0x1fff], [0x2000, 0x2bff], [0x2c60, 0x2c7f], [0x2e00, 0x2e7f], [0xa720, 0xa7ff]] as const;
/** ALetter characters that are not Alphabetic (UAX #29, Word_Break=ALetter), in SCANNED_BLOCKS. */
const ALETTER_EXTRA_RE = /[\u00B8\u02C2-\u02C5\u02D2-\u02D7\u02DE\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\uA720\uA721\uA789\uA78A]/;
/** What the scanner leaves to the segmenter (see UNSAFE in ts/match/words.ts). */
const UNSAFE_RE = /[\p{Cn}\p{Cs}\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}\uFB00-\uFB06\u202F\u203F\u2040\u2054]/u;

/** The scanner's class of each code point of SCANNED_BLOCKS, by the rules of ts/match/words.ts, as runs `lo, hi, class` (UNSAFE left out). */
function deriveClassRuns(): number[] {
  const t = new Uint8Array(0x10000);
  for (const [lo, hi] of SCANNED_BLOCKS) {
    for (let c = lo; c <= hi; c++) {
      const own = String.fromCharCode(c);
      const ch = translateQuoteChars(own); // the scanner reads the matching text: ‘ ’ ‚ ‛ are ', “ ” « » … are "
      let k: number;
      if (UNSAFE_RE.test(own) || own.normalize("NFC") !== own) k = CLASS.UNSAFE;
      else if (ch >= "0" && ch <= "9") k = CLASS.DIGIT;
      else if (/\p{Nd}/u.test(ch)) k = CLASS.UNSAFE;
      else if (ch === "\u00B7" || ch === "\u2027") k = CLASS.MID_LETTER;
      else if (",;\u2044.\u2024".includes(ch)) k = CLASS.MID_NUM;
      else if (ch === "'") k = CLASS.MID_NUM_LET;
      else if (/\p{Alphabetic}/u.test(ch) || ALETTER_EXTRA_RE.test(ch)) k = CLASS.LETTER;
      else k = CLASS.OTHER;
      t[c] = k;
    }
  }
  const runs: number[] = [];
  for (let c = 0; c < 0x10000; ) {
    let e = c;
    while (e + 1 < 0x10000 && t[e + 1] === t[c]) e++;
    if (t[c] !== CLASS.UNSAFE) runs.push(c, e, t[c]!);
    c = e + 1;
  }
  return runs;
}

const scanned: number[] = [];
for (let c = 0; c < 0x10000; c++) if (classes()[c] !== CLASS.UNSAFE) scanned.push(c);

/** The words of `t` as `[start, end, key]`, for readable diffs. */
const triples = (ws: readonly Word[]) => ws.map((w) => [w.start, w.end, w.key] as const);
const sameAsReference = (t: string): void => {
  expect(triples(words(t))).toEqual(triples(referenceWords(t)));
};

describe("the scanner's classes are UAX #29's, as Intl.Segmenter applies them", () => {
  it("the class table (ts/match/word-classes.generated.ts) is the one the rules give", () => {
    const runs = deriveClassRuns();
    if (process.env.UPDATE === "1") {
      const file = fileURLToPath(new URL("../../ts/match/word-classes.generated.ts", import.meta.url));
      const rows: string[] = [];
      for (let i = 0; i < runs.length; i += 3) rows.push(`  0x${runs[i]!.toString(16)}, 0x${runs[i + 1]!.toString(16)}, ${runs[i + 2]},`);
      const text =
        "// generated by test/match/words.test.ts from the rules of ts/match/words.ts (UNSAFE … OTHER); do not edit (regenerate: UPDATE=1 npx vitest run test/match/words.test.ts -t 'class table')\n" +
        "/** The scanner's class of each UTF-16 unit it reads, as runs `lo, hi, class` (inclusive; every other unit is UNSAFE, 0). */\n" +
        `export const WORD_CLASS_RUNS: readonly number[] = [\n${rows.join("\n")}\n];\n`;
      writeFileSync(`${file}.tmp`, text);
      renameSync(`${file}.tmp`, file);
    }
    expect([...WORD_CLASS_RUNS]).toEqual(runs);
  });

  it("every scanned code point acts as the representative of its class (after quote characters are translated)", () => {
    // what each class may look like in ICU: `.` `․` (MidNumLet) and `:` (MidLetter) are cut
    // wherever they join letters, so the scanner gives them the class of what remains
    const expected: Record<number, string[]> = {
      [CLASS.LETTER]: [signature("a")],
      [CLASS.DIGIT]: [signature("1")],
      [CLASS.MID_LETTER]: [signature("\u00B7")],
      [CLASS.MID_NUM]: [signature(",")],
      [CLASS.MID_NUM_LET]: [signature("'")],
      [CLASS.OTHER]: [signature("-"), signature(" ")],
    };
    const cut: Record<string, string> = { ".": signature("."), "\u2024": signature("."), ":": signature(":"), _: signature("_") };
    const wrong: string[] = [];
    for (const cp of scanned) {
      const c = translateQuoteChars(String.fromCharCode(cp));
      const sig = signature(c);
      const ok = cut[c] !== undefined ? sig === cut[c] : expected[classes()[cp]!]!.includes(sig);
      if (!ok) wrong.push(`U+${cp.toString(16).padStart(4, "0")} class ${classes()[cp]}: ${sig}`);
    }
    expect(wrong).toEqual([]);
    // the table covers what the books need: Latin-1 letters, curly quotes, dashes, ellipsis, pound sign
    for (const c of "éàæêôâß’“”‘—…£°⸻αΣςжД") expect(classes()[c.charCodeAt(0)]).not.toBe(CLASS.UNSAFE);
    expect(scanned.length).toBeGreaterThan(4800);
  });

  it("every scanned character is its own grapheme cluster (but CR LF) and NFC as it stands", () => {
    const all = String.fromCharCode(...scanned.filter((c) => c !== 0x0d));
    expect([...graphemeSeg.segment(all)].every((g) => g.segment.length === 1)).toBe(true);
    expect([...graphemeSeg.segment("a\r\nb\r\r")].map((g) => g.segment)).toEqual(["a", "\r\n", "b", "\r", "\r"]);
    expect(all.normalize("NFC")).toBe(all);
    // no scanned character composes with the one before it (none is NFC_QC=Maybe)
    const chars = scanned.map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 40 }), (cs) => {
        const t = cs.join("");
        expect(t.normalize("NFC")).toBe(t);
        expect([...graphemeSeg.segment(t)].length).toBe(t.length - (t.match(/\r\n/g)?.length ?? 0));
      }),
      { numRuns: fcRuns(200, 2000) },
    );
  });
});

/** Text pieces of every class, and of characters the scanner leaves to the segmenter. */
const SCANNED_PIECES = [
  "a", "Z", "word", "Tom", "0", "7", "3.14", "1,000", "'", "’", "‘", "‚", "‛", ".", ",", ";", ":", "·", "‧", "⁄", "․", "_",
  " ", "  ", "\n", "\r\n", "\r", "\t", "-", "—", "…", '"', "“", "”", "«", "»", "(", "!", "£", "°", "⸻", "©", "½", "²",
  "é", "É", "à", "æ", "ß", "ÿ", "Ÿ", "ŉ", "ǅ", "İ", "ı", "ſ", "ʼ", "ˆ", "ˇ", "¸", "α", "Σ", "ς", "ΐ", "ж", "Д", "ё", "ẞ", "ỳ",
  "Ⅻ", "ⓐ", "℃", "№", "™", "→", "∀", "■", "☃", "ꞈ", "Ꞌ",
];
const UNSAFE_PIECES = [
  "\u0301", "cafe\u0301", "\u00AD", "\u200B", "\u200D", "\uFB01", "我们", "。", "日本語", "วันนี้", "नमस्ते", "😀", "\u202F", "٣", "\u0600",
  "\u1100\u1161", "\uFE0F", "\u0387", "\u037E", "\u2126", "שָׁלוֹם", "\uD800", "ｶﾀｶﾅ", "\u2060",
];

describe("words() equals the segmenter-based words() it replaced", () => {
  it("on random text of scanned characters", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SCANNED_PIECES), { maxLength: 40 }), (ps) => {
        sameAsReference(ps.join(""));
      }),
      { numRuns: fcRuns(400, 4000) },
    );
  });

  it("on random text mixing scanned characters with marks, format characters, ideographs, emoji and other scripts", () => {
    const piece = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SCANNED_PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...UNSAFE_PIECES) });
    fc.assert(fc.property(fc.array(piece, { maxLength: 40 }), (ps) => {
        sameAsReference(ps.join(""));
      }), { numRuns: fcRuns(300, 3000) });
  });

  it("on long text whose chunks are scanned, segmented, or cut hard (no place to cut in 16 KB)", () => {
    const piece = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...SCANNED_PIECES) },
      { weight: 1, arbitrary: fc.constantFrom(...UNSAFE_PIECES) },
      { weight: 1, arbitrary: fc.constantFrom("x".repeat(1500), "é".repeat(1200), "1.".repeat(700), "ab'".repeat(600)) },
    );
    fc.assert(fc.property(fc.array(piece, { minLength: 200, maxLength: 600 }), (ps) => {
        sameAsReference(ps.join(""));
      }), { numRuns: fcRuns(10, 40) }); // npm test: 10 long texts; npm run test:deep (test/depth.ts): 40
    // one word longer than 16 chunks, in ASCII (never chunked) and not (cut where the chunking cuts it)
    for (const t of ["a".repeat(20_000), `é${"a".repeat(20_000)}`, `${"ab ".repeat(400)}${"b".repeat(17_000)}’s`, `“${"x".repeat(16_500)}”`]) sameAsReference(t);
  });

  it("hands the same words to any WordSink, keys made or taken from the text", () => {
    // a sink that writes down what it is handed, taking words back as asked
    class Collect implements WordSink {
      readonly got: [number, number, string][] = [];
      plainCount = 0;
      get count() {
        return this.got.length;
      }
      plain(flat: string, start: number, end: number, upper: boolean) {
        const k = flat.slice(start, end);
        this.plainCount++;
        this.got.push([start, end, upper ? k.replace(/[A-Z]/g, (c) => c.toLowerCase()) : k]);
      }
      keyed(key: string, start: number, end: number) {
        this.got.push([start, end, key]);
      }
      truncate(n: number) {
        this.got.length = n;
      }
    }
    const t = `It's “Mr. Darcy’s” café — 3.14, 1,000 and Ægir; ${"x ".repeat(600)}cafe\u0301 我们。`;
    const sink = new Collect();
    wordsInto(t, sink);
    expect(sink.got).toEqual(triples(words(t)));
    // words of the first chunks were handed as units, then taken back: the decomposed accent of a
    // later chunk sends the whole text down the matching-text path…
    expect(sink.plainCount).toBeGreaterThan(500);
    const plainText = `It's “Mr. Darcy’s” café — 3.14, 1,000 and Ægir`;
    const s2 = new Collect();
    wordsInto(plainText, s2);
    expect(s2.got).toEqual(triples(words(plainText)));
    // …an NFC text hands words whose key is their own units, A-Z lowered (Mr 3.14 1,000 and), as
    // units of the text; those with an apostrophe or a unit past U+007F (It's Darcy’s café Ægir) as keys
    expect(s2.plainCount).toBe(4);
  });
});

/** Every text file under dir (≤ 4 MB each). */
function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...textFiles(p));
    else if (/\.(json|md|txt|ttl|memdsl)$/.test(name) && statSync(p).size <= 4 << 20) out.push(p);
  }
  return out;
}

describe("on real text", () => {
  it("every test fixture, whole and as the parity suite's passages and quotes", () => {
    const files = textFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) sameAsReference(readFileSync(f, "utf8"));
    const parity = JSON.parse(readFileSync(join(FIXTURES, "moot/parity.json"), "utf8")) as { passages: string[]; cases: { quote: string }[] };
    for (const t of [...parity.passages, ...parity.cases.map((c) => c.quote)]) sameAsReference(t);
  });

  it.skipIf(!existsSync(BOOKS))(`every book of ../shared/data/books, whole and passage by passage${DEEP ? "" : ": a spread of its passages in npm test"}`, () => {
    const books = loadBooks(BOOKS);
    expect(books.length).toBeGreaterThanOrEqual(5);
    // npm test: a spread of each book's passages (bookSample); npm run test:deep: every book whole
    for (const b of books) {
      const { whole, passages } = bookSample(b);
      expect(whole.length).toBeGreaterThan(16_384 * 2);
      sameAsReference(whole);
      for (const p of passages) sameAsReference(p);
    }
  });
});

/** The quote index's word table as it was built before word-table.ts: one `words()` call and `Map` lookups per word. */
function mapTable(texts: string[]) {
  const alphabet = new Map<number, number>([[32, 0]]);
  const vocabulary = new Map<string, number>();
  const chars: number[] = [];
  const charStart: number[] = [];
  const charEnd: number[] = [];
  const spans: number[] = [];
  const wordIds: number[] = [];
  for (const text of texts) {
    referenceWords(text).forEach((w, i) => {
      if (i) chars.push(0);
      charStart.push(chars.length);
      for (const ch of w.key) {
        const cp = ch.codePointAt(0)!;
        let id = alphabet.get(cp);
        if (id === undefined) alphabet.set(cp, (id = alphabet.size));
        chars.push(id);
      }
      charEnd.push(chars.length);
      spans.push(w.start, w.end);
      let v = vocabulary.get(w.key);
      if (v === undefined) vocabulary.set(w.key, (v = vocabulary.size));
      wordIds.push(v);
    });
  }
  return { alphabet: [...alphabet], vocabulary: [...vocabulary], chars, charStart, charEnd, spans, wordIds };
}

/** Where two arrays of numbers first differ (-1: nowhere, same length); toEqual on millions of elements is slow. */
const firstDifference = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
};

function expectSameTable(texts: string[]) {
  const t = buildWordTable(texts);
  const m = mapTable(texts);
  expect([...t.alphabet]).toEqual(m.alphabet);
  // the vocabulary answers `get` from the interner before it has listed a key, and agrees with its listing
  const got = m.vocabulary.map(([k]) => t.vocabulary.get(k));
  expect(got).toEqual(m.vocabulary.map(([, id]) => id));
  expect(t.vocabulary.size).toBe(m.vocabulary.length);
  for (const absent of ["", "zzqxj-absent", "THE", "don't"]) if (!m.vocabulary.some(([k]) => k === absent)) expect(t.vocabulary.get(absent), absent).toBeUndefined();
  expect([...t.vocabulary]).toEqual(m.vocabulary);
  expect(firstDifference(t.wordIds, m.wordIds)).toBe(-1);
  expect(firstDifference(t.spans, m.spans)).toBe(-1);
  expect(firstDifference(t.charStart, m.charStart)).toBe(-1);
  expect(firstDifference(t.charEnd, m.charEnd)).toBe(-1);
  expect(firstDifference(t.chars, m.chars)).toBe(-1);
  // postings: the words of each id, ascending; text of each word
  for (let v = 0; v < t.vocabulary.size; v++) {
    for (let i = t.postingStart[v]!; i < t.postingStart[v + 1]!; i++) {
      if (t.wordIds[t.postings[i]!] !== v || (i > t.postingStart[v]! && t.postings[i - 1]! >= t.postings[i]!)) expect.fail(`postings of id ${v}`);
    }
  }
  expect(t.postingStart[t.vocabulary.size]).toBe(m.wordIds.length);
  for (let x = 0; x < texts.length; x++) {
    expect(t.textWords[x + 1]! - t.textWords[x]!).toBe(referenceWords(texts[x]!).length);
    for (let w = t.textWords[x]!; w < t.textWords[x + 1]!; w++) if (t.wordText[w] !== x) expect.fail(`text of word ${w}`);
  }
  // the key layout (bestSpan's pool, built without word ids) is the table's, array for array
  const k = buildKeyLayout(texts);
  expect([...k.alphabet]).toEqual(m.alphabet);
  expect(firstDifference(k.chars, t.chars)).toBe(-1);
  expect(firstDifference(k.charStart, t.charStart)).toBe(-1);
  expect(firstDifference(k.charEnd, t.charEnd)).toBe(-1);
  expect(firstDifference(k.spans, t.spans)).toBe(-1);
  expect(firstDifference(k.textWords, t.textWords)).toBe(-1);
}

describe("the quote index's word table (and bestSpan's key layout) equals the Map-based build over words()", () => {
  it("on random texts (keys hashed from the text, made, and taken back)", () => {
    const piece = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...SCANNED_PIECES) }, { weight: 1, arbitrary: fc.constantFrom(...UNSAFE_PIECES) });
    fc.assert(fc.property(fc.array(fc.array(piece, { maxLength: 60 }).map((ps) => ps.join("")), { maxLength: 5 }), (texts) => {
        expectSameTable(texts);
      }), {
      numRuns: fcRuns(50, 500),
    });
    // words scanned, taken back when a later chunk proves the text is not NFC, then handed again by the matching-text path
    expectSameTable([`${"Zebra zebu ".repeat(200)} cafe\u0301 Zebra`, "zebu Ω", ""]);
  });

  it("on random ASCII texts (laid out by the scan itself: scanAsciiLayout), beside texts that are not", () => {
    // apostrophes (dropped from keys), digits joined through , ; . and letters through ', capitals, and
    // texts long enough to grow the layout's columns past their first guess
    const ascii = SCANNED_PIECES.filter((p) => /^[\x00-\x7f]+$/.test(p)).concat(["don't", "O'Neil's", "rock'n'roll", "'tis", "1,000.5", "a1b2", "x".repeat(40)]);
    const text = fc.array(fc.constantFrom(...ascii), { maxLength: 200 }).map((ps) => ps.join(""));
    const other = fc.array(fc.constantFrom(...SCANNED_PIECES, ...UNSAFE_PIECES), { maxLength: 20 }).map((ps) => ps.join(""));
    fc.assert(fc.property(fc.array(fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: other }), { maxLength: 6 }), (texts) => {
        expectSameTable(texts);
      }), {
      numRuns: fcRuns(100, 1000),
    });
    expectSameTable(["a", "it's  A 'b' c'", "9,9 9, ,9 x'y' 'z", "Ω ab", "AB,CD 1;2 e.g. ".repeat(3000)]);
  });

  it.skipIf(!existsSync(BOOKS))("on every book of ../shared/data/books", () => {
    // npm test: a spread of each book's passages, as above; npm run test:deep: every book whole
    expectSameTable(loadBooks(BOOKS).map((b) => bookSample(b).whole));
  });
});
