// The library in PostgreSQL against the embedded corpus, on real books: the same cut (every
// passage's id, label, text and offsets), loads idempotent by content hash, a changed book
// replaced in one transaction, the schema's version checked, and the retrieval and locate
// contracts run over both engines.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { createQuoteIndex } from "../../ts/match/index.js";
import { createEmbeddedCorpus, UnknownBookError, type Book, type WorkerClient } from "../../ts/moot/retrieval.js";
import { words } from "../../ts/match/index.js";
import { openStore, SCHEMA_VERSION, StoreSchemaError, type Store } from "../../ts/store/pg.js";
import { createStoreCorpus, listBooks, loadLibrary, locateInStore, q, readBook, removeBook, type StoreCorpus } from "../../ts/store/pg-library.js";
import { mulberry32 } from "../prng.js";
import { DEEP, depth } from "../depth.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";

const BUNDLED = fileURLToPath(new URL("../../data/books", import.meta.url));
const SHARED = fileURLToPath(new URL("../../../shared/data/books", import.meta.url));
const PG = pgAvailable();

/** Quotes drawn from the books: 8–20 consecutive words of a passage, seeded. */
function drawQuotes(books: readonly Book[], n: number, seed: number): Array<{ key: string; node_id: string; quote: string }> {
  const rand = mulberry32(seed);
  const out: Array<{ key: string; node_id: string; quote: string }> = [];
  while (out.length < n) {
    const book = books[out.length % books.length]!;
    const p = book.passages[Math.floor(rand() * book.passages.length)]!;
    const ws = words(p.content);
    if (ws.length < 8) continue;
    const len = Math.min(ws.length, 8 + Math.floor(rand() * 13));
    const at = Math.floor(rand() * (ws.length - len + 1));
    out.push({ key: book.key, node_id: p.node_id, quote: p.content.slice(ws[at]!.start, ws[at + len - 1]!.end) });
  }
  return out;
}

describe.skipIf(!PG)("the library in PostgreSQL (corpus load)", () => {
  let url: string;
  let store: Store;
  beforeAll(async () => {
    url = await freshDatabase("library");
    store = await openStore(url);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("cuts every bundled book exactly as the embedded corpus does: passages, labels, dates, offsets", async () => {
    const summary = await loadLibrary(store, BUNDLED);
    expect(summary.loaded).toEqual(["diary/pepys-1660", "novel/frankenstein"]);
    for (const book of loadBooks(BUNDLED)) expect(await readBook(store, book.key)).toEqual(book);
    expect((await listBooks(store)).map((b) => [b.key, b.passages, b.config])).toEqual([
      ["diary/pepys-1660", 368, "english"],
      ["novel/frankenstein", 446, "english"],
    ]);
  });

  // npm test: the diary with its entries index and the dictionary (the kinds the bundled books do not
  // have); npm run test:deep (test/depth.ts): every shared book, the KJV's 3 MB among them
  it.skipIf(!existsSync(SHARED))("cuts the shared books (../shared/data/books, with Pepys's entries index) exactly as the embedded corpus does", async () => {
    let dir = SHARED;
    if (!DEEP) {
      dir = mkdtempSync(join(tmpdir(), "gw-lib-shared-"));
      for (const f of ["diary__pepys-1660.txt", "diary__pepys-1660.entries.json", "dictionary__devils-dictionary.txt"]) copyFileSync(join(SHARED, f), join(dir, f));
    }
    await loadLibrary(store, dir);
    const books = loadBooks(dir);
    expect(books.map((b) => b.key)).toEqual(expect.arrayContaining(["diary/pepys-1660", "dictionary/devils-dictionary"]));
    expect(books.length).toBeGreaterThanOrEqual(depth(2, 5));
    for (const book of books) expect(await readBook(store, book.key)).toEqual(book);
    // with each passage's source text: slow on a busy machine
  }, 180_000);

  it("a second load of the same folder writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-lib-"));
    copyFileSync(join(BUNDLED, "novel__frankenstein.txt"), join(dir, "novel__frankenstein.txt"));
    const db = await openStore(await freshDatabase("idem"));
    try {
      expect((await loadLibrary(db, dir)).loaded).toEqual(["novel/frankenstein"]);
      const before = (await q<{ xmin: string; loaded_at: Date }>(db, "SELECT xmin::text AS xmin, loaded_at FROM groundwire.books")).rows;
      const again = await loadLibrary(db, dir);
      expect(again.loaded).toEqual([]);
      expect(again.unchanged).toEqual(["novel/frankenstein"]);
      // the row was not rewritten: same transaction id and load time
      expect((await q(db, "SELECT xmin::text AS xmin, loaded_at FROM groundwire.books")).rows).toEqual(before);
    } finally {
      await db.close();
    }
  });

  it("a book changed on disk replaces its passages in one transaction: a reader never sees half a book", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-lib-"));
    const file = join(dir, "novel__frankenstein.txt");
    const original = readFileSync(join(BUNDLED, "novel__frankenstein.txt"), "utf8");
    writeFileSync(file, original);
    const db = await openStore(await freshDatabase("atomic"), { max: 4 });
    try {
      await loadLibrary(db, dir);
      // the new edition: its last chapter cut off, so it has fewer passages
      writeFileSync(file, original.slice(0, Math.floor(original.length * 0.6)) + original.slice(original.indexOf("*** END OF")));
      const seen = new Set<string>();
      let reading = true;
      const reader = (async () => {
        while (reading) {
          // one statement, one snapshot: the book's row and its passages together
          const { rows } = await q<{ passages: number; n: string }>(
            db,
            "SELECT b.passages, (SELECT count(*) FROM groundwire.passages p WHERE p.book = b.key) AS n FROM groundwire.books b WHERE b.key = $1",
            ["novel/frankenstein"],
          );
          seen.add(rows.length ? `${rows[0]!.passages}/${rows[0]!.n}` : "absent");
        }
      })();
      const summary = await loadLibrary(db, dir);
      reading = false;
      await reader;
      expect(summary.loaded).toEqual(["novel/frankenstein"]);
      const after = (await readBook(db, "novel/frankenstein"))!;
      expect(after.passages.length).toBeLessThan(446);
      // only the old book whole or the new book whole was ever seen
      expect([...seen].every((s) => s === "446/446" || s === `${after.passages.length}/${after.passages.length}`)).toBe(true);
      expect(seen.has("absent")).toBe(false);
      expect(after).toEqual(loadBooks(dir)[0]);
      expect(await removeBook(db, "novel/frankenstein")).toBe(true);
      expect(await removeBook(db, "novel/frankenstein")).toBe(false);
      expect((await q(db, "SELECT count(*)::int AS n FROM groundwire.passages")).rows[0]).toEqual({ n: 0 });
    } finally {
      await db.close();
    }
  });

  it("replicas starting at once migrate once; a schema newer than the code is refused, naming both versions", async () => {
    const fresh = await freshDatabase("migrate");
    const stores = await Promise.all([1, 2, 3, 4].map(() => openStore(fresh, { max: 1 })));
    // every migration applied once, in order
    expect((await q(stores[0]!, "SELECT version FROM groundwire.schema_version ORDER BY version")).rows).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
    await q(stores[0]!, "INSERT INTO groundwire.schema_version (version) VALUES ($1)", [SCHEMA_VERSION + 1]);
    await Promise.all(stores.map((s) => s.close()));
    const secret = new URL(fresh);
    secret.password = "hunter2";
    const error = await openStore(secret.toString()).catch((e) => e);
    expect(error).toBeInstanceOf(StoreSchemaError);
    expect(error.message).toMatch(new RegExp(`holds schema version ${SCHEMA_VERSION + 1}, newer than this groundwire knows \\(${SCHEMA_VERSION}\\); upgrade groundwire`));
    expect(error.message).not.toContain("hunter2");
  });
});

/** The retrieval contract, over each engine. */
const engines: Array<[string, () => Promise<{ client: WorkerClient; close(): Promise<void> }>]> = [
  ["embedded (MiniSearch)", async () => ({ client: createEmbeddedCorpus(loadBooks(BUNDLED)), close: async () => {} })],
];
if (PG) {
  engines.push([
    "PostgreSQL full-text search",
    async () => {
      const store = await openStore(await freshDatabase("retrieval"));
      await loadLibrary(store, BUNDLED);
      const corpus: StoreCorpus = await createStoreCorpus(store);
      return { client: corpus, close: async () => (corpus.close(), store.close()) };
    },
  ]);
}

describe.each(engines)("the retrieval contract: %s", (_, open) => {
  let engine: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(async () => engine?.close());

  it("answers {hits} of the documented shape, k at most, from the named book only", async () => {
    const { hits } = await engine.client.query("fire and ruin of the city", { corpus: "diary/pepys-1660", k: 6 });
    expect(hits.length).toBe(6);
    for (const h of hits) {
      expect(h.node_id).toMatch(/^diary\/pepys-1660#entry-/);
      expect(h.node_id).toBe(`diary/pepys-1660#${h.name}`);
      expect(h).toMatchObject({ title: "The Diary of Samuel Pepys", author: "Samuel Pepys", genre: "diary" });
      expect(typeof h.label).toBe("string");
      expect(h.content.length).toBeGreaterThan(0);
      if (h.timestamp !== undefined) expect(h.timestamp).toMatch(/^1660-\d\d-\d\d$/);
      expect(typeof h.score).toBe("number");
      expect(Object.keys(h).sort()).toEqual(expect.arrayContaining(["author", "content", "genre", "label", "name", "node_id", "score", "title"]));
    }
    expect((await engine.client.query("fire", { corpus: "novel/frankenstein", k: 2 })).hits.map((h) => h.genre)).toEqual(["novel", "novel"]);
  });

  it("an unknown book is an UnknownBookError naming the close keys", async () => {
    const error = await engine.client.query("x", { corpus: "novel/frankenstien", k: 3 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnknownBookError);
    expect(error.message).toBe('unknown book "novel/frankenstien"; did you mean "novel/frankenstein"?');
  });

  it("recall@6 ≥ 95 % for 60 quotes drawn from the books (the passage holding the quote is among the 6 hits)", async () => {
    const quotes = drawQuotes(loadBooks(BUNDLED), 60, 31);
    let found = 0;
    for (const { key, node_id, quote } of quotes) if ((await engine.client.query(quote, { corpus: key, k: 6 })).hits.some((h) => h.node_id === node_id)) found++;
    expect(found / quotes.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe.skipIf(!PG)("locate over the store against the exhaustive locate", () => {
  it("finds the same spans for quotes from the books with 0 and 2 word edits (ratio ≥ 0.8)", async () => {
    const store = await openStore(await freshDatabase("locate"));
    try {
      await loadLibrary(store, BUNDLED);
      const books = loadBooks(BUNDLED);
      const exhaustive = createQuoteIndex(books);
      const rand = mulberry32(7);
      let spans = 0;
      let found = 0;
      // npm test: the first 6 of the seeded quotes (both kinds kept); npm run test:deep (test/depth.ts): 12
      for (const [i, { quote }] of drawQuotes(books, depth(6, 12), 5).entries()) {
        const ws = quote.split(/\s+/);
        // every other quote: two words replaced
        if (i % 2) for (let e = 0; e < 2; e++) ws[Math.floor(rand() * ws.length)] = "brimstone";
        const edited = ws.join(" ");
        const want = exhaustive.locate(edited, { minRatio: 0.8 });
        const got = await locateInStore(store, edited, { minRatio: 0.8 });
        for (const w of want) {
          spans++;
          const g = got.find((s) => s.source === w.source && s.start === w.start && s.end === w.end);
          if (g) {
            found++;
            expect(g.ratio).toBe(w.ratio);
            expect(g.text).toBe(w.text);
            expect(g.passages).toEqual(w.passages);
          }
        }
      }
      expect(spans).toBeGreaterThanOrEqual(depth(4, 8));
      expect(found / spans).toBeGreaterThanOrEqual(0.99);
    } finally {
      await store.close();
    }
  });
});
