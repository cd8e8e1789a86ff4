/**
 * The SPARQL endpoints `serve` and `mcp` are started with (`--endpoint NAME=URL`, repeatable;
 * `--endpoint-token-file [NAME=]FILE`): parsed from the flags, then loaded (the token read from
 * its file into an `Authorization` header; it never appears in a message).
 */
import { readFileSync } from "node:fs";

/** The SPARQL queries are written in (`--dialect`, `--prefixes`): passed to every check and run. */
export interface SparqlSettings {
  dialect?: "sparql11" | "virtuoso";
  /** Prefixes the endpoint predeclares (a preset of ts/kernel/dialect.ts). */
  prefixes?: Record<string, string>;
}

/** An endpoint as given on the command line: its name, URL and the file holding its token. */
export interface EndpointSpec {
  name: string;
  url: string;
  tokenFile?: string;
}

/** An endpoint ready for requests: its URL and the headers sent (the token's `Authorization`). */
export interface EndpointTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * `--endpoint NAME=URL` pairs and `--endpoint-token-file [NAME=]FILE` (a bare FILE is every
 * endpoint's token) as specs; nothing is read yet.
 * @throws Error naming the pair when it is not NAME=URL with an http(s) URL, a name repeats, or a token file names no endpoint
 */
export function parseEndpointSpecs(pairs: readonly string[], tokenFiles: readonly string[] = []): EndpointSpec[] {
  const specs: EndpointSpec[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`--endpoint must be NAME=URL, got ${JSON.stringify(pair.slice(0, 200))}`);
    const name = pair.slice(0, eq);
    const url = pair.slice(eq + 1);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--endpoint ${name}: not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`--endpoint ${name}: the URL must be http or https`);
    if (specs.some((s) => s.name === name)) throw new Error(`--endpoint: the name ${JSON.stringify(name)} is given twice`);
    specs.push({ name, url });
  }
  for (const entry of tokenFiles) {
    const eq = entry.indexOf("=");
    const named = eq > 0 && specs.some((s) => s.name === entry.slice(0, eq));
    const file = named ? entry.slice(eq + 1) : entry;
    const targets = named ? specs.filter((s) => s.name === entry.slice(0, eq)) : specs;
    if (!targets.length) throw new Error("--endpoint-token-file: there is no --endpoint to send the token to");
    for (const t of targets) t.tokenFile = file;
  }
  return specs;
}

/**
 * Read each spec's token (the first line of its file) into its headers. The token appears in
 * no message: a file that cannot be read is named, its content never.
 * @throws Error naming the endpoint and the file when a token file cannot be read or is empty
 */
export function loadEndpoints(specs: readonly EndpointSpec[]): Map<string, EndpointTarget> {
  const out = new Map<string, EndpointTarget>();
  for (const spec of specs) {
    const headers: Record<string, string> = {};
    if (spec.tokenFile !== undefined) {
      let token: string;
      try {
        token = readFileSync(spec.tokenFile, "utf8").split(/\r?\n/, 1)[0]!.trim();
      } catch (error) {
        throw new Error(`--endpoint-token-file for ${spec.name}: cannot read ${spec.tokenFile} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      }
      if (!token) throw new Error(`--endpoint-token-file for ${spec.name}: ${spec.tokenFile} has an empty first line`);
      headers.authorization = `Bearer ${token}`;
    }
    out.set(spec.name, { url: spec.url, headers });
  }
  return out;
}
