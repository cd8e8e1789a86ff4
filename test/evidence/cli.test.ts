// The two commands on real files (the awesome fixtures), run in-process.
import { afterEach, describe, expect, it, vi } from "vitest";
import fragmentsCommand from "../../ts/cli/fragments.js";
import citeCommand from "../../ts/cli/cite.js";
import { defaultArtifactId, loadDocumentFile } from "../../ts/evidence/node.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const V1 = new URL("../fixtures/evidence/awesome-v001.md", import.meta.url).pathname;
const V2 = new URL("../fixtures/evidence/awesome-v002.md", import.meta.url).pathname;

async function capture(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await run(), out };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("groundwire fragments / cite", () => {
  it("fragments lists version id, line, nesting, kind:anchor and first words", async () => {
    const { code, out } = await capture(() => fragmentsCommand.run([V1, "--artifact", "awesome"]));
    expect(code).toBe(0);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^awesome {2}text\/markdown {2}3936 bytes {2}sha256:80123cd5e87f3a35[0-9a-f]{48} {2}136 fragments$/);
    expect(lines).toHaveLength(137);
    expect(lines[3]).toMatch(/^[0-9a-f]{64}#sha256:95c58a1c791b00459d3d4aaebdcd750d557945f523b3b0cc1f05efd2ae7f9c61 {2}L3 {7}paragraph:1 {2}"A curated list of awesome lists"$/);
  });

  it("fragments --json carries the fields and no text", async () => {
    const { out } = await capture(() => fragmentsCommand.run([V1, "--artifact", "awesome", "--json"]));
    const parsed = JSON.parse(out);
    expect(parsed.artifact.artifactId).toBe("awesome");
    expect(parsed.fragments).toHaveLength(136);
    expect(parsed.fragments[2]).toMatchObject({ path: "section:awesome/quote:1/paragraph:1", kind: "paragraph", firstWords: "A curated list of awesome lists", line: 3, depth: 2 });
    expect(parsed.fragments[2].text).toBeUndefined();
  });

  it("cite resolves citations made on v001 against v002: current, moved (new address), stale; exit 1 when any is stale", async () => {
    const { out } = await capture(() => fragmentsCommand.run([V1, "--artifact", "awesome", "--json"]));
    const v1 = JSON.parse(out).fragments as { versionId: string; path: string }[];
    const pick = (path: string) => v1.find((f) => f.path === path)!.versionId;
    const quote = pick("section:awesome/quote:1");
    const cpp = pick("section:awesome/section:programming-languages/list:1/item:13"); // "- [C/C++](…)": an item was inserted above it
    const head = pick("section:awesome");
    const { code, out: text } = await capture(() => citeCommand.run([V2, quote, cpp, head, "--artifact", "awesome", "--json"]));
    expect(code).toBe(1);
    const rows = JSON.parse(text) as { status: string; fragment: { path: string; versionId: string } | null }[];
    expect(rows.map((r) => r.status)).toEqual(["current", "moved", "stale"]);
    expect(rows[1].fragment!.path).toBe("section:awesome/section:programming-languages/list:1/item:14");
    expect(rows[1].fragment!.versionId.split("#")[1]).toBe(cpp.split("#")[1]);
    const human = await capture(() => citeCommand.run([V2, quote, cpp, "--artifact", "awesome"]));
    expect(human.code).toBe(0);
    expect(human.out).toContain(`current  ${quote}\n         section:awesome/quote:1  L3\n`);
    expect(human.out).toContain(`moved    ${cpp}\n         now at ${rows[1].fragment!.path}`);
  });

  it("cite warns on stderr when no address exists under the artifact id in use (citations made with another --artifact)", async () => {
    const { out } = await capture(() => fragmentsCommand.run([V1, "--artifact", "awesome", "--json"]));
    const quote = (JSON.parse(out).fragments as { versionId: string; path: string }[]).find((f) => f.path === "section:awesome/quote:1")!.versionId;
    let err = "";
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    try {
      const without = await capture(() => citeCommand.run([V2, quote]));
      expect(without.out).toMatch(/^moved {4}/);
      expect(err).toBe(`groundwire cite: none of the 1 citation address(es) exists in ${V2} under the artifact id ${JSON.stringify(defaultArtifactId(V2))}; were they made with another --artifact (or another path)? Pass the same --artifact as when citing.\n`);
      err = "";
      await capture(() => citeCommand.run([V2, quote, "--artifact", "awesome"]));
      expect(err).toBe("");
      // Every citation lost (made under another id, and their content changed since): the same warning.
      const ids = (JSON.parse(out).fragments as { versionId: string }[]).map((f) => f.versionId);
      const underAwesome = JSON.parse((await capture(() => citeCommand.run([V2, ...ids, "--artifact", "awesome", "--json"]))).out) as { versionId: string; status: string }[];
      const stale = underAwesome.filter((r) => r.status === "stale").map((r) => r.versionId);
      expect(stale.length).toBeGreaterThan(0);
      err = "";
      const lost = await capture(() => citeCommand.run([V2, ...stale, "--json"]));
      expect((JSON.parse(lost.out) as { status: string }[]).every((r) => r.status === "lost")).toBe(true);
      expect(err).toContain(`groundwire cite: none of the ${stale.length} citation address(es) exists in ${V2}`);
    } finally {
      spy.mockRestore();
    }
  });

  it("bad input: one clear error", async () => {
    await expect(fragmentsCommand.run([])).rejects.toThrow("fragments: expected one file, got 0");
    await expect(fragmentsCommand.run(["/nonexistent/x.md"])).rejects.toThrow("fragments: no such file: /nonexistent/x.md");
    await expect(fragmentsCommand.run(["report.pdf"])).rejects.toThrow("fragments: fragmenting application/pdf (report.pdf) is not supported yet");
    await expect(citeCommand.run([V2, "abc"])).rejects.toThrow('cite: not a citation: "abc" (expected <fragmentId>#sha256:<hex>)');
    await expect(citeCommand.run([V2])).rejects.toThrow("cite: expected a file and at least one version id");
  });

  it("a file with a byte-order mark: offsets index its text as readFileSync(path, \"utf8\") gives it (the BOM kept), markdown and plain text", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-bom-"));
    for (const [name, content] of [["bom.md", "\uFEFF# Pricing\n\nThe fee is 10\n"], ["bom.txt", "\uFEFFThe fee is 10.\n\nPaid monthly.\n"]]) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const given = readFileSync(file, "utf8");
      expect(given.charCodeAt(0)).toBe(0xfeff);
      const { text, fragments } = loadDocumentFile(file, { artifactId: "a" });
      expect(text).toBe(given);
      for (const f of fragments) expect(given.slice(f.start, f.end), `${name} ${f.path}`).toBe(f.text);
      const { out } = await capture(() => fragmentsCommand.run([file, "--artifact", "a", "--json"]));
      const last = JSON.parse(out).fragments.at(-1);
      expect(given.slice(last.start, last.end), name).toBe(name.endsWith(".md") ? "The fee is 10" : "Paid monthly.");
    }
  });
});

