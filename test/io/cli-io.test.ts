// Issue 12 items 1, 2, 3, 7, 10 (JSON depth), 11, 12, 13 (CLI bounds) and issue 16 item 7
// (CLI habits), through the built CLI (dist/cli.js, as a user runs it).
// npm test runs every item with a fixed sample of its repeats (each command, each kind of input and
// each output format keeps a case in the file); npm run test:deep (test/depth.ts) runs all of them.
// What each test leaves to the deep run is said beside it.
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseGraph } from "../../ts/rdf/index.js";
import { buildTripleIndex } from "../../ts/triple-index/index.js";
import { gw, type Run } from "./run-cli.js";
import { spread } from "../depth.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const MOUNTAINS = join(ROOT, "test/fixtures/triple-index/dbpedia-mountains.input.ttl");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function workdir(): string {
  return mkdtempSync(join(tmpdir(), "gw-io-"));
}

async function fingerprint(path: string): Promise<string> {
  return fingerprintIn(await gw(["index", path]));
}

function fingerprintIn(r: Run): string {
  expect(r.code).toBe(0);
  return /\nfingerprint: ([0-9a-f]{64})/.exec(r.stdout)![1];
}

let mountains: Promise<Run> | undefined;
/** `index` of the mountains graph, run once for the tests that read it (its fingerprint, standard input's counterpart). */
function indexMountains(): Promise<Run> {
  return (mountains ??= gw(["index", MOUNTAINS]));
}

/** The fingerprint `critique` printed for the graph it wrote. */
function printedAfter(stdout: string): string {
  return /fingerprint: [0-9a-f]{64} -> ([0-9a-f]{64})/.exec(stdout)![1];
}

describe("item 1: non-UTF-8 input is refused, never decoded to U+FFFD", () => {
  it("critique --in-place on a Latin-1 Turtle file: one line naming the byte, exit 1, file unchanged", async () => {
    const dir = workdir();
    const graph = join(dir, "latin1.ttl");
    const bytes = Buffer.concat([Buffer.from('@prefix ex: <http://example.org/> .\nex:a ex:name "caf'), Buffer.from([0xe9]), Buffer.from('" .\nex:a ex:b ex:c .\n')]);
    writeFileSync(graph, bytes);
    writeFileSync(join(dir, "c.json"), '[{"op":"remove","tripleIds":[2]}]');
    const r = await gw(["critique", graph, join(dir, "c.json"), "--fingerprint", "0".repeat(64), "--in-place"]);
    expect(r.stderr).toBe(`groundwire critique: ${graph}: invalid UTF-8 at byte ${bytes.indexOf(0xe9)}\n`);
    expect(r.code).toBe(1);
    expect(readFileSync(graph).equals(bytes)).toBe(true);
  });

  it("cite on a document whose byte changed from \\xa3 to \\xa5 (Latin-1) is refused, not reported current", async () => {
    const dir = workdir();
    const doc = join(dir, "price.md");
    writeFileSync(doc, "# Price\n\nIt costs 5\u00a3.\n");
    const listed = await gw(["fragments", doc]);
    const versionId = /^([0-9a-f]{64}#sha256:[0-9a-f]{64})\s+L3/m.exec(listed.stdout)![1];
    // the same character, Latin-1 encoded and changed (\xa3 → \xa5): one byte, not UTF-8
    writeFileSync(doc, Buffer.concat([Buffer.from("# Price\n\nIt costs 5"), Buffer.from([0xa5]), Buffer.from(".\n")]));
    const r = await gw(["cite", doc, versionId]);
    expect(r.stderr).toMatch(new RegExp(`^groundwire cite: ${doc}: invalid UTF-8 at byte 19\\n$`));
    expect(r.code).toBe(1);
  });
});

describe("item 2: every write is atomic and every output path is checked first", () => {
  it("a symlink planted at the old temporary name is never followed; the 0600 mode survives --in-place", async () => {
    const dir = workdir();
    const graph = join(dir, "g.ttl");
    copyFileSync(MOUNTAINS, graph);
    chmodSync(graph, 0o600);
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    // the names the old code used (`<path>.<pid>.tmp`) for every pid near ours
    for (let pid = 1; pid < 200; pid++) symlinkSync(victim, `${graph}.${process.pid + pid}.tmp`);
    writeFileSync(join(dir, "c.json"), '[{"op":"remove","tripleIds":[1]}]');
    const r = await gw(["critique", graph, join(dir, "c.json"), "--fingerprint", fingerprintIn(await indexMountains()), "--in-place"]); // graph is a copy of MOUNTAINS
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(statSync(graph).mode & 0o777).toBe(0o600);
    // nothing of ours left beside it
    expect(readdirSync(dir).filter((f) => f.startsWith(".g.ttl."))).toEqual([]);
  });

  it("output paths are checked before any work: a folder, a missing folder, the --scope graph", async () => {
    const dir = workdir();
    const graph = join(dir, "g.ttl");
    copyFileSync(MOUNTAINS, graph);
    const scope = join(dir, "scope.ttl");
    copyFileSync(MOUNTAINS, scope);
    writeFileSync(join(dir, "c.json"), "[]");
    const fp = "0".repeat(64); // wrong: the path errors must come first
    const base = ["critique", graph, join(dir, "c.json"), "--fingerprint", fp];
    const asFolder = await gw([...base, "-o", dir]);
    expect(asFolder.stderr).toBe(`groundwire critique: -o cannot write ${dir}: it is a directory\n`);
    expect(asFolder.code).toBe(2);
    const missing = await gw([...base, "-o", join(dir, "nope", "x.ttl")]);
    expect(missing.stderr).toBe(`groundwire critique: -o cannot write ${join(dir, "nope", "x.ttl")}: folder ${join(dir, "nope")} does not exist\n`);
    const sameAsScope = await gw([...base, "--scope", scope, "-o", scope]);
    expect(sameAsScope.stderr).toBe(`groundwire critique: -o ${scope} is the --scope graph; it would be overwritten\n`);
    expect(sameAsScope.code).toBe(2);
    expect(readFileSync(scope, "utf8")).toBe(readFileSync(MOUNTAINS, "utf8"));
  });

  it("moot --json writes the transcript atomically; --json - and a bare --json put it on stdout, no file named -", async () => {
    const dir = workdir();
    const r = await gw(["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "1", "--json", "-"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).utterances).toHaveLength(1);
    expect(existsSync(join(dir, "-"))).toBe(false);
    const bare = await gw(["moot", "novel/frankenstein", "diary/pepys-1660", "--json", "--turns", "1"], { cwd: dir });
    expect(bare.code).toBe(0);
    expect(JSON.parse(bare.stdout).stats.turns).toBe(1);
    expect(bare.stderr).toContain("[1] Frankenstein");
  }, 120_000);
});

describe("item 3: a dataset keeps its graph names, and every written file re-parses to the printed fingerprint", () => {
  const nq =
    "<http://e/a> <http://e/p> <http://e/b> .\n" +
    "<http://e/a> <http://e/p> <http://e/c> <http://e/g1> .\n" +
    "<http://e/d> <http://e/p> \"x\" <http://e/g2> .\n" +
    "<http://e/d> <http://e/q> \"y\" .\n";
  // the dataset's fingerprint, as `index` prints it: the same bytes in every case below
  let fp: string;
  beforeAll(async () => {
    const dir = workdir();
    writeFileSync(join(dir, "d.nq"), nq);
    fp = await fingerprint(join(dir, "d.nq"));
  });

  it("refuses .nt and .ttl for a dataset with named graphs, exit 2, nothing written", async () => {
    const dir = workdir();
    const graph = join(dir, "d.nq");
    writeFileSync(graph, nq);
    writeFileSync(join(dir, "c.json"), '[{"op":"remove","tripleIds":[1]}]');
    // npm test: .nt (the same refusal as .ttl); npm run test:deep (test/depth.ts): both
    for (const ext of spread(["nt", "ttl"], 1)) {
      const out = join(dir, `x.${ext}`);
      const r = await gw(["critique", graph, join(dir, "c.json"), "--fingerprint", fp, "-o", out]);
      expect(r.stderr).toMatch(/^groundwire critique: .*d\.nq is a dataset with 2 named graph\(s\); .* cannot hold their names: write \.nq or \.trig, or pass --drop-graph-names/);
      expect(r.code).toBe(2);
      expect(existsSync(out)).toBe(false);
    }
  });

  // npm test: .nq (names kept) and .nt (names dropped); npm run test:deep: all four (the plain graph below writes all four)
  it.each(spread(["nq", "trig", "ttl", "nt"], 2))("-o x.%s: the file re-parses to the fingerprint printed", async (ext) => {
    const dir = workdir();
    const graph = join(dir, "d.nq");
    writeFileSync(graph, nq);
    writeFileSync(join(dir, "c.json"), '[{"op":"remove","tripleIds":[1]}]');
    const out = join(dir, `x.${ext}`);
    const extra = ext === "ttl" || ext === "nt" ? ["--drop-graph-names"] : [];
    const r = await gw(["critique", graph, join(dir, "c.json"), "--fingerprint", fp, "-o", out, ...extra]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(await fingerprint(out)).toBe(printedAfter(r.stdout));
    if (ext === "nq" || ext === "trig") {
      const written = parseGraph(readFileSync(out, "utf8"), { format: ext === "nq" ? "nquads" : "trig" });
      expect(written.store.getGraphs(null, null, null).map((g) => g.value).filter(Boolean).sort()).toEqual(["http://e/g1", "http://e/g2"]);
    }
  });

  it("a plain Turtle graph written as .ttl, .nt, .nq, .trig re-parses to the fingerprint printed", async () => {
    const dir = workdir();
    writeFileSync(join(dir, "c.json"), '[{"op":"remove","tripleIds":[3]}]');
    const fp = fingerprintIn(await indexMountains());
    // npm test: .ttl and .trig written and re-parsed (.nq and .nt are written by the dataset tests
    // above), `index` re-reading the .ttl; npm run test:deep (test/depth.ts): all four written,
    // re-parsed and re-read by `index`
    const reindexed = spread(["ttl", "nt", "nq", "trig"], 1);
    for (const ext of spread(["ttl", "nt", "nq", "trig"], 2)) {
      const out = join(dir, `m.${ext}`);
      const r = await gw(["critique", MOUNTAINS, join(dir, "c.json"), "--fingerprint", fp, "-o", out]);
      expect(r.code).toBe(0);
      const after = printedAfter(r.stdout);
      if (reindexed.includes(ext)) expect(await fingerprint(out)).toBe(after);
      expect(buildTripleIndex(parseGraph(readFileSync(out, "utf8"), { format: ({ ttl: "turtle", nt: "ntriples", nq: "nquads", trig: "trig" } as const)[ext as "ttl"] })).numbering).toBe(after);
    }
  });
});

describe("item 7: terminal controls are escaped in everything printed for a human", () => {
  it("a file name with ESC and OSC 52 in it is printed escaped in the error line", async () => {
    const r = await gw(["index", "/nonexistent/\u001b]52;c;cHduZWQ=\u0007\u001b[2J.ttl"]);
    expect(r.stderr).toBe("groundwire index: no such file: /nonexistent/\\x1B]52;c;cHduZWQ=\\x07\\x1B[2J.ttl\n");
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  });
});

describe("item 10: JSON nested 100,000 deep is a typed error, never a stack overflow", () => {
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  it("critique, check (plan and --goal), prove --script", async () => {
    const dir = workdir();
    const file = join(dir, "deep.json");
    writeFileSync(file, deep);
    const critique = await gw(["critique", MOUNTAINS, file, "--fingerprint", "0".repeat(64)]);
    expect(critique.stderr).toBe(`groundwire critique: ${file}: nesting deeper than 1,000 at line 1\n`);
    expect(critique.code).toBe(1);
    const KG = join(ROOT, "test/fixtures/kernel/olympics.ttl");
    const plan = await gw(["check", file, "--schema", KG]);
    expect(plan.stderr).toBe(`groundwire check: ${file}: nesting deeper than 1,000 at line 1\n`);
    const rq = join(dir, "q.rq");
    writeFileSync(rq, "SELECT * { ?s ?p ?o }");
    const goal = await gw(["check", rq, "--schema", KG, "--goal", file]);
    expect(goal.stderr).toBe(`groundwire check: --goal ${file}: nesting deeper than 1,000 at line 1\n`);
    // (an argument is at most 128 KB: 2,000 deep inline)
    const inline = await gw(["check", rq, "--schema", KG, "--goal", `{"answer":${"[".repeat(2000)}${"]".repeat(2000)}}`]);
    expect(inline.stderr).toBe("groundwire check: --goal: nesting deeper than 1,000 at line 1\n");
    const script = await gw(["prove", "q?", "--kg", KG, "--script", file]);
    expect(script.stderr).toBe(`groundwire prove: script ${file}: nesting deeper than 1,000 at line 1\n`);
    expect(script.code).toBe(1);
  }, 120_000);
});

describe("item 11: devices, FIFOs and links to them are refused in one line, before a byte is read", () => {
  // npm test: /dev/zero (test/io/cli-sweep.test.ts and test/cli/non-regular-files.test.ts run a
  // link to it); npm run test:deep (test/depth.ts): /dev/urandom and the link too
  it.each(spread([["/dev/zero"], ["/dev/urandom"], ["link"]], 1))("index %s", async (which) => {
    const dir = workdir();
    let path = which;
    if (which === "link") {
      path = join(dir, "zero.ttl");
      symlinkSync("/dev/zero", path);
    }
    const r = await gw(["index", path], { limitMs: 20_000 });
    expect(r.stderr).toBe(`groundwire index: ${path}: is not a regular file (a device, FIFO or socket); pass - to read standard input\n`);
    expect(r.code).toBe(1);
  });

  it("a FIFO with no writer does not hang", async () => {
    const dir = workdir();
    const fifo = join(dir, "pipe.md");
    const made = await new Promise<number | null>((resolve) => spawn("mkfifo", [fifo]).on("close", resolve).on("error", () => resolve(null)));
    if (made !== 0) return; // no mkfifo here: the device cases above cover the check
    const r = await gw(["fragments", fifo], { limitMs: 20_000 });
    expect(r.stderr).toBe(`groundwire fragments: ${fifo}: is not a regular file (a device, FIFO or socket); pass - to read standard input\n`);
  });
});

describe("item 12: messages that echo input are short", () => {
  it("a 2 MB one-line Turtle file with a syntax error gives a short message", async () => {
    const dir = workdir();
    const file = join(dir, "long.ttl");
    writeFileSync(file, `<http://e/a> <http://e/b> "${"x".repeat(2_000_000)}" "more" .\n`);
    const r = await gw(["index", file]);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(`groundwire index: cannot parse ${file}:1:`)).toBe(true);
    expect(r.stderr.length).toBeLessThan(400);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });
});

describe("item 13: --k, --turns and --max-turns have upper bounds", () => {
  // npm test: --turns and --max-turns (an upper bound on moot's and on prove's options); npm run
  // test:deep (test/depth.ts): --k too
  it.each(spread([
    [["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "1000000"], "groundwire moot: --turns must be at most 1000, got \"1000000\"\n"],
    [["moot", "novel/frankenstein", "diary/pepys-1660", "--k", "100000"], "groundwire moot: --k must be at most 100, got \"100000\"\n"],
    [["prove", "q?", "--kg", "test/fixtures/kernel/olympics.ttl", "--max-turns", "1000000"], "groundwire prove: --max-turns must be at most 1000, got \"1000000\"\n"],
  ] as Array<[string[], string]>, 2))("%j", async (args, message) => {
    const r = await gw(args);
    expect(r.stderr).toBe(message);
    expect(r.code).toBe(2);
  });
});

describe("issue 16 item 7: CLI habits", () => {
  it("--version, help and help <command>", async () => {
    expect((await gw(["--version"])).stdout).toBe(`${VERSION}\n`);
    const help = await gw(["help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: groundwire <command>/);
    const helpIndex = await gw(["help", "index"]);
    expect(helpIndex.code).toBe(0);
    expect(helpIndex.stdout).toMatch(/^usage: groundwire index /);
    expect((await gw(["help", "nope"])).stderr).toMatch(/^groundwire: unknown command "nope"/);
  });

  it("- reads stdin with --format for index, render, fragments, check; /dev/stdin works; - without --format says so", async () => {
    const ttl = readFileSync(MOUNTAINS, "utf8");
    const fromFile = await indexMountains();
    const fromStdin = await gw(["index", "-", "--format", "ttl"], { input: ttl });
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    const devStdin = await gw(["index", "/dev/stdin", "--format", "ttl"], { input: ttl });
    expect(devStdin.stdout).toBe(fromFile.stdout);
    const noFormat = await gw(["index", "-"], { input: ttl });
    expect(noFormat.stderr).toBe("groundwire index: reading standard input needs --format (ttl, nt, nq, trig)\n");
    expect(noFormat.code).toBe(2);
    const md = "# Title\n\nSome text.\n";
    const frags = await gw(["fragments", "-", "--format", "md", "--artifact", "doc"], { input: md });
    expect(frags.code).toBe(0);
    expect(frags.stdout).toContain("section:title");
    const KG = join(ROOT, "test/fixtures/kernel/olympics.ttl");
    const check = await gw(["check", "-", "--format", "rq", "--schema", KG], { input: "SELECT * { ?s ?p ?o }" });
    expect(check.code).toBe(0);
  });

  it("one error prefix everywhere: groundwire <command>: …", async () => {
    // npm test: the first and last commands (index, prove; test/io/cli-sweep.test.ts and
    // test/cli/parse-errors.test.ts check the prefix on every command); npm run test:deep
    // (test/depth.ts): all seven
    for (const cmd of spread(["index", "render", "fragments", "cite", "check", "critique", "prove"], 2)) {
      const r = await gw([cmd, "--no-such-option"]);
      expect(r.stderr).toMatch(new RegExp(`^groundwire ${cmd}: [^\\n]+\\n$`));
      expect(r.code).toBe(2);
    }
  });
});
