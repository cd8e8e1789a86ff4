// A book of a shape no other test book has, as a new user would add it: letters under
// `LETTER I` headings with a dateline, a salutation, a signature and postscripts (`P.S.`,
// `P.P.S.`), footnote markers `[1]` with their notes, `_underlinings_`, an editor's note and a
// contents list before the first letter, an index after the last, and Gutenberg markers
// written with no space after `***` and THIS. Issue 32's rules on it, through the library and
// the built CLI (books, locate, a moot); the every-word property and label uniqueness run on it
// in book-cutting.test.ts, since it lives in test/fixtures/books.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bookBody, createQuoteIndex, parseBook } from "../../ts/node.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = `${ROOT}dist/cli.js`;
const FILE = fileURLToPath(new URL("../fixtures/books/letters__the-gull-rock-letters.txt", import.meta.url));
const KEY = "letters/the-gull-rock-letters";
const text = readFileSync(FILE, "utf8");
const book = parseBook(KEY, text);

function cli(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_STORE"]) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("letters with footnotes, postscripts and an index", () => {
  it("is cut into its front matter, one passage a letter, and its index, each under the heading a reader looks up", () => {
    expect(book.structure).toBe("chapters");
    expect(book.passages.map((p) => [p.label, p.name])).toEqual([
      ["Front matter", "front-matter"],
      ["CONTENTS", "contents"],
      ["EDITOR'S NOTE", "editor-s-note"],
      ["LETTER I", "letter-i"],
      ["LETTER II", "letter-ii"],
      ["LETTER III", "letter-iii"],
      ["LETTER IV", "letter-iv"],
      ["INDEX", "index"],
    ]);
    // each passage's span is its own heading and text in the file as given
    for (const p of book.passages.slice(1)) expect(text.slice(p.start, p.end).startsWith(p.label.replace(/ \(\d+\)$/, ""))).toBe(true);
    const at = (label: string) => book.passages.find((p) => p.label === label)!;
    // the editor's note keeps its footnote; a letter its dateline, postscripts and footnote
    expect(at("EDITOR'S NOTE").content).toContain("[1] The tape is still on the bundle");
    expect(at("LETTER I").content).toContain("Gull Rock Light, March 3rd, 1887.");
    expect(at("LETTER I").content).toContain("P.S. Tell Mother the clock arrived going, and is going still.");
    expect(at("LETTER I").content).toContain("[2] The kitchen was moved to the second floor in 1894.");
    expect(at("LETTER II").content).toContain("P.P.S. It has started again by itself");
    // the index is not the last letter's text
    expect(at("LETTER IV").content).not.toContain("INDEX");
    expect(at("INDEX").content.startsWith("INDEX\n\nAdmiral (the cat), Letter III")).toBe(true);
  });

  it("keeps back matter after a diary's last entry apart too (the lodger's diary with NOTES before its END marker)", () => {
    const lodger = readFileSync(fileURLToPath(new URL("../fixtures/books/diary__the-lodger.txt", import.meta.url)), "utf8");
    const at = lodger.indexOf("*** END");
    const withNotes = `${lodger.slice(0, at)}NOTES\n\nThe kettle is now in the county museum.\n\n\n\n${lodger.slice(at)}`;
    const diary = parseBook("diary/the-lodger", withNotes);
    expect(diary.passages.slice(-2).map((p) => [p.label, p.content.split("\n\n").at(-1)])).toEqual([
      ["CHAPTER IV, 1889: May 10", "May 10. -- The kettle sang again. I wrote to Dorcas at last, and told her about the kettle, since there was nothing else to tell."],
      ["NOTES", "The kettle is now in the county museum."],
    ]);
    const notes = diary.passages.at(-1)!;
    expect(withNotes.slice(notes.start, notes.end)).toBe("NOTES\n\nThe kettle is now in the county museum.");
  });

  it("drops the Gutenberg markers written ***START OF THIS…*** and ***END OF THIS…***, and nothing else", () => {
    const { start, end } = bookBody(text);
    expect(text.slice(start).trimStart().startsWith("LETTERS FROM THE GULL ROCK LIGHT")).toBe(true);
    expect(text.slice(0, end).trimEnd().endsWith("wool, Letters III, IV")).toBe(true);
    expect(book.passages[0]!.start).toBe(text.indexOf("LETTERS FROM THE GULL ROCK LIGHT\n"));
    expect(book.passages.at(-1)!.end).toBe(text.indexOf("wool, Letters III, IV") + "wool, Letters III, IV".length);
  });

  it("locates quotes at offsets into the file: a postscript, a footnote, the index, an underlining whole", () => {
    const index = createQuoteIndex([book]);
    const one = (q: string) => index.locate(q, { limit: 1 })[0]!;
    const cases: Array<[string, string, string]> = [
      ["Tell Mother the clock arrived going", "LETTER I", "Tell Mother the clock arrived going"],
      ["the knot has not been untied", "EDITOR'S NOTE", "the knot has not been untied"],
      ["Admiral the cat Letter III", "INDEX", "Admiral (the cat), Letter III"],
      ["a tower like ours is built to bend", "LETTER II", "a tower like ours is _built to bend_"],
      ["put us off at the east", "LETTER I", "put us off at the _east_"],
    ];
    for (const [quote, label, span] of cases) {
      const got = one(quote);
      expect([got.ratio, got.passages, got.text], quote).toEqual([1, [label], span]);
      expect(text.slice(got.start, got.end)).toBe(span);
    }
  });
});

describe.skipIf(!existsSync(CLI))("the letters through the CLI (dist/cli.js)", () => {
  const dir = mkdtempSync(join(tmpdir(), "gw-letters-"));
  copyFileSync(FILE, join(dir, "letters__the-gull-rock-letters.txt"));
  copyFileSync(join(ROOT, "test/fixtures/books/diary__the-lodger.txt"), join(dir, "diary__the-lodger.txt"));

  it("books --passages --json gives the same labels and file offsets; locate --json a span of the file", () => {
    const listed = cli(["books", "--corpus", dir, "--passages", KEY, "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const passages = (JSON.parse(listed.stdout) as { passages: Array<{ label: string; start: number; end: number }> }).passages;
    expect(passages.map((p) => [p.label, p.start, p.end])).toEqual(book.passages.map((p) => [p.label, p.start, p.end]));
    const located = cli(["locate", "the spray came over the gallery rails", "--corpus", dir, "--book", KEY, "--limit", "1", "--json", "--no-cache"]);
    expect(located.code, located.stderr).toBe(0);
    const [span] = JSON.parse(located.stdout) as Array<{ passages: string[]; start: number; end: number; text: string }>;
    expect(span!.passages).toEqual(["LETTER II"]);
    expect(text.slice(span!.start, span!.end)).toBe("The spray came over the gallery rail");
  });

  it("holds a moot with another book, every turn grounded; the letters quote sentences, never a heading, the contents or the index", () => {
    const r = cli(["moot", KEY, "diary/the-lodger", "--corpus", dir, "--topic", "the first gale and the clock", "--turns", "3", "--json", "-"]);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout) as { utterances: Array<{ speaker: string; grounded: boolean; text: string; cited: Record<string, string> }> };
    expect(t.utterances.map((u) => [u.speaker, u.grounded])).toEqual([[KEY, true], ["diary/the-lodger", true], [KEY, true]]);
    for (const u of t.utterances.filter((x) => x.speaker === KEY)) {
      for (const node of Object.values(u.cited)) expect(node).toMatch(new RegExp(`^${KEY}#(?!contents$|index$)`));
      // own quotes (tagged [sN]) are sentences: no heading in capitals glued to the text (`LETTER II THE FIRST GALE …`)
      for (const m of u.text.matchAll(/"([^"]+)" \[s\d+\]/g)) expect(m[1]).not.toMatch(/\b[A-Z]{3,} [A-Z]{3,}\b/);
    }
  });
});
