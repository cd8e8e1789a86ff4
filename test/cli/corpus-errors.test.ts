// A --corpus folder (or a book or entries file in it) that is a symbolic link loop, a
// dangling link, a FIFO or unreadable: one line naming the path and what it is, in every
// command that reads the corpus (locate, books, moot, mcp, serve). `locate --corpus` used to
// print node's "ELOOP: too many symbolic links encountered, stat '…'".
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeFsError, loadBooks } from "../../ts/moot/corpus-node.js";
import { gw } from "../io/run-cli.js";
import { DEEP } from "../depth.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "gw-corpus-"));
const loopDir = join(dir, "loop-dir");
symlinkSync("loop-dir", loopDir);
const danglingDir = join(dir, "dangling-dir");
symlinkSync("gone", danglingDir);
/** A corpus folder holding one good book and `name` made by `make`. */
function corpus(label: string, make: (folder: string) => void): string {
  const folder = join(dir, label);
  mkdirSync(folder);
  copyFileSync(join(ROOT, "data/books/novel__frankenstein.txt"), join(folder, "novel__frankenstein.txt"));
  make(folder);
  return folder;
}
const bookLoop = corpus("book-loop", (f) => symlinkSync("novel__z.txt", join(f, "novel__z.txt")));
const bookDangling = corpus("book-dangling", (f) => symlinkSync("nowhere.txt", join(f, "novel__z.txt")));
const entriesLoop = corpus("entries-loop", (f) => symlinkSync("novel__frankenstein.entries.json", join(f, "novel__frankenstein.entries.json")));
const entriesFifo = corpus("entries-fifo", (f) => execFileSync("mkfifo", [join(f, "novel__frankenstein.entries.json")]));

const LOOP = "is a symbolic link loop (too many levels of links)";
const cases: Array<[string, string]> = [
  [loopDir, `corpus folder ${loopDir} ${LOOP}`],
  [danglingDir, `corpus folder ${danglingDir} is a symbolic link to "gone", which does not exist`],
  [bookLoop, `${join(bookLoop, "novel__z.txt")}: ${LOOP}`],
  [bookDangling, `${join(bookDangling, "novel__z.txt")}: is a symbolic link to "nowhere.txt", which does not exist`],
  [entriesLoop, `${join(entriesLoop, "novel__frankenstein.entries.json")}: ${LOOP}`],
  [entriesFifo, `${join(entriesFifo, "novel__frankenstein.entries.json")}: not a regular file`],
];

describe("loadBooks and describeFsError", () => {
  it.each(cases)("%s", (folder, message) => {
    expect(() => loadBooks(folder)).toThrow(expect.objectContaining({ name: "CorpusError", message }));
  });

  it("names permission and path errors in words (root reads every folder, so these are given as errors)", () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(describeFsError(join(dir, "x"), err("EACCES"))).toBe("cannot be read: permission denied");
    expect(describeFsError(join(dir, "x"), err("EPERM"))).toBe("cannot be read: permission denied");
    expect(describeFsError(join(dir, "x"), err("ENOTDIR"))).toBe("is not in a folder (a part of the path is a file)");
    expect(describeFsError(join(dir, "x"), err("ENOENT"))).toBe("does not exist");
    expect(describeFsError(join(dir, "x"), err("EIO"))).toBe("cannot be read (EIO)");
  });
});

describe.concurrent("every command that reads the corpus (dist/cli.cjs)", () => {
  const commands: Array<[string, (folder: string) => string[]]> = [
    ["locate", (f) => ["locate", "some words here", "--corpus", f]],
    ["books", (f) => ["books", "--corpus", f]],
    ["moot", (f) => ["moot", "novel/frankenstein", "novel/z", "--corpus", f]],
    ["mcp", (f) => ["mcp", "--corpus", f]],
    ["serve", (f) => ["serve", "--port", "0", "--corpus", f]],
  ];
  const runs: Array<[string, string, string[], string]> = [];
  // npm test: every case once and every command at least once (case i through command i mod 5);
  // npm run test:deep (test/depth.ts): every case through every command
  cases.forEach(([folder, message], i) =>
    commands.forEach(([name, argv], c) => {
      if (DEEP || c === i % commands.length) runs.push([name, folder.slice(dir.length + 1), argv(folder), `groundwire ${name}: ${message}\n`]);
    }),
  );
  it.each(runs)("%s: %s", async (_name, _folder, args, line) => {
    const r = await gw(args, { limitMs: 20_000 });
    expect(r.stderr).toBe(line);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  }, 30_000);
});
