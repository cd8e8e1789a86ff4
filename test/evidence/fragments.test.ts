import { describe, expect, it } from "vitest";
import {
  anchorFor,
  citationStatus,
  citeFragment,
  createArtifact,
  fragmentDocument,
  fragmentMarkdown,
  fragmentPlainText,
  mediaTypeForPath,
  parseCitation,
  resolveFragment,
  slugify,
  UnsupportedFormatError,
  CitationFormatError,
  type Fragment,
} from "../../ts/evidence/index.js";
import { sha256Hex } from "../../bindings/sha256.js";

const sections = (fs: readonly Fragment[]) => fs.filter((f) => f.kind === "section");
const byKind = (fs: readonly Fragment[], kind: Fragment["kind"]) => fs.filter((f) => f.kind === kind);

describe("field cases (issue #4)", () => {
  it("headings Setup, Setup, Setup 1, Setup-1 under one parent get four distinct, stable anchors", () => {
    const src = "# Guide\n\n## Setup\n\n## Setup\n\n## Setup 1\n\n## Setup-1\n";
    const anchors = sections(fragmentMarkdown("doc.md", src)).slice(1).map((f) => f.anchor);
    expect(anchors).toEqual(["setup", "setup~2", "setup-1", "setup-1~2"]);
    expect(new Set(anchors).size).toBe(4);
    // Stable: fragmenting again gives the same ids; dropping the second `Setup` leaves `Setup 1`'s address alone
    // (github-slugger would have handed `setup-1` to the second `Setup`).
    expect(fragmentMarkdown("doc.md", src).map((f) => f.versionId)).toEqual(fragmentMarkdown("doc.md", src).map((f) => f.versionId));
    const without = sections(fragmentMarkdown("doc.md", "# Guide\n\n## Setup\n\n## Setup 1\n\n## Setup-1\n")).slice(1);
    expect(without.map((f) => f.anchor)).toEqual(["setup", "setup-1", "setup-1~2"]);
    const before = sections(fragmentMarkdown("doc.md", src)).find((f) => f.label === "Setup 1")!;
    expect(without.find((f) => f.label === "Setup 1")!.fragmentId).toBe(before.fragmentId);
  });

  it("a `# not a heading` line in a fenced python block is code under Guide; the sections are Guide and Next", () => {
    const src = "# Guide\n\n```python\n# not a heading\nprint(1)\n```\n\n## Next\n\nMore.\n";
    const fs = fragmentMarkdown("doc.md", src);
    expect(sections(fs).map((f) => f.label)).toEqual(["Guide", "Next"]);
    const [code] = byKind(fs, "code");
    const guide = sections(fs)[0];
    expect(code.parentId).toBe(guide.fragmentId);
    expect(code.path).toBe("section:guide/code:1");
    expect(code.text).toBe("```python\n# not a heading\nprint(1)\n```");
    expect(sections(fs)[1].path).toBe("section:guide/section:next");
  });

  it("YAML front matter: one front-matter fragment, first heading Intro at line 5 of the source", () => {
    const src = "---\ntitle: Notes\n---\n\n# Intro\n\nBody.\n";
    const fs = fragmentMarkdown("notes.md", src);
    const fm = byKind(fs, "frontmatter");
    expect(fm).toHaveLength(1);
    expect(fm[0]).toMatchObject({ path: "frontmatter:1", text: "---\ntitle: Notes\n---", start: 0, end: 20, line: 1, parentId: null });
    expect(byKind(fs, "paragraph").map((f) => f.text)).toEqual(["Body."]);
    const intro = sections(fs)[0];
    expect(intro.label).toBe("Intro");
    expect(intro.line).toBe(5);
    expect(intro.start).toBe(22);
    expect(src.slice(0, intro.start).split("\n").length).toBe(5);
    expect(src.slice(intro.start, intro.start + 7)).toBe("# Intro");
  });

  it("a row `| P(A \\| B) | 0.3 |` has two cells; the first reads P(A | B) and points at the source as written", () => {
    const src = "| Event | Probability |\n|---|---|\n| P(A \\| B) | 0.3 |\n";
    const fs = fragmentMarkdown("t.md", src);
    const [table] = byKind(fs, "table");
    expect(table.anchor).toBe("event-probability");
    const rows = byKind(fs, "row");
    expect(rows).toHaveLength(2);
    const row = rows[1];
    expect(row.cells).toHaveLength(2);
    expect(row.cells![0].text).toBe("P(A | B)");
    expect(src.slice(row.cells![0].start, row.cells![0].end)).toBe("P(A \\| B)");
    expect(row.cells![0]).toEqual({ text: "P(A | B)", start: 36, end: 45 });
    expect(row.cells![1]).toEqual({ text: "0.3", start: 48, end: 51 });
    expect(row.text).toBe("| P(A \\| B) | 0.3 |");
    expect(row.path).toBe("table:event-probability/row:pa-b");
  });

  it.each([
    ["consecutive lines", "## Install\n- step one\n---\n## Usage\ntext\n"],
    ["blank-line separated", "## Install\n\n- step one\n\n---\n\n## Usage\n\ntext\n"],
  ])("Install / list / break / Usage (%s): list and break belong to Install; headings are Install and Usage", (_, src) => {
    const fs = fragmentMarkdown("doc.md", src);
    const [install, usage] = sections(fs);
    expect(sections(fs).map((f) => f.label)).toEqual(["Install", "Usage"]);
    expect(byKind(fs, "list")[0].parentId).toBe(install.fragmentId);
    expect(byKind(fs, "break")[0].parentId).toBe(install.fragmentId);
    expect(byKind(fs, "break")[0].text).toBe("---");
    expect(byKind(fs, "paragraph").find((f) => f.text === "text")!.parentId).toBe(usage.fragmentId);
    expect(usage.parentId).toBeNull();
  });

  it("two look-alike paragraphs: deleting the cited one makes the citation stale, never moved to its twin", () => {
    const north = "Team North reported that the new cache cut latency by nine percent in all regions.";
    const south = "Team South reported that the new cache cut latency by nine percent in all regions.";
    const v1 = fragmentMarkdown("report.md", `# Results\n\n${north}\n\n${south}\n`);
    const v2 = fragmentMarkdown("report.md", `# Results\n\n${south}\n`);
    const cited = v1.find((f) => f.text === north)!;
    const report = citationStatus(citeFragment(cited), v2);
    expect(report.status).toBe("stale");
    expect(["stale", "lost"]).toContain(report.status);
    expect(report.fragment!.text).toBe(south); // what the address holds now, reported as changed
    expect(report.candidates[0].fragment.text).toBe(south); // a suggestion, not applied
    expect(report.candidates[0].score).toBeCloseTo(80 / 82, 12); // 82 code points each; "North"/"South" share o, t, h: 2·80/164 (difflib agrees)
    // By version id alone (no cited text) there are no suggestions, and still no re-point.
    const bare = citationStatus(cited.versionId, v2);
    expect(bare.status).toBe("stale");
    expect(bare.candidates).toEqual([]);
  });
});

describe("addresses, ids and offsets", () => {
  const src = "# Guide\n\nFirst.\n\n```js\nx\n```\n\nSecond.\n\n> quoted\n> text\n\n- a\n- b\n\n[ref]: https://example.org\n";
  const fs = fragmentMarkdown("guide.md", src);

  it("fragmentId = sha256(artifactId NUL path); versionId = id#contentHash; contentHash = sha256(kind LF normalized)", () => {
    for (const f of fs) {
      expect(f.fragmentId).toBe(sha256Hex(`guide.md\u0000${f.path}`));
      expect(f.versionId).toBe(`${f.fragmentId}#${f.contentHash}`);
      expect(f.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    const first = fs.find((f) => f.text === "First.")!;
    expect(first.contentHash).toBe(`sha256:${sha256Hex("paragraph\nFirst.")}`);
  });

  it("ordinals are counted per (parent, kind): a code block between paragraphs does not renumber them", () => {
    expect(fs.map((f) => f.path)).toEqual([
      "section:guide",
      "section:guide/paragraph:1",
      "section:guide/code:1",
      "section:guide/paragraph:2",
      "section:guide/quote:1",
      "section:guide/quote:1/paragraph:1",
      "section:guide/list:1",
      "section:guide/list:1/item:1",
      "section:guide/list:1/item:1/paragraph:1",
      "section:guide/list:1/item:2",
      "section:guide/list:1/item:2/paragraph:1",
      "section:guide/definition:ref",
    ]);
    expect(fs.map((f) => f.sequence)).toEqual(fs.map((_, i) => i));
    expect(fs.map((f) => f.ordinal)).toEqual([1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1]);
    expect(fs.map((f) => f.depth)).toEqual([0, 1, 1, 1, 1, 2, 1, 2, 3, 2, 3, 1]);
  });

  it("offsets are UTF-16 code units and slicing the source gives each fragment's text; a section spans its contents", () => {
    for (const f of fs) expect(src.slice(f.start, f.end)).toBe(f.text);
    expect(fs[0].start).toBe(0);
    expect(fs[0].end).toBe(src.length - 1);
    const astral = "# 😀 Emoji\n\nA 😀 b.\n";
    const [sec, para] = fragmentMarkdown("e.md", astral);
    expect(para.start).toBe(12); // "# 😀 Emoji\n\n" is 12 UTF-16 code units (the emoji counts two)
    expect(astral.slice(para.start, para.end)).toBe("A 😀 b.");
    expect(sec.anchor).toBe("emoji");
  });

  it("a quoted paragraph keeps its hash when reflowed (enclosing `>` markers are not content)", () => {
    const a = fragmentMarkdown("q.md", "> one two\n> three\n").find((f) => f.kind === "paragraph")!;
    const b = fragmentMarkdown("q.md", ">   one\n> two three\n").find((f) => f.kind === "paragraph")!;
    expect(a.fragmentId).toBe(b.fragmentId);
    expect(a.contentHash).toBe(b.contentHash);
  });

  it("a one-item list and its item are the same characters but different content hashes (kind is hashed)", () => {
    const [list, item] = fragmentMarkdown("l.md", "- only\n");
    expect(list.text).toBe(item.text);
    expect(list.contentHash).not.toBe(item.contentHash);
  });

  it("GFM: task lists, strikethrough, footnotes, tables; TOML front matter", () => {
    const g = fragmentMarkdown("g.md", "+++\ntitle = 1\n+++\n\n- [x] done ~~old~~\n\nSee[^n].\n\n[^n]: The note.\n\n| A |\n|---|\n| 1 |\n");
    expect(g.map((f) => f.path)).toEqual([
      "frontmatter:1",
      "list:1",
      "list:1/item:1",
      "list:1/item:1/paragraph:1",
      "paragraph:1",
      "footnote:n",
      "footnote:n/paragraph:1",
      "table:a",
      "table:a/row:a",
      "table:a/row:1",
    ]);
  });

  it("slugs never contain the escape `~`, so `x~2` cannot be any label's anchor; an empty label is `~N`", () => {
    expect(slugify("x~2")).toBe("x2");
    expect(slugify("  Hello,   World! ")).toBe("hello-world");
    expect(slugify("Ünïcode — ok_1")).toBe("ünïcode-ok_1");
    expect(anchorFor("", 1)).toBe("~1");
    const fs2 = fragmentMarkdown("e.md", "# !!!\n\n# ???\n\n# x~2\n\n# x\n\n# x\n");
    expect(sections(fs2).map((f) => f.anchor)).toEqual(["~1", "~2", "x2", "x", "x~2"]);
  });

  it("resolveFragment finds by fragment id or version id", () => {
    expect(resolveFragment(fs[3].fragmentId, fs)).toBe(fs[3]);
    expect(resolveFragment(fs[3].versionId, fs)).toBe(fs[3]);
    expect(resolveFragment("0".repeat(64), fs)).toBeNull();
  });
});

describe("plain text, other formats and bad input", () => {
  it(".txt fragments into paragraphs separated by blank lines", () => {
    const src = "First line\nstill first.\n\n  \nSecond.\r\n\r\nThird";
    const fs = fragmentPlainText("a.txt", src);
    expect(fs.map((f) => [f.path, f.text, f.line])).toEqual([
      ["paragraph:1", "First line\nstill first.", 1],
      ["paragraph:2", "Second.", 5],
      ["paragraph:3", "Third", 7],
    ]);
    for (const f of fs) expect(src.slice(f.start, f.end)).toBe(f.text);
    expect(fragmentDocument("a.txt", src, mediaTypeForPath("notes/a.txt"))).toEqual(fs);
    expect(fragmentPlainText("a.txt", "")).toEqual([]);
  });

  it("other formats say they are not supported yet", () => {
    expect(mediaTypeForPath("report.PDF")).toBe("application/pdf");
    expect(mediaTypeForPath("https://x.org/a.md?raw=1")).toBe("text/markdown");
    expect(() => fragmentDocument("r.pdf", "%PDF", "application/pdf", "r.pdf")).toThrow(UnsupportedFormatError);
    expect(() => fragmentDocument("r.pdf", "%PDF", "application/pdf", "r.pdf")).toThrow(
      "fragmenting application/pdf (r.pdf) is not supported yet; supported: text/markdown (.md, .markdown), text/plain (.txt)",
    );
    expect(() => fragmentDocument("r.html", "<p>", "text/html")).toThrow(/text\/html is not supported yet/);
  });

  it("bad input is a clear error naming what", () => {
    expect(() => fragmentMarkdown("", "x")).toThrow("fragmentMarkdown: artifactId must be a non-empty string");
    expect(() => fragmentMarkdown("a", null as unknown as string)).toThrow("fragmentMarkdown: text must be a string, got null");
    expect(() => parseCitation("abc")).toThrow(CitationFormatError);
    expect(() => parseCitation(`${"a".repeat(64)}#md5:00`)).toThrow(/content hash must be sha256/);
    expect(() => citationStatus("nonsense", [])).toThrow('not a citation: "nonsense" (expected <fragmentId>#sha256:<hex>)');
    expect(() => createArtifact({ sourceObjectId: "", content: "" })).toThrow(/sourceObjectId must be a non-empty string/);
  });

  it("Artifact: keyed to the source object, contentHash over the bytes", () => {
    const a1 = createArtifact({ sourceObjectId: "docs/guide.md", content: "# Guide\n" });
    const a2 = createArtifact({ sourceObjectId: "docs/guide.md", content: "# Guide!\n" });
    expect(a1).toEqual({
      artifactId: "docs/guide.md",
      sourceObjectId: "docs/guide.md",
      connector: "file",
      mediaType: "text/markdown",
      byteLength: 8,
      contentHash: `sha256:${sha256Hex("# Guide\n")}`,
    });
    expect(a2.artifactId).toBe(a1.artifactId);
    expect(a2.contentHash).not.toBe(a1.contentHash);
    expect(createArtifact({ sourceObjectId: "é.txt", content: "é" }).byteLength).toBe(2);
  });
});
