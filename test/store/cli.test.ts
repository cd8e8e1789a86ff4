// The CLI with --store, run as the built CLI (dist/cli.js) against the test cluster: books and
// locate answer exactly as they do on the embedded corpus, corpus load/list/remove, the URL
// checked and its password never shown.
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT } from "../server/serve-process.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";
import { spread } from "../depth.js";

const PG = pgAvailable();

function run(args: string[], env: Record<string, string> = {}) {
  const e = { ...process.env, ...env };
  if (!("GROUNDWIRE_STORE" in env)) delete e.GROUNDWIRE_STORE;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: e, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!PG)("the CLI with --store", () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase("cli");
    const load = run(["corpus", "load", "data/books", "--store", url]);
    expect(load.code).toBe(0);
  });
  afterAll(() => {});

  it("books and books --passages print exactly what the embedded corpus prints", () => {
    expect(run(["books", "--store", url])).toEqual(run(["books"]));
    expect(run(["books", "--json", "--store", url])).toEqual(run(["books", "--json"]));
    const passages = run(["books", "--passages", "diary/pepys-1660", "--json"], { GROUNDWIRE_STORE: url });
    expect(passages.code).toBe(0);
    expect(passages).toEqual(run(["books", "--passages", "diary/pepys-1660", "--json", "--corpus", "data/books"], { GROUNDWIRE_STORE: url }));
  });

  it("locate --store finds the spans the exhaustive locate finds, with the same offsets, ratios and diffs", () => {
    // npm test: the first and the last quote; npm run test:deep (test/depth.ts): all three
    for (const quote of spread(["It was on a drery night of November that I beheld", "and so to bed", "I do not like the look of the fire"], 2)) {
      const embedded = run(["locate", quote, "--json", "--limit", "3"]);
      const stored = run(["locate", quote, "--json", "--limit", "3", "--store", url]);
      expect(stored).toEqual(embedded);
    }
    expect(run(["locate", "x y z", "--book", "novel/frankenstien", "--store", url])).toEqual({ code: 2, stdout: "", stderr: 'groundwire locate: no book "novel/frankenstien"; did you mean "novel/frankenstein"?\n' });
  });

  it("moot --store retrieves from the store (offline synthesizer): every turn spoken and grounded", () => {
    const r = run(["moot", "novel/frankenstein", "diary/pepys-1660", "--topic", "fire", "--turns", "2", "--json", "-", "--store", url]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.utterances.map((u: { turn: number; speaker: string }) => [u.turn, u.speaker])).toEqual([
      [1, "novel/frankenstein"],
      [2, "diary/pepys-1660"],
    ]);
    expect(d.utterances.every((u: { grounded: boolean }) => u.grounded)).toBe(true);
    expect(d.utterances[0].retrieved[0].nodeId ?? d.utterances[0].retrieved[0].node_id).toMatch(/^novel\/frankenstein#/);
  });

  it("mcp --store: search_book answers from the store, as the embedded mcp does for an exact quote", async () => {
    const hitsOf = async (args: string[]) => {
      const client = new Client({ name: "groundwire-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], cwd: ROOT, stderr: "pipe" }));
      try {
        const r = (await client.callTool({ name: "search_book", arguments: { text: "It was on a dreary night of November", book: "novel/frankenstein", k: 1 } })) as unknown as { structuredContent: { hits: Array<Record<string, unknown>> } };
        return r.structuredContent.hits.map(({ score: _, ...hit }) => hit);
      } finally {
        await client.close();
      }
    };
    const stored = await hitsOf(["--store", url]);
    expect(stored).toHaveLength(1);
    expect(stored).toEqual(await hitsOf([]));
  });

  it("corpus list and remove; a second load writes nothing", () => {
    expect(run(["corpus", "load", "data/books", "--store", url]).stdout).toMatch(/^loaded 0 books \(0 passages, 0\.0 MB\), 2 unchanged, in [\d.]+ s\n$/);
    const list = JSON.parse(run(["corpus", "list", "--json", "--store", url]).stdout);
    expect(list.map((b: { key: string; passages: number; config: string }) => [b.key, b.passages, b.config])).toEqual([
      ["diary/pepys-1660", 368, "english"],
      ["novel/frankenstein", 446, "english"],
    ]);
    expect(run(["corpus", "remove", "novel/frankenstein", "--store", url])).toEqual({ code: 0, stdout: "removed novel/frankenstein\n", stderr: "" });
    expect(run(["corpus", "remove", "novel/frankenstein", "--store", url])).toEqual({ code: 1, stdout: "", stderr: 'groundwire corpus: the store holds no book "novel/frankenstein"\n' });
    expect(run(["corpus", "load", "data/books", "--store", url]).stdout).toMatch(/^loaded 1 book \(446 passages, 0\.4 MB\), 1 unchanged, in [\d.]+ s\n$/);
  });

  it("the URL is checked, and a password in it never reaches a message", () => {
    expect(run(["books", "--store", "http://u:hunter2@db/x"])).toEqual({ code: 2, stdout: "", stderr: 'groundwire books: --store must be a postgres:// URL, got "http://db/x"\n' });
    const down = run(["locate", "a quote", "--store", "postgres://u:hunter2@127.0.0.1:1/db?sslpassword=secret"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe("groundwire locate: the store postgres://127.0.0.1:1/db?sslpassword=***: connect ECONNREFUSED 127.0.0.1:1\n");
    expect(run(["books", "--corpus", "data/books", "--store", url]).stderr).toMatch(/^groundwire books: give --corpus or --store, not both/);
    expect(run(["serve", "--data", "/tmp/x", "--store", url]).stderr).toBe("groundwire serve: give --data or --store, not both: with a store the live moots are kept in the database\n");
    expect(run(["corpus", "list"]).stderr).toBe("groundwire corpus: name the database with --store postgres://… (or GROUNDWIRE_STORE)\n");
  });
});
