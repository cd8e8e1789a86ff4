/**
 * Node-only: load the book corpus from a folder of `<genre>__<book>.txt` files,
 * each cut by its own structure (an optional `<genre>__<book>.entries.json`
 * beside a book overrides it with an entries index).
 */
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookKeyFromFileName, createEmbeddedCorpus, parseBook, readEntriesIndex, type Book, type DiaryEntry, type EmbeddedCorpus } from "./retrieval.js";

/** A corpus folder could not be read. */
export class CorpusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorpusError";
  }
}

/**
 * Read every `<genre>__<book>.txt` in a folder as a {@link Book} (other files
 * are skipped; a `.txt` with `__` in its name that is not a valid key is an
 * error), cut by its own structure (see `cutBook`). A
 * `<genre>__<book>.entries.json` beside a book overrides that with an entries
 * index of the shape `ENTRIES_INDEX_SHAPE` (retrieval.ts).
 *
 * @param dir folder path or file: URL
 * @throws CorpusError (one line naming the file) when the folder is missing or not
 *   a folder, holds no book, a `.txt` named with `__` is not a valid key, a book file
 *   is not a regular UTF-8 file or holds no passage of text, or an entries file is not valid JSON or not of the
 *   documented shape
 */
export function loadBooks(dir: string | URL): Book[] {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir;
  if (!existsSync(path)) throw new CorpusError(`corpus folder ${path} does not exist`);
  if (!statSync(path).isDirectory()) throw new CorpusError(`corpus folder ${path} is not a folder`);
  const books: Book[] = [];
  for (const file of readdirSync(path).sort()) {
    const key = bookKeyFromFileName(file);
    if (!key) {
      // Meant as a book (`__` in a .txt name) but not a key we can cite: refuse by name rather
      // than leave a dropped-in `novel__café.txt` silently out of the corpus.
      if (/__.*\.txt$/i.test(file)) {
        throw new CorpusError(`${join(path, file)}: a book file is named <genre>__<book>.txt with ASCII letters, digits and - (the book part also . and _), e.g. novel__cafe-society.txt`);
      }
      continue;
    }
    const text = readBookText(join(path, file)).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    const entriesPath = join(path, file.replace(/\.txt$/, ".entries.json"));
    let entries: DiaryEntry[] | undefined;
    if (existsSync(entriesPath)) {
      const size = statSync(entriesPath).size;
      if (size > MAX_ENTRIES_BYTES) throw new CorpusError(`${entriesPath}: ${size.toLocaleString("en-US")} bytes, over the ${MAX_ENTRIES_BYTES / 2 ** 20} MiB an entries index may hold`);
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(entriesPath, "utf8"));
      } catch (error) {
        throw new CorpusError(`${entriesPath}: not valid JSON (${(error as Error).message.split("\n", 1)[0]})`);
      }
      try {
        entries = readEntriesIndex(data, text.length, entriesPath);
      } catch (error) {
        throw new CorpusError((error as Error).message);
      }
    }
    const book = parseBook(key, text, entries);
    // An empty file, or one that is only Project Gutenberg's header and licence, would join a moot
    // with nothing to quote: its tree could never ground a turn.
    if (!book.passages.length) throw new CorpusError(`${join(path, file)}: no passage of text (the file is empty or only front matter and licence)`);
    books.push(book);
  }
  if (!books.length) throw new CorpusError(`corpus folder ${path} holds no <genre>__<book>.txt file`);
  return books;
}

/**
 * The largest book file read, in bytes (64 MiB): the longest books on Project Gutenberg
 * (complete Shakespeare, the KJV) are under 6 MB; a bigger file is almost certainly not one
 * book, and would hold the process for minutes.
 */
export const MAX_BOOK_BYTES = 64 * 2 ** 20;
/** The largest `.entries.json` read, in bytes (16 MiB). */
export const MAX_ENTRIES_BYTES = 16 * 2 ** 20;

/**
 * A book file's text, strictly UTF-8: a Latin-1 file (common among older plain-text
 * books) would otherwise decode to U+FFFD and be quoted so.
 * @throws CorpusError naming the file: not a regular file, unreadable, UTF-16 or holding a NUL byte, or not UTF-8
 */
function readBookText(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new CorpusError(`${file}: not a regular file`);
  if (stat.size > MAX_BOOK_BYTES) throw new CorpusError(`${file}: ${stat.size.toLocaleString("en-US")} bytes, over the ${MAX_BOOK_BYTES / 2 ** 20} MiB a book may hold`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CorpusError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // UTF-16 (what Windows calls "Unicode") of ASCII text is valid UTF-8 with a NUL after every letter,
  // so strict decoding alone would take it as a book of "C\0h\0a\0…"; and with a BOM the Latin-1 advice
  // below would be wrong. No text book holds U+0000.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || bytes.includes(0)) {
    throw new CorpusError(`${file}: UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CorpusError(`${file}: not UTF-8 text (convert it first, e.g. iconv -f latin1 -t utf-8)`);
  }
}

/**
 * The embedded corpus over a folder of books (see {@link loadBooks}).
 * @param dir folder path or file: URL
 */
export function loadCorpus(dir: string | URL): EmbeddedCorpus {
  return createEmbeddedCorpus(loadBooks(dir));
}
