/**
 * `citationStatus` over a document's whole edit history, the way a user re-checks stored
 * citations after each edit: every fragment of version i is cited (`citeFragment`: address,
 * content hash, text and kind) and resolved against version i + 1 through the public API,
 * `citationStatus(citation, index)`, with the index built once per version (`indexFragments`,
 * inside the timed run). Two contenders on the same citations:
 *   - suggestions off (`{suggestions: 0}`): the baseline, two map lookups a citation;
 *   - default options (3 suggestions at ratio ≥ 0.6 for each stale or lost citation).
 * Issue 36's target: the default within 10× of off (the ratio column).
 *
 * The history: GROUNDWIRE_BENCH_HISTORY (a folder of vNNN.md versions, e.g. a held-out one), else
 * ../shared/data/markdown/system-design-primer (40 versions, 55,914 citations). The suggestion
 * code was tuned on the awesome history, one threshold (LCS_TEXT_MAX in ts/evidence/suggest.ts)
 * was compared on both, and LCS_TEXT_MAX_WASM on system-design-primer only; for a history nothing
 * was tuned on, point GROUNDWIRE_BENCH_HISTORY at one (the shared data's held-back markdown history
 * is outside ../shared).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { citationStatus, citeFragment, fragmentMarkdown, indexFragments, type Citation, type CitationStatus, type Fragment } from "../ts/evidence/index.js";
import type { BenchCase } from "./harness.js";

const DEFAULT_HISTORY = new URL("../../shared/data/markdown/system-design-primer/", import.meta.url);

/** The folder of the history to bench, and whether it is there. */
export function historyDir(): { dir: URL; present: boolean } {
  const env = process.env.GROUNDWIRE_BENCH_HISTORY;
  const dir = env ? pathToFileURL(env.endsWith("/") ? env : `${env}/`) : DEFAULT_HISTORY;
  return { dir, present: existsSync(dir) };
}

export function citationHistoryCase(): BenchCase {
  const { dir } = historyDir();
  const name = basename(fileURLToPath(dir));
  const files = readdirSync(dir).filter((f) => /^v\d+\.md$/.test(f)).sort();
  if (files.length < 2) throw new Error(`${fileURLToPath(dir)}: fewer than two vNNN.md versions`);
  const versions: readonly Fragment[][] = files.map((f) => [...fragmentMarkdown(name, readFileSync(new URL(f, dir), "utf8"))]);
  const pairs = versions.slice(1).map((next, i) => ({ citations: versions[i].map((f) => citeFragment(f)), next }));
  const count = pairs.reduce((n, p) => n + p.citations.length, 0);

  const resolveAll = (options: { suggestions?: number }) => {
    const statuses: CitationStatus[] = [];
    let candidates = 0;
    for (const { citations, next } of pairs) {
      const index = indexFragments(next);
      for (const c of citations as Citation[]) {
        const r = citationStatus(c, index, options);
        statuses.push(r.status);
        candidates += r.candidates.length;
      }
    }
    return { statuses, candidates };
  };
  const tally = (xs: readonly CitationStatus[]) => {
    const m: Record<string, number> = {};
    for (const s of xs) m[s] = (m[s] ?? 0) + 1;
    return JSON.stringify(Object.fromEntries(Object.entries(m).sort()));
  };
  const off = resolveAll({ suggestions: 0 });
  const expected = tally(off.statuses);
  const check = (suggestions: boolean) => (out: unknown) => {
    const r = out as { statuses: CitationStatus[]; candidates: number };
    const got = tally(r.statuses);
    if (got !== expected) throw new Error(`statuses differ: ${got} vs ${expected}`);
    if (suggestions && r.candidates <= off.candidates) throw new Error("no suggestion was made");
  };
  return {
    name: `citationStatus over a whole history: ${name}, ${files.length} versions, ${count} citations (${expected}), suggestions off vs default options`,
    size: "large",
    units: { count, unit: "citations" },
    contenders: [
      { name: "suggestions off ({suggestions: 0}), index per version", run: () => resolveAll({ suggestions: 0 }), check: check(false) },
      { name: "default options (3 suggestions, ratio ≥ 0.6), index per version", run: () => resolveAll({}), check: check(true) },
    ],
    extra: () => ({ document: name, versions: files.length, citations: count }),
  };
}
