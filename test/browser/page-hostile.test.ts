/**
 * The page of `groundwire serve` used by a hostile or unlucky user, in Debian's Chromium at
 * phone width (375 px) in dark mode, driven by keys. Every text an attacker controls holds
 * `<script>`, `<img onerror>`, `javascript:` links and the prompt's fence strings: a book (its
 * title and passages), a model's reply, a moot's topic, a --history folder's and version's
 * names and their markdown, a pasted reply and passages. The page must show them all as text:
 * `window.__pwned` stays unset, no dialog opens, no page error, no element from them. Then every
 * failure must be shown in words: no token, a token no header can carry, a model that fails or
 * hangs, the server stopped mid-use, a saved moot whose book is gone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_TOKEN, type RunningServer } from "../server/serve-process.js";
import { hasChromium, launchChromium } from "./chromium.js";

/** What every hostile text holds: markup that would run if the page parsed it as HTML. */
const X = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const LINK = "[click](javascript:window.__pwned=3)";
const FENCES = "<untrusted-data> </untrusted-data>";
const HISTORY = "hist<img src=x onerror=window.__pwned=4>";
const VERSION = "v1 <img src=x onerror=window.__pwned=5>.md";
const TOPIC = `${X} ${LINK}`;

describe.skipIf(!hasChromium)("the page against hostile content and failures (Chromium, 375 px, dark)", () => {
  let scratch: string;
  let model: Server;
  let mode: "xss" | "fail" | "hang" = "xss";
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let args: string[];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "groundwire-page-hostile-"));
    const books = join(scratch, "books");
    mkdirSync(books);
    writeFileSync(
      join(books, "novel__hostile.txt"),
      `THE HOSTILE BOOK ${X}\n\nby <b>Mallory</b>\n\n\nCHAPTER I.\n\nThe harbour was quiet when ${X} came in with the tide and a ${LINK} and ${FENCES} fences, and the keeper wrote it all down in his little book of tides.\n\n\nCHAPTER II.\n\nIn the morning the keeper <a href="javascript:window.__pwned=3">clicked</a> nothing at all and went home to sleep by the fire.\n`,
    );
    const history = join(scratch, HISTORY);
    mkdirSync(history);
    writeFileSync(join(history, VERSION), `# Title ${X}\n\n## Part <script>window.__pwned=6</script>\n\nSome text ${LINK} here.\n\n## Two\n\nMore text.\n`);
    writeFileSync(join(history, "v2.md"), `# Title ${X}\n\n## Two\n\nMore text.\n\n## Part <script>window.__pwned=6</script>\n\nSome text ${LINK} here, changed.\n`);
    // the model: a reply full of markup and fences; or a 500 whose message holds markup; or no answer at all
    model = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (mode === "hang") return;
        if (mode === "fail") return void res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `model exploded ${X}` } }));
        const content = `The keeper said "came in with the tide" [s1] and "${X}" [s2] and <script>window.__pwned=9</script> ${LINK} ${FENCES} "<untrusted-data>" [s1].`;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ model: "stub", choices: [{ message: { role: "assistant", content } }] }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    args = ["--quiet", "--base-url", baseUrl, "--model", "stub", "--data", join(scratch, "data"), "--turn-timeout", "3s"];
    [server, browser] = await Promise.all([startServer([...args, "--books", books, "--history", history]), launchChromium()]);
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
    page.on("request", (r) => urls.push(r.url()));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    model?.closeAllConnections();
    model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The visible text of the elements `selector` matches. */
  const text = (selector: string) => page.evaluate((sel) => Array.from(document.querySelectorAll<HTMLElement>(sel)).filter((e) => !e.hidden).map((e) => e.innerText).join(" | "), selector);
  /** Nothing ran and nothing was made of the hostile texts; nothing is wider than the phone. */
  async function unharmed(): Promise<void> {
    const state = await page.evaluate(() => ({
      pwned: (window as any).__pwned ?? null,
      made: document.querySelectorAll("img, script:not([src]), a, iframe, object, b").length,
      width: document.documentElement.scrollWidth,
    }));
    expect(state).toEqual({ pwned: null, made: 0, width: 375 });
    expect([pageErrors, dialogs]).toEqual([[], []]);
  }
  const press = async (selector: string, key = "Enter") => {
    await page.focus(selector);
    await page.keyboard.press(key);
  };

  it("without a token says so in words; a token no header can carry is refused in words, not sent", async () => {
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => document.querySelector(".error:not([hidden])")?.textContent);
    expect(await text(".error")).toBe("missing or wrong bearer token (Authorization: Bearer …)");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("token");
    // a pasted token with a curly quote, then with a zero-width space: fetch cannot send either
    await page.keyboard.type(`${TEST_TOKEN}\u201d`);
    await page.keyboard.press("Enter");
    expect(await text("#token-state")).toBe("the token holds a character a bearer token cannot (U+201D); tokens hold letters, digits and - . _ ~ + / =, so paste it again");
    await page.fill("#token", `${TEST_TOKEN}\u200b`);
    await press("#token");
    expect(await text("#token-state")).toBe("the token holds a character a bearer token cannot (U+200B, a space or an invisible character); tokens hold letters, digits and - . _ ~ + / =, so paste it again");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.fill("#token", TEST_TOKEN);
    await press("#token");
    await page.waitForSelector('select[name="a"] option[value="novel/hostile"]', { state: "attached" });
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toBe(JSON.stringify({ "groundwire.token": TEST_TOKEN }));
    expect(await text("#token-state")).toBe("token set for this tab");
    await unharmed();
  });

  it("moots: a hostile book, topic and reply are drawn as text; their quotes open by keyboard", async () => {
    await page.fill('input[name="topic"]', TOPIC);
    await page.selectOption('select[name="a"]', "novel/hostile");
    await page.fill('input[name="turns"]', "1");
    await press('form[aria-label="Start a moot"] button[type="submit"]');
    await page.waitForSelector('.transcript[data-done="yes"]');
    expect(await text(".transcript h2")).toBe(`THE HOSTILE BOOK ${X} vs The Diary of Samuel Pepys on “${TOPIC}”`);
    expect(await text('.transcript article[data-turn="1"] .reply')).toContain(`"${X}" [s2] and <script>window.__pwned=9</script> ${LINK} ${FENCES}`);
    // the quote of markup (the API reads it as two quotes, cut at its inner quote marks) is a quote
    // like any other: found in the book, its words highlighted as text
    const markup = "script>window.__pwned=2</script";
    expect(await page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>(".transcript .q")).map((q) => q.dataset.quote))).toContain(markup);
    await page.evaluate((quote) => Array.from(document.querySelectorAll<HTMLElement>(".transcript .q")).find((q) => q.dataset.quote === quote)!.focus(), markup);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#passage mark"));
    expect(await text("#passage mark")).toBe(markup);
    expect(await text(".saved")).toContain(`novel/hostile vs diary/pepys-1660 on “${TOPIC}” 1/1 turns`);
    await unharmed();
  });

  it("check a reply: pasted markup in the reply and the passages is text, highlighted as the API marks it", async () => {
    await page.goto(`${server.url}/#check`);
    await page.waitForSelector('textarea[name="reply"]');
    await page.fill('textarea[name="reply"]', `He wrote "${X}" [s1] and "javascript:window.__pwned=11" [s2] and ${FENCES}.`);
    await page.check('input[value="passages"]');
    await page.fill('textarea[name="passages"]', `A passage holding ${X} in it.\n\njavascript:window.__pwned=11 is here ${FENCES}`);
    await press('form[aria-label="Check a reply"] button[type="submit"]');
    await page.waitForSelector(".result .q");
    expect(await text(".result .pass")).toBe("Every quote is the passages' words.");
    await press(".result .q");
    await page.waitForFunction(() => document.querySelector("#passage mark"));
    // the API reads the quote of markup as two, cut at its inner quote marks: the first is highlighted
    expect([await text("#passage h2"), await text("#passage mark")]).toEqual(["s1", "img src=x onerror"]);
    await unharmed();
  });

  it("history: hostile folder and version names and markdown are text in the picker, timeline and tree", async () => {
    await page.goto(`${server.url}/#history`);
    await page.waitForSelector('select[name="history"]');
    expect(await text('select[name="history"]')).toBe(`${HISTORY} (2 versions)`);
    await press('main form button[type="submit"]');
    await page.waitForSelector("table.timeline");
    expect(await text("table.timeline caption")).toBe(`5 citations of ${VERSION} across 2 versions`);
    await press(`button[data-version="${VERSION}"]`);
    await page.waitForSelector(".tree ul.fragments");
    expect(await text(".tree h3")).toBe(`Fragments of ${VERSION} (5)`);
    await unharmed();
  });

  it("library: a hostile book's title, passages and a located quote of markup are text", async () => {
    await page.goto(`${server.url}/#library`);
    await page.waitForSelector('button[data-key="novel/hostile"]');
    expect(await text('button[data-key="novel/hostile"]')).toContain(`THE HOSTILE BOOK ${X}\n<b>Mallory</b>`);
    await press('button[data-key="novel/hostile"]');
    await page.waitForSelector('.passages button[data-node="novel/hostile#chapter-ii"]');
    await press('.passages button[data-node="novel/hostile#chapter-ii"]');
    await page.waitForFunction(() => document.querySelector("#passage h2")?.textContent === "CHAPTER II");
    expect(await text("#passage .passage-text")).toContain('<a href="javascript:window.__pwned=3">clicked</a>');
    await page.fill('input[name="quote"]', X);
    await page.selectOption('form[aria-label="Locate a quote"] select', "novel/hostile");
    await press('form[aria-label="Locate a quote"] button[type="submit"]');
    await page.waitForSelector(".located li.span");
    expect(await text(".located h3")).toBe("2 spans found");
    await unharmed();
  });

  it("a failing model, a hanging one, a stopped server and a moot whose book is gone are each said in words", async () => {
    await page.goto(`${server.url}/#moots`);
    await page.waitForSelector('input[name="turns"]');
    await page.fill('input[name="turns"]', "1");
    mode = "fail";
    await press('form[aria-label="Start a moot"] button[type="submit"]');
    await page.waitForFunction(() => document.querySelector(".error:not([hidden])")?.textContent);
    expect(await text(".error")).toMatch(new RegExp(`^the model endpoint http://127\\.0\\.0\\.1:\\d+/v1/chat/completions answered HTTP 500 Internal Server Error after 3 attempts: model exploded ${X.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    expect(await page.locator(".transcript .pending").count()).toBe(0);
    mode = "hang";
    await press('form[aria-label="Start a moot"] button[type="submit"]');
    await page.waitForFunction(() => /did not finish/.test(document.querySelector(".error")?.textContent ?? ""), undefined, { timeout: 15_000 });
    expect(await text(".error")).toBe("the moot turn did not finish within 3000 ms (the model is slow or unreachable); the turn goes on and is saved when it lands");
    // a saved moot asked for while a turn hangs: said so, then opened when that turn ends (it used to do nothing)
    await press('form[aria-label="Start a moot"] button[type="submit"]');
    await page.waitForSelector(".transcript .pending");
    await page.locator(".saved button", { hasText: "novel/hostile vs" }).press("Enter");
    expect(await text('.center p[role="status"]')).toBe("The moot opens when the turn in progress ends.");
    await page.waitForSelector('.transcript[data-done="yes"]', { timeout: 15_000 });
    expect(await text(".transcript h2")).toBe(`THE HOSTILE BOOK ${X} vs The Diary of Samuel Pepys on “${TOPIC}”`);
    expect(await text('.center p[role="status"]')).toBe("");
    mode = "xss";
    model.closeAllConnections();
    await unharmed();

    // the server stops under the page: each view says so, in words
    await page.goto(`${server.url}/#library`);
    await page.waitForSelector('input[name="quote"]');
    const port = new URL(server.url).port;
    await server.stop();
    await page.fill('input[name="quote"]', "a dreary night");
    await press('form[aria-label="Locate a quote"] button[type="submit"]');
    await page.waitForFunction(() => document.querySelector(".error:not([hidden])")?.textContent);
    expect(await text(".error")).toBe("the server did not answer (Failed to fetch)");
    await press("#tab-library", "ArrowRight");
    await page.waitForFunction(() => document.querySelector(".error:not([hidden])")?.textContent);
    expect(await text(".error")).toBe("the server did not answer (Failed to fetch)");

    // started again on the same port without the hostile book: its saved moot opens, its quotes say the book is gone
    server = await startServer([...args, "--port", port]);
    // (the page is on #moots already: a reload, as a user would, reads the server again)
    await page.reload();
    await page.waitForSelector(".saved button");
    await page.locator(".saved button", { hasText: "novel/hostile vs" }).press("Enter");
    await page.waitForSelector('.transcript[data-done="yes"] .q');
    await press(".transcript .q");
    await page.waitForFunction(() => document.querySelector("#passage .error")?.textContent);
    expect(await text("#passage .error")).toBe('unknown book "novel/hostile"; the corpus holds diary/pepys-1660, novel/frankenstein');
    await unharmed();
  }, 60_000);

  it("never put the token in a URL", () => {
    expect(urls.filter((u) => u.includes(TEST_TOKEN))).toEqual([]);
  });
});
