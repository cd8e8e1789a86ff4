// The bad-input sweep (issue 12 "Done when"): every CLI command, every kind of bad file
// (missing, folder, device, link to a device, invalid UTF-8, binary, a 1 MB line, deep JSON,
// wrong extension, stdin without --format) and bad options. Each case, run as a user runs
// it (dist/cli.js) and killed after a time bound, must end in exit 1 or 2 with one line on
// stderr, `groundwire <command>: …`, short, free of terminal controls and stack traces, and
// nothing on stdout.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gw } from "./run-cli.js";
import { DEEP } from "../depth.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const KG = join(ROOT, "test/fixtures/kernel/olympics.ttl");
const GRAPH = join(ROOT, "test/fixtures/triple-index/dbpedia-mountains.input.ttl");
const DOC = join(ROOT, "test/fixtures/evidence/awesome-v000.input.md");
const VERSION_ID = `${"a".repeat(64)}#sha256:${"b".repeat(64)}`;
/** Time bound per case (node start-up and the WASM set-up included, on a loaded machine). */
const BOUND_MS = 30_000;

const dir = mkdtempSync(join(tmpdir(), "gw-sweep-"));
mkdirSync(join(dir, "folder.ttl"));
/** Bad files by kind, each with the extension `ext`. */
function badFiles(ext: string): Array<[string, string]> {
  const latin1 = join(dir, `latin1.${ext}`);
  writeFileSync(latin1, Buffer.from([0x61, 0x20, 0xe9, 0x0a]));
  const binary = join(dir, `binary.${ext}`);
  writeFileSync(binary, Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 73) % 256)));
  const long = join(dir, `long.${ext}`);
  writeFileSync(long, `${"{[<(\"".repeat(3)}${"x".repeat(1_000_000)}\u001b[2J\n`);
  const link = join(dir, `zero.${ext}`);
  try {
    symlinkSync("/dev/zero", link);
  } catch {
    // made by an earlier call
  }
  return [
    ["missing", join(dir, `missing.${ext}`)],
    ["folder", join(dir, "folder.ttl")],
    ["/dev/zero", "/dev/zero"],
    ["/dev/urandom", "/dev/urandom"],
    ["link to /dev/zero", link],
    ["invalid UTF-8", latin1],
    ["binary", binary],
    ["a 1 MB line", long],
    ["wrong extension", join(dir, "x.exe")],
  ];
}
const deepJson = join(dir, "deep.json");
writeFileSync(deepJson, `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
const emptyCritique = join(dir, "c.json");
writeFileSync(emptyCritique, "[]");

const cases: Array<[string, string, string[]]> = [];
for (const [kind, f] of badFiles("ttl")) {
  cases.push(["index", kind, ["index", f]]);
  cases.push(["render", kind, ["render", f, "ex:a"]]);
  cases.push(["critique", kind, ["critique", f, emptyCritique, "--fingerprint", "0".repeat(64)]]);
  cases.push(["check --schema", kind, ["check", join(ROOT, "test/fixtures/kernel/olympics.ttl"), "--schema", f]]);
  cases.push(["prove --kg", kind, ["prove", "q?", "--kg", f]]);
}
for (const [kind, f] of badFiles("json")) {
  if (kind === "wrong extension") continue; // a critique file's extension is not read
  cases.push(["critique file", kind, ["critique", GRAPH, f, "--fingerprint", "0".repeat(64)]]);
}
for (const [kind, f] of badFiles("rq")) cases.push(["check", kind, ["check", f, "--schema", KG]]);
for (const [kind, f] of badFiles("md")) {
  if (kind === "a 1 MB line") continue; // valid markdown
  cases.push(["fragments", kind, ["fragments", f]]);
  cases.push(["cite", kind, ["cite", f, VERSION_ID]]);
}
// npm test: a cover of the command × bad-file matrix (every command and every kind of bad file
// keeps a case: first the cases whose command and kind are both new, then a case for each one
// still missing) and the cases after the matrix but those marked `deep` below, which other files
// run in npm test with the exact message; npm run test:deep (test/depth.ts): all of it.
const MATRIX = cases.length;
function cover(matrix: typeof cases): typeof cases {
  const commands = new Set<string>();
  const kinds = new Set<string>();
  const picked = new Set<number>();
  for (const pass of ["both new", "either new"]) {
    matrix.forEach(([command, kind], j) => {
      const fresh = [!commands.has(command), !kinds.has(kind)];
      if (pass === "both new" ? fresh[0] && fresh[1] : fresh[0] || fresh[1]) {
        picked.add(j);
        commands.add(command);
        kinds.add(kind);
      }
    });
  }
  return matrix.filter((_, j) => picked.has(j));
}
/** After the matrix, the cases npm test leaves to test:deep: the file named runs each in npm test, its message checked whole. */
const deepOnly = new Set<(typeof cases)[number]>();
const deep = (c: (typeof cases)[number], _file: string): (typeof cases)[number] => (deepOnly.add(c), c);
cases.push(
  ["critique file", "deep JSON", ["critique", GRAPH, deepJson, "--fingerprint", "0".repeat(64)]],
  deep(["check", "deep JSON plan", ["check", deepJson, "--schema", KG]], "test/io/cli-io.test.ts"),
  deep(["check", "deep JSON goal", ["check", join(dir, "latin1.rq"), "--schema", KG, "--goal", deepJson]], "test/io/cli-io.test.ts"),
  deep(["prove", "deep JSON script", ["prove", "q?", "--kg", KG, "--script", deepJson]], "test/io/cli-io.test.ts"),
  deep(["index", "stdin without --format", ["index", "-"]], "test/io/cli-io.test.ts"),
  ["index", "unknown --format", ["index", "-", "--format", "rdfxml"]],
  ["fragments", "stdin without --format", ["fragments", "-", "--artifact", "doc"]],
  ["fragments", "stdin without --artifact", ["fragments", "-", "--format", "md"]],
  deep(["critique", "-o a folder", ["critique", GRAPH, emptyCritique, "--fingerprint", "0".repeat(64), "-o", dir]], "test/io/cli-io.test.ts"),
  ["critique", "-o the input", ["critique", GRAPH, emptyCritique, "--fingerprint", "0".repeat(64), "-o", GRAPH]],
  ["critique", "bad fingerprint", ["critique", GRAPH, emptyCritique, "--fingerprint", "x".repeat(100_000)]],
  ["render", "bad --hops", ["render", GRAPH, "ex:a", "--hops", "1e9"]],
  ["render", "unknown focus", ["render", GRAPH, "\u001b[2J:nope"]],
  ["cite", "bad version id", ["cite", DOC, "nope"]],
  ["moot", "unknown book", ["moot", "novel/nope", "diary/pepys-1660"]],
  deep(["moot", "--turns too large", ["moot", "novel/frankenstein", "diary/pepys-1660", "--turns", "99999999999999999999"]], "test/io/cli-io.test.ts"),
  ["moot", "--json into a missing folder", ["moot", "novel/frankenstein", "diary/pepys-1660", "--json", join(dir, "no", "t.json")]],
  ["moot", "--corpus a device", ["moot", "novel/frankenstein", "diary/pepys-1660", "--corpus", "/dev/zero"]],
  ["books", "--corpus missing", ["books", "--corpus", join(dir, "none")]],
  ["books", "an extra argument", ["books", "extra"]],
  ["prove", "--max-turns 0", ["prove", "q?", "--kg", KG, "--max-turns", "0"]],
  ["bench", "--json without --installed", ["bench", "--json"]],
  // serve reads the model configuration moot and prove read (one checked --base-url, --timeout, key file)
  ["serve", "--base-url not http(s)", ["serve", "--port", "0", "--base-url", "ftp://models.example/v1"]],
  ["serve", "--timeout not a number", ["serve", "--port", "0", "--timeout", "soon"]],
  ["mcp", "--graph missing", ["mcp", "--graph", join(dir, "none.ttl")]],
  ["<none>", "unknown command", ["\u001b[2Jnope"]],
);

describe.concurrent("bad-input sweep over every CLI command", () => {
  it.each(DEEP ? cases : [...cover(cases.slice(0, MATRIX)), ...cases.slice(MATRIX).filter((c) => !deepOnly.has(c))])("%s: %s", async (_command, _kind, args) => {
    const r = await gw(args, { limitMs: BOUND_MS });
    const command = args[0].startsWith("\u001b") ? null : args[0];
    expect(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.stderr.slice(0, 300)}`).toBe(true);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(command ? new RegExp(`^groundwire ${command}: [^\\n]+\\n$`) : /^groundwire: [^\n]+\n$/);
    expect(r.stderr.length).toBeLessThan(2200);
    expect(r.stderr).not.toMatch(/\n\s+at |Maximum call stack|Cannot read properties|bad_alloc|out of bounds|EISDIR|ENOSPC/);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  }, BOUND_MS + 10_000);
});
