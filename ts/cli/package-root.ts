/** Where the CLI finds files the package ships (data/books, bench/): its package root. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "./common.js";

let cached: string | null = null;

/**
 * The package root: the nearest folder above this module whose package.json is
 * groundwire's. Works from `ts/cli/` (sources), `dist/` and `dist/chunks/` (built, or
 * installed under node_modules). Throws CliError when there is none.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "groundwire") return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new CliError("cannot find groundwire's package.json above the CLI");
    dir = up;
  }
}

/** The package's version, from its package.json (see {@link packageRoot}). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}
