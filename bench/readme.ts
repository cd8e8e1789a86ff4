/**
 * `npm run bench:readme`: put the latest benchmark table (bench/results/latest.json,
 * written by a full `npm run bench`) into docs/bench.md between the markers
 * `<!-- bench:results -->` and `<!-- /bench:results -->` (inside the part:bench section).
 * Touches nothing else of that page. `--check` exits 1 when the table is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { reportMarkdown, type BenchReport } from "./report.js";

const README = new URL("../docs/bench.md", import.meta.url);
const LATEST = new URL("./results/latest.json", import.meta.url);
const OPEN = "<!-- bench:results -->";
const CLOSE = "<!-- /bench:results -->";

const report = JSON.parse(readFileSync(LATEST, "utf8")) as BenchReport;
const readme = readFileSync(README, "utf8");
const a = readme.indexOf(OPEN);
const b = readme.indexOf(CLOSE);
if (a < 0 || b < a) throw new Error(`docs/bench.md has no ${OPEN} … ${CLOSE} block (it belongs in the part:bench section)`);
const next = `${readme.slice(0, a + OPEN.length)}\n${reportMarkdown(report)}${readme.slice(b)}`;
if (process.argv.includes("--check")) {
  if (next !== readme) {
    console.error("docs/bench.md benchmark table is out of date: run npm run bench:readme");
    process.exitCode = 1;
  }
} else if (next !== readme) {
  writeFileSync(README, next);
  console.log(`docs/bench.md: benchmark table updated from bench/results/latest.json (${report.date.slice(0, 10)})`);
} else {
  console.log("docs/bench.md: benchmark table already up to date");
}
