/**
 * The flags naming the SPARQL endpoints `run_sparql` may run on, one definition for `serve` and
 * `mcp` (ts/server/endpoints.ts parses and loads them).
 */
import { parseEndpointSpecs, type EndpointSpec } from "../server/endpoints.js";
import { CliError } from "./common.js";

export const ENDPOINT_OPTIONS = {
  endpoint: { type: "string", multiple: true },
  "endpoint-token-file": { type: "string", multiple: true },
} as const;

export const ENDPOINT_HELP = `  --endpoint NAME=URL  a SPARQL endpoint run_sparql (POST /sparql/run) may run checked queries on (repeatable)
  --endpoint-token-file [NAME=]FILE  its bearer token is the file's first line (bare FILE: every endpoint's)`;

/** The endpoints of the flags. @throws CliError (exit 2) naming a bad pair */
export function readEndpointOptions(command: string, values: { endpoint?: string[]; "endpoint-token-file"?: string[] }): EndpointSpec[] {
  try {
    return parseEndpointSpecs(values.endpoint ?? [], values["endpoint-token-file"] ?? []);
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}`, 2);
  }
}
