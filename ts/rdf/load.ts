/** Node-only: read an RDF file from disk into a Graph. Kept apart so the browser entry never imports node:fs. */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serializeGraph } from "./serialize.js";
import { formatFromPath, parseGraph, type Graph, type RdfFormat } from "./graph.js";

/**
 * Read and parse an RDF file (format from its extension unless given). Relative IRIs are
 * resolved against `options.baseIRI`, else against the file's own `file:` URL (RFC 3986 §5.1.3,
 * as Jena and rdflib do), so no relative IRI reaches the graph, the listing or a written file.
 * @throws Error "no such file: <path>" when it is missing, "<path> is a directory, not an RDF file";
 *   RdfParseError with line and column
 */
export function loadGraphFile(path: string, options: { format?: RdfFormat; baseIRI?: string } = {}): Graph {
  if (isDirectory(path)) throw new Error(`${path} is a directory, not an RDF file`);
  const format = options.format ?? formatFromPath(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`no such file: ${path}`);
    throw error;
  }
  return parseGraph(text, { format, source: path, baseIRI: options.baseIRI ?? pathToFileURL(resolve(path)).href });
}

/**
 * Write a graph to `path` atomically (a temporary file beside it, then rename), in the
 * format its extension names unless given. Nothing is left behind when serializing fails.
 * @throws TypeError for an unknown extension; Error "cannot write <path>: it is a directory"; the file system's error otherwise
 */
export function writeGraphFile(path: string, graph: Graph, options: { format?: RdfFormat } = {}): void {
  if (isDirectory(path)) throw new Error(`cannot write ${path}: it is a directory`);
  const format = options.format ?? formatFromPath(path);
  const text = serializeGraph(graph, { format });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, "utf8");
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // missing: the caller's own error says so
  }
}
