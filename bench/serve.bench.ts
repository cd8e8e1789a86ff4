/**
 * A bounded load test of `groundwire serve` (issue 17): never a timed test, a figure.
 *
 * - 20 live moots at once with the offline extractive synthesizer, 8 turns each, every
 *   turn a request (`POST /moots/:id/turns`, saved atomically under a temporary --data);
 * - 500 quote verifications at once (`POST /quotes/verify`, a reply with three quotes, one
 *   to snap, against six passages of Frankenstein).
 *
 * Each load runs twice: over HTTP against the server app (ts/server/app.ts on
 * @hono/node-server, in this process, on 127.0.0.1 port 0) and in process against the same
 * functions without HTTP (the baseline). Every answer is checked (status 200, the expected
 * grounding) and any error fails the contender. Reported: p50 latency per request as the
 * median (all requests are sent at once, so a latency includes the wait behind the others),
 * with requests per second over the wall time and p99 in the note; no `units`, since a
 * throughput derived from a median latency would mean nothing under concurrency. The load generator shares the
 * process (and the machine's 2 cores) with the server: the figures are an upper bound on
 * latency, not a capacity plan.
 *
 * Run: npx tsx bench/run.ts serve
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { loadCorpus } from "../ts/moot/corpus-node.js";
import { createExtractiveSynthesizer } from "../ts/moot/synth.js";
import { Moot } from "../ts/moot/moot.js";
import { createServerApp } from "../ts/server/app.js";
import { createMootStore } from "../ts/server/moot-store.js";
import { verifyQuotes, type CheckContext } from "../ts/server/checks.js";
import type { BenchCase, BenchSuite } from "./harness.js";

const BOOKS = fileURLToPath(new URL("../data/books/", import.meta.url));
const KEYS: [string, string] = ["novel/frankenstein", "diary/pepys-1660"];
const MOOTS = 20;
const TURNS = 8;
const VERIFICATIONS = 500;

/** p-th percentile (nearest rank) of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Run `jobs` all at once; each job times its own requests. */
async function load(jobs: Array<(time: <T>(work: () => Promise<T>) => Promise<T>) => Promise<void>>) {
  const latencies: number[] = [];
  const time = async <T>(work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await work();
    latencies.push(performance.now() - t);
    return out;
  };
  const t0 = performance.now();
  await Promise.all(jobs.map((job) => job(time)));
  const wall = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / (wall / 1000);
  return {
    medianMs: percentile(latencies, 50),
    samples: latencies.length,
    note: `${latencies.length} requests, 0 errors, ${rps.toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, wall ${(wall / 1000).toFixed(2)} s`,
  };
}

async function postJson(url: string, body?: unknown): Promise<any> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status !== 200 && r.status !== 201) throw new Error(`${url}: HTTP ${r.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const suite: BenchSuite = {
  part: "serve",
  async cases(): Promise<BenchCase[]> {
    const corpus = loadCorpus(BOOKS);
    const ctx: CheckContext = { corpus, graphs: new Map(), schemas: new Map() };
    const synth = createExtractiveSynthesizer();

    // the verification request: three quotes from six passages, one misquoted (snapped)
    const { hits } = await corpus.query("the creature and the fire", { corpus: "novel/frankenstein", k: 6 });
    const passages = hits.map((h) => h.content);
    const phrase = (text: string, from: number) => text.split(/\s+/).slice(from, from + 7).join(" ");
    const misquoted = phrase(passages[2]!, 10).split(" ");
    misquoted[3] = "quite";
    const reply = `I recall "${phrase(passages[0]!, 3)}" [s1], and "${phrase(passages[1]!, 5)}" [s2], and "${misquoted.join(" ")}" [s3].`;
    const expected = verifyQuotes(ctx, { reply, passages });
    if (expected.grounding.quotesTotal !== 3 || expected.grounding.quotesFound !== 2 || expected.snaps.length !== 1) {
      throw new Error(`the verification input is not what the bench means to measure: ${JSON.stringify(expected.grounding)}`);
    }
    const checkVerification = (r: ReturnType<typeof verifyQuotes>) => {
      if (r.snapped !== expected.snapped || r.grounding.quotesFound !== 2) throw new Error(`wrong verification: ${JSON.stringify(r).slice(0, 200)}`);
    };

    /** Start the server app on a free port with a fresh --data folder; returns its URL and a stop. */
    const startServer = async () => {
      const data = mkdtempSync(join(tmpdir(), "gw-bench-serve-"));
      const moots = createMootStore({ dataDir: data, client: corpus, synth, modelName: "extractive", maxConcurrentTurns: MOOTS });
      const app = createServerApp({ ...ctx, moots, token: null, version: "bench" });
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            rmSync(data, { recursive: true, force: true });
          }),
      };
    };

    return [
      {
        name: `${MOOTS} concurrent offline moots × ${TURNS} turns (extractive synthesizer, saved every turn)`,
        size: "large",
        baseline: "in process (no HTTP, no save)",
        contenders: [
          {
            name: "in process (no HTTP, no save)",
            kind: "external",
            measure: () =>
              load(
                Array.from({ length: MOOTS }, () => async (time) => {
                  const moot = new Moot(corpus, synth, KEYS, "fire and ruin", TURNS, { k: 6 });
                  await moot.start();
                  for (let t = 0; t < TURNS; t++) {
                    const u = await time(() => moot.nextTurn());
                    if (u.turn !== t + 1) throw new Error(`turn ${u.turn} where ${t + 1} was due`);
                  }
                }),
              ),
          },
          {
            name: "groundwire serve (HTTP, atomic save per turn)",
            kind: "external",
            async measure() {
              const server = await startServer();
              try {
                return await load(
                  Array.from({ length: MOOTS }, () => async (time) => {
                    const { id } = await postJson(`${server.url}/moots`, { keys: KEYS, topic: "fire and ruin", turns: TURNS, k: 6 });
                    for (let t = 0; t < TURNS; t++) {
                      const u = await time(() => postJson(`${server.url}/moots/${id}/turns`));
                      if (u.turn !== t + 1) throw new Error(`turn ${u.turn} where ${t + 1} was due`);
                    }
                  }),
                );
              } finally {
                await server.stop();
              }
            },
          },
        ],
      },
      {
        name: `${VERIFICATIONS} concurrent quote verifications (3 quotes, 6 passages of Frankenstein)`,
        size: "large",
        baseline: "in process (verifyQuotes, no HTTP)",
        contenders: [
          {
            name: "in process (verifyQuotes, no HTTP)",
            kind: "external",
            measure: () =>
              load(
                Array.from({ length: VERIFICATIONS }, () => async (time) => {
                  checkVerification(await time(async () => verifyQuotes(ctx, { reply, passages })));
                }),
              ),
          },
          {
            name: "groundwire serve POST /quotes/verify",
            kind: "external",
            async measure() {
              const server = await startServer();
              try {
                return await load(
                  Array.from({ length: VERIFICATIONS }, () => async (time) => {
                    checkVerification(await time(() => postJson(`${server.url}/quotes/verify`, { reply, passages })));
                  }),
                );
              } finally {
                await server.stop();
              }
            },
          },
        ],
      },
    ];
  },
};
export default suite;
