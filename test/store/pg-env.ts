// The store suites' access to the throwaway cluster test/global-setup.ts started: a fresh
// database per suite (so suites never see each other's rows), or a skip with its reason when
// PostgreSQL is absent, which GROUNDWIRE_REQUIRE_POSTGRES=1 (CI) turns into a failure.
import pg from "pg";

export const PG_URL = process.env.GROUNDWIRE_TEST_PG_URL ?? null;
export const REQUIRE_PG = process.env.GROUNDWIRE_REQUIRE_POSTGRES === "1";
export const SKIP_PG_REASON = "PostgreSQL is not installed here: the store suites are skipped (install postgresql and postgresql-contrib; CI sets GROUNDWIRE_REQUIRE_POSTGRES=1)";

/** Whether the PostgreSQL half of a suite runs; throws when CI requires it and it is absent. */
export function pgAvailable(): boolean {
  if (PG_URL) return true;
  if (REQUIRE_PG) throw new Error("GROUNDWIRE_REQUIRE_POSTGRES=1 but no PostgreSQL cluster was started (is /usr/lib/postgresql/N/bin/initdb installed?)");
  console.log(`note: ${SKIP_PG_REASON}`);
  return false;
}

let counter = 0;

/** A new empty database on the test cluster; its URL. */
export async function freshDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
  const client = new pg.Client({ connectionString: PG_URL! });
  await client.connect();
  try {
    // an identifier cannot be a parameter: the name is built above from [a-z0-9_] only
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}
