// Option values: a path option given an empty or blank value is a usage error (not its
// default); number options refuse surrounding blanks alike; every message quotes the value.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gw-option-values-"));
  writeFileSync(join(dir, "evil.nt"), "<urn:a> <urn:b> \"c\" .\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("option values (dist/cli.cjs)", () => {
  it("a path option given an empty or blank value is a usage error, not the default", async () => {
    for (const args of [
      ["locate", "x", "--corpus", ""],
      ["books", "--corpus", " "],
      ["index", join(dir, "evil.nt"), "--scope", ""],
      ["critique", join(dir, "evil.nt"), join(dir, "c.json"), "-o", ""],
      ["mcp", "--graph", ""],
      ["moot", "novel/frankenstein", "diary/pepys-1660", "--json", ""],
    ]) {
      const r = await gw(args);
      expect(r.code, args.join(" ")).toBe(2);
      const name = args.includes("-o") ? "output" : args.includes("--scope") ? "scope" : args.includes("--graph") ? "graph" : args.includes("--json") ? "json" : "corpus";
      expect(r.stderr).toBe(`groundwire ${args[0]}: --${name} needs a path, got ${JSON.stringify(args[args.length - 1])}\n`);
      expect(r.stdout).toBe("");
    }
  });

  it("--artifact: an empty id or one with surrounding white space is a usage error (it would scope citations apart), for fragments, cite and slice", async () => {
    for (const [command, value] of [["fragments", ""], ["fragments", "  "], ["cite", " a"], ["slice", "a\t"]] as const) {
      const args = command === "cite" ? [command, "test/fixtures/evidence/awesome-v001.md", "--artifact", value, "x"] : [command, "test/fixtures/evidence/awesome-v001.md", "--artifact", value];
      const r = await gw(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(`groundwire ${command}: --artifact needs an id without surrounding white space, got ${JSON.stringify(value)}\n`);
      expect(r.stdout).toBe("");
    }
  });

  it("numbers with surrounding blanks are refused by --limit, --min-ratio and --timeout alike; every value is quoted", async () => {
    const cases: Array<[string[], string]> = [
      [["locate", "x", "--limit", " 3"], 'locate: --limit must be a positive integer, got " 3"'],
      [["locate", "x", "--min-ratio", " 0.5"], 'locate: --min-ratio must be a number in (0, 1], got " 0.5"'],
      [["locate", "x", "--timeout", " 5 "], 'locate: --timeout must be a number of seconds above 0 and at most 3600, got " 5 "'],
      [["locate", "x", "--limit", "99999999999999999999"], 'locate: --limit must be at most 1000000, got "99999999999999999999"'],
    ];
    for (const [args, message] of cases) {
      const r = await gw(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(`groundwire ${message}\n`);
    }
  });
});
