/**
 * Peak memory per MB of input (issue 12 item 17): `npx tsx bench/memory.ts` (after
 * `npm run build`). Runs the built CLI once per case in a fresh process and reads that
 * process's peak resident set size (process.resourceUsage().maxRSS, taken at exit), next to
 * a bare `node -e 0` baseline measured in the same run. Inputs come from ../shared/data (the
 * suite says so and stops when it is absent): WordNet's N-Triples (30 MB) and a 50 MB
 * N-Triples file made from it (WordNet plus a copy of its first 21 MB under other IRIs),
 * and a markdown document of the shared markdown files concatenated.
 *
 * Prints one line per case: input MB, peak RSS MB, RSS per input MB, wall seconds.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const CLI = join(ROOT, "dist/cli.js");
const SHARED = new URL("../../shared/data/", import.meta.url).pathname;
// Printed by the child on exit: its own peak RSS in kilobytes.
const PROBE = "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss '+process.resourceUsage().maxRSS+'\\n'))";

function peak(args: string[]): { rssMb: number; seconds: number; code: number | null } {
  const start = Date.now();
  const r = spawnSync(process.execPath, ["--import", PROBE, ...args], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "ignore", "pipe"] });
  const kb = Number(/maxrss (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { rssMb: kb / 1024, seconds: (Date.now() - start) / 1000, code: r.status };
}

function markdownCorpus(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith(".md")) out.push(readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out.join("\n\n");
}

if (!existsSync(CLI)) throw new Error("bench/memory.ts: run `npm run build` first (it measures dist/cli.js)");
if (!existsSync(SHARED)) {
  console.log(`bench/memory.ts: ${SHARED} is absent; nothing to measure`);
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), "gw-memory-"));
const wordnet = join(SHARED, "rdf/wordnet30-noun-taxonomy.nt");
const wordnetText = readFileSync(wordnet, "utf8");
const fifty = join(work, "wordnet-50mb.nt");
const head = wordnetText.slice(0, 21_000_000);
writeFileSync(fifty, wordnetText + head.slice(0, head.lastIndexOf("\n") + 1).replaceAll("<http://", "<http://copy."));
const markdown = join(work, "shared-markdown.md");
writeFileSync(markdown, markdownCorpus(join(SHARED, "markdown")));
const focus = /^<([^>]+)>/m.exec(wordnetText.split("\n").find((l) => l.startsWith("<"))!)![1];

const baseline = peak(["-e", "0"]);
console.log(`machine: ${process.platform}, Node ${process.versions.node}; baseline node -e 0: ${baseline.rssMb.toFixed(0)} MB`);
const cases: Array<[string, string, string[]]> = [
  ["index", wordnet, [CLI, "index", wordnet]],
  ["index", fifty, [CLI, "index", fifty]],
  ["render", wordnet, [CLI, "render", wordnet, `<${focus}>`]],
  ["fragments", markdown, [CLI, "fragments", markdown]],
];
for (const [name, input, args] of cases) {
  const mb = statSync(input).size / 1e6;
  const r = peak(args);
  console.log(
    `${name.padEnd(9)} ${input.split("/").pop()!.padEnd(32)} ${mb.toFixed(1).padStart(6)} MB in  ` +
      `peak RSS ${r.rssMb.toFixed(0).padStart(5)} MB  ${(r.rssMb / mb).toFixed(1).padStart(6)} MB per MB  ${r.seconds.toFixed(1)} s${r.code === 0 ? "" : `  (exit ${r.code})`}`,
  );
}
