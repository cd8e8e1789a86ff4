// `groundwire mcp` from the built CLI, driven by the MCP SDK's own Client over stdio; and the
// same tools at /mcp of `groundwire serve` over Streamable HTTP.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, startServer } from "./serve-process.js";

const GRAPH = fileURLToPath(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../fixtures/kernel/olympics.ttl", import.meta.url));
const BOOK = fileURLToPath(new URL("../fixtures/memdsl/schema-book.input.ttl", import.meta.url));
const TOOL_NAMES = ["apply_critique", "check_sparql", "explore_schema", "fragment_markdown", "index_graph", "render_neighborhood", "resolve_citations", "run_sparql", "search_book", "verify_quotes"];

/** A tools/call request (id 7) whose `ops` argument is `depth` arrays deep, as JSON text. */
const deepCall = (depth: number) =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"check_sparql","arguments":{"ops":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;

type Result = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

describe.skipIf(!existsSync(CLI))("groundwire mcp over stdio (dist/cli.js; run `npm run build` first)", () => {
  const client = new Client({ name: "groundwire-test", version: "1.0.0" });
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--graph", `mountains=${GRAPH}`, "--graph", `book=${BOOK}`, "--schema", `olympics=${SCHEMA}`],
      cwd: ROOT,
      stderr: "pipe",
    });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => client.close());

  it("lists the ten tools, each with a description and an object input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe("object");
    }
    const critique = tools.find((t) => t.name === "apply_critique")!;
    expect(JSON.stringify(critique.inputSchema)).toContain('"remove"');
  });

  it("search_book and verify_quotes: passages of a book, then a quote checked against them", async () => {
    const search = await call("search_book", { text: "fire in the city", book: "diary/pepys-1660", k: 2 });
    expect(search.isError).toBeFalsy();
    const hits = search.structuredContent.hits;
    expect(hits).toHaveLength(2);
    expect(hits[0].node_id.startsWith("diary/pepys-1660#")).toBe(true);
    const words = hits[0].content.split(/\s+/).slice(0, 6).join(" ");
    const verified = await call("verify_quotes", { reply: `Pepys wrote "${words}" [s1].`, passages: [hits[0].content] });
    expect(verified.structuredContent).toMatchObject({ passes: true, grounding: { quotesFound: 1, quotesTotal: 1 } });
    expect(JSON.parse(verified.content[0]!.text!)).toEqual(verified.structuredContent);
    const unknown = await call("search_book", { text: "x", book: "novel/nope" });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/^not_found: unknown book "novel\/nope"/);
  });

  it("check_sparql, index_graph, apply_critique", async () => {
    const checked = await call("check_sparql", { query: "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hostd ?g }", schema: { name: "olympics" } });
    expect(checked.structuredContent.errors[0].message).toBe("unknown property ex:hostd (did you mean ex:hosted?)");
    const badOp = await call("check_sparql", { ops: [{ op: "tripel" }], schema: { name: "olympics" } });
    expect(badOp.isError).toBe(true);
    const index = await call("index_graph", { graph: { name: "mountains" } });
    expect(index.structuredContent.tripleCount).toBe(71);
    const applied = await call("apply_critique", { graph: { name: "mountains" }, fingerprint: index.structuredContent.numbering, critique: [{ op: "remove", tripleIds: [2] }] });
    expect(applied.structuredContent.removedCount).toBe(1);
    const drift = await call("apply_critique", { graph: { name: "mountains" }, fingerprint: "f".repeat(64), critique: [{ op: "remove", tripleIds: [2] }] });
    expect(drift.isError).toBe(true);
    expect(drift.content[0]!.text).toMatch(/^drift: /);
  });

  it("render_neighborhood, fragment_markdown, resolve_citations", async () => {
    const rendered = await call("render_neighborhood", { graph: { name: "book" }, focus: "schema:Book" });
    expect(rendered.structuredContent.text.split("\n")[0]).toBe("memdsl 1");
    const text = readFileSync(new URL("../fixtures/evidence/awesome-v001.md", import.meta.url), "utf8");
    const fragments = await call("fragment_markdown", { text, artifactId: "awesome" });
    const list = fragments.structuredContent.fragments;
    expect(list.length).toBeGreaterThan(10);
    const resolved = await call("resolve_citations", { text, artifactId: "awesome", citations: [list[3].versionId] });
    expect(resolved.structuredContent.reports[0].status).toBe("current");
  });

  it("an error text escapes what it echoes: ESC, bidi controls and lone surrogates as visible escapes", async () => {
    const text = readFileSync(new URL("../fixtures/evidence/awesome-v001.md", import.meta.url), "utf8");
    const refused = await call("resolve_citations", { text, artifactId: "awesome", citations: ["zz\u202e\u2066\u001b[2J\ud800"] });
    expect(refused.isError).toBe(true);
    const message = refused.content[0]!.text!;
    expect(message).toBe('bad_request: not a citation: "zz\\u202E\\u2066\\u001b[2J\\ud800" (expected <fragmentId>#sha256:<hex>)');
    expect(message).not.toMatch(/[\u001b\u202e\u2066\ufffd]|[\uD800-\uDFFF]/u);
  });
});

describe.skipIf(!existsSync(CLI))("the MCP tools at /mcp of groundwire serve (Streamable HTTP)", () => {
  it("lists and calls the tools, behind the bearer token", async () => {
    const server = await startServer([], { GROUNDWIRE_TOKEN: "mcp-token" });
    const client = new Client({ name: "groundwire-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: "Bearer mcp-token" } } }));
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      const r = (await client.callTool({ name: "search_book", arguments: { text: "monster", book: "novel/frankenstein", k: 1 } })) as Result;
      expect(r.structuredContent.hits[0].node_id.startsWith("novel/frankenstein#")).toBe(true);
      // arguments nested 20,000 deep (written as text: the SDK's client cannot even serialize them)
      const deep = await fetch(`${server.url}/mcp`, {
        method: "POST",
        body: deepCall(20_000),
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer mcp-token" },
      });
      expect(await deep.json()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "params nested deeper than 1,000 levels of arrays and objects" } });
      const denied = await fetch(`${server.url}/mcp`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      expect(denied.status).toBe(401);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("groundwire mcp over stdio: a request nested 20,000 deep", () => {
  it("gets JSON-RPC's invalid-params error naming the limit (the SDK's argument validation overflowed the stack), and the server goes on", async () => {
    const child = spawn(process.execPath, [CLI, "mcp"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    const lines: string[] = [];
    let buffer = "";
    const next = () =>
      new Promise<string>((resolve, reject) => {
        const tick = () => {
          const i = buffer.indexOf("\n");
          if (i >= 0) {
            const line = buffer.slice(0, i);
            buffer = buffer.slice(i + 1);
            resolve(line);
          } else setTimeout(tick, 20);
        };
        child.once("exit", (code) => reject(new Error(`mcp exited with ${code}`)));
        tick();
      });
    child.stdout.setEncoding("utf8").on("data", (d: string) => (buffer += d));
    try {
      child.stdin.write(`${deepCall(20_000)}\n`);
      lines.push(await next());
      expect(JSON.parse(lines[0]!)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "params nested deeper than 1,000 levels of arrays and objects" } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" })}\n`);
      expect(JSON.parse(await next()).result.tools.length).toBe(10);
    } finally {
      child.kill();
    }
  }, 60_000);
});
