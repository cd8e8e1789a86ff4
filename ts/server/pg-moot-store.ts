/**
 * Live moots of `groundwire serve --store postgres://…`: a row per moot (`groundwire.moots`:
 * its state and version) and an append-only table of its turns (`groundwire.moot_turns`), so
 * any number of replicas on one database serve the same moots and hold none in memory.
 *
 * The same guarantees as the file store (moot-store.ts), across replicas:
 * - **Each turn spoken once.** A turn runs under the moot's advisory lock
 *   (pg_try_advisory_lock, session level, on a connection held for the turn): a request that
 *   finds it taken, on any replica, answers 409 at once. The state is read after the lock is
 *   taken, so the turn continues from the last committed one. The lock dies with its
 *   connection: a replica killed mid-turn leaves the moot at its last committed turn, and the
 *   next request, on any replica, speaks that turn.
 * - **Visible only once saved.** The turn's row and the new state are written in one
 *   transaction; GET reads committed rows only. A failed write (the database down) is a 503
 *   `store`, and the turn is spoken again by the next request.
 * - **Delete wins.** DELETE removes the row at once (it does not wait for the lock); a turn
 *   running then finds its row gone at commit, writes nothing and answers 404.
 * - **Bounded.** At most `maxMoots` rows (429 `too_many_moots`, counted at create: replicas
 *   creating at the same instant may pass it by one each); at most `maxConcurrentTurns` turns
 *   running on this replica (429).
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { Moot, type TextSynthesizer, type Utterance, type WorkerClient } from "../moot/index.js";
import { pgReason, StoreError, type Store } from "../store/pg.js";
import { NotFoundError } from "./checks.js";
import { SERVE_DEFAULTS } from "./defaults.js";
import { BusyError, MootConflictError, TooManyMootsError, type MootStore } from "./moot-store.js";
import { mootCreateBodySchema } from "./schemas.js";

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The advisory lock key of a moot: its id's first 64 bits, as a signed bigint (text, for the parameter). */
export function mootLockKey(id: string): string {
  return BigInt.asIntN(64, BigInt(`0x${id.replace(/-/g, "").slice(0, 16)}`)).toString();
}

/** Settings of {@link createPgMootStore}. */
export interface PgMootStoreOptions {
  store: Store;
  client: WorkerClient;
  synth: TextSynthesizer;
  modelName: string;
  maxConcurrentTurns?: number;
  maxMoots?: number;
}

/** The PostgreSQL moot store: the {@link MootStore} contract, its methods that read the database async. */
export type PgMootStore = Omit<MootStore, "get" | "delete" | "ids"> & {
  get(id: string): Promise<Moot>;
  delete(id: string): Promise<void>;
  ids(): Promise<string[]>;
};

export function createPgMootStore(options: PgMootStoreOptions): PgMootStore {
  const { store } = options;
  const max = options.maxConcurrentTurns ?? 4;
  const maxMoots = options.maxMoots ?? SERVE_DEFAULTS.maxMoots;
  let running = 0;
  /**
   * The moots this replica is speaking a turn of now. A second turn of one of them is refused
   * at once, before a connection is taken: the advisory lock alone decides only when the second
   * request reaches the database, which may be after the first turn (a fast model) has ended.
   * Across replicas the lock decides.
   */
  const speaking = new Set<string>();
  const fail = (error: unknown) => (error instanceof StoreError ? error : new StoreError(`the store ${store.shown}: ${pgReason(error)}`, error));
  const notFound = (id: string) => new NotFoundError(`no moot ${JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id)}`);
  const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => {
    try {
      return await store.pool.query<R>(sql, params);
    } catch (error) {
      throw fail(error);
    }
  };
  const resume = (state: unknown): Moot => {
    const moot = Moot.resume(options.client, options.synth, state);
    const settings = mootCreateBodySchema.safeParse({ keys: moot.keys, topic: moot.topic, turns: moot.turns, k: moot.k, model: moot.options.model });
    if (!settings.success) throw new Error(`saved moot: ${settings.error.issues[0]!.path.join(".")}: ${settings.error.issues[0]!.message}`);
    return moot;
  };
  const load = async (id: string): Promise<{ moot: Moot; version: number }> => {
    if (!ID.test(id)) throw notFound(id);
    const { rows } = await query<{ state: unknown; version: number }>("SELECT state, version FROM groundwire.moots WHERE id = $1", [id]);
    if (!rows[0]) throw notFound(id);
    return { moot: resume(rows[0].state), version: rows[0].version };
  };

  return {
    async create(input) {
      const { rows } = await query<{ n: string }>("SELECT count(*) AS n FROM groundwire.moots", []);
      if (Number(rows[0]!.n) >= maxMoots) throw new TooManyMootsError(maxMoots);
      const moot = new Moot(options.client, options.synth, input.keys, input.topic, input.turns, {
        k: input.k,
        model: input.model,
        modelName: input.model ?? options.modelName,
      });
      await moot.start();
      const id = randomUUID();
      await query("INSERT INTO groundwire.moots (id, state, version) VALUES ($1, $2, 0)", [id, JSON.stringify(moot.toState())]);
      return { id, moot };
    },
    get: async (id) => (await load(id)).moot,
    async turn(id) {
      if (!ID.test(id)) throw notFound(id);
      if (speaking.has(id)) throw new MootConflictError(`moot ${id} is already speaking a turn; wait for it`);
      if (running >= max) throw new BusyError(`${running} moot turns are running, the most this server runs at once; try again shortly`);
      running++;
      speaking.add(id);
      let client: pg.PoolClient;
      try {
        client = await store.pool.connect();
      } catch (error) {
        running--;
        speaking.delete(id);
        throw fail(error);
      }
      const key = mootLockKey(id);
      let locked = false;
      let broken = false;
      try {
        const got = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [key]);
        locked = got.rows[0]!.ok;
        if (!locked) {
          // busy on this replica or another; or gone
          const exists = await client.query("SELECT 1 FROM groundwire.moots WHERE id = $1", [id]);
          if (!exists.rowCount) throw notFound(id);
          throw new MootConflictError(`moot ${id} is already speaking a turn; wait for it`);
        }
        // read after the lock: the last committed turn, whoever spoke it
        const { rows } = await client.query<{ state: unknown; version: number }>("SELECT state, version FROM groundwire.moots WHERE id = $1", [id]);
        if (!rows[0]) throw notFound(id);
        const moot = resume(rows[0].state);
        if (moot.done) throw new MootConflictError(`moot ${id} is over: all ${moot.turns} turns were spoken`);
        const u: Utterance = await moot.nextTurn();
        await client.query("BEGIN");
        const updated = await client.query("UPDATE groundwire.moots SET state = $2, version = version + 1, updated_at = now() WHERE id = $1 AND version = $3", [
          id,
          JSON.stringify(moot.toState()),
          rows[0].version,
        ]);
        if (!updated.rowCount) {
          await client.query("ROLLBACK");
          throw new NotFoundError(`moot ${id} was deleted while this turn ran; the turn was not saved`);
        }
        await client.query("INSERT INTO groundwire.moot_turns (moot, turn, utterance) VALUES ($1, $2, $3)", [id, u.turn, JSON.stringify(u)]);
        await client.query("COMMIT");
        return u;
      } catch (error) {
        if (client && !(error instanceof NotFoundError) && !(error instanceof MootConflictError) && !(error instanceof BusyError)) {
          // a failed statement inside the transaction: roll back; a broken connection: drop it (its lock dies with it)
          try {
            await client.query("ROLLBACK");
          } catch {
            broken = true;
          }
        }
        if (error instanceof Error && "severity" in error) throw fail(error);
        // the connection broke while the turn held it (the database restarted during the model call): the store's failure, not ours
        if (broken || /not queryable/i.test((error as Error)?.message ?? "")) {
          broken = true;
          throw fail(error);
        }
        if ((error as NodeJS.ErrnoException)?.code === "ECONNRESET" || /Connection terminated/i.test((error as Error)?.message ?? "")) {
          broken = true;
          throw fail(error);
        }
        throw error;
      } finally {
        if (locked && !broken) {
          try {
            await client.query("SELECT pg_advisory_unlock($1::bigint)", [key]);
          } catch {
            broken = true;
          }
        }
        client.release(broken);
        running--;
        speaking.delete(id);
      }
    },
    async delete(id) {
      if (!ID.test(id)) throw notFound(id);
      const { rowCount } = await query("DELETE FROM groundwire.moots WHERE id = $1", [id]);
      if (!rowCount) throw notFound(id);
    },
    async ids() {
      const { rows } = await query<{ id: string }>("SELECT id FROM groundwire.moots ORDER BY created_at LIMIT 100000", []);
      return rows.map((r) => r.id);
    },
    get running() {
      return running;
    },
    // nothing is held between requests
    loaded: 0,
    sweep: () => 0,
    close() {},
  };
}
