// `serve --store` when the database drops its connections (a restart, a failover, an
// administrator) while a moot turn holds one and waits on the model: the server keeps running
// (a held connection's error is not an uncaught exception), the turn answers 503 `store`, and
// the next turn is spoken; `mcp --store` and `serve --store` against a database at a newer
// schema refuse to start with the one line naming both versions.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../ts/store/pg.js";
import { loadLibrary } from "../../ts/store/pg-library.js";
import { call, CLI, ROOT, serveRefuses, startServer, startSlowModel, type RunningServer } from "../server/serve-process.js";
import { freshDatabase, pgAvailable, PG_URL } from "./pg-env.js";

const PG = pgAvailable();
const KEYS = ["novel/frankenstein", "diary/pepys-1660"];

async function admin(sql: string, params: unknown[] = [], url = PG_URL!): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe.skipIf(!PG)("serve --store with its connections dropped mid-turn", () => {
  let server: RunningServer | null = null;
  let model: Awaited<ReturnType<typeof startSlowModel>> | null = null;
  afterAll(async () => {
    await server?.kill();
    await model?.close();
  });

  it("keeps running: the turn answers 503 store, the moot stays at its last turn, and the next turn is spoken", async () => {
    const url = await freshDatabase("serve_drop");
    const db = new URL(url).pathname.slice(1);
    const store = await openStore(url);
    await loadLibrary(store, `${ROOT}/data/books`);
    await store.close();
    model = await startSlowModel();
    server = await startServer(["--store", url, "--base-url", model.baseUrl]);
    const id = (await call(server.url, "POST", "/moots", { keys: KEYS, topic: "fire", turns: 2, k: 2 })).json.id as string;
    const turn = call(server.url, "POST", `/moots/${id}/turns`);
    // the turn holds its connection (the moot's lock) while it waits on the model
    for (let i = 0; i < 200 && (await call(server.url, "GET", "/health")).json.running < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 200));
    const dropped = await admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'groundwire serve'", [db]);
    expect(dropped).toBeGreaterThanOrEqual(1);
    model.release();
    const answered = await turn;
    expect(answered.status).toBe(503);
    expect(answered.json.error.code).toBe("store");
    // still serving, the moot at its last committed turn (none), and the turn spoken on a new connection
    expect((await call(server.url, "GET", "/health")).status).toBe(200);
    expect((await call(server.url, "GET", `/moots/${id}`)).json.utterances).toEqual([]);
    const again = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(again.status).toBe(200);
    expect(again.json.turn).toBe(1);
    expect(server.stderr()).not.toMatch(/Unhandled|at Connection\./);
  }, 90_000);

  it("serve and mcp against a database at a newer schema: exit 1 naming both versions", async () => {
    const url = await freshDatabase("serve_newer");
    const store = await openStore(url);
    await store.close();
    await admin("INSERT INTO groundwire.schema_version (version) VALUES (99)", [], url);
    const shown = `postgres://127.0.0.1:${new URL(url).port}${new URL(url).pathname}`;
    const line = (command: string) =>
      `groundwire ${command}: the store ${shown} holds schema version 99, newer than this groundwire knows (2); upgrade groundwire, or point --store at another database\n`;
    expect(await serveRefuses(["--store", url])).toEqual({ code: 1, stderr: line("serve") });
    const env = { ...process.env };
    delete env.GROUNDWIRE_STORE;
    const mcp = spawnSync(process.execPath, [CLI, "mcp", "--store", url], { cwd: ROOT, env, encoding: "utf8", input: "", timeout: 30_000 });
    expect({ code: mcp.status, stderr: mcp.stderr }).toEqual({ code: 1, stderr: line("mcp") });
  });
});
