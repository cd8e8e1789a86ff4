/**
 * What `import("groundwire")` and `groundwire --help` load in Node (issue 16 item 5; the
 * timings are in bench/package.bench.ts, never here). dist/node.js is one file whose static
 * imports reach one package, the WASM loader; dist/cli.js imports nothing at all, so
 * `--help` reads one file (and the bin, dist/cli.cjs, answers it without the ES module
 * loader, importing dist/cli.js for the rest); every other dependency (N3.js, zod, Traqula, the SHACL stack,
 * the markdown parser, oxigraph, MiniSearch, fastest-levenshtein) is `require`d at its first
 * use — checked in a child process that records every CommonJS load (`require` of an ES
 * module goes through the same loader).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it, beforeAll } from "vitest";
import { parseAst } from "rollup/parseAst";
import { importGraph, ROOT, requireBuild } from "./support.js";
import { spread } from "../depth.js";

/** The static import and re-export specifiers of one ES module (not `import()`: those load later). */
function staticSpecifiers(code: string): string[] {
  const body = (parseAst(code) as unknown as { body: { type: string; source?: { value?: unknown } | null }[] }).body;
  return body
    .filter((n) => (n.type === "ImportDeclaration" || n.type === "ExportAllDeclaration" || n.type === "ExportNamedDeclaration") && typeof n.source?.value === "string")
    .map((n) => n.source!.value as string);
}

/** Files reached from `entry` by static imports, and the packages they import. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const { files, specifiers } = importGraph(join(ROOT, entry), staticSpecifiers);
  const packages = new Set([...specifiers].map((spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0])));
  return { files, packages };
}

/** Packages a child `node` loaded through the CommonJS loader while running `code` (an ES module). */
function loadedPackages(code: string): string[] {
  const hook = `const M=require("node:module");const seen=new Set();const o=M._load;M._load=function(r,p,m){try{const f=M._resolveFilename(r,p,m);const x=/node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(f);if(x)seen.add(x[1])}catch{}return o.apply(this,arguments)};process.on("exit",()=>process.stderr.write("\\nLOADED "+JSON.stringify([...seen].sort())+"\\n"))`;
  const hookFile = join(mkdtempSync(join(tmpdir(), "gw-startup-")), "hook.cjs");
  writeFileSync(hookFile, hook);
  const r = spawnSync(process.execPath, ["--require", hookFile, "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`child exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(/LOADED (.*)\n/.exec(r.stderr)![1]);
}

describe("start-up in Node: what the import and --help load", () => {
  beforeAll(() => requireBuild());

  it("dist/node.js is one file of ours whose static imports reach only node builtins (the WASM modules load without a loader library)", () => {
    const { packages, files } = staticGraph("dist/node.js");
    expect([...files].map((f) => relative(ROOT, f))).toEqual(["dist/node.js"]);
    const thirdParty = [...packages].filter((p) => !p.startsWith("node:")).sort();
    expect(thirdParty).toEqual([]);
    // node:crypto is taken at the first hash, not imported
    expect([...packages].filter((p) => p.startsWith("node:")).sort()).toEqual(["node:fs", "node:module", "node:path", "node:url"]);
  });

  it("dist/cli.js (what --help runs) imports nothing: not a package, not a builtin, not a chunk", () => {
    const { packages, files } = staticGraph("dist/cli.js");
    expect([...packages]).toEqual([]);
    expect(files.size).toBe(1);
    const r = spawnSync(process.execPath, [join(ROOT, "dist/cli.js"), "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: groundwire <command>/);
  });

  it("the bin, dist/cli.cjs, is CommonJS needing only builtins, and answers as dist/cli.js does", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin.groundwire).toBe("dist/cli.cjs");
    const code = readFileSync(join(ROOT, "dist/cli.cjs"), "utf8");
    expect(code).not.toMatch(/^\s*import\s/m);
    expect([...code.matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2]).sort()).toEqual(["node:fs", "node:path", "node:url"]);
    // answered by the launcher (--help, help, bare, --version) and passed to dist/cli.js
    // (a command's help, an unknown command, a usage error): same streams, same exit codes.
    // npm test: six of the nine (bare, --help, --version; help locate, nosuch, locate: each kind of
    // either side), npm run test:deep (test/depth.ts): all nine
    const bin = (args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/cli.cjs"), ...args], { encoding: "utf8" });
    const answered = new Map<string, ReturnType<typeof bin>>();
    for (const args of spread([[], ["-V"], ["--help"], ["--version"], ["-h"], ["help", "locate"], ["nosuch"], ["help"], ["locate"]], 6)) {
      const viaBin = bin(args);
      const viaEsm = spawnSync(process.execPath, [join(ROOT, "dist/cli.js"), ...args], { encoding: "utf8" });
      expect({ args, status: viaBin.status, stdout: viaBin.stdout, stderr: viaBin.stderr }).toEqual({ args, status: viaEsm.status, stdout: viaEsm.stdout, stderr: viaEsm.stderr });
      answered.set(args.join(" "), viaBin);
    }
    const version = answered.get("--version") ?? bin(["--version"]);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version);
    expect((answered.get("") ?? bin([])).status).toBe(2);
  });

  it("zod, Traqula, the SHACL stack and the markdown parser load at first use, not at import", () => {
    const entry = JSON.stringify(join(ROOT, "dist/node.js"));
    const atImport = loadedPackages(`await import(${entry});`);
    expect(atImport).toEqual([]);
    const afterUse = loadedPackages(
      `const g = await import(${entry});` +
        `if (g.critiqueSchema.safeParse([{ op: "REMOVE", tripleIds: ["3"] }]).data[0].tripleIds[0] !== 3) throw new Error("critique");` +
        `const k = g.createKernel(g.Schema.fromGraph(g.parseGraph("")));` +
        `if (!k.check("SELECT * WHERE { ?s ?p ?o }")) throw new Error("kernel");`,
    );
    expect(afterUse).toContain("zod");
    expect(afterUse).toContain("@traqula/parser-sparql-1-1");
    expect(afterUse).toContain("n3");
  });

  it("N3.js loads at the first graph, and a GraphStore made then is an N3.Store with its quad table", () => {
    const entry = JSON.stringify(join(ROOT, "dist/node.js"));
    // the child prints what it saw; the hook records the packages loaded up to each mark
    const code =
      `const g = await import(${entry});` +
      `const before = globalThis.__loaded();` +
      `const graph = g.parseGraph("@prefix e: <http://example.org/> . e:a e:b e:c, e:d .");` +
      `const N3 = (await import("node:module")).createRequire(${entry})("n3");` +
      `const s = new g.GraphStore([N3.DataFactory.quad(N3.DataFactory.namedNode("http://example.org/x"), N3.DataFactory.namedNode("http://example.org/y"), N3.DataFactory.literal("z"))]);` +
      `console.log(JSON.stringify({ before, store: graph.store instanceof N3.Store && graph.store instanceof g.GraphStore, size: graph.store.size, rows: graph.store.quadRows().count, made: s instanceof N3.Store, madeSize: s.size, madeRows: s.quadRows().count, ttl: g.serializeGraph(graph) }));`;
    const hook = `const M=require("node:module");const seen=new Set();const o=M._load;M._load=function(r,p,m){try{const f=M._resolveFilename(r,p,m);const x=/node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(f);if(x)seen.add(x[1])}catch{}return o.apply(this,arguments)};globalThis.__loaded=()=>[...seen].sort();`;
    const hookFile = join(mkdtempSync(join(tmpdir(), "gw-startup-")), "hook.cjs");
    writeFileSync(hookFile, hook);
    const r = spawnSync(process.execPath, ["--require", hookFile, "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out.before).toEqual([]);
    expect(out).toMatchObject({ store: true, size: 2, rows: 2, made: true, madeSize: 1, madeRows: 1 });
    expect(out.ttl).toBe("@prefix e: <http://example.org/>.\n\ne:a e:b e:c, e:d.\n");
  });

  it("GraphStore.prototype reads as N3.Store's before the first graph (members, `in`, instanceof, a subclass), as the eager browser build does", () => {
    const entry = JSON.stringify(join(ROOT, "dist/node.js"));
    const code =
      `const g = await import(${entry});` +
      `const N3 = (await import("node:module")).createRequire(${entry})("n3");` +
      // read through the prototype before any instance exists: each of these was undefined/false in Node
      `const early = { match: typeof g.GraphStore.prototype.match, has: "addQuad" in g.GraphStore.prototype, bare: Object.create(g.GraphStore.prototype) instanceof N3.Store };` +
      `class Counted extends g.GraphStore { sizeTwice() { return 2 * this.size; } }` +
      `const c = new Counted([N3.DataFactory.quad(N3.DataFactory.namedNode("http://example.org/x"), N3.DataFactory.namedNode("http://example.org/y"), N3.DataFactory.literal("z"))]);` +
      `const later = new g.GraphStore();` +
      `console.log(JSON.stringify({ early, sub: [c instanceof Counted, c instanceof g.GraphStore, c instanceof N3.Store, c.sizeTwice(), c.quadRows().count], later: [later instanceof N3.Store, later.size], plain: new N3.Store() instanceof g.GraphStore, same: g.GraphStore.prototype.match === N3.Store.prototype.match }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      early: { match: "function", has: true, bare: true },
      sub: [true, true, true, 2, 1],
      later: [true, 0],
      plain: false,
      same: true,
    });
  });
});
