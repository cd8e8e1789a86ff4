// citationStatus's suggestions through the candidate index (ts/evidence/suggest.ts) equal the
// linear scan they replace — every fragment of the kind scored by sequenceRatio, kept when ≥
// minRatio, sorted by score then document order — on real edit histories, for every stale and
// lost citation, at the default options and at others (more suggestions, lower and higher
// minRatio, no kind).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citationStatus, citeFragment, fragmentMarkdown, indexFragments, normalizeWhitespace, type Citation, type Fragment } from "../../ts/evidence/index.js";
import { sequenceRatio } from "../../ts/match/index.js";
import { setBackend } from "../../ts/index.js";
import { depth, spread } from "../depth.js";

const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);
const FIXTURES = new URL("../fixtures/evidence/", import.meta.url);

/** The linear scan: the suggestions as citationStatus computed them before the index. */
function linearSuggestions(cited: Citation, fragments: readonly Fragment[], atAddress: Fragment | null, max: number, minRatio: number) {
  const kind = cited.kind ?? atAddress?.kind;
  const want = normalizeWhitespace(cited.text!);
  const scored: { fragment: Fragment; score: number }[] = [];
  const wantLength = [...want].length;
  for (const f of fragments) {
    if (kind && f.kind !== kind) continue;
    const text = normalizeWhitespace(f.text), length = [...text].length;
    // difflib's real_quick_ratio, an upper bound of the ratio: below minRatio, so is the score
    // (and scoring a paragraph against a 94,000-character section takes seconds)
    if ((2 * Math.min(length, wantLength)) / (length + wantLength) < minRatio) continue;
    const score = sequenceRatio(want, text);
    if (score >= minRatio) scored.push({ fragment: f, score });
  }
  scored.sort((a, b) => b.score - a.score || a.fragment.sequence - b.fragment.sequence);
  return scored.slice(0, max);
}

const brief = (cs: { fragment: Fragment; score: number }[]) => cs.map((c) => `${c.fragment.fragmentId}@${c.score}`);

/**
 * The citations of `older` that need suggestions against `newer`, the first `limit` of them
 * whose text is at most `maxChars` long; compares index and scan. Both score every candidate in
 * the length range exactly (difflib's ratio, quadratic in the texts), so one stale section of
 * 94,000 characters takes minutes: the real histories are checked on citations of up to 2,000.
 */
function compare(older: readonly Fragment[], newer: readonly Fragment[], options: { suggestions?: number; minRatio?: number }, dropKind = false, limit = depth(8, 40), maxChars = Infinity): number {
  const ix = indexFragments(newer);
  let checked = 0;
  for (const f of older) {
    if (f.text.length > maxChars) continue;
    const cited = dropKind ? { ...citeFragment(f), kind: undefined } : citeFragment(f);
    const r = citationStatus(cited, ix, options);
    if (r.status === "current" || r.status === "moved" || r.reason.includes("ambiguous")) continue; // no suggestions asked
    const at = ix.byId.get(cited.fragmentId) ?? null;
    expect(brief(r.candidates), `${f.path}`).toEqual(brief(linearSuggestions(cited, newer, at, options.suggestions ?? 3, options.minRatio ?? 0.6)));
    if (++checked >= limit) break;
  }
  return checked;
}

describe("citation suggestions: the candidate index equals the linear scan", () => {
  it("on the awesome v001 → v002 fixture pair, at the defaults and at other options", () => {
    const v1 = fragmentMarkdown("awesome", readFileSync(new URL("awesome-v001.md", FIXTURES), "utf8"));
    const v2 = fragmentMarkdown("awesome", readFileSync(new URL("awesome-v002.md", FIXTURES), "utf8"));
    let checked = 0;
    for (const options of [{}, { suggestions: 10, minRatio: 0.3 }, { suggestions: 1, minRatio: 0.9 }]) checked += compare(v1, v2, options);
    checked += compare(v1, v2, { suggestions: 3 }, true);
    // citing one version against a quite different one: many lost citations, all with suggestions
    checked += compare(v2, v1.slice(0, Math.floor(v1.length / 2)), {});
    expect(checked).toBeGreaterThan(20);
  });

  it.skipIf(!existsSync(MARKDOWN))("on real histories of ../shared/data/markdown (every other consecutive pair in the deep run)", { timeout: 600_000 }, () => {
    for (const doc of ["system-design-primer", "awesome"]) {
      const dir = new URL(`${doc}/`, MARKDOWN);
      const files = readdirSync(dir).filter((f) => /^v\d+\.md$/.test(f)).sort();
      const pairs = spread(files.slice(1).map((f, i) => [files[i], f] as const), depth(1, 20));
      let checked = 0;
      for (const [a, b] of pairs) {
        const older = fragmentMarkdown(doc, readFileSync(new URL(a, dir), "utf8"));
        const newer = fragmentMarkdown(doc, readFileSync(new URL(b, dir), "utf8"));
        checked += compare(older, newer, {}, false, depth(8, 10), 2_000);
      }
      expect(checked, doc).toBeGreaterThan(0);
    }
  });

  it.skipIf(!existsSync(MARKDOWN))("the same on the WASM and TS backends over whole version pairs, long sections included (on WASM the LCS bound also covers texts of 4,097–32,768 code points)", { timeout: 600_000 }, () => {
    for (const doc of ["system-design-primer", "awesome"]) {
      const dir = new URL(`${doc}/`, MARKDOWN);
      const files = readdirSync(dir).filter((f) => /^v\d+\.md$/.test(f)).sort();
      const pairs = spread(files.slice(1).map((f, i) => [files[i], f] as const), depth(2, 39));
      let long = 0;
      for (const [a, b] of pairs) {
        const older = [...fragmentMarkdown(doc, readFileSync(new URL(a, dir), "utf8"))];
        const newer = [...fragmentMarkdown(doc, readFileSync(new URL(b, dir), "utf8"))];
        const run = (backend: "wasm" | "ts") => {
          setBackend(backend);
          try {
            const ix = indexFragments(newer);
            return older.map((f) => {
              const r = citationStatus(citeFragment(f), ix);
              return `${r.status} ${brief(r.candidates).join(" ")}`;
            });
          } finally {
            setBackend("auto");
          }
        };
        const wasm = run("wasm");
        expect(run("ts"), `${doc} ${a} → ${b}`).toEqual(wasm);
        long += older.filter((f, i) => f.text.length > 4096 && !wasm[i].startsWith("current") && !wasm[i].startsWith("moved")).length;
      }
      expect(long, doc).toBeGreaterThan(0);
    }
  });
});
