// `groundwire corpus load` (the built CLI) against bad folders and bad conditions, on the
// test cluster: special files named like books (FIFO, socket, /dev/zero through a link, link
// loops, dangling links, folders), bad encodings, an empty book, a `.TXT` book, two names for
// one key, a bad book after good ones, two loads at once, a load SIGKILLed or cut off from its
// database mid-way, a wrong or missing password, a read-only role. Each: exit code and the one
// line naming what and where, the store left with whole books only, and a rerun that succeeds.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBookFile } from "../../ts/moot/corpus-node.js";
import { openStore } from "../../ts/store/pg.js";
import { loadLibrary } from "../../ts/store/pg-library.js";
import { CLI, ROOT } from "../server/serve-process.js";
import { freshDatabase, pgAvailable, PG_URL } from "./pg-env.js";

const PG = pgAvailable();
const FRANKENSTEIN = join(ROOT, "data/books/novel__frankenstein.txt");
const PEPYS = join(ROOT, "data/books/diary__pepys-1660.txt");
/** A small book (quick to write): a title and a few paragraphs. */
const SMALL = "A Small Book\n\nThe first paragraph, of a few words.\n\nThe second paragraph, of a few more words than the first.\n\nThe third and last.\n";

function load(dir: string, url: string, extra: string[] = []) {
  const env = { ...process.env };
  delete env.GROUNDWIRE_STORE;
  const r = spawnSync(process.execPath, [CLI, "corpus", "load", dir, "--store", url, ...extra], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The books a database holds, each with its passages and windows counted (a half-written book shows here). */
async function stored(url: string): Promise<Array<{ key: string; passages: number; rows: number; windows: number }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const present = (await client.query("SELECT to_regclass('groundwire.books') IS NOT NULL AS p")).rows[0].p;
    if (!present) return [];
    const { rows } = await client.query(
      `SELECT b.key, b.passages,
              (SELECT count(*)::int FROM groundwire.passages p WHERE p.book = b.key) AS rows,
              (SELECT count(*)::int FROM groundwire.passage_windows w WHERE w.book = b.key) AS windows
       FROM groundwire.books b ORDER BY b.key`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

async function admin(sql: string, url = PG_URL!): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!PG)("corpus load against bad folders and bad conditions", () => {
  let tmp: string;
  const servers: Server[] = [];
  const folder = (name: string, ...books: Array<[string, string | Buffer | null]>) => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    // a good book first: nothing of the folder may be written when a later file is refused by its checks
    writeFileSync(join(dir, "novel__a-good-one.txt"), SMALL);
    for (const [file, body] of books) if (body !== null) writeFileSync(join(dir, file), body);
    return dir;
  };
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), "gw-hostile-"));
  });
  afterAll(() => {
    for (const s of servers) s.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("a FIFO, a socket, /dev/zero through a link, a link loop, a dangling link and a folder named like a book: exit 1 naming the file, nothing written", async () => {
    const url = await freshDatabase("hostile_special");
    const cases: Array<[string, (path: string) => void | Promise<void>, string]> = [
      ["fifo", (p) => void spawnSync("mkfifo", [p]), "not a regular file"],
      ["socket", (p) => new Promise<void>((resolve) => {
        const s = createServer();
        servers.push(s);
        s.listen(p, resolve);
      }), "not a regular file"],
      ["zero", (p) => symlinkSync("/dev/zero", p), "not a regular file"],
      ["loop", (p) => symlinkSync(p, p), "is a symbolic link loop (too many levels of links)"],
      ["dangling", (p) => symlinkSync("/nonexistent/book.txt", p), 'is a symbolic link to "/nonexistent/book.txt", which does not exist'],
      ["folder", (p) => mkdirSync(p), "not a regular file"],
    ];
    const store = await openStore(url);
    try {
      for (const [name, make, reason] of cases) {
        const dir = folder(name);
        const path = join(dir, "novel__z-special.txt");
        await make(path);
        await expect(loadLibrary(store, dir), name).rejects.toThrow(`${path}: ${reason}`);
      }
    } finally {
      await store.close();
    }
    // the CLI: exit 1, the one line (and a FIFO never waited on)
    const fifo = join(tmp, "fifo", "novel__z-special.txt");
    expect(load(join(tmp, "fifo"), url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: ${fifo}: not a regular file\n` });
    // an entries index that is a FIFO is never waited on either
    const dir = folder("entries-fifo");
    spawnSync("mkfifo", [join(dir, "novel__a-good-one.entries.json")]);
    expect(load(dir, url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: ${join(dir, "novel__a-good-one.entries.json")}: not a regular file\n` });
    expect(await stored(url)).toEqual([]);
  });

  it("Latin-1, UTF-16 (with and without BOM), a NUL byte, an empty file, a book over 64 MiB: exit 1 naming the file and what to do", async () => {
    const url = await freshDatabase("hostile_encoding");
    const text = readFileSync(FRANKENSTEIN, "utf8").slice(0, 20_000);
    const cases: Array<[string, Buffer, string]> = [
      ["latin1", Buffer.concat([Buffer.from(text), Buffer.from("caf\xe9 au lait\n", "latin1")]), "not UTF-8 text (convert it first, e.g. iconv -f latin1 -t utf-8)"],
      ["utf16", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]), "UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)"],
      ["utf16le", Buffer.from(text, "utf16le"), "UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)"],
      ["nul", Buffer.from(`${text}a\0b\n`), "UTF-16 or binary, not UTF-8 text (a UTF-16 book: convert it first, e.g. iconv -f utf-16 -t utf-8)"],
      ["empty", Buffer.alloc(0), "no passage of text (the file is empty or only front matter and licence)"],
      ["blank", Buffer.from("\n\n   \n"), "no passage of text (the file is empty or only front matter and licence)"],
    ];
    const stopped = " (stopped there: the 1 book before it is in the store, each whole; run corpus load again once it is fixed: unchanged books are skipped)";
    const store = await openStore(url);
    try {
      for (const [name, body, reason] of cases) {
        // after the good book: it is written whole, and the message says so
        const dir = folder(name, ["novel__z-bad.txt", body]);
        await expect(loadLibrary(store, dir), name).rejects.toThrow(`${join(dir, "novel__z-bad.txt")}: ${reason}${stopped}`);
      }
    } finally {
      await store.close();
    }
    const latin1 = join(tmp, "latin1", "novel__z-bad.txt");
    expect(load(join(tmp, "latin1"), url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: ${latin1}: not UTF-8 text (convert it first, e.g. iconv -f latin1 -t utf-8)${stopped}\n` });
    // over the cap: refused by its size before anything is read or written (a sparse file: no 64 MiB on disk)
    const big = folder("big");
    const fd = openSync(join(big, "novel__z-big.txt"), "w");
    ftruncateSync(fd, 64 * 2 ** 20 + 1);
    closeSync(fd);
    expect(load(big, url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: ${join(big, "novel__z-big.txt")}: 67,108,865 bytes, over the 64 MiB a book may hold\n` });
    expect((await stored(url)).map((b) => b.key)).toEqual(["novel/a-good-one"]);
  });

  it("a BOM is not text, a .TXT book has no entries index but itself, two files of one key are refused, a bad name is named", async () => {
    const url = await freshDatabase("hostile_names");
    const bom = folder("bom", ["novel__b-bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(PEPYS)])]);
    const upper = join(tmp, "upper");
    mkdirSync(upper);
    writeFileSync(join(upper, "diary__c-upper.TXT"), SMALL);
    const r = load(bom, url);
    expect(r.code).toBe(0);
    expect(load(upper, url)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^loaded 1 book \(1 passages/) });
    const books = await stored(url);
    // the BOM book cut as the same book without it
    const plain = loadBookFile(join(ROOT, "data/books"), "diary__pepys-1660.txt", "novel/b-bom").passages.length;
    expect(plain).toBeGreaterThan(300);
    expect(books.map((b) => [b.key, b.passages, b.rows])).toEqual([
      ["diary/c-upper", 1, 1],
      ["novel/a-good-one", 1, 1],
      ["novel/b-bom", plain, plain],
    ]);

    const twice = join(tmp, "twice");
    mkdirSync(twice);
    writeFileSync(join(twice, "diary__d.txt"), SMALL);
    writeFileSync(join(twice, "diary__d.TXT"), SMALL);
    expect(load(twice, url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: corpus folder ${twice}: two files are the book diary/d (diary__d.TXT, diary__d.txt); keep one\n` });
    const store = await openStore(url);
    try {
      for (const name of ["novel__it's.txt", "novel__a b.txt", "novel__café.txt", "novel__...txt", "..__x.txt"]) {
        const dir = folder(`name-${Buffer.from(name).toString("hex")}`, [name, "Some text.\n"]);
        await expect(loadLibrary(store, dir), name).rejects.toThrow(
          `${join(dir, name)}: a book file is named <genre>__<book>.txt with ASCII letters, digits and - (the book part also . and _), e.g. novel__cafe-society.txt`,
        );
      }
    } finally {
      await store.close();
    }
    expect(load(join(tmp, "no-such-folder"), url)).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: corpus folder ${join(tmp, "no-such-folder")} does not exist\n` });
  });

  it("two loads of one folder at once: each book written once, by one of them; both exit 0", async () => {
    const url = await freshDatabase("hostile_twice");
    const dir = join(tmp, "both");
    mkdirSync(dir);
    for (const c of ["a", "b", "c"]) writeFileSync(join(dir, `novel__f-${c}.txt`), SMALL);
    const env = { ...process.env };
    delete env.GROUNDWIRE_STORE;
    const runs = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<{ code: number | null; stdout: string }>((resolve) => {
            const child = spawn(process.execPath, [CLI, "corpus", "load", dir, "--store", url, "--json"], { cwd: ROOT, env });
            let out = "";
            child.stdout.on("data", (c) => (out += c));
            child.on("exit", (code) => resolve({ code, stdout: out }));
          }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    const [a, b] = runs.map((r) => JSON.parse(r.stdout) as { loaded: string[]; unchanged: string[] });
    expect([...a!.loaded, ...b!.loaded].sort()).toEqual(["novel/f-a", "novel/f-b", "novel/f-c"]);
    expect((await stored(url)).map((x) => [x.key, x.rows])).toEqual([
      ["novel/f-a", 1],
      ["novel/f-b", 1],
      ["novel/f-c", 1],
    ]);
  });

  /** Start a load of `n` copies of a book; once `after` books are committed, do `cut`; the load's exit and stderr. */
  async function interrupted(url: string, name: string, n: number, cut: (child: ReturnType<typeof spawn>) => Promise<void>) {
    const dir = join(tmp, name);
    mkdirSync(dir);
    for (let i = 0; i < n; i++) copyFileSync(FRANKENSTEIN, join(dir, `novel__k-${i}.txt`));
    const env = { ...process.env };
    delete env.GROUNDWIRE_STORE;
    const child = spawn(process.execPath, [CLI, "corpus", "load", dir, "--store", url], { cwd: ROOT, env });
    let err = "";
    child.stderr!.on("data", (c) => (err += c));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ? -1 : code)));
    // cut while a book is being written: one is committed, the next under way
    for (;;) {
      if ((await stored(url)).length >= 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await cut(child);
    return { dir, code: await exited, stderr: () => err };
  }

  it("a load SIGKILLed mid-way leaves whole books only, and a rerun loads the rest", async () => {
    const url = await freshDatabase("hostile_kill");
    const { dir, code } = await interrupted(url, "killed", 3, async (child) => void child.kill("SIGKILL"));
    expect(code).toBe(-1);
    // the killed connection's transaction is rolled back once the server sees it gone
    const books = await stored(url);
    expect(books.length).toBeGreaterThanOrEqual(1);
    expect(books.length).toBeLessThan(3);
    for (const b of books) expect([b.rows, b.windows > 0]).toEqual([b.passages, true]);
    const again = load(dir, url);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^loaded ${3 - books.length} books? \\(\\d+ passages, [\\d.]+ MB\\), ${books.length} unchanged, in [\\d.]+ s\\n$`));
    expect((await stored(url)).map((b) => [b.key, b.rows])).toEqual([0, 1, 2].map((i) => [`novel/k-${i}`, 446]));
  });

  it("a load whose connection the database drops mid-way (a restart): exit 1, one line naming the store, whole books only, a rerun loads the rest", async () => {
    const url = await freshDatabase("hostile_drop");
    const db = new URL(url).pathname.slice(1);
    // dropped again and again until the load gives up: a drop while its connection sits idle in the pool only costs a reconnect
    const { dir, code, stderr } = await interrupted(url, "dropped", 3, async (child) => {
      void (async () => {
        while (child.exitCode === null && child.signalCode === null) {
          await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db}' AND application_name = 'groundwire corpus'`);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
    });
    expect(code).toBe(1);
    // one line, no stack trace: pg's "terminating connection due to administrator command" or the connection's end
    expect(stderr()).toMatch(new RegExp(`^groundwire corpus: the store postgres://127\\.0\\.0\\.1:\\d+/${db}: [^\\n]+\\n$`));
    const books = await stored(url);
    for (const b of books) expect(b.rows).toBe(b.passages);
    expect(load(dir, url).code).toBe(0);
    expect((await stored(url)).length).toBe(3);
  });

  it("a wrong password, a missing one, a role that may only read: exit 1, the reason named, never the password; no wait", async () => {
    const url = await freshDatabase("hostile_roles");
    const db = new URL(url).pathname.slice(1);
    const role = `gw_pw_${process.pid}`;
    await admin(`DO $$ BEGIN CREATE ROLE password_required NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    // identifiers and the password are made in this test from [a-z0-9_] only
    await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'right-one' IN ROLE password_required`);
    const as = (user: string, password?: string) => {
      const u = new URL(url);
      u.username = user;
      if (password !== undefined) u.password = password;
      return u.toString();
    };
    const shown = `postgres://127.0.0.1:${new URL(url).port}/${db}`;
    const dir = join(ROOT, "data/books");
    expect(load(dir, as(role, "hunter2"))).toEqual({ code: 1, stdout: "", stderr: `groundwire corpus: the store ${shown}: password authentication failed for user "${role}" (SQLSTATE 28P01)\n` });
    const t0 = Date.now();
    expect(load(dir, as(role))).toEqual({
      code: 1,
      stdout: "",
      stderr: `groundwire corpus: the store ${shown}: the server asks for a password and none was given (put it in the URL, postgres://user:password@host/db, or in PGPASSWORD)\n`,
    });
    // the process ended at once, not at the server's authentication timeout (a minute)
    expect(Date.now() - t0).toBeLessThan(30_000);

    // a reader: lists, and is told why it cannot write
    const base = join(tmp, "roles-base");
    mkdirSync(base);
    writeFileSync(join(base, "novel__r.txt"), SMALL);
    expect(load(base, url).code).toBe(0);
    const reader = `gw_reader_${process.pid}`;
    await admin(`CREATE ROLE ${reader} LOGIN`);
    await admin(`GRANT USAGE ON SCHEMA groundwire TO ${reader}; GRANT SELECT ON ALL TABLES IN SCHEMA groundwire TO ${reader}`, url);
    const changed = join(tmp, "changed");
    mkdirSync(changed);
    writeFileSync(join(changed, "novel__r.txt"), `${SMALL}\nOne more paragraph.\n`);
    expect(load(changed, as(reader))).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `groundwire corpus: the store ${shown}: permission denied for table books (SQLSTATE 42501); the role lacks a privilege there ` +
        "(corpus load and remove, serve and its moots write, so they need a role that may write the groundwire schema)\n",
    });
    expect((await stored(url)).map((b) => [b.key, b.rows])).toEqual([["novel/r", 1]]);
  });
});
