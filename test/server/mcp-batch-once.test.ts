// A JSON-RPC batch under 2025-03-26 is answered with exactly one array, also when every
// request of it is refused before the SDK sees it (an unknown tool, params nested too deep):
// those are answered during the dispatch, and the array was written a second time after it.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, startServer, TEST_TOKEN } from "./serve-process.js";

/** Send `lines` to a fresh `groundwire mcp`, end stdin, and collect every stdout line until it exits. */
function run(lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "mcp"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.once("error", reject);
    child.once("exit", () => resolve(out.split("\n").filter((l) => l !== "")));
    child.stdin.end(lines.map((l) => `${l}\n`).join(""));
  });
}

const init = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const unknownTool = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "nope", arguments: {} } });
const deep = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"a":${"[".repeat(1500)}${"]".repeat(1500)}}}`;

describe("groundwire mcp: a batch is answered once", () => {
  it("a batch whose every request is refused before the SDK gets one array, once", async () => {
    const lines = await run([init, initialized, `[${unknownTool(1)}]`, `[${deep(2)},${unknownTool(3)}]`, '{"jsonrpc":"2.0","id":4,"method":"ping"}']);
    const replies = lines.map((l) => JSON.parse(l));
    // The batches are refused at once, the SDK answers initialize and ping later: match by id.
    expect(replies).toHaveLength(4);
    const arrays = replies.filter((r) => Array.isArray(r));
    expect(arrays.map((a) => a.map((r: any) => [r.id, r.error.code]).sort())).toEqual([[[1, -32602]], [[2, -32602], [3, -32602]]]);
    expect(replies.filter((r) => !Array.isArray(r)).map((r) => r.id).sort()).toEqual([0, 4]);
  });

  it("a batch with a request the SDK answers and an invalid item is still one array", async () => {
    const lines = await run([init, initialized, `[${unknownTool(1)},{"hello":1},{"jsonrpc":"2.0","id":2,"method":"ping"}]`]);
    const arrays = lines.map((l) => JSON.parse(l)).filter((r) => Array.isArray(r));
    expect(lines).toHaveLength(2);
    expect(arrays).toHaveLength(1);
    expect(arrays[0].map((r: any) => r.id).sort()).toEqual([1, 2, null]);
  });
});

describe("groundwire serve /mcp: a batch is answered with an array", () => {
  it("a one-request batch (2025-03-26, no header) gets a one-element array, not a bare object", async () => {
    const server = await startServer([]);
    try {
      const post = (body: string) =>
        fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        });
      const one = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
      expect(one.status).toBe(200);
      expect(await one.json()).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
      const two = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]');
      expect(((await two.json()) as { id: number }[]).map((r) => r.id).sort()).toEqual([1, 2]);
      const single = await post('{"jsonrpc":"2.0","id":3,"method":"ping"}');
      expect(await single.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    } finally {
      await server.stop();
    }
  });
});
