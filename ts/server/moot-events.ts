/**
 * `GET /moots/:id/events`: a moot's turns as they are spoken, as server-sent events (Hono's
 * streamSSE), behind the token like every API route. A browser reads it with `fetch` and the
 * Authorization header (EventSource cannot send one; the token never goes in the URL).
 *
 * Events, each `data` one JSON object:
 *   state      {id, turns, spoken, done, speaking}   first, on connect (`speaking`: the turn in progress, or null)
 *   speaking   {turn, speaker}                      a turn started (`speaker`: the speaking book's key)
 *   utterance  {utterance, spoken, done, stats}     a turn was saved (the utterance as GET /moots/:id shows it)
 *   failed     {turn, code, message}                a turn stopped without being saved (the API's error)
 *   done       {spoken}                             the moot is over; the stream ends
 *   deleted    {id}                                 the moot was deleted; the stream ends
 * A comment line (`: ping`) every `heartbeatMs`; at each, the stream also reads the moot again, so
 * turns another replica of a --store server spoke arrive within one heartbeat.
 *
 * Bounded: at most `maxStreams` open at once (past it 503 `too_many_streams`, Retry-After); each
 * ends after `maxStreamMs` (the client opens another); all end when the server shuts down.
 */
import type { Hono } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import { GroundwireError } from "../errors.js";
import type { Moot, Utterance } from "../moot/index.js";
import { errorResponse } from "./errors.js";
import type { MootStore } from "./moot-store.js";

/** Bounds of the event streams (defaults: {@link STREAM_DEFAULTS}). */
export interface MootStreamOptions {
  /** A comment line (and a re-read of the moot) every this many ms. */
  heartbeatMs?: number;
  /** Streams open at once over all moots; past it 503 `too_many_streams`. */
  maxStreams?: number;
  /** A stream ends after this many ms (the client opens another). */
  maxStreamMs?: number;
}

export const STREAM_DEFAULTS = { heartbeatMs: 15_000, maxStreams: 64, maxStreamMs: 30 * 60 * 1000 } as const;

/** As many event streams are open as the server allows (503 `too_many_streams`, Retry-After 5). */
export class TooManyStreamsError extends GroundwireError {
  constructor(readonly max: number) {
    super(`${max} event streams are open, the most this server keeps; close one or retry shortly`, { code: "too_many_streams", status: 503, retryAfter: 5 });
    this.name = "TooManyStreamsError";
  }
}

type Notice = { kind: "speaking"; turn: number; speaker: string } | { kind: "failed"; turn: number; code: string; message: string } | { kind: "landed" } | { kind: "deleted" };

/** The moots' turns as events: {@link MootEvents.turn} speaks a turn and tells every stream of that moot. */
export interface MootEvents {
  /** Speak moot `id`'s next turn (MootStore.turn), telling its streams when it starts, lands or fails. */
  turn(id: string): Promise<Utterance>;
  /** Tell the streams of moot `id` that it was deleted (they end). */
  deleted(id: string): void;
  /** Streams open now. */
  readonly open: number;
  /** Register `GET /moots/:id/events` on `app`. */
  register(app: Hono): void;
}

const dictOf = (moot: Moot) => moot.transcript!.toDict() as unknown as { utterances: unknown[]; stats?: unknown };

export function createMootEvents(moots: MootStore, options: MootStreamOptions = {}, shutdown?: AbortSignal): MootEvents {
  const heartbeatMs = options.heartbeatMs ?? STREAM_DEFAULTS.heartbeatMs;
  const maxStreams = options.maxStreams ?? STREAM_DEFAULTS.maxStreams;
  const maxStreamMs = options.maxStreamMs ?? STREAM_DEFAULTS.maxStreamMs;
  const listeners = new Map<string, Set<(n: Notice) => void>>();
  /** Turns in progress in this process: moot id → turn number and speaker. */
  const speaking = new Map<string, { turn: number; speaker: string }>();
  let open = 0;

  const tell = (id: string, notice: Notice) => {
    for (const f of listeners.get(id) ?? []) f(notice);
  };

  return {
    async turn(id) {
      const moot = await moots.get(id);
      const turn = moot.transcript!.utterances.length + 1;
      const speaker = moot.transcript!.trees[(turn - 1) % 2]!.key;
      const work = moots.turn(id);
      // refused at once (404, 409, 429): nothing started, nothing to tell
      let refused = false;
      work.catch(() => (refused = true));
      await Promise.resolve();
      if (refused) return work;
      // a turn of this moot already running here is that other request's to tell of
      const mine = !speaking.has(id);
      if (mine) {
        speaking.set(id, { turn, speaker });
        tell(id, { kind: "speaking", turn, speaker });
      }
      try {
        const u = await work;
        tell(id, { kind: "landed" });
        return u;
      } catch (error) {
        const { code, message } = errorResponse(error);
        // a turn running on another replica (409 from its lock) is not this one's failure
        if (mine && code !== "conflict") tell(id, { kind: "failed", turn, code, message });
        throw error;
      } finally {
        if (mine) speaking.delete(id);
      }
    },
    deleted(id) {
      tell(id, { kind: "deleted" });
    },
    get open() {
      return open;
    },
    register(app) {
      app.get("/moots/:id/events", async (c) => {
        const id = c.req.param("id");
        const first = await moots.get(id);
        if (open >= maxStreams) throw new TooManyStreamsError(maxStreams);
        open++;
        let counted = true;
        const release = () => {
          if (counted) open--;
          counted = false;
        };
        return streamSSE(c, async (stream: SSEStreamingApi) => {
          let sent = first.transcript!.utterances.length;
          let ended = false;
          let wake: () => void = () => {};
          const finished = new Promise<void>((resolve) => (wake = resolve));
          const end = () => {
            ended = true;
            wake();
          };
          const send = (event: string, data: unknown) => (ended ? Promise.resolve() : stream.writeSSE({ event, data: JSON.stringify(data) }));
          // one write at a time, in order
          let chain: Promise<unknown> = Promise.resolve();
          const queue = (f: () => Promise<unknown>) => (chain = chain.then(f).catch(() => end()));
          /** Send the turns saved since the last one sent; end when the moot is over or gone. */
          const sync = () =>
            queue(async () => {
              let moot: Moot;
              try {
                moot = await moots.get(id);
              } catch (error) {
                if (error instanceof GroundwireError && error.status === 404) {
                  await send("deleted", { id });
                  return end();
                }
                throw error;
              }
              const dict = dictOf(moot);
              while (sent < dict.utterances.length) {
                sent++;
                await send("utterance", { utterance: dict.utterances[sent - 1], spoken: sent, done: moot.done && sent === dict.utterances.length, stats: dict.stats ?? null });
              }
              if (moot.done) {
                await send("done", { spoken: sent });
                end();
              }
            });
          const listener = (n: Notice) => {
            if (n.kind === "landed") return void sync();
            if (n.kind === "deleted") return void queue(async () => (await send("deleted", { id }), end()));
            const { kind, ...data } = n;
            void queue(() => send(kind, data));
          };
          let set = listeners.get(id);
          if (!set) listeners.set(id, (set = new Set()));
          set.add(listener);
          const beat = setInterval(() => {
            void queue(() => stream.write(": ping\n\n"));
            void sync();
          }, heartbeatMs);
          const limit = setTimeout(end, maxStreamMs);
          stream.onAbort(end);
          c.req.raw.signal?.addEventListener("abort", end);
          shutdown?.addEventListener("abort", end);
          if (shutdown?.aborted) end();
          try {
            const now = speaking.get(id) ?? null;
            await send("state", { id, turns: first.turns, spoken: sent, done: first.done, speaking: now?.turn ?? null });
            // a turn saved between the first read and this listener's start is sent here
            void sync();
            await finished;
            await chain;
          } finally {
            clearInterval(beat);
            clearTimeout(limit);
            shutdown?.removeEventListener("abort", end);
            set.delete(listener);
            if (!set.size) listeners.delete(id);
            release();
          }
        });
      });
    },
  };
}
