// groundwire slice, the default artifact id (one file, one id however it is named) and the nesting
// limit as one CLI line, run in-process on the awesome fixtures and files in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Parser } from "n3";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import fragmentsCommand from "../../ts/cli/fragments.js";
import sliceCommand from "../../ts/cli/slice.js";
import citeCommand from "../../ts/cli/cite.js";
import { CliError } from "../../ts/cli/common.js";
import { defaultArtifactId } from "../../ts/evidence/node.js";

const V1 = new URL("../fixtures/evidence/awesome-v001.md", import.meta.url).pathname;
const TMP = mkdtempSync(join(tmpdir(), "gw-slice-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function capture(run: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    return { code: await run(), out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("groundwire slice", () => {
  it("prints N-Quads in the artifact's named graph: one Artifact, every fragment, parseable by n3", async () => {
    const { code, out } = await capture(() => sliceCommand.run([V1, "--artifact", "awesome"]));
    expect(code).toBe(0);
    const quads = new Parser({ format: "N-Quads" }).parse(out);
    const graphs = new Set(quads.map((q) => q.graph.value));
    expect([...graphs]).toEqual(["urn:groundwire:artifact:awesome"]);
    const fragments = quads.filter((q) => q.predicate.value.endsWith("#hasFragment"));
    expect(fragments).toHaveLength(136);
  });

  it("--format turtle --validate: Turtle on stdout, a conforming report on stderr, exit 0", async () => {
    const { code, out, err } = await capture(() => sliceCommand.run([V1, "--artifact", "awesome", "--format", "turtle", "--validate"]));
    expect(code).toBe(0);
    expect(out).toContain("@prefix gwe: <https://w3id.org/groundwire/evidence#>.");
    expect(new Parser({ format: "Turtle" }).parse(out).length).toBeGreaterThan(136 * 10);
    expect(err).toMatch(/^groundwire slice: the slice conforms to the evidence shapes \(\d+ quads, 136 fragments\)\n$/);
  });

  it("refuses an unknown format in one line, exit 2", async () => {
    await expect(sliceCommand.run([V1, "--format", "rdfxml"])).rejects.toThrow(new CliError('slice: --format must be nquads or turtle (nq, ttl), not "rdfxml"', 2));
  });
});

describe("standard input has no path to key its artifact: --artifact is required", () => {
  it("fragments, slice and cite refuse - and /dev/stdin without --artifact, exit 2, before reading", async () => {
    for (const stdin of ["-", "/dev/stdin"]) {
      for (const [name, run] of [
        ["fragments", () => fragmentsCommand.run([stdin, "--format", "md"])],
        ["slice", () => sliceCommand.run([stdin, "--input-format", "md"])],
        ["cite", () => citeCommand.run([stdin, `${"a".repeat(64)}#sha256:${"b".repeat(64)}`, "--format", "md"])],
      ] as const) {
        await expect(run()).rejects.toThrow(new CliError(`${name}: reading standard input needs --artifact ID (the key the document's citations are scoped to)`, 2));
      }
    }
  });
});

describe("the default artifact id is the same for one file however it is named", () => {
  it("inside a git work tree: the path relative to its root (found by walking up to .git)", async () => {
    const repo = join(TMP, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "docs"), { recursive: true });
    const file = join(repo, "docs", "doc.md");
    writeFileSync(file, "# Pricing\n\nThe fee is 10\n");
    symlinkSync(file, join(TMP, "link.md"));
    const names = [file, join(repo, "docs", "..", "docs", "doc.md"), relative(process.cwd(), file), join(TMP, "link.md")];
    for (const n of names) expect(defaultArtifactId(n)).toBe("docs/doc.md");
    const ids = new Set<string>();
    for (const n of names) {
      const { out } = await capture(() => fragmentsCommand.run([n, "--json"]));
      const parsed = JSON.parse(out);
      expect(parsed.artifact.artifactId).toBe("docs/doc.md");
      ids.add(parsed.fragments.map((f: { versionId: string }) => f.versionId).join(","));
    }
    expect(ids.size).toBe(1);
  });

  it("outside a work tree: the real path (the worktree of this repo is not used for a temp file)", () => {
    const loose = mkdtempSync(join(tmpdir(), "gw-loose-"));
    try {
      const file = join(loose, "a.md");
      writeFileSync(file, "text\n");
      const id = defaultArtifactId(join(loose, ".", "a.md"));
      expect(id.endsWith("/a.md")).toBe(true);
      expect(id.startsWith("/")).toBe(true);
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });
});

describe("deep nesting through the CLI", () => {
  it("'> ' × 2000 gives one line naming the file, the limit and the line, exit 1", async () => {
    const file = join(TMP, "deep.md");
    writeFileSync(file, `intro\n\n${"> ".repeat(2000)}x\n`);
    await expect(fragmentsCommand.run([file])).rejects.toThrow(new CliError(`fragments: ${file}: nesting deeper than 1,000 at line 3`, 1));
  });
});
