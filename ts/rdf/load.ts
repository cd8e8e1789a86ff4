/** Node-only: read an RDF file from disk into a Graph. Kept apart so the browser entry never imports node:fs. */
import { serializeGraph } from "./serialize.js";
import { formatFromPath, parseGraph, type Graph, type RdfFormat } from "./graph.js";
import { OutputFileError, readTextFile, writeFileAtomic } from "../files.js";

/**
 * Read and parse an RDF file (format from its extension unless given). The file must be a
 * regular file of at most `maxBytes` (default 512 MiB) in valid UTF-8.
 * @throws InputFileError "<path>: no such file", "<path>: is a directory, not a file",
 *   "<path>: is not a regular file …", "<path>: invalid UTF-8 at byte N", over the cap;
 *   RdfParseError with line and column
 */
export function loadGraphFile(path: string, options: { format?: RdfFormat; baseIRI?: string; maxBytes?: number } = {}): Graph {
  const format = options.format ?? formatFromPath(path);
  const text = readTextFile(path, { maxBytes: options.maxBytes });
  return parseGraph(text, { format, source: path, baseIRI: options.baseIRI });
}

/**
 * Write a graph to `path` atomically (ts/files.ts: exclusive random temporary beside it,
 * mode kept, fsync, rename), in the format its extension names unless given. Nothing is
 * left behind when serializing or writing fails.
 * @throws TypeError for an unknown extension; OutputFileError "cannot write <path>: <reason>"
 */
export function writeGraphFile(path: string, graph: Graph, options: { format?: RdfFormat } = {}): void {
  const format = options.format ?? formatFromPath(path);
  const text = serializeGraph(graph, { format });
  writeFileAtomic(path, text);
}

export { OutputFileError };
