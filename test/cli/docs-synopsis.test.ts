// The synopses the docs give (`groundwire <command> [--option …]` in inline code) agree with the
// command's own help: every option a synopsis names is one the command takes, and a synopsis
// that offers --json also offers --jsonl where the command's usage line does.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { COMMAND_SUMMARIES } from "../../ts/cli/usage.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Each synopsis of the pages: an inline code span `groundwire <command> …[…]…` (it may wrap lines). */
function synopses(): { page: string; command: string; text: string }[] {
  const out: { page: string; command: string; text: string }[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/^```[\s\S]*?^```/gm, "");
    for (const m of text.matchAll(/`groundwire ([a-z]+)( [^`]*)`/g)) {
      if (m[2]!.includes("[") && m[1]! in COMMAND_SUMMARIES) out.push({ page, command: m[1]!, text: m[0] });
    }
  }
  return out;
}

const options = (text: string) => new Set([...text.matchAll(/--[a-z][\w-]*/g)].map((m) => m[0]));

describe("docs' synopses agree with --help", () => {
  const all = synopses();

  it("finds the synopses of index, fragments, books and locate", () => {
    for (const c of ["index", "fragments", "books", "locate"]) expect(all.some((s) => s.command === c), c).toBe(true);
  });

  for (const command of [...new Set(all.map((s) => s.command))].sort()) {
    it(`${command}: every option named is the command's, and --jsonl is offered beside --json`, async () => {
      const help = (await gw(["help", command])).stdout;
      const takes = options(help);
      const usageLine = help.split("\n")[0]!;
      for (const s of all.filter((x) => x.command === command)) {
        const named = options(s.text);
        expect([...named].filter((o) => !takes.has(o)), `${s.page}: ${s.text}`).toEqual([]);
        if (named.has("--json") && usageLine.includes("--jsonl")) expect(named.has("--jsonl"), `${s.page}: ${s.text}`).toBe(true);
      }
    });
  }
});
