/**
 * Node-only: load the book corpus from a folder of `<genre>__<book>.txt` files,
 * each cut by its own structure (an optional `<genre>__<book>.entries.json`
 * beside a book overrides it with an entries index).
 */
import { lstatSync, readdirSync, readlinkSync, statSync, type Stats } from "node:fs";
import { decodeUtf8, InputFileError, looksUtf16, readRegularFile } from "../files.js";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookKeyFromFileName, createEmbeddedCorpus, parseBook, readEntriesIndex, type Book, type DiaryEntry, type EmbeddedCorpus } from "./retrieval.js";
import { GroundwireError } from "../errors.js";

/** A corpus folder could not be read. */
export class CorpusError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_request", status: 400 });
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
 * @param dir folder path or file: URL, or several: their books make one corpus (a key found in
 *   two folders is an error naming both)
 * @throws CorpusError (one line naming the file) when the folder is missing or not
 *   a folder, its books hold more than MAX_CORPUS_BYTES (64 MiB) in all, holds no book, a `.txt` named with `__` is not a valid key, a book file
 *   is not a regular UTF-8 file or holds no passage of text, or an entries file is not valid JSON or not of the
 *   documented shape
 */
export function loadBooks(dir: string | URL | readonly (string | URL)[]): Book[] {
  if (!Array.isArray(dir)) return loadFolder(dir as string | URL);
  const dirs = dir as readonly (string | URL)[];
  if (!dirs.length) throw new CorpusError("no corpus folder given");
  // several folders make one corpus: a key is in one folder only, and the bound holds for all of them
  const from = new Map<string, string>();
  const books: Book[] = [];
  let total = 0;
  for (const d of dirs) {
    const path = d instanceof URL ? fileURLToPath(d) : d;
    for (const book of loadFolder(path)) {
      const first = from.get(book.key);
      if (first !== undefined) {
        throw new CorpusError(`book key ${JSON.stringify(book.key)} is in two corpus folders, ${first} and ${path}: rename one file (the key is its <genre>__<book> name)`);
      }
      from.set(book.key, path);
      total += book.passages.reduce((n, p) => n + p.content.length, 0);
      books.push(book);
    }
  }
  if (total > MAX_CORPUS_BYTES) {
    throw new CorpusError(`corpus folders ${dirs.map(String).join(", ")}: their books are over the ${MAX_CORPUS_BYTES / 2 ** 20} MiB a corpus may hold`);
  }
  return books;
}

function loadFolder(dir: string | URL): Book[] {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir;
  const st = statOrNull(path, (reason) => `corpus folder ${path} ${reason}`);
  if (!st) throw new CorpusError(`corpus folder ${path} does not exist`);
  if (!st.isDirectory()) throw new CorpusError(`corpus folder ${path} is not a folder`);
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    throw new CorpusError(`corpus folder ${path} ${describeFsError(path, error)}`);
  }
  // every book is held, indexed, at once: bounded in all, not only each, before any is read
  let total = 0;
  for (const file of names) {
    if (!bookKeyFromFileName(file)) continue;
    const st = statOrNull(join(path, file), (reason) => `${join(path, file)}: ${reason}`);
    if (!st?.isFile()) continue;
    // one book over its own cap is named as such (readBookText says the same)
    if (st.size > MAX_BOOK_BYTES) throw new CorpusError(`${join(path, file)}: ${st.size.toLocaleString("en-US")} bytes, over the ${MAX_BOOK_BYTES / 2 ** 20} MiB a book may hold`);
    total += st.size;
  }
  if (total > MAX_CORPUS_BYTES) {
    throw new CorpusError(`corpus folder ${path}: its books are ${total.toLocaleString("en-US")} bytes, over the ${MAX_CORPUS_BYTES / 2 ** 20} MiB a corpus may hold`);
  }
  const books: Book[] = [];
  for (const file of names.sort()) {
    const key = bookKeyFromFileName(file);
    if (!key) {
      // Meant as a book (`__` in a .txt name) but not a key we can cite: refuse by name rather
      // than leave a dropped-in `novel__café.txt` silently out of the corpus.
      if (file.indexOf("__") >= 0 && /\.txt$/i.test(file)) {
        throw new CorpusError(`${join(path, file)}: a book file is named <genre>__<book>.txt with ASCII letters, digits and - (the book part also . and _), e.g. novel__cafe-society.txt`);
      }
      continue;
    }
    books.push(loadBookFile(path, file, key));
  }
  if (!books.length) throw new CorpusError(`corpus folder ${path} holds no <genre>__<book>.txt file`);
  return books;
}

/**
 * One book of a corpus folder, cut as {@link loadBooks} cuts it (its `.entries.json` beside it
 * overriding its structure): the one place a book file becomes a {@link Book}, for the
 * embedded corpus and for `groundwire corpus load` alike.
 *
 * @param path the folder
 * @param file the book's file name, `<genre>__<book>.txt`
 * @param key its key (bookKeyFromFileName)
 * @throws CorpusError as loadBooks does for one book
 */
export function loadBookFile(path: string, file: string, key: string): Book {
  return bookFromSource(path, file, key, readBookSource(path, file));
}

/** A book file's bytes and its entries index's (null when it has none), as read from the folder. */
export interface BookSource {
  text: Buffer;
  entries: Buffer | null;
}

/** The entries index's file name of a book file (`<genre>__<book>.entries.json`, whatever the case of `.txt`). */
export function entriesFileName(file: string): string {
  return file.replace(/\.txt$/i, ".entries.json");
}

/**
 * Check a book file and its entries index without reading them: each a regular file (not a
 * FIFO, socket, device or folder; a link followed, a loop or dangling link named) under its cap.
 * @returns the book file's size in bytes
 * @throws CorpusError naming the file
 */
export function checkBookFile(path: string, file: string): number {
  const bookPath = join(path, file);
  const size = checkRegular(bookPath, MAX_BOOK_BYTES, "a book");
  if (size === null) throw new CorpusError(`${bookPath}: does not exist`);
  checkRegular(join(path, entriesFileName(file)), MAX_ENTRIES_BYTES, "an entries index");
  return size;
}

/**
 * A book file's bytes and its entries index's, each checked as {@link checkBookFile} checks
 * them and read without ever waiting on a FIFO put in its place, at most its cap.
 * @throws CorpusError naming the file
 */
export function readBookSource(path: string, file: string): BookSource {
  const bookPath = join(path, file);
  const text = readCapped(bookPath, MAX_BOOK_BYTES, "a book");
  if (text === null) throw new CorpusError(`${bookPath}: does not exist`);
  return { text, entries: readCapped(join(path, entriesFileName(file)), MAX_ENTRIES_BYTES, "an entries index") };
}

/**
 * A book from its bytes (read by {@link readBookSource}): strictly decoded, its entries index
 * checked, cut.
 * @throws CorpusError naming the file
 */
export function bookFromSource(path: string, file: string, key: string, source: BookSource): Book {
  const text = decodeBookText(join(path, file), source.text).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const entriesPath = join(path, entriesFileName(file));
  let entries: DiaryEntry[] | undefined;
  if (source.entries) {
    let json: string;
    try {
      json = decodeUtf8(source.entries, entriesPath);
    } catch (error) {
      if (error instanceof InputFileError) throw new CorpusError(error.message);
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(json);
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
  return book;
}

/** stat of a file that must be regular and at most `maxBytes`; null when nothing is there. */
function checkRegular(file: string, maxBytes: number, what: string): number | null {
  const stat = statOrNull(file, (reason) => `${file}: ${reason}`);
  if (!stat) return null;
  if (!stat.isFile()) throw new CorpusError(`${file}: not a regular file`);
  if (stat.size > maxBytes) throw new CorpusError(`${file}: ${stat.size.toLocaleString("en-US")} bytes, over the ${maxBytes / 2 ** 20} MiB ${what} may hold`);
  return stat.size;
}

/** The bytes of a file checked by {@link checkRegular}; opened non-blocking and checked again, so a FIFO swapped in is never waited on. */
function readCapped(file: string, maxBytes: number, what: string): Buffer | null {
  if (checkRegular(file, maxBytes, what) === null) return null;
  try {
    return readRegularFile(file, { maxBytes });
  } catch (error) {
    if (error instanceof InputFileError) throw new CorpusError(error.message);
    throw error;
  }
}

/**
 * The largest book file read, in bytes (64 MiB): the longest books on Project Gutenberg
 * (complete Shakespeare, the KJV) are under 6 MB; a bigger file is almost certainly not one
 * book, and would hold the process for minutes.
 */
export const MAX_BOOK_BYTES = 64 * 2 ** 20;
/**
 * The most bytes a corpus folder's books may hold in all (64 MiB): every book is loaded and
 * indexed at once, and `locate` over one 66 MB book peaked at 1.2 GB RSS.
 */
export const MAX_CORPUS_BYTES = 64 * 2 ** 20;
/** The largest `.entries.json` read, in bytes (16 MiB). */
export const MAX_ENTRIES_BYTES = 16 * 2 ** 20;

/**
 * A book file's text, strictly UTF-8: a Latin-1 file (common among older plain-text
 * books) would otherwise decode to U+FFFD and be quoted so.
 * @throws CorpusError naming the file: UTF-16 or holding a NUL byte, or not UTF-8
 */
function decodeBookText(file: string, bytes: Buffer): string {
  // UTF-16 (what Windows calls "Unicode") of ASCII text is valid UTF-8 with a NUL after every letter,
  // so strict decoding alone would take it as a book of "C\0h\0a\0…"; and with a BOM the Latin-1 advice
  // below would be wrong. No text book holds U+0000.
  if (looksUtf16(bytes) || bytes.includes(0)) {
    throw new CorpusError(`${file}: UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CorpusError(`${file}: not UTF-8 text (convert it first, e.g. iconv -f latin1 -t utf-8)`);
  }
}

/**
 * What a file system error on `path` means, as the end of a sentence naming the path:
 * `is a symbolic link loop`, `is a symbolic link to "x", which does not exist`,
 * `does not exist`, `cannot be read: permission denied`, `is not in a folder (a part of the
 * path is a file)`, or `cannot be read (<code>)`.
 *
 * @param path the path the error is about
 * @param error what node:fs threw
 */
export function describeFsError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return "is a symbolic link loop (too many levels of links)";
  if (code === "ENOENT") {
    try {
      if (lstatSync(path).isSymbolicLink()) return `is a symbolic link to ${JSON.stringify(readlinkSync(path))}, which does not exist`;
    } catch {
      // not there at all
    }
    return "does not exist";
  }
  if (code === "EACCES" || code === "EPERM") return "cannot be read: permission denied";
  if (code === "ENOTDIR") return "is not in a folder (a part of the path is a file)";
  return `cannot be read (${code ?? (error as Error).message})`;
}

/**
 * stat(2) of `path`, following links: null when nothing is there (a missing path, not a
 * dangling link); any other failure (a link loop, a dangling link, permission) is a
 * CorpusError whose message is `message(reason)` with the reason from {@link describeFsError}.
 */
function statOrNull(path: string, message: (reason: string) => string): Stats | null {
  try {
    return statSync(path);
  } catch (error) {
    const reason = describeFsError(path, error);
    if (reason === "does not exist") return null;
    throw new CorpusError(message(reason));
  }
}

/**
 * The embedded corpus over a folder of books, or several (see {@link loadBooks}).
 * @param dir folder path or file: URL, or several
 */
export function loadCorpus(dir: string | URL | readonly (string | URL)[]): EmbeddedCorpus {
  return createEmbeddedCorpus(loadBooks(dir));
}
