// Two `groundwire serve --store` replicas on one PostgreSQL database, as an operator would run
// them: 20 moots (12 in npm test) × 8 turns driven through both at once (each turn asked of both replicas
// concurrently), one replica SIGKILLed midway and started again. Every turn number appears
// exactly once per moot, none is lost, none is spoken twice: the model calls are counted by
// a stub OpenAI-compatible endpoint on 127.0.0.1 that serves the extractive synthesizer's
// replies, attributed to their moot by a token in its topic (the summary's prompt has none:
// those are counted in all).
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { createExtractiveSynthesizer, createEmbeddedCorpus, type ChatMessage } from "../../ts/moot/index.js";
import { loadBooks } from "../../ts/moot/corpus-node.js";
import { openStore, type Store } from "../../ts/store/pg.js";
import { q } from "../../ts/store/pg-library.js";
import { call, CLI, ROOT, startServer, type RunningServer } from "../server/serve-process.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";
import { depth } from "../depth.js";

const PG = pgAvailable();
const BOOKS = fileURLToPath(new URL("../../data/books", import.meta.url));
// npm test: 12 moots (still more than turns run at once on the replica killed, so some moots go
// through the kill untouched and the model calls of the others can be compared with theirs);
// npm run test:deep (test/depth.ts): 20.
const MOOTS = depth(12, 20);
const TURNS = 8;
const TOKEN = "replica-test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe.skipIf(!PG)("two serve --store replicas on one database", () => {
  let url: string;
  let store: Store;
  const calls = new Map<string, number>();
  let stub: { baseUrl: string; close(): Promise<void> };
  const replicas: RunningServer[] = [];

  beforeAll(async () => {
    url = await freshDatabase("replicas");
    const load = spawnSync(process.execPath, [CLI, "corpus", "load", "data/books", "--store", url], { cwd: ROOT, encoding: "utf8" });
    expect(load.stderr).toBe("");
    expect(load.stdout).toMatch(/^loaded 2 books \(814 passages, 0\.9 MB\), 0 unchanged, in [\d.]+ s\n$/);
    store = await openStore(url);
    const synth = createExtractiveSynthesizer();
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        const messages = (JSON.parse(body) as { messages: ChatMessage[] }).messages;
        const moot = /zq(\d+)x/.exec(messages.map((m) => m.content).join("\n"))?.[1] ?? "none";
        calls.set(moot, (calls.get(moot) ?? 0) + 1);
        // slow enough that the kill lands while turns are running
        await new Promise((r) => setTimeout(r, 60));
        const text = await synth.complete(messages);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ model: "stub-7b", choices: [{ message: { role: "assistant", content: text } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stub = {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    };
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill().catch(() => {})));
    await stub?.close();
    await store?.close();
  });

  const start = () => startServer(["--store", url, "--base-url", stub.baseUrl, "--max-turns", "64"], { GROUNDWIRE_TOKEN: TOKEN });

  it(`each turn of ${MOOTS} moots × 8 is spoken exactly once, through a SIGKILL and restart of one replica`, async () => {
    replicas.push(await start(), await start());
    const urls = () => replicas.map((r) => r.url);

    // create the moots, alternately on each replica
    const ids: string[] = [];
    for (let i = 0; i < MOOTS; i++) {
      const r = await call(urls()[i % 2]!, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: `fire and ruin zq${i}x`, turns: TURNS, k: 4 }, AUTH);
      expect(r.status).toBe(201);
      ids.push(r.json.id);
    }
    // both replicas see every moot at once (none held in memory)
    for (const u of urls()) expect((await call(u, "GET", "/health")).json.moots).toBe(MOOTS);

    const answered = new Map<string, number[]>(ids.map((id) => [id, []]));
    const interrupted = new Set<string>();
    const statuses = new Map<number, number>();
    let spoken = 0;
    let killed: Promise<void> | null = null;
    let killAt = Infinity;
    const drive = async (id: string) => {
      for (let round = 0; round < 400; round++) {
        const current = (await call(urls()[0]!, "GET", `/moots/${id}`, undefined, AUTH).catch(() => call(urls()[1]!, "GET", `/moots/${id}`, undefined, AUTH)));
        if (current.json?.done) return;
        // the same turn asked of both replicas at once: one speaks it, the other answers 409
        const sent = Date.now();
        const results = await Promise.all(
          urls().map((u) =>
            call(u, "POST", `/moots/${id}/turns`, undefined, AUTH).catch(() => {
              // cut short by the kill (sent before it); a request refused by the dead port after it spoke nothing
              if (sent <= killAt) interrupted.add(id);
              return null;
            }),
          ),
        );
        for (const r of results) {
          if (!r) continue;
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 200) {
            answered.get(id)!.push(r.json.turn);
            spoken++;
          }
        }
        // midway, kill the first replica with turns running on it, and start it again
        if (spoken >= (MOOTS * TURNS) / 2 && !killed) {
          killed = (async () => {
            const victim = replicas[0]!;
            killAt = Date.now();
            await victim.kill();
            replicas[0] = await start();
          })();
        }
        if (!results.some((r) => r?.status === 200)) await new Promise((r) => setTimeout(r, 30));
      }
      throw new Error(`moot ${id} did not finish`);
    };
    await Promise.all(ids.map(drive));
    await killed;
    expect(killed).not.toBeNull();

    for (const id of ids) {
      // the transcript, read from the restarted replica and the other: turns 1..8, each once
      for (const u of urls()) {
        const t = await call(u, "GET", `/moots/${id}`, undefined, AUTH);
        expect(t.status).toBe(200);
        expect(t.json.done).toBe(true);
        expect(t.json.utterances.map((x: { turn: number }) => x.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      }
      // no turn number was answered twice (a reply lost to the kill may be missing, never repeated)
      const turns = answered.get(id)!;
      expect(new Set(turns).size).toBe(turns.length);
      if (!interrupted.has(id)) expect([...turns].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
    // the append-only table: one row per turn
    const rows = (await q<{ moot: string; n: number; turns: number[] }>(store, "SELECT moot::text, count(*)::int AS n, array_agg(turn ORDER BY turn) AS turns FROM groundwire.moot_turns GROUP BY moot")).rows;
    expect(rows).toHaveLength(MOOTS);
    for (const r of rows) expect(r.turns).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    // model calls: every moot not touched by the kill made the same number (8 turns and the summaries);
    // a moot whose turn the kill cut short made at most that turn's calls more, never a turn's worth twice over
    const perMoot = ids.map((_, i) => calls.get(String(i)) ?? 0);
    const clean = ids.map((id, i) => (interrupted.has(id) ? null : perMoot[i]!)).filter((n): n is number => n !== null);
    expect(clean.length).toBeGreaterThan(0);
    const expected = clean[0]!;
    expect(expected).toBeGreaterThanOrEqual(TURNS);
    expect(clean.every((n) => n === expected)).toBe(true);
    for (const [i, id] of ids.entries()) {
      if (interrupted.has(id)) expect(perMoot[i]!).toBeGreaterThanOrEqual(expected), expect(perMoot[i]!).toBeLessThanOrEqual(expected + 2);
    }
    // the rolling summary's prompt (before turn 5) names no topic: one per moot, one more at most where the kill cut it short
    expect(calls.get("none") ?? 0).toBeGreaterThanOrEqual(MOOTS);
    expect(calls.get("none") ?? 0).toBeLessThanOrEqual(MOOTS + interrupted.size);
    // busy turns were refused with 409, never spoken
    expect(statuses.get(409) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].every((s) => s === 200 || s === 409 || s === 503)).toBe(true);
  });

  it("both replicas answer /books, /query and /quotes/verify alike, with the embedded corpus's books and hit shape", async () => {
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    const embedded = createEmbeddedCorpus(loadBooks(BOOKS));
    for (const u of [a, b]) expect((await call(u, "GET", "/books", undefined, AUTH)).json).toEqual({ books: embedded.books() });
    const body = { text: "It was on a dreary night of November", corpus: "novel/frankenstein", k: 3 };
    const fromA = await call(a, "POST", "/query", body, AUTH);
    expect(fromA.status).toBe(200);
    expect((await call(b, "POST", "/query", body, AUTH)).json).toEqual(fromA.json);
    expect(fromA.json.hits[0].label).toBe("Chapter 5, part 1");
    expect(Object.keys(fromA.json.hits[0]).sort()).toEqual(["author", "content", "genre", "label", "name", "node_id", "score", "title"]);
    const unknown = await call(a, "POST", "/query", { ...body, corpus: "novel/frankenstien" }, AUTH);
    expect(unknown.status).toBe(404);
    // a reply checked against a whole book: its text read from the database, the same on both
    const reply = { reply: 'He said "a dreary night of November" and "the instruments of death around me".', book: "novel/frankenstein" };
    const verify = await call(a, "POST", "/quotes/verify", reply, AUTH);
    expect(verify.status).toBe(200);
    expect(verify.json.snapped).toBe('He said "a dreary night of November" and "the instruments of life around me".');
    expect((await call(b, "POST", "/quotes/verify", reply, AUTH)).json).toEqual(verify.json);
  });

  it("a DELETE wins over a turn running on the other replica; the moot is gone from both", async () => {
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    const created = await call(a, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "ice zq99x", turns: 4, k: 4 }, AUTH);
    const id = created.json.id;
    const turn = call(a, "POST", `/moots/${id}/turns`, undefined, AUTH);
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(b, "DELETE", `/moots/${id}`, undefined, AUTH)).status).toBe(200);
    expect((await turn).status).toBe(404);
    expect((await call(a, "GET", `/moots/${id}`, undefined, AUTH)).status).toBe(404);
    expect((await call(b, "GET", `/moots/${id}`, undefined, AUTH)).status).toBe(404);
    expect((await q(store, "SELECT count(*)::int AS n FROM groundwire.moot_turns WHERE moot = $1", [id])).rows[0]).toEqual({ n: 0 });
  });
});
