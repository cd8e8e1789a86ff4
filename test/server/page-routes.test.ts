// The page's matching routes (POST /locate, POST /passages/show) run in the check pool, not on
// the event loop: a real `groundwire serve` from dist/ with one check worker; while a locate
// that searches past the check's time budget runs, GET /health answers first; the locate then
// answers 422 `limit` naming --check-timeout; a quote past the matcher's bound is refused 413
// `too_large` naming MAX_QUOTE_WORDS before any search.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, startServer, type RunningServer } from "./serve-process.js";

let server: RunningServer;

describe.skipIf(!existsSync(CLI))("the page's matching routes in the check pool (dist/cli.js)", () => {
  beforeAll(async () => {
    server = await startServer(["--quiet", "--check-workers", "1", "--check-timeout", "2000"]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answer spans and marks from the worker, with the passages' labels and the word diff", async () => {
    const located = await call(server.url, "POST", "/locate", { quote: "on a dreary night in November", book: "novel/frankenstein", limit: 1 });
    expect(located.status).toBe(200);
    const span = located.json.spans[0];
    expect([span.label, span.node, span.text, span.ratio]).toEqual(["Chapter 5, part 1", "novel/frankenstein#chapter-5-1", "on a dreary night of November", 0.931]);
    expect(span.diff).toEqual([
      { op: "=", text: "on a dreary night" },
      { op: "-", text: "in" },
      { op: "+", text: "of" },
      { op: "=", text: "November" },
    ]);
    const shown = await call(server.url, "POST", "/passages/show", { node: span.node, quotes: ["on a dreary night in November"] });
    expect(shown.status).toBe(200);
    expect(shown.json.content.slice(shown.json.marks[0].start, shown.json.marks[0].end)).toBe("on a dreary night of November");
    expect([shown.json.marks[0].start, shown.json.marks[0].end]).toEqual([span.start, span.end]);
  });

  it("a locate that runs long never holds /health, and is stopped at the check's budget", async () => {
    const content: string = (await call(server.url, "POST", "/passages/show", { node: "novel/frankenstein#chapter-5-1" })).json.content;
    // the book's own words backwards: every window scores low, so the search at 0.4 cannot stop early
    const quote = content.split(/\s+/).filter(Boolean).slice(0, 150).reverse().join(" ");
    const order: string[] = [];
    const locate = call(server.url, "POST", "/locate", { quote, book: "novel/frankenstein", minRatio: 0.4, limit: 50 }).then((r) => (order.push("locate"), r));
    await new Promise((r) => setTimeout(r, 300)); // the locate is in the worker by now
    const health = await call(server.url, "GET", "/health");
    order.push("health");
    expect(health.status).toBe(200);
    const slow = await locate;
    expect(order).toEqual(["health", "locate"]);
    expect([slow.status, slow.json.error.code]).toEqual([422, "limit"]);
    expect(slow.json.error.message).toMatch(/^locateQuote: the check ran over its time budget: over the limit of 2,000 ms .*--check-timeout/);
    // the pool replaced its worker: the next locate is answered
    expect((await call(server.url, "POST", "/locate", { quote: "on a dreary night in November", book: "novel/frankenstein", limit: 1 })).json.spans[0].ratio).toBe(0.931);
  });

  it("a quote past the matcher's bound is refused, named, before any search", async () => {
    const quote = Array.from({ length: 201 }, (_, i) => `word${i}`).join(" ");
    const located = await call(server.url, "POST", "/locate", { quote, book: "novel/frankenstein" });
    expect([located.status, located.json.error.code, located.json.error.message]).toEqual([413, "too_large", "quote has 201 words, more than MAX_QUOTE_WORDS (200); too long to locate"]);
    const shown = await call(server.url, "POST", "/passages/show", { node: "novel/frankenstein#chapter-5-1", quotes: [quote] });
    expect([shown.status, shown.json.error.code]).toEqual([413, "too_large"]);
    expect(shown.json.error.message).toMatch(/^quote has 201 words, more than MAX_QUOTE_WORDS \(200\)/);
    // past the schema's bound: 400, naming the field
    const huge = await call(server.url, "POST", "/locate", { quote: "a".repeat(5_001), book: "novel/frankenstein" });
    expect([huge.status, huge.json.error.code]).toEqual([400, "bad_request"]);
    expect(huge.json.error.message).toMatch(/^quote: /);
  });
});
