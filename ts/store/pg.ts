/**
 * Node-only: the PostgreSQL store (`--store postgres://…`, or `GROUNDWIRE_STORE`). Opens a
 * connection pool and brings the database's `groundwire` schema to the version this code
 * knows, by numbered migrations run in one transaction under an advisory lock, so replicas
 * starting at once migrate once. A database whose schema is newer than the code is refused.
 *
 * Every query is parameterized ($1 …); identifiers are fixed in this code. The URL's
 * password and query values never reach a message (redactUrl).
 */
import pg from "pg";
import { GroundwireError } from "../errors.js";
import { redactUrl } from "../net/redact.js";

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = 2;

/** Length of a locate window, in characters, and the step between two windows' starts. */
export const WINDOW_CHARS = 400;
export const WINDOW_STEP = 200;

/** Advisory lock keys (pg_advisory_*_lock(int, int)): the first int names the class. */
export const LOCK_CLASS = { migrate: 0x67770001, book: 0x67770002 } as const;

/**
 * Migrations, in order: migration i (1-based) brings the schema from version i - 1 to i.
 * Each is a list of statements with no data in them.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    `CREATE TABLE groundwire.books (
       key text PRIMARY KEY,
       title text NOT NULL,
       author text NOT NULL,
       genre text NOT NULL,
       structure text NOT NULL,
       language text,
       config regconfig NOT NULL,
       content_hash text NOT NULL,
       bytes bigint NOT NULL,
       passages integer NOT NULL,
       loaded_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE groundwire.passages (
       book text NOT NULL REFERENCES groundwire.books (key) ON DELETE CASCADE,
       ord integer NOT NULL,
       node_id text NOT NULL,
       name text NOT NULL,
       label text NOT NULL,
       content text NOT NULL,
       timestamp text,
       gregorian_date text,
       start_at integer,
       end_at integer,
       joined_at integer NOT NULL,
       config regconfig NOT NULL,
       tsv tsvector GENERATED ALWAYS AS (to_tsvector(config, content)) STORED,
       PRIMARY KEY (book, ord)
     )`,
    "CREATE INDEX passages_tsv ON groundwire.passages USING gin (tsv)",
    // locate's candidates: overlapping windows of every passage (WINDOW_CHARS long, every WINDOW_STEP
    // characters), so a quote of up to WINDOW_STEP characters lies whole in one window; short rows keep
    // the trigram index selective and its recheck (word_similarity) cheap
    `CREATE TABLE groundwire.passage_windows (
       book text NOT NULL REFERENCES groundwire.books (key) ON DELETE CASCADE,
       ord integer NOT NULL,
       at integer NOT NULL,
       body text NOT NULL,
       PRIMARY KEY (book, ord, at)
     )`,
    "CREATE INDEX passage_windows_trgm ON groundwire.passage_windows USING gin (body gin_trgm_ops)",
    `CREATE TABLE groundwire.moots (
       id uuid PRIMARY KEY,
       state jsonb NOT NULL,
       version integer NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE groundwire.moot_turns (
       moot uuid NOT NULL REFERENCES groundwire.moots (id) ON DELETE CASCADE,
       turn integer NOT NULL,
       utterance jsonb NOT NULL,
       spoken_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (moot, turn)
     )`,
  ],
  [
    // a passage's text as the file holds it (its span, verse references blanked), placed at
    // start_at, is what locate searches: offsets are into the book's file, as in the embedded corpus
    "ALTER TABLE groundwire.passages ADD COLUMN source_text text",
    "ALTER TABLE groundwire.passages DROP COLUMN joined_at",
  ],
];

/** The store cannot be reached or failed a query (503 `store`, retry later). The message names the URL redacted. */
export class StoreError extends GroundwireError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: "store", status: 503, retryAfter: 5, cause });
  }
}

/** The database holds a newer schema than this code knows (500 `store_schema`): upgrade groundwire. */
export class StoreSchemaError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "store_schema", status: 500 });
  }
}

/** A `--store` value that is not a postgres:// URL (400). */
export class StoreUrlError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_request", status: 400 });
  }
}

/**
 * The store URL from `--store` or else `GROUNDWIRE_STORE`; null when neither is set.
 * @throws StoreUrlError when it is not a `postgres://` or `postgresql://` URL (the message shows it redacted)
 */
export function storeUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = option ?? (env.GROUNDWIRE_STORE || undefined);
  if (raw === undefined) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new StoreUrlError(`--store must be a postgres:// URL, got ${JSON.stringify(redactUrl(raw).slice(0, 200))}`);
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") {
    throw new StoreUrlError(`--store must be a postgres:// URL, got ${JSON.stringify(redactUrl(raw).slice(0, 200))}`);
  }
  return raw;
}

/** An open store: its pool and the URL as it may be shown. */
export interface Store {
  readonly pool: pg.Pool;
  /** The URL with credentials and query values redacted. */
  readonly shown: string;
  close(): Promise<void>;
}

/** Settings of {@link openStore}. */
export interface OpenStoreOptions {
  /** Most connections the pool opens (default 10). */
  max?: number;
  /** application_name seen in pg_stat_activity (default "groundwire"). */
  applicationName?: string;
}

/** The one-line reason of a pg error, never the URL or its password (pg does not put them in messages). */
export function pgReason(error: unknown): string {
  const e = error as { code?: string; message?: string };
  let message = (e?.message ?? String(error)).split("\n", 1)[0]!;
  // pg's pool says this when its own timer ended the attempt
  if (/^Connection terminated due to connection timeout/.test(message)) message = NO_ANSWER;
  if (!(e?.code && /^[0-9A-Z]{5}$/.test(e.code))) return message;
  // insufficient_privilege: a role that may only read, or not even that
  const hint = e.code === "42501" ? "; the role lacks a privilege there (corpus load and remove, serve and its moots write, so they need a role that may write the groundwire schema)" : "";
  return `${message} (SQLSTATE ${e.code})${hint}`;
}

/** How long a connection may take to open (the host named but silent: a firewall, a wrong address). */
const CONNECT_TIMEOUT_MS = 10_000;
const NO_ANSWER = `no answer from the server within ${CONNECT_TIMEOUT_MS / 1000} s (is the host reachable and the port right?)`;

/**
 * The pool's client. A connection that breaks while a caller holds it (the database restarted
 * during a moot turn's model call, or mid-load) must not crash the process: pg emits `error`
 * on a held client with no listener of its own, so every client has one, and the next query on
 * it fails instead (a StoreError). A connection that fails to open is closed at once (pg leaves
 * the socket open after a client-side authentication failure, holding the process for the
 * server's authentication timeout), and its reason said plainly.
 */
class StoreClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    if (!callback) return super.connect();
    const t0 = Date.now();
    super.connect((err: Error | null) => {
      if (err) {
        this.connection?.stream?.destroy();
        callback(connectFailure(err, Date.now() - t0));
        return;
      }
      callback(err as unknown as Error);
    });
  }
}

/** A failed connection's reason, in the words an operator acts on; pg's own message otherwise. */
function connectFailure(error: Error, ms: number): Error {
  const message = error?.message ?? "";
  if (/client password must be a string|password must be a string/i.test(message)) {
    return new Error("the server asks for a password and none was given (put it in the URL, postgres://user:password@host/db, or in PGPASSWORD)");
  }
  if (/Connection terminated/i.test(message) && ms >= CONNECT_TIMEOUT_MS - 500) {
    return new Error(NO_ANSWER);
  }
  return error;
}

/**
 * Connect and migrate.
 * @throws StoreError when the database cannot be reached or a migration fails; StoreSchemaError when its schema is newer
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const shown = redactUrl(url);
  // allowExitOnIdle: a command that is done exits without closing the pool (its idle connections do not hold the process)
  const pool = new pg.Pool({
    Client: StoreClient,
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "groundwire",
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    allowExitOnIdle: true,
  });
  // an idle client's error (the server restarted) must not crash the process; the next query reconnects
  pool.on("error", () => {});
  try {
    await migrate(pool, shown);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof GroundwireError) throw error;
    throw new StoreError(`the store ${shown}: ${pgReason(error)}`, error);
  }
  return {
    pool,
    shown,
    close: () => pool.end(),
  };
}

/** Bring the schema to {@link SCHEMA_VERSION}, under a transaction-scoped advisory lock. */
async function migrate(pool: pg.Pool, shown: string): Promise<void> {
  // a schema already at this version is only read, so a read replica (or a read-only user) opens as the primary does
  const { rows: table } = await pool.query<{ present: boolean }>("SELECT to_regclass('groundwire.schema_version') IS NOT NULL AS present");
  if (table[0]?.present && (await pool.query<{ v: number | null }>("SELECT max(version) AS v FROM groundwire.schema_version")).rows[0]?.v === MIGRATIONS.length) return;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1, 0)", [LOCK_CLASS.migrate]);
    await client.query("CREATE SCHEMA IF NOT EXISTS groundwire");
    await client.query("CREATE TABLE IF NOT EXISTS groundwire.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ v: number | null }>("SELECT max(version) AS v FROM groundwire.schema_version");
    const current = rows[0]?.v ?? 0;
    if (current > MIGRATIONS.length) {
      throw new StoreSchemaError(
        `the store ${shown} holds schema version ${current}, newer than this groundwire knows (${MIGRATIONS.length}); upgrade groundwire, or point --store at another database`,
      );
    }
    for (let v = current + 1; v <= MIGRATIONS.length; v++) {
      for (const statement of MIGRATIONS[v - 1]!) await client.query(statement);
      await client.query("INSERT INTO groundwire.schema_version (version) VALUES ($1)", [v]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
