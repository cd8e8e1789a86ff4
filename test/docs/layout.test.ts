// The layout the docs describe is the tree: docs/DESIGN.md's layout block names every entry of
// ts/, assembly/ and bindings/ and every top-level folder; bench/ holds benches only (every file
// is reached from `npm run bench` or a named bench script of package.json, by code: an import,
// a `new URL("./…", import.meta.url)`, a Python import; a mention in a comment does not count).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");

/** The fenced block under "## Layout" in docs/DESIGN.md. */
function layoutBlock(): string {
  const design = read("docs/DESIGN.md");
  const at = design.indexOf("## Layout");
  expect(at, "docs/DESIGN.md has a ## Layout section").toBeGreaterThan(0);
  const block = /```\n([\s\S]*?)```/.exec(design.slice(at));
  return block![1]!;
}

describe("docs/DESIGN.md's layout is the tree", () => {
  const block = layoutBlock();
  /** Whether the block names `name` as a word of the tree (`match.ts`, `quote-index/`). */
  const names = (name: string) => new RegExp(`(^|[\\s(/,])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[\\s),;:])`, "m").test(block);

  it("names every file and folder directly under ts/, assembly/ and bindings/ (generated files aside)", () => {
    const missing: string[] = [];
    for (const dir of ["ts", "assembly", "bindings"]) {
      for (const entry of readdirSync(join(ROOT, dir))) {
        if (entry.includes(".generated.") || entry === "tsconfig.json" || entry.endsWith(".d.ts")) continue;
        const isDir = statSync(join(ROOT, dir, entry)).isDirectory();
        if (!names(isDir ? `${entry}/` : entry)) missing.push(`${dir}/${entry}${isDir ? "/" : ""}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names every top-level folder of the repository, and no folder that is not there", () => {
    const tracked = ["assembly", "bench", "bindings", "data", "docs", "scripts", "test", "ts", "web"];
    for (const dir of tracked) expect(statSync(join(ROOT, dir)).isDirectory(), dir).toBe(true);
    const named = [...block.matchAll(/^([a-z][\w-]*)\/\s/gm)].map((m) => m[1]!);
    expect(named.filter((d) => !tracked.includes(d))).toEqual([]);
    expect(tracked.filter((d) => d !== "docs" && !named.includes(d))).toEqual([]);
  });
});

describe("bench/ holds benches only", () => {
  const files = readdirSync(join(ROOT, "bench"), { recursive: true, encoding: "utf8" })
    .map((f) => `bench/${f.split("\\").join("/")}`)
    .filter((f) => statSync(join(ROOT, f)).isFile());
  const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;

  /** The bench files a file reaches by code. */
  function reachedFrom(file: string): string[] {
    const text = read(file);
    const dir = posix.dirname(file);
    const out: string[] = [];
    if (file.endsWith(".py")) {
      for (const m of text.matchAll(/^\s*(?:from\s+(\w+)\s+import|import\s+(\w+))/gm)) out.push(posix.join(dir, `${m[1] ?? m[2]}.py`));
      return out;
    }
    if (!/\.(ts|js|cjs|mjs)$/.test(file)) return out;
    for (const i of ts.preProcessFile(text, true, true).importedFiles) {
      if (i.fileName.startsWith(".")) out.push(posix.join(dir, i.fileName).replace(/\.js$/, ".ts"));
      else out.push(`bench/types/${i.fileName}.d.ts`); // a declaration for a package a bench imports
    }
    for (const m of text.matchAll(/new URL\(\s*["'`](\.{0,2}\/?[\w./-]+)["'`]\s*,\s*import\.meta\.url\s*\)/g)) out.push(posix.join(dir, m[1]!).replace(/\/$/, ""));
    return out;
  }

  it("every file is reached from npm run bench (bench/run.ts and each *.bench.ts it loads) or a named script", () => {
    const run = read("bench/run.ts");
    expect(run, "bench/run.ts loads every *.bench.ts").toContain('.endsWith(".bench.ts")');
    expect(scripts.bench).toContain("bench/run.ts");
    const seeds = ["bench/run.ts", ...files.filter((f) => /^bench\/[^/]+\.bench\.ts$/.test(f))];
    for (const command of Object.values(scripts)) for (const m of command.matchAll(/\bbench\/[\w./-]+\.(?:ts|js|cjs|mjs|py)\b/g)) seeds.push(m[0]);
    const reached = new Set<string>();
    const queue = [...seeds];
    while (queue.length) {
      const f = queue.pop()!;
      if (reached.has(f) || !files.includes(f)) continue;
      reached.add(f);
      queue.push(...reachedFrom(f));
    }
    // bench/results/ is what bench/run.ts writes (each run's JSON, latest.md), not code
    expect(run).toContain('new URL("./results/", import.meta.url)');
    const orphans = files.filter((f) => !f.startsWith("bench/results/") && !reached.has(f));
    expect(orphans, "not part of npm run bench nor of a named bench script").toEqual([]);
  });
});
