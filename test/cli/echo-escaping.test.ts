// Input echoed in a message (the error line, a warning) is shown as it is: bidi controls,
// zero-width and other format characters (Unicode Cf) and lone surrogates escaped as well as
// C0/C1 controls, and a long value cut with its own length (not the message's).
import { describe, expect, it } from "vitest";
import { echo, escapeMessage, escapeTerminal } from "../../ts/cli/common.js";
import { gw } from "../io/run-cli.js";

const KEY_10K = "a".repeat(10_000);
const A80 = "a".repeat(80);

describe("escapeMessage / escapeTerminal / echo", () => {
  it("escapes bidi controls, Cf and lone surrogates in messages; keeps emoji joiners in text shown as it reads", () => {
    const s = "a\u202Eb\u200Bc\uD800d\uDC00e\u{1F600}f\u001b[2J\u009b\u00ad\u{E0041}\u2028x\t\ny";
    expect(escapeMessage(s)).toBe("a\\u202Eb\\u200Bc\\uD800d\\uDC00e\u{1F600}f\\x1B[2J\\x9B\\xAD\\u{E0041}\\u2028x\t\ny");
    // text from a file or a model: controls, bidi controls, lone surrogates; ZWJ, soft hyphen and tags stay
    expect(escapeTerminal(s)).toBe("a\\u202Eb\u200Bc\\uD800d\\uDC00e\u{1F600}f\\x1B[2J\\x9B\u00ad\u{E0041}\u2028x\t\ny");
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    expect(escapeTerminal(family)).toBe(family);
    for (const c of ["\u061C", "\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"]) {
      const hex = c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
      expect(escapeTerminal(`x${c}y`)).toBe(`x\\u${hex}y`);
      expect(escapeMessage(`x${c}y`)).toBe(`x\\u${hex}y`);
    }
    // a surrogate pair is one character, not two lone halves
    expect(escapeMessage("\uD83D\uDE00")).toBe("\u{1F600}");
  });

  it("echo cuts at 80 code points and gives the input's own length", () => {
    expect(echo(KEY_10K)).toBe(`"${A80}"… (10000 characters)`);
    expect(echo("novel/frank\u202Eenstein")).toBe('"novel/frank\\u202Eenstein"');
    expect(echo("short")).toBe('"short"');
  });
});

describe("the CLI escapes what it echoes (dist/cli.cjs)", () => {
  it("locate --book with a bidi override or a zero-width space: escaped, with the close key", async () => {
    const rlo = await gw(["locate", "some words here", "--book", "novel/frank\u202Eenstein"]);
    expect(rlo.code).toBe(2);
    expect(rlo.stderr).toBe('groundwire locate: no book "novel/frank\\u202Eenstein"; did you mean "novel/frankenstein"?\n');
    const zw = await gw(["locate", "some words here", "--book", "novel/frank\u200Benstein"]);
    expect(zw.code).toBe(2);
    expect(zw.stderr).toBe('groundwire locate: no book "novel/frank\\u200Benstein"; did you mean "novel/frankenstein"?\n');
  });

  it("a 10 KB book key is cut with the key's length, in locate, moot and books", async () => {
    const locate = await gw(["locate", "some words here", "--book", KEY_10K]);
    expect(locate.code).toBe(2);
    expect(locate.stderr).toBe(`groundwire locate: no book "${A80}"… (10000 characters); books: diary/pepys-1660, novel/frankenstein\n`);
    const moot = await gw(["moot", KEY_10K, "diary/pepys-1660"]);
    expect(moot.code).toBe(2);
    expect(moot.stderr).toBe(`groundwire moot: unknown book "${A80}"… (10000 characters); the corpus holds diary/pepys-1660, novel/frankenstein\n`);
    const books = await gw(["books", "--passages", KEY_10K]);
    expect(books.code).toBe(2);
    expect(books.stderr).toBe(`groundwire books: unknown book "${A80}"… (10000 characters); the corpus holds diary/pepys-1660, novel/frankenstein\n`);
  });

  it("paths, focus terms and option values echoed by other commands are escaped too", async () => {
    const missing = await gw(["fragments", "x\u202E\u2066.md"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("groundwire fragments: no such file: x\\u202E\\u2066.md\n");
    const focus = await gw(["render", "test/fixtures/kernel/olympics.ttl", "ex:\u202Ea"]);
    expect(focus.code).toBe(1);
    expect(focus.stderr).toBe("groundwire render: unknown focus <http://example.org/olympics/\\u202Ea>: it occurs in no triple of test/fixtures/kernel/olympics.ttl\n");
    const format = await gw(["slice", "test/fixtures/evidence/awesome-v000.input.md", "--format", "tur\u200Dtle"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toBe('groundwire slice: --format must be nquads or turtle (nq, ttl), not "tur\\u200Dtle"\n');
    const command = await gw(["frag\u202Ements"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^groundwire: unknown command "frag\\u202Ements"; did you mean fragments\? \(commands: /);
  });
});
