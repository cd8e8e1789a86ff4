/**
 * The entry points: a markdown or plain text document, or one by media type, → its fragments.
 */
import { ArgumentError } from "../../errors.js";
import { DocumentTooLargeError, MAX_DOCUMENT_LENGTH } from "../limits.js";
import type { Fragment, FragmentOptions } from "./types.js";
import { checkBound } from "../../work-limits.js";
import { UnsupportedFormatError } from "./errors.js";
import { Builder, emitBlocks } from "./builder.js";
import { parseBlocks } from "./block-pass.js";
import { checkArgs } from "../../args.js";

function checkInputs(fn: string, artifactId: unknown, text: unknown): void {
  if (typeof artifactId !== "string" || artifactId === "") throw new ArgumentError(fn, "artifactId", "a non-empty string", artifactId);
  if (typeof text !== "string") throw new ArgumentError(fn, "text", "a string", text);
  if (text.length > MAX_DOCUMENT_LENGTH) throw new DocumentTooLargeError(fn, text.length);
}

/**
 * Fragment a markdown document (CommonMark + GFM tables, task lists, footnotes,
 * strikethrough, autolinks; YAML `---` / TOML `+++` front matter) into its Fragment
 * tree, parsed from the verbatim source: markdown-it's block pass for the structure, micromark
 * (mdast-util-from-markdown) where the two may read differently; the addresses are those of
 * the micromark → mdast fragmenter it replaced (docs/evidence.md, "How `fragmentMarkdown` reads a
 * document").
 * Time and memory are linear in the text: one normalized copy of it while hashing.
 *
 * @param artifactId the artifact the fragments belong to (part of every fragmentId)
 * @param text the whole document as written (not pre-normalized)
 * @returns the fragments in document order (`sequence` 0..n-1); frozen, so
 *   `citationStatus` may index the array once and reuse the index
 * @param options.maxFragments most fragments the document may be cut into (default: no bound)
 * @throws TypeError on a non-string text or an empty artifactId; DocumentTooLargeError for a text over MAX_DOCUMENT_LENGTH (2^27) UTF-16 code units;
 *   WorkLimitError (code `limit`) past maxFragments
 */
export function fragmentMarkdown(artifactId: string, text: string, options: FragmentOptions = {}): readonly Fragment[] {
  checkArgs("fragmentMarkdown", arguments, "artifactId:text text:string options?:object");
  checkInputs("fragmentMarkdown", artifactId, text);
  const b = new Builder(artifactId, text, checkBound(options.maxFragments, "fragmentMarkdown", "maxFragments"));
  emitBlocks(b, parseBlocks(text));
  return b.finish();
}

/**
 * Fragment plain text into paragraphs: maximal runs of lines that are not blank
 * (blank = only whitespace). Each paragraph spans from its first non-blank line's
 * start to its last non-blank line's end (line break excluded, a trailing `\r` too);
 * anchors are ordinals `paragraph:1`, `paragraph:2`, …
 *
 * @returns frozen fragments in document order
 * @param options.maxFragments most fragments the document may be cut into (default: no bound)
 * @throws TypeError on a non-string text or an empty artifactId; DocumentTooLargeError for a text over MAX_DOCUMENT_LENGTH (2^27) UTF-16 code units;
 *   WorkLimitError (code `limit`) past maxFragments
 */
export function fragmentPlainText(artifactId: string, text: string, options: FragmentOptions = {}): readonly Fragment[] {
  checkArgs("fragmentPlainText", arguments, "artifactId:text text:string options?:object");
  checkInputs("fragmentPlainText", artifactId, text);
  const b = new Builder(artifactId, text, checkBound(options.maxFragments, "fragmentPlainText", "maxFragments"));
  let start = -1;
  let end = -1;
  let startLine = 0;
  let line = 0;
  const flush = () => {
    if (start >= 0) b.open(-1, "paragraph", null, start, end, startLine);
    start = -1;
  };
  for (const m of text.matchAll(/([^\n]*)(\n|$)/g)) {
    line++;
    const content = m[1];
    if (/^\s*$/u.test(content)) {
      flush();
    } else {
      if (start < 0) {
        start = m.index!;
        startLine = line;
      }
      end = m.index! + content.length - (content.endsWith("\r") ? 1 : 0);
    }
    if (m[2] === "") break;
  }
  flush();
  return b.finish();
}

/**
 * Fragment a document by media type: `text/markdown` (also `text/x-markdown`) →
 * `fragmentMarkdown`, `text/plain` → `fragmentPlainText`.
 *
 * @param artifactId the artifact key
 * @param text the verbatim document
 * @param mediaType e.g. from `createArtifact(...).mediaType` or `mediaTypeForPath`
 * @param source optional name for the error message
 * @throws UnsupportedFormatError for any other media type (PDF, HTML, reStructuredText, …)
 */
export function fragmentDocument(artifactId: string, text: string, mediaType: string, source?: string, options: FragmentOptions = {}): readonly Fragment[] {
  checkArgs("fragmentDocument", arguments, "artifactId:text text:string mediaType:string source?:string options?:object");
  const base = mediaType.split(";")[0].trim().toLowerCase();
  if (base === "text/markdown" || base === "text/x-markdown") return fragmentMarkdown(artifactId, text, options);
  if (base === "text/plain") return fragmentPlainText(artifactId, text, options);
  throw new UnsupportedFormatError(base, source);
}
