// A throwaway PostgreSQL cluster for the store suites: initdb in a temporary folder, the
// server on a free loopback port with trust auth, stopped and removed at the end. Run as the
// `postgres` user when we are root (initdb refuses root). Used by test/global-setup.ts, which
// exports the URL to every suite as GROUNDWIRE_TEST_PG_URL.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../free-port.js";

/** The folder holding initdb, pg_ctl and postgres: $GROUNDWIRE_PG_BIN, else the newest /usr/lib/postgresql/N/bin, else null. */
export function postgresBin(): string | null {
  const fromEnv = process.env.GROUNDWIRE_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, "initdb")) ? fromEnv : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, "bin", "initdb"))) return join(root, v, "bin");
  return null;
}


export interface TestCluster {
  url: string;
  stop(): void;
}

/** Start a cluster; the URL names its `postgres` database as the `postgres` superuser (trust auth, loopback only). */
export async function startTestCluster(bin: string): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), "groundwire-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (file: string, args: string[]) => {
    const full = join(bin, file);
    if (asRoot) return spawnSync("runuser", ["-u", "postgres", "--", full, ...args], { encoding: "utf8" });
    return spawnSync(full, args, { encoding: "utf8" });
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const init = run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  // members of the role password_required log in with a password (scram), the rest by trust: the store suites test a wrong and a missing password
  const hba = join(data, "pg_hba.conf");
  writeFileSync(hba, `host all +password_required 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, "utf8")}`);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=200 -c shared_buffers=64MB`;
  const start = run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-t", "60", "start"]);
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr || start.stdout}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
