// The seed's last details: a worker hit with no `content` is read from its `summary`, a hit
// with a `timestamp` is labelled by its date, and `groundwire serve` records the model name
// the endpoint reported (as the CLI does), not a placeholder.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { passagesFromHits, type Hit } from "../../ts/moot/index.js";
import { call, CLI, startServer } from "../server/serve-process.js";
import { startStub } from "./stub-server.js";

const base: Hit = { node_id: "diary/pepys#entry-1660-05-29", name: "entry-1660-05-29", content: "", title: "Diary", author: "Samuel Pepys", genre: "diary" };

describe("passagesFromHits reads hits as the seed does", () => {
  it.each([
    ["no content: the summary", { content: "", summary: "The King's birthday." }, { content: "The King's birthday." }],
    ["content absent altogether: the summary", { content: undefined as unknown as string, summary: "S" }, { content: "S" }],
    ["content wins over summary", { content: "C", summary: "S" }, { content: "C" }],
    ["neither: empty", { content: "" }, { content: "" }],
    ["a timestamp labels by its date, over the printed label", { timestamp: "1660-05-29", label: "MAY 1660: 29th" }, { label: "1660-05-29" }],
    ["a datetime timestamp: the date part", { timestamp: "1660-05-29T10:00:00Z" }, { label: "1660-05-29" }],
    ["no timestamp: the printed label", { label: "Genesis 1:1–10" }, { label: "Genesis 1:1–10" }],
    ["no timestamp, no label: the name", { label: undefined }, { label: "entry-1660-05-29" }],
  ] as const)("%s", (_name, fields, expected) => {
    const [passage] = passagesFromHits([{ ...base, ...fields } as Hit]);
    expect(passage).toMatchObject({ tag: "s1", nodeId: base.node_id, ...expected });
  });
});

describe.skipIf(!existsSync(CLI))("groundwire serve records the reported model", () => {
  it("a moot on an endpoint that reports its model records that name once it has answered", async () => {
    const stub = await startStub((req) => ({
      raw: JSON.stringify({ model: "stub-reported-7b", choices: [{ index: 0, message: { role: "assistant", content: `A reply about ${req.body.messages.length} messages.` } }] }),
    }));
    const data = mkdtempSync(join(tmpdir(), "gw-model-"));
    const server = await startServer(["--data", data, "--base-url", stub.baseUrl]);
    try {
      const created = await call(server.url, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], turns: 2, k: 2 });
      expect(created.status).toBe(201);
      const turn = await call(server.url, "POST", `/moots/${created.json.id}/turns`);
      expect(turn.status).toBe(200);
      const moot = await call(server.url, "GET", `/moots/${created.json.id}`);
      expect(moot.json.model).toBe("stub-reported-7b");
      expect(stub.requests.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
      await stub.close();
    }
  }, 60_000);
});
