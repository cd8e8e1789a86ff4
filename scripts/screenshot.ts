/**
 * Regenerate docs/img/moot.png, the README's picture of the page's moot view: `groundwire
 * serve` (dist/, so `npm run screenshot` builds first) with the stub model of the page's
 * browser test (a near miss, a wrong tag and a made-up quote per reply), Debian's Chromium,
 * a two-turn moot on "fire", the near miss opened against its passage.
 * Run: npm run screenshot
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launchChromium } from "../test/browser/chromium.js";
import { startStubModel } from "../test/browser/page-model.js";
import { ROOT, startServer, TEST_TOKEN } from "../test/server/serve-process.js";

const OUT = join(ROOT, "docs/img/moot.png");

const model = await startStubModel();
const server = await startServer(["--quiet", "--base-url", model.baseUrl, "--model", "stub-7b"]);
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`${server.url}/#moots`);
  await page.fill("#token", TEST_TOKEN);
  await page.press("#token", "Enter");
  await page.waitForSelector('select[name="a"]');
  await page.selectOption('select[name="a"]', "novel/frankenstein");
  await page.selectOption('select[name="b"]', "diary/pepys-1660");
  await page.fill('input[name="turns"]', "2");
  await page.click("form[aria-label='Start a moot'] button[type=submit]");
  await page.waitForSelector(".transcript[data-done=yes]", { timeout: 60_000 });
  await page.click('article.turn[data-turn="1"] [role=button].q[data-verdict=snapped]');
  await page.waitForSelector("#passage[aria-busy=false] mark");
  mkdirSync(join(ROOT, "docs/img"), { recursive: true });
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await server.stop();
  await model.close();
}
