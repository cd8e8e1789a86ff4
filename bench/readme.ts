/**
 * `npm run bench:readme`: put the latest benchmark table (bench/results/latest.json,
 * written by a full `npm run bench`) into docs/bench.md between the markers
 * `<!-- bench:results -->` and `<!-- /bench:results -->` (inside the part:bench section), and
 * regenerate every `<!-- bench:figures … -->` block of README.md and docs/*.md from the same run
 * (bench/figures.ts). Touches nothing else of those pages. `--check` exits 1 when any is out of date.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../ts/files.js";
import { reportMarkdown, type BenchReport } from "./report.js";
import { renderFigures } from "./figures.js";

const ROOT = new URL("../", import.meta.url);
const README = new URL("../docs/bench.md", import.meta.url);
const LATEST = new URL("./results/latest.json", import.meta.url);
const OPEN = "<!-- bench:results -->";
const CLOSE = "<!-- /bench:results -->";

/** docs/bench.md with its results block made from `report`. */
export function renderResults(page: string, report: BenchReport): string {
  const a = page.indexOf(OPEN);
  const b = page.indexOf(CLOSE);
  if (a < 0 || b < a) throw new Error(`docs/bench.md has no ${OPEN} … ${CLOSE} block (it belongs in the part:bench section)`);
  return `${page.slice(0, a + OPEN.length)}\n${reportMarkdown(report)}${page.slice(b)}`;
}

/** The pages that may hold figure blocks, relative to the repository. */
export function figurePages(): string[] {
  return ["README.md", ...readdirSync(new URL("docs/", ROOT)).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

const isMain = process.argv[1] !== undefined && process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const report = JSON.parse(readFileSync(LATEST, "utf8")) as BenchReport;
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const file of figurePages()) {
    const url = new URL(file, ROOT);
    const page = readFileSync(url, "utf8");
    let next = renderFigures(page, report, file);
    if (url.href === README.href) next = renderResults(next, report);
    if (next === page) continue;
    stale++;
    if (check) console.error(`${file}: bench figures out of date: run npm run bench:readme`);
    else {
      writeFileAtomic(fileURLToPath(url), next);
      console.log(`${file}: bench figures updated from bench/results/latest.json (${report.date.slice(0, 10)})`);
    }
  }
  if (!stale) console.log("bench figures already up to date");
  if (check && stale) process.exitCode = 1;
}
