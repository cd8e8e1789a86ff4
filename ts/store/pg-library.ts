/**
 * Node-only: the library in PostgreSQL. `loadLibrary` cuts every `<genre>__<book>.txt` of a
 * folder exactly as the embedded corpus does (corpus-node.ts bookFromSource) and writes each
 * book and its passages in one transaction, skipping books whose content hash is unchanged.
 * `createStoreCorpus` answers `WorkerClient.query` from the passages' full-text index
 * (websearch_to_tsquery, passages holding every term first, then ts_rank_cd; the book's
 * text-search configuration) with the embedded
 * corpus's hit shape. `locateInStore` finds a quote's spans: candidate passages from the
 * trigram index (pg_trgm word similarity), then the exact quote index on those only.
 */
import { createHash } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import { GroundwireError } from "../errors.js";
import { bookFromSource, checkBookFile, CorpusError, describeFsError, readBookSource } from "../moot/corpus-node.js";
import { createQuoteIndex, LOCATE_MIN_RATIO, type LocatedSpan, type QuoteIndexSource } from "../match/index.js";
import { bookKeyFromFileName, closeKeys, searchTerms, UnknownBookError, type Book, type EmbeddedCorpus, type Hit } from "../moot/index.js";
import { LOCK_CLASS, pgReason, StoreError, WINDOW_CHARS, WINDOW_STEP, type Store } from "./pg.js";
import { BOOKS_CHANNEL, followBooks } from "./pg-follow.js";

/** Bumped when the cutting of books changes, so `corpus load` re-cuts every book once. */
export const CUT_VERSION = "2";

/** PostgreSQL's built-in snowball configurations, by the language a Project Gutenberg header names. */
const CONFIGS: Record<string, string> = {
  arabic: "arabic", armenian: "armenian", basque: "basque", catalan: "catalan", danish: "danish", dutch: "dutch",
  english: "english", finnish: "finnish", french: "french", german: "german", greek: "greek", hindi: "hindi",
  hungarian: "hungarian", indonesian: "indonesian", irish: "irish", italian: "italian", lithuanian: "lithuanian",
  nepali: "nepali", norwegian: "norwegian", portuguese: "portuguese", romanian: "romanian", russian: "russian",
  serbian: "serbian", spanish: "spanish", swedish: "swedish", tamil: "tamil", turkish: "turkish", yiddish: "yiddish",
};

/**
 * A book's language from its header (`Language: English` in the first 8 KB) and the text-search
 * configuration for it: the language's own when PostgreSQL has one, `simple` when the header
 * names another, `english` when the header says nothing.
 */
export function bookLanguage(head: string): { language: string | null; config: string } {
  // the value starts at its first non-blank character, so the blanks before it are read one way only
  const m = /^Language:[ \t]*([^\s][^\n\r]{0,59})$/m.exec(head);
  if (!m) return { language: null, config: "english" };
  const language = m[1]!.trim();
  const first = language.toLowerCase().split(/[\s,;/]+/, 1)[0]!;
  return { language, config: Object.hasOwn(CONFIGS, first) ? CONFIGS[first]! : "simple" };
}

/** What one `corpus load` did. */
export interface LoadSummary {
  loaded: string[];
  unchanged: string[];
  passages: number;
  bytes: number;
  ms: number;
}

/** Progress of {@link loadLibrary}: called after each book. */
export type LoadProgress = (done: number, total: number, key: string, action: "loaded" | "unchanged") => void;

/**
 * Load every book of `dir` into the store: one transaction per book (its old passages removed
 * and the new ones written together, so a reader sees the old book or the new one), skipped when
 * its content hash (the file, its entries index and {@link CUT_VERSION}) is the stored one.
 * @throws CorpusError naming the file (as the embedded corpus would), StoreError on a database failure
 */
export async function loadLibrary(store: Store, dir: string, onProgress?: LoadProgress): Promise<LoadSummary> {
  const t0 = performance.now();
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new CorpusError(`corpus folder ${dir} is not a folder`);
    names = readdirSync(dir).sort();
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    throw new CorpusError(`corpus folder ${dir} ${describeFsError(dir, error)}`);
  }
  // every book file is checked before anything is written: its name, that it and its entries index
  // are regular files (a FIFO, socket, device, folder, link loop or dangling link is named) under their caps
  const files: Array<{ file: string; key: string }> = [];
  for (const file of names) {
    const key = bookKeyFromFileName(file);
    if (key) {
      checkBookFile(dir, file);
      files.push({ file, key });
    } else if (file.indexOf("__") >= 0 && /\.txt$/i.test(file)) {
      throw new CorpusError(`${join(dir, file)}: a book file is named <genre>__<book>.txt with ASCII letters, digits and - (the book part also . and _), e.g. novel__cafe-society.txt`);
    }
  }
  if (!files.length) throw new CorpusError(`corpus folder ${dir} holds no <genre>__<book>.txt file`);
  const twice = files.find((f, i) => files.findIndex((g) => g.key === f.key) !== i);
  if (twice) throw new CorpusError(`corpus folder ${dir}: two files are the book ${twice.key} (${files.filter((f) => f.key === twice.key).map((f) => f.file).join(", ")}); keep one`);
  const stored = new Map<string, string>();
  for (const row of (await q<{ key: string; content_hash: string }>(store, "SELECT key, content_hash FROM groundwire.books")).rows) stored.set(row.key, row.content_hash);
  const summary: LoadSummary = { loaded: [], unchanged: [], passages: 0, bytes: 0, ms: 0 };
  let done = 0;
  for (const { file, key } of files) {
    try {
      // read once: the bytes hashed are the bytes cut
      const source = readBookSource(dir, file);
      const hash = createHash("sha256").update(`groundwire-cut-${CUT_VERSION}\n`).update(source.text);
      if (source.entries) hash.update("\nentries\n").update(source.entries);
      const digest = hash.digest("hex");
      if (stored.get(key) === digest) {
        summary.unchanged.push(key);
        done++;
        onProgress?.(done, files.length, key, "unchanged");
        continue;
      }
      const book = bookFromSource(dir, file, key, source);
      const { language, config } = bookLanguage(source.text.subarray(0, 8192).toString("utf8"));
      // another load may have written this very content meanwhile: then nothing is written
      if (!(await writeBook(store, book, { hash: digest, bytes: source.text.length, language, config }))) {
        summary.unchanged.push(key);
        done++;
        onProgress?.(done, files.length, key, "unchanged");
        continue;
      }
      summary.loaded.push(key);
      summary.passages += book.passages.length;
      summary.bytes += source.text.length;
      done++;
      onProgress?.(done, files.length, key, "loaded");
    } catch (error) {
      // the books before this one are written, each whole: said, so a rerun after the fix is expected to load the rest
      if (done && error instanceof GroundwireError) {
        error.message += ` (stopped there: the ${done} book${done === 1 ? "" : "s"} before it ${done === 1 ? "is" : "are"} in the store, each whole; run corpus load again once it is fixed: unchanged books are skipped)`;
      }
      throw error;
    }
  }
  // fresh planner statistics, so the first queries use the indexes
  if (summary.loaded.length) await q(store, "ANALYZE groundwire.books, groundwire.passages, groundwire.passage_windows");
  summary.ms = performance.now() - t0;
  return summary;
}

/** Rows per INSERT of passages (each a handful of parameter arrays). */
const BATCH = 2000;

/** Write one book in one transaction, replacing what the store held under its key; false (nothing written) when the store holds this content already. */
export async function writeBook(store: Store, book: Book, meta: { hash: string; bytes: number; language: string | null; config: string }): Promise<boolean> {
  const client = await connect(store);
  try {
    await client.query("BEGIN");
    // two loaders of one book wait for each other rather than interleave; the second finds the first's content
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_CLASS.book, book.key]);
    const { rows: same } = await client.query("SELECT 1 FROM groundwire.books WHERE key = $1 AND content_hash = $2", [book.key, meta.hash]);
    if (same.length) {
      await client.query("COMMIT");
      return false;
    }
    await client.query("DELETE FROM groundwire.books WHERE key = $1", [book.key]);
    await client.query(
      `INSERT INTO groundwire.books (key, title, author, genre, structure, language, config, content_hash, bytes, passages)
       VALUES ($1, $2, $3, $4, $5, $6, $7::regconfig, $8, $9, $10)`,
      [book.key, book.title, book.author, book.genre, book.structure, meta.language, meta.config, meta.hash, meta.bytes, book.passages.length],
    );
    const sourceText = (p: Book["passages"][number]) => (book.text !== undefined && p.start !== undefined && p.end !== undefined ? book.text.slice(p.start, p.end) : null);
    for (let from = 0; from < book.passages.length; from += BATCH) {
      const part = book.passages.slice(from, from + BATCH);
      await client.query(
        `INSERT INTO groundwire.passages (book, ord, node_id, name, label, content, timestamp, gregorian_date, start_at, end_at, source_text, config)
         SELECT $1, o, n, nm, l, c, t, g, s, e, st, $2::regconfig
         FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::text[]) AS x(o, n, nm, l, c, t, g, s, e, st)`,
        [
          book.key,
          meta.config,
          part.map((_, i) => from + i),
          part.map((p) => p.node_id),
          part.map((p) => p.name),
          part.map((p) => p.label),
          part.map((p) => p.content),
          part.map((p) => p.timestamp ?? null),
          part.map((p) => p.gregorianDate ?? null),
          part.map((p) => p.start ?? null),
          part.map((p) => p.end ?? null),
          part.map(sourceText),
        ],
      );
    }
    await client.query(
      `INSERT INTO groundwire.passage_windows (book, ord, at, body)
       SELECT p.book, p.ord, g, substring(p.content FROM g + 1 FOR $2)
       FROM groundwire.passages p, generate_series(0, greatest(length(p.content) - $2 + $3, 0), $3) AS g
       WHERE p.book = $1`,
      [book.key, WINDOW_CHARS, WINDOW_STEP],
    );
    // running servers re-read their list of books when this commits (pg-follow.ts)
    await client.query("SELECT pg_notify($1, $2)", [BOOKS_CHANNEL, book.key]);
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw storeFailure(store, error);
  } finally {
    client.release();
  }
}

/** A book as `corpus list` and `GET /books` show it. */
export interface StoredBook {
  key: string;
  title: string;
  author: string;
  genre: string;
  structure: Book["structure"];
  passages: number;
  language: string | null;
  config: string;
  bytes: number;
  loadedAt: string;
}

/** Every stored book, sorted by key. */
export async function listBooks(store: Store): Promise<StoredBook[]> {
  const { rows } = await q<{ key: string; title: string; author: string; genre: string; structure: string; passages: number; language: string | null; config: string; bytes: string; loaded_at: Date }>(
    store,
    "SELECT key, title, author, genre, structure, passages, language, config::text AS config, bytes, loaded_at FROM groundwire.books ORDER BY key COLLATE \"C\"",
  );
  return rows.map((r) => ({
    key: r.key, title: r.title, author: r.author, genre: r.genre, structure: r.structure as Book["structure"], passages: r.passages,
    language: r.language, config: r.config, bytes: Number(r.bytes), loadedAt: r.loaded_at.toISOString(),
  }));
}

/** Remove a book and its passages; false when the store did not hold it. */
export async function removeBook(store: Store, key: string): Promise<boolean> {
  // the removal and its announcement to running servers (pg-follow.ts) in one statement
  const { rowCount } = await q(store, "WITH gone AS (DELETE FROM groundwire.books WHERE key = $1 RETURNING key) SELECT pg_notify($2, key) FROM gone", [key, BOOKS_CHANNEL]);
  return (rowCount ?? 0) > 0;
}

/** A whole stored book, its passages in order (as the embedded corpus holds it). */
export async function readBook(store: Store, key: string): Promise<Book | undefined> {
  return (await readBookVersion(store, key))?.book;
}

/**
 * A whole stored book and its version (the content hash `corpus load` stored), read in one
 * snapshot: a book replaced meanwhile is seen whole, old or new.
 */
export async function readBookVersion(store: Store, key: string): Promise<{ book: Book; version: string } | undefined> {
  const client = await connect(store);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows: books } = await client.query<{ key: string; title: string; author: string; genre: string; structure: string; content_hash: string }>(
      "SELECT key, title, author, genre, structure, content_hash FROM groundwire.books WHERE key = $1",
      [key],
    );
    const b = books[0];
    if (!b) {
      await client.query("COMMIT");
      return undefined;
    }
    const { rows } = await client.query<PassageRow & { source_text: string | null }>(`SELECT ${PASSAGE_COLUMNS}, source_text FROM groundwire.passages WHERE book = $1 ORDER BY ord`, [key]);
    await client.query("COMMIT");
    const book: Book = { key: b.key, title: b.title, author: b.author, genre: b.genre, structure: b.structure as Book["structure"], passages: rows.map(toPassage) };
    // the searchable text, in the file's offsets, rebuilt from the passages' own (as searchableText builds it)
    if (rows.length && rows.every((r) => r.source_text !== null && r.start_at !== null)) {
      let text = "";
      for (const r of [...rows].sort((x, y) => x.start_at! - y.start_at!)) text += " ".repeat(Math.max(0, r.start_at! - text.length)) + r.source_text!;
      book.text = text;
    }
    return { book, version: b.content_hash };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw storeFailure(store, error);
  } finally {
    client.release();
  }
}

const PASSAGE_COLUMNS = "node_id, name, label, content, timestamp, gregorian_date, start_at, end_at";
interface PassageRow {
  node_id: string;
  name: string;
  label: string;
  content: string;
  timestamp: string | null;
  gregorian_date: string | null;
  start_at: number | null;
  end_at: number | null;
}
function toPassage(r: PassageRow): Book["passages"][number] {
  const p: Book["passages"][number] = { node_id: r.node_id, name: r.name, label: r.label, content: r.content };
  if (r.timestamp !== null) p.timestamp = r.timestamp;
  if (r.gregorian_date !== null) p.gregorianDate = r.gregorian_date;
  if (r.start_at !== null) p.start = r.start_at;
  if (r.end_at !== null) p.end = r.end_at;
  return p;
}

/** Most query terms sent to the full-text search (a longer text keeps its first ones). */
const MAX_QUERY_TERMS = 64;

/**
 * The `websearch_to_tsquery` text for any input: its terms (split as the embedded engine splits
 * them) joined by ` or `, so a passage matching any of them is a candidate and ts_rank_cd ranks
 * those holding more of them, closer together, first. Operators a user did not mean (`-`, quotes,
 * a bare `or`) cannot appear: the terms hold no punctuation and `or` itself is left out.
 */
export function fullTextQuery(text: string, join = " or "): string {
  const terms: string[] = [];
  for (const t of searchTerms(text.slice(0, 20_000))) {
    const term = t.replace(/['’]/g, "");
    if (!term || /^or$/i.test(term)) continue;
    terms.push(term);
    if (terms.length >= MAX_QUERY_TERMS) break;
  }
  return terms.join(join);
}

/** The corpus of a store: the embedded corpus's interface, answered from PostgreSQL. */
export interface StoreCorpus extends EmbeddedCorpus {
  /** Re-read the catalogue (book keys and metadata) now. */
  refresh(): Promise<void>;
  /** A whole book, read from the store. */
  loadBook(key: string): Promise<Book | undefined>;
  /** A whole book and its version (its content hash), read from the store in one snapshot. */
  loadBookVersion(key: string): Promise<{ book: Book; version: string } | undefined>;
  /** Stop following the store's changes (the listening connection and the fallback timer). */
  close(): void;
}

/** Settings of {@link createStoreCorpus}. */
export interface StoreCorpusOptions {
  /**
   * Follow the store: re-read the list of books when `corpus load` or `corpus remove` commits
   * (LISTEN on one connection of the pool, pg-follow.ts), and every `refreshMs` in case an
   * announcement was lost. Off (default), the list is read at start and again when a query
   * names a book it lacks; a long-running server turns it on.
   */
  follow?: boolean;
  /** The fallback re-read while following (default 60 s). */
  refreshMs?: number;
}

/**
 * The store's books as a WorkerClient: `query` runs the full-text search; `keys`, `books` and
 * `resolve` answer from a catalogue of the books' metadata (a few hundred bytes a book), read at
 * start, again when a query names a book it lacks (at most once a second), and, when following,
 * whenever a book is loaded or removed.
 */
export async function createStoreCorpus(store: Store, options: StoreCorpusOptions = {}): Promise<StoreCorpus> {
  let catalogue = new Map<string, StoredBook>();
  let refreshed = 0;
  const refresh = async () => {
    refreshed = Date.now();
    catalogue = new Map((await listBooks(store)).map((b) => [b.key, b]));
  };
  await refresh();
  // announcements of a bulk load come one per book: one re-read at a time, one more after it when any came meanwhile
  let running: Promise<void> | null = null;
  let again = false;
  const refreshSoon = () => {
    if (running) {
      again = true;
      return;
    }
    running = refresh()
      .catch(() => {})
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          refreshSoon();
        }
      });
  };
  const follower = options.follow ? followBooks(store, refreshSoon) : null;
  const timer = options.follow ? setInterval(refreshSoon, options.refreshMs ?? 60_000) : null;
  timer?.unref();
  const keys = () => [...catalogue.keys()];
  const corpus: StoreCorpus = {
    keys,
    books: () => [...catalogue.values()].map((b) => ({ key: b.key, title: b.title, author: b.author, genre: b.genre, structure: b.structure, passages: b.passages })),
    // the catalogue holds no book's text: callers that would read a whole book see none (loadBook reads one)
    book: () => undefined,
    resolve(key) {
      if (catalogue.has(key)) return key;
      throw new UnknownBookError(key, closeKeys(key, keys()), keys());
    },
    async query(text, { corpus: key, k }) {
      // a book loaded since the last read; at most once a second, so queries for unknown keys cannot keep re-reading the list
      if (!catalogue.has(key) && Date.now() - refreshed > 1000) await refresh();
      corpus.resolve(key);
      const search = fullTextQuery(text);
      if (!search || k <= 0) return { hits: [] };
      // Passages holding every term first (ts_rank_cd has no inverse document frequency: on the OR
      // query alone a long passage full of common words outranks the one a quote came from), then
      // by cover density (normalized by the mean distance between covers).
      const { rows } = await q<PassageRow & { title: string; author: string; genre: string; score: number }>(
        store,
        `SELECT p.node_id, p.name, p.label, p.content, p.timestamp, p.gregorian_date, b.title, b.author, b.genre,
                ts_rank_cd(p.tsv, query.q, 4) AS score
         FROM groundwire.books b
         CROSS JOIN LATERAL websearch_to_tsquery(b.config, $2) AS query(q)
         CROSS JOIN LATERAL websearch_to_tsquery(b.config, $4) AS every(q)
         JOIN groundwire.passages p ON p.book = b.key
         WHERE b.key = $1 AND p.tsv @@ query.q
         ORDER BY (p.tsv @@ every.q) DESC, score DESC, p.ord
         LIMIT $3`,
        [key, search, k, fullTextQuery(text, " ")],
      );
      const hits: Hit[] = rows.map((r) => {
        const hit: Hit = { node_id: r.node_id, name: r.name, label: r.label, content: r.content, title: r.title, author: r.author, genre: r.genre, score: r.score };
        if (r.timestamp !== null) hit.timestamp = r.timestamp;
        if (r.gregorian_date !== null) hit.gregorianDate = r.gregorian_date;
        return hit;
      });
      return { hits };
    },
    refresh,
    loadBook: (key) => readBook(store, key),
    loadBookVersion: (key) => readBookVersion(store, key),
    close() {
      if (timer) clearInterval(timer);
      follower?.close();
    },
  };
  return corpus;
}

/** Settings of {@link locateInStore}. */
export interface StoreLocateOptions {
  minRatio?: number;
  limit?: number;
  /** Only this book. */
  book?: string;
  timeoutMs?: number;
  /** Most candidate passages taken from the trigram index (default 200). */
  candidates?: number;
  /** pg_trgm word-similarity threshold of a candidate window (default: 0.6, then 0.45 when that finds no span). */
  similarity?: number;
}

/**
 * Where a quote is from, over the whole stored library: the passages holding a window (WINDOW_CHARS
 * characters, one every WINDOW_STEP) whose trigram word similarity to the quote is at least
 * `similarity` (the GIN trigram index, best first, at most `candidates`; 0.6, then 0.45 when that
 * finds no span), each with the passages beside it, searched by the exact quote index
 * (createQuoteIndex: the same windows and ratios as `groundwire locate`). Offsets are UTF-16
 * code units into the book's .txt file as given, as there.
 *
 * Not provably complete: a span the exhaustive search finds at ratio ≥ 0.8 may lie in a
 * passage whose trigram similarity falls under the threshold (bench/store-locate.ts measures it).
 */
export async function locateInStore(store: Store, quote: string, options: StoreLocateOptions = {}): Promise<LocatedSpan[]> {
  const minRatio = options.minRatio ?? LOCATE_MIN_RATIO;
  const thresholds = options.similarity !== undefined ? [options.similarity] : [0.6, 0.45];
  let spans: LocatedSpan[] = [];
  for (const similarity of thresholds) {
    spans = await locateAt(store, quote, { ...options, minRatio, similarity });
    if (spans.length) break;
  }
  return options.limit === undefined ? spans : spans.slice(0, options.limit);
}

/** The quote's pieces searched in the windows: the whole quote when it fits a window step, else its first and last WINDOW_STEP characters (cut at spaces). */
function quotePieces(quote: string): string[] {
  const text = quote.replace(/\s+/g, " ").trim();
  if (text.length <= WINDOW_STEP) return [text];
  const head = text.slice(0, WINDOW_STEP).replace(/\s\S*$/, "");
  const tail = text.slice(-WINDOW_STEP).replace(/^\S*\s/, "");
  return [head, tail];
}

async function locateAt(store: Store, quote: string, options: StoreLocateOptions & { minRatio: number; similarity: number }): Promise<LocatedSpan[]> {
  const max = options.candidates ?? 200;
  const client = await connect(store);
  let rows: Array<{ book: string; ord: number }>;
  try {
    await client.query("BEGIN");
    await client.query("SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)", [String(options.similarity)]);
    rows = [];
    for (const piece of quotePieces(quote)) {
      const found = await client.query<{ book: string; ord: number }>(
        `SELECT book, ord FROM groundwire.passage_windows
         WHERE $1 <% body AND ($2::text IS NULL OR book = $2)
         GROUP BY book, ord
         ORDER BY max(word_similarity($1, body)) DESC, book, ord
         LIMIT $3`,
        [piece, options.book ?? null, max],
      );
      rows.push(...found.rows);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw storeFailure(store, error);
  } finally {
    client.release();
  }
  if (!rows.length) return [];
  // each candidate with its neighbours (a span may cross into the next passage), as runs of consecutive passages
  const wanted = new Map<string, Set<number>>();
  for (const r of rows) {
    const set = wanted.get(r.book) ?? new Set<number>();
    for (const o of [r.ord - 1, r.ord, r.ord + 1]) if (o >= 0) set.add(o);
    wanted.set(r.book, set);
  }
  const books = [...wanted.keys()];
  const { rows: passages } = await q<{ book: string; ord: number; label: string; source_text: string; start_at: number }>(
    store,
    `SELECT p.book, p.ord, p.label, p.source_text, p.start_at
     FROM unnest($1::text[], $2::int[]) AS w(book, ord)
     JOIN groundwire.passages p ON p.book = w.book AND p.ord = w.ord
     ORDER BY p.book, p.ord`,
    [books.flatMap((b) => [...wanted.get(b)!].map(() => b)), books.flatMap((b) => [...wanted.get(b)!])],
  );
  // runs of consecutive passages, each one source of the quote index, placed at its offset in its book
  const sources: QuoteIndexSource[] = [];
  const base: Array<{ book: string; at: number }> = [];
  let run: { book: string; ord: number; at: number; text: string; passages: { label: string; start: number; end: number }[] } | null = null;
  const flush = () => {
    if (!run) return;
    sources.push({ key: String(sources.length), text: run.text, passages: run.passages });
    base.push({ book: run.book, at: run.at });
    run = null;
  };
  for (const p of passages) {
    if (!run || run.book !== p.book || run.ord + 1 !== p.ord) {
      flush();
      run = { book: p.book, ord: p.ord, at: p.start_at, text: "", passages: [] };
    } else {
      // the file's whitespace between two passages, as a paragraph break and spaces: offsets stay
      // the file's, and a span's markup runs are read within paragraphs as in the file (markupSafeSpan)
      const gap = Math.max(0, p.start_at - run.at - run.text.length);
      run.text += gap >= 2 ? `\n\n${" ".repeat(gap - 2)}` : " ".repeat(gap);
      run.ord = p.ord;
    }
    run.passages.push({ label: p.label, start: run.text.length, end: run.text.length + p.source_text.length });
    run.text += p.source_text;
  }
  flush();
  const index = createQuoteIndex(sources);
  const spans = index.locate(quote, { minRatio: options.minRatio, timeoutMs: options.timeoutMs });
  const out = spans.map((s) => {
    const b = base[Number(s.source)]!;
    return { ...s, source: b.book, sourceIndex: books.indexOf(b.book), start: s.start + b.at, end: s.end + b.at };
  });
  // best first, then by book and place (the exhaustive locate's order for equal ratios)
  out.sort((a, b) => b.ratio - a.ratio || (a.source < b.source ? -1 : a.source > b.source ? 1 : a.start - b.start));
  return out;
}

async function connect(store: Store): Promise<pg.PoolClient> {
  try {
    return await store.pool.connect();
  } catch (error) {
    throw storeFailure(store, error);
  }
}

/** A query on the pool, its failure a StoreError naming the store (redacted). */
export async function q<R extends pg.QueryResultRow = pg.QueryResultRow>(store: Store, sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
  try {
    return await store.pool.query<R>(sql, params);
  } catch (error) {
    throw storeFailure(store, error);
  }
}

function storeFailure(store: Store, error: unknown): Error {
  if (error instanceof GroundwireError) return error;
  return new StoreError(`the store ${store.shown}: ${pgReason(error)}`, error);
}
