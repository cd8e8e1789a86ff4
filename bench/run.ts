/**
 * The benchmark runner: `npm run bench` (builds first), or `npx tsx bench/run.ts [part...]`.
 *
 * Loads every `bench/<part>.bench.ts` (each default-exports a BenchSuite, see harness.ts),
 * builds its cases, and for every case checks each contender's output and then times it
 * (bench/timing.ts): small inputs (per-call overhead), large ones (throughput) and kept
 * pathological ones, medians and ratios side by side. A suite that fails or skips is
 * reported and the run goes on.
 *
 * A full run (no part named) writes bench/results/<YYYY-MM-DD>.json, bench/results/latest.json
 * and bench/results/latest.md (the tables `npm run bench:readme` puts into docs/bench-results*.md).
 * A run of some parts writes nothing unless `--write`.
 *
 * Options:
 *   --quick             time budgets ×0.2 (a smoke run; figures are noisier)
 *   --scale X           time budgets ×X (also GROUNDWIRE_BENCH_SCALE)
 *   --write / --no-write  force writing the results, or not
 *   --list              list the suites and exit
 * Time: the default budgets (1.5 s per contender on small cases, 3 s on large ones, plus
 * the suites' own setup and python3 references) keep the whole run near 5–8 minutes on 2 cores.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { initNodeStart } from "../ts/node-start.js";
import type { BenchSuite } from "./harness.js";
import { caseText, reportMarkdown, type BenchReport, type SuiteResult } from "./report.js";
import { measureCase } from "./timing.js";

const HERE = new URL(".", import.meta.url);
const RESULTS = new URL("./results/", import.meta.url);

function tryRun(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    quick: { type: "boolean", default: false },
    scale: { type: "string" },
    write: { type: "boolean" },
    "no-write": { type: "boolean" },
    list: { type: "boolean", default: false },
  },
});
const scale = values.quick ? 0.2 : Number(values.scale ?? process.env.GROUNDWIRE_BENCH_SCALE ?? 1);
if (!(scale > 0)) throw new Error(`--scale must be a positive number, got ${values.scale ?? process.env.GROUNDWIRE_BENCH_SCALE}`);

const files = readdirSync(HERE).filter((f) => f.endsWith(".bench.ts")).sort();
const wanted = positionals;
if (values.list) {
  for (const f of files) console.log(f.replace(/\.bench\.ts$/, ""));
  process.exit(0);
}
const unknown = wanted.filter((w) => !files.includes(`${w}.bench.ts`));
if (unknown.length) {
  console.error(`bench: no suite ${unknown.join(", ")}; suites: ${files.map((f) => f.replace(/\.bench\.ts$/, "")).join(", ")}`);
  process.exit(2);
}

await initNodeStart();

const started = performance.now();
const suites: SuiteResult[] = [];
for (const f of files) {
  const part = f.replace(/\.bench\.ts$/, "");
  if (wanted.length && !wanted.includes(part)) continue;
  const t = performance.now();
  const result: SuiteResult = { part, cases: [], seconds: 0 };
  suites.push(result);
  console.log(`\n== ${part} (${f})`);
  try {
    const suite = (await import(new URL(f, HERE).href)).default as BenchSuite;
    result.part = suite.part ?? part;
    const cases = await suite.cases();
    if (suite.skipped) {
      result.skipped = suite.skipped;
      console.log(`  skipped in part: ${suite.skipped}`);
    }
    for (const c of cases) {
      const r = await measureCase(c, { scale });
      result.cases.push(r);
      console.log(caseText(result.part, r));
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message.split("\n")[0] : String(error);
    console.log(`  FAILED: ${result.error}`);
  }
  result.seconds = (performance.now() - t) / 1000;
}

const report: BenchReport = {
  generatedBy: "bench/run.ts",
  command: wanted.length ? `npx tsx bench/run.ts ${wanted.join(" ")}` : "npm run bench",
  date: new Date().toISOString(),
  commit: tryRun("git", ["rev-parse", "HEAD"]),
  machine: {
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform}-${process.arch}`,
    node: process.versions.node,
    v8: process.versions.v8,
    python: tryRun("python3", ["--version"]),
  },
  scale,
  suites,
  seconds: (performance.now() - started) / 1000,
};

const failedChecks = suites.flatMap((s) => s.cases.flatMap((c) => c.contenders.filter((r) => r.error?.startsWith("check failed")).map((r) => `${s.part} / ${c.name} / ${r.name}: ${r.error}`)));
console.log(`\nbench: ${suites.length} suites, ${suites.reduce((n, s) => n + s.cases.length, 0)} cases in ${report.seconds.toFixed(0)} s`);
if (failedChecks.length) console.log(`bench: ${failedChecks.length} contender(s) failed their output check:\n  ${failedChecks.join("\n  ")}`);

const write = values["no-write"] ? false : (values.write ?? wanted.length === 0);
if (write) {
  mkdirSync(RESULTS, { recursive: true });
  const json = JSON.stringify(report, null, 2) + "\n";
  const dated = new URL(`${report.date.slice(0, 10)}.json`, RESULTS);
  writeFileSync(dated, json);
  writeFileSync(new URL("latest.json", RESULTS), json);
  writeFileSync(new URL("latest.md", RESULTS), reportMarkdown(report));
  console.log(`bench: wrote bench/results/${report.date.slice(0, 10)}.json, latest.json and latest.md (npm run bench:readme puts the tables into docs/bench-results*.md)`);
}
process.exitCode = suites.some((s) => s.error) || failedChecks.length ? 1 : 0;
