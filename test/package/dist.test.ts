/**
 * One copy of each dependency (issue 16 item 2): every package the sources import is
 * declared in package.json "dependencies", the built dist/ imports only declared packages,
 * and no file of dist/ carries third-party code (modules from node_modules inlined by the
 * bundler) except the two documented ones: the self-contained browser bundle and the
 * markdown stack of dist/vendor/ (docs/package.md says why). The bundler records which
 * modules each output file holds in build/modules.json (rollup.config.mjs); every .js file
 * of dist/ must be in that record, so a file written some other way cannot slip through.
 */
import { readFileSync, readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, importSpecifiers, requireBuild } from "./support.js";

/** The files of dist/ allowed to carry third-party code, as docs/package.md documents them. */
const DOCUMENTED_BUNDLES = ["dist/browser/groundwire.js", "dist/vendor/markdown.js"];

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; peerDependencies: Record<string, string> };
// the optional peers (serve's and mcp's HTTP/MCP stack, --store's pg) are declared too
const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
const packageOf = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
const isBuiltin = (spec: string) => spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]);

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && ext.test(d.name))
    .map((d) => relative(ROOT, join(d.parentPath, d.name)).split("\\").join("/"));
}

describe("dependencies are declared, dist/ carries no inlined node_modules code", () => {
  beforeAll(requireBuild);

  it("every package the sources import (ts/, bindings/) is a declared dependency; the markdown stack's, bundled, build-time ones", () => {
    const undeclared = new Set<string>();
    // ts/deps/markdown.ts is the input of dist/vendor/markdown.js, the one copy of the stack
    // both builds load (Node's ts/deps/markdown.node.ts requires the bundle): its packages are
    // devDependencies, and no other source may import them
    const bundled = "ts/deps/markdown.ts";
    const vendored = new Set<string>();
    for (const file of [...filesUnder("ts", /\.ts$/), ...filesUnder("bindings", /\.ts$/)]) {
      // comments dropped (they quote code); type-only imports are checked on the built
      // declarations below, where they reach consumers
      const code = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'])\/\/.*$/gm, "$1");
      // static imports and re-exports, dynamic import("x") and require("x")
      const specs = [...code.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["']([^"'.][^"']*)["']|\bimport\(\s*["']([^"'.][^"']*)["']\s*\)|\brequire\(\s*["']([^"'.][^"']*)["']\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
      for (const s of specs) {
        if (file === bundled) vendored.add(packageOf(s));
        else if (!isBuiltin(s) && !declared.has(packageOf(s))) undeclared.add(`${packageOf(s)} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
    expect(vendored.size).toBeGreaterThan(5);
    for (const p of vendored) expect(pkg.devDependencies[p], `${p}, bundled into dist/vendor/markdown.js, is a devDependency`).toBeDefined();
  });

  it("the declarations import only declared packages (@types/n3 is a dependency: no TS7016, no silent any)", () => {
    const dts = readFileSync(join(ROOT, "dist/index.d.ts"), "utf8");
    const specs = [...dts.matchAll(/\bfrom\s*["']([^"'.][^"']*)["']|\bimport\(\s*["']([^"'.][^"']*)["']\s*\)/g)].map((m) => m[1] ?? m[2]);
    expect(specs.length).toBeGreaterThan(0);
    for (const s of specs) {
      const p = packageOf(s);
      expect(declared.has(p) || declared.has(`@types/${p}`), `dist/index.d.ts imports ${s}`).toBe(true);
    }
  });

  it("the built files import only declared packages and node builtins", () => {
    const bad: string[] = [];
    for (const file of filesUnder("dist", /\.js$/)) {
      for (const s of importSpecifiers(readFileSync(join(ROOT, file), "utf8"))) {
        if (!s.startsWith(".") && !isBuiltin(s) && !declared.has(packageOf(s))) bad.push(`${file}: ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("only the documented bundles hold modules from node_modules (build/modules.json)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "build/modules.json"), "utf8")) as Record<string, { build: string; modules: string[] }>;
    // dist/web is the page of `serve` (Vite, from web/, no dependency at all; test/browser/page.test.ts)
    const js = filesUnder("dist", /\.js$/).filter((f) => !f.startsWith("dist/web/"));
    expect(js.filter((f) => !(f in manifest)), "dist files the build did not record").toEqual([]);
    const inlined = Object.entries(manifest)
      .filter(([file]) => !DOCUMENTED_BUNDLES.includes(file))
      .flatMap(([file, { modules }]) => modules.filter((m) => m.includes("node_modules/")).map((m) => `${file} ← ${m}`));
    expect(inlined).toEqual([]);
    // the check sees inlined code where there is some: the documented bundles do hold it
    for (const file of DOCUMENTED_BUNDLES) expect(manifest[file].modules.some((m) => m.includes("node_modules/")), file).toBe(true);
    // the Traqula grammar (chevrotain) is nowhere but in the self-contained bundle
    expect(Object.entries(manifest).filter(([f, { modules }]) => f !== DOCUMENTED_BUNDLES[0] && modules.some((m) => m.includes("chevrotain"))).map(([f]) => f)).toEqual([]);
  });

  it("docs/package.md names the documented bundles", () => {
    const doc = readFileSync(join(ROOT, "docs/package.md"), "utf8");
    for (const file of DOCUMENTED_BUNDLES) expect(doc).toContain(file);
  });
});
