import { defineConfig } from "vitest/config";

// The packaging suites (the packed tarball installed and type-checked by consumer projects under
// three module resolutions, the CLI's habits from an installed package) run in `npm run
// test:package` and `npm run test:deep` (which .ci/run runs), not in the quick `npm test`: they
// check a release, and take most of the quick run's time.
const PACKAGING = ["test/package/types.test.ts", "test/package/pack.test.ts", "test/package/cli-habits.test.ts"];
const everything = process.env.GROUNDWIRE_TEST_DEEP === "1" || process.env.GROUNDWIRE_TEST_PACKAGE === "1";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...(everything ? [] : PACKAGING)],
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one line per finished file with the count and the time so far (test/progress-reporter.ts)
    reporters: ["default", "./test/progress-reporter.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Files share a worker's loaded modules (the ts/ sources, the WASM core, the parsers) instead of
    // loading them afresh in a new process each: a third less CPU over the suite. No suite changes
    // process-wide state (environment, working directory, timers, module mocks); the one that
    // switches the WASM backend (test/house.test.ts) switches it back.
    isolate: false,
  },
});
