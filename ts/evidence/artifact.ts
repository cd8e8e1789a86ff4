/**
 * Artifact: one source object (a file path or a URL) as the evidence spine sees it.
 * The artifact is keyed to the source object, never to its content: editing the
 * document keeps the artifact (and so every fragment address under it), and the
 * revision lives in `contentHash`.
 */
import { sha256Hex } from "../../bindings/sha256.js";

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
 * @throws TypeError when `sourceObjectId`, `connector` or `artifactId` is empty
 */
export function createArtifact(input: {
  sourceObjectId: string;
  content: string | Uint8Array;
  mediaType?: string;
  connector?: string;
  artifactId?: string;
}): Artifact {
  const { sourceObjectId } = input;
  if (typeof sourceObjectId !== "string" || sourceObjectId === "") throw new TypeError("createArtifact: sourceObjectId must be a non-empty string (a path or URL)");
  const connector = input.connector ?? "file";
  if (connector === "") throw new TypeError("createArtifact: connector must be non-empty");
  const artifactId = input.artifactId ?? sourceObjectId;
  if (artifactId === "") throw new TypeError("createArtifact: artifactId must be non-empty");
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
