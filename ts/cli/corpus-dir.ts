/** Where the CLI finds its book corpus: `--corpus DIR`, else the package's bundled `data/books`. */
import { join, resolve } from "node:path";
import { packageRoot } from "./package-root.js";

/**
 * The corpus folder: `dir` when given (resolved against the working directory),
 * else `data/books` under the package root (see packageRoot).
 */
export function corpusDir(dir?: string): string {
  return dir ? resolve(dir) : join(packageRoot(), "data/books");
}
