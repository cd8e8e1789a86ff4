/** Where the CLI finds files the package ships (data/books, bench/): its package root. */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "./common.js";
import { findGroundwirePackage } from "./package-json.js";

let cached: { root: string; version: string } | null = null;

function found(): { root: string; version: string } {
  cached ??= findGroundwirePackage(dirname(fileURLToPath(import.meta.url)));
  if (!cached) throw new CliError("cannot find groundwire's package.json above the CLI");
  return cached;
}

/**
 * The package root: the nearest folder above this module whose package.json is
 * groundwire's (see findGroundwirePackage). Throws CliError when there is none.
 */
export function packageRoot(): string {
  return found().root;
}

/** The package's version, from its package.json (see {@link packageRoot}); throws CliError as packageRoot. */
export function packageVersion(): string {
  return found().version;
}
