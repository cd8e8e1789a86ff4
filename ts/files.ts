/**
 * Node-only file input and output with the guarantees every command and loader needs:
 * reads take regular files only (a device, FIFO or socket is refused before a byte is read,
 * so `/dev/zero` or `/dev/urandom` can neither exhaust memory nor hang), are capped in size,
 * and decode UTF-8 strictly (an invalid byte is reported with its offset instead of becoming
 * U+FFFD and being written back changed); writes are atomic (a fresh temporary file beside
 * the target, created exclusively under a random name so a planted symlink is never
 * followed, the target's mode kept, fsync before rename, the temporary removed on failure).
 *
 * Kept apart from the browser entry (node:fs).
 */
import { accessSync, closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, readSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { GroundwireError, type GroundwireErrorOptions } from "./errors.js";

/** Default cap on one input file: 512 MiB (V8 strings stop near 2^29 UTF-16 code units anyway). */
export const DEFAULT_MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** What was wrong with an input file ({@link InputFileError.kind}). */
export type InputFileFault = "ENOENT" | "EISDIR" | "NOTREGULAR" | "TOOLARGE" | "UTF8" | "EIO";

const INPUT_FAULTS: Record<InputFileFault, GroundwireErrorOptions> = {
  ENOENT: { code: "not_found", status: 404 },
  EISDIR: { code: "bad_request", status: 400 },
  NOTREGULAR: { code: "bad_request", status: 400 },
  TOOLARGE: { code: "too_large", status: 413 },
  UTF8: { code: "bad_request", status: 400 },
  EIO: { code: "io_error", status: 500 },
};

/**
 * An input could not be read as asked: not a regular file, too large, invalid UTF-8, missing.
 * `label` names it, `kind` says what was wrong (`code`/`status` follow from it: `not_found` 404,
 * `too_large` 413, `io_error` 500, else `bad_request` 400).
 */
export class InputFileError extends GroundwireError {
  constructor(
    readonly label: string,
    readonly reason: string,
    readonly kind: InputFileFault,
  ) {
    // "no such file: x" reads best with the name last; every other reason follows the name.
    super(kind === "ENOENT" ? `${reason}: ${label}` : `${label}: ${reason}`, INPUT_FAULTS[kind]);
    this.name = "InputFileError";
  }
}

/**
 * Refuse a path that exists and is not a regular file (a folder, a device, a FIFO, a
 * socket), by its type alone: nothing is opened, so a FIFO without a writer cannot hang it
 * and `/dev/zero` is never read. For a check that must come before another one (the format
 * named by an extension a folder or a device does not have). A missing path, a dangling
 * link or one that cannot be stat'ed is left to the read that follows to name.
 *
 * @param path the path (symlinks followed)
 * @param label name used in errors (default: the path)
 * @throws InputFileError `is a directory, not a file` (EISDIR) or `is not a regular file …` (NOTREGULAR)
 */
export function refuseNonRegular(path: string, label = path): void {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (st?.isDirectory()) throw new InputFileError(label, "is a directory, not a file", "EISDIR");
  if (st && !st.isFile()) throw new InputFileError(label, "is not a regular file (a device, FIFO or socket); pass - to read standard input", "NOTREGULAR");
}

/**
 * The bytes of a regular file, at most `maxBytes` of them.
 *
 * @param path file path (symlinks are followed; what they point at must be a regular file)
 * @param options.maxBytes size cap in bytes (default {@link DEFAULT_MAX_INPUT_BYTES})
 * @param options.label name used in errors (default: the path)
 * @throws InputFileError `no such file`, `is a directory`, `is not a regular file …`,
 *   `is N bytes, over the limit of M`, or the file system's reason (permission …)
 */
export function readRegularFile(path: string, options: { maxBytes?: number; label?: string } = {}): Buffer {
  const label = options.label ?? path;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked right after.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fsInputError(label, error);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new InputFileError(label, "is a directory, not a file", "EISDIR");
    if (!st.isFile()) throw new InputFileError(label, "is not a regular file (a device, FIFO or socket); pass - to read standard input", "NOTREGULAR");
    if (st.size > maxBytes) throw new InputFileError(label, `is ${st.size} bytes, over the limit of ${maxBytes} bytes`, "TOOLARGE");
    return readAll(fd, maxBytes, label, st.size);
  } finally {
    closeSync(fd);
  }
}

/**
 * Everything readable from `fd` up to `maxBytes` (one byte more means over the cap).
 * A non-blocking descriptor with nothing to read yet (EAGAIN) is waited on briefly, so a
 * pipe on standard input is read to its end.
 */
export function readAll(fd: number, maxBytes: number, label: string, sizeHint = 0): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint + 1, 64 * 1024), maxBytes + 1));
  let length = 0;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) break;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    let n: number;
    try {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        Atomics.wait(pause, 0, 0, 5);
        continue;
      }
      if (code === "EOF") break;
      throw fsInputError(label, error);
    }
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) throw new InputFileError(label, `is over the limit of ${maxBytes} bytes`, "TOOLARGE");
  return buffer.subarray(0, length);
}

/**
 * Whether `bytes` look like UTF-16 text: a UTF-16 byte-order mark (FF FE or FE FF), or, in the first
 * 4 KiB (of 8 bytes or more), NUL in at least half of the even or of the odd positions — UTF-16 of
 * mostly ASCII text, which is valid UTF-8 with a NUL beside every letter (no text file holds that).
 */
export function looksUtf16(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const n = Math.min(bytes.length, 4096);
  if (n < 8) return false;
  let even = 0, odd = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) i % 2 ? odd++ : even++;
  return even * 2 >= Math.ceil(n / 2) || odd * 2 >= Math.floor(n / 2);
}

/**
 * Decode UTF-8 strictly. A byte order mark is kept as U+FEFF unless `stripBom`.
 * @throws InputFileError `<label>: UTF-16, not UTF-8 text (convert it first, e.g. iconv -f utf-16 -t utf-8)`
 *   when the bytes look like UTF-16 (`looksUtf16`), else `<label>: invalid UTF-8 at byte N` (0-based
 *   offset of the first bad byte)
 */
export function decodeUtf8(bytes: Uint8Array, label: string, options: { stripBom?: boolean } = {}): string {
  if (looksUtf16(bytes)) throw new InputFileError(label, "UTF-16, not UTF-8 text (convert it first, e.g. iconv -f utf-16 -t utf-8)", "UTF8");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: !options.stripBom }).decode(bytes);
  } catch {
    throw new InputFileError(label, `invalid UTF-8 at byte ${invalidUtf8Offset(bytes)}`, "UTF8");
  }
}

/**
 * Byte offset of the first invalid UTF-8 sequence. The WHATWG decoder (replacement mode)
 * turns each maximal invalid subpart into one U+FFFD and leaves valid text as is, so the
 * offset is the UTF-8 length of everything before the first U+FFFD that is not itself an
 * encoded U+FFFD (EF BF BD) in the input.
 */
function invalidUtf8Offset(bytes: Uint8Array): number {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfffd && !(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
    offset += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return offset;
}

function fsInputError(label: string, error: unknown): InputFileError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new InputFileError(label, "no such file", "ENOENT");
  if (code === "EISDIR") return new InputFileError(label, "is a directory, not a file", "EISDIR");
  if (code === "EACCES" || code === "EPERM") return new InputFileError(label, "permission denied", "EIO");
  return new InputFileError(label, `cannot read (${code ?? (error as Error).message})`, "EIO");
}

/**
 * Read a regular file as UTF-8 text, strictly (see {@link readRegularFile}, {@link decodeUtf8}).
 * @throws InputFileError
 */
export function readTextFile(path: string, options: { maxBytes?: number; label?: string; stripBom?: boolean } = {}): string {
  const label = options.label ?? path;
  return decodeUtf8(readRegularFile(path, options), label, options);
}

/**
 * A file could not be written: names the path and what failed (the target is untouched).
 * `errno` is the system's code when the write itself failed: `no_space` 507 for a full disk or
 * quota, `io_error` 500 for any other; a target refused before writing is `bad_request` 400.
 */
export class OutputFileError extends GroundwireError {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly errno?: string,
  ) {
    super(
      `cannot write ${path}: ${reason}`,
      errno === undefined ? { code: "bad_request", status: 400 } : errno === "ENOSPC" || errno === "EDQUOT" ? { code: "no_space", status: 507 } : { code: "io_error", status: 500 },
    );
    this.name = "OutputFileError";
  }
}

/**
 * Where a write to `path` lands: the path itself, or what an existing symlink points at
 * (a link is written through, not replaced by a file).
 */
export function outputTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Check that `path` can be written before any work starts: its folder exists and is
 * writable, and it is not an existing folder or special file, nor read-only.
 * @returns the real target path (symlinks resolved)
 * @throws OutputFileError naming what is wrong
 */
export function checkWritable(path: string): string {
  const target = outputTarget(path);
  let st;
  try {
    st = statSync(target);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) throw new OutputFileError(path, "it is a directory");
  if (st && !st.isFile()) throw new OutputFileError(path, "it is not a regular file (use - for standard output)");
  refuseFolderSyntax(path);
  const folder = dirname(target);
  let folderStat;
  try {
    folderStat = statSync(folder);
  } catch {
    throw new OutputFileError(path, `folder ${folder} does not exist`);
  }
  if (!folderStat.isDirectory()) throw new OutputFileError(path, `${folder} is not a folder`);
  if (!canWrite(folder)) throw new OutputFileError(path, `folder ${folder} is not writable`);
  if (st && !canWrite(target)) throw new OutputFileError(path, "it is read-only");
  return target;
}

/**
 * A path written as a folder (`out.ttl/`, `out/.`, `out/..`) names no file to write: the
 * system refuses it (ENOTDIR or EISDIR), but `resolve` drops the ending and would write
 * `out.ttl` all the same. Refused before anything is resolved.
 */
function refuseFolderSyntax(path: string): void {
  if (/[\\/]\.{0,2}$/.test(path) || path === "." || path === "..") throw new OutputFileError(path, "a path ending in / (or /. or /..) names a folder, not a file");
}

/** access(2) with W_OK: whether this process's user may write `path`. */
function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Write `data` to `path` atomically: readers see the old file or the new one, never a part.
 * A temporary file `.<name>.<pid>.<random>.tmp` is created beside the target with
 * O_CREAT|O_EXCL|O_NOFOLLOW (a planted file or symlink makes it fail instead of being
 * followed), given the existing target's mode (or 0666 less the umask), written, fsynced,
 * renamed over the target, and the folder fsynced; on any failure it is removed and the
 * target is left as it was. An existing symlink at `path` is written through (its target
 * is replaced). Before writing, the temporaries a killed writer left in that folder are
 * removed ({@link removeStaleTemporaries}).
 *
 * @param path file to write
 * @param data text (written as UTF-8) or bytes
 * @param options.mode the new file's mode whatever the old one was (e.g. 0o600 for a secret:
 *   the temporary is created with it, so the data is never readable by others at any moment)
 * @throws OutputFileError naming the path and the file system's reason (ENOSPC …)
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number } = {}): void {
  const target = outputTarget(path);
  let mode: number | undefined;
  try {
    const st = lstatSync(target);
    if (st.isDirectory()) throw new OutputFileError(path, "it is a directory");
    if (!st.isFile()) throw new OutputFileError(path, "it is not a regular file");
    mode = st.mode & 0o7777;
  } catch (error) {
    if (error instanceof OutputFileError) throw error;
  }
  refuseFolderSyntax(path);
  if (options.mode !== undefined) mode = options.mode;
  const folder = dirname(target);
  removeStaleTemporaries(folder);
  let temporary = "";
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt++) {
    // node:crypto is taken here, at the first write, not imported: loading it is ≈ 5 ms of start-up
    temporary = join(folder, `.${basename(target)}.${process.pid}.${process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex")}.tmp`);
    try {
      fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o666);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && attempt < 5) continue;
      throw outputError(path, error);
    }
  }
  try {
    if (mode !== undefined) fchmodSync(fd, mode);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, target);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // already renamed or never created
    }
    throw outputError(path, error);
  }
  // Make the rename itself durable; a folder that cannot be opened for fsync (some
  // file systems) does not undo a completed write.
  try {
    const dirFd = openSync(folder, constants.O_RDONLY);
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // best effort
  }
}

/**
 * The name {@link writeFileAtomic} gives its temporaries: `.<target name>.<writer pid>.<16 hex>.tmp`.
 * Groups: 1 the target's name, 2 the writer's pid.
 */
export const TEMPORARY_NAME = /^\.(.+)\.([1-9]\d{0,9})\.[0-9a-f]{16}\.tmp$/;

/**
 * Remove the temporaries of {@link writeFileAtomic} in `folder` whose writer is gone: names
 * matching {@link TEMPORARY_NAME} exactly whose pid is not a live process (`kill(pid, 0)`
 * fails with ESRCH). A writer killed mid-write (SIGKILL, a power cut) leaves one; the next
 * write to the folder removes it. Nothing else is touched: not another name, not a live
 * writer's temporary, not one of a pid this process may not signal (EPERM: alive), not
 * anything but a regular file (a symlink of that name stays). Best
 * effort: a folder that cannot be listed, or a file already gone, is passed over.
 *
 * Pids are those of this host's PID namespace: a folder shared with writers in another
 * namespace (containers on one volume) may see a live writer's temporary removed; that
 * writer's rename then fails and its target stays as it was.
 *
 * @returns the names removed
 */
export function removeStaleTemporaries(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const alive = new Map<number, boolean>();
  for (const name of names) {
    const m = TEMPORARY_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    if (pid === process.pid) continue;
    let live = alive.get(pid);
    if (live === undefined) {
      live = processAlive(pid);
      alive.set(pid, live);
    }
    if (live) continue;
    try {
      // only a regular file, as the writer makes them: a symlink or folder of that name is not ours
      if (!lstatSync(join(folder, name)).isFile()) continue;
      unlinkSync(join(folder, name));
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Whether `pid` names a running process (signal 0 checks without sending; EPERM means it exists). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** An OutputFileError for a failed file system call, the call's error kept as `cause` (its errno `code`: ENOSPC …). */
function outputError(path: string, error: unknown): OutputFileError {
  const out = new OutputFileError(path, reasonOf(error), (error as NodeJS.ErrnoException).code ?? "EIO");
  Object.defineProperty(out, "cause", { value: error, writable: true, configurable: true, enumerable: false });
  return out;
}

/** What a write's errno means, for the ones a write can meet (ENOSPC, EACCES … have their own words above). */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "it is a directory",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many open files in this process",
  ENFILE: "too many open files in the system",
  EBUSY: "the file or device is busy",
  ETXTBSY: "the file is a running program",
  EEXIST: "a file of the temporary's name already exists",
  EINVAL: "the file system refuses this name or operation",
  EIO: "input/output error on the device",
  EFBIG: "the file is too large for the file system",
  EXDEV: "the temporary and the target are on different file systems",
  EMLINK: "too many links",
};

function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ENOSPC") return "no space left on the device";
  if (e.code === "EACCES" || e.code === "EPERM") return "permission denied";
  if (e.code === "EROFS") return "read-only file system";
  if (e.code === "EDQUOT") return "disk quota exceeded";
  // the system's reason in words, its code after it for a search (never the bare code)
  const words = e.code ? ERRNO_WORDS[e.code] : undefined;
  if (words) return `${words} (${e.code})`;
  return e.code ? `${withoutPathTail(e.message.replace(/^[A-Z]+: /, ""))} (${e.code})` : e.message;
}

/** A system message without Node's `, open '<path>'` or `, rename '<path>'` tail (by index: linear in any message). */
function withoutPathTail(message: string): string {
  if (!message.endsWith("'")) return message;
  const cuts = [message.indexOf(", open '"), message.indexOf(", rename '")].filter((i) => i >= 0);
  return cuts.length ? message.slice(0, Math.min(...cuts)) : message;
}
