/**
 * Node-only side of the evidence spine: read a document from disk as an Artifact
 * and fragment it (node:fs). Exported from the Node entry (ts/node.ts).
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { decodeUtf8, readRegularFile, refuseNonRegular } from "../files.js";
import { createArtifact, mediaTypeForPath, type Artifact } from "./artifact.js";
import { fragmentDocument, UnsupportedFormatError, type Fragment } from "./fragment/index.js";
import { MAX_DOCUMENT_LENGTH } from "./limits.js";
import { checkArgs } from "../args.js";

/**
 * The artifact id a file gets when none is given: the same for one file however it
 * is named (`doc.md`, `./docs/../doc.md`, an absolute path, a symlink). Inside a git
 * work tree (the nearest enclosing directory with a `.git` entry, found by walking up
 * from the file's real directory; no git process is run) it is the file's path
 * relative to the work-tree root with `/` separators (`docs/guide.md`), so the id is
 * also the same in every clone; elsewhere it is the file's real absolute path.
 *
 * @param path the file as typed
 * @throws the fs error (ENOENT …) when the file does not exist
 */
export function defaultArtifactId(path: string): string {
  checkArgs("defaultArtifactId", arguments, "path:text");
  const real = realpathSync(path);
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return relative(dir, real).split(sep).join("/");
    if (dirname(dir) === dir) return real.split(sep).join("/");
  }
}

/** A document read from disk: its artifact, its text (UTF-8 decoded) and its fragments. */
export interface LoadedDocument {
  artifact: Artifact;
  text: string;
  fragments: readonly Fragment[];
}

/**
 * Read a file, describe it as an Artifact (connector `"file"`, source object id and
 * default artifact id = `defaultArtifactId(path)`: the path relative to the enclosing
 * git work tree, else the real path, so one file gets one id however it is named;
 * content hash over the file's bytes) and fragment it by media type (markdown or
 * plain text).
 *
 * @param path the file; its extension picks the media type unless `options.mediaType` is given
 * @param options.artifactId key for fragment ids (default: `defaultArtifactId(path)`; with
 *   `options.bytes`, e.g. from standard input, the normalized path as given)
 * @param options.bytes the content when already read (e.g. from standard input); `path` then only names it
 * @param options.maxBytes size cap when reading (default 128 MiB, the fragmenters' MAX_DOCUMENT_LENGTH)
 * @throws InputFileError `<path>: is a directory, not a file` or `is not a regular file …`
 *   (checked first, by type: a FIFO or device is never read); UnsupportedFormatError for
 *   formats other than markdown and plain text (before reading); InputFileError when the
 *   file is missing, over the cap, or not valid
 *   UTF-8 (`<path>: invalid UTF-8 at byte N`: never decoded to U+FFFD, so a changed byte
 *   cannot read as unchanged)
 */
export function loadDocumentFile(
  path: string,
  options: { artifactId?: string; mediaType?: string; bytes?: Uint8Array; maxBytes?: number } = {},
): LoadedDocument {
  checkArgs("loadDocumentFile", arguments, "path:text options?:object");
  // a folder or a device has no format to name: say what it is first (never opened here)
  if (!options.bytes) refuseNonRegular(path);
  const mediaType = options.mediaType ?? mediaTypeForPath(path);
  if (mediaType !== "text/markdown" && mediaType !== "text/plain") throw new UnsupportedFormatError(mediaType, path);
  // the fragmenters take at most MAX_DOCUMENT_LENGTH UTF-16 code units, never more than the UTF-8 bytes
  const bytes = options.bytes ?? readRegularFile(path, { maxBytes: options.maxBytes ?? MAX_DOCUMENT_LENGTH });
  // A leading BOM is kept, so the offsets index the file's text as UTF-8 decoders give it (Node's
  // readFileSync(path, "utf8"), Python's encoding="utf-8"); the fragmenters read past it (issue 15).
  const text = decodeUtf8(bytes, path);
  const sourceObjectId = options.bytes ? normalize(path).replace(/\\/g, "/") : defaultArtifactId(path);
  const artifact = createArtifact({ sourceObjectId, content: bytes, mediaType, connector: "file", artifactId: options.artifactId });
  return { artifact, text, fragments: fragmentDocument(artifact.artifactId, text, mediaType, path) };
}
