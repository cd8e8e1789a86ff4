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
 * Read every `<genre>__<book>.txt` in a folder as a {@link Book} (files not
 * following that naming are skipped), cut by its own structure (see
 * `cutBook`). A `<genre>__<book>.entries.json` beside a book overrides that
 * with an entries index of the shape `ENTRIES_INDEX_SHAPE` (retrieval.ts).
 *
 * @param dir folder path or file: URL
 * @throws CorpusError when the folder is missing, holds no book, or an entries
 *   file is not valid JSON or not of the documented shape (one line naming the file)
 */
export function loadBooks(dir: string | URL): Book[] {
  const path = dir instanceof URL ? fileURLToPath(dir) : dir;
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new CorpusError(`corpus folder ${path} does not exist`);
  const books: Book[] = [];
  for (const file of readdirSync(path).sort()) {
    const key = bookKeyFromFileName(file);
    if (!key) continue;
    const text = readFileSync(join(path, file), "utf8").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    const entriesPath = join(path, file.replace(/\.txt$/, ".entries.json"));
    let entries: DiaryEntry[] | undefined;
    if (existsSync(entriesPath)) {
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
    books.push(parseBook(key, text, entries));
  }
  if (!books.length) throw new CorpusError(`corpus folder ${path} holds no <genre>__<book>.txt file`);
  return books;
}

/**
 * The embedded corpus over a folder of books (see {@link loadBooks}).
 * @param dir folder path or file: URL
 */
export function loadCorpus(dir: string | URL): EmbeddedCorpus {
  return createEmbeddedCorpus(loadBooks(dir));
}
