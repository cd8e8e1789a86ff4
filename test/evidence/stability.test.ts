// One test per row of the seed's stability table: what happens to a cited
// fragment's address and hash under each kind of real edit, and the status.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { citationStatus, citeFragment, fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";

const BASE = `# Guide

Caching keeps answers close to the reader.

## Install

Run the installer and wait
for it to finish.

| Name | Value |
|------|-------|
| alpha | 1 |
| beta | 2 |

## Usage

Call the API once per request.
`;

const frag = (src: string) => fragmentMarkdown("guide.md", src);
const find = (fs: readonly Fragment[], pred: (f: Fragment) => boolean) => {
  const hit = fs.filter(pred);
  expect(hit).toHaveLength(1);
  return hit[0];
};
const install = (f: Fragment) => f.kind === "paragraph" && f.text.startsWith("Run the in");
const alphaRow = (f: Fragment) => f.kind === "row" && f.label === "alpha";

/** Cite `pick` in BASE, edit, resolve: returns old, new (by the same selector) and the report. */
function edit(after: string, pick: (f: Fragment) => boolean) {
  const before = find(frag(BASE), pick);
  const next = frag(after);
  const report = citationStatus(citeFragment(before), next);
  return { before, after: find(next, pick), report, next };
}

describe("the seed's stability table", () => {
  it("re-ingest unchanged: address identical, hash identical → current (every fragment)", () => {
    const a = frag(BASE);
    const b = frag(BASE);
    expect(b.map((f) => f.versionId)).toEqual(a.map((f) => f.versionId));
    expect(a.map((f) => citationStatus(f.versionId, b).status)).toEqual(a.map(() => "current"));
  });

  it("reflow / trailing whitespace: address identical, hash identical (normalized before hashing) → current", () => {
    const { before, after, report } = edit(BASE.replace("Run the installer and wait\nfor it to finish.", "Run the installer   \nand wait for it to finish.  "), install);
    expect(after.text).not.toBe(before.text);
    expect(after.fragmentId).toBe(before.fragmentId);
    expect(after.contentHash).toBe(before.contentHash);
    expect(report.status).toBe("current");
  });

  it("fix a typo: address identical, hash changes → stale", () => {
    const typo = BASE.replace("Run the installer", "Run the instaler");
    const before = find(frag(typo), install);
    const next = frag(BASE);
    const after = find(next, install);
    expect(after.fragmentId).toBe(before.fragmentId);
    expect(after.contentHash).not.toBe(before.contentHash);
    const report = citationStatus(citeFragment(before), next);
    expect(report.status).toBe("stale");
    expect(report.fragment).toBe(after);
    expect(report.candidates[0]).toMatchObject({ fragment: after });
    expect(report.candidates[0].score).toBeGreaterThan(0.98);
    // The score is the quote matcher's ratio: difflib's, on the whitespace-normalized texts.
    const py = "import difflib,sys;a,b=sys.argv[1:3];print(repr(difflib.SequenceMatcher(None,a,b,autojunk=False).ratio()))";
    const norm = (t: string) => t.replace(/\s+/g, " ").trim();
    const want = Number(execFileSync("python3", ["-c", py, norm(before.text), norm(after.text)], { encoding: "utf8" }));
    expect(report.candidates[0].score).toBe(want);
  });

  it("insert a paragraph in another section: address identical, hash identical → current", () => {
    const { before, after, report } = edit(BASE.replace("Call the API once per request.\n", "Call the API once per request.\n\nRetry on 503.\n"), install);
    expect(after.fragmentId).toBe(before.fragmentId);
    expect(after.contentHash).toBe(before.contentHash);
    expect(report.status).toBe("current");
  });

  it("insert a whole new section: address identical, hash identical → current (every fragment outside the parent)", () => {
    const edited = BASE.replace("## Usage", "## Configure\n\nSet the cache size.\n\n## Usage");
    const { before, after, report, next } = edit(edited, install);
    expect(after.fragmentId).toBe(before.fragmentId);
    expect(after.contentHash).toBe(before.contentHash);
    expect(report.status).toBe("current");
    // Everything except the enclosing `Guide` section (whose text grew) stays current.
    const statuses = frag(BASE).map((f) => [f.path, citationStatus(f.versionId, next).status]);
    expect(statuses.filter(([, s]) => s !== "current")).toEqual([["section:guide", "stale"]]);
  });

  it("re-sort table rows: address identical (rows anchor on their first cell), hash identical → current", () => {
    const { before, after, report } = edit(BASE.replace("| alpha | 1 |\n| beta | 2 |", "| beta | 2 |\n| alpha | 1 |"), alphaRow);
    expect(after.path).toBe("section:guide/section:install/table:name-value/row:alpha");
    expect(after.sequence).not.toBe(before.sequence);
    expect(after.fragmentId).toBe(before.fragmentId);
    expect(after.contentHash).toBe(before.contentHash);
    expect(report.status).toBe("current");
  });

  it("rename a heading: address changes for everything beneath it, hash identical → moved", () => {
    const { before, after, report, next } = edit(BASE.replace("## Install", "## Installation"), install);
    expect(after.path).toBe("section:guide/section:installation/paragraph:1");
    expect(after.fragmentId).not.toBe(before.fragmentId);
    expect(after.contentHash).toBe(before.contentHash);
    expect(report.status).toBe("moved");
    expect(report.fragment).toBe(after);
    // The row beneath moved too; the renamed section itself changed address and text: lost.
    expect(citationStatus(find(frag(BASE), alphaRow).versionId, next).status).toBe("moved");
    const section = find(frag(BASE), (f) => f.label === "Install");
    expect(citationStatus(section.versionId, next).status).toBe("lost");
  });

  it("insert a same-kind sibling above: address changes, hash identical → moved (checked before stale)", () => {
    const { before, after, report } = edit(BASE.replace("## Install\n\n", "## Install\n\nYou need Node 20.\n\n"), install);
    expect(before.path).toBe("section:guide/section:install/paragraph:1");
    expect(after.path).toBe("section:guide/section:install/paragraph:2");
    expect(after.contentHash).toBe(before.contentHash);
    // The old address now holds the new paragraph (other text): moved wins over stale.
    expect(report.status).toBe("moved");
    expect(report.fragment).toBe(after);
  });
});

describe("lost is reported, never guessed", () => {
  it("content carried by two fragments elsewhere → lost with both candidates", () => {
    const v1 = frag("# A\n\nSame words here.\n");
    const v2 = frag("# B\n\nSame words here.\n\n# C\n\nSame words here.\n");
    const report = citationStatus(citeFragment(v1[1]), v2);
    expect(report.status).toBe("lost");
    expect(report.fragment).toBeNull();
    expect(report.candidates.map((c) => [c.fragment.path, c.score])).toEqual([
      ["section:b/paragraph:1", 1],
      ["section:c/paragraph:1", 1],
    ]);
  });

  it("neither address nor content → lost, with similarity suggestions when the citation carries its text", () => {
    const v1 = frag("# A\n\nThe cache holds ten thousand entries.\n");
    const v2 = frag("# B\n\nThe cache holds twenty thousand entries.\n");
    const report = citationStatus(citeFragment(v1[1]), v2);
    expect(report.status).toBe("lost");
    expect(report.candidates).toHaveLength(1);
    expect(report.candidates[0].fragment.path).toBe("section:b/paragraph:1");
    expect(report.candidates[0].score).toBeGreaterThan(0.85);
    expect(report.candidates[0].score).toBeLessThan(1);
  });
});
