/**
 * groundwire in a module Web Worker (issue 16 item 1). The packed tarball is installed in a
 * fresh project whose worker does an unchanged `import * as groundwire from "groundwire"`;
 * the worker is bundled by each of Vite, esbuild (`--platform=browser`), webpack 5 and rollup
 * (node-resolve with `browser: true, preferBuiltins: false`, and commonjs) with their settings for a browser target (Vite: `worker.format: "es"`, the setting for a module
 * worker), and the self-contained `groundwire/browser` file is loaded by a module worker as
 * it is. A plain page starts each worker (`new Worker(url, {type: "module"})`), which runs
 * test/browser/probe.js (bestSpan parity, fingerprint and listing, closure, MemDSL, markdown
 * fragments with character references) and posts the JSON back: it must equal Node's bytes
 * on the WASM backend. Before the fix every worker died at load with `ReferenceError:
 * document is not defined` (the markdown entity decoder's DOM build).
 *
 * Also in Node, without a browser: every entry of the package (`groundwire`,
 * `groundwire/browser`) imports and fragments markdown with character references.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBE, ROOT, packAndInstall, probeInput, requireBuild, runProbeInNode, sameProbeBytes, type Installed, type ProbeResult } from "../package/support.js";
import { hasChromium, launchChromium, CHROMIUM } from "./chromium.js";
import { serveStatic, type StaticServer } from "./server.js";
import { DEEP } from "../depth.js";

// The bundler matrix below (the packed tarball installed, its worker bundled by Vite, esbuild and
// webpack, each loaded in Chromium) checks a release, like the packaging suites (vitest.config.ts):
// it runs in `npm run test:deep` (which .ci/run runs) and `npm run test:package`, not in the quick
// `npm test`, where it took most of this file's time. The entries in Node (first describe) always run.
const RELEASE = DEEP || process.env.GROUNDWIRE_TEST_PACKAGE === "1";

const WORKER_SOURCE = [
  `import * as groundwire from "groundwire";`,
  `import { runProbe } from "./probe.js";`,
  `self.onmessage = async (event) => {`,
  `  try { self.postMessage({ ok: true, result: await runProbe(groundwire, event.data) }); }`,
  `  catch (error) { self.postMessage({ ok: false, error: String(error && error.stack || error) }); }`,
  `};`,
  `self.postMessage({ ready: true });`,
].join("\n");

/** The page: start the worker at `?worker=<url>`, forward the probe input, keep the answer. */
const PAGE = `<!doctype html><meta charset="utf-8"><body>worker probe<script type="module">
const url = new URLSearchParams(location.search).get("worker");
const worker = new Worker(url, { type: "module" });
window.workerErrors = [];
worker.onerror = (e) => { window.workerErrors.push(e.message || "worker error"); document.body.dataset.ready = "error"; };
window.runInWorker = (input) => new Promise((resolve) => {
  worker.onmessage = (e) => resolve(e.data);
  worker.postMessage(input);
});
worker.onmessage = (e) => { if (e.data && e.data.ready) document.body.dataset.ready = "yes"; };
</script></body>`;

function run(command: string, args: string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${[command, ...args].join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Bundle `worker.js` of the consumer app with each bundler into app/out/<bundler>/worker.js. */
function bundleWorkers(app: string): Record<string, string> {
  const out = join(app, "out");
  // Vite: a page that starts the worker the way Vite's docs say, built with defaults plus
  // worker.format "es" (a module worker); the worker file is found in the build by name.
  writeFileSync(join(app, "vite-main.js"), `new Worker(new URL("./worker.js", import.meta.url), { type: "module" });\n`);
  writeFileSync(join(app, "index.html"), `<!doctype html><script type="module" src="./vite-main.js"></script>`);
  writeFileSync(join(app, "vite.config.mjs"), `export default { worker: { format: "es" }, build: { outDir: "out/vite", assetsDir: "." } };\n`);
  run(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], app);
  const viteWorker = spawnSync("sh", ["-c", "ls out/vite | grep '^worker-.*\\.js$'"], { cwd: app, encoding: "utf8" }).stdout.trim().split("\n")[0];
  if (!viteWorker) throw new Error("vite build wrote no worker-*.js");
  // esbuild: the CLI with --platform=browser (its default conditions: browser, import, default)
  mkdirSync(join(out, "esbuild"), { recursive: true });
  run(join(ROOT, "node_modules/.bin/esbuild"), ["worker.js", "--bundle", "--format=esm", "--platform=browser", "--outfile=out/esbuild/worker.js", "--log-level=warning"], app);
  // webpack 5: production mode, a module worker bundled as an entry of its own: target "webworker"
  // with ES module output and chunks loaded by import() (with the default target "web" its chunks,
  // the WASM bytes among them, load by <script> tags, which a worker has not, and "webworker" alone
  // loads them by importScripts, which a module worker has not: the worker then runs on pure TS,
  // with the reason), through its Node API. npm test leaves out
  // its minifier (terser over the whole bundle, most of this suite's time): the package is resolved
  // and bundled as in production; npm run test:deep (test/depth.ts) builds the minified bundle too.
  const webpackScript = join(app, "webpack-build.cjs");
  writeFileSync(
    webpackScript,
    [
      `const webpack = require(${JSON.stringify(join(ROOT, "node_modules/webpack"))});`,
      `webpack({ mode: "production", target: "webworker", experiments: { outputModule: true }, context: __dirname, entry: "./worker.js", output: { path: __dirname + "/out/webpack", filename: "worker.js", module: true, chunkFormat: "module", chunkLoading: "import" }, performance: { hints: false }${DEEP ? "" : ", optimization: { minimize: false }"} }, (err, stats) => {`,
      `  if (err || stats.hasErrors()) { console.error(err || stats.toString("errors-only")); process.exit(1); }`,
      `});`,
    ].join("\n"),
  );
  run(process.execPath, [webpackScript], app);
  // rollup: node-resolve with the two settings docs/package.md names for a browser build
  // (browser: true, preferBuiltins: false: N3's parser imports Node's buffer and events, which a
  // browser gets from their npm packages), and commonjs() for the CommonJS dependencies
  const rollupScript = join(app, "rollup-build.mjs");
  const from = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, "node_modules", path)).href);
  writeFileSync(
    rollupScript,
    [
      `import { rollup } from ${from("rollup/dist/es/rollup.js")};`,
      `import { nodeResolve } from ${from("@rollup/plugin-node-resolve/dist/es/index.js")};`,
      `import commonjs from ${from("@rollup/plugin-commonjs/dist/es/index.js")};`,
      `const bundle = await rollup({ input: "worker.js", plugins: [nodeResolve({ browser: true, preferBuiltins: false }), commonjs()], onwarn: () => {} });`,
      `await bundle.write({ file: "out/rollup/worker.js", format: "es", inlineDynamicImports: true });`,
    ].join("\n"),
  );
  run(process.execPath, [rollupScript], app);
  return { vite: `/vite/${viteWorker}`, esbuild: "/esbuild/worker.js", webpack: "/webpack/worker.js", rollup: "/rollup/worker.js" };
}

describe("every entry loads in Node and fragments markdown with character references", () => {
  beforeAll(requireBuild);
  for (const [entry, file] of [
    ["groundwire (Node)", "dist/node.js"],
    ["groundwire (browser-safe default)", "dist/index.js"],
    ["groundwire/browser (self-contained)", "dist/browser/groundwire.js"],
  ]) {
    it(entry, () => {
      const script = `const g = await import(${JSON.stringify(pathToFileURL(join(ROOT, file)).href)}); const f = g.fragmentMarkdown("a", "# Fish &amp; chips\\n\\nA &copy; B &#x41;"); console.log(JSON.stringify(f.map((x) => [x.path, x.label])))`;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      expect(JSON.parse(r.stdout)).toEqual([
        ["section:fish-chips", "Fish & chips"],
        ["section:fish-chips/paragraph:1", null],
      ]);
    });
  }
});

describe.skipIf(!hasChromium || !RELEASE)(`groundwire in a module Web Worker, Chromium (${CHROMIUM})${RELEASE ? "" : ": a release check, in npm run test:deep and test:package"}`, () => {
  let pkg: Installed;
  let workers: Record<string, string>;
  let server: StaticServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let nodeRun: ProbeResult;

  beforeAll(async () => {
    pkg = packAndInstall();
    copyFileSync(PROBE, join(pkg.app, "probe.js"));
    writeFileSync(join(pkg.app, "worker.js"), WORKER_SOURCE);
    workers = bundleWorkers(pkg.app);
    // the self-contained file, imported by a module worker as it is (no bundler)
    mkdirSync(join(pkg.app, "out", "plain"), { recursive: true });
    copyFileSync(join(pkg.app, "node_modules/groundwire/dist/browser/groundwire.js"), join(pkg.app, "out", "plain", "groundwire.js"));
    copyFileSync(PROBE, join(pkg.app, "out", "plain", "probe.js"));
    writeFileSync(join(pkg.app, "out", "plain", "worker.js"), WORKER_SOURCE.replace(`from "groundwire"`, `from "./groundwire.js"`));
    workers["groundwire/browser, no bundler"] = "/plain/worker.js";
    writeFileSync(join(pkg.app, "out", "page.html"), PAGE);
    server = await serveStatic({ "/": join(pkg.app, "out") });
    browser = await launchChromium();
    nodeRun = runProbeInNode(pathToFileURL(join(ROOT, "dist/node.js")).href, pkg.app).result;
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (pkg) rmSync(pkg.dir, { recursive: true, force: true });
  });

  for (const bundler of ["vite", "esbuild", "webpack", "rollup", "groundwire/browser, no bundler"]) {
    it(`${bundler}: the worker loads and gives Node's bytes on the WASM backend`, { timeout: 180_000 }, async () => {
      const page: Page = await browser.context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${server.origin}/page.html?worker=${encodeURIComponent(workers[bundler])}`);
      await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
      const workerErrors = await page.evaluate(() => (window as unknown as { workerErrors: string[] }).workerErrors);
      expect([...errors, ...workerErrors]).toEqual([]);
      const answer = (await page.evaluate((i) => (window as unknown as { runInWorker(i: unknown): Promise<unknown> }).runInWorker(i), probeInput())) as {
        ok: boolean;
        result?: ProbeResult;
        error?: string;
      };
      expect(answer.error).toBeUndefined();
      expect(answer.result!.env.backend.active).toBe("wasm");
      expect(answer.result!.env.sha256).toBe("hash-wasm");
      expect(sameProbeBytes(answer.result!, nodeRun)).toBeNull();
      await page.close();
    });
  }
});
