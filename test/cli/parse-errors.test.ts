// What a user who mistypes gets, from every command of the built CLI (dist/cli.cjs): the
// command's own one-line message (exit 2), never node:util's parseArgs wording ("Option
// '--limit <value>' argument missing", "argument is ambiguous … '--limit=-XYZ'", "does not
// take an argument"); a did-you-mean that ignores case, for options and for commands; a value
// meant to carry a unit named as a duration or size; a --format that disagrees with the plan
// refused; an output path written as a folder refused before any work.
// npm test runs a fixed sample of the repeats (commands for the checks every command shares, a
// file read like standard input); npm run test:deep (test/depth.ts) runs all of them. Each test
// says what it leaves to the deep run.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../ts/cli/common.js";
import { OutputFileError, writeFileAtomic } from "../../ts/files.js";
import { gw, type Run } from "../io/run-cli.js";
import { DEEP, spread } from "../depth.js";

const COMMANDS = ["moot", "books", "locate", "corpus", "index", "critique", "check", "prove", "render", "fragments", "cite", "slice", "serve", "mcp", "bench"];
/** node:util's own wording, which must never reach a user. */
const NODE_WORDING = /Option '|argument missing|argument is ambiguous|-XYZ|does not take an argument|ERR_PARSE_ARGS/;

const work = mkdtempSync(join(tmpdir(), "gw-parse-errors-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const helps = new Map<string, Promise<Run>>();
/** `groundwire help <command>`, run once per command. */
function help(command: string): Promise<Run> {
  if (!helps.has(command)) helps.set(command, gw(["help", command]));
  return helps.get(command)!;
}

/** The first option of a command's help that takes a value (`--topic T`, `--scope <graph>`), or undefined. */
async function valueOption(command: string): Promise<string | undefined> {
  const { stdout } = await help(command);
  return /(--[a-z][a-z-]*)[ =](?:[A-Z][A-Z_]*\b|<[a-z])/.exec(stdout)?.[1];
}

function usageLine(r: { code: number; stdout: string; stderr: string }, command: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).not.toMatch(NODE_WORDING);
  expect(r.stderr.split("\n")).toHaveLength(2); // one line and its newline
  expect(r.stderr).toMatch(new RegExp(`^groundwire ${command}: .*\\(groundwire help ${command} lists its options\\)\\n$`));
}

describe("a known option given a wrong shape of value, on every command", () => {
  // npm test: 3 commands spread over the list (moot, prove, and bench, which takes no option with a
  // value; test/io/cli-sweep.test.ts gives every command bad input); test:deep (test/depth.ts):
  // every command
  it.each(spread(COMMANDS, 3))("%s: a flag given a value, an option missing its value, an option followed by another", { timeout: 60_000 }, async (command) => {
    const flag = await gw([command, "--quiet=yes"]);
    usageLine(flag, command);
    expect(flag.stderr).toContain('--quiet takes no value, got "yes"');
    const option = await valueOption(command);
    if (option === undefined) {
      // bench takes no option with a value: its help names none
      expect((await help(command)).stdout).not.toMatch(/--[a-z-]+ [A-Z]{2,}/);
      return;
    }
    const last = await gw([command, option]);
    usageLine(last, command);
    expect(last.stderr).toContain(`${option} needs a value (`);
    const followed = await gw([command, option, "--quiet"]);
    usageLine(followed, command);
    expect(followed.stderr).toContain(`${option} needs a value, got the option "--quiet" after it (if "--quiet" is the value, write ${option}=--quiet)`);
    // whatever the dash-word after it looks like: a short option written with "=" (unknown or
    // known) is named as the missing value too, not as a short option on its own
    for (const word of ["-x=y", "-q=1"]) {
      const r = await gw([command, option, word]);
      usageLine(r, command);
      expect(r.stderr).toContain(`${option} needs a value, got the option "${word}" after it (if "${word}" is the value, write ${option}=${word})`);
    }
  });

  it("every shape node:util refuses is named in the command's words (short flags, repeated options, = values)", () => {
    const options = { limit: { type: "string" }, out: { type: "string", short: "o" }, books: { type: "string", multiple: true }, json: { type: "boolean" } } as const;
    const cases: Array<[string[], string]> = [
      [["--json=1"], 'c: --json takes no value, got "1" (write --json alone) (groundwire help c lists its options)'],
      [["--json="], 'c: --json takes no value, got "" (write --json alone) (groundwire help c lists its options)'],
      [["--limit"], "c: --limit needs a value (groundwire help c lists its options)"],
      [["-o"], "c: -o needs a value (groundwire help c lists its options)"],
      [["-o", "--json"], 'c: -o needs a value, got the option "--json" after it (if "--json" is the value, write --out=--json) (groundwire help c lists its options)'],
      [["--books", "a", "--books", "-q"], 'c: --books needs a value, got the option "-q" after it (if "-q" is the value, write --books=-q) (groundwire help c lists its options)'],
      [["--help=please"], 'c: --help takes no value, got "please" (write --help alone) (groundwire help c lists its options)'],
      // a dash-word after a value-taking option, whatever its shape, long option or short
      [["--limit", "-x=y"], 'c: --limit needs a value, got the option "-x=y" after it (if "-x=y" is the value, write --limit=-x=y) (groundwire help c lists its options)'],
      [["--limit", "-q=1"], 'c: --limit needs a value, got the option "-q=1" after it (if "-q=1" is the value, write --limit=-q=1) (groundwire help c lists its options)'],
      [["--limit", "-o=x"], 'c: --limit needs a value, got the option "-o=x" after it (if "-o=x" is the value, write --limit=-o=x) (groundwire help c lists its options)'],
      [["-o", "-x=y"], 'c: -o needs a value, got the option "-x=y" after it (if "-x=y" is the value, write --out=-x=y) (groundwire help c lists its options)'],
      [["-o", "-q=1"], 'c: -o needs a value, got the option "-q=1" after it (if "-q=1" is the value, write --out=-q=1) (groundwire help c lists its options)'],
      [["--books", "a", "--books", "-x"], 'c: --books needs a value, got the option "-x" after it (if "-x" is the value, write --books=-x) (groundwire help c lists its options)'],
      [["--books", "-xy"], 'c: --books needs a value, got the option "-xy" after it (if "-xy" is the value, write --books=-xy) (groundwire help c lists its options)'],
      [["--books", "--x=y"], 'c: --books needs a value, got the option "--x=y" after it (if "--x=y" is the value, write --books=--x=y) (groundwire help c lists its options)'],
      [["--books", "--"], 'c: --books needs a value, got the option "--" after it (if "--" is the value, write --books=--) (groundwire help c lists its options)'],
      // a short option with "=" that is no option's value is still named on its own
      [["--limit", "3", "-x=y"], 'c: unknown option "-x" in "-x=y" (groundwire help c lists its options)'],
    ];
    for (const [args, message] of cases) {
      let error: unknown;
      try {
        parseCommandArgs("c", args, options, "usage");
      } catch (e) {
        error = e;
      }
      expect((error as Error)?.message, args.join(" ")).toBe(message);
      expect((error as { exitCode: number }).exitCode).toBe(2);
    }
    // what stays a value: a negative number, `-` (standard input), anything after `=`
    expect(parseCommandArgs("c", ["--limit", "-3"], options, "usage").values.limit).toBe("-3");
    expect(parseCommandArgs("c", ["-o", "-"], options, "usage").values.out).toBe("-");
    expect(parseCommandArgs("c", ["--limit=--json"], options, "usage").values.limit).toBe("--json");
  });
});

describe("did-you-mean", () => {
  it("ignores case for an option", async () => {
    const r = await gw(["index", "test/fixtures/triple-index/field-cases.input.ttl", "--JSON"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('groundwire index: unknown option "--JSON"; did you mean --json or --jsonl? (groundwire help index lists its options)\n');
    const upper = await gw(["locate", "x", "--MIN-RATIO", "0.9"]);
    expect(upper.stderr).toBe('groundwire locate: unknown option "--MIN-RATIO"; did you mean --min-ratio? (groundwire help locate lists its options)\n');
  });

  it("names the nearest command for a misspelt one, and says where an option before any command goes", async () => {
    const list = COMMANDS.join(", ");
    const typo = await gw(["lcoate", "harbour"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(`groundwire: unknown command "lcoate"; did you mean locate? (commands: ${list})\n`);
    expect((await gw(["FRAGMENTS"])).stderr).toBe(`groundwire: unknown command "FRAGMENTS"; did you mean fragments? (commands: ${list})\n`);
    expect((await gw(["help", "crtique"])).stderr).toBe(`groundwire: unknown command "crtique"; did you mean critique? (commands: ${list})\n`);
    expect((await gw(["zzzzzz"])).stderr).toBe(`groundwire: unknown command "zzzzzz"; commands: ${list}\n`);
    const option = await gw(["--jsno", "books"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(`groundwire: unknown option "--jsno"; options come after the command (groundwire <command> [options]); commands: ${list}\n`);
  });

  it("names the options and commands a short form begins (--min, --check, loc)", async () => {
    const min = await gw(["locate", "x", "--min", "0.9"]);
    expect([min.code, min.stderr]).toEqual([2, 'groundwire locate: unknown option "--min"; did you mean --min-ratio? (groundwire help locate lists its options)\n']);
    const check = await gw(["serve", "--check", "5"]);
    expect(check.stderr).toBe('groundwire serve: unknown option "--check"; did you mean --check-memory or --check-timeout or --check-workers? (groundwire help serve lists its options)\n');
    const list = COMMANDS.join(", ");
    expect((await gw(["loc", "harbour"])).stderr).toBe(`groundwire: unknown command "loc"; did you mean locate? (commands: ${list})\n`);
    // two letters begin too many names to guess from
    expect((await gw(["locate", "x", "--mi", "0.9"])).stderr).toBe('groundwire locate: unknown option "--mi" (groundwire help locate lists its options)\n');
  });
});

describe("a value meant to carry a unit", () => {
  // every duration and size option: written with a unit but not as one (a sign, an exponent,
  // a thousands separator, a unit it does not know, blanks), it is named as a duration or a
  // size, not as the bare number ("must be a positive integer" hid that units are taken)
  const DURATION = "(120s, 2m, 500ms)";
  const SIZE = "(8MiB, 500kB, 1GiB)";
  const options: Array<[string[], string, string]> = [
    [["locate", "harbour"], "--timeout", DURATION],
    [["moot", "novel/frankenstein", "diary/pepys-1660"], "--timeout", DURATION],
    [["serve"], "--turn-timeout", DURATION],
    [["serve"], "--moot-idle", DURATION],
    [["serve"], "--check-timeout", DURATION],
    [["serve"], "--max-body", SIZE],
    [["serve"], "--check-memory", SIZE],
    [["fragments", "doc.md"], "--max-bytes", SIZE],
  ];
  // npm test: both kinds (the first duration, a serve duration, the last size), the seven
  // malformed values dealt out among the three (each value on one option); test:deep: every
  // option with every value
  const sample = spread(options, 3);
  it.each(sample.map((o, i) => [...o, i] as const))("%s %s", { timeout: 60_000 }, async (args, option, examples, i) => {
    const unit = examples === DURATION ? "s" : "MiB";
    const values = [`-5${unit}`, `1e3${unit}`, `1,000${unit}`, ` 5${unit}`, `5${unit} `, `+5${unit}`, "5µs"];
    for (const value of DEEP ? values : values.filter((_, j) => j % sample.length === i)) {
      const r = await gw([...args, option, value]);
      expect(r.code, `${option} ${value}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(new RegExp(`^groundwire ${args[0]}: ${option} must be a (duration|size) from .* \\(.*\\), got ${JSON.stringify(JSON.stringify(value)).slice(1, -1).replace(/[+.()]/g, "\\$&")}`));
      expect(r.stderr).toContain(examples);
    }
  });
});

describe("check: --format for the plan is the plan's format", () => {
  const schema = "data/kernel/olympics.ttl";
  it("--format json on a SPARQL query, --format rq on a JSON plan: refused with where", async () => {
    const sparql = "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c a ex:City }\n";
    const asJson = await gw(["check", "-", "--format", "json", "--schema", schema], { input: sparql });
    expect(asJson.code).toBe(1);
    expect(asJson.stdout).toBe("");
    expect(asJson.stderr).toMatch(/^groundwire check: -: --format json, but the plan is not a JSON plan: .*not valid JSON\n$/);
    const scalar = await gw(["check", "-", "--format", "json", "--schema", schema], { input: "42" });
    expect(scalar.stderr).toBe("groundwire check: -: --format json, but the plan is not a JSON plan: it is JSON but neither a list of ops nor an object with ops\n");
    const plan = '\n  {"ops": []}';
    const asRq = await gw(["check", "-", "--format", "rq", "--schema", schema], { input: plan });
    expect(asRq.code).toBe(1);
    expect(asRq.stderr).toBe('groundwire check: -:2:3: --format rq, but a SPARQL query cannot start with "{": this is a JSON plan (--format json)\n');
    // a file named for one format and read as the other by --format, too (the same reading as
    // standard input's, above: npm run test:deep, test/depth.ts)
    if (DEEP) {
      const file = join(work, "plan.txt");
      writeFileSync(file, sparql);
      const named = await gw(["check", file, "--format", "json", "--schema", schema]);
      expect(named.stderr).toMatch(new RegExp(`^groundwire check: ${file}: --format json, but the plan is not a JSON plan: `));
    }
    // agreeing formats still check as before
    const ok = await gw(["check", "-", "--format", "rq", "--schema", schema], { input: sparql });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("a graph format for the plan is refused with the value as typed (turtle, not its short name ttl)", async () => {
    const sparql = "PREFIX ex: <http://example.org/olympics/>\nSELECT ?c WHERE { ?c a ex:City }\n";
    const r = await gw(["check", "-", "--format", "turtle", "--schema", schema], { input: sparql });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, "", 'groundwire check: --format for the plan must be rq or json, got "turtle"\n']);
    // a JSON input on standard input given a graph format: the goal, the critique, the script
    const query = join(work, "cities.rq");
    writeFileSync(query, sparql);
    const goal = await gw(["check", query, "--goal", "-", "--format", "turtle", "--schema", schema], { input: "{}" });
    expect(goal.stderr).toBe('groundwire check: a goal is JSON: --format for the goal on standard input must be json, got "turtle"\n');
    const critique = await gw(["critique", schema, "-", "--fingerprint", "0".repeat(64), "--format", "turtle"], { input: "[]" });
    expect(critique.stderr).toBe('groundwire critique: a critique is JSON: --format for the critique on standard input must be json, got "turtle"\n');
    const script = await gw(["prove", "Which cities?", "--kg", schema, "--script", "-", "--format", "ntriples"], { input: "[]" });
    expect(script.stderr).toBe('groundwire prove: a script is JSON: --format for the script on standard input must be json, got "ntriples"\n');
  });
});

describe("an output path", () => {
  const graph = "test/fixtures/triple-index/field-cases.input.ttl";
  const critique = join(work, "c.json");
  writeFileSync(critique, JSON.stringify([{ op: "remove", tripleIds: [1] }]));

  let printed: Promise<string> | undefined;
  /** The graph's fingerprint as `index --json` prints it (one run for the tests below). */
  function fingerprint(): Promise<string> {
    printed ??= gw(["index", graph, "--json"]).then((r) => JSON.parse(r.stdout).fingerprint);
    return printed;
  }

  it("written as a folder (out.ttl/, out/.) is refused before any work, the file left as it was", async () => {
    const fp = await fingerprint();
    const existing = join(work, "kept.ttl");
    writeFileSync(existing, "kept\n");
    for (const out of [`${existing}/`, join(work, "new.ttl/"), `${existing}/.`]) {
      const r = await gw(["critique", graph, critique, "--fingerprint", fp, "-o", out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`groundwire critique: -o cannot write ${out}: a path ending in / (or /. or /..) names a folder, not a file\n`);
    }
    expect(readFileSync(existing, "utf8")).toBe("kept\n");
    expect(readdirSync(work).filter((f) => f.startsWith("new") || f.endsWith(".tmp"))).toEqual([]);
    const moot = await gw(["moot", "novel/frankenstein", "diary/pepys-1660", "--json", join(work, "t.json/")]);
    expect(moot.code).toBe(2);
    expect(moot.stderr).toContain("a path ending in / (or /. or /..) names a folder, not a file");
  });

  it("with an extension no RDF format has is a usage error naming the path as typed", async () => {
    const fp = await fingerprint();
    const r = await gw(["critique", graph, critique, "--fingerprint", fp, "-o", "out.json"], { cwd: process.cwd() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("groundwire critique: -o unknown RDF format for out.json: extension .json (expected .ttl, .nt, .nq or .trig)\n");
  });

  it("a write the system refuses is named in words with its code (the library's writer too)", () => {
    const long = join(work, `${"n".repeat(300)}.ttl`);
    let error: unknown;
    try {
      writeFileAtomic(long, "x");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputFileError);
    expect((error as Error).message).toBe(`cannot write ${long}: the name is too long (ENAMETOOLONG)`);
    expect(() => writeFileAtomic(join(work, "folder.ttl/"), "x")).toThrow(/names a folder, not a file/);
    expect(readdirSync(work).filter((f) => f.startsWith("folder") || f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("a short option written with =", () => {
  const options = { output: { type: "string", short: "o" }, json: { type: "boolean" } } as const;
  const refused = (args: string[]) => {
    try {
      parseCommandArgs("critique", args, options, "usage");
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };

  it("is refused by name, not read as -q -= -1 nor as the value \"=out.ttl\"", () => {
    expect(refused(["-q=1"])).toBe('critique: -q takes no value, got "1" in "-q=1" (write -q alone) (groundwire help critique lists its options)');
    expect(refused(["g.ttl", "-o=out.ttl"])).toBe('critique: -o takes its value after a space: -o out.ttl or --output=out.ttl, not "-o=out.ttl" (groundwire help critique lists its options)');
    expect(refused(["-x=3"])).toBe('critique: unknown option "-x" in "-x=3" (groundwire help critique lists its options)');
  });

  it("leaves the written forms that mean what they say alone", () => {
    expect(parseCommandArgs("critique", ["-o", "out.ttl", "-q"], options, "usage").values).toMatchObject({ output: "out.ttl", quiet: true });
    expect(parseCommandArgs("critique", ["--output==x.ttl"], options, "usage").values).toMatchObject({ output: "=x.ttl" });
    expect(parseCommandArgs("critique", ["--", "-q=1"], options, "usage").positionals).toEqual(["-q=1"]);
  });
});
