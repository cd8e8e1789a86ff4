/** Node-only: read an RDF file from disk into a Graph. Kept apart so the browser entry never imports node:fs. */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serializeGraph } from "./serialize.js";
import { formatFromPath, parseGraph, type Graph, type RdfFormat } from "./graph.js";
import { OutputFileError, readTextFile, refuseNonRegular, writeFileAtomic } from "../files.js";
import { checkArgs } from "../arg-kinds.js";

/**
 * The largest graph file read by default: 64 MiB. Parsed graphs take about 15 bytes of memory
 * per byte of N-Triples (measured with `groundwire index`: 91.7 MB peaked at 1.4 GB RSS, 122.7 MB
 * at 1.8 GB), so the old 512 MiB default let a file through that would run out of heap part-way.
 */
export const DEFAULT_MAX_GRAPH_BYTES = 64 * 2 ** 20;

/**
 * Read and parse an RDF file (format from its extension unless given). The file must be a
 * regular file of at most `maxBytes` (default {@link DEFAULT_MAX_GRAPH_BYTES}, 64 MiB) in valid UTF-8. Relative IRIs are
 * resolved against `options.baseIRI`, else against the file's own `file:` URL (RFC 3986 §5.1.3,
 * as Jena and rdflib do), so no relative IRI reaches the graph, the listing or a written file.
 * @throws InputFileError "<path>: no such file", "<path>: is a directory, not a file",
 *   "<path>: is not a regular file …", "<path>: invalid UTF-8 at byte N", over the cap;
 *   RdfParseError with line and column
 */
export function loadGraphFile(path: string, options: { format?: RdfFormat; baseIRI?: string; maxBytes?: number } = {}): Graph {
  checkArgs("loadGraphFile", arguments, "path:text options?:object");
  // a folder or a device has no extension to read a format from: say what it is first
  refuseNonRegular(path);
  const format = options.format ?? formatFromPath(path);
  const text = readTextFile(path, { maxBytes: options.maxBytes ?? DEFAULT_MAX_GRAPH_BYTES });
  return parseGraph(text, { format, source: path, baseIRI: options.baseIRI ?? fileBaseIri(path) });
}

/**
 * The base IRI a file's relative IRIs resolve against: its own `file:` URL (RFC 3986 §5.1.3,
 * as Jena and rdflib do). Standard input (`-`, `/dev/stdin`) has no URL of its own: its
 * relative IRIs resolve against the working directory (`file:///<cwd>/stdin`).
 */
export function fileBaseIri(path: string): string {
  return pathToFileURL(resolve(path === "-" || path === "/dev/stdin" ? "stdin" : path)).href;
}

/**
 * Write a graph to `path` atomically (ts/files.ts: exclusive random temporary beside it,
 * mode kept, fsync, rename), in the format its extension names unless given. Nothing is
 * left behind when serializing or writing fails.
 * @throws TypeError for an unknown extension; OutputFileError "cannot write <path>: <reason>"
 */
export function writeGraphFile(path: string, graph: Graph, options: { format?: RdfFormat } = {}): void {
  checkArgs("writeGraphFile", arguments, "path:text graph:graph options?:object");
  const format = options.format ?? formatFromPath(path);
  const text = serializeGraph(graph, { format });
  writeFileAtomic(path, text);
}

export { OutputFileError };
