// Graph files and corpus folders are bounded where parsing and indexing hold: a graph over
// 64 MiB (DEFAULT_MAX_GRAPH_BYTES; was 512 MiB, about 7.5 GB of parsed graph) and a corpus
// whose books hold over 64 MiB in all (MAX_CORPUS_BYTES; each book was bounded, the folder
// was not) are refused in one line before anything is read. Sparse files: no disk is used.
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_GRAPH_BYTES, loadGraphFile } from "../../ts/rdf/load.js";
import { loadBooks, MAX_CORPUS_BYTES } from "../../ts/moot/corpus-node.js";
import { gw } from "../io/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "gw-bounds-"));
function sparse(path: string, size: number): string {
  const fd = openSync(path, "w");
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}
const graph = sparse(join(dir, "big.nt"), 65 * 2 ** 20);
const corpus = join(dir, "books");
mkdirSync(corpus);
sparse(join(corpus, "novel__a.txt"), 33 * 2 ** 20);
sparse(join(corpus, "novel__b.txt"), 33 * 2 ** 20);
const query = join(dir, "q.rq");
writeFileSync(query, "SELECT ?s WHERE { ?s ?p ?o }\n");
const OVER = `${graph}: is 68157440 bytes, over the limit of 67108864 bytes`;
const CORPUS = `corpus folder ${corpus}: its books are 69,206,016 bytes, over the 64 MiB a corpus may hold`;

describe("the bounds in the library", () => {
  it("loadGraphFile reads at most 64 MiB by default; loadBooks at most 64 MiB of books in all", () => {
    expect(DEFAULT_MAX_GRAPH_BYTES).toBe(64 * 2 ** 20);
    expect(() => loadGraphFile(graph)).toThrow(expect.objectContaining({ name: "InputFileError", kind: "TOOLARGE", message: OVER }));
    expect(MAX_CORPUS_BYTES).toBe(64 * 2 ** 20);
    expect(() => loadBooks(corpus)).toThrow(expect.objectContaining({ name: "CorpusError", message: CORPUS }));
  });
});

const cases: Array<[string, string[], string]> = [
  ["index", ["index", graph], `index: ${OVER}`],
  ["render", ["render", graph, "ex:a"], `render: ${OVER}`],
  ["check --schema", ["check", query, "--schema", graph], `check: schema: ${OVER}`],
  ["prove --kg", ["prove", "q?", "--kg", graph], `prove: kg: ${OVER}`],
  ["critique", ["critique", graph, "c.json", "--fingerprint", "0".repeat(64)], `critique: ${OVER}`],
  ["mcp --graph", ["mcp", "--graph", graph], `mcp: ${OVER}`],
  ["serve --graph", ["serve", "--port", "0", "--graph", `g=${graph}`], `serve: ${OVER}`],
  ["locate --corpus", ["locate", "some words", "--corpus", corpus], `locate: ${CORPUS}`],
  ["books --corpus", ["books", "--corpus", corpus], `books: ${CORPUS}`],
  ["moot --corpus", ["moot", "novel/a", "novel/b", "--corpus", corpus], `moot: ${CORPUS}`],
];

describe.concurrent("the bounds through the CLI (dist/cli.cjs)", () => {
  it.each(cases)("%s", async (_name, args, line) => {
    const r = await gw(args, { limitMs: 20_000 });
    expect(r.stderr).toBe(`groundwire ${line}\n`);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  }, 30_000);
});
