/**
 * The built package, tested as a user gets it: `npm pack`, install the tarball into a
 * fresh project, import "groundwire" there and call every part (test/browser/probe.js);
 * the same with WebAssembly deleted (pure-TS fallback, visible notice, identical results);
 * the self-contained bundle; the CLI bin; publint and attw; and the browser entry's import
 * graph (no node: module may reach a browser). The slow runs (pure-TS backend) use a sample
 * of the bestSpan parity cases (see probeInput); the WASM runs use all of them.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, importGraph, importSpecifiers, packAndInstall, requireBuild, runProbeInNode, sameProbeBytes, type Installed, type ProbeResult } from "./support.js";

const bin = (name: string) => join(ROOT, "node_modules/.bin", name);

describe("the browser entry's import graph", () => {
  beforeAll(requireBuild);

  it("dist/index.js and every chunk it reaches import no node: or builtin module", () => {
    const { files: seen, specifiers: bare } = importGraph(join(ROOT, "dist/index.js"));
    const builtins = [...bare].filter((s) => s.startsWith("node:") || builtinModules.includes(s.split("/")[0]));
    expect(builtins, `node builtins reachable from dist/index.js: ${builtins.join(", ")}`).toEqual([]);
    expect(seen.size).toBeGreaterThan(1); // the graph was walked, not just the entry
    // and the Node entry, one file, does import node builtins (so the walk above would have seen them)
    expect(importSpecifiers(readFileSync(join(ROOT, "dist/node.js"), "utf8")).filter((s) => s.startsWith("node:")).length).toBeGreaterThan(0);
  });

  it("dist/browser/groundwire.js is self-contained: no import of anything", () => {
    const code = readFileSync(join(ROOT, "dist/browser/groundwire.js"), "utf8");
    expect(importSpecifiers(code)).toEqual([]);
    expect(code).not.toMatch(/\brequire\(\s*["']node:/);
  });
});

describe("npm pack → install in a fresh project → import from Node", () => {
  let pkg: Installed;
  /** the reference: dist/node.js of the repo, WASM backend, all parity cases / the sample */
  let repoRun: ProbeResult;
  let repoSampled: ProbeResult;
  let scratch: string;
  beforeAll(() => {
    pkg = packAndInstall();
    scratch = mkdtempSync(join(tmpdir(), "groundwire-repo-probe-"));
    const dist = pathToFileURL(join(ROOT, "dist/node.js")).href;
    repoRun = runProbeInNode(dist, scratch).result;
    repoSampled = runProbeInNode(dist, scratch, { sample: 16 }).result;
  });
  afterAll(() => {
    if (pkg) rmSync(pkg.dir, { recursive: true, force: true });
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("publint --strict finds nothing to report on the package", () => {
    const r = spawnSync(bin("publint"), ["run", ROOT, "--strict", "--pack", "false"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/Errors:|Warnings:/);
  });

  it("attw --profile esm-only passes on the tarball (ESM only by design)", () => {
    const r = spawnSync(bin("attw"), [pkg.tarball, "--profile", "esm-only", "--format", "table-flipped"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"groundwire"/);
  });

  it("the tarball holds the built entries, types, bundle, CLI and books, and no sources or tests", () => {
    for (const f of ["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/cli.js", "dist/browser/groundwire.js", "dist/browser/groundwire.d.ts", "dist/vendor/markdown.js", "dist/vendor/THIRD-PARTY-LICENSES.txt", "dist/browser/THIRD-PARTY-LICENSES.txt"]) {
      expect(pkg.files).toContain(f);
    }
    expect(pkg.files.filter((f) => /^(ts|test|bench|assembly|bindings|scripts)\//.test(f))).toEqual([]);
    // every chunk the entries import is in the tarball (a clean dist: no stale chunks either)
    const chunks = readdirSync(join(ROOT, "dist/chunks")).map((f) => `dist/chunks/${f}`);
    expect(pkg.files.filter((f) => f.startsWith("dist/chunks/")).sort()).toEqual(chunks.sort());
  });

  it("the tarball is at most 1.5 MB packed, books included, and ships no source maps", () => {
    const packed = statSync(pkg.tarball).size;
    expect(packed, `${(packed / 1024).toFixed(0)} KB packed`).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    expect(pkg.files.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(pkg.files).toContain("data/books/novel__frankenstein.txt");
  });

  it("package.json carries repository, homepage, bugs and keywords", () => {
    const meta = JSON.parse(readFileSync(join(pkg.app, "node_modules/groundwire/package.json"), "utf8"));
    expect(meta.repository?.url).toMatch(/^git\+https:\/\//);
    expect(meta.homepage).toMatch(/^https:\/\//);
    expect(meta.bugs?.url).toMatch(/^https:\/\//);
    expect(meta.keywords.length).toBeGreaterThanOrEqual(5);
  });

  it("import \"groundwire\" resolves to the Node entry and every part runs", () => {
    const { result } = runProbeInNode("groundwire", pkg.app);
    expect(result.env.backend.active).toBe("wasm");
    expect(result.env.sha256).toBe("node:crypto");
    expect(result.skipped, "every part's API is exported and ran").toEqual({});
    expect(Object.keys(result.parts).sort()).toEqual(["evidence", "kernel", "memdsl", "moot", "sha256", "tripleIndex"]);
    expect(sameProbeBytes(result, repoRun)).toBeNull();
  });

  it("with WebAssembly deleted, the browser-safe entry still works in Node: pure-TS backend, visible notices, identical results", () => {
    // dist/index.js of the installed package, the entry bundlers get (by file URL: Node's own
    // "node" condition would pick dist/node.js, and --conditions=browser would give its
    // dependencies their DOM builds)
    const entry = pathToFileURL(join(pkg.app, "node_modules/groundwire/dist/index.js")).href;
    const { result, stderr } = runProbeInNode(entry, pkg.app, { noWasm: true, sample: 16 });
    expect(result.env.backend).toEqual({ requested: "auto", active: "ts", reason: "WebAssembly is not available in this runtime" });
    expect(result.env.sha256).toBe("@noble/hashes");
    expect(stderr).toMatch(/groundwire: using the pure-TS backend/);
    expect(stderr).toMatch(/SHA-256 on pure-JS @noble\/hashes/);
    expect(sameProbeBytes(result, repoSampled)).toBeNull();
  });

  it("with WebAssembly deleted, the Node entry still works: pure-TS backend, a visible reason, identical results", () => {
    // oxigraph (the kernel's embedded store, itself WebAssembly) is imported lazily, so only
    // createOxigraphStore fails there, with the reason; everything the probe calls works.
    const { result, stderr } = runProbeInNode("groundwire", pkg.app, { noWasm: true, sample: 16 });
    expect(result.env.backend).toEqual({ requested: "auto", active: "ts", reason: "WebAssembly is not available in this runtime" });
    expect(result.env.sha256).toBe("node:crypto");
    expect(stderr).toMatch(/groundwire: using the pure-TS backend/);
    expect(sameProbeBytes(result, repoSampled)).toBeNull();
  });

  it("the backend can be forced: setBackend(\"ts\") with WebAssembly present gives identical results", () => {
    const { result } = runProbeInNode("groundwire", pkg.app, { backend: "ts", sample: 16 });
    expect(result.env.backend).toEqual({ requested: "ts", active: "ts", reason: 'forced by setBackend("ts")' });
    expect(sameProbeBytes(result, repoSampled)).toBeNull();
  });

  it("groundwire/browser resolves to the self-contained bundle (it runs in browsers: test/browser/)", () => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", 'console.log(import.meta.resolve("groundwire/browser"))'], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/node_modules\/groundwire\/dist\/browser\/groundwire\.js$/);
  });

  it("the groundwire bin is installed and prints its usage", () => {
    const r = spawnSync(join(pkg.app, "node_modules/.bin/groundwire"), ["--help"], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: groundwire <command>/);
    expect(r.stdout).toMatch(/\bbench\b/);
  });

  it("groundwire bench in an installed package runs the built-in check (WASM vs TS, outputs checked)", () => {
    const r = spawnSync(join(pkg.app, "node_modules/.bin/groundwire"), ["bench", "--quick", "--json"], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { backend: { active: string }; cases: { name: string; contenders: { name: string; checked: boolean; medianMs: number | null }[] }[] };
    expect(report.backend.active).toBe("wasm");
    expect(report.cases.map((c) => c.name.split(",")[0])).toEqual(["bestSpan", "subclass closure", "SHA-256 of 4 MiB"]);
    for (const c of report.cases) for (const k of c.contenders) expect(k.checked && k.medianMs! > 0, `${c.name} / ${k.name}`).toBe(true);
  });

  it("a library install carries no HTTP/MCP stack and no PostgreSQL driver; serve and --store say what to install", () => {
    for (const peer of ["hono", "@hono/node-server", "@modelcontextprotocol/sdk", "pino", "piscina", "pg", "express"]) {
      expect(existsSync(join(pkg.app, "node_modules", peer)), peer).toBe(false);
    }
    const gwBin = join(pkg.app, "node_modules/.bin/groundwire");
    const serve = spawnSync(gwBin, ["serve", "--port", "0"], { cwd: pkg.app, encoding: "utf8" });
    expect(serve.status).toBe(1);
    expect(serve.stderr).toBe("groundwire serve: needs hono, @hono/node-server, @modelcontextprotocol/sdk, pino, piscina, not installed with the library: npm install hono @hono/node-server @modelcontextprotocol/sdk pino piscina\n");
    // mcp over stdio loads no HTTP server and no request log
    const mcp = spawnSync(gwBin, ["mcp"], { cwd: pkg.app, encoding: "utf8", input: "" });
    expect([mcp.status, mcp.stderr]).toEqual([1, "groundwire mcp: needs hono, @modelcontextprotocol/sdk, piscina, not installed with the library: npm install hono @modelcontextprotocol/sdk piscina\n"]);
    const store = spawnSync(gwBin, ["books", "--store", "postgres://127.0.0.1:1/none"], { cwd: pkg.app, encoding: "utf8" });
    expect(store.status).toBe(1);
    expect(store.stderr).toBe("groundwire books: --store needs pg, not installed with the library: npm install pg\n");
    // the library and the rest of the CLI work without them
    const books = spawnSync(gwBin, ["books", "--json"], { cwd: pkg.app, encoding: "utf8" });
    expect(books.status, books.stderr).toBe(0);
    expect(JSON.parse(books.stdout).map((b: { key: string }) => b.key)).toEqual(["diary/pepys-1660", "novel/frankenstein"]);
    expect(spawnSync(gwBin, ["serve", "--help"], { cwd: pkg.app, encoding: "utf8" }).status).toBe(0);
  });

  it("installing the three peers mcp names (pino left out) makes mcp answer a tool call over stdio", () => {
    const flags = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "hono", "@modelcontextprotocol/sdk", "piscina"];
    let r = spawnSync("npm", [...flags, "--offline"], { cwd: pkg.app, encoding: "utf8" });
    if (r.status !== 0) r = spawnSync("npm", [...flags, "--prefer-offline"], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(pkg.app, "node_modules/pino"))).toBe(false);
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pack-test", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "verify_quotes", arguments: { reply: 'He wrote "It was on a dreary night of November" once.', book: "novel/frankenstein" } } },
    ];
    const mcp = spawnSync(join(pkg.app, "node_modules/.bin/groundwire"), ["mcp", "--check-workers", "0"], { cwd: pkg.app, encoding: "utf8", input: messages.map((m) => JSON.stringify(m)).join("\n") + "\n", timeout: 60_000 });
    const answers = mcp.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: number; result: { content?: { text: string }[] } });
    expect(answers.map((a) => a.id), mcp.stderr).toEqual([1, 2]);
    const verdict = JSON.parse(answers[1]!.result.content![0]!.text) as { grounding: { quotesFound: number; quotesTotal: number } };
    expect([verdict.grounding.quotesFound, verdict.grounding.quotesTotal]).toEqual([1, 1]);
  });

  it("installing the peers serve names makes serve start and answer /health", async () => {
    const flags = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "hono", "@hono/node-server", "@modelcontextprotocol/sdk", "pino", "piscina"];
    let r = spawnSync("npm", [...flags, "--offline"], { cwd: pkg.app, encoding: "utf8" });
    if (r.status !== 0) r = spawnSync("npm", [...flags, "--prefer-offline"], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const child = spawn(join(pkg.app, "node_modules/.bin/groundwire"), ["serve", "--port", "0", "--no-auth"], { cwd: pkg.app });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
        // "groundwire serve: listening on http://HOST:PORT" on stdout when ready
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on("exit", () => reject(new Error(`serve exited: ${err}`)));
      });
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill("SIGKILL");
    }
  }, 300_000);

  it("an app that bundles the Node entry into a file of its own (esbuild, platform node) still fragments markdown: the stack's bundle comes from the installed package, else a clear error", () => {
    const app = join(pkg.app, "bundled-app.mjs");
    writeFileSync(app, 'import { fragmentMarkdown } from "groundwire";\nconsole.log(JSON.stringify(fragmentMarkdown("a", "# Title\\n\\n| x |\\n|---|\\n| 1 |\\n").map((f) => f.kind)));\n');
    const esbuild = join(ROOT, "node_modules/.bin/esbuild");
    const inside = join(pkg.app, "out", "app.mjs");
    const outside = join(mkdtempSync(join(tmpdir(), "groundwire-bundled-")), "app.mjs");
    for (const outfile of [inside, outside]) execFileSync(esbuild, [app, "--bundle", "--platform=node", "--format=esm", `--outfile=${outfile}`, "--log-level=error"], { cwd: pkg.app });
    // inside the project: dist/vendor/ is not beside the app's file, the installed package has it
    const ok = spawnSync(process.execPath, [inside], { cwd: pkg.app, encoding: "utf8" });
    expect(ok.stderr).toBe("");
    expect(JSON.parse(ok.stdout)).toEqual(["section", "table", "row", "row"]);
    // outside it, with no groundwire to resolve: one error naming both places
    const lost = spawnSync(process.execPath, [outside], { cwd: dirname(outside), encoding: "utf8" });
    rmSync(dirname(outside), { recursive: true, force: true });
    expect(lost.status).not.toBe(0);
    expect(lost.stderr).toMatch(/groundwire: the markdown parser's bundle is neither at \S*vendor\/markdown\.js nor in an installed groundwire package/);
  });

  it("an unknown subpath is refused by the exports map", () => {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("groundwire/dist/chunks/x.js")'], { cwd: pkg.app, encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
});
