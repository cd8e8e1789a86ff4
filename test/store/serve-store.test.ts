// `groundwire serve --store` against the real PostgreSQL, through the real server: a reply
// checked against a whole book (`POST /quotes/verify` and the MCP tool `verify_quotes` with
// `book`, the book resource of /mcp) answers exactly what `serve --corpus` answers for the same
// book; a book loaded or removed by `groundwire corpus` while the server runs shows in its
// `/books` at once (LISTEN/NOTIFY), not at the fallback re-read a minute later; and a read-only
// connection (default_transaction_read_only, as a read replica's) serves `books` and `locate`.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, ROOT, startServer, TEST_TOKEN, type RunningServer } from "../server/serve-process.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";

const PG = pgAvailable();

/** A reply quoting Frankenstein: one quote verbatim, one misquoted (a word changed), one from nowhere. */
const REPLY =
  'Victor recalls that "It was on a dreary night of November that I beheld the accomplishment of my toils" [s1], ' +
  'gathering "the instruments of death around me" and "a spark of being into the lifeless thing", ' +
  'and "the moon shone green on the snowy alps of the north".';

async function mcp(server: RunningServer, method: string, params: unknown): Promise<any> {
  const response = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: unknown }).result;
}

function corpus(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, "corpus", ...args], { cwd: ROOT, encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

/** GET /books until `test` holds for its keys; the keys then. Fails after 10 s (the fallback re-read is a minute). */
async function booksUntil(server: RunningServer, test: (keys: string[]) => boolean): Promise<string[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    // a keep-alive socket the server closed while the CLI ran fails once: asked again
    const books = await call(server.url, "GET", "/books").catch(() => call(server.url, "GET", "/books"));
    const keys = (books.json.books as { key: string }[]).map((b) => b.key);
    if (test(keys) || Date.now() > until) return keys;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!PG)("serve --store: whole-book checks and books loaded while it runs", () => {
  let url: string;
  let stored: RunningServer;
  let embedded: RunningServer;
  const extra = mkdtempSync(join(tmpdir(), "gw-follow-"));

  beforeAll(async () => {
    url = await freshDatabase("serve_store");
    expect(corpus("load", "data/books", "--store", url)).toMatch(/^loaded 2 books \(814 passages, 0\.9 MB\), 0 unchanged/);
    [stored, embedded] = await Promise.all([startServer(["--store", url]), startServer(["--corpus", "data/books"])]);
  });
  afterAll(async () => {
    await Promise.all([stored?.stop(), embedded?.stop()]);
    rmSync(extra, { recursive: true, force: true });
  });

  it("POST /quotes/verify with a book answers as the embedded server does: the misquote snapped from the book's text", async () => {
    const body = { reply: REPLY, book: "novel/frankenstein" };
    const fromStore = await call(stored.url, "POST", "/quotes/verify", body);
    const fromFiles = await call(embedded.url, "POST", "/quotes/verify", body);
    expect(fromStore.status).toBe(200);
    expect(fromStore.json).toEqual(fromFiles.json);
    // the verbatim quote stays, the misquote becomes the book's words, the invented one is unquoted
    expect(fromStore.json.snapped).toContain('"It was on a dreary night of November that I beheld the accomplishment of my toils"');
    expect(fromStore.json.snapped).toContain('"the instruments of life around me"');
    expect(fromStore.json.snapped).not.toContain('"the moon shone green');
    expect(fromStore.json.passes).toBe(false);
    // twice (the worker's index of the book is reused): the same answer
    expect((await call(stored.url, "POST", "/quotes/verify", body)).json).toEqual(fromStore.json);
    const unknown = await call(stored.url, "POST", "/quotes/verify", { reply: REPLY, book: "novel/frankenstien" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toContain('did you mean "novel/frankenstein"');
  });

  it("/mcp: verify_quotes with a book and the book resource answer from the store as the embedded server does", async () => {
    const params = { name: "verify_quotes", arguments: { reply: REPLY, book: "novel/frankenstein" } };
    const [fromStore, fromFiles] = await Promise.all([mcp(stored, "tools/call", params), mcp(embedded, "tools/call", params)]);
    expect(fromStore.isError).toBeFalsy();
    expect(fromStore.structuredContent).toEqual(fromFiles.structuredContent);
    expect(fromStore.structuredContent.snapped).toContain('"the instruments of life around me"');
    const uri = "groundwire://book/diary/pepys-1660";
    const [bookFromStore, bookFromFiles] = await Promise.all([mcp(stored, "resources/read", { uri }), mcp(embedded, "resources/read", { uri })]);
    expect(bookFromStore.contents[0].text).toBe(bookFromFiles.contents[0].text);
    expect(bookFromStore.contents[0].text).toMatch(/^The Diary of Samuel Pepys/);
  });

  it("a book loaded by `corpus load` while the server runs is in /books at once and can be checked against; `corpus remove` takes it away", async () => {
    copyFileSync(join(ROOT, "data/books/novel__frankenstein.txt"), join(extra, "novel__frankenstein-again.txt"));
    expect(corpus("load", extra, "--store", url)).toMatch(/^loaded 1 book/);
    expect(await booksUntil(stored, (keys) => keys.includes("novel/frankenstein-again"))).toEqual(["diary/pepys-1660", "novel/frankenstein", "novel/frankenstein-again"]);
    const verify = await call(stored.url, "POST", "/quotes/verify", { reply: REPLY, book: "novel/frankenstein-again" });
    expect(verify.status).toBe(200);
    expect(verify.json.snapped).toContain('"the instruments of life around me"');
    corpus("remove", "novel/frankenstein-again", "--store", url);
    expect(await booksUntil(stored, (keys) => !keys.includes("novel/frankenstein-again"))).toEqual(["diary/pepys-1660", "novel/frankenstein"]);
    expect((await call(stored.url, "POST", "/quotes/verify", { reply: REPLY, book: "novel/frankenstein-again" })).status).toBe(404);
  });

  it("a read-only connection (what a read replica gives) serves books and locate: a schema at this version is only read", () => {
    const readOnly = `${url}?options=${encodeURIComponent("-c default_transaction_read_only=on")}`;
    const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8" });
    const books = run(["books", "--store", readOnly]);
    expect(books.stderr).toBe("");
    expect(books.stdout).toBe(run(["books", "--corpus", "data/books"]).stdout);
    const quote = "It was on a dreary night of November that I beheld the accomplishment of my toils";
    const located = run(["locate", quote, "--store", readOnly, "--json"]);
    expect(located.status).toBe(0);
    expect(JSON.parse(located.stdout)).toEqual(JSON.parse(run(["locate", quote, "--corpus", "data/books", "--json"]).stdout));
  });
});
