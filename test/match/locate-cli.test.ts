// `groundwire locate`, run as the built CLI (node dist/cli.js; `npm test` builds first), on the bundled books.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { wordDiff } from "../../ts/cli/locate.js";
import { spread } from "../depth.js";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe("wordDiff", () => {
  it("marks quote-only and span-only words over keys", () => {
    expect(wordDiff("I beheld the wretch, the miserable monster whom I had made", "I beheld the wretch—the miserable monster whom I had created")).toBe(
      "i beheld the wretch the miserable monster whom i had [-made-] {+created+}",
    );
    expect(wordDiff("a b c", "a b c")).toBe("a b c");
  });
});

describe.skipIf(!existsSync(CLI))("groundwire locate (dist/cli.js; run `npm run build` first)", () => {
  it("finds a misspelt Frankenstein quote with its passage, span, ratio and diff", async () => {
    const r = await run(["locate", "I beheld the wretch the miserable monstre whom I had created", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { source: string; passages: string[]; start: number; end: number; ratio: number; text: string; diff: string }[];
    expect(rows[0].source).toBe("novel/frankenstein");
    expect(rows[0].passages[0]).toMatch(/^(Letter|Chapter) \d+(, part \d+)?$/);
    // the span as the file writes it (a line break inside), at offsets into the .txt file
    expect(rows[0].text).toBe("I beheld the wretch—the miserable monster whom I had\ncreated");
    const file = readFileSync(fileURLToPath(new URL("../../data/books/novel__frankenstein.txt", import.meta.url)), "utf8");
    expect(file.slice(rows[0].start, rows[0].end)).toBe(rows[0].text);
    expect(rows[0].ratio).toBeGreaterThan(0.95);
    expect(rows[0].diff).toContain("[-monstre-] {+monster+}");
  }, 120_000);

  it("says so (exit 1) when nothing matches, and rejects bad options (exit 2)", async () => {
    const none = await run(["locate", "colourless green ideas sleep furiously", "--book", "diary/pepys-1660"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("no span with ratio ≥ 0.8 in diary/pepys-1660");
    const bad = await run(["locate", "some words here", "--min-ratio", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--min-ratio must be a number in (0, 1]");
    const book = await run(["locate", "some words here", "--book", "novel/nope"]);
    expect(book.code).toBe(2);
    expect(book.stderr).toContain('no book "novel/nope"; books: diary/pepys-1660, novel/frankenstein');
    const near = await run(["locate", "some words here", "--book", "novel/frankenstien"]);
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('no book "novel/frankenstien"; did you mean "novel/frankenstein"?');
    const exp = await run(["locate", "colourless green ideas sleep furiously", "--book", "diary/pepys-1660", "--min-ratio", "8e-1"]);
    expect(exp.code).toBe(1);
    expect(exp.stdout).toContain("no span with ratio ≥ 0.8 in diary/pepys-1660");
    // npm test: two of the malformed values; npm run test:deep (test/depth.ts): all four
    for (const raw of spread(["0x1", "Infinity", "1e", ""], 2)) {
      const r = await run(["locate", "some words here", "--min-ratio", raw]);
      expect(r.code, raw).toBe(2);
    }
  }, 120_000);

  it("gives up past --timeout with one line on stderr and exit 1, printing no spans; rejects a bad --timeout (exit 2)", async () => {
    // a 24-word Frankenstein quote at --min-ratio 0.3: seconds of search, far past 0.05 s
    const quote = "It was on a dreary night of November that I beheld the accomplishment of my toils. With an anxiety that almost amounted to agony";
    const r = await run(["locate", quote, "--min-ratio", "0.3", "--limit", "3", "--timeout", "0.05"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^groundwire locate: gave up after \d+\.\d s \(--timeout 0\.05\), .* at ratio ≥ 0\.\d+; no spans printed\. Try a higher --min-ratio \(now 0\.3\), a lower --limit \(now 3\) or a longer --timeout$/,
    );
    // npm test: zero, not a number, over the bound, an exponent; npm run test:deep (test/depth.ts): -1 too
    for (const raw of spread(["0", "abc", "-1", "3601", "1e4"], 4)) {
      const bad = await run(["locate", quote, `--timeout=${raw}`]);
      expect(bad.code, raw).toBe(2);
      expect(bad.stderr, raw).toContain("--timeout must be a number of seconds above 0 and at most 3600");
    }
    // the default budget (10 s) leaves a quick search alone
    const ok = await run(["locate", quote, "--limit", "1", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)[0]).toMatchObject({ source: "novel/frankenstein", ratio: 1 });
  }, 120_000);
});
