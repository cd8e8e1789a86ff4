// The HTTP WorkerClient against a worker served on 127.0.0.1 from the bundled corpus.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractiveSynthesizer, createHttpWorkerClient, runMoot, UnknownBookError, WorkerError } from "../../ts/moot/index.js";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { closedPort } from "./stub-server.js";

const corpus = loadCorpus(new URL("../../data/books/", import.meta.url));
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", async () => {
    const { text, corpus: key, k } = JSON.parse(body);
    try {
      const result = await corpus.query(text, { corpus: key, k });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
    } catch (error) {
      res.writeHead(error instanceof UnknownBookError ? 404 : 500).end((error as Error).message);
    }
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("createHttpWorkerClient", () => {
  it("returns the worker's hits, and a moot over it equals the moot over the embedded corpus", async () => {
    const client = createHttpWorkerClient({ baseUrl });
    const { hits } = await client.query("fire", { corpus: "diary/pepys-1660", k: 3 });
    expect(hits).toEqual((await corpus.query("fire", { corpus: "diary/pepys-1660", k: 3 })).hits);
    const keys = ["diary/pepys-1660", "novel/frankenstein"];
    const remote = await runMoot(client, createExtractiveSynthesizer(), keys, "fire", 3);
    const local = await runMoot(corpus, createExtractiveSynthesizer(), keys, "fire", 3);
    expect(remote.toDict()).toEqual(local.toDict());
  });

  it("a worker error or an unreachable worker is a WorkerError naming the URL", async () => {
    const e1 = await createHttpWorkerClient({ baseUrl }).query("x", { corpus: "novel/nope", k: 1 }).catch((e) => e);
    expect(e1).toBeInstanceOf(WorkerError);
    expect(e1.message).toBe(`the worker ${baseUrl}/query answered HTTP 404 Not Found: unknown book "novel/nope"; the corpus holds diary/pepys-1660, novel/frankenstein`);
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const e2 = await createHttpWorkerClient({ baseUrl: dead }).query("x", { corpus: "a/b", k: 1 }).catch((e) => e);
    expect(e2.message).toBe(`cannot reach the worker ${dead}/query: connection refused (ECONNREFUSED)`);
  });
});
