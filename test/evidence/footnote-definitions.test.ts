// The document's footnote definitions, appended to every piece fragmentMarkdown parses alone with
// micromark (heading labels, table cells, micromark regions, task-item heads), must be exactly the
// ones micromark reads in the whole document: a `[^n]: x` line that is not one (in code, HTML, front
// matter, after `***`, too deeply indented) turned `[^n]` in a heading into a footnote call, and a
// definition nested in a footnote definition's content was missed. Each case is compared with the
// micromark fragmenter (test/evidence/reference-fragmenter.ts), and the path its reading gives is asserted.
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { setMarkdownChunkLines } from "../../ts/evidence/fragment.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";

function addresses(fragments: readonly Fragment[]): string[] {
  return fragments.map((f) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" "));
}

/** The first section's or row's path, after checking every address against the reference (whole, and in 1-line chunks). */
function labelPath(text: string): string {
  const reference = addresses(referenceFragmentMarkdown("d", text));
  const fragments = fragmentMarkdown("d", text);
  expect(addresses(fragments), JSON.stringify(text)).toEqual(reference);
  const previous = setMarkdownChunkLines(1);
  try {
    expect(addresses(fragmentMarkdown("d", text)), `${JSON.stringify(text)} (1-line chunks)`).toEqual(reference);
  } finally {
    setMarkdownChunkLines(previous);
  }
  return fragments.find((f) => f.kind === "section" || f.kind === "row")!.path;
}

describe("fragmentMarkdown appends exactly micromark's footnote definitions", () => {
  it("a `[^n]: x` line micromark does not read as a definition leaves `[^n]` text", () => {
    const cases: [string, string][] = [
      // `***` is no list marker (a marker needs a space or tab after it): the whole line is the heading's text
      ["***[^n]: note\r\n- ", "section:n-note"],
      ["***[^n]: note\n- ", "section:n-note"],
      ["# [^n] h\n\n```\n[^n]: x\n```", "section:n-h"],
      ["h [^n]\n===\n\n~~~\n[^n]: x\n~~~", "section:h-n"],
      ["# [^n] h\n\n    [^n]: x", "section:n-h"],
      ["# [^n] h\n\n<div>\n[^n]: x\n</div>", "section:n-h"],
      ["# [^n] h\n\n<!--\n[^n]: x\n-->", "section:n-h"],
      // indented four columns after a paragraph: a continuation line, not a definition
      ["# [^n] h\n\na\n    [^n]: x", "section:n-h"],
      // five columns after the marker: indented code in the item
      ["# [^n] h\n\n-     [^n]: x", "section:n-h"],
      ["# [^n] h\n\n- a\n\n      [^n]: x", "section:n-h"],
      ["# [^n] h\n\n> ```\n> [^n]: x", "section:n-h"],
      ["---\n[^n]: x\n---\n# [^n] h", "section:n-h"],
      ["| [^n] |\n| - |\n\n```\n[^n]: x\n```", "table:n/row:n"],
      // a space in the label: a reference definition, `[^a b]` a link to it
      ["# [^a b] h\n\n[^a b]: /u", "section:a-b-h"],
    ];
    for (const [text, path] of cases) expect(labelPath(text), JSON.stringify(text)).toBe(path);
    // With a byte-order mark (how the BOM property test in source-offsets.test.ts found it): the same reading, one code unit on.
    const bom = fragmentMarkdown("d", "\uFEFF***[^n]: note\r\n- ");
    expect(bom.map((f) => [f.path, f.start, f.end])).toEqual([["section:n-note", 1, 18]]);
  });

  it("a footnote definition micromark reads, in containers too, makes `[^n]` a call (no text)", () => {
    const cases: [string, string][] = [
      ["# [^n] h\n\n[^n]: x", "section:h"],
      ["# [^n] h\n\n[^n]:x", "section:h"],
      // a footnote definition interrupts a paragraph, in a container or after one
      ["# [^n] h\n\na\n[^n]: x", "section:h"],
      ["# [^n] h\n\n> a\n[^n]: x", "section:h"],
      ["# [^n] h\n\n- a\n[^n]: x", "section:h"],
      ["# [^n] h\n\n> [^n]: x", "section:h"],
      ["# [^n] h\n\n1. [^n]: x", "section:h"],
      ["# [^n] h\n\n-    [^n]: x", "section:h"],
      ["# [^n] h\n\n- a\n\n [^n]: x", "section:h"],
      // nested in a footnote definition's content: on its first line, indented on the next, after a blank line
      ["# [^b] h\n\n[^a]: [^b]: y", "section:h"],
      ["# [^b] h\n\n[^a]: x\n    [^b]: y", "section:h"],
      ["# [^b] h\n\n[^a]: x\n\n    [^b]: y", "section:h"],
      ["# [^a\\]b] h\n\n[^a\\]b]: x", "section:h"],
      ["| [^n] |\n| - |\n\n[^n]: x", "table:~1/row:~1"],
      // markup in the heading (read with the definitions), a table between, the definition last
      ["# [^n] *h*\n\n| a |\n| - |\n\n[^n]: x", "section:h"],
    ];
    for (const [text, path] of cases) expect(labelPath(text), JSON.stringify(text)).toBe(path);
  });
});
