// `--dialect virtuoso --prefixes dbpedia` and `--schema NAME=sparql:URL` through the real CLI
// (dist/cli.js check, serve and mcp): the check and run routes and the MCP tools read Virtuoso's
// bare SELECT aggregate as the standard form with a warning; without the flag the same query is a
// syntax error with its fix; a schema read from the test Virtuoso (when the global setup started
// one) checks like the file it was loaded from.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, ROOT, startServer, type RunningServer } from "../server/serve-process.js";
import { virtuosoReady } from "./virtuoso-ready.js";

const run = promisify(execFile);
const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));
// the global setup starts Virtuoso without waiting for it: wait here, before reading its URL
await virtuosoReady();
const VIRTUOSO = process.env.GROUNDWIRE_TEST_SPARQL_URL;
/** The olympics graph of the test Virtuoso (virtuoso-server.ts TEST_GRAPHS), as a schema source. */
const LIVE = `sparql:${VIRTUOSO}#graph=${encodeURIComponent("http://example.org/olympics/graph")}`;
const BARE_COUNT = "PREFIX ex: <http://example.org/olympics/>\nSELECT DISTINCT COUNT(?g)\nWHERE { ex:Paris ex:hosted ?g }";
const WARNING = "Virtuoso syntax: an aggregate written bare in SELECT, COUNT(?g); standard SPARQL 1.1 writes (COUNT(?g) AS ?n) (read as that)";
const cache = mkdtempSync(join(tmpdir(), "groundwire-dialect-cache-"));
const env = { ...process.env, XDG_CACHE_HOME: cache };

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.skipIf(!existsSync(CLI))("groundwire check --dialect", () => {
  const file = join(mkdtempSync(join(tmpdir(), "groundwire-dialect-")), "count.rq");
  writeFileSync(file, BARE_COUNT);

  it("strict: a syntax error with the fix; virtuoso: checked, with the warning and the fix", async () => {
    const strict = await cli(["check", file, "--schema", OLYMPICS]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`${file}:2:17: SPARQL syntax error: an aggregate in SELECT is written in parentheses with a name: (COUNT(?g) AS ?n) (SPARQL 1.1 §11.1) (fix: write (COUNT(?g) AS ?n))`);
    const dialect = await cli(["check", file, "--schema", OLYMPICS, "--dialect", "virtuoso", "--prefixes", "dbpedia"]);
    expect(dialect.code).toBe(0);
    expect(dialect.stdout).toContain(`warnings:\n  ${file}:2:17: ${WARNING}\n    fix: write (COUNT(?g) AS ?n)\n`);
  });

  it("refuses a dialect or preset it does not know (exit 2)", async () => {
    expect(await cli(["check", file, "--schema", OLYMPICS, "--dialect", "jena"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--dialect must be one of sparql11, virtuoso") });
    expect(await cli(["check", file, "--schema", OLYMPICS, "--prefixes", "wikidata"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--prefixes must be a preset: dbpedia") });
  });

  it.skipIf(!VIRTUOSO)("--schema sparql:URL reads the schema from the endpoint (Virtuoso holding the olympics graph)", async () => {
    const ill = join(mkdtempSync(join(tmpdir(), "groundwire-dialect-")), "ill.rq");
    writeFileSync(ill, "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hosts ?g }");
    const r = await cli(["check", ill, "--schema", LIVE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("unknown property ex:hosts (did you mean ex:hosted?)");
  });
});

describe.skipIf(!existsSync(CLI))("serve --dialect virtuoso --prefixes dbpedia", () => {
  let dialect: RunningServer;
  beforeAll(async () => {
    const base = ["--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`, "--check-workers", "1", "--quiet"];
    const live = VIRTUOSO ? ["--schema", `live=${LIVE}`, "--endpoint", `virtuoso=${VIRTUOSO}`] : [];
    dialect = await startServer([...base, ...live, "--dialect", "virtuoso", "--prefixes", "dbpedia"], { XDG_CACHE_HOME: cache });
  }, 90_000);
  afterAll(async () => dialect?.stop());

  it("POST /sparql/check: the warning and the standard form under the dialect", async () => {
    const d = await call(dialect.url, "POST", "/sparql/check", { schema: { name: "olympics" }, query: BARE_COUNT });
    expect(d.status).toBe(200);
    expect(d.json.errors).toEqual([]);
    expect(d.json.warnings).toEqual([{ code: "dialect-extension", severity: "warning", message: WARNING, span: { start: 58, end: 67, line: 2, column: 17 }, fix: "write (COUNT(?g) AS ?n)" }]);
    expect(d.json.sparql).toContain("SELECT DISTINCT (COUNT(?g) AS ?n)");
  });

  it("POST /sparql/run sends the standard form and answers", async () => {
    const r = await call(dialect.url, "POST", "/sparql/run", { schema: { name: "olympics" }, graph: "olympics", query: BARE_COUNT });
    expect(r.status).toBe(200);
    expect(r.json.sent).toContain("SELECT DISTINCT (COUNT(?g) AS ?n)");
    expect(r.json.results.results.bindings[0].n.value).toBe("3");
    expect(r.json.warnings.map((w: { code: string }) => w.code)).toEqual(["dialect-extension"]);
  });

  it.skipIf(!VIRTUOSO)("a schema named NAME=sparql:URL checks like the file the endpoint was loaded from, and runs on it", async () => {
    const ill = "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c ex:hosts ?g }";
    const fromFile = await call(dialect.url, "POST", "/sparql/check", { schema: { name: "olympics" }, query: ill });
    const live = await call(dialect.url, "POST", "/sparql/check", { schema: { name: "live" }, query: ill });
    expect(live.status).toBe(200);
    expect(live.json.errors.map((e: { message: string }) => e.message)).toEqual(fromFile.json.errors.map((e: { message: string }) => e.message));
    const r = await call(dialect.url, "POST", "/sparql/run", { schema: { name: "live" }, endpoint: "virtuoso", query: BARE_COUNT });
    expect(r.status).toBe(200);
    expect(r.json.results.results.bindings[0].n.value).toBe("3");
  });
});

describe.skipIf(!existsSync(CLI))("mcp --dialect virtuoso", () => {
  const client = new Client({ name: "groundwire-test", version: "1.0.0" });
  beforeAll(async () => {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--graph", `olympics=${OLYMPICS}`, "--schema", `olympics=${OLYMPICS}`, "--check-workers", "1", "--dialect", "virtuoso"], cwd: ROOT, stderr: "pipe", env: env as Record<string, string> }));
  }, 60_000);
  afterAll(async () => client.close());

  it("check_sparql and run_sparql read the bare aggregate with the warning", async () => {
    type Result = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
    const checked = (await client.callTool({ name: "check_sparql", arguments: { schema: { name: "olympics" }, query: BARE_COUNT } })) as Result;
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent.errors).toEqual([]);
    expect(checked.structuredContent.warnings.map((w: { message: string }) => w.message)).toEqual([WARNING]);
    const ran = (await client.callTool({ name: "run_sparql", arguments: { schema: { name: "olympics" }, graph: "olympics", query: BARE_COUNT } })) as Result;
    expect(ran.isError).toBeFalsy();
    expect(ran.structuredContent.table).toBe("?n\n--\n3\n1 row\n");
  });
});
