/**
 * Finding groundwire's own package.json, with node:fs and node:path only: the CommonJS bin
 * launcher (./launcher.ts) and the ES module CLI (./package-root.ts) share it, and the launcher
 * must not load anything else before it answers `--version`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The nearest folder at or above `dir` whose package.json names "groundwire", with that
 * file's version; null when no folder up to the file-system root has one. A package.json
 * that is unreadable or not JSON counts as not groundwire's (the walk goes on above it).
 * Works from `ts/cli/` (sources), `dist/` and `dist/chunks/` (built, or installed under
 * node_modules).
 */
export function findGroundwirePackage(dir: string): { root: string; version: string } | null {
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
        if (pkg.name === "groundwire" && typeof pkg.version === "string") return { root: dir, version: pkg.version };
      } catch {
        // not JSON: not ours
      }
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}
