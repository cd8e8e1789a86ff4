/**
 * Node-only side of the evidence spine: read a document from disk as an Artifact
 * and fragment it (node:fs). Exported from the Node entry (ts/node.ts).
 */
import { decodeUtf8, readRegularFile } from "../files.js";
import { normalize } from "node:path";
import { createArtifact, mediaTypeForPath, type Artifact } from "./artifact.js";
import { fragmentDocument, UnsupportedFormatError, type Fragment } from "./fragment.js";

/** A document read from disk: its artifact, its text (UTF-8 decoded) and its fragments. */
export interface LoadedDocument {
  artifact: Artifact;
  text: string;
  fragments: readonly Fragment[];
}

/**
 * Read a file, describe it as an Artifact (connector `"file"`, source object id =
 * the path as given, normalized: `./docs//a.md` and `docs/a.md` are one source
 * object, `\\` becomes `/`; content hash over the file's bytes) and fragment it by
 * media type (markdown or plain text). Pass `artifactId` when the same document is
 * read from different working directories, so its fragment ids do not depend on them.
 *
 * @param path the file; its extension picks the media type unless `options.mediaType` is given
 * @param options.artifactId key for fragment ids (default: the normalized path)
 * @param options.bytes the content when already read (e.g. from standard input); `path` then only names it
 * @param options.maxBytes size cap when reading (default 512 MiB)
 * @throws UnsupportedFormatError for formats other than markdown and plain text (before reading);
 *   InputFileError when the file is missing, not a regular file, over the cap, or not valid
 *   UTF-8 (`<path>: invalid UTF-8 at byte N`: never decoded to U+FFFD, so a changed byte
 *   cannot read as unchanged)
 */
export function loadDocumentFile(
  path: string,
  options: { artifactId?: string; mediaType?: string; bytes?: Uint8Array; maxBytes?: number } = {},
): LoadedDocument {
  const mediaType = options.mediaType ?? mediaTypeForPath(path);
  if (mediaType !== "text/markdown" && mediaType !== "text/plain") throw new UnsupportedFormatError(mediaType, path);
  const bytes = options.bytes ?? readRegularFile(path, { maxBytes: options.maxBytes });
  // A leading BOM is dropped, as before (fragment offsets count from the text after it).
  const text = decodeUtf8(bytes, path, { stripBom: true });
  const sourceObjectId = normalize(path).replace(/\\/g, "/");
  const artifact = createArtifact({ sourceObjectId, content: bytes, mediaType, connector: "file", artifactId: options.artifactId });
  return { artifact, text, fragments: fragmentDocument(artifact.artifactId, text, mediaType, path) };
}
