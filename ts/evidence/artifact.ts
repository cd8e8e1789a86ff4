/**
 * Artifact: one source object (a file path or a URL) as the evidence spine sees it.
 * The artifact is keyed to the source object, never to its content: editing the
 * document keeps the artifact (and so every fragment address under it), and the
 * revision lives in `contentHash`.
 */
import { sha256Hex } from "../../bindings/sha256.js";
import { ArgumentError } from "../errors.js";
import { checkArgs } from "../args.js";

/** Media types the spine fragments today; everything else is reported as not supported yet. */
export type FragmentableMediaType = "text/markdown" | "text/plain";

/** One source object and the revision of it that was read. */
export interface Artifact {
  /** The key fragment ids hang off: by default the source object id itself (path or URL). */
  artifactId: string;
  /** Where the bytes came from, e.g. a path relative to a repository or a URL. */
  sourceObjectId: string;
  /** How they were fetched: `"file"`, `"http"`, `"inline"`, or a connector of yours. */
  connector: string;
  /** IANA media type, e.g. `text/markdown`. */
  mediaType: string;
  /** Length of the content in bytes (UTF-8 when the content was given as a string). */
  byteLength: number;
  /** `sha256:<64 lowercase hex>` over those bytes: the revision. */
  contentHash: string;
}

const EXTENSION_MEDIA_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".mdown": "text/markdown",
  ".mkd": "text/markdown",
  ".txt": "text/plain",
  ".text": "text/plain",
  ".rst": "text/x-rst",
  ".html": "text/html",
  ".htm": "text/html",
  ".pdf": "application/pdf",
  ".json": "application/json",
  ".csv": "text/csv",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/**
 * Media type guessed from a path's or URL's extension (case-insensitive; a URL's
 * query and fragment are ignored): `.md .markdown .mdown .mkd` → `text/markdown`,
 * `.txt .text` → `text/plain`, a few others by name, anything else
 * `application/octet-stream`.
 */
export function mediaTypeForPath(path: string): string {
  checkArgs("mediaTypeForPath", arguments, "path:string");
  const bare = path.replace(/[?#].*$/s, "").toLowerCase();
  const slash = Math.max(bare.lastIndexOf("/"), bare.lastIndexOf("\\"));
  const dot = bare.lastIndexOf(".");
  if (dot <= slash) return "application/octet-stream";
  return EXTENSION_MEDIA_TYPES[bare.slice(dot)] ?? "application/octet-stream";
}

const encoder = new TextEncoder();

/**
 * Describe one revision of a source object.
 *
 * @param input.sourceObjectId path or URL of the source object (non-empty)
 * @param input.content the bytes, or a string (hashed and measured as UTF-8)
 * @param input.mediaType default: `mediaTypeForPath(sourceObjectId)`
 * @param input.connector default `"file"`
 * @param input.artifactId default: `sourceObjectId` (the key must not depend on content)
 * @returns an Artifact with `contentHash` `sha256:<hex>` and `byteLength` in bytes
 * @throws ArgumentError when `sourceObjectId`, `connector` or `artifactId` is not a non-empty,
 *   well-formed string without controls or line breaks (a lone surrogate `"\uD800"`, `"a\nb"`), or
 *   `content` is neither a string nor bytes
 */
export function createArtifact(input: {
  sourceObjectId: string;
  content: string | Uint8Array;
  mediaType?: string;
  connector?: string;
  artifactId?: string;
}): Artifact {
  if (input === null || typeof input !== "object") throw new ArgumentError("createArtifact", "input", "{sourceObjectId, content}", input);
  const { sourceObjectId } = input;
  checkId("sourceObjectId", sourceObjectId, "a non-empty string (a path or URL)");
  const connector = input.connector ?? "file";
  checkId("connector", connector, "a non-empty string");
  const artifactId = input.artifactId ?? sourceObjectId;
  checkId("artifactId", artifactId, "a non-empty string");
  if (typeof input.content !== "string" && !(input.content instanceof Uint8Array)) throw new ArgumentError("createArtifact", "content", "a string or a Uint8Array", input.content);
  const bytes = typeof input.content === "string" ? encoder.encode(input.content) : input.content;
  return {
    artifactId,
    sourceObjectId,
    connector,
    mediaType: input.mediaType ?? mediaTypeForPath(sourceObjectId),
    byteLength: bytes.byteLength,
    contentHash: `sha256:${sha256Hex(bytes)}`,
  };
}

/** Controls (C0, DEL, C1) and the line and paragraph separators: never in an id (it is listed on one line). */
// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An id: a non-empty, well-formed (no lone surrogate) string without controls or line breaks. */
function checkId(name: string, value: unknown, expected: string): void {
  if (typeof value !== "string" || value === "") throw new ArgumentError("createArtifact", name, expected, value);
  if (!isWellFormed(value)) throw new ArgumentError("createArtifact", name, "well-formed Unicode (it holds a lone surrogate)", value);
  if (ID_FORBIDDEN.test(value)) throw new ArgumentError("createArtifact", name, "free of control characters and line breaks", value);
}

/** String.prototype.isWellFormed (Node 20 has it; typed here for older lib settings). */
export function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
