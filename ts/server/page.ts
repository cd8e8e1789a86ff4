/**
 * The web page of `groundwire serve` (docs/page.md) and the routes it needs besides the checks:
 *   GET  /  and  /assets/FILE          the prebuilt page (dist/web), open like /health: it holds no secret
 *   GET  /books/passages?book=K&label=L&offset=N&limit=N   a book's passages by label
 *   POST /passages/show {node | text, quotes?}              one passage (or a pasted one), each quote's best span in it
 *   POST /locate {quote, book, minRatio?, limit?}           where a quote is in a book, with its word diff
 *   GET  /moots                                             the moots held: id, topic, books, turns spoken
 *   GET  /histories                                         the --history folders and their versions
 *   GET  /histories/:name/:version                          one version's text
 * Static files are read from the folder named at start only, by names listed at start.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import type { Hono } from "hono";
import { words } from "../match/index.js";
import { UnknownBookError, type Book } from "../moot/index.js";
import { GroundwireError } from "../errors.js";
import { MAX_DOCUMENT_LENGTH } from "../evidence/index.js";
import { badRequest } from "./errors.js";
import { json } from "./json-body.js";
import type { CheckContext } from "./checks.js";
import { runCheck } from "./pool.js";
import type { LocateBookTextBody, LocateQuoteBody, MarkQuotesBody } from "./page-checks.js";
import { locateBodySchema, passageShowBodySchema, passagesQuerySchema } from "./schemas.js";
import type { MootStore } from "./moot-store.js";

/** Most moots `GET /moots` lists. */
export const MAX_MOOTS_LISTED = 200;

/** Content types of the files the page is built into. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

/**
 * The page's Content-Security-Policy: its own scripts, styles and requests only; no inline
 * script or style, no frame, no form target, no plugin.
 */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const PAGE_HEADERS = {
  "content-security-policy": PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export type PageFiles = Map<string, { body: Uint8Array<ArrayBuffer>; type: string }>;

/** The page's files, read once at start: URL path → bytes and type. Null when `dir` holds no index.html. */
export function loadPageFiles(dir: string): PageFiles | null {
  const files: PageFiles = new Map();
  const walk = (folder: string, prefix: string, depth: number) => {
    if (depth > 3) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`, depth + 1);
      else if (entry.isFile() && TYPES[extname(entry.name)] && statSync(path).size <= 8 * 1024 * 1024) {
        files.set(`${prefix}${entry.name}`, { body: new Uint8Array(readFileSync(path)), type: TYPES[extname(entry.name)]! });
      }
    }
  };
  try {
    walk(dir, "/", 0);
  } catch {
    return null;
  }
  return files.has("/index.html") ? files : null;
}

/** A document history named at start (`--history DIR`): its versions (the folder's .md/.txt files by name) and their texts. */
export interface History {
  name: string;
  versions: Array<{ name: string; text: string }>;
}

/** Most versions read from one --history folder. */
export const MAX_HISTORY_VERSIONS = 200;

/** Most characters of all the versions of one --history folder (64 Mi). */
export const MAX_HISTORY_CHARS = 64 * 1024 * 1024;

/** Read a `--history DIR` folder: every `.md`/`.markdown`/`.txt` file, by name, each at most MAX_DOCUMENT_LENGTH characters, MAX_HISTORY_CHARS in all. */
export function loadHistory(dir: string): History {
  const clean = resolve(dir);
  const name = basename(clean) || clean;
  const names = readdirSync(clean, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(md|markdown|txt)$/i.test(e.name) && !/^(NOTICE|LICENSE|README)\b/i.test(e.name))
    .map((e) => e.name)
    .sort();
  if (names.length < 1) throw new Error(`--history ${dir}: no .md or .txt file in it`);
  if (names.length > MAX_HISTORY_VERSIONS) throw new Error(`--history ${dir}: ${names.length} versions, more than ${MAX_HISTORY_VERSIONS}`);
  let total = 0;
  const versions = names.map((n) => {
    const path = join(clean, n);
    if (statSync(path).size > 4 * MAX_HISTORY_CHARS) throw new Error(`--history ${dir}: ${n} is larger than ${4 * MAX_HISTORY_CHARS} bytes`);
    const text = readFileSync(path, "utf8");
    if (text.length > MAX_DOCUMENT_LENGTH) throw new Error(`--history ${dir}: ${n} is longer than ${MAX_DOCUMENT_LENGTH} characters`);
    total += text.length;
    if (total > MAX_HISTORY_CHARS) throw new Error(`--history ${dir}: its versions hold more than ${MAX_HISTORY_CHARS} characters in all`);
    return { name: n, text };
  });
  return { name, versions };
}

/**
 * Read every `--history DIR` folder. Each is named by its folder's base name (GET /histories,
 * GET /histories/NAME/VERSION), so two folders of the same base name are refused: the second
 * would be listed but never served.
 */
export function loadHistories(dirs: readonly string[]): History[] {
  const histories = dirs.map(loadHistory);
  histories.forEach((h, i) => {
    const first = histories.findIndex((x) => x.name === h.name);
    if (first !== i) throw new Error(`--history ${dirs[i]}: another --history folder (${dirs[first]}) has the same name ${JSON.stringify(h.name)}; the page names a history by its folder's name`);
  });
  return histories;
}

export { wordDiff } from "./page-checks.js";

const passageOf = (book: Book, i: number) => ({ name: book.passages[i]!.name, label: book.passages[i]!.label, node: book.passages[i]!.node_id });

/** Register the page's files on `app`: after the Host/Origin guard, before the token (the page holds no secret). */
export function registerPage(app: Hono, files: PageFiles | null): void {
  const serve = (path: string) => {
    const file = files?.get(path);
    if (!file) return null;
    return new Response(file.body, { status: 200, headers: { "content-type": file.type, "cache-control": path === "/index.html" ? "no-cache" : "max-age=31536000, immutable", ...PAGE_HEADERS } });
  };
  app.get("/", (c) => serve("/index.html") ?? c.json({ error: { code: "not_found", message: "the page is not built (npm run build makes dist/web)", requestId: c.get("requestId") } }, 404));
  app.get("/assets/:file", (c) => serve(`/assets/${c.req.param("file")}`) ?? c.notFound());
}

/** The page's API routes (behind the token, like every API route). */
export function registerPageApi(app: Hono, ctx: CheckContext, histories: readonly History[], moots: MootStore): void {
  /**
   * A book's text: held by this process (the embedded corpus), or read from the --store
   * database with its version (the stored content hash), as POST /quotes/verify reads it.
   */
  const bookOf = async (key: string): Promise<{ book: Book; version?: string }> => {
    const resolved = ctx.corpus.resolve(key);
    const held = ctx.corpus.book(resolved);
    if (held) return { book: held };
    const stored = await ctx.libraryInStore?.loadBookVersion(resolved);
    if (stored) return stored;
    if (ctx.libraryInStore) throw new UnknownBookError(resolved, [], ctx.corpus.keys().filter((k) => k !== resolved));
    throw new GroundwireError(`book ${JSON.stringify(key)}: its text is not held by this process`, { code: "not_found", status: 404 });
  };
  app.get("/books/passages", async (c) => {
    const parsed = passagesQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw badRequest("query", parsed.error);
    const { book: key, label = "", offset = 0, limit = 50 } = parsed.data;
    const { book } = await bookOf(key);
    const want = label.trim().toLowerCase();
    const all = book.passages.filter((p) => !want || p.label.toLowerCase().includes(want) || p.name.includes(want));
    return c.json({ book: book.key, total: all.length, offset, passages: all.slice(offset, offset + limit).map((p) => ({ name: p.name, label: p.label, node: p.node_id, words: words(p.content).length })) });
  });

  // the matching (bestSpan, the quote index) runs in the check pool like every check: a long one never holds the event loop
  app.post("/passages/show", json(passageShowBodySchema), async (c) => {
    const { node, text, label = null, quotes = [] } = c.req.valid("json");
    const marksIn = async (content: string) => (quotes.length ? JSON.parse(await runCheck(ctx, "markQuotes", { content, quotes } satisfies MarkQuotesBody)).marks : []);
    if (node === undefined) return c.json({ node: null, book: null, title: null, name: null, label, content: text!, marks: await marksIn(text!) });
    const hash = node.indexOf("#");
    const { book } = await bookOf(hash > 0 ? node.slice(0, hash) : node);
    const passage = book.passages.find((p) => p.node_id === node);
    if (!passage) throw new GroundwireError(`no passage ${JSON.stringify(node)} in ${book.key}`, { code: "not_found", status: 404 });
    const marks = await marksIn(passage.content);
    return c.json({ node, book: book.key, title: book.title, name: passage.name, label: passage.label, content: passage.content, marks });
  });

  app.post("/locate", json(locateBodySchema), async (c) => {
    const { quote, book: key, minRatio = 0.6, limit = 5 } = c.req.valid("json");
    if (!words(quote).length) throw new GroundwireError("quote: no word to look for", { code: "bad_request", status: 400 });
    const { book, version } = await bookOf(key);
    const answer =
      version === undefined
        ? await runCheck(ctx, "locateQuote", { quote, book: book.key, minRatio, limit } satisfies LocateQuoteBody)
        : await runCheck(ctx, "locateBookText", { quote, minRatio, limit, book: { key: book.key, version, passages: book.passages.map((p) => p.content) } } satisfies LocateBookTextBody);
    const spans = (JSON.parse(answer) as { spans: Array<{ sourceIndex: number } & Record<string, unknown>> }).spans;
    return c.json({ quote, book: book.key, spans: spans.map(({ sourceIndex, ...s }) => ({ ...passageOf(book, sourceIndex), ...s })) });
  });

  // the moots held (at most MAX_MOOTS_LISTED, in the store's order)
  app.get("/moots", async (c) => {
    const list = [];
    for (const id of (await moots.ids()).slice(0, MAX_MOOTS_LISTED)) {
      try {
        const moot = await moots.get(id);
        const t = moot.transcript!;
        list.push({ id, topic: t.topic, keys: t.trees.map((tree) => tree.key), spoken: t.utterances.length, turns: moot.turns, done: moot.done });
      } catch (error) {
        if (!(error instanceof GroundwireError && error.status === 404)) throw error;
      }
    }
    return c.json({ moots: list });
  });

  app.get("/histories", (c) => c.json({ histories: histories.map((h) => ({ name: h.name, versions: h.versions.map((v) => ({ name: v.name, chars: v.text.length })) })) }));
  app.get("/histories/:name/:version", (c) => {
    const history = histories.find((h) => h.name === c.req.param("name"));
    const version = history?.versions.find((v) => v.name === c.req.param("version"));
    if (!history || !version) throw new GroundwireError(`no history version ${JSON.stringify(`${c.req.param("name")}/${c.req.param("version")}`)} (GET /histories lists them)`, { code: "not_found", status: 404 });
    return c.json({ history: history.name, version: version.name, text: version.text });
  });
}
