// Every numeric option of every command gets the command's own message (exit 2) for a
// negative, zero, fractional, exponent, hex, empty or huge value: `--limit -1` used to get
// node:util's "Option '--limit' argument is ambiguous…" instead.
import { describe, expect, it } from "vitest";
import { integerOption, numberOption, secondsOption } from "../../ts/cli/common.js";
import { gw } from "../io/run-cli.js";
import { spread } from "../depth.js";

const KG = "test/fixtures/kernel/olympics.ttl";
const BOOKS = ["novel/frankenstein", "diary/pepys-1660"];
const FINGERPRINT = "0".repeat(64);

function usageError(f: () => unknown): { message: string; exitCode: number } {
  try {
    f();
  } catch (error) {
    return { message: (error as Error).message, exitCode: (error as { exitCode: number }).exitCode };
  }
  throw new Error("no error");
}

describe("integerOption and numberOption", () => {
  it("take digits only, within bounds", () => {
    expect(integerOption("c", "n", undefined, { fallback: 7, max: 10 })).toBe(7);
    expect(integerOption("c", "n", "10", { fallback: 7, max: 10 })).toBe(10);
    expect(integerOption("c", "n", "0", { fallback: 7, min: 0, max: 10 })).toBe(0);
    for (const raw of ["-1", "0", "1.5", "1e3", "0x10", "", " ", " 3 ", "3\n", "\t3", "+2", "Infinity", "NaN", "٣"]) {
      expect(usageError(() => integerOption("c", "n", raw, { fallback: 7, max: 10 }))).toEqual({ message: `c: --n must be a positive integer, got ${JSON.stringify(raw)}`, exitCode: 2 });
    }
    expect(usageError(() => integerOption("c", "n", "-1", { fallback: 7, min: 0, max: 10 })).message).toBe('c: --n must be a non-negative integer, got "-1"');
    expect(usageError(() => integerOption("c", "n", "2", { fallback: 7, min: 3, max: 10 })).message).toBe('c: --n must be an integer of at least 3, got "2"');
    expect(usageError(() => integerOption("c", "n", "11", { fallback: 7, max: 10 })).message).toBe("c: --n must be at most 10, got \"11\"");
    const huge = "9".repeat(400);
    expect(usageError(() => integerOption("c", "n", huge, { fallback: 7, max: 10 })).message).toBe(`c: --n must be at most 10, got "${"9".repeat(80)}"… (400 characters)`);
  });

  it("numberOption takes decimal syntax in range", () => {
    expect(numberOption("c", "r", "8e-1", { fallback: 0.5, min: 0, max: 1, minExclusive: true })).toBe(0.8);
    expect(numberOption("c", "r", ".25", { fallback: 0.5, min: 0, max: 1 })).toBe(0.25);
    expect(numberOption("c", "r", "0", { fallback: 0.5, min: 0, max: 1 })).toBe(0);
    for (const raw of ["-0.5", "0x1", "", "Infinity", "1.01", "1e400", "NaN", " 0.5", "0.5 ", "\t.5"]) {
      expect(usageError(() => numberOption("c", "r", raw, { fallback: 0.5, min: 0, max: 1 })).message).toBe(`c: --r must be a number in [0, 1], got ${JSON.stringify(raw)}`);
    }
    expect(usageError(() => numberOption("c", "r", "0", { fallback: 0.5, min: 0, max: 1, minExclusive: true })).message).toBe('c: --r must be a number in (0, 1], got "0"');
  });

  it("secondsOption reads one syntax for every --timeout (locate's and the model endpoint's) and gives milliseconds", () => {
    const b = { fallbackMs: 10_000, max: 3600 };
    expect(secondsOption("c", "--timeout", undefined, b)).toBe(10_000);
    // locate took ".5" and "5." but not "1e1", the model endpoint none of them: both share numberOption's syntax now
    expect([".5", "5.", "0.05", "1e1", "3600", "0.0001"].map((raw) => secondsOption("c", "--timeout", raw, b))).toEqual([500, 5000, 50, 10_000, 3_600_000, 1]);
    for (const raw of ["0", "-5", " 5 ", "", "0x10", "Infinity", "3601", "soon", "5s"]) {
      expect(usageError(() => secondsOption("c", "--timeout", raw, b))).toEqual({ message: `c: --timeout must be a number of seconds above 0 and at most 3600, got ${JSON.stringify(raw)}`, exitCode: 2 });
    }
    expect(usageError(() => secondsOption("moot", "GROUNDWIRE_TIMEOUT", "soon", b)).message).toBe('moot: GROUNDWIRE_TIMEOUT must be a number of seconds above 0 and at most 3600, got "soon"');
  });
});

/** [command line, the one stderr line] for every numeric option of every command. */
const cases: Array<[string[], string]> = [
  [["locate", "some words", "--limit", "-1"], 'locate: --limit must be a positive integer, got "-1"'],
  [["locate", "some words", "--limit", "0"], 'locate: --limit must be a positive integer, got "0"'],
  [["locate", "some words", "--limit", "2.5"], 'locate: --limit must be a positive integer, got "2.5"'],
  [["locate", "some words", "--limit", "99999999999999999999"], "locate: --limit must be at most 1000000, got \"99999999999999999999\""],
  [["locate", "some words", "--min-ratio", "-0.5"], 'locate: --min-ratio must be a number in (0, 1], got "-0.5"'],
  [["locate", "some words", "--min-ratio", "-1"], 'locate: --min-ratio must be a number in (0, 1], got "-1"'],
  [["moot", ...BOOKS, "--turns", "-1"], 'moot: --turns must be a positive integer, got "-1"'],
  [["moot", ...BOOKS, "--turns", "1e3"], 'moot: --turns must be a positive integer, got "1e3"'],
  [["moot", ...BOOKS, "--k", "-.5"], 'moot: --k must be a positive integer, got "-.5"'],
  [["moot", ...BOOKS, "--k", "101"], "moot: --k must be at most 100, got \"101\""],
  [["moot", ...BOOKS, "--temperature", "-1"], 'moot: --temperature must be a number in [0, 2], got "-1"'],
  [["moot", ...BOOKS, "--temperature", "0x1"], 'moot: --temperature must be a number in [0, 2], got "0x1"'],
  [["moot", ...BOOKS, "--temperature", "1e9"], 'moot: --temperature must be a number in [0, 2], got "1e9"'],
  [["moot", ...BOOKS, "--timeout", "-5"], 'moot: --timeout must be a number of seconds above 0 and at most 3600, got "-5"'],
  [["moot", ...BOOKS, "--timeout", " 5 "], 'moot: --timeout must be a number of seconds above 0 and at most 3600, got " 5 "'],
  [["moot", ...BOOKS, "--k", " 4"], 'moot: --k must be a positive integer, got " 4"'],
  [["prove", "q?", "--kg", KG, "--max-turns", "-1"], 'prove: --max-turns must be a positive integer, got "-1"'],
  [["prove", "q?", "--kg", KG, "--max-turns", "1000000"], "prove: --max-turns must be at most 1000, got \"1000000\""],
  [["prove", "q?", "--kg", KG, "--timeout", "-1"], 'prove: --timeout must be a number of seconds above 0 and at most 3600, got "-1"'],
  [["render", KG, "ex:a", "--hops", "-1"], 'render: --hops must be a non-negative integer, got "-1"'],
  [["render", KG, "ex:a", "--max-body-chars", "-20"], 'render: --max-body-chars must be a non-negative integer, got "-20"'],
  [["render", KG, "ex:a", "--hops", "99999999"], "render: --hops must be at most 9999999, got \"99999999\""],
  [["serve", "--port", "-1"], 'serve: --port must be a non-negative integer, got "-1"'],
  [["serve", "--port", "65536"], "serve: --port must be at most 65535, got \"65536\""],
  [["serve", "--max-body", "0"], 'serve: --max-body must be a positive integer, got "0"'],
  [["serve", "--turn-timeout", "-100"], 'serve: --turn-timeout must be a positive integer, got "-100"'],
  [["serve", "--turn-timeout", "9999999999"], "serve: --turn-timeout must be at most 86400000, got \"9999999999\""],
  [["serve", "--max-turns", "1.5"], 'serve: --max-turns must be a positive integer, got "1.5"'],
  [["serve", "--max-moots", "0"], 'serve: --max-moots must be a positive integer, got "0"'],
  [["serve", "--max-moots", "99999999"], "serve: --max-moots must be at most 10000000, got \"99999999\""],
  [["serve", "--moot-idle", "3000000000"], "serve: --moot-idle must be at most 2147483647, got \"3000000000\""],
  [["critique", KG, "c.json", "--fingerprint", FINGERPRINT, "--max-delete-share", "-0.5"], 'critique: --max-delete-share must be a number in [0, 1], got "-0.5"'],
  [["critique", KG, "c.json", "--fingerprint", FINGERPRINT, "--max-delete-share", ""], 'critique: --max-delete-share must be a number in [0, 1], got ""'],
];

describe.concurrent("numeric options through the CLI (dist/cli.cjs)", () => {
  // npm test: 12 of the cases spread over every command (the parsers are tested whole above);
  // npm run test:deep (test/depth.ts): all of them
  it.each(spread(cases, 12))("%j", async (args, line) => {
    const r = await gw(args);
    expect(r.stderr).toBe(`groundwire ${line}\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it("a negative value after -- is a positional, not joined to an option", async () => {
    const r = await gw(["books", "--corpus", "data/books", "--", "-1"]);
    expect(r.stderr).toBe('groundwire books: unexpected argument "-1"\n');
    expect(r.code).toBe(2);
  });
});
