// `groundwire serve --books DIR`: a real server process (dist/cli.js) with a book of our own in a
// temp folder added beside the bundled ones. It lists the new book with them, a moot between the
// new book and a bundled one runs through HTTP with each side quoting its own book, /locate finds
// quotes in both, and a reply quoting the new book is verified against it (POST /quotes/verify {book}).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, startServer, type RunningServer } from "./serve-process.js";

const LETTERS = fileURLToPath(new URL("../fixtures/books/letters__the-gull-rock-letters.txt", import.meta.url));
const NEW = "letters/the-gull-rock-letters";

describe.skipIf(!existsSync(CLI))("groundwire serve --books DIR (dist/cli.js)", () => {
  let server: RunningServer;
  const books = mkdtempSync(join(tmpdir(), "gw-serve-books-"));
  const data = mkdtempSync(join(tmpdir(), "gw-serve-books-data-"));

  beforeAll(async () => {
    copyFileSync(LETTERS, join(books, "letters__the-gull-rock-letters.txt"));
    server = await startServer(["--data", data, "--books", books]);
  }, 60_000);
  afterAll(async () => server?.stop());

  it("lists the added book beside the bundled ones", async () => {
    const r = await call(server.url, "GET", "/books");
    expect(r.status).toBe(200);
    const list = r.json.books as Array<{ key: string; title: string; structure: string; passages: number }>;
    expect(list.map((b) => b.key)).toEqual(["diary/pepys-1660", NEW, "novel/frankenstein"]);
    expect(list.find((b) => b.key === NEW)).toMatchObject({ title: "Letters from the Gull Rock Light", structure: "chapters", passages: 8 });
  });

  it("holds a moot between the added book and a bundled one, each quoting its own book", async () => {
    const created = await call(server.url, "POST", "/moots", { keys: [NEW, "novel/frankenstein"], topic: "the gale and the spray over the rail", turns: 2, k: 3 });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id: string = created.json.id;
    const first = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ turn: 1, speaker: NEW, grounded: true });
    // the added book's own passages are cited (node ids <key>#<name>)
    const cited = Object.values(first.json.cited as Record<string, string>);
    expect(cited.length).toBeGreaterThan(0);
    for (const node of cited) expect(node).toMatch(/^letters\/the-gull-rock-letters#(letter-[iv]+|index|contents|editor-s-note|front-matter)$/);
    const second = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(second.json).toMatchObject({ turn: 2, speaker: "novel/frankenstein", grounded: true });
    const transcript = await call(server.url, "GET", `/moots/${id}`);
    expect(transcript.json).toMatchObject({ id, done: true, stats: { turns: 2, groundedTurns: 2 } });
  });

  it("locates a quote in the added book and in a bundled one (POST /locate; offsets into the passage's content, page.md)", async () => {
    const letters = await call(server.url, "POST", "/locate", { quote: "a tower like ours is built to bend", book: NEW });
    expect(letters.status, JSON.stringify(letters.json)).toBe(200);
    expect(letters.json.spans[0]).toMatchObject({ label: "LETTER II", node: `${NEW}#letter-ii`, ratio: 1, text: "a tower like ours is _built to bend_" });
    expect(readFileSync(LETTERS, "utf8")).toContain("a tower like ours is _built to bend_");
    const bundled = await call(server.url, "POST", "/locate", { quote: "But success shall crown my endeavours", book: "novel/frankenstein" });
    expect(bundled.json.spans[0]).toMatchObject({ ratio: 1, text: "But success _shall_ crown my endeavours" });
  });

  it("verifies a reply against the added book, snapping a near miss to its words, markup whole", async () => {
    const reply = 'She wrote that "Vell says a tower like ours is built to bend" and that "the spray came over the gallery rails".';
    const r = await call(server.url, "POST", "/quotes/verify", { reply, book: NEW });
    expect(r.status).toBe(200);
    expect(r.json.grounding.quotes.map((q: { found: boolean }) => q.found)).toEqual([true, false]);
    expect(r.json.snaps).toMatchObject([{ action: "snapped", to: "The spray came over the gallery rail" }]);
    expect(r.json.snapped).toBe('She wrote that "Vell says a tower like ours is built to bend" and that "The spray came over the gallery rail".');
    // an unknown key names the close one
    const unknown = await call(server.url, "POST", "/quotes/verify", { reply, book: "letters/the-gull-rock-letter" });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.json)).toContain(NEW);
  });

  // last: it rewrites the book's file
  it("checks the books it read at start: a book's file rewritten while it runs changes no answer (the check workers hold the server's copy)", async () => {
    const file = join(books, "letters__the-gull-rock-letters.txt");
    writeFileSync(file, readFileSync(file, "utf8").replaceAll("built to bend", "made to sway"));
    const reply = 'She wrote that "a tower like ours is built to bend".';
    const r = await call(server.url, "POST", "/quotes/verify", { reply, book: NEW });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.grounding.quotes.map((q: { found: boolean }) => q.found)).toEqual([true]);
    const again = await call(server.url, "POST", "/quotes/verify", { reply: 'She wrote that "a tower like ours is made to sway".', book: NEW });
    expect(again.json.grounding.quotes.map((q: { found: boolean }) => q.found)).toEqual([false]);
  });
});
