// The document's footnote definitions, appended to every piece fragmentMarkdown parses alone with
// micromark (heading labels, table cells, micromark regions, task-item heads), must be exactly the
// ones micromark reads in the whole document: a `[^n]: x` line that is not one (in code, HTML, front
// matter, after `***`, too deeply indented) turned `[^n]` in a heading into a footnote call, and a
// definition nested in a footnote definition's content was missed. Each case is compared with the
// micromark fragmenter (test/evidence/reference-fragmenter.ts), and the path its reading gives is asserted.
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { micromarkLoad, setMarkdownChunkLines } from "../../ts/evidence/fragment/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { mulberry32 } from "../prng.js";
import { depth } from "../depth.js";

const DOCUMENTS = depth(100, 400);

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

// Each piece parsed alone gets only the definitions it may use (a scan of its brackets, then
// micromark's normalizeIdentifier; a coarser key for labels over several lines in a region), where
// every piece got all of them before: 400 sections with a footnote call in the heading and a table
// took 105 s (now ~1 s; bench case "definitions"). And the labels are micromark's, as written:
// markdown-it's keys collapse white space micromark keeps (U+00A0, U+2003, …), so `[t][a b]` resolved
// against `[a\u00A0b]: /u` here and not in micromark.
describe("fragmentMarkdown appends the definitions a piece may use, labelled as micromark reads them", () => {
  it("labels that match only as micromark normalizes them, and ones that look alike but do not", () => {
    const cases: [string, string][] = [
      // markdown-it's key for both is "A B"; micromark's are "A\u00A0B" and "A B": no link
      ["# [t][a b] h\n\n[a\u00a0b]: /u", "section:ta-b-h"],
      ["# [t][a\u00a0b] h\n\n[a b]: /u", "section:ta-b-h"],
      ["| [t][a b] |\n| - |\n\n[a\u00a0b]: /u", "table:ta-b/row:ta-b"],
      ["# [t][\u00a0a] h\n\n[a]: /u", "section:t-a-h"],
      // the same white space on both sides: a link
      ["# [t][a\u2003b] h\n\n[a\u2003b]: /u", "section:t-h"],
      // case folding (ẞ → ß → SS), runs of spaces and tabs, escapes, NUL, a label over two lines
      ["# [t][ẞ] h\n\n[ss]: /u", "section:t-h"],
      ["# [t][a \t b] h\n\n[a b]: /u", "section:t-h"],
      ["# [t][a\\]b] h\n\n[a\\]b]: /u", "section:t-h"],
      ["foo [t][x\ny] h\n===\n\n[x\ny]: /u", "section:foo-t-h"],
      // a label over two lines of a block quote read by micromark (a table in it): `>` is no part of the label
      ["> foo [t][x\n> y] h\n> ===\n>\n> | a |\n> | - |\n\n[x y]: /u", "quote:1/section:foo-t-h"],
      // `>` in the label itself, on its second line: the coarse key drops it on both sides
      ["> foo [t][x\n> \\> y] h\n> ===\n>\n> | a |\n> | - |\n\n[x \\> y]: /u", "quote:1/section:foo-t-h"],
      // a marker is no part of the label: `[x\ny]` is not `[x > y]`
      ["> foo [t][x\n> y] h\n> ===\n>\n> | a |\n> | - |\n\n[x > y]: /u", "quote:1/section:foo-tx-y-h"],
    ];
    // NUL is read as U+FFFD (the reference hashes NUL itself: its content hashes differ by design, not its paths)
    cases.push(["# [t][a\0b] h\n\n[a\0b]: /u", "section:t-h"]);
    for (const [text, path] of cases) {
      if (text.includes("\0")) {
        expect(fragmentMarkdown("d", text).map((f) => f.path)).toEqual(referenceFragmentMarkdown("d", text).map((f) => f.path));
        expect(fragmentMarkdown("d", text)[0].path).toBe(path);
        continue;
      }
      const reference = addresses(referenceFragmentMarkdown("d", text));
      expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(reference);
      expect(fragmentMarkdown("d", text).map((f) => f.path), JSON.stringify(text)).toContain(path);
    }
  });

  it("a table whose head is a lazy line of a block quote's paragraph is read as micromark (and cmark-gfm) read it", () => {
    for (const [text, path] of [["> a\nb |\n> | - |", "quote:1/table:b"], ["> a\n| b |\n> | - |", "quote:1/table:b"], ["> a\nb | c\n> :-- | --:\n> d | e", "quote:1/table:b-c"]] as const) {
      expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      expect(fragmentMarkdown("d", text).map((f) => f.path), JSON.stringify(text)).toContain(path);
    }
  });

  it("the definitions are the ones micromark reads: in regions it reads, its own, not markdown-it's (a breaker's cases)", () => {
    const cases: [string, string][] = [
      // micromark reads a definition markdown-it does not: after a definition, indented; in a footnote's content
      ["# [t][b]\n\n[a]: /u\n    [b]: /u\n", "section:t"],
      ["[^n]: [a]: /u\n\n# [t][a]\n", "section:t"],
      ["[^n]:\n    [a]: /u\n\n# [t][a]\n", "section:t"],
      ["[^n]: x\n\n    [a]: /u\n\n# [t][a]\n", "section:t"],
      // markdown-it reads a definition micromark does not: a lazy line of a footnote
      ["[^n]: x\n[a]: /u\n\n# [t][a]\n", "section:ta"],
      ["[^n]: x\n[a\uFEFFb]: /u\n\n# [t][a\uFEFFb]\n", "section:ta-b"],
      // a label of Unicode white space only: a definition to micromark, a paragraph to markdown-it
      ["[\u00A0]: /u\n", "definition:~1"],
      ["> [\u3000]: /u\n", "quote:1/definition:~1"],
    ];
    for (const [text, path] of cases) {
      expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      expect(fragmentMarkdown("d", text).map((f) => f.path), JSON.stringify(text)).toContain(path);
    }
    // a region whose last block is unclosed (a fence, an HTML block of kinds 1–5) would run on into
    // definitions appended after it: they go before it
    for (const open of ["```", "~~~", "<?", "<!X", "<![CDATA[", "<script>", "<!--", "<pre>"]) {
      for (const text of [`[a]: /u\n\n| [t][a] |\n|-|\n${open}\n`, `[^1]: x\n\n| a[^1] |\n|-|\n${open}\nmore\n\n    indented\n`, `> [a]: /u\n\n| [t][a] |\n|-|\n${open}`]) {
        expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
        expect(fragmentMarkdown("d", text).some((f) => f.path === "table:t" || f.path === "table:a"), JSON.stringify(text)).toBe(true);
      }
    }
    // a region that ends the document without a line ending is read at the end of the text, as in the
    // whole document: `<custom-tag>` (HTML of kind 7) there is its own block, not a line of the footnote
    for (const [text, path] of [
      ["[^n]: x\n<custom-tag>", "html:1"],
      ["a[^n]\n\n[^n]: x\n<custom-tag>", "html:1"],
      ["- [^n]: x\n  <custom-tag>", "list:1/item:1/html:1"],
      ["> [^n]: x\n> <custom-tag>", "quote:1/html:1"],
      ["[a]\n\n[^n]: x\n[a]: /u\n<custom-tag>", "html:1"],
    ] as const) {
      expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      expect(fragmentMarkdown("d", text).find((f) => f.kind === "footnote")!.text, JSON.stringify(text)).toMatch(/^\[\^n\]: x(?:\n\[a\]: \/u)?$/);
      expect(fragmentMarkdown("d", text).map((f) => f.path), JSON.stringify(text)).toContain(path);
    }
    const task = "[^1]:]\n[a\fb]:u\n- [ ] [a\fb]";
    expect(addresses(fragmentMarkdown("d", task))).toEqual(addresses(referenceFragmentMarkdown("d", task)));
  });

  // npm test: the first 100 of the seeded documents; npm run test:deep (test/depth.ts): all 400
  it(`${DOCUMENTS} seeded documents of definitions, references and footnote calls in headings, cells, tasks and regions`, () => {
    const rand = mulberry32(1508);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    // labels that collide under markdown-it's keys, micromark's, the coarse key, or none
    const labels = ["a b", "A  B", "a\u00a0b", "a>b", "a > b", "ab", "ẞ", "ss", "a\\]b", "x\ny", "x y", "^n", "^N", "^m", "σς", "ΣΣ", "a\tb", "\u00a0a"];
    const ref = () => pick([`[t][${pick(labels)}]`, `[${pick(labels)}]`, `[${pick(labels)}][]`, `![i][${pick(labels)}]`, `[^${pick(["n", "m", "N", "o"])}]`]);
    const atoms: (() => string)[] = [
      () => `# ${ref()} h ${ref()}`,
      () => `${ref()} s\n===`,
      () => `| ${ref()} | b |\n| - | - |\n| ${ref()} | c |`,
      () => `- [ ] ${ref()} task`,
      () => `> # ${ref()} q\n>\n> | ${ref()} |\n> | - |`,
      () => `> p [t][${pick(labels).replace("\n", "\n> ")}] h\n> ===\n>\n> | a |\n> | - |`,
      () => `[${pick(labels)}]: /u`,
      () => `[^${pick(["n", "m", "N"])}]: note ${ref()}`,
      () => `> [${pick(labels)}]: /q`,
      () => `text ${ref()}`,
    ];
    let differences = 0;
    for (let d = 0; d < DOCUMENTS; d++) {
      const parts: string[] = [];
      for (let k = 2 + Math.floor(rand() * 8); k > 0; k--) parts.push(pick(atoms)());
      const text = parts.join("\n\n");
      const reference = addresses(referenceFragmentMarkdown("d", text));
      const ours = addresses(fragmentMarkdown("d", text));
      if (JSON.stringify(ours) !== JSON.stringify(reference)) {
        differences++;
        expect(ours, JSON.stringify(text)).toEqual(reference);
      }
    }
    expect(differences).toBe(0);
  });
});

// A definition's label and anchor are mdast's `label`: character escapes and references decoded, so
// `[AT&amp;T]: …` is `definition:att` (the old fragmenter's address), not `definition:atampt`.
describe("a label over several lines in a region gets only the definitions it may name", () => {
  it("300 definitions equal under the coarse key and 300 regions each with such a label: linear micromark input, the reference's addresses", () => {
    // `a >b`, `a > >b`, `a\u00A0b`, …: all `AB` once white space and `>` are removed (the coarse key),
    // none a label `[a\n> b]` may be (its line ending and `> ` read as one space, or `>` its own)
    const defs = Array.from({ length: 300 }, (_, i) => `[a${" >".repeat(i % 7)}${"\u00A0".repeat(Math.floor(i / 7))}b]: /u${i}`);
    const regions = Array.from({ length: 300 }, (_, i) => `| x [t][a\n> b] ${i} |\n|-|\n| y\t |`);
    const text = `${defs.join("\n")}\n\n${regions.join("\n\n")}\n`;
    const before = micromarkLoad();
    const fragments = fragmentMarkdown("d", text);
    // appending every coarse-equal definition to every region handed micromark 3,151,989 code units
    expect(micromarkLoad() - before).toBeLessThan(text.length);
    expect(addresses(fragments)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
  });

  it("the definitions it may name are still appended: markers removed, white space collapsed, `>` kept as the label's own", () => {
    // (a footnote call in each sends the group to micromark: the label is read from the region as written)
    const cases: [string, string][] = [
      ["> [^n] [t][a\n> b]\n> ===\n\n[a b]: /u\n[^n]: x\n", "quote:1/section:t"],
      ["> [^n] [t][a\n>\tb]\n> ===\n\n[a\tb]: /u\n[^n]: x\n", "quote:1/section:t"],
      ["- [^n] [t][a\n  b]\n  ===\n\n[a b]: /u\n[^n]: x\n", "list:1/item:1/section:t"],
      ["- [^n] [t][a\n  b>c]\n  ===\n\n[a b>c]: /u\n[^n]: x\n", "list:1/item:1/section:t"],
    ];
    for (const [text, path] of cases) {
      expect(addresses(fragmentMarkdown("d", text)), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      expect(fragmentMarkdown("d", text).map((f) => f.path), JSON.stringify(text)).toContain(path);
    }
  });
});

describe("a label that case mapping makes longer than micromark's 999 characters", () => {
  it("is appended as written, so its calls and references resolve as in the whole document", () => {
    // `ß` upper-cases to `SS`: the identifier of a 500-character label has 1,000, over micromark's
    // limit, and `[^SS…SS]: x` appended to a heading or cell was no definition (the call read as text)
    const label = "ß".repeat(500);
    const cases: [string, string][] = [
      [`# h[^${label}]\n\n[^${label}]: x\n`, "section:h"],
      [`| h[^${label}] |\n|-|\n\n[^${label}]: x\n`, "table:h"],
      [`# [t][${label}]\n\n[${label}]: /u\n| a\t|\n|-|\n`, "section:t"],
    ];
    for (const [text, path] of cases) {
      expect(addresses(fragmentMarkdown("d", text)), `${path} case`).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      expect(fragmentMarkdown("d", text)[0].path).toBe(path);
    }
  });
});

describe("definition labels are read as mdast holds them", () => {
  it("character references and escapes are decoded, invalid ones kept as micromark keeps them", () => {
    const cases: [string, string, string][] = [
      ["[AT&amp;T]: https://att.com\n", "definition:att", "AT&T"],
      ["[&#35;x]: /u", "definition:x", "#x"],
      ["[&copy; 2024]: /c", "definition:2024", "© 2024"],
      ["[a\\*b]: /c", "definition:ab", "a*b"],
      ["[&bogus; x]: /c", "definition:bogus-x", "&bogus; x"],
      ["[&#0;]: /c", "definition:~1", "\uFFFD"],
      ["- [&amp;]: /c", "list:1/item:1/definition:~1", "&"],
      ["> [a\\]b &lt;]: /c\n\n[a\\]b &lt;]", "quote:1/definition:ab", "a]b <"],
    ];
    for (const [text, path, label] of cases) {
      const fragments = fragmentMarkdown("d", text);
      expect(addresses(fragments), JSON.stringify(text)).toEqual(addresses(referenceFragmentMarkdown("d", text)));
      const definition = fragments.find((f) => f.kind === "definition")!;
      expect([definition.path, definition.label], JSON.stringify(text)).toEqual([path, label]);
    }
  });
});
