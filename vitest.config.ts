import { defineConfig } from "vitest/config";

// The packaging suites (the packed tarball installed and type-checked by consumer projects under
// three module resolutions, the CLI's habits from an installed package) run in `npm run
// test:package` and `npm run test:deep` (which .ci/run runs), not in the quick `npm test`: they
// check a release, and take most of the quick run's time.
const PACKAGING = ["test/package/types.test.ts", "test/package/pack.test.ts", "test/package/cli-habits.test.ts"];
const everything = process.env.GROUNDWIRE_TEST_DEEP === "1" || process.env.GROUNDWIRE_TEST_PACKAGE === "1";
// Suites that run in `npm run test:deep` (and so in .ci/run) but not in the quick `npm test`: failure
// injection against the real engines, and the real engines driven through the built CLI where an
// in-process suite already proves the same contract on the same engine. They spend their time on
// killed processes, dropped connections, Chromium and process starts. The quick run keeps a suite of
// each engine failing (test/store/store-down.test.ts: the database gone; test/kernel/hostile-store.test.ts:
// a hostile SPARQL endpoint; test/server/page-hostile.test.ts: the server's routes under attack) and
// each engine's contract (test/store/library.test.ts, serve-store, serve-page, moot-store;
// test/kernel/endpoint-run.test.ts, endpoint-schema, dialect-virtuoso; test/browser/).
const DEEP_ONLY = [
  "test/store/hostile-load.test.ts", // corpus load: special files, bad encodings, SIGKILL and a dropped connection mid-load
  "test/store/replicas.test.ts", // two serve --store replicas, one SIGKILLed mid-moot
  "test/store/serve-drop.test.ts", // the database dropping a connection a turn holds
  "test/browser/page-hostile.test.ts", // the page in Chromium with hostile books, replies and names
  "test/store/cli.test.ts", // books, locate, moot, mcp and corpus with --store through the CLI (library.test.ts in process)
  "test/kernel/endpoint-dialect.test.ts", // --dialect virtuoso through check, serve and mcp (dialect-virtuoso.test.ts in process)
];
const deep = process.env.GROUNDWIRE_TEST_DEEP === "1";
// a file or folder named on the command line (`npx vitest run test/store`) runs whatever the list says
const filters = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !/^\d+$/.test(a));
const quickOnly = DEEP_ONLY.filter((f) => !filters.some((a) => f.includes(a.replace(/^\.\//, ""))));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...(everything ? [] : PACKAGING), ...(deep ? [] : quickOnly)],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one line per finished file with the count and the time so far (test/progress-reporter.ts)
    reporters: ["default", "./test/progress-reporter.ts"],
    pool: "forks",
    // The quick run's files mostly wait on processes they start (the CLI, servers, Chromium, the
    // engines), so three workers keep two cores busy; the deep run's sweeps compute, so two
    // (npm test on an idle 2-core machine, same tests: 3 workers 279 s and 299 s, 2 workers 323 s).
    maxWorkers: deep ? 2 : 3,
    // Files share a worker's loaded modules (the ts/ sources, the WASM core, the parsers) instead of
    // loading them afresh in a new process each: a third less CPU over the suite. No suite changes
    // process-wide state (environment, working directory, timers, module mocks); the one that
    // switches the WASM backend (test/house.test.ts) switches it back.
    isolate: false,
  },
});
