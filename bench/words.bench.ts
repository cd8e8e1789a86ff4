/**
 * Word benchmarks (issue 18, index build): the words of ts/match/words.ts (class-table scanner,
 * segmenter only for chunks it does not cover) and the quote index build over them
 * (ts/match/word-table.ts), side by side in one run with what they replaced: the
 * Intl.Segmenter-based words() (test/match/words-reference.ts, kept verbatim) and the build
 * that took one `words()` object and one `Map` lookup per word.
 *
 * Cases: the quote index build over every book of ../shared/data/books (≈4.9 M characters)
 * with its memory; words() over all books, over the two books with non-ASCII letters and
 * punctuation, and over a moot turn's pool (what a grounding check tokenizes the first time
 * it sees a pool). words() caches passage-sized texts, so the words() cases call the
 * tokenizer under the cache (`wordsInto`, what words() does on a miss); outputs are checked
 * equal first.
 *
 * Run: npx tsx bench/run.ts words
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { createQuoteIndex } from "../ts/match/quote-index/index.js";
import { loadBooks } from "../ts/moot/corpus-node.js";
import { buildWordTable } from "../ts/match/word-table.js";
import { wordsInto, type Word, type WordSink } from "../ts/match/words.js";
import type { Book } from "../ts/moot/retrieval.js";
import { referenceWords } from "../test/match/words-reference.js";
import type { BenchCase, BenchSuite } from "./harness.js";

const BOOKS = fileURLToPath(new URL("../../shared/data/books/", import.meta.url));

/** words() without its cache: the same sink words() uses on a miss. */
class Words implements WordSink {
  readonly out: Word[] = [];
  get count() {
    return this.out.length;
  }
  plain(flat: string, start: number, end: number, upper: boolean) {
    const w = flat.slice(start, end);
    this.out.push({ key: upper ? w.toLowerCase() : w, start, end });
  }
  keyed(key: string, start: number, end: number) {
    this.out.push({ key, start, end });
  }
  truncate(n: number) {
    this.out.length = n;
  }
}
const newWords = (t: string) => {
  const s = new Words();
  wordsInto(t, s);
  return s.out;
};

/** A book's text as the quote index joins it. */
const bookText = (b: Book) => b.passages.map((p) => p.content).join("\n\n");

/** The quote index build before ts/match/word-table.ts (ts/moot/quote-index.ts `prepare` at 48e52e8), over the old words(). */
function oldBuild(books: Book[]) {
  const texts = books.map(bookText);
  const alphabet = new Map<number, number>([[32, 0]]);
  const vocabulary = new Map<string, number>();
  let chars = new Int32Array(1 << 16);
  let nChars = 0;
  const perWord: number[][] = [[], [], [], [], []];
  const sourceWords = new Int32Array(texts.length + 1);
  let w = 0;
  for (let s = 0; s < texts.length; s++) {
    sourceWords[s] = w;
    let first = true;
    for (const word of referenceWords(texts[s]!)) {
      if (nChars + word.key.length + 1 > chars.length) {
        const bigger = new Int32Array(Math.max(chars.length * 2, nChars + word.key.length + 1));
        bigger.set(chars.subarray(0, nChars));
        chars = bigger;
      }
      if (!first) chars[nChars++] = 0;
      first = false;
      perWord[0]!.push(nChars);
      for (const ch of word.key) {
        const cp = ch.codePointAt(0)!;
        let id = alphabet.get(cp);
        if (id === undefined) alphabet.set(cp, (id = alphabet.size));
        chars[nChars++] = id;
      }
      perWord[1]!.push(nChars);
      perWord[2]!.push(word.start);
      perWord[3]!.push(word.end);
      let wid = vocabulary.get(word.key);
      if (wid === undefined) vocabulary.set(word.key, (wid = vocabulary.size));
      perWord[4]!.push(wid);
      w++;
    }
  }
  sourceWords[texts.length] = w;
  const wordIds = Int32Array.from(perWord[4]!);
  const postingStart = new Int32Array(vocabulary.size + 1);
  for (let i = 0; i < w; i++) postingStart[wordIds[i]! + 1]++;
  for (let v = 0; v < vocabulary.size; v++) postingStart[v + 1] += postingStart[v]!;
  const fill = postingStart.slice(0, vocabulary.size);
  const postings = new Int32Array(w);
  for (let i = 0; i < w; i++) postings[fill[wordIds[i]!]!++] = i;
  const wordSource = new Int32Array(w);
  for (let s = 0; s < texts.length; s++) wordSource.fill(s, sourceWords[s], sourceWords[s + 1]);
  const spans = new Int32Array(2 * w);
  for (let i = 0; i < w; i++) {
    spans[2 * i] = perWord[2]![i]!;
    spans[2 * i + 1] = perWord[3]![i]!;
  }
  const index = {
    alphabet, vocabulary, chars: chars.slice(0, nChars), charStart: Int32Array.from(perWord[0]!), charEnd: Int32Array.from(perWord[1]!),
    sourceWords, spans, wordIds, postingStart, postings, wordSource,
  };
  return { index, stats: { words: w, characters: nChars, vocabulary: vocabulary.size } };
}

/** A collector (Node's gc, reached without a command-line flag) so retained memory is measured, not garbage. */
function collector(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/** JS heap + array buffers, MB. */
const heapMB = () => {
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
};

/** A full collection, twice, with a pause between: array buffers are freed by a concurrent sweeper after the first. */
async function settle(gc: () => void): Promise<void> {
  gc();
  await new Promise((r) => setTimeout(r, 100));
  gc();
}

/** Memory of one build: what it keeps (after full collections) and what it left to collect. */
async function buildMemory(build: () => unknown, gc: () => void): Promise<{ retainedMB: number; garbageMB: number; keep: unknown }> {
  await settle(gc);
  const before = heapMB();
  const keep = build();
  const after = heapMB();
  await settle(gc);
  const kept = heapMB();
  return { retainedMB: kept - before, garbageMB: after - kept, keep };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

const sameWords = (a: readonly Word[], b: readonly Word[], what: string) => {
  if (a.length !== b.length) throw new Error(`${what}: ${a.length} words, expected ${b.length}`);
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.key !== b[i]!.key || a[i]!.start !== b[i]!.start || a[i]!.end !== b[i]!.end) throw new Error(`${what}: word ${i} differs`);
  }
};

/** A words() case: the new tokenizer vs the reference over `texts`. */
function wordsCase(name: string, texts: string[], size: BenchCase["size"]): BenchCase {
  const expected = texts.map((t) => referenceWords(t));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  return {
    name,
    size,
    units: { count: chars, unit: "chars" },
    baseline: "words() before (Intl.Segmenter, ASCII regex)",
    contenders: [
      {
        name: "words() before (Intl.Segmenter, ASCII regex)",
        run: () => texts.map((t) => referenceWords(t)),
        check: (o) => (o as Word[][]).forEach((ws, i) => sameWords(ws, expected[i]!, "reference")),
      },
      {
        name: "words() (class-table scanner)",
        run: () => texts.map(newWords),
        check: (o) => (o as Word[][]).forEach((ws, i) => sameWords(ws, expected[i]!, "scanner")),
      },
    ],
    extra: () => ({ words: expected.reduce((n, ws) => n + ws.length, 0) }),
  };
}

const suite: BenchSuite = {
  part: "words",
  async cases(): Promise<BenchCase[]> {
    if (!existsSync(BOOKS)) {
      suite.skipped = `${BOOKS} absent: the words bench needs the real books of ../shared/data`;
      return [];
    }
    const books = loadBooks(BOOKS);
    const texts = books.map(bookText);
    const corpusChars = texts.reduce((n, t) => n + t.length, 0);
    const gc = collector();

    // memory of one build each, measured apart from the timing runs
    const oldMem = await buildMemory(() => oldBuild(books), gc);
    const tableMem = await buildMemory(() => buildWordTable(books.map(bookText)), gc);
    const newMem = await buildMemory(() => createQuoteIndex(books, { backend: "ts" }), gc);
    // CPU time (user + system) of one build each: on a shared machine, less disturbed than wall time
    const cpuMs = (f: () => unknown) => {
      const c = process.cpuUsage();
      f();
      const d = process.cpuUsage(c);
      return (d.user + d.system) / 1000;
    };
    const oldCpu = cpuMs(() => oldBuild(books));
    const newCpu = Math.min(cpuMs(() => createQuoteIndex(books, { backend: "ts" })), cpuMs(() => createQuoteIndex(books, { backend: "ts" })));
    const oldStats = (oldMem.keep as ReturnType<typeof oldBuild>).stats;
    const newIndex = newMem.keep as ReturnType<typeof createQuoteIndex>;
    const sameIndex = (o: unknown) => {
      const s = o as { words: number; characters: number };
      if (s.words !== oldStats.words || s.characters !== oldStats.characters) throw new Error(`index of ${s.words} words / ${s.characters} chars, expected ${oldStats.words} / ${oldStats.characters}`);
    };

    // the two books with non-ASCII letters and punctuation (curly quotes, dashes, accents, £)
    const nonAscii = texts.filter((t) => /[^\x00-\x7f’‘“”]/.test(t));
    // a moot turn's pool: 12 passages of ~1,200 characters from those books, and a reply quoting them
    const pool: string[] = [];
    for (const b of books) for (const p of b.passages) if (pool.length < 12 && p.content.length > 1000 && p.content.length < 1600 && /[’“—]/.test(p.content)) pool.push(p.content);
    const reply = pool.slice(0, 4).map((p, i) => `As the passage says, “${p.slice(100, 260)}” [s${i + 1}], and so it goes.`).join(" ");

    return [
      {
        name: `quote index build over all books (${(corpusChars / 1e6).toFixed(2)} M characters)`,
        size: "pathological",
        units: { count: corpusChars, unit: "chars" },
        baseline: "before: words() objects + a Map lookup per word",
        contenders: [
          { name: "before: words() objects + a Map lookup per word", run: () => oldBuild(books).stats, check: sameIndex },
          { name: "createQuoteIndex (ts): word table hashed from the text", run: () => createQuoteIndex(books, { backend: "ts" }).stats, check: sameIndex },
        ],
        extra: () => ({
          "CPU time of one build before, ms": Math.round(oldCpu),
          "CPU time of one build now (best of 2), ms": Math.round(newCpu),
          words: oldStats.words,
          "distinct keys": oldStats.vocabulary,
          "index arrays, MB": round1(newIndex.stats.bytes / 1e6),
          "retained by one build before (arrays + Maps), MB": round1(oldMem.retainedMB),
          "retained by one build now (the same arrays + Maps), MB": round1(tableMem.retainedMB),
          "retained by createQuoteIndex (also keeps the joined texts), MB": round1(newMem.retainedMB),
          "garbage left by one build before, MB": round1(oldMem.garbageMB),
          "garbage left by one build now, MB": round1(tableMem.garbageMB),
        }),
      },
      wordsCase(`words() over all books (${(corpusChars / 1e6).toFixed(2)} M characters)`, texts, "large"),
      wordsCase(
        `words() over the books with non-ASCII letters (${(nonAscii.reduce((n, t) => n + t.length, 0) / 1e6).toFixed(2)} M characters, ${nonAscii.length} books)`,
        nonAscii,
        "large",
      ),
      wordsCase(`words() of a grounding check's first look at a pool: 12 passages of ~1,200 characters and a reply`, [...pool, reply], "small"),
    ];
  },
};

export default suite;
