/**
 * Live moots of `groundwire serve`, keyed by id, each saved after every completed turn
 * as `<data>/<id>.json` (a {@link MootState}), so a server killed at any moment and
 * started again on the same folder resumes every moot at its last completed turn.
 *
 * Saves are atomic (ts/files.ts writeFileAtomic: a temporary file in the same folder, fsynced,
 * then renamed over the old one), so a reader or a restart sees the previous state or
 * the new one, never half a file. One turn per moot runs at a time; turns across moots
 * are capped (`maxConcurrentTurns`) and the excess refused, not queued.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../files.js";
import { Moot, type MootState, type Utterance } from "../moot/moot.js";
import type { WorkerClient } from "../moot/retrieval.js";
import type { TextSynthesizer } from "../moot/synth.js";
import { NotFoundError } from "./checks.js";
import { mootCreateBodySchema } from "./schemas.js";
import { GroundwireError } from "../errors.js";

/** A moot id: a UUID (lower-case hex and dashes); anything else is refused before touching the disk. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Too many turns are running; try again later (429). */
export class BusyError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "busy", status: 429 });
    this.name = "BusyError";
  }
}

/** The request conflicts with the moot's state: a turn is already running, or the moot is over (409). */
export class MootConflictError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "conflict", status: 409 });
    this.name = "MootConflictError";
  }
}

/** Settings of {@link createMootStore}. */
export interface MootStoreOptions {
  /** Folder the moots are saved in; created when missing. null keeps moots in memory only. */
  dataDir: string | null;
  client: WorkerClient;
  synth: TextSynthesizer;
  /** Model id recorded in new transcripts. */
  modelName: string;
  /** Most turns running at once, over all moots (default 4). */
  maxConcurrentTurns?: number;
  /** Called with a saved moot that could not be read at start (it is skipped, not deleted). */
  onSkipped?: (file: string, reason: string) => void;
}

/** The live moots of a server. */
export interface MootStore {
  create(input: { keys: [string, string]; topic: string | null; turns: number; k: number; model?: string }): Promise<{ id: string; moot: Moot }>;
  get(id: string): Moot;
  /** Speak the next turn and save; the moot is saved before the utterance is returned. */
  turn(id: string): Promise<Utterance>;
  delete(id: string): void;
  ids(): string[];
  /** Turns running now. */
  readonly running: number;
}

/**
 * Open the moot store: reads every `<id>.json` under `dataDir` back into a live moot
 * (Moot.resume), skipping files that are not a saved moot (reported through onSkipped).
 */
export function createMootStore(options: MootStoreOptions): MootStore {
  const moots = new Map<string, Moot>();
  const busy = new Set<string>();
  const max = options.maxConcurrentTurns ?? 4;
  let running = 0;
  const dir = options.dataDir;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir).sort()) {
      // a save cut short by a kill leaves the atomic writer's temporary `.<id>.json.<random>.tmp`: never read, removed
      if (/^\.[0-9a-f-]{36}\.json\.[0-9a-f]+\.tmp$/.test(file) && ID.test(file.slice(1, 37))) {
        rmSync(join(dir, file), { force: true });
        continue;
      }
      const id = file.replace(/\.json$/, "");
      if (!file.endsWith(".json") || !ID.test(id)) continue;
      try {
        const moot = Moot.resume(options.client, options.synth, JSON.parse(readFileSync(join(dir, file), "utf8")));
        // A saved file is input like a request: hold it to POST /moots's bounds (turns, k, keys, topic, model),
        // or an edited file could resume a moot of 10^300 turns or a billion passages a turn.
        const settings = mootCreateBodySchema.safeParse({ keys: moot.keys, topic: moot.topic, turns: moot.turns, k: moot.k, model: moot.options.model });
        if (!settings.success) {
          const issue = settings.error.issues[0]!;
          throw new Error(`saved moot: ${issue.path.join(".") || "settings"}: ${issue.message}`);
        }
        moots.set(id, moot);
      } catch (error) {
        options.onSkipped?.(join(dir, file), (error as Error).message);
      }
    }
  }

  const save = async (id: string, moot: Moot) => {
    if (!dir) return;
    const state: MootState = moot.toState();
    // ts/files.ts: exclusive random temporary beside it, fsync, rename (the CLI's one atomic writer)
    writeFileAtomic(join(dir, `${id}.json`), `${JSON.stringify(state)}\n`);
  };

  const get = (id: string): Moot => {
    const moot = ID.test(id) ? moots.get(id) : undefined;
    if (!moot) throw new NotFoundError(`no moot ${JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id)}`);
    return moot;
  };

  return {
    async create(input) {
      const moot = new Moot(options.client, options.synth, input.keys, input.topic, input.turns, {
        k: input.k,
        model: input.model,
        modelName: input.model ?? options.modelName,
      });
      await moot.start();
      const id = randomUUID();
      await save(id, moot);
      moots.set(id, moot);
      return { id, moot };
    },
    get,
    async turn(id) {
      const moot = get(id);
      if (moot.done) throw new MootConflictError(`moot ${id} is over: all ${moot.turns} turns were spoken`);
      if (busy.has(id)) throw new MootConflictError(`moot ${id} is already speaking a turn; wait for it`);
      if (running >= max) throw new BusyError(`${running} moot turns are running, the most this server runs at once; try again shortly`);
      busy.add(id);
      running++;
      try {
        const u = await moot.nextTurn();
        await save(id, moot);
        return u;
      } finally {
        busy.delete(id);
        running--;
      }
    },
    delete(id) {
      get(id);
      moots.delete(id);
      if (dir) rmSync(join(dir, `${id}.json`), { force: true });
    },
    ids: () => [...moots.keys()],
    get running() {
      return running;
    },
  };
}
