import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEEP, spread } from "./depth.js";
import { backendInfo, initWasm, setBackend } from "../bindings/wasm.js";
import { matchWasmFor } from "../bindings/match.js";
import { closureWasmFor } from "../bindings/closure.js";
import { listingWasmFor } from "../bindings/listing.js";
import { sha256Backend, sha256Hex } from "../bindings/sha256.js";
import { KINDS } from "../ts/args.js";
import { OBJECT_KINDS } from "../ts/arg-kinds.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the house", () => {
  it("loads the inlined WASM modules, one memory each, and reports the active backend", async () => {
    expect(await initWasm()).toBe(true);
    const memories = [matchWasmFor(), closureWasmFor(), listingWasmFor()].map((x) => x!.memory);
    for (const m of memories) expect(m).toBeInstanceOf(WebAssembly.Memory);
    expect(new Set(memories).size).toBe(3);
    // each module exports its own kernel only
    expect(typeof matchWasmFor()!.seqMatch).toBe("function");
    expect(typeof matchWasmFor()!.qiScan).toBe("function");
    expect(matchWasmFor()!.closureRun).toBeUndefined();
    expect(closureWasmFor()!.seqMatch).toBeUndefined();
    expect(listingWasmFor()!.qiScan).toBeUndefined();
    expect(backendInfo()).toEqual({ requested: "auto", active: "wasm", reason: null });
    setBackend("ts");
    expect(backendInfo().active).toBe("ts");
    expect(matchWasmFor()).toBeNull();
    expect(listingWasmFor()).toBeNull();
    setBackend("auto");
    expect(() => setBackend("gpu" as never)).toThrow(/setBackend: backend must be one of "auto", "wasm", "ts", got "gpu"/);
    expect(() => matchWasmFor("gpu" as never)).toThrow(/unknown backend "gpu"/);
  });

  it("hashes with node:crypto in Node, the FIPS 180-4 digest of 'abc'", () => {
    expect(sha256Backend()).toBe("node:crypto");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("CLI argument errors", () => {
  it("are one line naming the command, exit 2, in the command's words where node:util's message spans lines", async () => {
    const { parseCommandArgs, CliError } = await import("../ts/cli/common.js");
    let error: unknown;
    try {
      parseCommandArgs("moot", ["--turns", "-x"], { turns: { type: "string" } }, "usage: groundwire moot …");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as InstanceType<typeof CliError>).exitCode).toBe(2);
    expect((error as Error).message).toBe('moot: --turns needs a value, got the option "-x" after it (if "-x" is the value, write --turns=-x) (groundwire help moot lists its options)');
    expect((error as Error).message).not.toContain("\n");
    // a negative number is the option's value, for the command's own check to name
    expect(parseCommandArgs("moot", ["--turns", "-3"], { turns: { type: "string" } }, "usage").values.turns).toBe("-3");
  });
});

describe("--help", () => {
  it("every command prints its usage on stdout and exits 0 with nothing on stderr", () => {
    const cli = new URL("../dist/cli.js", import.meta.url).pathname;
    // npm test: six of the twelve commands, --help and -h in turn; npm run test:deep (test/depth.ts): every command with both
    const commands = spread(["moot", "books", "index", "critique", "check", "prove", "render", "fragments", "cite", "bench", "serve", "mcp"], 6);
    for (const [i, command] of commands.entries()) {
      for (const flag of DEEP ? ["--help", "-h"] : [["--help", "-h"][i % 2]!]) {
        const r = spawnSync(process.execPath, [cli, command, flag], { encoding: "utf8" });
        expect(r.status, `${command} ${flag}: ${r.stderr}`).toBe(0);
        expect(r.stderr).toBe("");
        expect(r.stdout, `${command} ${flag}`).toMatch(new RegExp(`usage: groundwire ${command}\\b`));
      }
    }
  });
});

describe("a reader that stops early", () => {
  it("ends the command quietly (exit 0), not with an EPIPE stack", () => {
    const cli = new URL("../dist/cli.js", import.meta.url).pathname;
    // 5,000 triples list as ~400 KB, far more than a pipe buffers, so the writer meets EPIPE.
    const graph = join(mkdtempSync(join(tmpdir(), "gw-epipe-")), "big.nt");
    writeFileSync(graph, Array.from({ length: 5000 }, (_, i) => `<urn:s:${i}> <urn:p:label> "subject number ${i}" .\n`).join(""));
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${cli}" index "${graph}" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("0");
  });
});

/**
 * The layout's rules, read from the import graph (TypeScript's own `ts.preProcessFile`: every
 * `import`, `export … from`, `import type` and `import()` of every file, type-only ones included).
 *
 * - Parts: ts/<part>/ for the folders below. A part is reached from outside its folder only through
 *   its entry files, at the top of its folder: `index.ts` (its API) or, for an API that needs Node,
 *   `node.ts` / `*-node.ts` (a subfolder's index.ts is internal to the part).
 *   This holds for the other parts and for the consumers above them (ts/cli/, ts/server/ and the
 *   package entries ts/*.ts); bench/ and test/ are outside the rule (they time and test internals).
 * - Foundations any file may import file by file, which import no part and no consumer: bindings/,
 *   ts/rdf/, ts/net/, ts/deps/ and ts/errors.ts, ts/args.ts, ts/arg-kinds.ts, ts/work-limits.ts, ts/files.ts, ts/json-depth.ts, ts/quote-value.ts.
 * - No import cycle among the files of ts/, bindings/ and assembly/.
 * - No file over MAX_LINES lines under ts/ and assembly/, but generated tables (`*.generated.ts`)
 *   and the files of LONG_FILES, each with its reason.
 */
const PARTS = ["evidence", "kernel", "match", "memdsl", "moot", "triple-index"];
const FOUNDATIONS = ["bindings/", "ts/rdf/", "ts/net/", "ts/deps/", "ts/errors.ts", "ts/args.ts", "ts/arg-kinds.ts", "ts/files.ts", "ts/json-depth.ts", "ts/quote-value.ts", "ts/work-limits.ts"];
const MAX_LINES = 800;
/**
 * Consumer imports of a part's internals, each with why it cannot go through the part's entry. None
 * are left (every name a consumer needs is in an entry); an edge listed here that no longer exists
 * fails the test too.
 */
const CONSUMER_EXCEPTIONS: Record<string, string> = {};
/** Files allowed over MAX_LINES, and why (none: every hand-written file is under the line). */
const LONG_FILES: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => `${dir}/${f.split(sep).join("/")}`)
    .sort();
}

/** Every relative import of `file`, resolved to a repository path (.js → .ts; AssemblyScript's bare "./x" → x.ts). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((s) => s.startsWith("."))
    .map((s) => {
      const p = posix.join(posix.dirname(file), s).replace(/\.js$/, ".ts");
      return p.endsWith(".ts") ? p : `${p}.ts`;
    });
}

const partOf = (file: string) => (/^ts\/([^/]+)\//.exec(file)?.[1] ?? "");
const isEntry = (file: string) => /^ts\/[^/]+\/(index|node|[a-z-]+-node)\.ts$/.test(file);
const isFoundation = (file: string) => FOUNDATIONS.some((f) => file === f || (f.endsWith("/") && file.startsWith(f)));

describe("the import graph", () => {
  const files = [...sourceFiles("ts"), ...sourceFiles("bindings"), ...sourceFiles("assembly")];
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it("reads every file it resolves (the graph is whole)", () => {
    const known = new Set(files);
    const missing = [...graph].flatMap(([f, deps]) => deps.filter((d) => !known.has(d) && !d.startsWith("bench/")).map((d) => `${f} -> ${d}`));
    expect(missing).toEqual([]);
    expect(graph.get("ts/moot/grounding.ts")).toContain("ts/match/index.ts");
  });

  it("reaches a part only through its entry files (index.ts; node.ts or *-node.ts for Node)", () => {
    const crossings: string[] = [];
    for (const [from, deps] of graph) {
      if (!from.startsWith("ts/")) continue;
      for (const to of deps) {
        const part = partOf(to);
        if (!PARTS.includes(part) || partOf(from) === part || isEntry(to)) continue;
        crossings.push(`${from} -> ${to}`);
      }
    }
    const unlisted = crossings.filter((c) => !(c in CONSUMER_EXCEPTIONS) || PARTS.includes(partOf(c.split(" -> ")[0])));
    expect(unlisted, "a part's internals reached from outside it").toEqual([]);
    expect(Object.keys(CONSUMER_EXCEPTIONS).filter((c) => !crossings.includes(c)), "listed exceptions that are gone: strike them").toEqual([]);
  });

  it("keeps the foundations below the parts: they import no part and no consumer", () => {
    const up = [...graph].flatMap(([from, deps]) => (isFoundation(from) ? deps.filter((d) => d.startsWith("ts/") && !isFoundation(d)).map((d) => `${from} -> ${d}`) : []));
    expect(up).toEqual([]);
  });

  it("has no import cycle (type-only imports included)", () => {
    // Tarjan's strongly connected components; a component of two or more files is a cycle
    let counter = 0;
    const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>(), stack: string[] = [];
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      index.set(v, counter), low.set(v, counter++), stack.push(v), onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!));
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do (w = stack.pop()!), onStack.delete(w), component.push(w);
        while (w !== v);
        if (component.length > 1 || graph.get(v)!.includes(v)) cycles.push(component.sort());
      }
    };
    for (const f of files) if (!index.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it("checks arguments with a checkArgs that knows every kind its specs name (ts/args.ts, ts/arg-kinds.ts)", () => {
    const known: Record<string, Set<string>> = {
      "ts/args.ts": new Set(Object.keys(KINDS)),
      "ts/arg-kinds.ts": new Set([...Object.keys(KINDS), ...Object.keys(OBJECT_KINDS)]),
    };
    expect(Object.keys(OBJECT_KINDS).filter((k) => k in KINDS)).toEqual([]);
    const unknown: string[] = [];
    let specs = 0;
    for (const file of files.filter((f) => !(f in known))) {
      const text = readFileSync(join(ROOT, file), "utf8");
      const checker = (graph.get(file) ?? []).find((d) => d in known);
      for (const [, spec] of text.matchAll(/\bcheckArgs\("[^"]*", arguments, "([^"]*)"\)/g)) {
        specs++;
        for (const item of spec.split(" ").filter(Boolean)) {
          for (const kind of item.slice(item.indexOf(":") + 1).split("|")) {
            if (!kind.startsWith("=") && !(checker && known[checker].has(kind))) unknown.push(`${file}: ${kind} (checkArgs from ${checker ?? "nowhere"})`);
          }
        }
      }
    }
    expect(specs).toBeGreaterThan(150);
    expect(unknown).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines under ts/ and assembly/ but generated tables and the listed ones`, () => {
    const lines = (f: string) => readFileSync(join(ROOT, f), "utf8").split("\n").length - 1;
    const long = [...sourceFiles("ts"), ...sourceFiles("assembly")].filter((f) => !f.endsWith(".generated.ts") && lines(f) > MAX_LINES);
    expect(long.filter((f) => !(f in LONG_FILES)).map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
    expect(Object.keys(LONG_FILES).filter((f) => !long.includes(f)), "listed long files that are short now (or gone): strike them").toEqual([]);
  });
});
