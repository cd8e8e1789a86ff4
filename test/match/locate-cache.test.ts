// locate's on-disk quote index (ts/cli/quote-index-cache.ts), through the built CLI: written on
// the first call, read on the next, a new one when a book changes, a corrupt file rebuilt.
// (Its timing is measured by hand and in the docs, never asserted here.)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { quoteIndexFromBytes, quoteIndexToBytes, createQuoteIndex } from "../../ts/match/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = `${ROOT}dist/cli.js`;
const BOOK = "test/fixtures/moot/extra-books/essay__harbour-fire.txt";

function locate(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, "locate", ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const bins = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".bin")).sort() : []);

describe("quote index snapshot (quoteIndexToBytes / quoteIndexFromBytes)", () => {
  it("a loaded index answers as the one it was made from; a cut-short snapshot is refused", () => {
    const texts = ["It was a dark and stormy night; the rain fell in torrents.", "The harbour burned, and the tar barrels with it."];
    const built = createQuoteIndex(texts);
    const bytes = quoteIndexToBytes(built);
    const loaded = quoteIndexFromBytes(Buffer.from(bytes));
    for (const q of ["a dark and stormy night", "the harbor burned and the tar", "rain fell in torrents"]) {
      expect(loaded.locate(q, { minRatio: 0.6 })).toEqual(built.locate(q, { minRatio: 0.6 }));
    }
    expect(() => quoteIndexFromBytes(bytes.subarray(0, bytes.length - 5))).toThrow(RangeError);
  });
});

describe.skipIf(!existsSync(CLI))("locate's cache on disk (dist/cli.js)", () => {
  it("writes the index once, reads it after, makes a new one when a book changes and rebuilds a corrupt one", () => {
    const cache = mkdtempSync(join(tmpdir(), "gw-cache-"));
    const corpus = mkdtempSync(join(tmpdir(), "gw-corpus-"));
    copyFileSync(join(ROOT, BOOK), join(corpus, "essay__harbour-fire.txt"));
    const args = ["a town which keeps its tar beside its timber", "--corpus", corpus, "--cache-dir", cache, "--json"];
    const fresh = locate([...args.slice(0, 3), "--no-cache", "--json"]);
    expect(fresh.code).toBe(0);
    expect(bins(cache)).toEqual([]);

    const first = locate([...args, "--progress"]);
    expect(first.stdout).toBe(fresh.stdout);
    expect(first.stderr).toContain("building the quote index of 1 books");
    const [file] = bins(cache);
    expect(file).toMatch(/^quote-index-[0-9a-f]{32}\.bin$/);
    const written = statSync(join(cache, file!)).mtimeMs;

    const second = locate([...args, "--progress"]);
    expect(second.stdout).toBe(fresh.stdout);
    expect(second.stderr).not.toContain("building");
    expect(statSync(join(cache, file!)).mtimeMs).toBe(written);

    // a corrupt file (cut short, then one byte changed) is never trusted: rebuilt to the same answer
    const size = statSync(join(cache, file!)).size;
    truncateSync(join(cache, file!), size - 100);
    const afterCut = locate([...args, "--progress"]);
    expect(afterCut.stdout).toBe(fresh.stdout);
    expect(afterCut.stderr).toContain("building");
    expect(statSync(join(cache, file!)).size).toBe(size);
    const bytes = readFileSync(join(cache, file!));
    bytes[1000] ^= 0xff;
    writeFileSync(join(cache, file!), bytes);
    expect(locate([...args, "--progress"]).stderr).toContain("building");

    // a changed book names another file, and the answer follows the book
    const text = readFileSync(join(corpus, "essay__harbour-fire.txt"), "utf8");
    writeFileSync(join(corpus, "essay__harbour-fire.txt"), text.replace("keeps its tar beside its timber", "keeps its pitch beside its timber"));
    const changed = locate([...args, "--progress", "--min-ratio", "0.7"]);
    expect(changed.stderr).toContain("building");
    expect(bins(cache)).toHaveLength(2);
    expect((JSON.parse(changed.stdout) as { text: string }[])[0]!.text).toContain("keeps its pitch beside its timber");
  });
});
