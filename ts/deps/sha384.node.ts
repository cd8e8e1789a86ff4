/** SHA-384 for the Node build: @noble/hashes `require`d at the first SHA-384 canonicalization. */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** Hex SHA-384 of `text` (UTF-8). Throws when @noble/hashes is not installed. */
export function sha384Hex(text: string): string {
  const sha2 = require("@noble/hashes/sha2.js") as typeof import("@noble/hashes/sha2.js");
  const utils = require("@noble/hashes/utils.js") as typeof import("@noble/hashes/utils.js");
  return utils.bytesToHex(sha2.sha384(utils.utf8ToBytes(text)));
}
