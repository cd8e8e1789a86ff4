// `serve --store` when its database goes away: requests that need it answer 503 `store` with
// Retry-After, naming the store without its password; the server itself keeps running.
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../ts/store/pg.js";
import { loadLibrary } from "../../ts/store/pg-library.js";
import { call, startServer, type RunningServer } from "../server/serve-process.js";
import { pgAvailable } from "./pg-env.js";
import { postgresBin, startTestCluster, type TestCluster } from "./pg-cluster.js";

const PG = pgAvailable();

describe.skipIf(!PG)("serve --store with its database gone", () => {
  let cluster: TestCluster | null = null;
  let server: RunningServer | null = null;
  afterAll(async () => {
    await server?.kill();
    cluster?.stop();
  });

  it("answers 503 store with Retry-After, the URL shown without its password, and keeps serving what needs no database", async () => {
    // a cluster of its own, stopped under the running server
    cluster = await startTestCluster(postgresBin()!);
    const url = new URL(cluster.url);
    url.password = "hunter2";
    const store = await openStore(url.toString());
    await loadLibrary(store, "data/books");
    await store.close();
    server = await startServer(["--store", url.toString()]);
    const body = { text: "a dreary night of November", corpus: "novel/frankenstein", k: 2 };
    expect((await call(server.url, "POST", "/query", body)).status).toBe(200);

    cluster.stop();
    cluster = null;
    const down = await call(server.url, "POST", "/query", body);
    expect(down.status).toBe(503);
    expect(down.json.error.code).toBe("store");
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.json.error.message).toMatch(new RegExp(`^the store postgres://127\\.0\\.0\\.1:${url.port}/postgres: `));
    expect(JSON.stringify(down.json)).not.toContain("hunter2");
    expect(server.stderr()).not.toContain("hunter2");
    const moot = await call(server.url, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "ice", turns: 2, k: 2 });
    expect(moot.status).toBe(503);
    // what needs no database still answers
    const fragments = await call(server.url, "POST", "/fragments", { artifactId: "a", text: "# T\n\nOne paragraph.\n" });
    expect(fragments.status).toBe(200);
  });
});
