// The moot store's contract, the same suite over the file store (memory and --data) and the
// PostgreSQL store: turns in order, shown once saved, one turn at a time (409), over after its
// last turn (409), delete wins (404 after), the cap on moots (429).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";
import { NotFoundError } from "../../ts/server/checks.js";
import { createMootStore, MootConflictError, TooManyMootsError, type MootStore } from "../../ts/server/moot-store.js";
import { createPgMootStore } from "../../ts/server/pg-moot-store.js";
import { openStore, type Store } from "../../ts/store/pg.js";
import { freshDatabase, pgAvailable } from "./pg-env.js";

const corpus = loadCorpus(new URL("../../data/books", import.meta.url));
const extractive = createExtractiveSynthesizer();
/** While set, every turn's model call waits for it: a turn that is certainly running while the test acts. */
let gate: Promise<void> | null = null;
const synth: typeof extractive = {
  ...extractive,
  async complete(...args: Parameters<typeof extractive.complete>) {
    if (gate) await gate;
    return extractive.complete(...args);
  },
};
const PG = pgAvailable();

type Open = (maxMoots: number) => Promise<{ moots: MootStore; close(): Promise<void> }>;
const stores: Array<[string, Open]> = [
  ["file store (--data)", async (maxMoots) => ({ moots: createMootStore({ dataDir: mkdtempSync(join(tmpdir(), "gw-moots-")), client: corpus, synth, modelName: "extractive", maxMoots }), close: async () => {} })],
];
if (PG) {
  let store: Store | null = null;
  stores.push([
    "PostgreSQL store (--store)",
    async (maxMoots) => {
      store ??= await openStore(await freshDatabase("moots"));
      const s = store;
      await s.pool.query("DELETE FROM groundwire.moots");
      return { moots: createPgMootStore({ store: s, client: corpus, synth, modelName: "extractive", maxMoots }), close: async () => {} };
    },
  ]);
  afterAll(async () => store?.close());
}

const KEYS: [string, string] = ["novel/frankenstein", "diary/pepys-1660"];

describe.each(stores)("the moot store contract: %s", (_, open) => {
  let moots: MootStore;
  beforeAll(async () => {
    ({ moots } = await open(3));
  });

  it("speaks the turns in order, each shown once saved; a second turn at once is refused (409); over after its last (409)", async () => {
    const { id, moot } = await moots.create({ keys: KEYS, topic: "fire and ruin", turns: 3, k: 4 });
    expect(moot.transcript!.trees.map((t) => t.key)).toEqual(KEYS);
    expect((await moots.get(id)).transcript!.utterances).toEqual([]);
    const [first, second] = await Promise.allSettled([moots.turn(id), moots.turn(id)]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("rejected");
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(MootConflictError);
    expect((second as PromiseRejectedResult).reason.message).toBe(`moot ${id} is already speaking a turn; wait for it`);
    expect((await moots.turn(id)).turn).toBe(2);
    const third = await moots.turn(id);
    expect(third.turn).toBe(3);
    const saved = await moots.get(id);
    expect(saved.done).toBe(true);
    expect(saved.transcript!.utterances.map((u) => u.turn)).toEqual([1, 2, 3]);
    expect(saved.transcript!.utterances[2]!.text).toBe(third.text);
    const over = await moots.turn(id).catch((e) => e);
    expect(over).toBeInstanceOf(MootConflictError);
    expect(over.message).toBe(`moot ${id} is over: all 3 turns were spoken`);
    expect(await moots.ids()).toContain(id);
  });

  it("delete wins: the moot is gone at once (404 after), even for a turn running then", async () => {
    const { id } = await moots.create({ keys: KEYS, topic: "ice", turns: 4, k: 4 });
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    const running = moots.turn(id);
    try {
      await moots.delete(id);
    } finally {
      gate = null;
      release();
    }
    const late = await running.catch((e) => e);
    expect(late).toBeInstanceOf(NotFoundError);
    await expect(Promise.resolve().then(() => moots.get(id))).rejects.toBeInstanceOf(NotFoundError);
    await expect(Promise.resolve().then(() => moots.delete(id))).rejects.toBeInstanceOf(NotFoundError);
    expect(await moots.ids()).not.toContain(id);
  });

  it("holds at most maxMoots (429 too_many_moots)", async () => {
    while ((await moots.ids()).length < 3) await moots.create({ keys: KEYS, topic: null, turns: 2, k: 2 });
    const error = await moots.create({ keys: KEYS, topic: null, turns: 2, k: 2 }).catch((e) => e);
    expect(error).toBeInstanceOf(TooManyMootsError);
    expect(error.status).toBe(429);
  });
});
