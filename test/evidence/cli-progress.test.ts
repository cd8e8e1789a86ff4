// Progress on stderr for large files: only on a terminal, never with --quiet or when piped.
// The file is 5 MB of real documents (the CommonMark spec and system-design-primer versions).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import fragmentsCommand from "../../ts/cli/fragments.js";
import { spread } from "../depth.js";

const MARKDOWN = new URL("../../../shared/data/markdown/", import.meta.url);
let dir = "";
let big = "";
let stderr = "";
const isTTY = process.stderr.isTTY;

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(process.stderr, "isTTY", { value: isTTY, configurable: true });
});

async function run(args: string[], tty: boolean): Promise<number> {
  stderr = "";
  Object.defineProperty(process.stderr, "isTTY", { value: tty, configurable: true });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  return fragmentsCommand.run(args);
}

describe.skipIf(!existsSync(MARKDOWN))("fragments progress (skipped: ../shared/data is absent)", () => {
  beforeAll(() => {
    const docs = [readFileSync(new URL("commonmark/spec.txt", MARKDOWN), "utf8")];
    const primer = new URL("system-design-primer/", MARKDOWN);
    for (const n of readdirSync(primer).filter((n) => n.endsWith(".md")).sort()) docs.push(readFileSync(new URL(n, primer), "utf8"));
    let text = "";
    for (let i = 0; text.length < 5_000_000; i++) text += `${docs[i % docs.length]}\n\n`;
    dir = mkdtempSync(join(tmpdir(), "gw-progress-"));
    big = join(dir, "big.md");
    writeFileSync(big, text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("on a terminal, a 5 MB file gets a start line and a done line with the fragment count", async () => {
    expect(await run([big, "--artifact", "big"], true)).toBe(0);
    expect(stderr).toMatch(/^groundwire fragments: fragmenting .*big\.md \(5\.\d MB\)…\ngroundwire fragments: \d{5,} fragments in \d+\.\d s\n$/);
  });

  it("is silent with --quiet, with -q, and when stderr is not a terminal", async () => {
    // npm test: --quiet on a terminal and no option on a pipe; npm run test:deep (test/depth.ts): -q too
    const cases: Array<[string[], boolean]> = [[["--quiet"], true], [["-q"], true], [[], false]];
    for (const [options, tty] of spread(cases, 2)) {
      expect(await run([big, "--artifact", "big", ...options], tty)).toBe(0);
      expect(stderr).toBe("");
    }
  });
});
