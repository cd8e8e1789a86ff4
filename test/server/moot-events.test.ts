// GET /moots/:id/events (ts/server/moot-events.ts) on a real socket: the app of `groundwire serve`
// with the offline synthesizer, served by the CLI's own HTTP server (listen.ts). A watcher's
// stream gets the state, each turn as it starts and as it is saved, then `done`, and ends; a
// deleted moot ends its streams with `deleted`; the stream needs the token like every route;
// past the cap a stream is refused 503 `too_many_streams`; a moot spoken elsewhere (a turn saved
// without this process telling) reaches the stream at its next heartbeat.
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";
import { createServerApp } from "../../ts/server/app.js";
import { loadServerContext } from "../../ts/server/checks.js";
import { createHttpServer } from "../../ts/server/listen.js";
import { createMootStore, type FileMootStore } from "../../ts/server/moot-store.js";
import { ROOT } from "./serve-process.js";

const TOKEN = "events-token";
let url: string;
let moots: FileMootStore;
let close: () => Promise<void>;
const shutdown = new AbortController();

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

/** Open a moot's stream; `next()` is its next event, null once the server ended it. */
async function stream(id: string) {
  const response = await fetch(`${url}/moots/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}`, accept: "text/event-stream" } });
  expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  return {
    async next(): Promise<{ event: string; data: any } | null> {
      const { value, done } = await reader.read();
      return done ? null : { event: value.event!, data: JSON.parse(value.data) };
    },
    cancel: () => reader.cancel(),
  };
}

const start = async (turns: number) => (await call("POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "fire", turns })).json.id as string;

describe("GET /moots/:id/events (a real socket)", () => {
  beforeAll(async () => {
    const corpus = loadCorpus(join(ROOT, "data/books"));
    moots = createMootStore({ dataDir: null, client: corpus, synth: createExtractiveSynthesizer(), modelName: "extractive" });
    const app = createServerApp({ ...loadServerContext(corpus, [], []), moots, token: TOKEN, version: "0", streams: { maxStreams: 2, heartbeatMs: 300, shutdown: shutdown.signal } });
    const server = createHttpServer(app.fetch);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => (shutdown.abort(), server.close(() => resolve())));
  });
  afterAll(async () => {
    await close?.();
    moots?.close();
  });

  it("tells each turn as it starts and as it is saved, then done, and ends", async () => {
    const id = await start(2);
    const s = await stream(id);
    expect(await s.next()).toEqual({ event: "state", data: { id, turns: 2, spoken: 0, done: false, speaking: null } });
    const first = call("POST", `/moots/${id}/turns`);
    expect(await s.next()).toEqual({ event: "speaking", data: { turn: 1, speaker: "novel/frankenstein" } });
    const u1 = await s.next();
    expect(u1!.event).toBe("utterance");
    expect([u1!.data.spoken, u1!.data.done, u1!.data.utterance.turn]).toEqual([1, false, 1]);
    // the utterance on the stream is the one the turn's own request answers, and GET shows
    expect(u1!.data.utterance).toEqual((await first).json);
    const second = call("POST", `/moots/${id}/turns`);
    expect((await s.next())!.data).toEqual({ turn: 2, speaker: "diary/pepys-1660" });
    const u2 = await s.next();
    expect([u2!.event, u2!.data.spoken, u2!.data.done]).toEqual(["utterance", 2, true]);
    await second;
    const dict = (await call("GET", `/moots/${id}`)).json;
    expect(u2!.data.utterance).toEqual(dict.utterances[1]);
    expect(u2!.data.stats).toEqual(dict.stats);
    expect(await s.next()).toEqual({ event: "done", data: { spoken: 2 } });
    expect(await s.next()).toBeNull();
    // a finished moot's stream says so and ends at once
    const again = await stream(id);
    expect((await again.next())!.data).toMatchObject({ spoken: 2, done: true, speaking: null });
    expect(await again.next()).toEqual({ event: "done", data: { spoken: 2 } });
    expect(await again.next()).toBeNull();
  });

  it("needs the token, names an unknown moot, and refuses streams past the cap", async () => {
    const id = await start(3);
    const bare = await fetch(`${url}/moots/${id}/events`);
    expect([bare.status, (await bare.json()).error.code]).toEqual([401, "unauthorized"]);
    const unknown = await call("GET", "/moots/00000000-0000-4000-8000-000000000000/events");
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "not_found"]);
    const a = await stream(id);
    const b = await stream(id);
    const refused = await fetch(`${url}/moots/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([503, "5"]);
    expect((await refused.json()).error).toMatchObject({ code: "too_many_streams", message: "2 event streams are open, the most this server keeps; close one or retry shortly" });
    // a deleted moot ends its streams
    await a.next();
    await b.next();
    expect((await call("DELETE", `/moots/${id}`)).status).toBe(200);
    expect(await a.next()).toEqual({ event: "deleted", data: { id } });
    expect(await a.next()).toBeNull();
    expect(await b.next()).toEqual({ event: "deleted", data: { id } });
    // the cap counts open streams only: one may open again
    const c = await stream(await start(1));
    expect((await c.next())!.event).toBe("state");
    await c.cancel();
  });

  it("a turn saved without this hub telling (another replica's) reaches the stream at the next heartbeat", async () => {
    const id = await start(2);
    const s = await stream(id);
    expect((await s.next())!.event).toBe("state");
    // spoken straight on the store, as another replica of a --store server would
    await moots.turn(id);
    const u = await s.next();
    expect([u!.event, u!.data.spoken, u!.data.utterance.turn]).toEqual(["utterance", 1, 1]);
    // a client that goes away frees its place (the cap is 2: this one and the last test's, cancelled)
    const opened = async () => {
      const r = await fetch(`${url}/moots/${id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await r.body?.cancel();
      return r.status;
    };
    await expect.poll(opened, { timeout: 5_000 }).toBe(200);
    await s.cancel();
  });
});
