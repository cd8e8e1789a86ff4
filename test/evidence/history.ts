/**
 * The revision-history experiment: for each consecutive pair of versions, cite
 * every fragment of the old version and resolve against the new one, under the
 * scoped-structural scheme and the two rejected ones (positional
 * `{doc}::chunk::{i}`, pure content hash). Shared by the test and the README table.
 */
import { readFileSync } from "node:fs";
import { sha256Hex } from "../../bindings/sha256.js";
import { citationStatus, citeFragment, indexFragments, type CitationStatus, type Fragment } from "../../ts/evidence/index.js";
import { fragmentMarkdown } from "../../ts/evidence/index.js";
import { normalizeWhitespace } from "../../ts/evidence/index.js";

export type Counts = Record<CitationStatus, number>;
export interface HistoryStats {
  document: string;
  pairs: number;
  citations: number;
  structural: Counts;
  positional: Counts;
  contentHash: Counts;
  /** Old fragments whose exact content occurs exactly once in the new version (the best any scheme can re-find). */
  contentSurvivesUniquely: number;
  /** moved results whose target's kind + normalized text differs from the cited fragment's: must be 0. */
  falseRepoints: number;
  /** moved results under the positional scheme pointing at different content: must be 0 too (same resolver). */
  positionalFalseRepoints: number;
}

const zero = (): Counts => ({ current: 0, moved: 0, stale: 0, lost: 0 });

/** Same fragments, addresses replaced by `{doc}::chunk::{i}` (i = document order). */
function positional(doc: string, fragments: readonly Fragment[]): Fragment[] {
  return fragments.map((f) => {
    const fragmentId = sha256Hex(`${doc}::chunk::${f.sequence}`);
    return { ...f, fragmentId, versionId: `${fragmentId}#${f.contentHash}` };
  });
}

const sameContent = (a: Fragment, b: Fragment) => a.kind === b.kind && normalizeWhitespace(a.text) === normalizeWhitespace(b.text);

/**
 * Run the experiment over `dir/v000.md … v0NN.md`.
 * @param versions how many versions (default 40)
 */
export function runHistory(dir: URL, document: string, versions = 40): HistoryStats {
  const stats: HistoryStats = {
    document,
    pairs: 0,
    citations: 0,
    structural: zero(),
    positional: zero(),
    contentHash: zero(),
    contentSurvivesUniquely: 0,
    falseRepoints: 0,
    positionalFalseRepoints: 0,
  };
  const load = (i: number) => {
    const text = readFileSync(new URL(`v${String(i).padStart(3, "0")}.md`, dir), "utf8");
    return fragmentMarkdown(document, text);
  };
  let old = load(0);
  for (let i = 1; i < versions; i++) {
    const next = load(i);
    const index = indexFragments(next);
    const posOld = positional(document, old);
    const posIndex = indexFragments(positional(document, next));
    stats.pairs++;
    old.forEach((f, k) => {
      stats.citations++;
      const carriers = index.byContent.get(f.contentHash) ?? [];
      if (carriers.length === 1) stats.contentSurvivesUniquely++;
      // ours
      const r = citationStatus(citeFragment(f), index, { suggestions: 0 });
      stats.structural[r.status]++;
      if (r.status === "moved" && !sameContent(f, r.fragment!)) stats.falseRepoints++;
      // positional {doc}::chunk::{i}
      const p = citationStatus({ fragmentId: posOld[k].fragmentId, contentHash: f.contentHash }, posIndex, { suggestions: 0 });
      stats.positional[p.status]++;
      if (p.status === "moved" && !sameContent(f, p.fragment!)) stats.positionalFalseRepoints++;
      // pure content hash: the address IS the content; duplicates collide onto one id
      stats.contentHash[carriers.length === 1 ? "current" : "lost"]++;
    });
    old = next;
  }
  return stats;
}

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;

/** The README table (markdown) for some documents' stats. */
export function historyTable(all: HistoryStats[]): string {
  const rows = [
    "| document (pairs, citations) | scheme | current | moved | stale | lost | survives (current+moved) |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const s of all) {
    const name = `${s.document} (${s.pairs}, ${s.citations})`;
    for (const [scheme, c] of [["scoped-structural (ours)", s.structural], ["positional `{doc}::chunk::{i}`", s.positional], ["pure content hash", s.contentHash]] as const) {
      rows.push(`| ${name} | ${scheme} | ${pct(c.current, s.citations)} | ${pct(c.moved, s.citations)} | ${pct(c.stale, s.citations)} | ${pct(c.lost, s.citations)} | ${pct(c.current + c.moved, s.citations)} |`);
    }
    rows.push(`| ${name} | (content exists exactly once in the new version) | | | | | ${pct(s.contentSurvivesUniquely, s.citations)} |`);
  }
  return rows.join("\n");
}
