// Where blocks end when markdown-it's reading needs help (s8-blocks): indented code followed by
// whitespace-only lines under CR LF, table cells whose text nodes mdast left without a position
// (GFM autolink literals), and top-level fences and HTML blocks of kinds 1–5 that never close
// (read natively, to the end of the document, as micromark reads them), with the size bound on
// what is still handed to micromark. The oracle is the micromark → mdast fragmenter
// (test/evidence/reference-fragmenter.ts); docs/evidence.md, "Limits" (what micromark reads).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { fragmentMarkdown, MarkdownSizeError, MAX_MICROMARK_LENGTH, type Fragment } from "../../ts/evidence/index.js";
import { micromarkLoad } from "../../ts/evidence/fragment/index.js";
import { gw } from "../io/run-cli.js";
import { fragmentMarkdown as referenceFragmentMarkdown } from "./reference-fragmenter.js";
import { DEEP, depth, fcRuns } from "../depth.js";

// npm test: the first fortieth of each seeded sweep; of the 360 unclosed blocks written out (opener ×
// line ending × body × final line ending) every eleventh, which keeps every opener, ending, body and
// final ending (the test checks so); of the twelve 1 MB blocks, each opener once, the bodies taken in
// turn, each block 300 kB (over MAX_MICROMARK_LENGTH: handed to micromark, it would be read or refused
// there); the refusal of an unclosed fence in a list item through the CLI (the library's own refusal,
// its typed error, is test/evidence/large-regions.test.ts's in npm test).
// npm run test:deep (test/depth.ts): all of each, every block 1 MB, the library's refusal here too.
const CODE_RUNS = fcRuns(50, 2000);
const OPEN_RUNS = fcRuns(38, 1500);

const address = (f: Fragment) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");
const addresses = (text: string) => fragmentMarkdown("d", text).map(address);
const reference = (text: string) => referenceFragmentMarkdown("d", text).map(address);

describe("indented code, whitespace-only lines and CR LF", () => {
  it("the code ends at its last line with content, the whitespace-only line under four columns not taken (as with LF)", () => {
    for (const text of ["    code\r\n   \r\nx\r\n", " \tcode\r\n   \r\nx\r\n", " \t```\r\n   \r\n```\r\n1. ***\r\n"]) {
      expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
      const lf = text.replace(/\r\n/g, "\n");
      const code = fragmentMarkdown("d", text)[0];
      expect(code.kind).toBe("code");
      // The same lines with LF: the same code text and first-block end (CR LF adds no code unit before the first line ending).
      expect(code.text).toBe(fragmentMarkdown("d", lf)[0].text);
      expect(code.end).toBe(fragmentMarkdown("d", lf)[0].end);
    }
    expect(fragmentMarkdown("d", "    code\r\n   \r\nx\r\n")[0]).toMatchObject({ start: 0, end: 8, text: "    code" });
  });

  // Lines of indented code, whitespace-only lines of every width under and over four columns (spaces, tabs),
  // empty lines and lines with content, maybe quoted or in a list item, all joined by CR LF.
  const LINES = ["    code", " \tcode", "\tx", "     deeper", "", " ", "   ", "    ", "     ", "\t", " \t", "  \t ", "x", "```", "1. ***", "- a", "> q", "# h", "para"];
  const WRAP = [(s: string) => s, (s: string) => (s ? `> ${s}` : s), (s: string) => `  ${s}`];
  const crlfDocuments = fc
    .array(fc.record({ line: fc.constantFrom(...LINES), wrap: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }) }), { minLength: 1, maxLength: 12 })
    .chain((lines) => fc.boolean().map((finalEnding) => lines.map((l) => WRAP[l.wrap](l.line)).join("\r\n") + (finalEnding ? "\r\n" : "")));

  it(`${CODE_RUNS.toLocaleString("en")} seeded CR LF documents of indented code and whitespace-only lines keep the reference's addresses`, () => {
    fc.assert(
      fc.property(crlfDocuments, (text) => {
        expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
      }),
      { seed: Number(process.env.GROUNDWIRE_DIFF_SEED ?? 82026), numRuns: CODE_RUNS },
    );
  }, 60_000);
});

describe("block ends the differentials above found (each wrong with LF too)", () => {
  it("keep the reference's addresses", () => {
    for (const lf of [
      "    code\n     ", // a whitespace-only last line without a line ending: code to micromark, no line to markdown-it
      "    code\n\n\t  ",
      ">     code\n>     \n     ", // a whitespace-only line of code in a block quote
      ">     code\n>      \npara",
      ">     code\n      code\n    code\n    \n> q\n    code", // indented code ending a micromark region takes the `    ` line
      "- a\n  <pre>\n  \nx", // an open HTML block in an item takes the whitespace-only line
      "- a\n  \`\`\`\n    \nx",
      "x\n \npara\n\`\`\`\n> > q\n> \`\`\`\n ", // `> \`\`\`` closes no top-level fence
      "\`\`\`\nx\n> \`\`\`\n",
    ]) {
      for (const text of [lf, lf.replace(/\n/g, "\r\n")]) expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});

describe("table cells whose text mdast gave no position (GFM autolink literals)", () => {
  const CASES = ["a | b\n-|-\n[see www.x.com\n", "| a | b |\n|---|---|\n[a@b.co\n", "> | a |\n> |-|\n> | [x@y.co\n", "| a |\n|---|\n| [see www.x.com   |\n", "| a | b |\n|---|---|\n| [a@b.co \\| | c |\n"];

  it("fragment, with mdast-util-to-string's cell text and offsets inside the cell that slice to its content", () => {
    for (const text of CASES) {
      const fragments = fragmentMarkdown("d", text);
      expect(fragments.filter((f) => f.kind === "table"), JSON.stringify(text)).toHaveLength(1);
      const rows = fragments.filter((f) => f.cells !== undefined);
      // What mdast gives for the cells (the same GFM micromark reading the old fragmenter used).
      const tree = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
      const top = tree.children[0];
      const table = top.type === "blockquote" ? top.children[0] : top;
      if (table.type !== "table") throw new Error("no table");
      const width = table.children[0].children.length;
      const expected = table.children.map((row) => {
        const cells = row.children.slice(0, width).map((cell) => toString(cell));
        while (cells.length < width) cells.push("");
        return cells;
      });
      expect(rows.map((r) => r.cells!.map((c) => c.text)), JSON.stringify(text)).toEqual(expected);
      for (const row of rows) {
        for (const c of row.cells!) {
          // The source of a cell with text: that text as written (autolinks' text is their source; `\|` is `|`).
          if (c.text) expect(text.slice(c.start, c.end).replace(/\\\|/g, "|"), JSON.stringify(text)).toBe(c.text);
          expect(c.start >= row.start && c.end <= row.end, JSON.stringify(text)).toBe(true);
        }
      }
    }
    expect(fragmentMarkdown("d", CASES[0]).find((f) => f.cells && f.line === 3)!.cells![0]).toEqual({ text: "[see www.x.com", start: 10, end: 24 });
    expect(fragmentMarkdown("d", CASES[2]).find((f) => f.cells && f.line === 3)!.cells![0]).toEqual({ text: "[x@y.co", start: 18, end: 25 });
  });
});

describe("top-level fences and HTML blocks of kinds 1–5 that never close", () => {
  const OPENERS = ["```", "~~~", "````js", "  ```", "<pre>", "<script>", "<style x>", "<textarea>", "<!--", "<!-- a", "<?x", "<!X", "<!doctype", "<![CDATA[", "  <pre>"];
  const TAIL = ["x", "", "  ", "\t", "    ", "```", "``", "~~~", "-->", "-- >", "</div>", "[^a]: x", "[a]: /u", "# h", "- item", "> q", "|a|\n|-|"];
  const ENDINGS = ["\n", "\r\n"];

  it("run to the end of the document, trailing blank and whitespace-only lines and the final line ending included (the reference's reading)", () => {
    const BODIES = ["", "x", "x\n\n", "x\n  \n \n", "x\n\t\n", "\n"];
    const all = OPENERS.flatMap((opener) => ENDINGS.flatMap((ending) => BODIES.flatMap((body) => ["", ending].map((last) => ({ opener, ending, body, last })))));
    // npm test: every eleventh (11 is prime to the 24 cases of one opener: each opener keeps two or three of
    // them, and every ending, body and final ending is kept, as checked here)
    const cases = DEEP ? all : all.filter((_, i) => i % 11 === 0);
    for (const key of ["opener", "ending", "body", "last"] as const) expect(new Set(cases.map((c) => c[key])), key).toEqual(new Set(all.map((c) => c[key])));
    for (const { opener, ending, body, last } of cases) {
      const text = `${opener}${ending}${body.replace(/\n/g, ending)}`.replace(/\r?\n$/, "") + last;
      expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
      expect(addresses(`para${ending}${ending}${text}`)).toEqual(reference(`para${ending}${ending}${text}`));
      expect(addresses(`# h${ending}${text}`)).toEqual(reference(`# h${ending}${text}`));
    }
  });

  const unclosed = fc
    .record({
      before: fc.constantFrom("", "para\n", "para\n\n", "# h\n", "- a\n", "> q\n", "[^n]: x\n\n"),
      opener: fc.constantFrom(...OPENERS),
      tail: fc.array(fc.constantFrom(...TAIL), { maxLength: 8 }),
      crlf: fc.boolean(),
      last: fc.boolean(),
    })
    .map(({ before, opener, tail, crlf, last }) => {
      const text = `${before}${opener}\n${tail.join("\n")}${last ? "\n" : ""}`;
      return crlf ? text.replace(/\n/g, "\r\n") : text;
    });

  it(`${OPEN_RUNS.toLocaleString("en")} seeded documents ending in an open fence or HTML block keep the reference's addresses`, () => {
    fc.assert(
      fc.property(unclosed, (text) => {
        expect(addresses(text), JSON.stringify(text)).toEqual(reference(text));
      }),
      { seed: Number(process.env.GROUNDWIRE_DIFF_SEED ?? 92026), numRuns: OPEN_RUNS },
    );
  }, 60_000);

  it("with a byte-order mark: the same addresses one code unit on (the reference's BOM offsets are the intended difference)", () => {
    for (const text of ["```\nx\n\n", "<!--\r\nx\r\n  \r\n", "<pre>\n"]) {
      const plain = fragmentMarkdown("d", text);
      const bom = fragmentMarkdown("d", `\uFEFF${text}`);
      expect(bom.map((f) => [f.kind, f.start - 1, f.end - 1, f.contentHash])).toEqual(plain.map((f) => [f.kind, f.start, f.end, f.contentHash]));
      expect(bom[0].end).toBe(text.length + 1);
    }
  });

  it("a large one (1 MB; 300 kB in npm test) hands micromark nothing (it once went to micromark whole: 1.5 GB peak RSS)", () => {
    // npm test: 300 kB, over MAX_MICROMARK_LENGTH; npm run test:deep (test/depth.ts): 1 MB
    const size = depth(300_000, 1e6);
    expect(size).toBeGreaterThan(MAX_MICROMARK_LENGTH);
    for (const [o, opener] of ["```", "~~~", "<pre>", "<!--", "<?php", "<![CDATA["].entries()) {
      // npm test: each opener with one body, the two in turn; npm run test:deep: both
      for (const body of ["x\n", "[^a]: x\n"].filter((_, b) => DEEP || b === o % 2)) {
        const text = `${opener}\n${body.repeat(Math.ceil(size / body.length))}`;
        const before = micromarkLoad();
        const fragments = fragmentMarkdown("d", text);
        expect(micromarkLoad() - before, opener).toBe(0);
        expect(fragments.map((f) => [f.kind, f.start, f.end])).toEqual([[opener.startsWith("<") ? "html" : "code", 0, text.length]]);
      }
    }
  });
});

describe("the size bound on what micromark reads", () => {
  // 3 CPU-s: npm test runs this refusal through the CLI (below); npm run test:deep (test/depth.ts) here too
  it.runIf(DEEP)("an unclosed fence in a list item over MAX_MICROMARK_LENGTH is refused with the line it starts on", () => {
    const body = "  x\n".repeat(MAX_MICROMARK_LENGTH / 4 + 1);
    let error: unknown;
    try {
      fragmentMarkdown("d", `para\n\n- \`\`\`\n${body}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MarkdownSizeError);
    expect((error as MarkdownSizeError).line).toBe(3);
    expect((error as MarkdownSizeError).length).toBe(4 + body.length + 2);
    expect((error as Error).message).toMatch(/^a block of 262,15\d UTF-16 code units at line 3 that only micromark reads exactly .* over the limit of 262,144/);
  });

  it("one just under it is read (as the reference reads a shorter one)", () => {
    const small = `- \`\`\`\n${"  x\n".repeat(1000)}`;
    expect(addresses(small)).toEqual(reference(small));
    expect(fragmentMarkdown("d", small).map((f) => [f.kind, f.start, f.end])).toEqual([["list", 0, small.length], ["item", 0, small.length], ["code", 2, small.length]]);
    const big = `- \`\`\`\n${"  x\n".repeat(MAX_MICROMARK_LENGTH / 4 - 2)}`;
    expect(big.length).toBeLessThanOrEqual(MAX_MICROMARK_LENGTH);
    expect(fragmentMarkdown("d", big).map((f) => [f.kind, f.start, f.end])).toEqual([["list", 0, big.length], ["item", 0, big.length], ["code", 2, big.length]]);
  });
});

describe("the size bound through the CLI (dist/cli.cjs)", () => {
  it("fragments names the file, the line and the limit, exit 1", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "gw-blocks-")), "item.md");
    writeFileSync(file, `# t\n\n- \`\`\`\n${"  x\n".repeat(70_000)}`);
    const r = await gw(["fragments", file, "--artifact", "u"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`fragments: ${file}: a block of 280,006 UTF-16 code units at line 3 that only micromark reads exactly`);
    expect(r.stdout).toBe("");
  });
});
