// The global setup's Virtuoso block (test/global-setup.ts calls it): starts the throwaway Virtuoso
// of virtuoso-server.ts when this run may include an endpoint suite, and exports its URLs as
// GROUNDWIRE_TEST_SPARQL_URL and GROUNDWIRE_TEST_GSP_URL. Without Virtuoso the endpoint suites
// skip with a note; GROUNDWIRE_REQUIRE_VIRTUOSO=1 (CI) makes a missing or failing Virtuoso an error.
// Virtuoso takes seconds to start and load its graphs, so the setup does not wait for it: the other
// suites start at once, and the endpoint suites wait for it first (virtuoso-ready.ts, through the
// status file named by GROUNDWIRE_TEST_VIRTUOSO_READY).
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchTestVirtuoso, virtuosoInstalled } from "./virtuoso-server.js";

/** A full run, or a file filter naming an endpoint suite (`vitest run test/kernel/endpoint…`). */
export function runsEndpointSuites(argv: readonly string[]): boolean {
  const filters = argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !/^\d+$/.test(a));
  return filters.length === 0 || filters.some((f) => /endpoint|virtuoso|test\/?$/i.test(f));
}

/** Start Virtuoso for the suites when due; resolves to its stop function, or undefined when none started. */
export async function startVirtuosoForSuites(argv: readonly string[]): Promise<(() => void) | undefined> {
  if (process.env.GROUNDWIRE_TEST_SPARQL_URL || !runsEndpointSuites(argv)) return undefined;
  const required = process.env.GROUNDWIRE_REQUIRE_VIRTUOSO === "1";
  if (!virtuosoInstalled()) {
    if (required) throw new Error("GROUNDWIRE_REQUIRE_VIRTUOSO=1 but Virtuoso is not installed (virtuoso-t, isql-vt, /etc/virtuoso-opensource-7/virtuoso.ini)");
    console.log("\nnote: Virtuoso is not installed: the endpoint suites (test/kernel/endpoint*.test.ts) run on the embedded Oxigraph store only; install virtuoso-opensource to run them against Virtuoso (GROUNDWIRE_REQUIRE_VIRTUOSO=1 makes them fail instead).\n");
    return undefined;
  }
  try {
    const v = await launchTestVirtuoso();
    process.env.GROUNDWIRE_TEST_SPARQL_URL = v.sparqlUrl;
    process.env.GROUNDWIRE_TEST_GSP_URL = v.graphStoreUrl;
    // "ok", or "failed: <why>", written once the start has settled
    const statusDir = mkdtempSync(join(tmpdir(), "groundwire-virtuoso-status-"));
    const status = join(statusDir, "status");
    process.env.GROUNDWIRE_TEST_VIRTUOSO_READY = status;
    // written beside and renamed, so a suite never reads it half written
    const say = (text: string) => {
      writeFileSync(`${status}.part`, text);
      renameSync(`${status}.part`, status);
    };
    const settled = v.ready.then(
      () => say("ok"),
      (error: unknown) => say(`failed: ${(error as Error).message.split("\n", 1)[0]}`),
    );
    return () => {
      v.stop();
      void settled.finally(() => rmSync(statusDir, { recursive: true, force: true }));
    };
  } catch (error) {
    if (required) throw error;
    console.log(`\nnote: the test Virtuoso did not start (${(error as Error).message.split("\n", 1)[0]}): the endpoint suites run on the embedded Oxigraph store only.\n`);
    return undefined;
  }
}
