/**
 * `npm run bench:readme`: put the latest benchmark tables (bench/results/latest.json, written by
 * a full `npm run bench`) into the docs pages' results blocks, and regenerate every
 * `<!-- bench:figures … -->` block of README.md and docs/*.md from the same run (bench/figures.ts).
 * Touches nothing else of those pages. `--check` exits 1 when any is out of date.
 *
 * A results block is `<!-- bench:results PART PART … -->` … `<!-- /bench:results -->` and holds
 * the run's stamp and the tables of the parts it names, in the run's order; a block that names
 * no part (`<!-- bench:results -->`) holds every part no other block names. So the results are
 * split over pages (each under the docs' 30,000-byte page limit, test/package/docs.test.ts), and a
 * new bench part lands in the unnamed block. Every part of the run is in exactly one block, and a
 * block naming a part the run does not have is an error (`resultsPlan` throws), never a silent gap.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../ts/files.js";
import { reportMarkdown, type BenchReport } from "./report.js";
import { renderFigures } from "./figures.js";

const ROOT = new URL("../", import.meta.url);
const LATEST = new URL("./results/latest.json", import.meta.url);
/** The opening of a results block; group 1 is the parts it names (maybe none). */
const OPEN = /<!-- bench:results((?: [a-z0-9-]+)*) -->/;
const CLOSE = "<!-- /bench:results -->";

/** A page's results block: where it is and the parts it names (`null`: every part no other block names). */
export interface ResultsBlock {
  /** Offset just after the opening comment, and of the closing one. */
  start: number;
  end: number;
  parts: string[] | null;
}

/** The results block of a page, or null when it has none; more than one, or an unclosed one, throws. */
export function resultsBlock(page: string, file = "page"): ResultsBlock | null {
  const open = new RegExp(OPEN.source, "g");
  const found = [...page.matchAll(open)];
  if (!found.length) return null;
  if (found.length > 1) throw new Error(`${file}: ${found.length} bench:results blocks, one per page`);
  const m = found[0]!;
  const start = m.index! + m[0].length;
  const end = page.indexOf(CLOSE, start);
  if (end < 0) throw new Error(`${file}: a bench:results block without its ${CLOSE}`);
  const named = m[1]!.trim();
  return { start, end, parts: named ? named.split(" ") : null };
}

/**
 * Which parts of `report` each page's results block holds, in the run's order, by page
 * (pages without a block are left out). Throws when a part is named twice, when a block names a
 * part the run does not have, when more than one block names no part, or when a part of the run
 * has no block to go to.
 */
export function resultsPlan(pages: ReadonlyMap<string, string>, report: BenchReport): Map<string, string[]> {
  const inRun = report.suites.map((s) => s.part);
  const owner = new Map<string, string>();
  let rest: string | null = null;
  const blocks = new Map<string, ResultsBlock>();
  for (const [file, page] of pages) {
    const block = resultsBlock(page, file);
    if (!block) continue;
    blocks.set(file, block);
    if (!block.parts) {
      if (rest) throw new Error(`${rest} and ${file} both hold a bench:results block naming no part: one may`);
      rest = file;
      continue;
    }
    for (const part of block.parts) {
      if (owner.has(part)) throw new Error(`bench part ${part} is named by the bench:results blocks of ${owner.get(part)} and ${file}`);
      if (!inRun.includes(part)) throw new Error(`${file}: its bench:results block names part ${part}, which the run of ${report.date.slice(0, 10)} does not have`);
      owner.set(part, file);
    }
  }
  const plan = new Map<string, string[]>();
  for (const [file, block] of blocks) plan.set(file, block.parts ? inRun.filter((p) => block.parts!.includes(p)) : inRun.filter((p) => !owner.has(p)));
  if (!rest) {
    const homeless = inRun.filter((p) => !owner.has(p));
    if (homeless.length) throw new Error(`bench parts ${homeless.join(", ")} are in no bench:results block (name them in one, or keep a block that names no part)`);
  }
  return plan;
}

/** `page` with its results block made from `report`'s `parts` (the page's entry of `resultsPlan`). */
export function renderResults(page: string, report: BenchReport, parts: readonly string[], file = "page"): string {
  const block = resultsBlock(page, file);
  if (!block) throw new Error(`${file} has no bench:results block`);
  return `${page.slice(0, block.start)}\n${reportMarkdown(report, parts)}${page.slice(block.end)}`;
}

/** The pages that may hold figure or results blocks, relative to the repository. */
export function figurePages(): string[] {
  return ["README.md", ...readdirSync(new URL("docs/", ROOT)).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

const isMain = process.argv[1] !== undefined && process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const report = JSON.parse(readFileSync(LATEST, "utf8")) as BenchReport;
  const check = process.argv.includes("--check");
  const pages = new Map(figurePages().map((file) => [file, readFileSync(new URL(file, ROOT), "utf8")]));
  const plan = resultsPlan(pages, report);
  let stale = 0;
  for (const [file, page] of pages) {
    let next = renderFigures(page, report, file);
    const parts = plan.get(file);
    if (parts) next = renderResults(next, report, parts, file);
    if (next === page) continue;
    stale++;
    if (check) console.error(`${file}: bench figures out of date: run npm run bench:readme`);
    else {
      writeFileAtomic(fileURLToPath(new URL(file, ROOT)), next);
      console.log(`${file}: bench figures updated from bench/results/latest.json (${report.date.slice(0, 10)})`);
    }
  }
  if (!stale) console.log("bench figures already up to date");
  if (check && stale) process.exitCode = 1;
}
