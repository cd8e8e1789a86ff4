/**
 * The size bound of the fragmenters (`fragmentMarkdown`, `fragmentPlainText`,
 * `fragmentDocument`): a text longer than {@link MAX_DOCUMENT_LENGTH} UTF-16 code units is
 * refused with a {@link DocumentTooLargeError} before any work, instead of running out of
 * string or heap space part-way (a 300 MB markdown file ended in V8's own "Invalid string
 * length"). Measured on the shared markdown files concatenated (docs/package.md, "Bad input
 * and limits"): 128 MiB fragments in about 20 s with a peak RSS of 2.2 GB, 256 MiB in 4.0 GB.
 */
import { GroundwireError } from "../errors.js";

/** Longest text the fragmenters take: 2^27 = 134,217,728 UTF-16 code units (128 Mi). */
export const MAX_DOCUMENT_LENGTH = 2 ** 27;

/** A text over {@link MAX_DOCUMENT_LENGTH}: names the function, the length and the limit (both in UTF-16 code units). */
export class DocumentTooLargeError extends GroundwireError {
  constructor(
    readonly fn: string,
    readonly length: number,
    readonly limit: number = MAX_DOCUMENT_LENGTH,
  ) {
    super(`${fn}: the text is ${length.toLocaleString("en-US")} UTF-16 code units, over the limit of ${limit.toLocaleString("en-US")} (MAX_DOCUMENT_LENGTH); split the document`, { code: "too_large", status: 413 });
    this.name = "DocumentTooLargeError";
  }
}
