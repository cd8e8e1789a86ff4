// No request stalls another (issue 30): real `groundwire serve` processes from dist/, hostile
// payloads that are cheap to send and were costly to handle, each answered with its bound
// (413/422 `limit` naming the flag, 503 `busy` past the cap), and /health answering within a
// stated bound while four of them run at once.
// npm test runs every bound and guarantee on a sample of its inputs (the RDF list and the scope
// graph for --max-triples, one answer over --max-output-chars, paragraphs and plain text for
// --max-fragments, one document over --check-timeout, one hostile check again while a moot turn
// is answered); npm run test:deep (test/depth.ts) runs every input.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, startServer, type RunningServer } from "./serve-process.js";
import { spread } from "../depth.js";

/** /health must answer within this while hostile requests run (the bound the issue asks to state). */
const HEALTH_BOUND_MS = 2_000;

const listGraph = (items: number) => ({ graph: { text: `<urn:s> <urn:p> (${" 1".repeat(items)}) .` } });
/** Four requests that were costly to handle: the 2 MB list graph, the whitespace reply, a list of 400,000 items, 1001 nested quotes. */
const HOSTILE: Array<[string, unknown]> = [
  ["/graph/index", listGraph(1_040_000)],
  ["/quotes/verify", { reply: `"one two three"${" ".repeat(99_900)}x`, passages: ["one two three four"] }],
  ["/fragments", { text: "- a\n".repeat(400_000) }],
  ["/fragments", { text: `${"> ".repeat(1001)}x` }],
];

async function healthLatencies(during: Promise<unknown>): Promise<number[]> {
  let done = false;
  void during.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t = performance.now();
    const { status } = await call(server.url, "GET", "/health");
    expect(status).toBe(200);
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  return out;
}

let server: RunningServer;

describe.skipIf(!existsSync(CLI))("serve under hostile checks (dist/cli.js)", () => {
  /** A tight server: one worker, one check at a time, small budgets, so each bound is reached on purpose. */
  let tight: RunningServer;

  beforeAll(async () => {
    [server, tight] = await Promise.all([
      // two workers (the default on 2 cores), so the four hostile checks are under --max-checks (2 × workers)
      startServer(["--check-workers", "2"]),
      startServer(["--check-workers", "1", "--max-checks", "1", "--check-timeout", "1500", "--max-triples", "10000000", "--max-output-chars", "100000"]),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), tight?.stop()]);
  });

  it("a graph of too many triples answers 422 limit naming --max-triples, stopped inside the parse", async () => {
    // an RDF list (2 triples an item), an object list (1 a value), a list in the scope graph
    // (npm test: the RDF list and the scope graph; npm run test:deep (test/depth.ts): all three)
    for (const body of spread([
      listGraph(1_040_000),
      { graph: { text: `<urn:s> <urn:p> 1${", 1".repeat(600_000)} .` } },
      { graph: { text: "<urn:s> <urn:p> <urn:o> ." }, scope: listGraph(200_000).graph },
    ], 2)) {
      const { status, json } = await call(server.url, "POST", "/graph/index", body);
      expect(status).toBe(422);
      expect(json.error.code).toBe("limit");
      expect(json.error.message).toMatch(/over the limit of 100,000 triples .*--max-triples/);
    }
    // the same bound holds for a schema given inline
    const schema = await call(server.url, "POST", "/sparql/check", { schema: { text: `<urn:s> <urn:p> (${" 1".repeat(60_000)}) .` }, query: "SELECT * WHERE { ?s ?p ?o }" });
    expect(schema.status).toBe(422);
    expect(schema.json.error.message).toMatch(/--max-triples/);
  });

  it("an answer over --max-output-chars answers 422 limit naming it; a long literal under it is answered", async () => {
    const literal = { graph: { text: `<urn:s> <urn:p> "${"a".repeat(1_900_000)}" .` } };
    const ok = await call(server.url, "POST", "/graph/index", literal);
    expect(ok.status).toBe(200);
    expect(ok.json.tripleCount).toBe(1);
    // over 100,000 characters of answer, and quick to index (the tight server's 1.5 s budget is not this test's bound)
    // (npm test: the long literal; npm run test:deep (test/depth.ts): 5,000 triples too)
    const overOutput = { graph: { text: `<urn:s> <urn:p> "${"a".repeat(150_000)}" .` } };
    for (const body of spread([overOutput, { graph: { text: Array.from({ length: 5000 }, (_, i) => `<urn:s> <urn:p> <urn:o${i}> .`).join("\n") } }], 1)) {
      const { status, json } = await call(tight.url, "POST", "/graph/index", body);
      expect(status).toBe(422);
      expect(json.error).toMatchObject({ code: "limit" });
      expect(json.error.message).toMatch(/the answer: [\d,]+ characters: over the limit of 100,000 characters .*--max-output-chars/);
    }
  });

  it("a document of too many fragments answers 422 limit naming --max-fragments", async () => {
    // npm test: markdown paragraphs and plain text; npm run test:deep (test/depth.ts): headings too
    for (const body of spread([{ text: "a\n\n".repeat(30_000) }, { text: "# h\n".repeat(25_000) }, { text: "a\n\n".repeat(30_000), mediaType: "text/plain" }], 2)) {
      const { status, json } = await call(server.url, "POST", "/fragments", body);
      expect(status).toBe(422);
      expect(json.error.message).toMatch(/over the limit of 20,000 fragments .*--max-fragments/);
    }
    const cite = await call(server.url, "POST", "/citations/resolve", { text: "a\n\n".repeat(30_000), citations: ["document/paragraph:1#sha256:" + "0".repeat(64)] });
    expect(cite.status).toBe(422);
    expect(cite.json.error.message).toMatch(/--max-fragments/);
  });

  it("a query over --max-query-chars answers 422 limit naming it", async () => {
    const schema = { text: "@prefix ex: <http://e/> . ex:a a <http://www.w3.org/2002/07/owl#Class> ." };
    for (const query of [`SELECT * WHERE { ${"?s ?p ?o . ".repeat(6000)}}`, `SELECT * WHERE { ?s ?p ?o }\n#${"x".repeat(60_000)}`]) {
      const { status, json } = await call(server.url, "POST", "/sparql/check", { schema, query });
      expect(status).toBe(422);
      expect(json.error.message).toMatch(/over the limit of 50,000 characters .*--max-query-chars/);
    }
  });

  it("replies built on a regex's worst run are answered at once (linear regexes)", async () => {
    for (const reply of [`"one two three"${" ".repeat(99_900)}x`, `"one two three"${"\t".repeat(99_900)},O0]`, `"one two three" ${". ".repeat(49_000)}[s1`, `${"[s1".repeat(30_000)}`]) {
      const { status, json } = await call(server.url, "POST", "/quotes/verify", { reply, passages: ["one two three four"] });
      expect(status).toBe(200);
      expect(json.grounding.quotesTotal).toBeLessThanOrEqual(1);
    }
  });

  it("a check over its time budget answers 422 limit naming --check-timeout, and the next check is answered", async () => {
    // npm test: the "-" list; npm run test:deep (test/depth.ts): the "*" list too
    for (const body of spread([{ text: "- a\n".repeat(400_000) }, { text: "* b\n".repeat(350_000) }], 1)) {
      const { status, json } = await call(tight.url, "POST", "/fragments", body);
      expect(status).toBe(422);
      expect(json.error.message).toMatch(/fragmentDocumentBody: the check ran over its time budget: over the limit of 1,500 ms .*--check-timeout/);
    }
    const slowGraph = await call(tight.url, "POST", "/graph/index", listGraph(1_040_000));
    expect(slowGraph.status).toBe(422);
    expect(slowGraph.json.error.message).toMatch(/indexGraph: the check ran over its time budget/);
    // the aborted worker was replaced: a small check is answered (on a loaded machine the
    // replacement's start-up can itself pass the 1.5 s budget, so a few tries are allowed)
    let ok = await call(tight.url, "POST", "/fragments", { text: "# Title\n\nA paragraph.\n" });
    for (let i = 0; i < 5 && ok.status === 422; i++) ok = await call(tight.url, "POST", "/fragments", { text: "# Title\n\nA paragraph.\n" });
    expect(ok.status).toBe(200);
    expect(ok.json.fragments.map((f: { kind: string }) => f.kind)).toEqual(["section", "paragraph"]);
  });

  it("past --max-checks a check answers 503 overloaded with Retry-After", async () => {
    const freePlace = async () => {
      // an aborted check may still hold the place: wait until a small check passes
      for (let i = 0; i < 200 && (await call(tight.url, "POST", "/fragments", { text: "x\n" })).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
    };
    // The slow check holds the one place from when its body has arrived until its time budget ends;
    // a small check sent meanwhile may arrive first and take the place itself (the slow one is then
    // the refused one). Up to five rounds until the slow check holds the place.
    for (let round = 0; round < 5; round++) {
      await freePlace();
      let settled = false;
      const slow = call(tight.url, "POST", "/fragments", { text: "- a\n".repeat(400_000) }).finally(() => (settled = true));
      let first = await call(tight.url, "POST", "/quotes/verify", { reply: "x", passages: ["y"] });
      while (first.status !== 503 && !settled) {
        await new Promise((r) => setTimeout(r, 25));
        first = await call(tight.url, "POST", "/quotes/verify", { reply: "x", passages: ["y"] });
      }
      const second = await call(tight.url, "POST", "/fragments", { text: "# T\n\nA paragraph.\n" });
      const slowAnswer = await slow;
      if (slowAnswer.status === 503) continue; // the small check took the place first: another round
      for (const busy of [first, ...(second.status === 200 ? [] : [second])]) {
        expect(busy.status).toBe(503);
        expect(busy.json.error.code).toBe("overloaded");
        expect(busy.json.error.message).toMatch(/--max-checks/);
        expect(busy.headers.get("retry-after")).toBe("1");
      }
      expect(slowAnswer.status).toBe(422);
      return;
    }
    throw new Error("in five rounds the slow check never held the place");
  });

  it(`answers /health within ${HEALTH_BOUND_MS} ms while four hostile checks run, and each of them with a bound`, async () => {
    const hostile = Promise.all(HOSTILE.map(([path, body]) => call(server.url, "POST", path, body)));
    const latencies = await healthLatencies(hostile);
    const answers = await hostile;
    expect(latencies.length).toBeGreaterThan(3);
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_BOUND_MS);
    expect(answers.map((a) => a.status)).toEqual([422, 200, 422, expect.any(Number)]);
    expect(answers[0]!.json.error.message).toMatch(/--max-triples/);
    expect(answers[2]!.json.error.message).toMatch(/--check-timeout|--max-fragments/);
    // a moot turn is answered meanwhile too (the moots stay on the main loop)
    // (npm test: while the list graph runs again; npm run test:deep (test/depth.ts): and the 400,000-item list)
    const again = Promise.all(spread(HOSTILE.slice(0, 1).concat(HOSTILE.slice(2, 3)), 1).map(([path, body]) => call(server.url, "POST", path, body)));
    const created = await call(server.url, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "fire", turns: 2 });
    expect(created.status).toBe(201);
    const turn = await call(server.url, "POST", `/moots/${created.json.id}/turns`);
    expect(turn.status).toBe(200);
    await again;
  }, 120_000);

  it("the MCP tools over HTTP take the same pool and bounds", async () => {
    const headers = { accept: "application/json, text/event-stream" };
    const { status, json } = await call(
      server.url,
      "POST",
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "index_graph", arguments: listGraph(1_040_000) } },
      headers,
    );
    expect(status).toBe(200);
    expect(json.result.isError).toBe(true);
    expect(json.result.content[0].text).toMatch(/^limit: graph: the graph: over the limit of 100,000 triples .*--max-triples/);
  });
});

describe("the work bounds as library options", () => {
  it("parseGraph / parseQuads stop at maxTriples (an RDF list item is two), and have no bound by default", async () => {
    const { parseGraph, parseQuads, WorkLimitError, GroundwireError, fragmentMarkdown, fragmentPlainText } = await import("../../ts/node.js");
    const text = `<urn:s> <urn:p> (${" 1".repeat(50)}) .`;
    expect(parseQuads(text).quads.length).toBe(101);
    expect(parseQuads(text, { maxTriples: 101 }).quads.length).toBe(101);
    for (const parse of [() => parseGraph(text, { maxTriples: 100, source: "g.ttl" }), () => parseQuads(text, { maxTriples: 100, source: "g.ttl" })]) {
      let error: unknown;
      try {
        parse();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WorkLimitError);
      expect(error).toBeInstanceOf(GroundwireError);
      expect(error).toMatchObject({ code: "limit", status: 422, bound: "maxTriples", limit: 100 });
      expect((error as Error).message).toBe("g.ttl: the graph: over the limit of 100 triples (raise it with the option maxTriples, or --max-triples of groundwire serve and mcp)");
    }
    expect(() => parseGraph(text, { maxTriples: 0 })).toThrow("parseGraph: options.maxTriples must be a whole number ≥ 1 (or Infinity), got 0");

    const doc = "a\n\nb\n\nc\n";
    expect(fragmentMarkdown("d", doc).length).toBe(3);
    expect(fragmentMarkdown("d", doc, { maxFragments: 3 }).length).toBe(3);
    expect(() => fragmentMarkdown("d", doc, { maxFragments: 2 })).toThrow(/^d: the document: over the limit of 2 fragments .*--max-fragments/);
    expect(() => fragmentPlainText("d", doc, { maxFragments: 2 })).toThrow(WorkLimitError);
  });
});
