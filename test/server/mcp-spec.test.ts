// MCP by the spec (2025-06-18 and 2025-11-25), on the real processes: `groundwire mcp` over
// stdio (raw lines written to its stdin, and the SDK's Client) and /mcp of `groundwire serve`
// (raw fetch, and the SDK's Client over Streamable HTTP). Each malformed case gets its
// JSON-RPC error with the exact code and id, one line on stderr, and the server goes on.
// npm test refuses a batch over stdio under 2025-06-18 (one process for it; /mcp refuses it under
// both versions) and sends the 11 MB and the 64 MiB + 1 byte messages; npm run test:deep
// (test/depth.ts) also refuses it under 2025-11-25 over stdio, and sends the 40 MB and 100 MB ones.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, startServer, TEST_TOKEN, type RunningServer } from "./serve-process.js";
import { DEEP, spread } from "../depth.js";

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };

const GRAPH = fileURLToPath(new URL("../fixtures/triple-index/dbpedia-mountains.input.ttl", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../fixtures/kernel/olympics.ttl", import.meta.url));
const LIMIT = 64 * 1024 * 1024;
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** `groundwire mcp` with raw access to its stdin, stdout lines and stderr lines. */
class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private readonly lines: string[] = [];
  private waiter: (() => void) | null = null;
  stderr = "";
  exited: number | null = null;

  constructor(args: string[] = []) {
    this.child = spawn(process.execPath, [CLI, "mcp", ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8").on("data", (d: string) => {
      this.buffer += d;
      let i;
      while ((i = this.buffer.indexOf("\n")) >= 0) {
        this.lines.push(this.buffer.slice(0, i));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.waiter?.();
    });
    this.child.stderr.setEncoding("utf8").on("data", (d: string) => (this.stderr += d));
    this.child.once("exit", (code) => {
      this.exited = code;
      this.waiter?.();
    });
  }

  /** Write `text` and a newline (a Buffer is written as is, then the newline). */
  async send(text: string | Buffer): Promise<void> {
    for (const part of [text, "\n"]) {
      if (!this.child.stdin.write(part)) await new Promise((r) => this.child.stdin.once("drain", r));
    }
  }

  /** The next line of stdout, parsed. */
  async next(): Promise<any> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return JSON.parse(line);
      if (this.exited !== null) throw new Error(`mcp exited with ${this.exited}; stderr: ${this.stderr}`);
      await new Promise<void>((r) => (this.waiter = r));
    }
  }

  refusals(): string[] {
    return this.stderr.split("\n").filter((l) => l.includes("refused a message"));
  }

  async initialize(protocolVersion: string): Promise<any> {
    await this.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
    const reply = await this.next();
    await this.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return reply;
  }

  stop(): void {
    this.child.kill();
  }
}

const toolsList = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
const batch = '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]';

describe.skipIf(!existsSync(CLI))("groundwire mcp over stdio: malformed input gets its JSON-RPC error and the server goes on", () => {
  // one process for the three tests below: each checks that it goes on after what it refused
  let mcp: RawMcp;
  beforeAll(() => {
    mcp = new RawMcp();
  });
  afterAll(() => mcp.stop());

  it("unparsable lines: -32700 with id null, one stderr line each", async () => {
    const seen = mcp.refusals().length; // the refusals of the tests before this one
    for (const line of ["{", "not json", '{"jsonrpc":"2.0","id":4,"method":"tools/list"'])
      {
        await mcp.send(line);
        expect(await mcp.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the message is not valid JSON" } });
      }
    await mcp.send(toolsList(5));
    expect((await mcp.next()).result.tools).toHaveLength(10);
    const refusals = mcp.refusals().slice(seen);
    expect(refusals).toHaveLength(3);
    expect(refusals[1]).toBe('groundwire mcp: refused a message (-32700, id null): parse error: the message is not valid JSON; 8 bytes, beginning "not json"');
  }, 60_000);

  it("valid JSON that is not a JSON-RPC message: -32600, with the id when one can be read", async () => {
    const seen = mcp.refusals().length; // the refusals of the tests before this one
    const cases: Array<[string, string | number | null]> = [
      ['{"hello":1}', null],
      ['{"jsonrpc":"1.0","id":3,"method":"x"}', 3],
      ['{"jsonrpc":"2.0","id":"a","method":5}', "a"],
      ["42", null],
    ];
    for (const [line, id] of cases) {
      await mcp.send(line);
      const reply = await mcp.next();
      expect(reply.id).toBe(id);
      expect(reply.error.code).toBe(-32600);
      expect(reply.error.message).toMatch(/^invalid request: not a JSON-RPC 2\.0 message/);
    }
    await mcp.send(toolsList(6));
    expect((await mcp.next()).id).toBe(6);
    expect(mcp.refusals().slice(seen)).toHaveLength(4);
    expect(mcp.refusals().slice(seen)[1]).toContain("(-32600, id 3)");
  }, 60_000);

  // npm test sends the 11 MB message and the one a byte over the limit; test:deep also the 40 MB
  // document (fragmented whole: most of the case's time) and the 100 MB line
  it(`messages of 11 MB${DEEP ? " and 40 MB" : ""} are read (the limit is 64 MiB); 65 MiB${DEEP ? " and 100 MB" : ""} lines get -32600 naming the limit and their bytes; then tools/list is answered`, async () => {
    const seen = mcp.refusals().length; // the refusals of the tests before this one
    await mcp.initialize("2025-11-25");
    // 11 MB: a fragment_markdown call whose text (11,000,000 characters) is over the schema's 8,000,000
    const call = (id: number, text: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"fragment_markdown","arguments":{"text":"${text}"}}}`;
    await mcp.send(call(11, "a".repeat(11_000_000)));
    const eleven = await mcp.next();
    expect(eleven.id).toBe(11);
    expect(eleven.result.isError).toBe(true);
    expect(eleven.result.content[0].text).toContain("8000000");
    // 40 MB: 6,600,000 characters each written \u0041 (6 bytes): a valid document, fragmented
    if (DEEP) {
      const forty = call(12, "\\u0041".repeat(6_600_000));
      expect(forty.length).toBeGreaterThan(39_600_000);
      await mcp.send(forty);
      const fragmented = await mcp.next();
      expect(fragmented.id).toBe(12);
      expect(fragmented.result.isError).toBeUndefined();
      expect(fragmented.result.structuredContent.fragments[0].text).toHaveLength(6_600_000);
    }
    // over the limit: one byte over, and 100 MB of a request's text
    const over = LIMIT + 1;
    await mcp.send(Buffer.alloc(over, 0x61));
    expect(await mcp.next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: `the message is ${over} bytes, over the ${LIMIT}-byte limit of groundwire mcp over stdio; nothing of it was read` },
    });
    if (DEEP) {
      const head = Buffer.from(call(13, "").slice(0, -5));
      const hundred = Buffer.concat([head, Buffer.alloc(100_000_000 - head.length, 0x62)]);
      await mcp.send(hundred);
      const refused = await mcp.next();
      expect(refused.id).toBeNull();
      expect(refused.error.code).toBe(-32600);
      expect(refused.error.message).toBe(`the message is 100000000 bytes, over the ${LIMIT}-byte limit of groundwire mcp over stdio; nothing of it was read`);
    }
    await mcp.send(toolsList(14));
    expect((await mcp.next()).result.tools).toHaveLength(10);
    expect(mcp.exited).toBeNull();
    expect(mcp.refusals().slice(seen)).toHaveLength(DEEP ? 2 : 1);
  }, 180_000);

  it(`a batch is refused before initialization and under 2025-06-18${DEEP ? " and 2025-11-25" : ""}; answered as one array under 2025-03-26`, async () => {
    // npm test: one process for one refusing version; npm run test:deep (test/depth.ts): one for each
    for (const version of spread(["2025-06-18", "2025-11-25"], 1)) {
      const mcp = new RawMcp();
      try {
        await mcp.send(batch);
        const early = await mcp.next();
        expect(early.id).toBeNull();
        expect(early.error.code).toBe(-32600);
        expect(early.error.message).toContain("before initialization");
        expect((await mcp.initialize(version)).result.protocolVersion).toBe(version);
        await mcp.send(batch);
        expect(await mcp.next()).toEqual({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `invalid request: protocol version ${version} has no JSON-RPC batches (removed in 2025-06-18); send each message on its own` },
        });
        await mcp.send(toolsList(3));
        expect((await mcp.next()).id).toBe(3);
        expect(mcp.refusals()).toHaveLength(2);
      } finally {
        mcp.stop();
      }
    }
    const old = new RawMcp();
    try {
      expect((await old.initialize("2025-03-26")).result.protocolVersion).toBe("2025-03-26");
      await old.send(batch.replace("]", ',{"hello":1}]'));
      const replies = await old.next();
      expect(Array.isArray(replies)).toBe(true);
      expect(replies.map((r: any) => r.id).sort()).toEqual([1, 2, null]);
      expect(replies.find((r: any) => r.id === 1).result.tools).toHaveLength(10);
      expect(replies.find((r: any) => r.id === 2).result).toEqual({});
      expect(replies.find((r: any) => r.id === null).error.code).toBe(-32600);
    } finally {
      old.stop();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("groundwire mcp over stdio: the end of input", () => {
  it("answers every request read before stdin closed (the last line without its newline too), then exits 0 with nothing on stderr", async () => {
    const mcp = new RawMcp();
    await mcp.initialize("2025-11-25");
    mcp.child.stdin.end(`${toolsList(1)}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_book","arguments":{"text":"monster","book":"novel/frankenstein","k":1}}}`);
    expect((await mcp.next()).result.tools).toHaveLength(10);
    const hit = await mcp.next();
    expect(hit.id).toBe(2);
    expect(hit.result.structuredContent.hits).toHaveLength(1);
    const code = await new Promise((resolve) => (mcp.exited !== null ? resolve(mcp.exited) : mcp.child.once("exit", resolve)));
    expect(code).toBe(0);
    expect(mcp.stderr).toBe("");
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("groundwire mcp over stdio, the SDK's Client: unknown tools, annotations, output schemas, instructions, resources", () => {
  const client = new Client({ name: "groundwire-test", version: "1.0.0" });
  let transport: StdioClientTransport;
  let stderr = "";

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--graph", `mountains=${GRAPH}`, "--schema", `olympics=${SCHEMA}`], cwd: ROOT, stderr: "pipe" });
    transport.stderr!.on("data", (d) => (stderr += d));
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => client.close());

  it("an unknown tool is JSON-RPC's -32602 (two names), not an isError result", async () => {
    for (const name of ["nope", "search_books"]) {
      const error = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain(`unknown tool "${name}" (the tools are verify_quotes, check_sparql`);
    }
    expect(stderr).toContain('refused a message (-32602, id ');
  });

  it("arguments that fail the input schema are a tool execution error (isError), as SEP-1303 (2025-11-25) says; search_book takes book, not corpus", async () => {
    const r: any = await client.callTool({ name: "search_book", arguments: { text: "monster", corpus: "novel/frankenstein" } });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain("book");
    const ok: any = await client.callTool({ name: "search_book", arguments: { text: "monster", book: "novel/frankenstein", k: 1 } });
    expect(ok.structuredContent.hits[0].node_id.startsWith("novel/frankenstein#")).toBe(true);
  });

  it("every tool is annotated read-only (run_sparql open-world: it reaches an endpoint) and has an output schema; the server sends instructions", async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(10);
    for (const t of tools) {
      expect(t.annotations).toEqual(t.name === "run_sparql" || t.name === "explore_schema" ? { ...ANNOTATIONS, openWorldHint: true } : ANNOTATIONS);
      expect(t.outputSchema?.type).toBe("object");
    }
    expect(client.getInstructions()).toMatch(/^groundwire checks what a model writes against its sources/);
    expect(client.getServerCapabilities()?.resources).toBeDefined();
  });

  it("structured answers match their output schemas on the richer cases (snaps, rejected items, goals, lost citations)", async () => {
    const verified: any = await client.callTool({ name: "verify_quotes", arguments: { reply: 'He said "the cat sat upon the mat" [s1] and "nothing of the kind here" [s2].', passages: ["the cat sat on the mat today"] } });
    expect(verified.isError).toBeUndefined();
    expect(verified.structuredContent.passes).toBe(false);
    expect(verified.structuredContent.snaps.length).toBeGreaterThan(0);
    const checked: any = await client.callTool({
      name: "check_sparql",
      arguments: { query: "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hosted ?g }", schema: { name: "olympics" }, goal: { answer: ["?c"], kind: "entity" } },
    });
    expect(checked.isError).toBeUndefined();
    expect(checked.structuredContent.goal.answer).toEqual(["c"]);
    const index: any = await client.callTool({ name: "index_graph", arguments: { graph: { name: "mountains" } } });
    const applied: any = await client.callTool({
      name: "apply_critique",
      arguments: { graph: { name: "mountains" }, fingerprint: index.structuredContent.numbering, critique: [{ op: "remove", tripleIds: [2] }, { op: "remove", tripleIds: [9999] }] },
    });
    expect(applied.isError).toBeUndefined();
    expect(applied.structuredContent.rejected[0]).toMatchObject({ item: 2, op: "remove", tripleIds: [9999] });
    const text = "# A\n\nOne paragraph here.\n\n# B\n\nAnother one.\n";
    const fragments: any = await client.callTool({ name: "fragment_markdown", arguments: { text, artifactId: "doc" } });
    const lost = `${"0".repeat(64)}#sha256:${"1".repeat(64)}`;
    const resolved: any = await client.callTool({ name: "resolve_citations", arguments: { text, artifactId: "doc", citations: [fragments.structuredContent.fragments[1].versionId, lost] } });
    expect(resolved.isError).toBeUndefined();
    expect(resolved.structuredContent.reports.map((r: any) => r.status)).toEqual(["current", "lost"]);
  });

  it("the corpus books and the named graphs are resources", async () => {
    const { resources } = await client.listResources();
    const frankenstein = resources.find((r) => r.uri === "groundwire://book/novel/frankenstein")!;
    expect(frankenstein.mimeType).toBe("text/plain");
    expect(frankenstein.description).toMatch(/^Frankenstein.* by .*, \d+ passages/);
    expect(resources.find((r) => r.uri === "groundwire://graph/mountains")?.mimeType).toBe("text/turtle");
    const book = await client.readResource({ uri: "groundwire://book/novel/frankenstein" });
    const bookText = (book.contents[0] as { text: string }).text;
    expect(bookText.split("\n")[0]).toMatch(/^Frankenstein/);
    expect(bookText).toContain("(novel/frankenstein#");
    const graph = await client.readResource({ uri: "groundwire://graph/mountains" });
    expect((graph.contents[0] as { text: string }).text).toMatch(/@prefix /);
    for (const uri of ["groundwire://book/novel/nope", "groundwire://graph/nope"]) {
      const error = await client.readResource({ uri }).catch((e: unknown) => e);
      expect((error as McpError).code).toBe(-32002);
    }
  });
});

describe.skipIf(!existsSync(CLI))("/mcp of groundwire serve (stateless Streamable HTTP)", () => {
  let server: RunningServer;
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, { method: "POST", body, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...AUTH, ...headers } });

  beforeAll(async () => {
    server = await startServer(["--graph", `mountains=${GRAPH}`]);
  }, 60_000);
  afterAll(async () => server.stop());

  it("GET, DELETE (and PUT): 405 with Allow: POST and a JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const r = await fetch(`${server.url}/mcp`, { method, headers: { accept: "text/event-stream", ...AUTH } });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      const body = await r.json();
      expect(body.id).toBeNull();
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toMatch(new RegExp(`^method not allowed: ${method} /mcp`));
    }
  });

  it("not JSON: 400 and -32700; JSON that is not JSON-RPC: 400 and -32600 with the id when one can be read", async () => {
    for (const body of ["{", "not json"]) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the message is not valid JSON" } });
    }
    for (const [body, id] of [['{"hello":1}', null], ['{"jsonrpc":"1.0","id":3,"method":"x"}', 3]] as const) {
      const r = await post(body);
      expect(r.status).toBe(400);
      const reply = await r.json();
      expect(reply.id).toBe(id);
      expect(reply.error.code).toBe(-32600);
    }
    expect(server.stderr().split("\n").filter((l) => l.includes("/mcp: refused a message"))).toHaveLength(4);
  });

  it("a batch is refused under MCP-Protocol-Version 2025-06-18 and 2025-11-25; without the header (2025-03-26 assumed) it is answered", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const r = await post(batch, { "mcp-protocol-version": version });
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: `invalid request: protocol version ${version} has no JSON-RPC batches (removed in 2025-06-18); send each message on its own` },
      });
    }
    const r = await post(batch);
    expect(r.status).toBe(200);
    const replies = await r.json();
    expect(replies.map((m: any) => m.id)).toEqual([1, 2]);
  });

  it("the SDK's Client: unknown tools are -32602, annotations and output schemas listed, a resource read", async () => {
    const client = new Client({ name: "groundwire-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: AUTH } }));
    try {
      for (const name of ["nope", "verify_quote"]) {
        const error = await client.callTool({ name, arguments: {} }).catch((e: unknown) => e);
        expect((error as McpError).code).toBe(-32602);
      }
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.outputSchema && JSON.stringify(t.annotations) === JSON.stringify(t.name === "run_sparql" || t.name === "explore_schema" ? { ...ANNOTATIONS, openWorldHint: true } : ANNOTATIONS))).toBe(true);
      const graph = await client.readResource({ uri: "groundwire://graph/mountains" });
      expect((graph.contents[0] as { mimeType: string }).mimeType).toBe("text/turtle");
    } finally {
      await client.close();
    }
  });
});
