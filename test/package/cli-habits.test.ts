/**
 * Issue 16 item 7, every command: each option that takes a file reads standard input as `-`
 * (with `--format` naming its format when it is not in a name) and as `/dev/stdin`, and
 * prints exactly what it prints for the same file; `-` without `--format` is a usage error
 * naming the formats; progress lines go to stderr only when stderr is a terminal, never
 * with --quiet or when piped; every `--json` writes JSON to stdout; every error is one line
 * `groundwire <command>: …`. Run as a user runs the CLI (dist/cli.js); the terminal is a
 * real pseudo-terminal made by util-linux `script`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { ROOT, requireBuild } from "./support.js";

const GRAPH = join(ROOT, "test/fixtures/triple-index/dbpedia-mountains.input.ttl");
const KG = join(ROOT, "test/fixtures/kernel/olympics.ttl");
const DOC = join(ROOT, "test/fixtures/evidence/awesome-v000.input.md");
const QUESTION = "Which French cities hosted the Winter Olympics?";
const dir = mkdtempSync(join(tmpdir(), "gw-habits-"));
const CRITIQUE = join(dir, "critique.json");
const QUERY = join(dir, "query.rq");
const PLAN = join(dir, "plan.json");
const GOAL = join(dir, "goal.json");
const SCRIPT = join(dir, "script.json");
const KEY = join(dir, "key.txt");
writeFileSync(CRITIQUE, JSON.stringify([{ op: "remove", tripleIds: [2] }]));
writeFileSync(QUERY, "PREFIX ex: <http://example.org/olympics#>\nSELECT ?c WHERE { ?g ex:hostCity ?c }\n");
writeFileSync(PLAN, JSON.stringify([{ op: "triple", s: "?s", p: "?p", o: "?o" }]));
writeFileSync(GOAL, JSON.stringify({ answer: ["?c"], kind: "entity" }));
copyFileSync(join(ROOT, "data/kernel/olympics.prove.json"), SCRIPT);
writeFileSync(KEY, "sk-test-not-a-key\n");

/** Output with the input's name (the file, `<stdin>`, `"-"`, /dev/stdin) as X, so file and stdin runs compare. */
function sameNames(text: string, stdinName?: string): string {
  let out = text.replaceAll("<stdin>", "X");
  // a document's source object id is its path relative to the git work tree (slice prints it)
  for (const f of [GRAPH, KG, DOC, CRITIQUE, QUERY, PLAN, GOAL, SCRIPT]) out = out.replaceAll(f, "X").replaceAll(relative(ROOT, f), "X");
  if (stdinName === "/dev/stdin") out = out.replaceAll(stdinName, "X");
  if (stdinName === "-") out = out.replaceAll('"-"', '"X"');
  return out;
}

let fingerprint = "";
let versionId = "";

/**
 * Every file-taking option of every command: the arguments with the file, the same with the
 * file replaced by STDIN (and `--format` when the format is not in a name), and the file's
 * text. `slice` names its input's format with `--input-format` (its `--format` is the output's:
 * nquads, turtle); `serve`/`mcp --graph NAME=FILE`
 * read files at start-up and `mcp` talks its protocol on standard input.
 */
function table(): Array<{ name: string; file: string[]; stdin: (s: string) => string[]; text: string; refused?: string }> {
  const ttl = readFileSync(GRAPH, "utf8");
  const kg = readFileSync(KG, "utf8");
  const fp = ["--fingerprint", fingerprint];
  return [
    { name: "index <graph>", file: ["index", GRAPH], stdin: (s) => ["index", s, "--format", "ttl"], text: ttl, refused: "ttl, nt, nq, trig" },
    { name: "index --scope", file: ["index", GRAPH, "--scope", GRAPH], stdin: (s) => ["index", GRAPH, "--scope", s, "--format", "ttl"], text: ttl, refused: "ttl, nt, nq, trig" },
    { name: "index <graph> --json", file: ["index", GRAPH, "--json"], stdin: (s) => ["index", s, "--format", "ttl", "--json"], text: ttl },
    { name: "critique <graph>", file: ["critique", GRAPH, CRITIQUE, ...fp], stdin: (s) => ["critique", s, CRITIQUE, ...fp, "--format", "ttl"], text: ttl, refused: "ttl, nt, nq, trig" },
    { name: "critique <critique.json>", file: ["critique", GRAPH, CRITIQUE, ...fp], stdin: (s) => ["critique", GRAPH, s, ...fp], text: readFileSync(CRITIQUE, "utf8") },
    { name: "critique <critique.json> --format json", file: ["critique", GRAPH, CRITIQUE, ...fp], stdin: (s) => ["critique", GRAPH, s, ...fp, "--format", "json"], text: readFileSync(CRITIQUE, "utf8") },
    { name: "critique --scope", file: ["critique", GRAPH, CRITIQUE, ...fp, "--scope", GRAPH], stdin: (s) => ["critique", GRAPH, CRITIQUE, ...fp, "--scope", s, "--format", "ttl"], text: ttl, refused: "ttl, nt, nq, trig" },
    { name: "check <query.rq>", file: ["check", QUERY, "--schema", KG], stdin: (s) => ["check", s, "--format", "rq", "--schema", KG], text: readFileSync(QUERY, "utf8") },
    { name: "check <plan.json>", file: ["check", PLAN, "--schema", KG, "--json"], stdin: (s) => ["check", s, "--format", "json", "--schema", KG, "--json"], text: readFileSync(PLAN, "utf8") },
    { name: "check --schema", file: ["check", QUERY, "--schema", KG], stdin: (s) => ["check", QUERY, "--schema", s, "--format", "ttl"], text: kg, refused: "ttl, nt, nq, trig" },
    { name: "check --goal", file: ["check", QUERY, "--schema", KG, "--goal", GOAL], stdin: (s) => ["check", QUERY, "--schema", KG, "--goal", s, "--format", "json"], text: readFileSync(GOAL, "utf8") },
    { name: "prove --kg", file: ["prove", QUESTION, "--kg", KG], stdin: (s) => ["prove", QUESTION, "--kg", s, "--format", "ttl"], text: kg, refused: "ttl, nt, nq, trig" },
    { name: "prove --script", file: ["prove", QUESTION, "--kg", KG, "--script", SCRIPT, "--json"], stdin: (s) => ["prove", QUESTION, "--kg", KG, "--script", s, "--format", "json", "--json"], text: readFileSync(SCRIPT, "utf8") },
    { name: "render <graph>", file: ["render", GRAPH, ":Mountain"], stdin: (s) => ["render", s, ":Mountain", "--format", "ttl"], text: ttl, refused: "ttl, nt, nq, trig" },
    { name: "render <graph> --json", file: ["render", GRAPH, ":Mountain", "--json"], stdin: (s) => ["render", s, ":Mountain", "--format", "ttl", "--json"], text: ttl },
    { name: "fragments <file>", file: ["fragments", DOC, "--artifact", "doc"], stdin: (s) => ["fragments", s, "--format", "md", "--artifact", "doc"], text: readFileSync(DOC, "utf8"), refused: "md, txt" },
    { name: "slice <file>", file: ["slice", DOC, "--artifact", "doc"], stdin: (s) => ["slice", s, "--input-format", "md", "--artifact", "doc"], text: readFileSync(DOC, "utf8"), refused: "md, txt" },
    { name: "cite <file>", file: ["cite", DOC, versionId, "--artifact", "doc"], stdin: (s) => ["cite", s, versionId, "--format", "md", "--artifact", "doc"], text: readFileSync(DOC, "utf8"), refused: "md, txt" },
  ];
}

describe("every file-taking option reads standard input (issue 16 item 7)", () => {
  beforeAll(async () => {
    requireBuild();
    fingerprint = /^fingerprint: ([0-9a-f]{64})$/m.exec((await gw(["index", GRAPH])).stdout)![1];
    versionId = JSON.parse((await gw(["fragments", DOC, "--artifact", "doc", "--json"])).stdout).fragments[1].versionId;
  }, 60_000);

  it("the table covers every command that reads a file", () => {
    const commands = new Set(table().map((row) => row.name.split(" ")[0]));
    expect([...commands].sort()).toEqual(["check", "cite", "critique", "fragments", "index", "prove", "render", "slice"]);
  });

  for (const stdinName of ["-", "/dev/stdin"]) {
    it(`${stdinName}: the same output as the file, for each option`, async () => {
      for (const row of table()) {
        const fromFile = await gw(row.file);
        expect(fromFile.stdout.length, `${row.name}: ${fromFile.stderr}`).toBeGreaterThan(20);
        const fromStdin = await gw(row.stdin(stdinName), { input: row.text });
        expect({ row: row.name, code: fromStdin.code, stdout: sameNames(fromStdin.stdout, stdinName) }).toEqual({
          row: row.name,
          code: fromFile.code,
          stdout: sameNames(fromFile.stdout),
        });
        if (row.name.endsWith("--json")) expect(() => JSON.parse(fromStdin.stdout), row.name).not.toThrow();
      }
    }, 240_000);
  }

  it("- without --format: exit 2, one line naming the formats", async () => {
    for (const row of table().filter((r) => r.refused)) {
      const args = row.stdin("-");
      const i = args.findIndex((a) => a === "--format" || a === "--input-format");
      const flag = args[i];
      args.splice(i, 2);
      const r = await gw(args, { input: row.text });
      expect({ row: row.name, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({
        row: row.name,
        code: 2,
        stderr: `groundwire ${args[0]}: reading standard input needs ${flag} (${row.refused})\n`,
        stdout: "",
      });
    }
  }, 120_000);

  it("two inputs on standard input are refused; --format for a JSON input must be json", async () => {
    for (const [args, inputs] of [
      [["check", "-", "--schema", "-", "--format", "ttl"], "-, -"],
      [["check", "-", "--schema", "-", "--format", "rq"], "-, -"],
      [["check", "-", "--schema", "/dev/stdin"], "-, /dev/stdin"],
      [["critique", "-", "-", "--fingerprint", "a".repeat(64), "--format", "ttl"], "-, -"],
      [["index", "-", "--scope", "-", "--format", "ttl"], "-, -"],
      [["prove", QUESTION, "--kg", "-", "--script", "-", "--format", "json"], "-, -"],
    ] as const) {
      const r = await gw([...args], { input: "x" });
      expect({ code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({
        code: 2,
        stderr: `groundwire ${args[0]}: only one input can be - (standard input is read once); 2 inputs are: ${inputs}\n`,
        stdout: "",
      });
    }
    const c = await gw(["critique", GRAPH, "-", "--fingerprint", fingerprint, "--format", "ttl"], { input: "[]" });
    expect(c.stderr).toBe('groundwire critique: a critique is JSON: --format for the critique on standard input must be json, got "ttl"\n');
    expect(c.code).toBe(2);
  });

  it("--api-key-file - reads the key from standard input (moot, prove)", async () => {
    // the endpoint is unreachable: what matters is that the key was read and the request tried
    const r = await gw(["prove", QUESTION, "--kg", KG, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key-file", "-", "--timeout", "2"], { input: "sk-from-stdin\n" });
    expect(r.stderr).not.toMatch(/api-key-file/);
    expect(r.stderr).toMatch(/^groundwire prove: /m);
    expect(r.stderr).not.toContain("sk-from-stdin");
    const empty = await gw(["prove", QUESTION, "--kg", KG, "--base-url", "http://127.0.0.1:9/v1", "--api-key-file", "-"], { input: "\n" });
    expect(empty.stderr).toBe("groundwire prove: --api-key-file -: the first line is empty\n");
  }, 60_000);
});

describe("every --json writes JSON to stdout; notices and errors go to stderr, one line `groundwire <command>: …`", () => {
  beforeAll(async () => {
    requireBuild();
    if (!fingerprint) fingerprint = /^fingerprint: ([0-9a-f]{64})$/m.exec((await gw(["index", GRAPH])).stdout)![1];
    if (!versionId) versionId = JSON.parse((await gw(["fragments", DOC, "--artifact", "doc", "--json"])).stdout).fragments[1].versionId;
  }, 60_000);

  it("each command's --json: stdout is one JSON document, stderr holds at most notices", async () => {
    const runs: Array<[string[], RegExp | null]> = [
      [["index", GRAPH, "--json"], null],
      [["critique", GRAPH, CRITIQUE, "--fingerprint", fingerprint, "--json"], null],
      [["check", QUERY, "--schema", KG, "--json"], null],
      [["prove", QUESTION, "--kg", KG, "--json"], null],
      [["render", GRAPH, ":Mountain", "--json"], null],
      [["fragments", DOC, "--artifact", "doc", "--json"], null],
      [["cite", DOC, versionId, "--artifact", "doc", "--json"], null],
      [["locate", "It was on a dreary night of November", "--book", "novel/frankenstein", "--json"], null],
      [["books", "--json"], null],
      // moot: bare --json and --json - put the transcript on stdout; the notice and the text go to stderr
      [["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "2", "--json"], /^groundwire moot: no model configured/],
      [["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "2", "--json", "-"], /^groundwire moot: no model configured/],
    ];
    for (const [args, notice] of runs) {
      const r = await gw(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(() => JSON.parse(r.stdout), args.join(" ")).not.toThrow();
      // critique without -o: the written graph is the JSON's "output" field, not a second document
      if (args[0] === "critique") expect(JSON.parse(r.stdout).output).toMatch(/^@prefix /);
      if (notice) expect(r.stderr).toMatch(notice);
      else expect(r.stderr, args.join(" ")).toBe("");
    }
  }, 240_000);

  it("a failure at run time (not a usage error) is one line with the command's prefix, for every command", async () => {
    const runs: Array<[string, string[]]> = [
      ["books", ["books", "--corpus", join(dir, "none")]],
      ["locate", ["locate", "x", "--corpus", join(dir, "none")]],
      ["moot", ["moot", "novel/nope", "diary/pepys-1660"]],
      ["serve", ["serve", "--graph", `g=${join(dir, "none.ttl")}`, "--port", "0"]],
      ["mcp", ["mcp", "--graph", `g=${join(dir, "none.ttl")}`]],
      ["slice", ["slice", join(dir, "none.md")]],
      ["index", ["index", join(dir, "none.ttl")]],
      ["critique", ["critique", GRAPH, join(dir, "none.json"), "--fingerprint", fingerprint]],
      ["check", ["check", QUERY, "--schema", join(dir, "none.ttl")]],
      ["prove", ["prove", QUESTION, "--kg", join(dir, "none.ttl")]],
      ["render", ["render", join(dir, "none.ttl"), ":a"]],
      ["fragments", ["fragments", join(dir, "none.md")]],
      ["cite", ["cite", join(dir, "none.md"), versionId]],
      ["bench", ["bench", "nope", "--installed"]],
    ];
    for (const [command, args] of runs) {
      const r = await gw(args);
      expect(r.code, args.join(" ")).toBeGreaterThan(0);
      expect(r.stderr, args.join(" ")).toMatch(new RegExp(`^groundwire ${command}: [^\\n]+\\n$`));
      expect(r.stdout).toBe("");
    }
  }, 240_000);
});

/** Run the CLI with stderr on a pseudo-terminal (util-linux `script`), stdout to a file; returns both. */
function onTerminal(args: string[], env: Record<string, string> = {}): { terminal: string; stdout: string } {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}.txt`);
  const quoted = [process.execPath, join(ROOT, "dist/cli.js"), ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const terminal = execFileSync("script", ["-qec", `${quoted} > '${out}'`, "/dev/null"], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  return { terminal, stdout: readFileSync(out, "utf8") };
}

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("progress on stderr: terminal only, never with --quiet or when piped", () => {
  // GROUNDWIRE_PROGRESS_AFTER_MS=0: the lines show without work that lasts seconds
  const env = { GROUNDWIRE_PROGRESS_AFTER_MS: "0" };
  const runs: Array<[string, string[]]> = [
    ["index", ["index", GRAPH, "--scope", GRAPH]],
    ["render", ["render", GRAPH, ":Mountain"]],
    ["check", ["check", QUERY, "--schema", KG]],
    ["prove", ["prove", QUESTION, "--kg", KG]],
  ];
  for (const [command, args] of runs) {
    it(`${command}: progress lines on a terminal, none with --quiet, none when stderr is piped`, async () => {
      const shown = onTerminal(args, env);
      expect(shown.terminal).toMatch(new RegExp(`\\r\\x1b\\[2Kgroundwire ${command}: [^\\r\\n]+ \\(\\d+\\.\\d s\\)`));
      // the line is cleared before the command ends, and stdout holds only the result
      expect(shown.terminal.endsWith("\r\x1b[2K")).toBe(true);
      expect(shown.stdout).not.toContain("\x1b");
      const quiet = onTerminal([...args, "--quiet"], env);
      expect(quiet.terminal).toBe("");
      expect(quiet.stdout).toBe(shown.stdout);
      const piped = await gw(args);
      expect(piped.stderr).toBe("");
      expect(piped.stdout).toBe(shown.stdout);
    }, 120_000);
  }
});
