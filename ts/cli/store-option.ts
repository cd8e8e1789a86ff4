/**
 * `--store URL` (or `GROUNDWIRE_STORE`): the PostgreSQL store, for serve, mcp, moot, books,
 * locate and corpus. Loaded only when a store is named, so commands without one never load
 * the client.
 */
import type { Store } from "../store/pg.js";
import type { StoreCorpus } from "../store/pg-library.js";
import { CliError, echo } from "./common.js";
import { requirePackages, STORE_PACKAGES } from "./optional-packages.js";

/** The line each command's help shows. */
export const STORE_HELP = "  --store URL     read the library (and, for serve, the live moots) from PostgreSQL: postgres://… (or GROUNDWIRE_STORE); see groundwire corpus";

/**
 * Open the store named by `--store` or GROUNDWIRE_STORE (migrating its schema); null when neither is set.
 * @throws CliError: exit 2 for a value that is not a postgres:// URL, 1 when the database cannot be reached or is newer
 */
export async function openCliStore(command: string, option: string | undefined, max?: number): Promise<Store | null> {
  if ((option ?? (process.env.GROUNDWIRE_STORE || undefined)) === undefined) return null;
  requirePackages(command, "--store", STORE_PACKAGES);
  const { openStore, storeUrl, StoreUrlError } = await import("../store/pg.js");
  let url: string | null;
  try {
    url = storeUrl(option);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new CliError(`${command}: ${error.message}`, 2);
    throw error;
  }
  if (url === null) return null;
  try {
    return await openStore(url, { max, applicationName: `groundwire ${command}` });
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}`);
  }
}

/** The store's library as a corpus, or null without a store. */
export async function openCliCorpus(command: string, option: string | undefined, max?: number): Promise<{ store: Store; corpus: StoreCorpus } | null> {
  const store = await openCliStore(command, option, max);
  if (!store) return null;
  const { createStoreCorpus } = await import("../store/pg-library.js");
  try {
    // a server follows books loaded and removed while it runs; a one-shot command reads the list once
    const corpus = await createStoreCorpus(store, { follow: command === "serve" || command === "mcp" });
    if (!corpus.keys().length) process.stderr.write(`groundwire ${command}: the store holds no book yet (groundwire corpus load DIR --store …)\n`);
    return { store, corpus };
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}`);
  }
}

/** Refuse `--corpus` or `--books` with `--store`: one library at a time (`--corpus` or `--books` alone overrides GROUNDWIRE_STORE). */
export function oneLibrary(command: string, corpus: string | undefined, store: string | undefined, books?: readonly string[]): void {
  if (corpus !== undefined && store !== undefined) throw new CliError(`${command}: give --corpus or --store, not both; got --corpus ${echo(corpus)}`, 2);
  if (books !== undefined && store !== undefined) throw new CliError(`${command}: give --books or --store, not both (load a folder into the store with groundwire corpus load); got --books ${echo(books[0]!)}`, 2);
}
