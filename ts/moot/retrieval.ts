/**
 * Retrieval for moots: the WorkerClient interface, books parsed into passages
 * (browser-safe: give it the texts), an embedded BM25+ corpus on MiniSearch,
 * and an HTTP client for a remote worker.
 */
import MiniSearch from "minisearch";
import { distance } from "fastest-levenshtein";

/** One retrieved passage as a worker returns it. */
export interface Hit {
  /** Stable id of the passage, e.g. `novel/frankenstein#chunk:0042` or `diary/pepys-1660#entry-1660-9-12`. */
  node_id: string;
  /** Section name: `chunk:0042` for a book, the entry id for a diary. */
  name: string;
  content: string;
  title: string;
  author: string;
  genre: string;
  /** ISO date of a diary entry (`1660-09-12`); absent for books. */
  timestamp?: string;
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

/** One passage of a parsed book. */
export interface BookPassage {
  node_id: string;
  name: string;
  content: string;
  timestamp?: string;
}

/** A book ready for indexing: key, metadata read from its text, and its passages in order. */
export interface Book {
  key: string;
  title: string;
  author: string;
  genre: string;
  passages: BookPassage[];
}

/** One dated entry of a diary index (`<book>.entries.json`): `offset` is a UTF-16 index into the text. */
export interface DiaryEntry {
  id: string;
  date: string | null;
  heading?: string | null;
  offset: number;
}

/**
 * A book key was asked for that the corpus does not hold. `close` lists the
 * nearest keys; when none is close, the message lists `known` (up to 10).
 */
export class UnknownBookError extends Error {
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
    super(`unknown book ${JSON.stringify(key)}${hint}`);
    this.name = "UnknownBookError";
  }
}

/** Target size of a book passage, in characters; paragraphs are never split below it. */
export const CHUNK_CHARS = 1200;

/**
 * A book's key from its file name: `diary__pepys-1660.txt` → `diary/pepys-1660`;
 * null when the name does not follow `<genre>__<book>.txt`.
 */
export function bookKeyFromFileName(fileName: string): string | null {
  const m = /^([a-z0-9][a-z0-9-]*)__([a-z0-9][a-z0-9._-]*)\.txt$/i.exec(fileName);
  return m ? `${m[1]}/${m[2]}` : null;
}

/**
 * Title and author read from a book's own text. A Project Gutenberg header
 * gives `Title:` (with its indented continuation lines, joined with ", ") and
 * `Author:`. Otherwise the first non-empty line is the title (a trailing
 * ", <dates>" dropped) and an `Author:` or `by <name>` line gives the author;
 * failing that, a title of the form "The Diary (Journal, Letters, Memoirs) of
 * <Name>" names its author. Missing fields are "".
 */
export function readBookMetadata(text: string): { title: string; author: string } {
  const head = text.slice(0, 6000);
  const field = (name: string): string => {
    const m = new RegExp(`^${name}:[ \\t]*(.+)((?:\\n[ \\t]+\\S.*)*)`, "m").exec(head);
    if (!m) return "";
    const more = m[2] ? m[2].split("\n").map((l) => l.trim()).filter(Boolean) : [];
    return [m[1]!.trim(), ...more].join(", ");
  };
  let title = field("Title");
  let author = field("Author");
  if (!title) {
    const first = head.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
    title = first.replace(/,\s*[^,]*\d[^,]*$/, "").trim();
  }
  if (!author) {
    const by = /^by\s+(.+)$/im.exec(head);
    const of = /^(?:the\s+)?(?:diary|journal|letters|memoirs|autobiography)\s+of\s+(.+)$/i.exec(title);
    author = by?.[1]?.trim() ?? of?.[1]?.trim() ?? "";
  }
  return { title, author };
}

/** The body of a Project Gutenberg text between its START and END markers; the whole text otherwise. */
function gutenbergBody(text: string): string {
  const start = /^\*\*\* ?START OF (?:THIS|THE) PROJECT GUTENBERG.*$/im.exec(text);
  const end = /^\*\*\* ?END OF (?:THIS|THE) PROJECT GUTENBERG.*$/im.exec(text);
  return text.slice(start ? start.index + start[0].length : 0, end ? end.index : text.length);
}

/** Paragraphs of a text (blank-line separated), each with its wrapped lines joined by one space. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
}

/**
 * Split a book into passages of about {@link CHUNK_CHARS} characters: whole
 * paragraphs packed in order (a paragraph longer than twice the target is cut
 * at sentence ends). Passages are named `chunk:0001`, `chunk:0002`…, their
 * paragraphs separated by a blank line.
 */
export function chunkBook(key: string, text: string, chunkChars = CHUNK_CHARS): BookPassage[] {
  const pieces: string[] = [];
  for (const p of paragraphs(gutenbergBody(text))) {
    if (p.length <= 2 * chunkChars) {
      pieces.push(p);
      continue;
    }
    let current = "";
    for (const s of p.match(/[^.!?]+[.!?]+["'”’)]*\s*|[^.!?]+$/g) ?? [p]) {
      if (current && current.length + s.length > chunkChars) {
        pieces.push(current.trim());
        current = "";
      }
      current += s;
    }
    if (current.trim()) pieces.push(current.trim());
  }
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const p of pieces) {
    if (size && size + p.length > chunkChars) {
      chunks.push(current.join("\n\n"));
      current = [];
      size = 0;
    }
    current.push(p);
    size += p.length + 2;
  }
  if (current.length) chunks.push(current.join("\n\n"));
  return chunks.map((content, i) => {
    const name = `chunk:${String(i + 1).padStart(4, "0")}`;
    return { node_id: `${key}#${name}`, name, content };
  });
}

/**
 * Split a diary into one passage per dated entry, using its entries index.
 * Entry i runs from its offset to the next entry's; a trailing all-capitals
 * month heading is dropped. `timestamp` is the entry's date (absent when null).
 */
export function diaryEntries(key: string, text: string, entries: readonly DiaryEntry[]): BookPassage[] {
  const sorted = [...entries].sort((a, b) => a.offset - b.offset);
  return sorted.map((e, i) => {
    const end = i + 1 < sorted.length ? sorted[i + 1]!.offset : text.length;
    const content = text
      .slice(e.offset, end)
      .replace(/\n\s*[A-Z][A-Z0-9 –—-]+\s*$/, "")
      .trim();
    const passage: BookPassage = { node_id: `${key}#${e.id}`, name: e.id, content };
    if (e.date) passage.timestamp = e.date;
    return passage;
  });
}

/**
 * Parse one book's text into a {@link Book}: metadata from the text, genre
 * from the key, passages by {@link diaryEntries} when an entries index is
 * given, else by {@link chunkBook}.
 *
 * @param key `<genre>/<book>`
 * @param text the book's full text
 * @param entries a diary's dated-entry index, when it has one
 * @throws TypeError when the key is not `<genre>/<book>`
 */
export function parseBook(key: string, text: string, entries?: readonly DiaryEntry[]): Book {
  if (!/^[^/\s]+\/[^/\s]+$/.test(key)) throw new TypeError(`book key ${JSON.stringify(key)} is not <genre>/<book>`);
  const { title, author } = readBookMetadata(text);
  const genre = key.split("/", 1)[0]!;
  const passages = entries?.length ? diaryEntries(key, text, entries) : chunkBook(key, text);
  return { key, title: title || key.split("/")[1]!, author, genre, passages: passages.filter((p) => p.content) };
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
  /** Each book's key, title, author, genre and passage count, sorted by key. */
  books(): Array<{ key: string; title: string; author: string; genre: string; passages: number }>;
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
  const part = wanted.split("/").at(-1)!.toLowerCase();
  return keys
    .map((k) => ({ k, d: k.split("/").at(-1)!.toLowerCase() === part || k.includes(part) ? 0 : distance(wanted, k) }))
    .filter((x) => x.d <= Math.max(4, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, 3)
    .map((x) => x.k);
}

/**
 * An in-memory corpus over parsed books, searched with MiniSearch's BM25+
 * (one index per book, built on its first query; terms lower-cased, common
 * English stopwords dropped, no prefix or fuzzy matching). Works anywhere:
 * give it {@link Book}s (see {@link parseBook}).
 *
 * @param books the books; two with the same key are an error
 * @throws TypeError on a repeated key
 */
export function createEmbeddedCorpus(books: readonly Book[]): EmbeddedCorpus {
  const byKey = new Map<string, Book>();
  for (const b of books) {
    if (byKey.has(b.key)) throw new TypeError(`book ${JSON.stringify(b.key)} given twice`);
    byKey.set(b.key, b);
  }
  const indexes = new Map<string, MiniSearch<{ id: number; content: string }>>();
  const indexFor = (key: string) => {
    let index = indexes.get(key);
    if (!index) {
      index = new MiniSearch<{ id: number; content: string }>({
        fields: ["content"],
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
        return { key: k, title: b.title, author: b.author, genre: b.genre, passages: b.passages.length };
      }),
    book: (k) => byKey.get(k),
    resolve(k) {
      if (byKey.has(k)) return k;
      throw new UnknownBookError(k, closeKeys(k, corpus.keys()), corpus.keys());
    },
    async query(text, { corpus: k, k: count }) {
      const book = byKey.get(corpus.resolve(k))!;
      const results = indexFor(k).search(text, { combineWith: "OR" });
      const hits: Hit[] = results.slice(0, Math.max(0, count)).map((r) => {
        const p = book.passages[r.id as number]!;
        const hit: Hit = {
          node_id: p.node_id,
          name: p.name,
          content: p.content,
          title: book.title,
          author: book.author,
          genre: book.genre,
          score: r.score,
        };
        if (p.timestamp) hit.timestamp = p.timestamp;
        return hit;
      });
      return { hits };
    },
  };
  return corpus;
}

/** Settings of {@link createHttpWorkerClient}. */
export interface HttpWorkerOptions {
  /** The worker's base URL; queries go to `POST <baseUrl>/query`. */
  baseUrl: string;
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Extra request headers, e.g. `{authorization: "Bearer …"}` for a worker started with a token. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** A remote worker could not be reached or answered with an error; the message names the URL. */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = "WorkerError";
  }
}

/**
 * A WorkerClient for a remote worker over HTTP: `POST <baseUrl>/query` with
 * JSON `{text, corpus, k}`, answered by JSON `{hits: Hit[]}`.
 *
 * @throws WorkerError (from `query`) when unreachable, non-2xx, or not `{hits: [...]}`
 */
export function createHttpWorkerClient(options: HttpWorkerOptions): WorkerClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/query`;
  const doFetch = options.fetch ?? fetch;
  return {
    async query(text, { corpus, k }) {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: { ...options.headers, "content-type": "application/json" },
          body: JSON.stringify({ text, corpus, k }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string } }).cause;
        throw new WorkerError(`cannot reach the worker ${url} (${cause?.code ?? (error as Error).message})`, url);
      }
      const raw = await response.text();
      if (!response.ok) throw new WorkerError(`the worker ${url} answered HTTP ${response.status}: ${raw.slice(0, 200)}`, url);
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        throw new WorkerError(`the worker ${url} answered with something that is not JSON`, url);
      }
      const hits = (data as { hits?: unknown }).hits;
      if (!Array.isArray(hits)) throw new WorkerError(`the worker ${url} answered without a hits list`, url);
      return { hits: hits as Hit[] };
    },
  };
}
