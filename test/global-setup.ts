// Runs once before all suites: says why some suites will be skipped, since the default
// reporter shows only their count; and starts the throwaway PostgreSQL cluster the store
// suites use (test/store/pg-cluster.ts), exported to them as GROUNDWIRE_TEST_PG_URL and
// stopped at the end.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresBin, startTestCluster } from "./store/pg-cluster.js";
import { startVirtuosoForSuites } from "./kernel/virtuoso-setup.js";

const SHARED = new URL("../../shared/data/", import.meta.url);

/**
 * Whether this run may include a store suite: a full run, or a file filter naming one
 * (`vitest run test/store/…`), so a run of other files does not pay for a cluster's start.
 */
function runsStoreSuites(argv: readonly string[]): boolean {
  const filters = argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !/^\d+$/.test(a));
  return filters.length === 0 || filters.some((f) => /store|pg|postgres|test\/?$/i.test(f));
}

/** The throwaway PostgreSQL cluster, or undefined when this run has no store suite or cannot start one (said why). */
async function startPostgres(): Promise<{ url: string; stop(): void } | undefined> {
  if (process.env.GROUNDWIRE_TEST_PG_URL || !runsStoreSuites(process.argv)) return undefined;
  const bin = postgresBin();
  if (!bin) {
    console.log(
      "\nnote: PostgreSQL is not installed (no /usr/lib/postgresql/N/bin/initdb, nor $GROUNDWIRE_PG_BIN): the store suites " +
        "(test/store/) are skipped; install postgresql and postgresql-contrib to run them (GROUNDWIRE_REQUIRE_POSTGRES=1 makes them fail instead).\n",
    );
    return undefined;
  }
  try {
    return await startTestCluster(bin);
  } catch (error) {
    // a cluster that cannot start (no postgres user, no runuser…) skips the store suites, unless CI requires them
    if (process.env.GROUNDWIRE_REQUIRE_POSTGRES === "1") throw error;
    console.log(`\nnote: the PostgreSQL test cluster did not start (${(error as Error).message.split("\n", 1)[0]}): the store suites are skipped.\n`);
    return undefined;
  }
}

export default async function setup(): Promise<(() => void) | void> {
  // the CLI's caches (locate's quote index) go to a throwaway folder, not the user's ~/.cache
  process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), "gw-test-cache-"));
  if (!existsSync(SHARED)) {
    console.log(
      `\nnote: ${SHARED.pathname} is absent: the suites over the large real data (QALD-9, W3C SPARQL, WordNet, ` +
        "the DBpedia and schema.org ontologies, CommonMark, the markdown histories, whole books) are skipped; " +
        "everything else runs on the fixtures in test/fixtures/.\n",
    );
  }
  // the two engines start side by side (each takes seconds); a failure of either stops the other
  const [virtuoso, postgres] = await Promise.allSettled([startVirtuosoForSuites(process.argv), startPostgres()]);
  const stopVirtuoso = virtuoso.status === "fulfilled" ? virtuoso.value : undefined;
  if (virtuoso.status === "rejected" || postgres.status === "rejected") {
    if (postgres.status === "fulfilled") postgres.value?.stop();
    stopVirtuoso?.();
    throw virtuoso.status === "rejected" ? virtuoso.reason : (postgres as PromiseRejectedResult).reason;
  }
  const cluster = postgres.value;
  if (!cluster) return stopVirtuoso;
  process.env.GROUNDWIRE_TEST_PG_URL = cluster.url;
  return () => {
    cluster.stop();
    stopVirtuoso?.();
  };
}
