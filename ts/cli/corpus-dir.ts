/**
 * Where the CLI finds its book corpus: `--corpus DIR` (replacing the bundled books), else the
 * package's bundled `data/books`; then every `--books DIR` (repeatable), added to it.
 */
import { join, resolve } from "node:path";
import { CliError, echo } from "./common.js";
import { optionLines } from "./help-rows.js";
import { packageRoot } from "./package-root.js";

/** The `--corpus` and `--books` options of every command that reads the corpus (moot, books, locate, serve, mcp). */
export const CORPUS_OPTIONS = {
  corpus: { type: "string" },
  books: { type: "string", multiple: true },
} as const;

/** Their help lines, descriptions from `column` on (the column of the command's own options). */
export function corpusHelp(column: number): string {
  return optionLines(column, [
    ["--corpus DIR", "use the <genre>__<book>.txt files of DIR instead of the bundled data/books (replaces them)"],
    ["--books DIR", "add the <genre>__<book>.txt files of DIR to the corpus (the bundled books, or --corpus);\nrepeatable; a key already in the corpus is an error"],
  ]);
}

/**
 * The corpus folder: `dir` when given (resolved against the working directory),
 * else `data/books` under the package root (see packageRoot).
 */
export function corpusDir(dir?: string): string {
  return dir ? resolve(dir) : join(packageRoot(), "data/books");
}

/**
 * The corpus folders: `--corpus DIR` or the bundled books, then each `--books DIR`, resolved.
 * @throws CliError (exit 2) when a folder is named twice
 */
export function corpusDirs(command: string, corpus: string | undefined, books: readonly string[] | undefined): string[] {
  const dirs = [corpusDir(corpus), ...(books ?? []).map((d) => resolve(d))];
  const seen = new Set<string>();
  for (const d of dirs) {
    if (seen.has(d)) throw new CliError(`${command}: the corpus folder ${echo(d)} is given twice (--books adds to ${corpus === undefined ? "the bundled books" : "--corpus"})`, 2);
    seen.add(d);
  }
  return dirs;
}

/** Whether the corpus is local folders (`--corpus` or `--books` given), not a store named by GROUNDWIRE_STORE. */
export function localCorpus(values: { corpus?: string; books?: string[] }): boolean {
  return values.corpus !== undefined || values.books !== undefined;
}
