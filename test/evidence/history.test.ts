// The revision histories: cite every fragment of each version, resolve against the
// next one, under our scheme and the two rejected ones. Zero false re-points.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citationStatus, citeFragment, fragmentMarkdown, normalizeWhitespace } from "../../ts/evidence/index.js";
import { historyTable, runHistory, type HistoryStats } from "./history.js";

const SHARED = new URL("../../../shared/data", import.meta.url);
const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);
const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);

describe("awesome v001 → v002 (fixtures, always on)", () => {
  it("each citation gets a status; every moved one points at identical normalized content", () => {
    const v0 = fragmentMarkdown("awesome", readFileSync(new URL("awesome-v001.md", FIXTURES), "utf8"));
    const v1 = fragmentMarkdown("awesome", readFileSync(new URL("awesome-v002.md", FIXTURES), "utf8"));
    const counts = { current: 0, moved: 0, stale: 0, lost: 0 };
    for (const f of v0) {
      const r = citationStatus(citeFragment(f), v1);
      counts[r.status]++;
      if (r.status === "moved") {
        expect(r.fragment!.kind).toBe(f.kind);
        expect(normalizeWhitespace(r.fragment!.text)).toBe(normalizeWhitespace(f.text));
        expect(r.fragment!.fragmentId).not.toBe(f.fragmentId);
      }
    }
    expect(counts).toEqual({ current: 75, moved: 52, stale: 9, lost: 0 });
  });
});

describe.skipIf(!existsSync(SHARED))("revision histories v000..v039 (needs ../shared/data; skipped when it is absent)", () => {
  const results: HistoryStats[] = [];

  it.each([
    ["system-design-primer"],
    ["awesome"],
  ])("%s: per-pair citation outcomes, zero false re-points", (document) => {
    const stats = runHistory(new URL(`${document}/`, MARKDOWN), document);
    results.push(stats);
    expect(stats.pairs).toBe(39);
    expect(stats.falseRepoints).toBe(0);
    expect(stats.positionalFalseRepoints).toBe(0);
    // Ours never does worse than the positional scheme at keeping a citation usable.
    expect(stats.structural.current + stats.structural.moved).toBeGreaterThanOrEqual(stats.positional.current + stats.positional.moved);
    // And it holds its addresses: far more citations stay current than positionally.
    expect(stats.structural.current).toBeGreaterThan(stats.positional.current);
    const { citations, structural, positional, contentHash, contentSurvivesUniquely } = stats;
    expect({ citations, structural, positional, contentHash, contentSurvivesUniquely }).toEqual(EXPECTED[document]);
  }, 600_000); // ~20 s of CPU per document (40 parses); generous for a loaded 2-core machine

  it("table for the README", () => {
    if (results.length === 2) console.log(`\n${historyTable(results)}\n`);
  });
});

/** Measured once and pinned: the fragmenter and resolver are deterministic. */
const EXPECTED: Record<string, unknown> = {
  "system-design-primer": {"citations":55914,"structural":{"current":54642,"moved":368,"stale":863,"lost":41},"positional":{"current":39016,"moved":15316,"stale":898,"lost":684},"contentHash":{"current":52493,"moved":0,"stale":0,"lost":3421},"contentSurvivesUniquely":52493},
  "awesome": {"citations":34144,"structural":{"current":26226,"moved":5132,"stale":2652,"lost":134},"positional":{"current":3198,"moved":28160,"stale":2777,"lost":9},"contentHash":{"current":31334,"moved":0,"stale":0,"lost":2810},"contentSurvivesUniquely":31334},
};
