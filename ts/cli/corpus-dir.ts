/** Where the CLI finds its book corpus: `--corpus DIR`, else the package's bundled `data/books`. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The corpus folder: `dir` when given (resolved against the working
 * directory), else the bundled `data/books`, looked up relative to this
 * module: from `dist/cli.js`, from a bundled chunk in `dist/chunks/`, and from
 * `ts/cli/` when run from sources.
 */
export function corpusDir(dir?: string): string {
  if (dir) return resolve(dir);
  for (const rel of ["../data/books", "../../data/books"]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  return fileURLToPath(new URL("../data/books", import.meta.url));
}
