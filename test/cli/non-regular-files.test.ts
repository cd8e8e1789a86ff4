// A folder, a device or a FIFO given where a file is read, with no extension (so no format
// to name), in a folder whose name has a dot: every command names what it is, one line, and
// never reads /dev/zero or waits on a FIFO. `fragments dir1` used to say "fragmenting
// application/octet-stream (dir1) is not supported yet"; `serve --token-file /dev/zero` and
// `moot --api-key-file <fifo>` never returned; `mcp --graph a.b/dir` named an "extension .b/dir".
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gw } from "../io/run-cli.js";
import { DEEP } from "../depth.js";

const dir = mkdtempSync(join(tmpdir(), "gw-nonregular-"));
const parent = join(dir, "docs.v2");
mkdirSync(join(parent, "chapter"), { recursive: true });
const folder = join(parent, "chapter");
const fifo = join(parent, "pipe");
execFileSync("mkfifo", [fifo]);

const KG = "test/fixtures/kernel/olympics.ttl";
const VERSION_ID = `${"a".repeat(64)}#sha256:${"b".repeat(64)}`;
const FINGERPRINT = "0".repeat(64);
const NOT_REGULAR = "is not a regular file (a device, FIFO or socket); pass - to read standard input";

/** [what, argv with F for the path, the message after `<path>` or `--option <path>`, exit code, how the path is named]. */
const commands: Array<[string, (f: string) => string[], (f: string) => string, number]> = [
  ["fragments", (f) => ["fragments", f], (f) => `fragments: ${f}`, 1],
  ["fragments --format md", (f) => ["fragments", f, "--format", "md"], (f) => `fragments: ${f}`, 1],
  ["slice", (f) => ["slice", f], (f) => `slice: ${f}`, 1],
  ["cite", (f) => ["cite", f, VERSION_ID], (f) => `cite: ${f}`, 1],
  ["index", (f) => ["index", f], (f) => `index: ${f}`, 1],
  ["render", (f) => ["render", f, "ex:a"], (f) => `render: ${f}`, 1],
  ["check", (f) => ["check", f, "--schema", KG], (f) => `check: ${f}`, 1],
  ["critique graph", (f) => ["critique", f, "c.json", "--fingerprint", FINGERPRINT], (f) => `critique: ${f}`, 1],
  ["critique file", (f) => ["critique", KG, f, "--fingerprint", FINGERPRINT], (f) => `critique: ${f}`, 1],
  ["prove --kg", (f) => ["prove", "q?", "--kg", f], (f) => `prove: kg: ${f}`, 1],
  ["prove --script", (f) => ["prove", "q?", "--kg", KG, "--script", f], (f) => `prove: script ${f}`, 1],
  ["moot --api-key-file", (f) => ["moot", "novel/frankenstein", "diary/pepys-1660", "--api-key-file", f], (f) => `moot: --api-key-file ${f}`, 2],
  ["serve --token-file", (f) => ["serve", "--port", "0", "--token-file", f], (f) => `serve: --token-file ${f}`, 2],
  ["mcp --graph", (f) => ["mcp", "--graph", f], (f) => `mcp: ${f}`, 1],
  ["serve --graph", (f) => ["serve", "--port", "0", "--graph", `g=${f}`], (f) => `serve: ${f}`, 1],
];

// npm test: each command with one of the three kinds, in turn (so every command and every kind
// runs, each kind on five commands); npm run test:deep (test/depth.ts): every command with all three
const cases: Array<[string, string, string[], string, number]> = [];
for (const [i, [what, argv, named, code]] of commands.entries()) {
  const kinds: Array<[string, string, string]> = [
    ["a folder", folder, "is a directory, not a file"],
    ["/dev/zero", "/dev/zero", NOT_REGULAR],
    ["a FIFO", fifo, NOT_REGULAR],
  ];
  for (const [k, [kind, path, message]] of kinds.entries()) if (DEEP || k === i % 3) cases.push([what, kind, argv(path), `groundwire ${named(path)}: ${message}\n`, code]);
}

describe.concurrent("a folder, /dev/zero or a FIFO where a file is read (dist/cli.cjs)", () => {
  it.each(cases)("%s: %s", async (_what, _kind, args, line, code) => {
    const r = await gw(args, { limitMs: 20_000 });
    expect(r.stderr).toBe(line);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe("");
  }, 30_000);
});

describe("the library loaders name a folder or a FIFO before the format", () => {
  it("loadDocumentFile, loadGraphFile and formatFromPath", async () => {
    const { loadDocumentFile } = await import("../../ts/evidence/node.js");
    const { loadGraphFile } = await import("../../ts/rdf/load.js");
    const { formatFromPath } = await import("../../ts/rdf/graph.js");
    expect(() => loadDocumentFile(folder)).toThrow(expect.objectContaining({ name: "InputFileError", kind: "EISDIR", message: `${folder}: is a directory, not a file` }));
    expect(() => loadDocumentFile(fifo)).toThrow(expect.objectContaining({ name: "InputFileError", kind: "NOTREGULAR", message: `${fifo}: ${NOT_REGULAR}` }));
    expect(() => loadGraphFile(fifo)).toThrow(expect.objectContaining({ name: "InputFileError", kind: "NOTREGULAR" }));
    expect(() => formatFromPath(join(parent, "data"))).toThrow(`unknown RDF format for ${join(parent, "data")}: extension (none) (expected .ttl, .nt, .nq or .trig)`);
    expect(() => formatFromPath("a.b\\data.xml")).toThrow("unknown RDF format for a.b\\data.xml: extension .xml (expected .ttl, .nt, .nq or .trig)");
  });
});
