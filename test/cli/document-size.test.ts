// fragments, cite and slice read at most 64 MiB by default (--max-bytes raises it up to
// 128 MiB, the fragmenter's own bound): a larger document is named in one line with its size
// and the limit, before a byte is read, instead of V8's "Invalid string length" part-way.
// Their output is written a chunk at a time (a 32 MiB document's --json passed V8's string
// limit), byte for byte what one string would have been. The library's fragmenters refuse a
// text over MAX_DOCUMENT_LENGTH with a DocumentTooLargeError.
// npm test runs a fixed sample of the repeats and writes the chunked output of a document of
// 10,500 fragments (still several 1 MiB chunks, and two of slice's parts); npm run test:deep
// (test/depth.ts) runs every case, on a document of 15,000. Each test says what it leaves out.
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writer, DataFactory } from "n3";
import { describe, expect, it } from "vitest";
import { DocumentTooLargeError, EVIDENCE_NS, firstWords, formatFragmentListing, fragmentDocument, fragmentMarkdown, fragmentPlainText, MAX_DOCUMENT_LENGTH, toGraphSlice } from "../../ts/evidence/index.js";
import { loadDocumentFile } from "../../ts/evidence/node.js";
import { gw } from "../io/run-cli.js";
import { DEEP, depth, spread } from "../depth.js";

const dir = mkdtempSync(join(tmpdir(), "gw-docsize-"));
/** A sparse file of `size` bytes (no disk used): the size check comes before any read. */
function sparse(name: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, "w");
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}
const big = sparse("big.md", 65 * 2 ** 20);
const huge = sparse("huge.md", 129 * 2 ** 20);
const small = join(dir, "small.md");
writeFileSync(small, `# Title\n\n${"word ".repeat(400)}\n`);
const SMALL_SIZE = 2010;
const VERSION_ID = `${"a".repeat(64)}#sha256:${"b".repeat(64)}`;

describe("the document size bound through the CLI (dist/cli.cjs)", () => {
  /** [command, argv, default cap, --max-bytes ceiling] */
  const commands: Array<[string, (f: string) => string[], string, number]> = [
    ["fragments", (f) => ["fragments", f], "64 MiB", 2 ** 27],
    ["cite", (f) => ["cite", f, VERSION_ID], "64 MiB", 2 ** 27],
    ["slice", (f) => ["slice", f], "16 MiB", 2 ** 26],
  ];
  // every command is run over its own default cap; npm test deals the other three cases out
  // one to a command (fragments: a given --max-bytes, cite: at the ceiling, slice: over it),
  // npm run test:deep (test/depth.ts) runs all three on every command
  it.each(commands.map((c, i) => [...c, i] as const))("%s: over the default, over a given --max-bytes, over the ceiling", async (name, argv, cap, ceiling, i) => {
    const most = `${ceiling / 2 ** 20} MiB`;
    const dealt = (j: number) => DEEP || j === i;
    const r = await gw(argv(big));
    expect(r.stderr).toBe(`groundwire ${name}: ${big}: 68,157,440 bytes, over the ${cap} a document may hold (--max-bytes raises it, up to ${most})\n`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    if (dealt(0)) {
      const given = await gw([...argv(small), "--max-bytes", "1000"]);
      expect(given.stderr).toBe(`groundwire ${name}: ${small}: ${SMALL_SIZE.toLocaleString("en-US")} bytes, over the 1,000 bytes a document may hold (--max-bytes raises it, up to ${most})\n`);
      expect(given.code).toBe(1);
    }
    if (dealt(1)) {
      const atCeiling = await gw([...argv(huge), "--max-bytes", String(ceiling)]);
      expect(atCeiling.stderr).toBe(`groundwire ${name}: ${huge}: 135,266,304 bytes, over the ${most} a document may hold\n`);
      expect(atCeiling.code).toBe(1);
    }
    if (dealt(2)) {
      const over = await gw([...argv(small), "--max-bytes", String(ceiling + 1)]);
      expect(over.stderr).toBe(`groundwire ${name}: --max-bytes must be at most ${ceiling}, got "${ceiling + 1}"\n`);
      expect(over.code).toBe(2);
    }
  });

  it("standard input is cut at the bound too (its size is not known before)", async () => {
    const r = await gw(["fragments", "-", "--artifact", "doc", "--format", "md", "--max-bytes", "1000"], { input: "x".repeat(5000) });
    expect(r.stderr).toBe("groundwire fragments: <stdin>: over the 1,000 bytes a document may hold (--max-bytes raises it, up to 128 MiB)\n");
    expect(r.code).toBe(1);
  });

  it("--max-bytes is checked: digits, 1 to 128 MiB; a document under it is read", async () => {
    // npm test: one of the three values that are not a positive integer; npm run test:deep: all three
    for (const [raw, line] of [
      ...spread([
        ["-1", 'fragments: --max-bytes must be a positive integer, got "-1"'],
        ["0", 'fragments: --max-bytes must be a positive integer, got "0"'],
        ["1e3", 'fragments: --max-bytes must be a positive integer, got "1e3"'],
      ], 1),
      ["64 apples", 'fragments: --max-bytes must be a size from 1 B to 128 MiB (8MiB, 500kB, 1GiB), got "64 apples": unknown unit "apples" (b, kb, mb, gb, kib, mib, gib)'],
      // over the ceiling with a unit: test/cli/habits.test.ts runs 1GiB in npm test; this one in test:deep
      ...(DEEP ? [["129MiB", 'fragments: --max-bytes must be a size from 1 B to 128 MiB (8MiB, 500kB, 1GiB), got "129MiB"']] : []),
      ["134217729", "fragments: --max-bytes must be at most 134217728, got \"134217729\""],
    ]) {
      const r = await gw(["fragments", small, "--max-bytes", raw]);
      expect(r.stderr).toBe(`groundwire ${line}\n`);
      expect(r.code).toBe(2);
    }
    const ok = await gw(["fragments", small, "--max-bytes", String(SMALL_SIZE), "--artifact", "doc"]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout.split("\n")[0]).toMatch(/^doc {2}text\/markdown {2}2010 bytes {2}sha256:[0-9a-f]{64} {2}2 fragments$/);
  });
});

describe("output written in chunks is what one string was", () => {
  // 15,000 fragments (npm test: 10,500): the listing, JSON and N-Quads each run to several 1 MiB
  // chunks, and slice makes its quads in two parts of 10,000 fragments
  const parts = depth(2_100, 3_000);
  const doc = join(dir, "many.md");
  writeFileSync(doc, Array.from({ length: parts }, (_, i) => `## Part ${i}\n\nSome text ${i} with \u202E and "quotes" ${"filler ".repeat(8)}\n\n- item ${i}\n`).join("\n"));
  const { artifact, fragments } = loadDocumentFile(doc, { artifactId: "many" });
  it("has more fragments than slice makes quads for at once", () => {
    expect(fragments.length).toBe(parts * 5);
    expect(fragments.length).toBeGreaterThan(10_000);
  });

  it("fragments --json and the listing", async () => {
    const json = await gw(["fragments", doc, "--artifact", "many", "--json"]);
    expect(json.code).toBe(0);
    const rows = fragments.map(({ text, ...rest }) => ({ ...rest, firstWords: firstWords(text) }));
    expect(json.stdout.length).toBeGreaterThan(2 ** 20);
    expect(json.stdout).toBe(`${JSON.stringify({ artifact, fragments: rows }, null, 2)}\n`);
    const listing = await gw(["fragments", doc, "--artifact", "many"]);
    expect(listing.code).toBe(0);
    expect(listing.stdout.length).toBeGreaterThan(2 ** 20);
    expect(listing.stdout).toBe(formatFragmentListing(fragments, artifact).replace(/\u202E/g, "\\u202E"));
  });

  it("slice, N-Quads and Turtle", async () => {
    const slice = toGraphSlice(artifact, fragments);
    // npm test: N-Quads; npm run test:deep (test/depth.ts): Turtle too (the same chunked writer)
    for (const [format, options] of spread([["nquads", { format: "N-Quads" }], ["turtle", { format: "Turtle", prefixes: { gwe: EVIDENCE_NS, xsd: "http://www.w3.org/2001/XMLSchema#" } }]] as const, 1)) {
      const expected = await new Promise<string>((resolve, reject) => {
        const writer = new Writer(options);
        for (const q of slice.quads) writer.addQuad(q.subject, q.predicate, q.object, format === "nquads" ? DataFactory.namedNode(slice.artifactIri) : q.graph);
        writer.end((error, out) => (error ? reject(error) : resolve(out)));
      });
      const r = await gw(["slice", doc, "--artifact", "many", "--format", format]);
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(2 ** 20);
      expect(r.stdout).toBe(expected);
    }
  });

  it("a document with no fragment", async () => {
    const empty = join(dir, "empty.md");
    writeFileSync(empty, "");
    const r = await gw(["fragments", empty, "--artifact", "e", "--json"]);
    const loaded = loadDocumentFile(empty, { artifactId: "e" });
    expect(r.stdout).toBe(`${JSON.stringify({ artifact: loaded.artifact, fragments: [] }, null, 2)}\n`);
  });
});

describe("the library fragmenters' bound", () => {
  it("refuses a text over MAX_DOCUMENT_LENGTH before any work, with a typed error", () => {
    expect(MAX_DOCUMENT_LENGTH).toBe(2 ** 27);
    const text = "x".repeat(MAX_DOCUMENT_LENGTH + 1);
    const message = (fn: string) => `${fn}: the text is 134,217,729 UTF-16 code units, over the limit of 134,217,728 (MAX_DOCUMENT_LENGTH); split the document`;
    for (const [fn, call] of [
      ["fragmentMarkdown", () => fragmentMarkdown("a", text)],
      ["fragmentPlainText", () => fragmentPlainText("a", text)],
      ["fragmentMarkdown", () => fragmentDocument("a", text, "text/markdown")],
    ] as const) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DocumentTooLargeError);
      expect(error).toMatchObject({ status: 413, code: "too_large" });
      expect((error as DocumentTooLargeError).message).toBe(message(fn));
      expect((error as DocumentTooLargeError).length).toBe(MAX_DOCUMENT_LENGTH + 1);
    }
  });
});

describe("slice --validate is bounded by fragment count", () => {
  it("refuses over 25,000 fragments before any output", async () => {
    const doc = join(dir, "validate.md");
    writeFileSync(doc, Array.from({ length: 25_001 }, (_, i) => `p${i}`).join("\n\n"));
    const r = await gw(["slice", doc, "--validate"]);
    expect(r.stderr).toBe(`groundwire slice: ${doc}: 25,001 fragments, over the 25,000 --validate checks at once; leave out --validate to print the slice\n`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  });
});
