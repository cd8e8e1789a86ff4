/**
 * Node-only: a running server follows the store's books. `corpus load` and `corpus remove`
 * announce each book they write or delete with `pg_notify` inside the writing transaction
 * (PostgreSQL delivers it at commit, never for a rolled-back write); {@link followBooks}
 * LISTENs on a connection of its own and calls back once per burst of announcements.
 */
import type pg from "pg";
import type { Store } from "./pg.js";

/** The channel a book's load or removal is announced on; the payload is the book's key. */
export const BOOKS_CHANNEL = "groundwire_books";

/** Settings of {@link followBooks}. */
export interface FollowOptions {
  /** Wait before reconnecting a lost listener, doubled up to `maxRetryMs` (default 1 s, 30 s). */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * Call `onChange` after each committed book load or removal (announcements arriving together
 * are the caller's to coalesce), and once after the listening connection was lost and made
 * again (announcements sent meanwhile are lost). Holds one connection of the store's pool
 * while it follows; `close` gives it back.
 */
export function followBooks(store: Store, onChange: () => void, options: FollowOptions = {}): { close(): void } {
  const first = options.retryMs ?? 1000;
  const max = options.maxRetryMs ?? 30_000;
  let closed = false;
  let client: pg.PoolClient | null = null;
  let wait = first;
  let timer: NodeJS.Timeout | null = null;

  const lost = (c: pg.PoolClient, error: unknown) => {
    if (client !== c) return;
    client = null;
    c.release(error instanceof Error ? error : new Error(String(error)));
    if (!closed) later();
  };
  const later = () => {
    timer = setTimeout(() => void listen(true), wait);
    timer.unref();
    wait = Math.min(max, wait * 2);
  };
  const listen = async (again: boolean) => {
    timer = null;
    let c: pg.PoolClient;
    try {
      c = await store.pool.connect();
    } catch {
      if (!closed) later();
      return;
    }
    if (closed) return c.release();
    c.on("error", (error) => lost(c, error));
    c.on("end", () => lost(c, new Error("the listening connection ended")));
    c.on("notification", (n) => {
      if (n.channel === BOOKS_CHANNEL) onChange();
    });
    client = c;
    try {
      // a fixed identifier: LISTEN takes no parameter
      await c.query(`LISTEN ${BOOKS_CHANNEL}`);
    } catch (error) {
      lost(c, error);
      return;
    }
    wait = first;
    if (again) onChange();
  };
  void listen(false);
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      // destroyed, not returned: a pooled connection must not keep listening
      c?.release(true);
    },
  };
}
