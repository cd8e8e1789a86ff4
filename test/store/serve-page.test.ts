// The page's routes on `groundwire serve --store` (the real PostgreSQL): the books' texts live in
// the database, so /books/passages, /passages/show and /locate read the book there and answer
// exactly what `serve --corpus` answers for the same book; /moots and a moot's event stream
// work on the database's moots; the page itself is served.
import { spawnSync } from "node:child_process";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, ROOT, startServer, TEST_TOKEN, type RunningServer } from "../server/serve-process.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";

const PG = pgAvailable();

describe.skipIf(!PG)("the page's routes on serve --store", () => {
  let stored: RunningServer;
  let embedded: RunningServer;

  beforeAll(async () => {
    const url = await freshDatabase("serve_page");
    const load = spawnSync(process.execPath, [CLI, "corpus", "load", "data/books", "--store", url], { cwd: ROOT, encoding: "utf8" });
    expect(load.status).toBe(0);
    [stored, embedded] = await Promise.all([startServer(["--quiet", "--store", url]), startServer(["--quiet", "--corpus", "data/books"])]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stored?.stop(), embedded?.stop()]);
  });

  it("/books/passages, /passages/show and /locate answer as the embedded server does", async () => {
    const requests: Array<[string, string, unknown?]> = [
      ["GET", "/books/passages?book=novel/frankenstein&label=Chapter%205&limit=3"],
      ["POST", "/passages/show", { node: "novel/frankenstein#chapter-5-1", quotes: ["on a dreary night in November"] }],
      ["POST", "/passages/show", { text: "It was on a dreary night of November.", label: "s1", quotes: ["a dreary night in November"] }],
      ["POST", "/locate", { quote: "on a dreary night in November", book: "novel/frankenstein" }],
      ["POST", "/locate", { quote: "the fire spread over the city", book: "diary/pepys-1660", limit: 3 }],
    ];
    for (const [method, path, body] of requests) {
      const fromStore = await call(stored.url, method, path, body);
      const fromFiles = await call(embedded.url, method, path, body);
      expect(fromStore.status, path).toBe(200);
      expect(fromStore.json, path).toEqual(fromFiles.json);
    }
    const located = (await call(stored.url, "POST", "/locate", { quote: "on a dreary night in November", book: "novel/frankenstein", limit: 1 })).json.spans[0];
    expect([located.label, located.text]).toEqual(["Chapter 5, part 1", "on a dreary night of November"]);
  });

  it("an unknown book or passage is named, with a did-you-mean, as on the embedded server", async () => {
    const typo = await call(stored.url, "POST", "/locate", { quote: "a dreary night", book: "novel/frankenstien" });
    expect([typo.status, typo.json.error.code, typo.json.error.message]).toEqual([404, "not_found", 'unknown book "novel/frankenstien"; did you mean "novel/frankenstein"?']);
    const node = await call(stored.url, "POST", "/passages/show", { node: "novel/frankenstein#chapter-99-1" });
    expect([node.status, node.json.error.message]).toEqual([404, 'no passage "novel/frankenstein#chapter-99-1" in novel/frankenstein']);
  });

  it("/moots lists the database's moots, a moot's event stream answers, and the page is served", async () => {
    const created = await call(stored.url, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "fire", turns: 1 });
    expect(created.status).toBe(201);
    const list = (await call(stored.url, "GET", "/moots")).json.moots;
    expect(list).toContainEqual({ id: created.json.id, topic: "fire", keys: ["novel/frankenstein", "diary/pepys-1660"], spoken: 0, turns: 1, done: false });
    const response = await fetch(`${stored.url}/moots/${created.json.id}/events`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(response.status).toBe(200);
    const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    expect((await events.read()).value).toMatchObject({ event: "state" });
    const turn = call(stored.url, "POST", `/moots/${created.json.id}/turns`);
    const seen: string[] = [];
    for (;;) {
      const { value, done } = await events.read();
      if (done) break;
      seen.push(value.event!);
    }
    expect(seen).toEqual(["speaking", "utterance", "done"]);
    expect((await turn).status).toBe(200);
    expect((await fetch(`${stored.url}/`)).status).toBe(200);
  });
});
