/**
 * groundwire in a real browser: Debian Chromium, headless, pages served from 127.0.0.1.
 *
 * 1. A plain `<script type="module">` page imports the self-contained bundle
 *    (dist/browser/groundwire.js) and runs test/browser/probe.js: every bestSpan parity
 *    case, a fingerprint and listing, a subclass closure, a MemDSL round trip and a
 *    markdown fragmentation. The JSON must equal Node's (dist/node.js) byte for byte —
 *    on the WASM backend, forced onto the TS backend, and in a Chromium whose JavaScript
 *    has no WebAssembly at all (--js-flags=--jitless). The slow runs (pure TS) use a
 *    sample of the parity cases (probeInput), compared with Node on the same sample.
 * 2. The packed tarball installed in a fresh project and bundled by Vite, unchanged
 *    `import … from "groundwire"`, runs the same probe in Chromium: same bytes. A release
 *    check (npm pack, npm install, a Vite build), as the packaging suites are: it runs in
 *    `npm run test:deep` (which .ci/run runs) and `npm run test:package`, not in `npm test`.
 * 3. The demo page (a grounded moot transcript, quotes highlighted, citations linked to
 *    their passages) is rendered and screenshotted to test/browser/screenshots/.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBE, ROOT, packAndInstall, probeInput, requireBuild, runProbeInNode, sameProbeBytes, type Installed, type ProbeResult } from "../package/support.js";
import { hasChromium, launchChromium, CHROMIUM } from "./chromium.js";
import { serveStatic, type StaticServer } from "./server.js";
import { DEEP } from "../depth.js";

const RELEASE = DEEP || process.env.GROUNDWIRE_TEST_PACKAGE === "1";


/** Open `url`, wait for the page's module script to finish, fail on any page error. */
async function openProbePage(page: Page, url: string): Promise<string[]> {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  await page.waitForSelector("body[data-ready=yes]", { timeout: 30_000 }).catch((e) => {
    throw new Error(`${url} did not become ready: ${errors.join("; ") || (e as Error).message}`);
  });
  expect(errors).toEqual([]);
  return errors;
}

/** Sample strides of the slow runs: the TS backend, and a jitless Chromium (interpreter only). */
const TS_SAMPLE = 16;
const JITLESS_SAMPLE = 64;

async function probeInPage(page: Page, backend?: "auto" | "ts", sample?: number): Promise<ProbeResult> {
  const input = probeInput(backend, { sample });
  return (await page.evaluate((i) => (window as unknown as { runProbe(i: unknown): Promise<unknown> }).runProbe(i), input)) as ProbeResult;
}

describe.skipIf(!hasChromium)(`groundwire in Chromium (${CHROMIUM})`, () => {
  let server: StaticServer;
  /** Node's answer (dist/node.js, WASM backend): all parity cases, and the sample of them */
  let nodeRun: ProbeResult;
  let nodeSampled: ProbeResult;
  let nodeJitlessSample: ProbeResult;
  let scratch: string;
  /** One Chromium for the plain page, the Vite app and the demo (the jitless one has its own flags). */
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    requireBuild();
    browser = await launchChromium();
    scratch = mkdtempSync(join(tmpdir(), "groundwire-browser-"));
    server = await serveStatic({ "/dist/": join(ROOT, "dist"), "/test/browser/": join(ROOT, "test/browser"), "/data/books/": join(ROOT, "data/books") });
    nodeRun = runProbeInNode(pathToFileURL(join(ROOT, "dist/node.js")).href, scratch).result;
    nodeSampled = runProbeInNode(pathToFileURL(join(ROOT, "dist/node.js")).href, scratch, { sample: TS_SAMPLE }).result;
    nodeJitlessSample = runProbeInNode(pathToFileURL(join(ROOT, "dist/node.js")).href, scratch, { sample: JITLESS_SAMPLE }).result;
    for (const [part, why] of Object.entries(nodeRun.skipped)) console.warn(`browser probe: ${part} skipped (${why})`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  describe("the self-contained bundle in a plain <script type=module>", () => {
    let page: Page;
    beforeAll(async () => {
      page = await browser.context.newPage();
      await openProbePage(page, `${server.origin}/test/browser/page.html`);
    });
    afterAll(async () => page?.close());

    it("loads the inlined WASM core and hashes with hash-wasm", async () => {
      const env = await page.evaluate(() => {
        const gw = (window as unknown as { groundwire: { backendInfo(): unknown; sha256Backend(): unknown; sha256Hex(s: string): string } }).groundwire;
        return { backend: gw.backendInfo(), sha256: gw.sha256Backend(), abc: gw.sha256Hex("abc") };
      });
      expect(env).toEqual({
        backend: { requested: "auto", active: "wasm", reason: null },
        sha256: "hash-wasm",
        abc: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      });
    });

    it("without ready(): the first call compiles the WASM core on the main thread; SHA-256 on @noble/hashes, then hash-wasm", async () => {
      const fresh = await browser.context.newPage();
      await openProbePage(fresh, `${server.origin}/test/browser/page.html?noready`);
      const env = await fresh.evaluate(async () => {
        const gw = (window as unknown as { groundwire: { backendInfo(): unknown; sha256Backend(): unknown; sha256Hex(s: string): string; bestSpan(q: string, p: string[]): unknown; ready(): Promise<void> } }).groundwire;
        const before = { sha256: gw.sha256Backend() };
        const span = gw.bestSpan("the old mill", ["old mill stood by the river"]);
        const first = { backend: gw.backendInfo(), sha256: gw.sha256Backend(), abc: gw.sha256Hex("abc"), after: gw.sha256Backend() };
        await gw.ready();
        return { before, span, first, ready: { sha256: gw.sha256Backend(), abc: gw.sha256Hex("abc") } };
      });
      await fresh.close();
      const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
      expect(env).toEqual({
        before: { sha256: null },
        span: { text: "old mill", ratio: 0.8, source: 0, start: 0, end: 8 },
        first: { backend: { requested: "auto", active: "wasm", reason: null }, sha256: null, abc, after: "@noble/hashes" },
        ready: { sha256: "hash-wasm", abc },
      });
    });

    it("every part's results equal Node's byte for byte (WASM backend)", async () => {
      const result = await probeInPage(page);
      expect(result.env.backend.active).toBe("wasm");
      expect(result.skipped, "every part's API is exported and ran").toEqual({});
      expect(sameProbeBytes(result, nodeRun)).toBeNull();
      expect(result.parts.moot).toHaveLength(probeInput().parity.cases.length);
      expect((result.parts.memdsl as { roundTrip: boolean }).roundTrip).toBe(true);
    });

    it("forced onto the TS backend: identical bytes", async () => {
      const result = await probeInPage(page, "ts", TS_SAMPLE);
      expect(result.env.backend.active).toBe("ts");
      expect(sameProbeBytes(result, nodeSampled)).toBeNull();
      await page.evaluate(() => (window as unknown as { groundwire: { setBackend(b: string): void } }).groundwire.setBackend("auto"));
    });
  });

  // V8's --jitless removes the WebAssembly global (as iOS Lockdown Mode does); --no-expose-wasm
  // does not in Chromium (Blink installs it anyway).
  describe("a Chromium without WebAssembly (--js-flags=--jitless)", () => {
    let jitless: Awaited<ReturnType<typeof launchChromium>>;
    let page: Page;
    const warnings: string[] = [];
    beforeAll(async () => {
      jitless = await launchChromium(["--js-flags=--jitless"]);
      page = await jitless.context.newPage();
      page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
      await openProbePage(page, `${server.origin}/test/browser/page.html`);
    });
    afterAll(async () => jitless?.close());

    it("imports fine, falls back to pure TS and pure-JS SHA-256 with visible notices, identical bytes", async () => {
      expect(await page.evaluate(() => typeof WebAssembly)).toBe("undefined");
      const result = await probeInPage(page, undefined, JITLESS_SAMPLE);
      expect(result.env.backend).toEqual({ requested: "auto", active: "ts", reason: "WebAssembly is not available in this runtime" });
      expect(result.env.sha256).toBe("@noble/hashes");
      expect(sameProbeBytes(result, nodeJitlessSample)).toBeNull();
      expect(warnings.some((w) => /SHA-256 on pure-JS @noble\/hashes/.test(w))).toBe(true);
      if (Object.keys(result.skipped).length < 5) expect(warnings.some((w) => /using the pure-TS backend/.test(w))).toBe(true);
    });
  });

  describe.skipIf(!RELEASE)(`the packed tarball, installed and bundled by Vite, unchanged import from "groundwire"${RELEASE ? "" : ": a release check, in npm run test:deep and test:package"}`, () => {
    let pkg: Installed;
    let appServer: StaticServer;
    beforeAll(async () => {
      pkg = packAndInstall();
      copyFileSync(PROBE, join(pkg.app, "probe.js"));
      writeFileSync(
        join(pkg.app, "main.js"),
        [
          `import * as groundwire from "groundwire";`,
          `import { runProbe } from "./probe.js";`,
          `window.groundwire = groundwire;`,
          `window.runProbe = (input) => runProbe(groundwire, input);`,
          `document.body.dataset.ready = "yes";`,
        ].join("\n"),
      );
      writeFileSync(join(pkg.app, "index.html"), `<!doctype html><meta charset="utf-8"><body>vite app<script type="module" src="./main.js"></script></body>`);
      const vite = spawnSync(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], { cwd: pkg.app, encoding: "utf8" });
      if (vite.status !== 0) throw new Error(`vite build of the consumer app failed:\n${vite.stdout}\n${vite.stderr}`);
      appServer = await serveStatic({ "/": join(pkg.app, "dist") });
    });
    afterAll(async () => {
      await appServer?.close();
      if (pkg) rmSync(pkg.dir, { recursive: true, force: true });
    });

    it("the Vite build runs in Chromium with the WASM core and gives Node's bytes", async () => {
      const page = await browser.context.newPage();
      await openProbePage(page, `${appServer.origin}/index.html`);
      const result = await probeInPage(page);
      expect(result.env.backend.active).toBe("wasm");
      expect(result.env.sha256).toBe("hash-wasm");
      expect(sameProbeBytes(result, nodeRun)).toBeNull();
    });
  });

  describe("the demo page: a grounded moot held in Chromium", () => {
    it("renders the transcript with quotes highlighted and citations linked, equal to Node's moot; screenshot saved", async () => {
      const turns = 4;
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${server.origin}/test/browser/demo.html?turns=${turns}`);
      await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
      expect(errors).toEqual([]);
      expect(await page.getAttribute("body", "data-ready")).toBe("yes");

      // the same moot in Node (dist/node.js, the books read from disk) gives the same transcript
      const node = await import(pathToFileURL(join(ROOT, "dist/node.js")).href);
      const expected = (await node.runMoot(node.loadCorpus(join(ROOT, "data/books")), node.createExtractiveSynthesizer(), ["novel/frankenstein", "diary/pepys-1660"], "fire and ruin", turns)).toDict();
      const inBrowser = await page.evaluate(() => (window as unknown as { transcript: unknown }).transcript);
      const a = JSON.stringify(inBrowser);
      const b = JSON.stringify(expected);
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      expect(a === b ? null : `transcripts differ at char ${at}: …${a.slice(at - 120, at + 80)}… vs …${b.slice(at - 120, at + 80)}…`).toBeNull();

      // every turn is shown; quotes are marked; each found quote and each [sN] links to a passage on the page
      expect(await page.locator("section.turn").count()).toBe(turns);
      const found = page.locator("main a.quote.found");
      expect(await found.count()).toBeGreaterThan(0);
      // every own quote left in the text (after snapping) is verbatim in a passage its turn cited
      expect(await found.count()).toBeGreaterThanOrEqual((expected.stats as { quotesFound: number }).quotesFound);
      expect(await page.locator("main a.quote.missing").evaluateAll((as) => as.map((a) => `${a.closest("section")?.id}: ${a.textContent}`)), "no own quote left unverified").toEqual([]);
      for (const href of await page.locator("main a.quote, main a.tag").evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
        expect(href).toMatch(/^#(t\d+-s\d+|turn-\d+)$/);
        expect(await page.locator(href!).count(), `link target ${href}`).toBe(1);
      }
      expect(await page.locator("main .passage mark").count()).toBeGreaterThan(0);

      const shot = join(ROOT, "test/browser/screenshots/demo.png");
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
    });
  });
});

describe.skipIf(hasChromium)("groundwire in Chromium", () => {
  if (process.env.GROUNDWIRE_REQUIRE_BROWSER) {
    it("Chromium is installed (GROUNDWIRE_REQUIRE_BROWSER is set, as .ci/run does)", () => {
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (see .ci/run)`);
    });
  } else {
    it.skip(`skipped: no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium with apt)`, () => {});
  }
});

// keep the screenshot folder present for the demo test
mkdirSync(join(ROOT, "test/browser/screenshots"), { recursive: true });
