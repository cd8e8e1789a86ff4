/**
 * The page of `groundwire serve` (docs/page.md) in Debian's Chromium: one server (a stub model
 * whose replies hold a near miss, a wrong tag and a made-up quote; a --history folder of three
 * versions), one browser. Each view is driven by clicks and keys and what it shows is checked
 * against the API's own answers; axe-core runs on every view (no serious or critical
 * violation); no request carries the token in its URL, none breaks the page's CSP; the built
 * page stays under its size budget. Screenshots go to test/browser/screenshots/page/ (not committed).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, ROOT, serveRefuses, startServer, TEST_TOKEN, type RunningServer } from "../server/serve-process.js";
import { hasChromium, launchChromium } from "./chromium.js";
import { MADE_UP, startStubModel, WRONG_WORD } from "./page-model.js";

/** The page's budget: every file of dist/web, in bytes (stated in docs/page.md). */
export const PAGE_BUDGET_BYTES = 64 * 1024;
const WEB = join(ROOT, "dist/web");
const SHOTS = join(ROOT, "test/browser/screenshots/page");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

function dirBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
}

/** axe-core on the page as it is now: the serious and critical violations (none expected). */
async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const result = (await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ["violations"] }))) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

/** The highlighted words of the passage panel, its offsets, and the passage's words at those offsets. */
async function highlighted(page: Page): Promise<{ mark: string; start: number; end: number; atOffsets: string; node: string }> {
  return page.evaluate(() => {
    const mark = document.querySelector("#passage mark") as HTMLElement;
    const text = document.querySelector("#passage .passage-text")!.textContent!;
    const start = Number(mark.dataset.start), end = Number(mark.dataset.end);
    return { mark: mark.textContent!, start, end, atOffsets: text.slice(start, end), node: document.querySelector("#passage code")!.textContent! };
  });
}

describe.skipIf(!hasChromium)("the page at / (Chromium, a real server, a stub model)", () => {
  let server: RunningServer;
  let model: Awaited<ReturnType<typeof startStubModel>>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let scratch: string;
  const urls: string[] = [];
  const authorized: string[] = [];
  const cspErrors: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    expect(statSync(join(WEB, "index.html")).isFile()).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), "groundwire-page-"));
    const history = join(scratch, "awesome");
    mkdirSync(history);
    copyFileSync(join(ROOT, "test/fixtures/evidence/awesome-v000.input.md"), join(history, "v000.md"));
    copyFileSync(join(ROOT, "test/fixtures/evidence/awesome-v001.md"), join(history, "v001.md"));
    copyFileSync(join(ROOT, "test/fixtures/evidence/awesome-v002.md"), join(history, "v002.md"));
    model = await startStubModel();
    [server, browser] = await Promise.all([startServer(["--quiet", "--base-url", model.baseUrl, "--model", "stub-7b", "--history", history]), launchChromium()]);
    page = await browser.context.newPage();
    page.on("request", (r) => {
      urls.push(r.url());
      if (r.headers().authorization) authorized.push(r.url());
    });
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("is served with its types and a strict CSP, keeps the server's Origin check, and fits its budget", async () => {
    const r = await fetch(`${server.url}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await r.text())![1]!;
    expect((await fetch(`${server.url}${script}`)).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    // a foreign page can neither load it nor call the API; the API still wants the token
    expect((await fetch(`${server.url}/`, { headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect((await call(server.url, "GET", "/books", undefined, { authorization: "" })).status).toBe(401);
    const bytes = dirBytes(WEB);
    expect(bytes).toBeLessThan(PAGE_BUDGET_BYTES);
    console.log(`page size: ${bytes} bytes of dist/web (budget ${PAGE_BUDGET_BYTES})`);
  });

  it("the page's routes answer their errors in words, and serve refuses a --history folder with no version", async () => {
    const missing = await call(server.url, "GET", "/histories/awesome/v009.md");
    expect([missing.status, missing.json.error.code, missing.json.error.message]).toEqual([404, "not_found", 'no history version "awesome/v009.md" (GET /histories lists them)']);
    const node = await call(server.url, "POST", "/passages/show", { node: "novel/frankenstein#chapter-99-1" });
    expect([node.status, node.json.error.message]).toEqual([404, 'no passage "novel/frankenstein#chapter-99-1" in novel/frankenstein']);
    expect((await call(server.url, "POST", "/locate", { quote: "a dreary night", book: "novel/frankenstien" })).json.error.message).toBe('unknown book "novel/frankenstien"; did you mean "novel/frankenstein"?');
    expect((await call(server.url, "POST", "/locate", { quote: "a", book: "novel/frankenstein", limit: 0 })).json.error).toMatchObject({ code: "bad_request", message: expect.stringMatching(/^limit: /) });
    const plain = await fetch(`${server.url}/locate`, { method: "POST", headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "text/plain" }, body: "quote" });
    expect([plain.status, (await plain.json()).error.code]).toEqual([415, "unsupported_media_type"]);
    expect((await call(server.url, "POST", "/locate", "{not json")).json.error).toMatchObject({ code: "bad_request", message: "Malformed JSON in request body" });
    // the API's one JSON validator: a body nested past the depth bound is refused naming its field
    const deep = await call(server.url, "POST", "/passages/show", `{"node":"x","quotes":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    expect([deep.status, deep.json.error.code, deep.json.error.message]).toEqual([400, "bad_request", expect.stringMatching(/^quotes: nested deeper than /)]);
    expect((await call(server.url, "GET", "/books/passages?book=novel/frankenstein&limit=9999")).json.error.message).toMatch(/^limit: /);
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    const refused = await serveRefuses(["--port", "0", "--history", empty]);
    expect([refused.code, refused.stderr]).toEqual([2, `groundwire serve: --history ${empty}: no .md or .txt file in it\n`]);
  });

  it("without the token shows the API's message; with it (kept for the tab) the library loads", async () => {
    await page.goto(`${server.url}/#library`);
    await expect.poll(() => page.textContent("#main .error")).toContain("missing or wrong bearer token");
    await page.fill("#token", TEST_TOKEN);
    await page.press("#token", "Enter");
    await page.waitForSelector("ul.books button.book");
    expect(await page.evaluate(() => sessionStorage.getItem("groundwire.token"))).toBe(TEST_TOKEN);
    expect(await page.inputValue("#token")).toBe("");
  });

  it("library: books, passages by label, a passage, and locate's diff with its span highlighted", async () => {
    expect(await page.locator("ul.books button.book").count()).toBe(2);
    await page.click('button.book[data-key="novel/frankenstein"]');
    await page.fill('input[name="label"]', "Chapter 5");
    await expect.poll(() => page.textContent(".browse [role=status]")).toBe("13 passages");
    await page.click('ol.passages button[data-node="novel/frankenstein#chapter-5-1"]');
    await expect.poll(() => page.textContent("#passage h2")).toBe("Chapter 5, part 1");
    await page.fill('input[name="quote"]', "on a dreary night in November");
    await page.press('input[name="quote"]', "Enter");
    await page.waitForSelector(".located li.span");
    const first = page.locator(".located li.span").first();
    expect(await first.locator("button").textContent()).toBe("Chapter 5, part 1");
    expect(await first.locator(".diff-body del").allTextContents()).toEqual(["in"]);
    expect(await first.locator(".diff-body ins").allTextContents()).toEqual(["of"]);
    await first.locator("button").focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("#passage[aria-busy=false] mark");
    const h = await highlighted(page);
    const api = (await call(server.url, "POST", "/locate", { quote: "on a dreary night in November", book: "novel/frankenstein" })).json.spans[0];
    expect([h.start, h.end, h.mark]).toEqual([api.start, api.end, "on a dreary night of November"]);
    expect(h.atOffsets).toBe(h.mark);
    expect(await axe(page)).toEqual([]);
    await shot(page, "library");
  });

  it("moots: turns arrive, quotes marked by verdict, a snap as a diff, the passage highlighted; charts; saved and reopened", async () => {
    await page.click("#tab-library");
    await page.waitForFunction(() => document.activeElement?.id === "tab-library"); // the keys go to the focused tab
    await page.keyboard.press("ArrowLeft"); // tabs are keyboard operable: Library → History
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.getAttribute("#tab-moots", "aria-selected")).toBe("true");
    await page.selectOption('select[name="a"]', "novel/frankenstein");
    await page.selectOption('select[name="b"]', "diary/pepys-1660");
    await page.fill('input[name="turns"]', "2");
    const release = model.hold(); // the model answers once the turn in progress has been seen
    await page.click("form[aria-label='Start a moot'] button[type=submit]");
    // a second tab watches the same moot: its turns come on the event stream, as they are spoken
    const watcher = await browser.context.newPage();
    const streams: Array<{ url: string; auth: boolean; type: string }> = [];
    watcher.on("response", (r) => {
      if (r.url().endsWith("/events")) streams.push({ url: r.url(), auth: Boolean(r.request().headers().authorization), type: r.headers()["content-type"] ?? "" });
    });
    watcher.on("request", (r) => urls.push(r.url()));
    watcher.on("pageerror", (e) => pageErrors.push(e.message));
    try {
      await page.waitForSelector('.turn.pending[data-turn="1"]'); // a turn in progress is shown
      await watcher.goto(`${server.url}/#moots`);
      await watcher.fill("#token", TEST_TOKEN);
      await watcher.press("#token", "Enter");
      await watcher.click("ul.saved button[data-id]");
      await watcher.waitForSelector('.turn.pending[data-turn="1"]'); // the stream's state: turn 1 is being spoken elsewhere
      // what the watcher shows at each change: the turns on screen | whether the moot is over
      await watcher.evaluate(() => {
        const seen: string[] = ((window as any).seen = []);
        const tops: number[] = ((window as any).tops = []);
        const note = () => {
          // where turn 1 is (its placeholder, then the turn in its place): nothing above it or it moves
          tops.push(Math.round(document.querySelector('article.turn[data-turn="1"]')!.getBoundingClientRect().top + window.scrollY));
          const now = `${Array.from(document.querySelectorAll("article.turn:not(.pending)")).map((a) => (a as HTMLElement).dataset.turn).join(",")}|${(document.querySelector(".transcript") as HTMLElement).dataset.done ?? ""}`;
          if (seen.at(-1) !== now) seen.push(now);
        };
        note();
        new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
    } finally {
      release();
    }
    await page.waitForSelector(".transcript[data-done=yes]", { timeout: 30_000 });
    await watcher.waitForSelector(".transcript[data-done=yes]", { timeout: 30_000 });
    // turn 1 was on the watcher's screen, alone, before the moot ended; then turn 2, then the end
    expect(await watcher.evaluate(() => (window as any).seen)).toEqual(["|", "1|", "1,2|", "1,2|yes"]);
    expect(new Set(await watcher.evaluate(() => (window as any).tops)).size).toBe(1); // no layout shift while the turns streamed
    expect(await watcher.locator("article.turn:not(.pending)").evaluateAll((els) => els.map((e) => e.querySelector("h3")!.textContent))).toEqual(await page.locator("article.turn:not(.pending)").evaluateAll((els) => els.map((e) => e.querySelector("h3")!.textContent)));
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((x) => x.auth && x.type === "text/event-stream" && !x.url.includes(TEST_TOKEN))).toBe(true);
    expect(await axe(watcher)).toEqual([]);
    await watcher.close();
    expect(await page.locator("article.turn:not(.pending)").count()).toBe(2);
    const turn1 = page.locator('article.turn[data-turn="1"]');
    for (const v of ["snapped", "misattributed", "unquoted"]) expect(await turn1.locator(`[role=button].q[data-verdict=${v}]`).count(), v).toBeGreaterThan(0);
    expect(await turn1.locator("[role=button].q[data-verdict=unquoted]").first().getAttribute("data-quote")).toBe(MADE_UP);

    // the near miss: the passage with the book's words highlighted at the API's offsets, and the word diff
    const snapped = turn1.locator("[role=button].q[data-verdict=snapped]").first();
    const quote = (await snapped.getAttribute("data-quote"))!;
    expect(await snapped.textContent()).toBe(`"${quote}"`); // the reply as written, its marks inside the button
    await snapped.focus();
    await page.keyboard.press("Enter"); // quotes are keyboard operable
    await page.waitForSelector("#passage[aria-busy=false] mark");
    const h = await highlighted(page);
    const shown = (await call(server.url, "POST", "/passages/show", { node: h.node, quotes: [quote] })).json;
    expect([h.start, h.end]).toEqual([shown.marks[0].start, shown.marks[0].end]);
    expect(h.mark).toBe(shown.content.slice(shown.marks[0].start, shown.marks[0].end));
    expect(h.atOffsets).toBe(h.mark);
    expect(await page.locator("#passage .diff-body del").allTextContents()).toEqual([WRONG_WORD]);
    expect(await page.locator("#passage .diff-body ins").allTextContents()).toEqual([model.replaced[0]]);
    expect(Number(await page.textContent("#passage .ratio"))).toBe(shown.marks[0].ratio);

    // the wrong tag: not in the cited passage, found in another one
    await turn1.locator("[role=button].q[data-verdict=misattributed]").first().click();
    await expect.poll(() => page.textContent("#passage .note")).toMatch(/^Not in the cited passage \(.+\); found in .+\.$/);
    expect((await highlighted(page)).atOffsets).toBe(await turn1.locator("[role=button].q[data-verdict=misattributed]").first().getAttribute("data-quote"));
    // the made-up quote: in neither
    await turn1.locator("[role=button].q[data-verdict=unquoted]").first().click();
    await expect.poll(() => page.textContent("#passage .note")).toContain("nor anywhere in the book");
    expect(await page.locator("#passage mark").count()).toBe(0);
    // a tag opens its passage
    const moot = (await call(server.url, "GET", "/moots")).json.moots[0];
    const dict = (await call(server.url, "GET", `/moots/${moot.id}`)).json;
    const tag = await turn1.locator("button.tag").first().getAttribute("data-tag");
    await turn1.locator("button.tag").first().click();
    await expect.poll(() => page.textContent("#passage h2")).toBe(dict.utterances[0].retrieved.find((r: { tag: string }) => r.tag === tag).label);
    // charts: one row per turn, the whole moot
    expect(await page.locator("svg.chart").count()).toBe(2);
    expect(await page.locator("svg.chart").first().locator("text").allTextContents()).toEqual(["turn 1", "turn 2"]);
    expect(await page.locator("svg.chart rect.v-snapped").count()).toBeGreaterThan(0);
    // the server's whole-moot totals beside them
    expect(await page.textContent('dd[data-stat="quotes found"]')).toBe(`${dict.stats.quotesFound} of ${dict.stats.quotesTotal}`);
    expect(Number(await page.textContent('dd[data-stat="snapped"]'))).toBe(dict.stats.quotesSnapped);
    expect(dict.stats.quotesSnapped).toBeGreaterThan(0);
    expect(await axe(page)).toEqual([]);
    await shot(page, "moot");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axe(page)).toEqual([]);
    await shot(page, "moot-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // saved and reopened after a reload (the token kept for the tab)
    await page.reload();
    await page.click(`ul.saved button[data-id="${moot.id}"]`);
    await page.waitForSelector(".transcript[data-done=yes]");
    expect(await page.locator("article.turn").count()).toBe(2);
    expect(await page.textContent('article.turn[data-turn="2"] h3')).toBe(`Turn 2: ${dict.utterances[1].title}`);
  });

  it("check a reply: verdicts, the snap's diff, the corrected reply to copy", async () => {
    await page.click("#tab-check");
    await page.fill('textarea[name="reply"]', 'He wrote "on a dreary night in November" [s1]. And "the moon sang loudly over purple hills".');
    await page.selectOption("form[aria-label='Check a reply'] select", "novel/frankenstein");
    await page.click("form[aria-label='Check a reply'] button[type=submit]");
    await page.waitForSelector(".result textarea.corrected");
    expect(await page.inputValue(".result textarea.corrected")).toBe('He wrote "on a dreary night of November" [s1]. And the moon sang loudly over purple hills.');
    expect(await page.locator(".result [role=button].q").evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.quote, (e as HTMLElement).dataset.verdict]))).toEqual([
      ["on a dreary night in November", "snapped"],
      ["the moon sang loudly over purple hills", "unquoted"],
    ]);
    await page.click(".result [role=button].q[data-verdict=snapped]");
    await page.waitForSelector("#passage[aria-busy=false] mark");
    expect((await highlighted(page)).mark).toBe("on a dreary night of November");
    expect(await page.locator("#passage .diff-body del").allTextContents()).toEqual(["in"]);
    expect(await page.locator("#passage .diff-body ins").allTextContents()).toEqual(["of"]);
    expect(await axe(page)).toEqual([]);
    await shot(page, "check");

    // against pasted passages (s1, s2… by paragraph): the near miss cites s1 but is s2's, snapped; the passage highlighted
    const passages = ["The ship sailed north through ice and fog for many weeks.", "It was on a dreary night of November that I beheld the accomplishment of my toils."];
    const pastedReply = 'He wrote "on a dreary night in November" [s1]. And "the moon sang loudly over purple hills" [s2].';
    await page.check("input[type=radio][value=passages]");
    expect(await page.isVisible("form[aria-label='Check a reply'] select")).toBe(false);
    await page.fill('textarea[name="reply"]', pastedReply);
    await page.fill('textarea[name="passages"]', passages.join("\n\n"));
    await page.click("form[aria-label='Check a reply'] button[type=submit]");
    const verified = (await call(server.url, "POST", "/quotes/verify", { reply: pastedReply, passages })).json;
    await expect.poll(() => page.inputValue(".result textarea.corrected")).toBe(verified.snapped);
    expect(await page.locator(".result [role=button].q").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.verdict))).toEqual(["snapped", "unquoted"]);
    await page.locator(".result [role=button].q[data-verdict=snapped]").focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("#passage[aria-busy=false] mark");
    expect(await page.textContent("#passage h2")).toBe("s2");
    expect(await page.textContent("#passage .note")).toBe("Not in the cited passage (s1); found in s2.");
    const pastedMark = await page.evaluate(() => {
      const mark = document.querySelector("#passage mark") as HTMLElement;
      return { mark: mark.textContent, at: document.querySelector("#passage .passage-text")!.textContent!.slice(Number(mark.dataset.start), Number(mark.dataset.end)) };
    });
    expect(pastedMark).toEqual({ mark: "on a dreary night of November", at: "on a dreary night of November" });
    expect(await page.locator("#passage .diff-body del").allTextContents()).toEqual(["in"]);
    await page.locator(".result [role=button].q[data-verdict=unquoted]").click();
    await expect.poll(() => page.textContent("#passage .note")).toMatch(/^These words are in no pasted passage \(best window ratio 0\.\d+, in s\d\)\.$/);
    expect(await axe(page)).toEqual([]);
    await shot(page, "check-passages");
  });

  it("history: a --history folder's timeline, and two pasted versions showing current, moved, stale and lost", async () => {
    await page.click("#tab-history");
    await page.click("form[aria-label='A history of the server'] button[type=submit]");
    await page.waitForSelector("table.timeline");
    expect(await page.locator("table.timeline thead th").allTextContents()).toEqual(["Fragment of the first version", "v000.md", "v001.md", "v002.md"]);
    // a version's fragment tree, as POST /fragments gives it
    await page.click('table.timeline thead button[data-version="v002.md"]');
    const fragments = (await call(server.url, "POST", "/fragments", { text: readFileSync(join(ROOT, "test/fixtures/evidence/awesome-v002.md"), "utf8"), artifactId: "document" })).json.fragments;
    await expect.poll(() => page.textContent(".tree h3")).toBe(`Fragments of v002.md (${fragments.length})`);
    expect(await page.locator("ul.fragments li").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.path))).toEqual(fragments.map((f: { path: string }) => f.path));
    const cells = await page.locator("table.timeline td").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.status));
    expect(cells.length).toBe(3 * (await page.locator("table.timeline tbody tr").count()));
    await page.fill('textarea[name="first"]', "# Notes\n\nAlpha stays here unchanged.\n\n## Tools\n\nBeta will move to another section.\n\nGamma will be edited later.\n\n## Links\n\nDelta will be removed.\n");
    await page.fill('textarea[name="second"]', "# Notes\n\nAlpha stays here unchanged.\n\n## Tools\n\nGamma was edited since.\n\n## Links\n\nSee the list below.\n\n## Moved\n\nBeta will move to another section.\n");
    await page.click("form[aria-label='Two pasted versions'] button[type=submit]");
    await expect.poll(() => page.textContent("table.timeline caption")).toBe("7 citations of first across 2 versions");
    const later = await page.locator("table.timeline tbody tr").evaluateAll((rows) => rows.map((r) => [r.querySelector("th")!.textContent, r.querySelectorAll("td")[1]!.textContent]));
    expect(later).toEqual([
      ["section Notes", "stale"],
      ["paragraph Alpha stays here unchanged.", "current"],
      ["section Tools", "stale"],
      ["paragraph Beta will move to another section.", "moved → section:notes/section:moved/paragraph:1"],
      ["paragraph Gamma will be edited later.", "lost"],
      ["section Links", "stale"],
      ["paragraph Delta will be removed.", "stale"],
    ]);
    // the moved citation drawn to its new place: an arrow from its address in the first version to the new one
    const firstText = await page.inputValue('textarea[name="first"]');
    const beta = (await call(server.url, "POST", "/fragments", { text: firstText, artifactId: "document" })).json.fragments.find((f: { text: string }) => f.text.startsWith("Beta")).path;
    const moved = page.locator('figure.moves-wrap[data-version="later"]');
    expect(await moved.locator("figcaption").textContent()).toBe("1 citation moved in later");
    const arrow = await moved.locator("line.arrow").evaluateAll((els) => els.map((e) => ({ from: e.getAttribute("data-from"), to: e.getAttribute("data-to"), x1: Number(e.getAttribute("x1")), y1: Number(e.getAttribute("y1")), x2: Number(e.getAttribute("x2")), y2: Number(e.getAttribute("y2")) })));
    expect(arrow.map((a) => [a.from, a.to])).toEqual([[beta, "section:notes/section:moved/paragraph:1"]]);
    const ends = await moved.evaluate((fig, a) => {
      const at = (sel: string) => fig.querySelector(sel) as SVGTextElement;
      const from = at(`text[data-from="${a.from}"]`), to = at(`text[data-to="${a.to}"]`);
      const box = (t: SVGTextElement) => t.getBBox();
      return { fromRight: box(from).x + box(from).width, fromY: Number(from.getAttribute("y")), toLeft: box(to).x, toY: Number(to.getAttribute("y")), fromText: from.firstChild!.textContent, toText: to.firstChild!.textContent };
    }, arrow[0]!);
    // it starts right of the old address, on its row, and ends left of the new one, on its row
    expect(ends.fromRight).toBeLessThanOrEqual(arrow[0]!.x1);
    expect(ends.toLeft).toBeGreaterThanOrEqual(arrow[0]!.x2);
    expect([ends.fromY - 4, ends.toY - 4]).toEqual([arrow[0]!.y1, arrow[0]!.y2]);
    expect([ends.fromText, ends.toText]).toEqual([beta, "section:notes/section:moved/paragraph:1"]);
    expect(await moved.locator("svg").isVisible()).toBe(true);
    expect(await moved.locator("line.arrow").evaluate((l) => [(l as SVGLineElement).getTotalLength() > 50, getComputedStyle(l).stroke !== "none", l.getAttribute("marker-end")!.startsWith("url(#")])).toEqual([true, true, true]);
    expect(await axe(page)).toEqual([]);
    await shot(page, "history");
  });

  it("works at phone width with nothing wider than the screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#tab-moots");
    await page.waitForSelector("ul.saved button");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axe(page)).toEqual([]);
    await shot(page, "moots-phone");
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it("never put the token in a URL, sent it on every API call, and broke neither its CSP nor itself", () => {
    expect(urls.filter((u) => u.includes(TEST_TOKEN))).toEqual([]);
    expect(authorized.some((u) => u.endsWith("/moots"))).toBe(true);
    expect(cspErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
