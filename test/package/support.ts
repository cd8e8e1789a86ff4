/**
 * Shared by the package and browser suites: the probe's inputs, `npm pack` + install
 * into a fresh project, and running a probe in a child Node process.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rollup/parseAst";

/** The repository root (absolute path, trailing slash). */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PROBE = join(ROOT, "test/browser/probe.js");

/** Fail early, with the fix, when the suite runs without a build (npm test builds first). */
export function requireBuild(): void {
  for (const f of ["dist/index.js", "dist/node.js", "dist/cli.js", "dist/cli.cjs", "dist/browser/groundwire.js"]) {
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does it in pretest)`);
  }
}

/**
 * The probe's inputs (see test/browser/probe.js), all read from fixtures in the repo.
 * `sample`: for the slow runs (pure-TS backend, jitless Chromium) only every `stride`-th
 * bestSpan parity case plus the first case of each kind; the full parity of the two
 * backends is the moot suite's job, here the point is "the same bytes everywhere".
 */
export function probeInput(backend?: "auto" | "wasm" | "ts", options: { sample?: number } = {}) {
  const parity = JSON.parse(readFileSync(join(ROOT, "test/fixtures/moot/parity.json"), "utf8"));
  let cases = parity.cases as { kind: string; quote: string; sources: number[] }[];
  if (options.sample) {
    const stride = options.sample;
    const kinds = new Set<string>();
    cases = cases.filter((c, i) => {
      const first = !kinds.has(c.kind);
      kinds.add(c.kind);
      return first || i % stride === 0;
    });
  }
  return {
    parity: { passages: parity.passages as string[], cases: cases.map((c) => ({ quote: c.quote, sources: c.sources })) },
    ntriples: readFileSync(join(ROOT, "test/browser/fixtures/schemaorg-places.nt"), "utf8"),
    markdown: readFileSync(join(ROOT, "test/browser/fixtures/system-design-primer-excerpt.md"), "utf8"),
    ...(backend ? { backend } : {}),
  };
}

/** What `runProbe` returns. */
export interface ProbeResult {
  env: { backend: { requested: string; active: string; reason: string | null }; sha256: string | null };
  parts: Record<string, unknown>;
  skipped: Record<string, string>;
}

export interface Installed {
  /** the temp dir holding the tarball and the app */
  dir: string;
  /** the fresh project that installed the tarball */
  app: string;
  tarball: string;
  /** paths inside the tarball, as `npm pack --json` lists them */
  files: string[];
}

/**
 * `npm pack` the repo into a temp dir, then `npm install` the tarball into a fresh project
 * there (offline first: every dependency is in the npm cache after the repo's own install;
 * falls back to the registry when the cache lacks one).
 */
export function packAndInstall(): Installed {
  requireBuild();
  const dir = mkdtempSync(join(tmpdir(), "groundwire-pack-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  const tarball = join(dir, packed[0].filename as string);
  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "groundwire-consumer", private: true, type: "module", dependencies: { groundwire: `file:${tarball}` } }, null, 2));
  const flags = ["install", "--no-audit", "--no-fund", "--ignore-scripts"];
  let r = spawnSync("npm", [...flags, "--offline"], { cwd: app, encoding: "utf8" });
  if (r.status !== 0) r = spawnSync("npm", [...flags, "--prefer-offline"], { cwd: app, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm install of the tarball failed:\n${r.stderr}`);
  return { dir, app, tarball, files: (packed[0].files as { path: string }[]).map((f) => f.path) };
}

/** A probe's child process exited non-zero; `stderr` says why. */
export class ProbeFailed extends Error {
  constructor(readonly specifier: string, readonly status: number | null, readonly stderr: string) {
    super(`probe of ${specifier} failed (exit ${status}):\n${stderr}`);
    this.name = "ProbeFailed";
  }
}

/**
 * Run test/browser/probe.js in a child Node process against `specifier` (a package name
 * resolved from `cwd`, or an absolute file URL), optionally with `WebAssembly` deleted
 * before the import. Returns the parsed result and what the process wrote to stderr.
 */
export function runProbeInNode(
  specifier: string,
  cwd: string,
  options: { backend?: "auto" | "wasm" | "ts"; noWasm?: boolean; sample?: number; conditions?: string[] } = {},
): { result: ProbeResult; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "groundwire-probe-"));
  const inputPath = join(dir, "input.json");
  writeFileSync(inputPath, JSON.stringify(probeInput(options.backend, { sample: options.sample })));
  const script = join(cwd, `.probe-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(
    script,
    [
      `import { readFileSync } from "node:fs";`,
      options.noWasm ? `delete globalThis.WebAssembly;` : ``,
      `const gw = await import(${JSON.stringify(specifier)});`,
      `const { runProbe } = await import(${JSON.stringify(new URL(`file://${PROBE}`).href)});`,
      `const out = await runProbe(gw, JSON.parse(readFileSync(${JSON.stringify(inputPath)}, "utf8")));`,
      `process.stdout.write(JSON.stringify(out));`,
    ].join("\n"),
  );
  const flags = (options.conditions ?? []).map((c) => `--conditions=${c}`);
  const r = spawnSync(process.execPath, [...flags, script], { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new ProbeFailed(specifier, r.status, r.stderr);
  return { result: JSON.parse(r.stdout) as ProbeResult, stderr: r.stderr };
}

/**
 * The files reached from the ES module `entry` by its imports (static and dynamic, or those
 * `specifiersOf` reads; relative specifiers followed), and every other specifier they import,
 * as written (bare or builtin).
 */
export function importGraph(entry: string, specifiersOf: (code: string) => string[] = importSpecifiers): { files: Set<string>; specifiers: Set<string> } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of specifiersOf(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else specifiers.add(spec);
    }
  };
  visit(entry);
  return { files, specifiers };
}

/**
 * The static and dynamic import specifiers of one ES module's code, as written: relative
 * ('./x.js'), bare ('n3') or builtin ('node:fs'). Parsed with rollup's own parser, so
 * `import('mdast')` inside a JSDoc comment is not mistaken for an import.
 */
export function importSpecifiers(code: string): string[] {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as { type?: string; source?: { type?: string; value?: unknown } };
    if ((n.type === "ImportDeclaration" || n.type === "ExportAllDeclaration" || n.type === "ExportNamedDeclaration" || n.type === "ImportExpression") && n.source?.type === "Literal" && typeof n.source.value === "string") {
      out.add(n.source.value);
    }
    for (const value of Object.values(n)) if (value && typeof value === "object") walk(value);
  };
  walk(parseAst(code));
  return [...out];
}

/**
 * Assert two probe results are the same bytes (JSON), `env` aside. On a difference the
 * message names the part and the first differing item, not two megabytes of JSON.
 */
export function sameProbeBytes(actual: ProbeResult, expected: ProbeResult): string | null {
  const a = JSON.stringify({ parts: actual.parts, skipped: actual.skipped });
  const b = JSON.stringify({ parts: expected.parts, skipped: expected.skipped });
  if (a === b) return null;
  if (JSON.stringify(actual.skipped) !== JSON.stringify(expected.skipped)) {
    return `skipped parts differ: ${JSON.stringify(actual.skipped)} vs ${JSON.stringify(expected.skipped)}`;
  }
  for (const part of new Set([...Object.keys(actual.parts), ...Object.keys(expected.parts)])) {
    const x = actual.parts[part];
    const y = expected.parts[part];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      const i = x.findIndex((v, k) => JSON.stringify(v) !== JSON.stringify(y[k]));
      return `${part}[${i}] differs: ${JSON.stringify(x[i])} vs ${JSON.stringify(y[i])} (lengths ${x.length}, ${y.length})`;
    }
    const xs = JSON.stringify(x) ?? "undefined";
    const ys = JSON.stringify(y) ?? "undefined";
    let i = 0;
    while (i < xs.length && xs[i] === ys[i]) i++;
    return `${part} differs at char ${i}: …${xs.slice(Math.max(0, i - 60), i + 60)}… vs …${ys.slice(Math.max(0, i - 60), i + 60)}…`;
  }
  return "results differ";
}
