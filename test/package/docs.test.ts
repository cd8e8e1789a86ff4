/**
 * The README is the front door and docs/<part>.md hold each part's contract, API and
 * figures. This suite keeps them honest:
 * - every relative link in README.md and docs/*.md points at a file or folder that exists,
 *   and a `#fragment` names a heading of the target (GitHub's anchor rule);
 * - every command in the README's "Two commands" block is an npm script (or npm's own
 *   `ci`/`test`) of package.json;
 * - every `groundwire <command>` the README shows is a command the CLI lists in its help;
 * - every page is short enough to read in one sitting: at most 30,000 bytes (issue 37).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const README = join(ROOT, "README.md");
const DOCS = join(ROOT, "docs");
const pages = [README, ...readdirSync(DOCS).filter((f) => f.endsWith(".md")).map((f) => join(DOCS, f))];
/** The most bytes a page may hold. */
const PAGE_BYTES = 30_000;

/** The text of a markdown file with fenced code blocks blanked out (links there are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
}

/** Inline links and images `[text](target)` of a markdown text; inline code spans are skipped. */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** GitHub's heading anchors: lower-case, punctuation dropped, spaces to '-', duplicates -1, -2… */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const slug = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe("README and docs: links", () => {
  it("the README is a front door, the parts' reference lives in docs/", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme.length).toBeLessThan(12_000);
    for (const part of ["moot", "triple-index", "kernel", "memdsl", "evidence", "package", "bench"]) {
      expect(existsSync(join(DOCS, `${part}.md`)), `docs/${part}.md`).toBe(true);
      expect(links(readme), `README links docs/${part}.md`).toContain(`docs/${part}.md`);
    }
  });

  it("every page of README.md and docs/ is at most 30,000 bytes", () => {
    // a reference is read in one sitting: a page over the limit is split (a part's results, a
    // long section that belongs to another page), not trimmed of contract
    const over = pages.map((page) => ({ page: relative(ROOT, page), bytes: statSync(page).size })).filter((p) => p.bytes > PAGE_BYTES);
    expect(over.map((p) => `${p.page}: ${p.bytes.toLocaleString("en")} bytes`), `pages over ${PAGE_BYTES.toLocaleString("en")} bytes`).toEqual([]);
  });

  for (const page of pages) {
    const name = relative(ROOT, page);
    it(`${name}: every relative link resolves`, () => {
      const text = readFileSync(page, "utf8");
      const found = links(text);
      const broken: string[] = [];
      for (const target of found) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [path, fragment] = target.split("#", 2);
        const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
        if (!existsSync(file)) {
          broken.push(`${target} (no such file ${relative(ROOT, file)})`);
          continue;
        }
        if (fragment !== undefined && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(fragment)) {
          broken.push(`${target} (no heading #${fragment} in ${relative(ROOT, file)})`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it("the anchor rule matches GitHub's on this repo's headings", () => {
    expect(anchors("## The package: Node, bundlers, a plain `<script type=\"module\">`\n## A\n## A\n")).toEqual(
      new Set(["the-package-node-bundlers-a-plain-script-typemodule", "a", "a-1"]),
    );
    expect(links("see [x](docs/a.md#b) and `[y](no.md)`\n```\n[z](code.md)\n```\n")).toEqual(["docs/a.md#b"]);
  });
});

describe("README: commands", () => {
  const readme = readFileSync(README, "utf8");
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; bin: Record<string, string> };

  it("every command of the two-command block is an npm script of package.json", () => {
    const section = readme.slice(readme.indexOf("## Two commands"));
    const block = /```sh\n([\s\S]*?)```/.exec(section);
    expect(block, "a ```sh block under ## Two commands").not.toBeNull();
    const commands = block![1]
      .split("\n")
      .map((l) => l.replace(/#.*$/, "").trim())
      .filter(Boolean)
      .flatMap((l) => l.split("&&").map((c) => c.trim()));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const words = command.split(/\s+/);
      expect(words[0], command).toBe("npm");
      if (words[1] === "ci") continue; // npm's own: installs the lock file
      const script = words[1] === "run" ? words[2] : words[1];
      expect(pkg.scripts, `npm script "${script}" (from: ${command})`).toHaveProperty(script);
    }
  });

  it("every `groundwire <command>` in the README is a command of the CLI", () => {
    expect(Object.keys(pkg.bin)).toContain("groundwire");
    const help = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "ts/cli/index.ts"), "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    const listed = new Set([...help.stdout.matchAll(/^ {2}([a-z][a-z-]*) {2,}\S/gm)].map((m) => m[1]));
    expect(listed.size).toBeGreaterThan(5);
    // code only (fenced blocks and inline code spans): prose says "groundwire keeps…"
    const code = [...readme.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm), ...prose(readme).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]).join("\n");
    const shown = new Set([...code.matchAll(/(?:^|[\s$])groundwire ([a-z][a-z-]*)/gm)].map((m) => m[1]));
    expect(shown.size).toBeGreaterThan(5);
    const unknown = [...shown].filter((c) => !listed.has(c));
    expect(unknown, `listed by --help: ${[...listed].join(", ")}`).toEqual([]);
  });
});
