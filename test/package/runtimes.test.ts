/**
 * The package loads and answers in the runtimes beside Node: workerd (Cloudflare's runtime,
 * where a module may do no async work at load and WebAssembly compiles are refused), Deno
 * and Bun. Each runs the same workload (test/package/runtimes/workload.js: bestSpan on the
 * parity fixture's first quotes, a markdown file's fragments, the fingerprint of a small graph, a
 * SHA-256) and must give Node's values byte for byte, the backend it ran on reported. The three runtimes are the
 * npm packages in devDependencies (their binaries come as optional dependencies); one that
 * does not run on this machine is skipped with the reason. `npm test` runs dist/node.js in
 * Bun and Deno and both worker forms in workerd (seconds); the deep run adds
 * dist/index.js in Node and Deno (which load every dependency at import).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, requireBuild } from "./support.js";
import { DEEP } from "../depth.js";

const DIR = join(ROOT, "test/package/runtimes");
const BIN = (name: string) => join(ROOT, "node_modules/.bin", name);

/** The workload's input: every value from the repository's fixtures. */
function workloadInput(): string {
  const parity = JSON.parse(readFileSync(join(ROOT, "test/fixtures/moot/parity.json"), "utf8"));
  return JSON.stringify({
    passages: parity.passages,
    quotes: (parity.cases as { quote: string; sources: number[] }[]).slice(0, 8).map((c) => ({ quote: c.quote, sources: c.sources })),
    ntriples: readFileSync(join(ROOT, "test/browser/fixtures/schemaorg-places.nt"), "utf8"),
    markdown: readFileSync(join(ROOT, "test/fixtures/evidence/awesome-v002.md"), "utf8"),
  });
}

type Result = { values: unknown; env: { backend: { requested: string; active: string; reason: string | null }; sha256: string | null } };

/**
 * Why `name` cannot run here (its `--version` fails), or null when it runs. Said on the
 * console when the suite skips; with GROUNDWIRE_REQUIRE_RUNTIMES=1 (.ci/run) it fails instead.
 */
function unavailable(name: string): string | null {
  const r = spawnSync(BIN(name), ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (r.status === 0) return null;
  const reason = `${name} from npm does not run on this machine (${BIN(name)} --version: ${(r.error?.message ?? r.stderr ?? "").slice(0, 300)}); its smoke test is skipped`;
  if (process.env.GROUNDWIRE_REQUIRE_RUNTIMES === "1") throw new Error(reason);
  console.warn(reason);
  return reason;
}

/** Run test/package/runtimes/run.mjs under `command` on one entry; its one JSON line. */
function runScript(command: string, args: string[], entry: string, inputFile: string, mode?: "ready"): Result {
  const r = spawnSync(command, [...args, join(DIR, "run.mjs"), join(ROOT, entry), inputFile, ...(mode ? [mode] : [])], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
  if (r.status !== 0) throw new Error(`${command} ${entry} exited ${r.status}:\n${r.stderr.slice(0, 1500)}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1)!);
}

/** A loopback port free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let scratch: string;
let inputFile: string;
let node: Result;

beforeAll(() => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), "gw-runtimes-"));
  inputFile = join(scratch, "input.json");
  writeFileSync(inputFile, workloadInput());
  node = runScript(process.execPath, [], "dist/node.js", inputFile);
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("Node (the reference values)", () => {
  it("dist/node.js: WASM backend and node:crypto at import, no ready() needed", () => {
    expect(node.env).toEqual({ backend: { requested: "auto", active: "wasm", reason: null }, sha256: "node:crypto" });
    expect((node.values as { spans: unknown[] }).spans.filter(Boolean).length).toBeGreaterThan(4);
    expect((node.values as { fragments: unknown[] }).fragments.length).toBeGreaterThan(20);
  });

  it.skipIf(!DEEP)("dist/index.js in Node: pure TS while the WASM modules' chunks arrive, @noble/hashes; after ready(), WASM and hash-wasm; the same values", () => {
    const plain = runScript(process.execPath, [], "dist/index.js", inputFile);
    expect(plain.values).toEqual(node.values);
    expect(plain.env.sha256).toBe("@noble/hashes");
    expect(plain.env.backend.active).toBe("ts");
    expect(plain.env.backend.reason).toMatch(/^WebAssembly module \w+'s bytes is still arriving/);
    const ready = runScript(process.execPath, [], "dist/index.js", inputFile, "ready");
    expect(ready.values).toEqual(node.values);
    expect(ready.env).toEqual({ backend: { requested: "auto", active: "wasm", reason: null }, sha256: "hash-wasm" });
  });
});

describe.skipIf(unavailable("bun"))("Bun (npm bun)", () => {
  it("dist/node.js gives Node's values on the WASM backend, node:crypto", () => {
    const bun = runScript(BIN("bun"), [], "dist/node.js", inputFile);
    expect(bun.values).toEqual(node.values);
    expect(bun.env).toEqual(node.env);
  });
});

describe.skipIf(unavailable("deno"))("Deno (npm deno; --allow-env: readable-stream and debug read the environment)", () => {
  for (const entry of DEEP ? ["dist/node.js", "dist/index.js"] : ["dist/node.js"]) {
    it(`${entry} gives Node's values on the WASM backend`, () => {
      const deno = runScript(BIN("deno"), ["run", "--allow-read", "--allow-env"], entry, inputFile, "ready");
      expect(deno.values).toEqual(node.values);
      expect(deno.env).toEqual({ backend: { requested: "auto", active: "wasm", reason: null }, sha256: entry === "dist/node.js" ? "node:crypto" : "hash-wasm" });
    });
  }
});

describe.skipIf(unavailable("workerd"))("workerd (npm workerd): WebAssembly compiles refused, pure TS reported", () => {
  let workerd: ChildProcess | undefined;
  let log = "";
  const origin: Record<string, string> = {};
  const REFUSED = "Wasm code generation disallowed by embedder";

  beforeAll(async () => {
    const dir = join(scratch, "workerd");
    // as wrangler bundles a worker: esbuild, the worker conditions, "groundwire" resolved to this package
    const esbuild = spawnSync(BIN("esbuild"), [
      join(DIR, "worker.js"), "--bundle", "--format=esm", "--platform=browser", "--conditions=workerd,worker,browser",
      `--alias:groundwire=${ROOT}`, `--outfile=${join(dir, "bundled.js")}`, "--log-level=error",
    ], { encoding: "utf8" });
    if (esbuild.status !== 0) throw new Error(`esbuild: ${esbuild.stderr}`);
    // and the self-contained file, loaded as it is (no bundler)
    copyFileSync(join(ROOT, "dist/browser/groundwire.js"), join(dir, "groundwire.js"));
    copyFileSync(join(DIR, "workload.js"), join(dir, "workload.js"));
    writeFileSync(join(dir, "plain.js"), readFileSync(join(DIR, "worker.js"), "utf8").replace(`from "groundwire"`, `from "./groundwire.js"`));
    const ports = { bundled: await freePort(), plain: await freePort() };
    for (const [name, port] of Object.entries(ports)) {
      if (!Number.isInteger(port)) throw new Error(`bad port ${port}`);
      origin[name] = `http://127.0.0.1:${port}`;
    }
    const worker = (modules: string[], flags: string[]) =>
      `(modules = [${modules.map((m) => `(name = ${JSON.stringify(m)}, esModule = embed ${JSON.stringify(m)})`).join(", ")}], compatibilityDate = "2025-09-01", compatibilityFlags = ${JSON.stringify(flags)})`;
    writeFileSync(join(dir, "config.capnp"), [
      `using Workerd = import "/workerd/workerd.capnp";`,
      `const config :Workerd.Config = (`,
      `  services = [`,
      `    (name = "bundled", worker = ${worker(["bundled.js"], ["nodejs_compat"])}),`,
      `    (name = "plain", worker = ${worker(["plain.js", "groundwire.js", "workload.js"], [])}),`,
      `  ],`,
      `  sockets = [`,
      `    (name = "bundled", address = "127.0.0.1:${ports.bundled}", http = (), service = "bundled"),`,
      `    (name = "plain", address = "127.0.0.1:${ports.plain}", http = (), service = "plain"),`,
      `  ]`,
      `);`,
    ].join("\n"));
    workerd = spawn(BIN("workerd"), ["serve", join(dir, "config.capnp")], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    workerd.stdout!.on("data", (d) => (log += d));
    workerd.stderr!.on("data", (d) => (log += d));
    const deadline = Date.now() + 30_000;
    while ((log.match(/Listening on/g) ?? []).length < 2) {
      if (workerd.exitCode !== null || Date.now() > deadline) throw new Error(`workerd did not start:\n${log.slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
  afterAll(() => {
    workerd?.kill();
  });

  const ask = async (name: string, query = ""): Promise<Result> => {
    const response = await fetch(`${origin[name]}/${query}`, { method: "POST", body: readFileSync(inputFile) });
    const text = await response.text();
    expect(response.status, `${name}: ${text.slice(0, 500)}\n${log.slice(0, 2000)}`).toBe(200);
    return JSON.parse(text);
  };

  for (const name of ["bundled", "plain"]) {
    const label = name === "bundled" ? "the browser-safe entry bundled as wrangler does (nodejs_compat)" : "dist/browser/groundwire.js as it is";
    it(`${label}: loads, gives Node's values on pure TS and @noble/hashes, and says why`, async () => {
      const first = await ask(name);
      expect(first.values).toEqual(node.values);
      expect(first.env.backend.active).toBe("ts");
      // the self-contained file carries the modules' bytes: its first call tries them and is refused;
      // the bundled entry's first call starts the import of a module's chunk (bindings/deferred.ts)
      if (name === "plain") expect(first.env.backend.reason).toContain(REFUSED);
      else expect(first.env.backend.reason).toMatch(new RegExp(`still arriving|${REFUSED}`));
      expect(first.env.sha256).toBe("@noble/hashes");
      // ready() settles (both compiles refused) and the reason becomes final
      const ready = await ask(name, "?ready");
      expect(ready.values).toEqual(node.values);
      // the reason of the bundle's first module (match, closure, listing or suggest: all are refused alike);
      // a module whose bytes arrived only with ready() was never tried synchronously
      const reasonOf = (m: string, sync: boolean) =>
        `WebAssembly module ${m} failed to load: WebAssembly.compile(): ${REFUSED}` + (sync ? ` (synchronously: WebAssembly.Module(): ${REFUSED})` : "");
      expect({ ...ready.env.backend, reason: null }).toEqual({ requested: "auto", active: "ts", reason: null });
      const reasons = ["match", "closure", "listing", "suggest"].flatMap((m) => name === "plain" ? [reasonOf(m, true)] : [reasonOf(m, true), reasonOf(m, false)]);
      expect(reasons, String(ready.env.backend.reason)).toContain(ready.env.backend.reason);
      expect(ready.env.sha256).toBe("@noble/hashes");
    });
  }
});
