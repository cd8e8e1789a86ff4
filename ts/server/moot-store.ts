/**
 * Live moots of `groundwire serve`, keyed by id, each saved after every completed turn
 * as `<data>/<id>.json` (a {@link MootState}), so a server killed at any moment and
 * started again on the same folder resumes every moot at its last completed turn.
 *
 * Guarantees:
 * - **Visible only once saved.** A turn is spoken on a working copy of the moot
 *   (Moot.resume of its saved state); the copy replaces the moot that GET shows only after
 *   its save succeeded. When the save fails (a full disk: {@link MootStorageError} 507
 *   `no_space`; another I/O fault: 503 `storage`), the moot stays at its last saved turn in
 *   memory as on disk, and the next turn request speaks the same turn number again. A moot
 *   is created (and its id answered) only once its first save succeeded.
 * - **Delete wins.** DELETE removes the file and the moot at once, even while one of its
 *   turns runs; that turn, when it lands, is neither saved nor shown (its request answers
 *   404). The check and the save are one synchronous step, so no save can follow a delete.
 * - **Bounded.** At most `maxMoots` moots (in memory and saved under `dataDir`), past it
 *   {@link TooManyMootsError} (429). A moot untouched for `idleMs` is dropped from memory
 *   by a sweep; a saved one reloads from its file on the next request, one held in
 *   memory only is gone.
 *
 * Saves are atomic (ts/files.ts writeFileAtomic: a temporary file in the same folder, fsynced,
 * then renamed over the old one), so a reader or a restart sees the previous state or
 * the new one, never half a file. One turn per moot runs at a time; turns across moots
 * are capped (`maxConcurrentTurns`) and the excess refused, not queued.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GroundwireError } from "../errors.js";
import { InputFileError, OutputFileError, readTextFile, removeStaleTemporaries, writeFileAtomic } from "../files.js";
import { Moot, type MootState, type Utterance, type WorkerClient, type TextSynthesizer } from "../moot/index.js";
import { NotFoundError } from "./checks.js";
import { SERVE_DEFAULTS } from "./defaults.js";
import { mootCreateBodySchema } from "./schemas.js";

/** A moot id: a UUID (lower-case hex and dashes); anything else is refused before touching the disk. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Temporaries of the atomic writer before its names carried the writer's pid: `.<id>.json.<random hex>.tmp`. */
const OLD_TEMPORARY = /^\.([0-9a-f-]{36})\.json\.[0-9a-f]+\.tmp$/;

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

/** The server holds as many moots as `--max-moots` allows (429 `too_many_moots`). */
export class TooManyMootsError extends GroundwireError {
  constructor(readonly max: number) {
    super(`this server holds ${max} moots, its cap (--max-moots ${max}); delete one (DELETE /moots/ID) or start the server with a larger --max-moots`, {
      code: "too_many_moots",
      status: 429,
    });
  }
}

/**
 * A moot could not be saved (or deleted, or read back) under `--data`: 507 `no_space` when
 * the device is full (ENOSPC) or the quota spent (EDQUOT), else 503 `storage` with
 * `Retry-After`. The message names neither the folder nor the file.
 */
export class MootStorageError extends GroundwireError {
  constructor(action: "save" | "delete" | "read", cause: unknown) {
    const errno = errnoOf(cause);
    if (errno === "ENOSPC" || errno === "EDQUOT") {
      super(`cannot ${action} the moot: no space left on the device`, { code: "no_space", status: 507, cause });
    } else {
      const reason = cause instanceof OutputFileError || cause instanceof InputFileError ? cause.reason : (errno ?? "I/O error");
      super(`cannot ${action} the moot: ${reason}; try again later`, { code: "storage", status: 503, retryAfter: 5, cause });
    }
  }
}

/** The errno code (ENOSPC …) of a file system error, or of the one an OutputFileError was made from. */
function errnoOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
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
  /** Most moots held, in memory and saved (default {@link SERVE_DEFAULTS}.maxMoots, 1,000). */
  maxMoots?: number;
  /** A moot untouched this many ms is dropped from memory (default {@link SERVE_DEFAULTS}.mootIdleMs, 30 min). */
  idleMs?: number;
  /** Called with a saved moot that could not be read (at start, or when reloaded): it is skipped, not deleted. */
  onSkipped?: (file: string, reason: string) => void;
}

/**
 * The live moots of a server: the file store below (memory and `--data`), or PostgreSQL
 * (pg-moot-store.ts, `--store`), whose reads are async; callers await get, delete and ids.
 */
export interface MootStore {
  /** Start a moot and save it; its id is returned only once it is saved. @throws TooManyMootsError, MootStorageError */
  create(input: { keys: [string, string]; topic: string | null; turns: number; k: number; model?: string }): Promise<{ id: string; moot: Moot }>;
  /** The moot as last saved (reloaded from its file when it was dropped from memory). @throws NotFoundError */
  get(id: string): Moot | Promise<Moot>;
  /** Speak the next turn and save; the utterance is returned (and shown by get) only once saved. */
  turn(id: string): Promise<Utterance>;
  /** Remove the moot and its file, at once, even while a turn of it runs (that turn is then never saved). */
  delete(id: string): void | Promise<void>;
  /** Ids of every moot held: saved under dataDir, or in memory without one. */
  ids(): string[] | Promise<string[]>;
  /** Turns running now. */
  readonly running: number;
  /** Moots held in memory now (at most ids().length). */
  readonly loaded: number;
  /** Drop the moots idle for `idleMs` or more from memory (the timer calls it); returns how many. */
  sweep(now?: number): number;
  /** Stop the idle sweep's timer. */
  close(): void;
}

/** The file store: its reads are synchronous. */
export interface FileMootStore extends MootStore {
  get(id: string): Moot;
  delete(id: string): void;
  ids(): string[];
}

interface Entry {
  /** The moot as last saved: never advanced in place (a turn runs on a copy). */
  moot: Moot;
  /** Date.now() of its last use. */
  touched: number;
  /** Set by delete: a turn running on it must not save nor show what it spoke. */
  deleted: boolean;
}

/**
 * Open the moot store: checks every `<id>.json` under `dataDir` (Moot.resume and
 * POST /moots's bounds), skipping files that are not a saved moot (reported through
 * onSkipped). Moots are read into memory on their first use, not at start.
 */
export function createMootStore(options: MootStoreOptions): FileMootStore {
  const moots = new Map<string, Entry>();
  /** Ids of the moots held: every saved one with a dataDir, else the ones in memory. */
  const known = new Set<string>();
  const busy = new Set<string>();
  const max = options.maxConcurrentTurns ?? 4;
  const maxMoots = options.maxMoots ?? SERVE_DEFAULTS.maxMoots;
  const idleMs = options.idleMs ?? SERVE_DEFAULTS.mootIdleMs;
  let running = 0;
  let creating = 0;
  const dir = options.dataDir;
  const fileOf = (id: string) => join(dir!, `${id}.json`);

  /** A saved moot read back and held to POST /moots's bounds. @throws InputFileError (the read), Error (the content) */
  const readSaved = (id: string): Moot => {
    const moot = Moot.resume(options.client, options.synth, JSON.parse(readTextFile(fileOf(id))));
    // A saved file is input like a request: hold it to POST /moots's bounds (turns, k, keys, topic, model),
    // or an edited file could resume a moot of 10^300 turns or a billion passages a turn.
    const settings = mootCreateBodySchema.safeParse({ keys: moot.keys, topic: moot.topic, turns: moot.turns, k: moot.k, model: moot.options.model });
    if (!settings.success) {
      const issue = settings.error.issues[0]!;
      throw new Error(`saved moot: ${issue.path.join(".") || "settings"}: ${issue.message}`);
    }
    return moot;
  };

  if (dir) {
    mkdirSync(dir, { recursive: true });
    // a save cut short by a kill leaves the atomic writer's temporary `.<id>.json.<pid>.<random>.tmp`: never read, removed
    removeStaleTemporaries(dir);
    for (const file of readdirSync(dir).sort()) {
      const old = OLD_TEMPORARY.exec(file);
      if (old && ID.test(old[1]!)) {
        rmSync(join(dir, file), { force: true });
        continue;
      }
      const id = file.replace(/\.json$/, "");
      if (!file.endsWith(".json") || !ID.test(id)) continue;
      try {
        readSaved(id);
        known.add(id);
      } catch (error) {
        options.onSkipped?.(join(dir, file), (error as Error).message);
      }
    }
  }

  /** Write the state (synchronously: nothing runs between the caller's checks and the rename). */
  const save = (id: string, state: MootState) => {
    if (!dir) return;
    try {
      // ts/files.ts: exclusive temporary beside it named with our pid, fsync, rename (the CLI's one atomic writer)
      writeFileAtomic(fileOf(id), `${JSON.stringify(state)}\n`);
    } catch (error) {
      throw new MootStorageError("save", error);
    }
  };

  const notFound = (id: string) => new NotFoundError(`no moot ${JSON.stringify(id.length > 64 ? `${id.slice(0, 64)}…` : id)}`);

  /** The entry of a held moot, read back from its file when it is not in memory. */
  const entryOf = (id: string): Entry => {
    if (!ID.test(id)) throw notFound(id);
    let entry = moots.get(id);
    if (!entry && dir && known.has(id)) {
      let moot: Moot;
      try {
        moot = readSaved(id);
      } catch (error) {
        if (error instanceof InputFileError && error.code === "ENOENT") {
          // removed behind the server's back
          known.delete(id);
          throw notFound(id);
        }
        if (error instanceof InputFileError && error.code === "EIO") throw new MootStorageError("read", error);
        options.onSkipped?.(fileOf(id), (error as Error).message);
        known.delete(id);
        throw notFound(id);
      }
      entry = { moot, touched: Date.now(), deleted: false };
      moots.set(id, entry);
    }
    if (!entry) throw notFound(id);
    entry.touched = Date.now();
    return entry;
  };

  const sweep = (now = Date.now()): number => {
    let dropped = 0;
    for (const [id, entry] of moots) {
      if (now - entry.touched < idleMs || busy.has(id)) continue;
      moots.delete(id);
      // saved: it stays on disk and reloads on demand; in memory only: gone
      if (!dir) known.delete(id);
      dropped++;
    }
    return dropped;
  };
  // Often enough that a moot lives at most ~1.5 × idleMs; never keeps the process alive.
  const timer = setInterval(sweep, Math.min(Math.max(Math.floor(idleMs / 2), 10), 60_000));
  timer.unref();

  return {
    async create(input) {
      if (known.size + creating >= maxMoots) throw new TooManyMootsError(maxMoots);
      creating++;
      try {
        const moot = new Moot(options.client, options.synth, input.keys, input.topic, input.turns, {
          k: input.k,
          model: input.model,
          modelName: input.model ?? options.modelName,
        });
        await moot.start();
        const id = randomUUID();
        save(id, moot.toState());
        moots.set(id, { moot, touched: Date.now(), deleted: false });
        known.add(id);
        return { id, moot };
      } finally {
        creating--;
      }
    },
    get: (id) => entryOf(id).moot,
    async turn(id) {
      const entry = entryOf(id);
      const moot = entry.moot;
      if (moot.done) throw new MootConflictError(`moot ${id} is over: all ${moot.turns} turns were spoken`);
      if (busy.has(id)) throw new MootConflictError(`moot ${id} is already speaking a turn; wait for it`);
      if (running >= max) throw new BusyError(`${running} moot turns are running, the most this server runs at once; try again shortly`);
      busy.add(id);
      running++;
      try {
        // The turn is spoken on a copy; the moot GET shows is replaced only once the copy is saved.
        const work = Moot.resume(options.client, options.synth, moot.toState());
        const u = await work.nextTurn();
        // From here to the swap nothing awaits: a DELETE either came before (and this answers 404) or comes after the save.
        if (entry.deleted || moots.get(id) !== entry) throw new NotFoundError(`moot ${id} was deleted while this turn ran; the turn was not saved`);
        save(id, work.toState());
        entry.moot = work;
        entry.touched = Date.now();
        return u;
      } finally {
        busy.delete(id);
        running--;
      }
    },
    delete(id) {
      if (!ID.test(id) || !known.has(id)) throw notFound(id);
      if (dir) {
        try {
          rmSync(fileOf(id), { force: true });
        } catch (error) {
          throw new MootStorageError("delete", error);
        }
      }
      const entry = moots.get(id);
      if (entry) entry.deleted = true;
      moots.delete(id);
      known.delete(id);
    },
    ids: () => [...known],
    get running() {
      return running;
    },
    get loaded() {
      return moots.size;
    },
    sweep,
    close() {
      clearInterval(timer);
    },
  };
}
