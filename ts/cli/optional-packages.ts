/**
 * The packages only some commands need, installed by the user who needs them: a library
 * install (`npm i groundwire`) carries the library and the CLI, not the HTTP/MCP stack or
 * the PostgreSQL driver. package.json lists them as optional peer dependencies; a command
 * that needs one checks for it before loading it and, when it is missing, says in one line
 * what to install (exit 1), rather than failing deep inside with Node's module error.
 */
import { CliError } from "./common.js";

/** What `serve` and `mcp` load: HTTP, MCP, the request log and the checks' worker pool (the import each package is loaded by). */
export const SERVER_PACKAGES = {
  hono: "hono",
  "@hono/node-server": "@hono/node-server",
  "@modelcontextprotocol/sdk": "@modelcontextprotocol/sdk/types.js",
  pino: "pino",
  piscina: "piscina",
} as const;

/**
 * What `mcp` (stdio) loads: MCP, the worker pool, and hono for the error mapping the tools share
 * with the HTTP routes; no HTTP server and no request log (`test/cli/optional-packages.test.ts`
 * compares both lists with the packages the built commands import).
 */
export const MCP_PACKAGES = {
  hono: "hono",
  "@modelcontextprotocol/sdk": "@modelcontextprotocol/sdk/types.js",
  piscina: "piscina",
} as const;

/** What `--store` (and `corpus`) load: the PostgreSQL client. */
export const STORE_PACKAGES = { pg: "pg" } as const;

/** Whether `specifier` resolves from the package's own files, as its import would. */
function resolves(specifier: string): boolean {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/**
 * Check that `packages` are installed before a command loads them.
 * @param what the feature as the message names it (`groundwire serve`, `--store`)
 * @throws CliError (exit 1) naming every missing package and the command that installs them
 */
export function requirePackages(command: string, what: string, packages: Readonly<Record<string, string>>): void {
  const missing = Object.entries(packages)
    .filter(([, specifier]) => !resolves(specifier))
    .map(([name]) => name);
  if (!missing.length) return;
  // `serve: needs …` for the command itself, `books: --store needs …` for an option of it
  const subject = what === `groundwire ${command}` ? "" : `${what} `;
  throw new CliError(`${command}: ${subject}needs ${missing.join(", ")}, not installed with the library: npm install ${missing.join(" ")}`);
}
