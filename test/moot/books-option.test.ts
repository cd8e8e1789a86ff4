// `--books DIR` (repeatable) adds a folder's books to the corpus; `--corpus DIR` replaces it.
// Run as the built CLI (node dist/cli.js) on the repo's fixture book test/fixtures/moot/extra-books.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spread } from "../depth.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = `${ROOT}dist/cli.js`;
const EXTRA = "test/fixtures/moot/extra-books";

function run(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_STORE"]) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!existsSync(CLI))("--books DIR adds to the corpus, --corpus DIR replaces it (dist/cli.js)", () => {
  it("books --books lists the bundled books and the added one; --corpus lists only its folder's", () => {
    const added = run(["books", "--books", EXTRA]);
    expect(added.code).toBe(0);
    expect(added.stdout.trim().split("\n").map((l) => l.split(/\s+/)[0])).toEqual(["diary/pepys-1660", "essay/harbour-fire", "novel/frankenstein"]);
    const replaced = run(["books", "--corpus", EXTRA]);
    expect(replaced.stdout.trim().split("\n").map((l) => l.split(/\s+/)[0])).toEqual(["essay/harbour-fire"]);
  });

  it("a moot between an added book and a bundled one runs, each quoting its own book", () => {
    const r = run(["moot", "essay/harbour-fire", "novel/frankenstein", "--books", EXTRA, "--topic", "fire", "--turns", "2", "--json", "-"]);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout) as { utterances: { speaker: string; grounded: boolean; cited: Record<string, string> }[] };
    expect(t.utterances.map((u) => u.speaker)).toEqual(["essay/harbour-fire", "novel/frankenstein"]);
    expect(t.utterances.every((u) => u.grounded && Object.keys(u.cited).length > 0)).toBe(true);
  });

  it("locate --books finds a quote of the added book, with its label", () => {
    const r = run(["locate", "a town which keeps its tar beside its timber", "--books", EXTRA, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const [span] = JSON.parse(r.stdout) as { source: string; passages: string[]; ratio: number }[];
    expect(span).toMatchObject({ source: "essay/harbour-fire", ratio: 1 });
    expect(span!.passages).toEqual(["Chapter 1"]);
  });

  it("a key in two folders is a clear error naming both; a folder given twice is a usage error", () => {
    const dup = mkdtempSync(join(tmpdir(), "gw-books-"));
    copyFileSync(join(ROOT, EXTRA, "essay__harbour-fire.txt"), join(dup, "essay__harbour-fire.txt"));
    const r = run(["books", "--books", EXTRA, "--books", dup]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`book key "essay/harbour-fire" is in two corpus folders, ${join(ROOT, EXTRA)} and ${dup}`);
    const twice = run(["books", "--books", EXTRA, "--books", EXTRA]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("is given twice");
    const store = run(["books", "--books", EXTRA, "--store", "postgres://127.0.0.1:1/none"]);
    expect(store.code).toBe(2);
    expect(store.stderr).toContain("give --books or --store, not both");
  });

  it("--help of every command reading the corpus says --corpus replaces and --books adds", () => {
    // npm test: the first and the last of them; npm run test:deep (test/depth.ts): all five
    for (const command of spread(["moot", "books", "locate", "serve", "mcp"], 2)) {
      const r = run([command, "--help"]);
      expect(r.stdout + r.stderr, command).toMatch(/--corpus DIR +use the <genre>__<book>\.txt files of DIR instead of the bundled data\/books \(replaces them\)/);
      expect(r.stdout + r.stderr, command).toMatch(/--books DIR +add the <genre>__<book>\.txt files of DIR to the corpus/);
    }
  });
});
