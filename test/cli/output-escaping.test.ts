// Text from a corpus file, a graph or a document that a command prints for a human is shown
// through escapeTerminal: ESC (and every other C0/C1 control), the bidi controls U+202E and
// U+2066 and lone surrogates become visible escapes; the raw characters never reach stdout.
// JSON output keeps the exact text (JSON.stringify escapes the controls; bidi controls stay
// raw, which is valid JSON). MCP and HTTP error messages are escaped as CLI messages are.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "../../ts/server/errors.js";
import { GroundwireError } from "../../ts/errors.js";
import { gw } from "../io/run-cli.js";

const ESC = "\u001b";
const RLO = "\u202e";
const LRI = "\u2066";
const PDI = "\u2069";
/** Neither raw ESC, RLO, LRI, PDI nor a lone surrogate (which would be written as U+FFFD) is in `text`. */
function noRaw(text: string): void {
  expect(text).not.toContain(ESC);
  expect(text).not.toContain(RLO);
  expect(text).not.toContain(LRI);
  expect(text).not.toContain(PDI);
  expect(text).not.toContain("\ufffd");
  expect(text).not.toMatch(/[\uD800-\uDFFF]/u);
}

const PARAGRAPHS = [
  `It was on a dreary ${RLO}night${"\u202c"} of November that I beheld the accomplishment of my toils ${LRI}isolate${PDI} and ${ESC}[2Jclear.`,
  "With an anxiety that almost amounted to agony, I collected the instruments of life around me, that I might infuse a spark of being into the lifeless thing that lay at my feet.",
  "It was already one in the morning; the rain pattered dismally against the panes, and my candle was nearly burnt out, when, by the glimmer of the half-extinguished light.",
];

let dir: string;
let corpus: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gw-output-escaping-"));
  corpus = join(dir, "corpus");
  mkdirSync(corpus);
  writeFileSync(join(corpus, "novel__evil.txt"), `Title: Ev${RLO}il${LRI}\nAuthor: X${ESC}[2J\n\n${[...PARAGRAPHS, ...PARAGRAPHS, ...PARAGRAPHS].join("\n\n")}\n`);
  writeFileSync(
    join(dir, "evil.nt"),
    `<urn:a> <urn:b> "e \\u001B[2J r \\u202E i \\u2066 end" .\n<urn:a> <http://www.w3.org/2000/01/rdf-schema#label> "A\\u202Ebook\\u001B[31m" .\n`,
  );
  writeFileSync(join(dir, "evil.md"), `# Ev${RLO}il ${ESC}[2J heading\n\nA paragraph with ${LRI}isolate${PDI} and ${ESC}]52;c;SGVsbG8=\u0007 in it.\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("text from files is escaped on a terminal (dist/cli.cjs)", () => {
  it("books: the title and author line of a corpus file", async () => {
    const r = await gw(["books", "--corpus", corpus]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    expect(r.stdout).toContain(`Ev\\u202Eil\\u2066 — X\\x1B[2J`);
  });

  it("books --passages: the title and each passage's first words", async () => {
    const r = await gw(["books", "--passages", "novel/evil", "--corpus", corpus]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    expect(r.stdout).toContain("novel/evil: Ev\\u202Eil\\u2066 — ");
    expect(r.stdout).toContain("dreary \\u202Enight\\u202C");
  });

  it("books --json keeps the exact text (JSON.stringify escapes ESC; U+202E stays, valid JSON)", async () => {
    const r = await gw(["books", "--json", "--corpus", corpus]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    const books = JSON.parse(r.stdout) as Array<{ title: string; author?: string }>;
    expect(books[0]!.title).toBe(`Ev${RLO}il${LRI}`);
    expect(books[0]!.author).toBe(`X${ESC}[2J`);
  });

  it("locate: the span and its diff", async () => {
    const r = await gw(["locate", "It was on a dreary night of November", "--corpus", corpus]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    expect(r.stdout).toContain("“It was on a dreary \\u202Enight\\u202C of November”");
    const fuzzy = await gw(["locate", "It was on a dreary night of December that I beheld", "--corpus", corpus, "--min-ratio", "0.5"]);
    expect(fuzzy.code).toBe(0);
    noRaw(fuzzy.stdout);
    expect(fuzzy.stdout).toContain("diff: ");
    expect(fuzzy.stdout).toContain("\\u202E");
  });

  it("moot: the offline transcript quoting the corpus passages", async () => {
    const two = join(dir, "two");
    mkdirSync(two);
    const text = `Title: Ev${RLO}il\nAuthor: X${ESC}[2J\n\n${[...PARAGRAPHS, ...PARAGRAPHS].join("\n\n")}\n`;
    writeFileSync(join(two, "novel__a.txt"), text);
    writeFileSync(join(two, "novel__b.txt"), text);
    const r = await gw(["moot", "novel/a", "novel/b", "--corpus", two, "--turns", "2"]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    noRaw(r.stderr);
    expect(r.stdout).toContain("\\u202E");
  });

  it("index: a literal's ESC, U+202E and U+2066", async () => {
    const r = await gw(["index", join(dir, "evil.nt")]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    expect(r.stdout).toContain('"e \\u001B[2J r \\u202E i \\u2066 end"');
    expect(r.stdout).toContain('rdfs:label "A\\u202Ebook\\u001B[31m"');
  });

  it("fragments: a document's heading and paragraph", async () => {
    const r = await gw(["fragments", join(dir, "evil.md")]);
    expect(r.code).toBe(0);
    noRaw(r.stdout);
    expect(r.stdout).toContain("Ev\\u202Eil \\u001b[2J heading");
    expect(r.stdout).toContain("\\u2066isolate\\u2069");
  });
});

const CLI = new URL("../../dist/cli.cjs", import.meta.url).pathname;
const SCRIPT = ["/usr/bin/script", "/bin/script"].find((p) => existsSync(p));

describe.skipIf(!SCRIPT)("data on standard output: exact on a pipe, escaped on a terminal (util-linux script gives a pty)", () => {
  it("slice of a document with U+202E, U+2066 and ESC", async () => {
    const file = join(dir, "evil.md");
    const piped = await gw(["slice", file]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(RLO); // exact: another program reads it
    const tty = await new Promise<string>((resolve) => {
      execFile(SCRIPT!, ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} slice ${JSON.stringify(file)}`, "/dev/null"], { encoding: "utf8", timeout: 30_000 }, (_e, stdout) => resolve(stdout));
    });
    expect(tty).toContain("\\u202E");
    noRaw(tty);
  });
});

describe("server error messages are escaped as CLI messages", () => {
  it("errorResponse escapes ESC, bidi controls, other Cf characters and lone surrogates", () => {
    // a bad-input error echoes the input; anything not a GroundwireError is a 500 naming only the request id
    const answer = errorResponse(new GroundwireError(`bad ${ESC}[2J ${RLO} ${LRI} \u200b \ud800 end`), "req-1");
    expect(answer).toEqual({ status: 400, code: "bad_request", message: "bad \\x1B[2J \\u202E \\u2066 \\u200B \\uD800 end", requestId: "req-1", serverFault: false });
  });
});
