// Dependencies are ranges, so a consumer's compatible copy is shared; only the ones whose
// internals the code depends on are pinned exactly, and docs/package.md names each of them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const docs = readFileSync(join(ROOT, "docs/package.md"), "utf8");
const section = docs.slice(docs.indexOf("## Dependencies"), docs.indexOf("## Bad input and limits"));

describe("dependency ranges", () => {
  it("every dependency is a caret range but those docs/package.md names as pinned", () => {
    const pinned = Object.entries(pkg.dependencies).filter(([, v]) => /^\d/.test(v)).map(([k]) => k);
    const ranged = Object.entries(pkg.dependencies).filter(([, v]) => v.startsWith("^")).map(([k]) => k);
    expect(pinned.length + ranged.length).toBe(Object.keys(pkg.dependencies).length);
    expect(ranged).toContain("n3");
    expect(ranged).toContain("zod");
    for (const name of pinned) {
      const family = name.startsWith("micromark-util-") ? "micromark-util-*" : name.startsWith("mdast-util-") ? "mdast-util-*" : name;
      expect(section, `${name} is pinned exactly: docs/package.md must say why`).toContain(`\`${family}\``);
    }
  });

  it("the markdown stack is bundled (dist/vendor/markdown.js), not installed: build-time only, pinned exactly", () => {
    const stack = ["markdown-it", "micromark", "mdast-util-from-markdown", "mdast-util-gfm", "micromark-extension-gfm"];
    for (const name of stack) {
      expect(pkg.dependencies, name).not.toHaveProperty(name);
      expect(pkg.devDependencies[name], name).toMatch(/^\d/);
    }
    expect(section).toContain("`dist/vendor/markdown.js`");
  });
});
