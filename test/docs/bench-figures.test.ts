// Every bench figure block in README.md and docs/*.md names the run it came from and holds that
// run's figures: each `<!-- bench:figures … -->` block is exactly what bench/figures.ts makes from
// bench/results/latest.json (its stamp names the command, date and commit), the results pages'
// tables (docs/bench-results*.md, each `<!-- bench:results … -->` block) are latest.json's, every
// part in exactly one of them, and every hand-written mention of a dated `npm run bench` names a run
// kept in bench/results/ (<date>.json, with that commit when one is named). `npm run bench:readme`
// regenerates.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { figureBlocks, renderFigures, renderTemplate, runStamp, FIGURES_CLOSE, FIGURES_OPEN } from "../../bench/figures.js";
import { figurePages, renderResults, resultsBlock, resultsPlan } from "../../bench/readme.js";
import type { BenchReport } from "../../bench/report.js";

const ROOT = new URL("../../", import.meta.url);
const RESULTS = new URL("bench/results/", ROOT);
const latest = JSON.parse(readFileSync(new URL("latest.json", RESULTS), "utf8")) as BenchReport;
const read = (file: string) => readFileSync(new URL(file, ROOT), "utf8");

describe("bench figures name the run they came from", () => {
  it("every bench:figures block is latest.json's, stamped with its date and commit", () => {
    let blocks = 0;
    for (const file of figurePages()) {
      const page = read(file);
      for (const b of figureBlocks(page, file)) {
        blocks++;
        expect(b.body.startsWith(`${runStamp(latest)}\n`), `${file}: a block's first line names the run`).toBe(true);
        expect(b.body).toContain(latest.date.slice(0, 10));
        if (latest.commit) expect(b.body).toContain(latest.commit.slice(0, 10));
      }
      expect(renderFigures(page, latest, file), `${file}: figures out of date, run npm run bench:readme`).toBe(page);
    }
    expect(blocks).toBeGreaterThanOrEqual(1); // docs/evidence.md's citation rates, at least
  });

  it("the results pages' tables are latest.json's, every part of the run on exactly one page", () => {
    const pages = new Map(figurePages().map((file) => [file, read(file)]));
    const plan = resultsPlan(pages, latest); // throws on a part named twice, unknown, or in no block
    expect([...plan.keys()].sort()).toEqual(["docs/bench-results-matching.md", "docs/bench-results.md"]);
    expect([...plan.values()].flat().sort()).toEqual(latest.suites.map((s) => s.part).sort());
    for (const [file, parts] of plan) {
      const page = pages.get(file)!;
      expect(renderResults(page, latest, parts, file), `${file} out of date, run npm run bench:readme`).toBe(page);
      expect(page).toContain(`on ${latest.date.slice(0, 10)}`);
      for (const part of parts) expect(page, `${file}: part ${part}'s section, its anchor #${part}`).toContain(`\n#### ${part}\n`);
    }
  });

  it("a results block holds the parts it names; the block naming none holds the rest; a part named twice or not in the run is an error", () => {
    const run = { ...latest, suites: ["a", "b", "c"].map((part) => ({ part, cases: [], seconds: 1 })) } as BenchReport;
    const pages = new Map([
      ["x.md", "# X\n<!-- bench:results c a -->\nold\n<!-- /bench:results -->\n"],
      ["y.md", "# Y\n<!-- bench:results -->\n<!-- /bench:results -->\n"],
      ["z.md", "# Z, no block\n"],
    ]);
    const plan = resultsPlan(pages, run);
    expect(Object.fromEntries(plan)).toEqual({ "x.md": ["a", "c"], "y.md": ["b"] });
    const x = renderResults(pages.get("x.md")!, run, plan.get("x.md")!, "x.md");
    expect(x).toContain("#### a\n");
    expect(x).toContain("#### c\n");
    expect(x).not.toContain("#### b\n");
    expect(x).not.toContain("old");
    expect(resultsBlock(x)!.parts).toEqual(["c", "a"]);
    expect(() => resultsPlan(new Map([...pages, ["w.md", "<!-- bench:results a -->\n<!-- /bench:results -->"]]), run)).toThrow(/part a is named by/);
    expect(() => resultsPlan(new Map([["x.md", "<!-- bench:results d -->\n<!-- /bench:results -->"]]), run)).toThrow(/names part d, which the run/);
    expect(() => resultsPlan(new Map([["x.md", pages.get("x.md")!]]), run)).toThrow(/bench parts b are in no bench:results block/);
    expect(() => resultsBlock("<!-- bench:results a -->\nno end")).toThrow(/without its/);
  });

  it("a figure's `note` field is the contender's note as the run wrote it", () => {
    const contender = (name: string, note?: string) => ({ name, medianMs: 1, perSecond: null, ratio: null, samples: 5, ...(note ? { note } : {}) });
    const run = { ...latest, suites: [{ part: "p", seconds: 1, cases: [{ name: "load of 20", size: "large", seconds: 1, contenders: [contender("in process", "160 requests, p99 214 ms"), contender("served")] }] }] } as unknown as BenchReport;
    expect(renderTemplate("{{p :: load :: in process :: note}} / {{p :: load :: served :: note}} / {{p :: load :: absent :: note}}", run)).toBe(
      `${runStamp(run)}\n\n160 requests, p99 214 ms / — (not in this run) / — (not in this run)`,
    );
  });

  it("every dated mention of `npm run bench` names a run kept in bench/results/", () => {
    let mentions = 0;
    for (const file of figurePages()) {
      // outside generated text (figure blocks, the results table) and code fences
      let page = read(file);
      for (const b of figureBlocks(page, file).reverse()) page = page.slice(0, b.start) + page.slice(b.end);
      page = page.replace(/<!-- bench:results[ a-z0-9-]* -->[\s\S]*?<!-- \/bench:results -->/, "").replace(/^```[\s\S]*?^```/gm, "");
      for (const paragraph of page.split(/\n\s*\n/)) {
        if (!paragraph.includes("`npm run bench`") || paragraph.includes(FIGURES_OPEN) || paragraph.includes(FIGURES_CLOSE)) continue;
        const date = /\b(20\d\d-\d\d-\d\d)\b/.exec(paragraph)?.[1];
        if (!date) continue; // no run named: not a figure claim
        mentions++;
        const run = new URL(`${date}.json`, RESULTS);
        expect(existsSync(run), `${file}: "${paragraph.slice(0, 80)}…" names a bench run of ${date}, not in bench/results/`).toBe(true);
        const commit = /`([0-9a-f]{7,40})`/.exec(paragraph)?.[1];
        if (commit) {
          const kept = (JSON.parse(readFileSync(run, "utf8")) as BenchReport).commit ?? "";
          expect(kept.startsWith(commit), `${file}: the run of ${date} was at commit ${kept.slice(0, 10)}, the page says ${commit}`).toBe(true);
        }
      }
    }
    expect(mentions).toBeGreaterThan(0);
  });
});
