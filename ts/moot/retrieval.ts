/**
 * Retrieval for moots: the WorkerClient interface, books parsed into passages
 * (browser-safe: give it the texts), an embedded BM25+ corpus on MiniSearch,
 * and an HTTP client for a remote worker.
 */
import type MiniSearch from "minisearch";
import { words } from "../match/index.js";
import { levenshtein } from "../deps/levenshtein.js";
import { miniSearch } from "../deps/minisearch.js";
import { bookBody, CHUNK_CHARS, cutBook, unitHeading, VERSE_REFERENCE, type BookPassage, type BookStructure } from "./book-structure.js";
import { coverBody } from "./book-cover.js";
import { readBookMetadata } from "./book-metadata.js";
import { EndpointError, joinEndpointPath, postToEndpoint, upstreamFault } from "../net/http.js";
import { redactUrl } from "../net/redact.js";
import { GroundwireError, ArgumentError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";
import { quoteValue } from "../quote-value.js";

export { bookBody, CHUNK_CHARS, cutBook, cutChapters, cutDiary, cutDictionary, cutParagraphs, cutVerses, julianToGregorian } from "./book-structure.js";
export { readBookMetadata } from "./book-metadata.js";
export type { BookPassage, BookStructure } from "./book-structure.js";

/** One retrieved passage as a worker returns it. */
export interface Hit {
  /** Stable id of the passage, e.g. `novel/frankenstein#chapter-3-2` or `diary/pepys-1660#entry-1660-05-29`. */
  node_id: string;
  /** The passage's id within its book (`chapter-3-2`, `entry-1660-05-29`, `genesis-1-1-10`). */
  name: string;
  /** Where a reader finds the passage, as the book prints it (`Chapter 3, part 2`, `MAY 1660: 29th`, `Genesis 1:1–10`); absent from workers that do not send it. */
  label?: string;
  content: string;
  /** A worker's short form of the passage: the passage's text when `content` is empty or absent (as the seed reads hits). */
  summary?: string;
  title: string;
  author: string;
  genre: string;
  /** A diary entry's date as printed, ISO (`1660-05-29`); absent for books. */
  timestamp?: string;
  /** An Old Style diary entry's date converted to the Gregorian calendar (`1660-06-08`). */
  gregorianDate?: string;
  /** Retrieval score (BM25+), higher is better; informational. */
  score?: number;
}

/** Anything that answers scoped passage queries: the embedded corpus or a remote worker. */
export interface WorkerClient {
  /**
   * The `k` best passages for `text`, from book `corpus` only (a key `<genre>/<book>`).
   * @throws UnknownBookError when `corpus` is not a book this worker holds
   */
  query(text: string, options: { corpus: string; k: number }): Promise<{ hits: Hit[] }>;
}

/**
 * A book key was asked for that the corpus does not hold. `close` lists the
 * nearest keys; when none is close, the message lists `known` (up to 10).
 */
export class UnknownBookError extends GroundwireError {
  constructor(
    readonly key: string,
    readonly close: string[],
    known: readonly string[] = [],
  ) {
    const hint = close.length
      ? `; did you mean ${close.map((k) => JSON.stringify(k)).join(" or ")}?`
      : known.length && known.length <= 10
        ? `; the corpus holds ${known.join(", ")}`
        : "";
    // a key pasted by mistake (a whole paragraph) is cut, with its own length
    super(`unknown book ${quoteValue(key)}${hint}`, { code: "not_found", status: 404 });
    this.name = "UnknownBookError";
  }
}

/**
 * A book's key from its file name: `diary__pepys-1660.txt` → `diary/pepys-1660`;
 * null when the name does not follow `<genre>__<book>.txt`.
 */
export function bookKeyFromFileName(fileName: string): string | null {
  checkArgs("bookKeyFromFileName", arguments, "fileName:string");
  const m = /^([a-z0-9][a-z0-9-]*)__([a-z0-9][a-z0-9._-]*)\.txt$/i.exec(fileName);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** A book ready for indexing: key, metadata read from its text, how it was cut, and its passages in order. */
export interface Book {
  key: string;
  title: string;
  author: string;
  genre: string;
  /** How the passages were found: from the text's own structure, or from an entries index (`"index"`). */
  structure: BookStructure | "index";
  passages: BookPassage[];
  /**
   * The book's file as given up to its last passage's end, with what no passage quotes blanked to
   * spaces (Project Gutenberg's header; verse numbers): an offset into it is an offset into the
   * file ({@link searchableText}). `createQuoteIndex` searches it, so a located span's offsets are
   * the file's.
   */
  text?: string;
}

/**
 * The text a book's quotes are found in, in the file's offsets: `text` up to its last passage's
 * end, every character outside the passages' spans and (for a verse-numbered book) every verse
 * reference at a line's start replaced by a space. An offset into it is an offset into the file.
 */
export function searchableText(text: string, passages: readonly BookPassage[], verses = false): string {
  checkArgs("searchableText", arguments, "text:string passages:array verses?:boolean");
  const spans = passages.filter((p) => p.start !== undefined && p.end !== undefined).sort((a, b) => a.start! - b.start!);
  let out = "";
  for (const p of spans) {
    if (p.end! <= out.length) continue;
    const from = Math.max(out.length, p.start!);
    out += " ".repeat(from - out.length);
    const slice = text.slice(from, p.end);
    out += verses ? slice.replace(VERSE_REFERENCE, (m) => " ".repeat(m.length)) : slice;
  }
  return out;
}

/**
 * One entry of a book's entries index (`<genre>__<book>.entries.json`, an
 * optional override of the structure found in the text). `offset` is a UTF-16
 * index into the text where the entry starts; it runs to the next entry's
 * offset or the end of the book's own text (never into a licence or footer).
 */
export interface DiaryEntry {
  offset: number;
  /** Passage id within the book; default `entry-<date>` or `entry-<n>`. */
  id?: string;
  /** Where a reader finds it, as printed (`MAY 1660: 29th`); default the date, else the heading. */
  label?: string;
  /** The date as printed, ISO `YYYY-MM-DD`, or null when the entry does not say. */
  date?: string | null;
  /** The date converted to the Gregorian calendar, when the printed one is Julian. */
  gregorianDate?: string | null;
  /** The entry's heading as printed, used for the label when `label` is absent. */
  heading?: string | null;
  /** The month or year heading printed above the entry (`MAY 1660`), put before the heading in a default label. */
  month?: string | null;
}

/** The shape an entries index must have, said in its error messages. */
export const ENTRIES_INDEX_SHAPE = '{"entries": [{"offset": <UTF-16 index>, "id"?: string, "label"?: string, "date"?: "YYYY-MM-DD" | null, "gregorianDate"?: "YYYY-MM-DD" | null, "heading"?: string, "month"?: string}, ...]}';

/** An entries index does not have the documented shape; the message names where and {@link ENTRIES_INDEX_SHAPE}. */
export class EntriesIndexError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_request", status: 400 });
    this.name = "EntriesIndexError";
  }
}

/**
 * Check parsed JSON against the entries-index shape ({@link ENTRIES_INDEX_SHAPE}).
 *
 * @param data the parsed JSON
 * @param textLength the book's length in UTF-16 code units (offsets must fall inside it)
 * @param source the file name, for messages
 * @throws EntriesIndexError naming the first thing wrong (`pepys.entries.json: expected an object {"entries": [...]}, got an array`)
 */
export function readEntriesIndex(data: unknown, textLength: number, source = "entries index"): DiaryEntry[] {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`);
  if (typeof data !== "object" || data === null || Array.isArray(data) || !Array.isArray((data as { entries?: unknown }).entries)) {
    const got = typeof data === "object" && data !== null && !Array.isArray(data) ? 'an object without an "entries" array' : kind(data);
    throw new EntriesIndexError(`${source}: expected ${ENTRIES_INDEX_SHAPE}, got ${got}`);
  }
  const entries = (data as { entries: unknown[] }).entries;
  const isDate = (v: unknown) => v === undefined || v === null || (typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v));
  const isText = (v: unknown) => v === undefined || v === null || typeof v === "string";
  entries.forEach((e, i) => {
    const at = `${source}: entries[${i}]`;
    if (typeof e !== "object" || e === null || Array.isArray(e)) throw new EntriesIndexError(`${at} is ${kind(e)}, expected an object with an "offset"`);
    const o = e as Record<string, unknown>;
    if (!Number.isInteger(o.offset) || (o.offset as number) < 0 || (o.offset as number) > textLength) {
      throw new EntriesIndexError(`${at}.offset must be an integer from 0 to ${textLength} (the text's length in UTF-16 code units), got ${JSON.stringify(o.offset)}`);
    }
    for (const f of ["date", "gregorianDate"]) if (!isDate(o[f])) throw new EntriesIndexError(`${at}.${f} must be "YYYY-MM-DD" or null, got ${JSON.stringify(o[f])?.slice(0, 40)}`);
    for (const f of ["id", "label", "heading", "month"]) if (!isText(o[f])) throw new EntriesIndexError(`${at}.${f} must be a string, got ${kind(o[f])}`);
  });
  return entries as DiaryEntry[];
}

/**
 * Split a book into one passage per entry of an entries index. Entry i runs
 * from its offset to the next entry's, and never past the end of the book's
 * own text ({@link bookBody}: a Project Gutenberg footer or licence is not an
 * entry); entries starting past it are dropped, as is a trailing all-capitals
 * month heading. `timestamp` is the entry's printed date.
 */
export function diaryEntries(key: string, text: string, entries: readonly DiaryEntry[]): BookPassage[] {
  checkArgs("diaryEntries", arguments, "key:string text:string entries:array");
  const { end: bodyEnd } = bookBody(text);
  const sorted = [...entries].filter((e) => e.offset < bodyEnd).sort((a, b) => a.offset - b.offset);
  return sorted.map((e, i) => {
    const end = Math.min(bodyEnd, i + 1 < sorted.length ? sorted[i + 1]!.offset : bodyEnd);
    const raw = text.slice(e.offset, end);
    const content = raw.replace(/\n\s*[A-Z][A-Z0-9 –—-]+\s*$/, "").trim();
    const start = e.offset + (raw.length - raw.trimStart().length);
    const name = e.id ?? (e.date ? `entry-${e.date}` : `entry-${i + 1}`);
    const passage: BookPassage = {
      node_id: `${key}#${name}`,
      name,
      label: e.label ?? (e.heading ? (e.month ? `${e.month}: ${e.heading}` : e.heading) : (e.date ?? e.month ?? name)),
      content,
      start,
      end: start + content.length,
    };
    if (e.date) passage.timestamp = e.date;
    if (e.gregorianDate) passage.gregorianDate = e.gregorianDate;
    return passage;
  });
}

/**
 * Parse one book's text into a {@link Book}: title and author from the text
 * ({@link readBookMetadata}), genre from the key, passages from an entries
 * index when one is given, else from the book's own structure
 * ({@link cutBook}: dated entries, verses, headwords, chapters, or paragraph
 * chunks).
 *
 * @param key `<genre>/<book>`
 * @param text the book's full text (LF line ends)
 * @param entries an entries index overriding the structure found in the text
 * @throws ArgumentError when the key is not `<genre>/<book>`
 */
export function parseBook(key: string, text: string, entries?: readonly DiaryEntry[]): Book {
  checkArgs("parseBook", arguments, "key:string text:string entries?:array");
  if (!/^[^/\s]+\/[^/\s]+$/.test(key)) throw new ArgumentError("parseBook", "key", "a book key <genre>/<book>", key);
  const { title, author } = readBookMetadata(text);
  const genre = key.split("/", 1)[0]!;
  const cut = entries?.length
    ? { structure: "index" as const, passages: coverBody(key, text, bookBody(text), diaryEntries(key, text, entries), CHUNK_CHARS, unitHeading) }
    : cutBook(key, text);
  const passages = cut.passages.filter((p) => p.content);
  return { key, title: title || key.split("/")[1]!, author, genre, structure: cut.structure, passages, text: searchableText(text, passages, cut.structure === "verses") };
}

const STOPWORDS = new Set(
  "a an and are as at be been but by for from had has have he her hers him his i if in into is it its me my of on or our she so than that the their them then there these they this those to us was we were what when where which while who whom will with would you your".split(
    " ",
  ),
);

/** The embedded corpus: a WorkerClient over books held in memory, plus a listing. */
export interface EmbeddedCorpus extends WorkerClient {
  /** Book keys, sorted. */
  keys(): string[];
  /** Each book's key, title, author, genre, structure and passage count, sorted by key. */
  books(): Array<{ key: string; title: string; author: string; genre: string; structure: Book["structure"]; passages: number }>;
  /** The parsed book, or undefined. */
  book(key: string): Book | undefined;
  /**
   * Check a key; returns it when held.
   * @throws UnknownBookError naming the close keys
   */
  resolve(key: string): string;
}

/** Keys near `wanted`: same book part, or within edit distance 4, closest first (at most 3). */
export function closeKeys(wanted: string, keys: readonly string[]): string[] {
  checkArgs("closeKeys", arguments, "wanted:string keys:strings");
  const part = wanted.split("/").at(-1)!.toLowerCase();
  return keys
    .map((k) => ({ k, d: k.split("/").at(-1)!.toLowerCase() === part || k.includes(part) ? 0 : levenshtein()(wanted, k) }))
    .filter((x) => x.d <= Math.max(4, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, 3)
    .map((x) => x.k);
}

/** MiniSearch's own term separator: spaces, line ends and punctuation. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
/** Scripts written without spaces between words. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * The search terms of a passage or a query: MiniSearch's default split (at
 * spaces and punctuation), and a run in a script written without spaces
 * (Chinese, Japanese, Thai…) further cut into its words by {@link words}
 * (UAX #29 with the runtime's dictionaries, as quotes are read) — whole Chinese sentences were single terms, so a query matched
 * nothing. Text in spaced scripts is split exactly as before.
 *
 * @param text any text
 * @returns the terms in order, before `processTerm`
 */
export function searchTerms(text: string): string[] {
  checkArgs("searchTerms", arguments, "text:string");
  const out: string[] = [];
  for (const term of text.split(SPACE_OR_PUNCTUATION)) {
    if (!term) continue;
    if (!UNSPACED_SCRIPT.test(term)) {
      out.push(term);
      continue;
    }
    // words.ts segments in bounded chunks (Node 20's segmenter is quadratic on long runs)
    for (const w of words(term)) out.push(term.slice(w.start, w.end));
  }
  return out;
}

/**
 * An in-memory corpus over parsed books, searched with MiniSearch's BM25+
 * (one index per book, built on its first query; terms lower-cased, common
 * English stopwords dropped, no prefix or fuzzy matching). Works anywhere:
 * give it {@link Book}s (see {@link parseBook}).
 *
 * @param books the books; two with the same key are an error
 * @throws ArgumentError on a repeated key
 */
export function createEmbeddedCorpus(books: readonly Book[]): EmbeddedCorpus {
  checkArgs("createEmbeddedCorpus", arguments, "books:array");
  const byKey = new Map<string, Book>();
  for (const b of books) {
    if (byKey.has(b.key)) throw new ArgumentError("createEmbeddedCorpus", "books", `books of distinct keys (${JSON.stringify(b.key)} is given twice)`, books);
    byKey.set(b.key, b);
  }
  const indexes = new Map<string, MiniSearch<{ id: number; content: string }>>();
  const indexFor = (key: string) => {
    let index = indexes.get(key);
    if (!index) {
      index = new (miniSearch())<{ id: number; content: string }>({
        fields: ["content"],
        tokenize: searchTerms,
        processTerm: (term) => {
          const t = term.toLowerCase().replace(/['’]/g, "");
          return t && !STOPWORDS.has(t) ? t : null;
        },
      });
      index.addAll(byKey.get(key)!.passages.map((p, id) => ({ id, content: p.content })));
      indexes.set(key, index);
    }
    return index;
  };
  const corpus: EmbeddedCorpus = {
    keys: () => [...byKey.keys()].sort(),
    books: () =>
      corpus.keys().map((k) => {
        const b = byKey.get(k)!;
        return { key: k, title: b.title, author: b.author, genre: b.genre, structure: b.structure, passages: b.passages.length };
      }),
    book: (k) => byKey.get(k),
    resolve(k) {
      if (byKey.has(k)) return k;
      throw new UnknownBookError(k, closeKeys(k, corpus.keys()), corpus.keys());
    },
    async query(text, options) {
      checkArgs("EmbeddedCorpus.query", arguments, "text:string options:object");
      const { corpus: k, k: count } = options;
      const book = byKey.get(corpus.resolve(k))!;
      const results = indexFor(k).search(text, { combineWith: "OR" });
      const hits: Hit[] = results.slice(0, Math.max(0, count)).map((r) => {
        const p = book.passages[r.id as number]!;
        const hit: Hit = {
          node_id: p.node_id,
          name: p.name,
          label: p.label,
          content: p.content,
          title: book.title,
          author: book.author,
          genre: book.genre,
          score: r.score,
        };
        if (p.timestamp) hit.timestamp = p.timestamp;
        if (p.gregorianDate) hit.gregorianDate = p.gregorianDate;
        return hit;
      });
      return { hits };
    },
  };
  return corpus;
}

/** Settings of {@link createHttpWorkerClient}. */
export interface HttpWorkerOptions {
  /** The worker's base URL; queries go to `POST <baseUrl>/query` (path joined, query kept). */
  baseUrl: string;
  /** Per-attempt timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Attempts per query, retrying HTTP 429, 500, 502, 503 and 504 only (default 3). */
  attempts?: number;
  /** First backoff without `Retry-After`, ms (default 500). */
  retryDelayMs?: number;
  /** Cap on an answer body, bytes (default 16 MiB). */
  maxResponseBytes?: number;
  /** Extra request headers, e.g. `{authorization: "Bearer …"}` for a worker started with a token. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** A remote worker could not be reached or answered with an error; the message names the URL (redacted) and the cause. */
export class WorkerError extends GroundwireError {
  constructor(
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, { ...upstreamFault(options?.cause instanceof EndpointError ? options.cause.failure : undefined), cause: options?.cause });
    this.name = "WorkerError";
  }
}

/**
 * A WorkerClient for a remote worker over HTTP: `POST <baseUrl>/query` with
 * JSON `{text, corpus, k}`, answered by JSON `{hits: Hit[]}`, through the
 * shared endpoint wrapper (ts/net/http.ts: retries on 429, 500, 502, 503 and 504 with
 * Retry-After, timeouts named, redirects not followed, capped body).
 *
 * @throws TypeError at once when `baseUrl` is not an http(s) URL
 * @throws WorkerError (from `query`) when unreachable (with the cause), timed
 *   out, redirected, non-2xx after its retries, oversized, or not `{hits: [...]}`
 */
export function createHttpWorkerClient(options: HttpWorkerOptions): WorkerClient {
  checkArgs("createHttpWorkerClient", arguments, "options:endpoint");
  const url = joinEndpointPath(options.baseUrl, "query", "createHttpWorkerClient", "options.baseUrl");
  const shown = redactUrl(url);
  return {
    async query(text, request) {
      checkArgs("WorkerClient.query", arguments, "text:string options:object");
      const { corpus, k } = request;
      let raw: string;
      try {
        ({ text: raw } = await postToEndpoint({
          what: "the worker",
          url,
          body: JSON.stringify({ text, corpus, k }),
          headers: { ...options.headers, "content-type": "application/json", accept: "application/json" },
          timeoutMs: options.timeoutMs ?? 30_000,
          attempts: options.attempts,
          retryDelayMs: options.retryDelayMs,
          maxResponseBytes: options.maxResponseBytes,
          fetch: options.fetch,
        }));
      } catch (error) {
        if (error instanceof EndpointError) throw new WorkerError(error.message, shown, { cause: error });
        throw error;
      }
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        throw new WorkerError(`the worker ${shown} answered with something that is not JSON`, shown);
      }
      const hits = (data as { hits?: unknown } | null)?.hits;
      if (!Array.isArray(hits)) throw new WorkerError(`the worker ${shown} answered without a hits list`, shown);
      return { hits: hits as Hit[] };
    },
  };
}
