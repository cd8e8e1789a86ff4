/**
 * `groundwire bench`: how fast groundwire's hot paths run on this machine, and on which backend.
 *
 * Two situations, two behaviours:
 * - In a clone of the repository (bench/run.ts and the tsx dev dependency are present):
 *   runs the full harness, exactly `npx tsx bench/run.ts [part...] [--quick]`, every part's
 *   suite with its peers (python3 references, fuzzball, difflib…). That is what
 *   `npm run bench` does after building; it writes bench/results/ on a full run.
 * - In an installed package (no bench sources, no dev dependencies): runs a built-in check
 *   of the package's own hot paths on bundled data, WASM backend vs pure-TS backend —
 *   bestSpan on passages of the bundled books, the subclass closure on a generated DAG,
 *   SHA-256 on node:crypto vs hash-wasm vs @noble/hashes — each output checked first.
 *   It writes nothing; `--json` prints the figures.
 *
 * Options: `--quick` (budgets ×0.2), `--installed` (the built-in check even in a clone),
 * `--json` (built-in check only), part names (clone only).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { backendInfo } from "../../bindings/wasm.js";
import { hashWasmBackend, initSha256, pureJsBackend } from "../../bindings/sha256.js";
import { loadNoble } from "../deps/noble.js";
import { nodeCryptoBackend } from "../../bindings/sha256-node.js";
import type { BenchCase } from "../../bench/harness.js";
import { measureCase, type CaseResult } from "../../bench/timing.js";
import { caseText } from "../../bench/report.js";
import { createQuoteMatcher, words, type SpanMatch } from "../match/index.js";
import { closurePairCount, computeClosure, type Closure } from "../kernel/closure.js";
import { CliError, parseCommandArgs, type Command } from "./common.js";
import { packageRoot } from "./package-root.js";

/** tsx's CLI when the dev dependencies are installed (a clone after npm ci), else null. */
function tsxCli(root: string): string | null {
  try {
    return createRequire(join(root, "package.json")).resolve("tsx/cli");
  } catch {
    return null;
  }
}

/** 12 passages of ~1,200 characters from a bundled book and 40 quotes of 5–14 words cut from them, every 2nd misspelled. */
function quoteWorkload(root: string): { pool: string[]; quotes: string[] } {
  const book = join(root, "data/books/novel__frankenstein.txt");
  if (!existsSync(book)) throw new CliError(`bench: the bundled book ${book} is missing`);
  const text = readFileSync(book, "utf8");
  const pool: string[] = [];
  for (let k = 0; k < 12; k++) {
    const at = text.indexOf(" ", Math.floor(text.length * (0.1 + 0.07 * k))) + 1;
    pool.push(text.slice(at, text.lastIndexOf(" ", at + 1200)).trim());
  }
  const quotes: string[] = [];
  for (let q = 0; q < 40; q++) {
    const src = pool[q % 12];
    const ws = words(src);
    const n = 5 + (q % 10);
    const i = (q * 37) % Math.max(1, ws.length - n);
    const picked = ws.slice(i, i + n).map((w) => src.slice(w.start, w.end));
    if (q % 2) picked[1] = picked[1].slice(0, -1) + "e";
    quotes.push(picked.join(" "));
  }
  return { pool, quotes };
}

/** A DAG of n classes, a 4-ary tree with a second parent for every 4th class (deterministic). */
function dag(n: number): { child: Uint32Array; parent: Uint32Array } {
  const child: number[] = [];
  const parent: number[] = [];
  for (let i = 1; i < n; i++) {
    const p = Math.floor((i - 1) / 4);
    child.push(i);
    parent.push(p);
    if (i % 4 === 0 && p > 1) (child.push(i), parent.push(p - 1));
  }
  return { child: Uint32Array.from(child), parent: Uint32Array.from(parent) };
}

/** The built-in cases of an installed package (see the module comment). */
export function installedCases(root: string): BenchCase[] {
  const { pool, quotes } = quoteWorkload(root);
  const reference = createQuoteMatcher(pool, { backend: "ts" });
  const expected = JSON.stringify(quotes.map((q) => reference.bestSpan(q)));
  const spans = (backend: "wasm" | "ts") => {
    const matcher = createQuoteMatcher(pool, { backend });
    return () => quotes.map((q) => matcher.bestSpan(q));
  };
  const sameSpans = (out: unknown) => {
    if (JSON.stringify(out as SpanMatch[]) !== expected) throw new Error("spans differ from the TS reference");
  };
  const cases: BenchCase[] = [];
  const wasm = backendInfo().active === "wasm";
  cases.push({
    name: "bestSpan, 40 quotes of 5–14 words vs 12 passages of ~1,200 chars (bundled Frankenstein)",
    size: "small",
    units: { count: quotes.length, unit: "quotes" },
    contenders: [...(wasm ? [{ name: "wasm", run: spans("wasm"), check: sameSpans }] : []), { name: "ts", run: spans("ts"), check: sameSpans }],
  });
  const n = 200_000;
  const { child, parent } = dag(n);
  const pairs = closurePairCount(computeClosure(n, child, parent, { backend: "ts" }));
  const samePairs = (out: unknown) => {
    if (closurePairCount(out as Closure) !== pairs) throw new Error("closure size differs from the TS reference");
  };
  cases.push({
    name: `subclass closure, generated DAG of ${n.toLocaleString("en")} classes`,
    size: "large",
    units: { count: pairs, unit: "pairs" },
    contenders: [
      ...(wasm ? [{ name: "wasm", run: () => computeClosure(n, child, parent, { backend: "wasm" }), check: samePairs }] : []),
      { name: "ts", run: () => computeClosure(n, child, parent, { backend: "ts" }), check: samePairs },
    ],
  });
  const data = new Uint8Array(4 << 20).map((_, i) => (i * 2654435761) >>> 24);
  const digest = nodeCryptoBackend.digestHex(data);
  const sameDigest = (out: unknown) => {
    if (out !== digest) throw new Error("digest differs from node:crypto's");
  };
  const shaBackends = [nodeCryptoBackend, pureJsBackend];
  try {
    shaBackends.splice(1, 0, hashWasmBackend());
  } catch {
    // hash-wasm not initialised (no WebAssembly): node:crypto and the pure-JS fallback only
  }
  cases.push({
    name: "SHA-256 of 4 MiB",
    size: "large",
    units: { count: data.length, unit: "bytes" },
    contenders: shaBackends.map((b) => ({ name: b.name, run: () => b.digestHex(data), check: sameDigest })),
  });
  return cases;
}

const USAGE =
  "usage: groundwire bench [part...] [--quick] [--installed] [--json]\n\n" +
  "In a clone: runs the full harness (npx tsx bench/run.ts), every part's benchmark with its peers.\n" +
  "In an installed package: times bestSpan, the subclass closure and SHA-256 on bundled data,\n" +
  "WASM vs pure-TS backend, each output checked first. --installed forces that check in a clone.";

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("bench", args, {
      quick: { type: "boolean", default: false },
      installed: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    }, USAGE);
    const root = packageRoot();
    const runner = join(root, "bench/run.ts");
    const tsx = tsxCli(root);
    if (!values.installed && existsSync(runner) && tsx) {
      if (values.json) throw new CliError("bench: --json is for the built-in check (--installed); the full harness writes bench/results/*.json", 2);
      const r = spawnSync(process.execPath, [tsx, runner, ...positionals, ...(values.quick ? ["--quick"] : [])], { cwd: root, stdio: "inherit" });
      return r.status ?? 1;
    }
    if (positionals.length) throw new CliError(`bench: part names (${positionals.join(", ")}) need a clone of the repository with its dev dependencies; an installed package runs the built-in check`, 2);
    const scale = values.quick ? 0.2 : 1;
    const info = backendInfo();
    if (!values.json) {
      console.log(`groundwire bench (installed package): backend ${info.active}${info.reason ? ` (${info.reason})` : ""}, Node ${process.versions.node}`);
    }
    const results: CaseResult[] = [];
    await initSha256(); // hash-wasm is compiled on demand in Node; node:crypto stays the active backend
    await loadNoble();
    for (const c of installedCases(root)) {
      const r = await measureCase(c, { scale });
      results.push(r);
      if (!values.json) console.log(caseText("groundwire", r));
    }
    if (values.json) console.log(JSON.stringify({ backend: info, node: process.versions.node, cases: results }, null, 2));
    return results.some((r) => r.contenders.some((k) => k.error)) ? 1 : 0;
  },
};
export default command;
