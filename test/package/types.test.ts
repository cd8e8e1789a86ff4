/**
 * The types as a consumer compiles them (issue 16 item 3, the resolution part): the packed
 * tarball installed in a fresh project, and `tsc --noEmit` on a consumer file under
 * `moduleResolution` node16, bundler and node10, each with `skipLibCheck: false` and
 * `strict`. The consumer uses the Node-only functions (which vanished from the types under
 * bundler/node10 before), values whose types come from n3 (an `N3.Store`: TS7016 or a silent
 * `any` before, when @types/n3 was a dev dependency), and one deliberate error per project
 * that must be reported — so a project that type-checks nothing (every import `any`) fails.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, packAndInstall, type Installed } from "./support.js";

const CONSUMER = `import { bestSpan, parseGraph, buildTripleIndex, loadGraphFile, writeGraphFile, createOxigraphStore, loadBooks, loadDocumentFile, type Graph, type SpanMatch } from "groundwire";

const graph: Graph = parseGraph("<urn:a> <urn:b> <urn:c> .");
// an n3 type through the package's own types: Store#size is a number only if @types/n3 resolves
const size: number = graph.store.size;
const match: SpanMatch = bestSpan("the old mill", ["old mill stood by the river"]);
const ratio: number = match.ratio;
const index = buildTripleIndex(graph);
const fingerprint: string = index.fingerprint;
// the Node-only functions are in the types under every resolution
const loaders = [loadGraphFile, writeGraphFile, createOxigraphStore, loadBooks, loadDocumentFile];
export { size, ratio, fingerprint, loaders };
`;
/** Must fail to compile: proof that the package's types are real, not `any`. */
const DELIBERATE_ERROR = `import { bestSpan } from "groundwire";\nexport const wrong: string = bestSpan("a", ["a"]).ratio;\n`;

const PROJECTS: Record<string, Record<string, unknown>> = {
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
  // esModuleInterop as `tsc --init` sets it: zod's own CommonJS declarations (reached through the
  // input schemas' types) default-import their locale modules, which node10 needs it for.
  node10: { module: "commonjs", moduleResolution: "node10", esModuleInterop: true },
};

describe("consumer projects type-check against the packed package (skipLibCheck false)", () => {
  let pkg: Installed;
  beforeAll(() => {
    pkg = packAndInstall();
    writeFileSync(join(pkg.app, "consumer.ts"), CONSUMER);
    writeFileSync(join(pkg.app, "wrong.ts"), DELIBERATE_ERROR);
  });
  afterAll(() => {
    if (pkg) rmSync(pkg.dir, { recursive: true, force: true });
  });

  for (const [name, options] of Object.entries(PROJECTS)) {
    it(`moduleResolution ${name}: the consumer compiles, the deliberate error is reported`, { timeout: 300_000 }, () => {
      const tsc = (file: string) => {
        const config = join(pkg.app, `tsconfig.${name}.${file}.json`);
        writeFileSync(
          config,
          JSON.stringify({ compilerOptions: { ...options, target: "es2022", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] }, files: [file] }, null, 2),
        );
        return spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", config], { cwd: pkg.app, encoding: "utf8" });
      };
      const ok = tsc("consumer.ts");
      expect(ok.stdout + ok.stderr).toBe("");
      expect(ok.status).toBe(0);
      const bad = tsc("wrong.ts");
      expect(bad.status).not.toBe(0);
      expect(bad.stdout).toMatch(/wrong\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
      expect(bad.stdout.split("\n").filter((l) => /error TS/.test(l))).toHaveLength(1);
    });
  }
});
