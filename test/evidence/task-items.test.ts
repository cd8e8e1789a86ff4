// GFM task list items read natively (ts/evidence/fragment/task-items.ts, `taskParagraph`): every rule of
// micromark-extension-gfm-task-list-item + mdast-util-gfm-task-list-item that moves (or keeps) a task
// paragraph's start, each as a minimized case compared with the micromark → mdast fragmenter
// (test/evidence/reference-fragmenter.ts), then seeded task-heavy documents (fast-check) compared the
// same way: fragmentId, contentHash, path, kind, start, end, line. Speed is in the bench
// (`npx tsx bench/run.ts evidence`: the 50,000-item task list), not here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, type Fragment } from "../../ts/evidence/index.js";
import { setMarkdownChunkLines } from "../../ts/evidence/fragment/index.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { fcRuns } from "../depth.js";

// npm test: the first 150 of the seeded documents; npm run test:deep (test/depth.ts): all 1,500.
const RUNS = Number(process.env.GROUNDWIRE_DIFF_RUNS ?? fcRuns(150, 1500));

const address = (f: Fragment) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");

function expectSameAddresses(text: string): void {
  const expected = referenceFragmentMarkdown("d", text).map(address);
  expect(fragmentMarkdown("d", text).map(address), JSON.stringify(text)).toEqual(expected);
  const previous = setMarkdownChunkLines(3);
  try {
    expect(fragmentMarkdown("d", text).map(address), `${JSON.stringify(text)} (3-line chunks)`).toEqual(expected);
  } finally {
    setMarkdownChunkLines(previous);
  }
}

/** The first paragraph fragment's text and start. */
function firstParagraph(text: string): { text: string; start: number; line: number } {
  const p = fragmentMarkdown("d", text).find((f) => f.kind === "paragraph")!;
  return { text: p.text, start: p.start, line: p.line };
}

describe("task list items: the paragraph's start as mdast-util-gfm-task-list-item leaves it", () => {
  const RULES: [string, string[]][] = [
    ["text after the check: the start moves past the check and one whitespace unit", ["- [ ] x\n", "* [x] y\n", "1. [X] z\n", "1) [x] y\n", "+ [ ] plus\n", "- [ ]\tx\n", "- [ ]   three spaces\n", "-  [ ] wide marker\n", "- [ ] &amp; entity\n", "- [ ] \\*escaped\n", "- [ ] ] bracket\n", "- [ ] `unclosed code\n", "- [ ] *unclosed em\n", "- [ ] <notatag\n", "- [ ] [undefined ref]\n", "- [ ] mailto:a@b.c\n", "- [ ] www.\n"]],
    ["emphasis, code, a link, HTML or an autolink right after one space: the start stays at the `[`", ["- [ ] *em*\n", "- [x] **strong**\n", "- [ ] _em_ b\n", "- [ ] `code`\n", "- [ ] ``a ` b``\n", "- [x] [link](http://x)\n", "- [ ] ![img](u)\n", "- [ ] <b>html</b>\n", "- [ ] <http://a.example>\n", "- [ ] <a@b.example>\n", "- [ ] [ref]\n\n[ref]: /u\n", "- [ ] [^1]\n\n[^1]: note\n"]],
    ["GFM autolink literals and strikethrough after the check (micromark decides, in batches)", ["- [ ] www.example.com\n", "- [ ] http://a.example/x\n", "- [ ] https://a.example\n", "- [ ] a@b.co\n", "- [ ] ab@b.com x\n", "- [ ] ~del~\n", "- [ ] ~~del~~ x\n", "- [ ] a ~b~\n", "- [ ] *a www.x.com*\n", "- [ ] WWW.EXAMPLE.COM\n"]],
    ["two whitespace units or more before the first node: it is text (`  *em*` keeps a space)", ["- [ ]  *em*\n", "- [x] \t`code`\n", "- [ ]  [link](u)\n"]],
    ["nothing after the check: no check (the paragraph is `[ ]`)", ["- [ ]\n", "- [x]  \n", "- [ ]\n- [x]\n", "- [ ]\t\n\n  para\n", "- [ ]\n  ===\n"]],
    ["the check followed by a line ending: the line ending is the head", ["- [ ]\n  next line\n", "- [ ] \n  after a space\n", "- [ ]\t\n  after a tab\n", "- [ ]\n  *em* next\n", "- [ ]\n  \\\n  hard break escape\n", "- [ ]  \n  hard break\n", "> - [ ]\n>   quoted next\n", "- [ ]\nlazy\n"]],
    ["`[x]` in a second paragraph, after other content, or not at the start: no check", ["- [x]\n\n  [ ] b\n", "- a\n\n  [ ] b\n", "- a [ ] b\n", "- [ ]x\n", "- [y] no\n", "- [  ] two spaces\n", "- # [ ] heading\n", "- ```\n  [ ] code\n  ```\n"]],
    ["a task check in a setext heading: none (the heading text keeps it)", ["- [ ] x\n  ===\n", "- [x] a\n  ---\n", "- [ ]\n  a\n  ===\n", "- [ ] a\n  ===\n\n  para\n", "- [ ] a\n  ===\n  b\n"]],
    ["nested lists, block quotes around and inside items", ["- [ ] a\n  - [x] b\n    - [X] c\n", "- - [ ] inner\n", "> - [ ] x\n", "> > - [x] y\n", "- > [ ] quote inside the item: no check\n", "1. a\n   - [ ] b\n", "- [ ] a\n\n  - [ ] b\n"]],
    ["a tab or a line ending between the brackets", ["- [\t] tab on a tab stop\n", "-   [\t] tab off a stop: no check\n", "  - [\t] x\n", "- [\n] lazy\n", "- [\n  ] x\n", "- [\n   ] one space too many\n", "> - [\n>   ] quoted\n", "- [\r\n  ] crlf\r\n", "  - [\n    ] nested\n", "-\n  [\n  ] blank first line\n", "1. [\n   ]  *em*\n", "- [\n  ] *em*\n", "- [\n  ]\n  next\n", "- [\n ] lazy, indented\n", "- [\n\t] tab\n"]],
    ["CR LF", ["- [x] crlf\r\n", "- [ ]\r\n  next\r\n", "- [ ]\r\n  *em*\r\n", "- [ ] \\\r\n  x\r\n", "- [ ] \\\r\n", "- [ ]  \r\n  hard\r\n", "- [ ] a\r\n- [x] *b*\r\n"]],
    ["definitions before the check in the item's first content", ["- [a]: /u\n  [ ] x\n", "- [a]: /u\n\n  [ ] x\n"]],
  ];
  for (const [name, cases] of RULES) {
    it(name, () => {
      for (const text of cases) expectSameAddresses(text);
    });
  }

  it("real values: where the paragraph starts and what it says", () => {
    expect(firstParagraph("- [ ] x\n")).toEqual({ text: "x", start: 6, line: 1 });
    expect(firstParagraph("1. [X] z\n")).toEqual({ text: "z", start: 7, line: 1 });
    expect(firstParagraph("- [ ] *em*\n")).toEqual({ text: "[ ] *em*", start: 2, line: 1 });
    expect(firstParagraph("- [ ]  *em*\n")).toEqual({ text: " *em*", start: 6, line: 1 });
    expect(firstParagraph("- [ ] www.example.com\n")).toEqual({ text: "[ ] www.example.com", start: 2, line: 1 });
    // The line ending is the head: the start is the unit after it, on the next line, while `line` stays the check's.
    expect(firstParagraph("- [ ]\n  next\n")).toEqual({ text: "  next", start: 6, line: 1 });
    expect(firstParagraph("- [ ]\r\n  *em*\r\n")).toEqual({ text: "\n  *em*", start: 6, line: 1 });
    expect(firstParagraph("- [ ]  \n  hard\n")).toEqual({ text: "[ ]  \n  hard", start: 2, line: 1 });
    expect(firstParagraph("- [ ]\n")).toEqual({ text: "[ ]", start: 2, line: 1 });
    // A line ending between the brackets: a moved start is on the `]`'s line.
    expect(firstParagraph("- [\n  ] x\n")).toEqual({ text: "x", start: 8, line: 2 });
    expect(firstParagraph("- [\n  ] *em*\n")).toEqual({ text: "[\n  ] *em*", start: 2, line: 1 });
    expect(firstParagraph("- [\n   ] x\n")).toEqual({ text: "[\n   ] x", start: 2, line: 1 });
  });
});

// Task-heavy documents: items of every marker (the continuation lines at the item's content column, so no
// line is lazy: a lazy line opening HTML is a deliberate divergence, see reference-differential.test.ts),
// checks of every spelling, every kind of whitespace and first inline node after them, nested items,
// second paragraphs, setext underlines, definitions and footnotes further down, some documents in CR LF.
const MARKERS: [string, string][] = [["- ", "  "], ["* ", "  "], ["+ ", "  "], ["1. ", "   "], ["1) ", "   "], ["10. ", "    "], ["-   ", "    "], ["> - ", ">   "], ["  - ", "    "], ["- - ", "    "], ["-\n  ", "  "]];
const CHECKS = ["[ ]", "[x]", "[X]", "[\t]", "[ ]", "[x]", "[\n]", "[  ]", "[y]"];
const AFTER = [" ", " ", "  ", "\t", "", "\n", " \n", "  \n", "\t\n", "   "];
const REST = ["x", "task text", "*a*", "**a**", "_a_", "`c`", "`c", "[l](u)", "[r]", "[q]", "<http://a>", "<b>x</b>", "www.a.com", "a@b.co", "~a~", "~~a~~", "\\*", "\\", "&amp;", "![i](u)", "[^1]", "*a", "http://x.y", "]", "<", "!", "# h", "a *b* c"];
const TAIL = ["", "", "\n{c}more", "\n{c}===", "\n\n{c}para", "\n{c}- [ ] sub", "\n{c}  - [x] deeper", "\n{c}[x] y", "  "];
const EXTRA = ["[r]: /u\n", "[^1]: note\n", "para\n", "- plain item\n", "> q\n"];

const item = fc
  .record({ marker: fc.constantFrom(...MARKERS), check: fc.constantFrom(...CHECKS), after: fc.constantFrom(...AFTER), rest: fc.constantFrom(...REST), tail: fc.constantFrom(...TAIL) })
  .map(({ marker: [first, cont], check, after, rest, tail }) => {
    const nl = (s: string) => s.replace(/\n/g, `\n${cont}`);
    return first + nl(check) + nl(after) + rest + tail.replace(/\{c\}/g, cont) + "\n";
  });
const taskDocuments = fc
  .record({ items: fc.array(item, { minLength: 1, maxLength: 8 }), blank: fc.boolean(), extra: fc.option(fc.constantFrom(...EXTRA)), crlf: fc.integer({ min: 0, max: 4 }) })
  .map(({ items, blank, extra, crlf }) => {
    const text = items.join(blank ? "\n" : "") + (extra ? `\n${extra}` : "");
    return crlf === 0 ? text.replace(/\n/g, "\r\n") : text;
  });

describe("random task-heavy documents: the reference fragmenter's addresses", () => {
  it(`${RUNS.toLocaleString("en")} seeded documents`, () => {
    fc.assert(
      fc.property(taskDocuments, (text) => {
        expect(fragmentMarkdown("d", text).map(address), JSON.stringify(text)).toEqual(referenceFragmentMarkdown("d", text).map(address));
      }),
      { seed: Number(process.env.GROUNDWIRE_DIFF_SEED ?? 20261202), numRuns: RUNS },
    );
  }, 60_000);
});
