/**
 * The bearer token of `groundwire serve`, settled at start (modelled on Jupyter server).
 * Sources, in order: `--token-file FILE` (its first line), the environment variable
 * `GROUNDWIRE_TOKEN`; with neither, a random one (32 bytes, base64url) is made, saved as
 * `<--data>/token` (mode 0600, written atomically, reused on the next start) or, without
 * `--data`, printed once on stderr. `--no-auth` opens the server instead (loopback only;
 * checked by the caller). A token must be an RFC 6750 b64token; an empty or blank
 * `GROUNDWIRE_TOKEN` is refused rather than read as "no token".
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { GroundwireError } from "../errors.js";
import { decodeUtf8, InputFileError, OutputFileError, readRegularFile, writeFileAtomic } from "../files.js";

/** RFC 6750 b64token: the characters a bearer token may hold. */
export const BEARER_TOKEN_RE = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Longest token accepted, in characters. */
export const MAX_TOKEN_LENGTH = 4096;

/** A token source that cannot be used (the CLI exits 2 with this message). */
export class TokenConfigError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_token_config", status: 400 });
  }
}

/** The token settled at start and the line that says where it is (never the token itself, except a printed one-off). */
export interface SettledToken {
  /** Null with --no-auth. */
  token: string | null;
  /** Notice for stderr. */
  notice: string;
}

/** Why `token` is not a usable bearer token, or null when it is. */
export function tokenProblem(token: string): string | null {
  if (token.trim() === "") return "is empty or blank";
  if (token.length > MAX_TOKEN_LENGTH) return `is longer than ${MAX_TOKEN_LENGTH} characters`;
  if (!BEARER_TOKEN_RE.test(token)) return "holds characters a bearer token cannot (RFC 6750: letters, digits and - . _ ~ + /, then = padding)";
  return null;
}

/** The first line of a token file, trimmed (a regular file of at most 64 KiB: /dev/zero or a FIFO is refused). */
function readTokenFile(path: string, label: string): string {
  try {
    return decodeUtf8(readRegularFile(path, { maxBytes: 64 * 1024, label }), label).split(/\r?\n/, 1)[0]!.trim();
  } catch (error) {
    if (error instanceof InputFileError) throw new TokenConfigError(error.message);
    throw error;
  }
}

/**
 * Settle the token.
 *
 * @param options.tokenFile `--token-file`
 * @param options.env the value of `GROUNDWIRE_TOKEN` (undefined when unset)
 * @param options.dataDir `--data`: where a made token is saved and found again
 * @param options.noAuth `--no-auth`
 * @throws TokenConfigError naming the source and what is wrong with it (never its value)
 */
export function settleToken(options: { tokenFile?: string; env?: string; dataDir?: string; noAuth?: boolean }): SettledToken {
  const { tokenFile, env, dataDir } = options;
  if (env !== undefined) {
    const problem = tokenProblem(env);
    if (problem) throw new TokenConfigError(`GROUNDWIRE_TOKEN ${problem}; unset it to have a token made, or set it to a token`);
  }
  if (options.noAuth) {
    if (tokenFile !== undefined) throw new TokenConfigError("--no-auth and --token-file contradict each other; give one");
    if (env !== undefined) throw new TokenConfigError("--no-auth and GROUNDWIRE_TOKEN contradict each other; unset GROUNDWIRE_TOKEN or drop --no-auth");
    return { token: null, notice: "--no-auth: no token is required; any program or user on this machine can use the server (and the model key it holds)" };
  }
  if (tokenFile !== undefined) {
    const token = readTokenFile(tokenFile, `--token-file ${tokenFile}`);
    const problem = tokenProblem(token);
    if (problem) throw new TokenConfigError(`the first line of --token-file ${tokenFile} ${problem}`);
    return { token, notice: `requests need Authorization: Bearer <the first line of ${tokenFile}>` };
  }
  if (env !== undefined) return { token: env, notice: "requests need Authorization: Bearer <the value of GROUNDWIRE_TOKEN>" };
  if (dataDir === undefined) {
    const token = randomBytes(32).toString("base64url");
    return {
      token,
      notice: `made a token for this run (not saved: no --data; keep one with --token-file or GROUNDWIRE_TOKEN); requests need Authorization: Bearer ${token}`,
    };
  }
  const path = join(dataDir, "token");
  let exists = false;
  try {
    lstatSync(path);
    exists = true;
  } catch {
    // none yet
  }
  if (exists) {
    const token = readTokenFile(path, path);
    const problem = tokenProblem(token);
    if (problem) throw new TokenConfigError(`the saved token ${path} ${problem}; remove the file to have a new one made`);
    const mode = lstatSync(path).mode & 0o777;
    const loose = mode & 0o077 ? ` (warning: it is readable by others, mode 0${mode.toString(8)}; chmod 600 it)` : "";
    return { token, notice: `requests need Authorization: Bearer <the token saved in ${path}>${loose}` };
  }
  const token = randomBytes(32).toString("base64url");
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileAtomic(path, `${token}\n`, { mode: 0o600 });
  } catch (error) {
    if (error instanceof OutputFileError) throw new TokenConfigError(`cannot save the token: ${error.message}`);
    throw new TokenConfigError(`cannot save the token in ${dataDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { token, notice: `made a token and saved it in ${path} (mode 0600); requests need Authorization: Bearer <the token in that file>` };
}
