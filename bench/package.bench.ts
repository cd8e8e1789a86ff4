/**
 * The package's start-up cost in Node (issue 16 item 5): a cold `import("groundwire")`
 * (the built dist/node.js) and `groundwire --help` (dist/cli.js), each a fresh `node`
 * process, against a bare `node -e 0` measured in the same run. The three commands run
 * interleaved, round after round, so a machine whose load changes during the run changes
 * all three alike; each reports the median wall time of its own runs (spawn to exit).
 * Targets: import ≤ 200 ms and --help ≤ 150 ms on the 2-core machine (the figures and the
 * difference to bare Node are in docs/package.md). Needs `npm run build` first.
 *
 * Each command's output is checked before timing: the import must list `bestSpan` and
 * the WASM backend active; --help must print the command list.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BenchCase, BenchSuite } from "./harness.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const NODE_ENTRY = new URL("../dist/node.js", import.meta.url).href;
/** The package's bin (CommonJS; it imports dist/cli.js for anything but --help and --version). */
const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));

interface Command {
  name: string;
  args: string[];
  check(stdout: string): void;
}

const COMMANDS: Command[] = [
  { name: "node -e 0 (bare Node)", args: ["-e", "0"], check: () => {} },
  {
    name: 'import("groundwire")',
    args: ["--input-type=module", "-e", `const g = await import(${JSON.stringify(NODE_ENTRY)}); console.log(typeof g.bestSpan, g.backendInfo().active)`],
    check: (out) => {
      if (out.trim() !== "function wasm") throw new Error(`import printed ${JSON.stringify(out)}`);
    },
  },
  {
    name: "groundwire --help",
    args: [CLI, "--help"],
    check: (out) => {
      if (!/\bmoot\b/.test(out) || !/\bfragments\b/.test(out)) throw new Error(`--help printed ${JSON.stringify(out.slice(0, 200))}`);
    },
  },
];

/**
 * Each child also reports its own CPU time (user + system, from process start to exit) on
 * stderr: on a shared, loaded machine wall time mostly measures waiting for a core, while
 * the CPU time a start-up needs barely moves.
 */
// A CommonJS file loaded with --require: an ES module probe (--import) would start Node's ES
// module loader in every child, bare `node -e 0` and the CommonJS bin included, hiding
// what they do not pay.
const CPU_PROBE = fileURLToPath(new URL("./cpu-probe.cjs", import.meta.url));
const cpuMs = new Map<string, number[]>();

function runOnce(c: Command): { ms: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--require", CPU_PROBE, ...c.args], { cwd: ROOT, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
  const cpu = /cpu-us (\d+)/.exec(r.stderr);
  if (cpu) cpuMs.set(c.name, [...(cpuMs.get(c.name) ?? []), Number(cpu[1]) / 1000]);
  return { ms, stdout: r.stdout };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** All three commands, interleaved for `rounds` rounds (after one checked warm-up round each). */
let measured: Promise<Map<string, number[]>> | null = null;
function measureInterleaved(budgetMs: number): Promise<Map<string, number[]>> {
  return (measured ??= (async () => {
    for (const c of COMMANDS) c.check(runOnce(c).stdout); // checked, and the file cache warm
    const samples = new Map(COMMANDS.map((c) => [c.name, [] as number[]]));
    const start = Date.now();
    for (let round = 0; round < 41 && (round < 7 || Date.now() - start < budgetMs); round++) {
      for (const c of COMMANDS) samples.get(c.name)!.push(runOnce(c).ms);
    }
    return samples;
  })());
}

const suite: BenchSuite = {
  part: "package",
  async cases(): Promise<BenchCase[]> {
    if (!existsSync(CLI) || !existsSync(new URL("../dist/node.js", import.meta.url))) {
      suite.skipped = "dist/ is not built: run `npm run build` first";
      return [];
    }
    return [
      {
        name: "Node start-up: fresh process, interleaved rounds (cold import vs --help vs bare node)",
        size: "small",
        budgetMs: 12_000,
        contenders: COMMANDS.map((c) => ({
          name: c.name,
          kind: "external" as const,
          async measure(options?: { budgetMs: number }) {
            const samples = (await measureInterleaved(options?.budgetMs ?? 12_000)).get(c.name)!;
            const cpu = cpuMs.get(c.name) ?? [];
            return { medianMs: median(samples), samples: samples.length, note: `min ${Math.min(...samples).toFixed(0)} ms; CPU median ${cpu.length ? median(cpu).toFixed(0) : "?"} ms, min ${cpu.length ? Math.min(...cpu).toFixed(0) : "?"} ms` };
          },
        })),
      },
    ];
  },
};

export default suite;
