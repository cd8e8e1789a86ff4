/**
 * Node-only: load the book corpus from a folder of `<genre>__<book>.txt` files
 * (a diary's `<genre>__<book>.entries.json` beside it gives its dated entries).
 */
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookKeyFromFileName, createEmbeddedCorpus, parseBook, type Book, type DiaryEntry, type EmbeddedCorpus } from "./retrieval.js";

/** A corpus folder could not be read. */
export class CorpusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorpusError";
  }
}

/**
 * Read every `<genre>__<book>.txt` in a folder as a {@link Book} (files not
 * following that naming are skipped). A `.entries.json` beside a book
 * (`{entries: [{id, date, offset}]}`) splits it into dated entries.
 *
 * @param dir folder path or file: URL
 * @throws CorpusError when the folder is missing, holds no book, or an entries file is not valid JSON
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
      try {
        entries = (JSON.parse(readFileSync(entriesPath, "utf8")) as { entries: DiaryEntry[] }).entries;
      } catch (error) {
        throw new CorpusError(`${entriesPath}: not a valid entries index (${(error as Error).message})`);
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
