/** Node-only: read an RDF file from disk into a Graph. Kept apart so the browser entry never imports node:fs. */
import { readFileSync } from "node:fs";
import { formatFromPath, parseGraph, type Graph, type RdfFormat } from "./graph.js";

/**
 * Read and parse an RDF file (format from its extension unless given).
 * @throws Error "no such file: <path>" when it is missing; RdfParseError with line and column
 */
export function loadGraphFile(path: string, options: { format?: RdfFormat; baseIRI?: string } = {}): Graph {
  const format = options.format ?? formatFromPath(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`no such file: ${path}`);
    throw error;
  }
  return parseGraph(text, { format, source: path, baseIRI: options.baseIRI });
}
