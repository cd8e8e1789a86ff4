// Text cut for length (a fragment's first words, a message's quoted reply, the error line) never
// ends in half a character: a cut through a surrogate pair put a lone `\ud83d` in `--jsonl`
// (refused by strict UTF-8 JSON readers) and an escape on the terminal.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { firstWords } from "../../ts/evidence/index.js";
import { cutText } from "../../ts/errors.js";
import { redactAndCut } from "../../ts/net/redact.js";
import { gw } from "../io/run-cli.js";

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const work = mkdtempSync(join(tmpdir(), "gw-cut-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("cuts keep whole characters", () => {
  it("cutText, firstWords and redactAndCut at every offset of astral text", () => {
    for (let pad = 0; pad < 4; pad++) {
      const text = `${"a".repeat(pad)}${"😀𥙑".repeat(60)}`;
      for (let max = 1; max < 90; max++) {
        const cut = cutText(text, max);
        expect(LONE.test(cut), `cutText(pad ${pad}, ${max})`).toBe(false);
        expect(cut.length === max || cut.length === max - 1).toBe(true);
        expect(text.startsWith(cut)).toBe(true);
        expect(LONE.test(firstWords(text, max)), `firstWords(pad ${pad}, ${max})`).toBe(false);
        expect(LONE.test(redactAndCut(text, [], max)), `redactAndCut(pad ${pad}, ${max})`).toBe(false);
      }
    }
    expect(cutText("abc", 5)).toBe("abc");
  });

  it("fragments --jsonl and the listing of a paragraph of emoji: no lone surrogate, each line valid JSON", async () => {
    const doc = join(work, "emoji.md");
    writeFileSync(doc, `# T\n\na${"😀".repeat(50)}\n\n${"𥙑".repeat(31)}b\n`);
    const jsonl = await gw(["fragments", doc, "--jsonl"]);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const rows = jsonl.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    const words = rows.filter((r) => r.type === "fragment").map((r) => r.firstWords as string);
    expect(words).toHaveLength(3);
    for (const w of words) expect(LONE.test(w), w).toBe(false);
    expect(jsonl.stdout).not.toMatch(/\\ud[89ab]/i);
    expect(words[1]).toBe(`a${"😀".repeat(29)}…`);
    const listing = await gw(["fragments", doc]);
    expect(listing.stdout).not.toMatch(/\\uD[89AB]/);
  });
});
