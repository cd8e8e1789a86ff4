/**
 * `locate`'s quote index, kept on disk between runs: building it tokenizes every book (about a
 * second for the bundled two), loading it back is a read and a hash.
 *
 * The cache file is named by the corpus's content: SHA-256 over the index format
 * (QUOTE_INDEX_FORMAT), the package version, the bytes of the code that cuts and indexes the
 * books (dist/node.js beside the CLI's chunks, when there), and, folder by folder in order, each
 * book's key, its `.txt` bytes and its `.entries.json` bytes. A changed, added or removed book, a
 * new version or a rebuilt library names another file; the old one is left for the user to
 * remove (the cache folder holds nothing else of ours). A file is written atomically (files.ts)
 * as the index's bytes followed by their SHA-256; on reading, a file whose hash does not match
 * (cut short, corrupted) is ignored and rebuilt, never trusted.
 *
 * Where: `--cache-dir DIR`, else `$XDG_CACHE_HOME/groundwire`, else `~/.cache/groundwire`;
 * `--no-cache` neither reads nor writes one.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegularFile, writeFileAtomic } from "../files.js";
import { QUOTE_INDEX_FORMAT, quoteIndexFromBytes, quoteIndexToBytes, type QuoteIndex } from "../match/index.js";
import { bookKeyFromFileName } from "../moot/index.js";
import { MAX_CORPUS_BYTES } from "../moot/corpus-node.js";
import { packageVersion } from "./package-root.js";

/** The cache folder: `--cache-dir`, else XDG_CACHE_HOME/groundwire, else ~/.cache/groundwire; null with `--no-cache`. */
export function cacheDir(option: string | undefined, noCache: boolean): string | null {
  if (noCache) return null;
  if (option !== undefined) return resolve(option);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache"), "groundwire");
}

/** The bytes of the code that cuts and indexes books, when the CLI runs from dist/ (else none: the version alone). */
function codeBytes(): Buffer | null {
  try {
    const path = fileURLToPath(new URL("../node.js", import.meta.url));
    return existsSync(path) ? readFileSync(path) : null;
  } catch {
    return null;
  }
}

/**
 * The corpus's content key (hex SHA-256, see the module comment), or null when a folder holds
 * something loadBooks refuses (a misnamed book, too many bytes): then no cache, and loading the
 * books says what is wrong.
 */
export function corpusKey(dirs: readonly string[]): string | null {
  const h = createHash("sha256");
  h.update(`groundwire quote index ${QUOTE_INDEX_FORMAT} ${packageVersion()}\0`);
  const code = codeBytes();
  h.update(code ? createHash("sha256").update(code).digest("hex") : "no code file");
  let total = 0;
  try {
    for (const dir of dirs) {
      h.update(`\0dir\0${dir}\0`);
      for (const file of readdirSync(dir).sort()) {
        const key = bookKeyFromFileName(file);
        if (!key) {
          if (file.includes("__") && /\.txt$/i.test(file)) return null;
          continue;
        }
        const path = join(dir, file);
        const st = statSync(path);
        if (!st.isFile()) continue;
        total += st.size;
        if (total > MAX_CORPUS_BYTES) return null;
        h.update(`\0book\0${key}\0${st.size}\0`);
        h.update(readRegularFile(path, { maxBytes: MAX_CORPUS_BYTES }));
        const entries = path.replace(/\.txt$/, ".entries.json");
        // read as loadBooks reads it: a FIFO, device or folder there is refused (then no cache; loading says why), never waited on
        h.update(existsSync(entries) ? createHash("sha256").update(readRegularFile(entries)).digest("hex") : "\0no entries");
      }
    }
  } catch {
    return null;
  }
  return h.digest("hex");
}

/** What {@link cachedQuoteIndex} did: read the cache, built and wrote it, built without one, or built after a bad file. */
export type CacheOutcome = "hit" | "written" | "off" | "rebuilt";

/**
 * The quote index of the corpus in `dirs`: read from the cache when a sound file for this
 * content is there, else `build()` (and written to the cache, atomically).
 * A cache folder that cannot be written to is not an error: the index is built each time, and
 * `outcome` says "off".
 */
export function cachedQuoteIndex(dirs: readonly string[], dir: string | null, build: () => QuoteIndex): { index: QuoteIndex; outcome: CacheOutcome; file: string | null } {
  const key = dir === null ? null : corpusKey(dirs);
  if (dir === null || key === null) return { index: build(), outcome: "off", file: null };
  const file = join(dir, `quote-index-${key.slice(0, 32)}.bin`);
  let bad = false;
  if (existsSync(file)) {
    try {
      // a regular file only (a FIFO put there is refused, not waited on), at most 1 GiB
      const bytes = readRegularFile(file, { maxBytes: 2 ** 30 });
      const payload = bytes.subarray(0, Math.max(0, bytes.length - 32));
      const digest = createHash("sha256").update(payload).digest();
      if (bytes.length > 32 && digest.equals(bytes.subarray(bytes.length - 32))) {
        return { index: quoteIndexFromBytes(payload), outcome: "hit", file };
      }
      bad = true;
    } catch {
      bad = true;
    }
  }
  const index = build();
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const payload = quoteIndexToBytes(index);
    const digest = createHash("sha256").update(payload).digest();
    const out = new Uint8Array(payload.length + 32);
    out.set(payload, 0);
    out.set(digest, payload.length);
    writeFileAtomic(file, out);
  } catch {
    return { index, outcome: "off", file: null };
  }
  return { index, outcome: bad ? "rebuilt" : "written", file };
}
