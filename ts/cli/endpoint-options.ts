/**
 * The flags naming the SPARQL endpoints `run_sparql` may run on, one definition for `serve` and
 * `mcp` (ts/server/endpoints.ts parses and loads them).
 */
import { parseEndpointSpecs, type EndpointSpec, type SparqlSettings } from "../server/endpoints.js";
import { PREFIX_PRESETS, PREFIX_PRESET_NAMES, SPARQL_DIALECTS, type SparqlDialect } from "../kernel/index.js";
import { CliError, echo } from "./common.js";
import { optionLines } from "./help-rows.js";

export const ENDPOINT_OPTIONS = {
  endpoint: { type: "string", multiple: true },
  "endpoint-token-file": { type: "string", multiple: true },
  dialect: { type: "string" },
  prefixes: { type: "string" },
} as const;

/** The flags of the SPARQL a query is written in, for check, serve and mcp. */
export const DIALECT_OPTIONS = { dialect: { type: "string" }, prefixes: { type: "string" } } as const;

/** The help lines of {@link DIALECT_OPTIONS}, descriptions from `column` on (the column of the command's own options). */
export function dialectHelp(column: number): string {
  return optionLines(column, [
    ["--dialect NAME", "the SPARQL queries are written in: sparql11 (default) or virtuoso (its bare SELECT\naggregates and expressions, e.g. SELECT DISTINCT COUNT(?uri), read as the standard\nform with a warning and the fix, and its predeclared prefixes)"],
    ["--prefixes PRESET", `prefixes the endpoint predeclares, assumed in every query: ${PREFIX_PRESET_NAMES.join(", ")}`],
  ]);
}

/** The help lines of {@link ENDPOINT_OPTIONS}, descriptions from `column` on. */
export function endpointHelp(column: number): string {
  return `${optionLines(column, [
    ["--endpoint NAME=URL", "a SPARQL endpoint run_sparql (POST /sparql/run) may run checked queries on (repeatable)"],
    ["--endpoint-token-file [NAME=]FILE", "its bearer token is the file's first line (bare FILE: every endpoint's)"],
  ])}\n${dialectHelp(column)}`;
}

/** `--dialect` and `--prefixes` as settings. @throws CliError (exit 2) naming an unknown dialect or preset */
export function readDialectOptions(command: string, values: { dialect?: string; prefixes?: string }): SparqlSettings {
  const settings: SparqlSettings = {};
  if (values.dialect !== undefined) {
    if (!(SPARQL_DIALECTS as readonly string[]).includes(values.dialect)) throw new CliError(`${command}: --dialect must be one of ${SPARQL_DIALECTS.join(", ")}, got ${echo(values.dialect)}`, 2);
    settings.dialect = values.dialect as SparqlDialect;
  }
  if (values.prefixes !== undefined) {
    const preset = Object.hasOwn(PREFIX_PRESETS, values.prefixes) ? PREFIX_PRESETS[values.prefixes] : undefined;
    if (!preset) throw new CliError(`${command}: --prefixes must be a preset: ${PREFIX_PRESET_NAMES.join(", ")}, got ${echo(values.prefixes)}`, 2);
    settings.prefixes = { ...preset };
  }
  return settings;
}

/** The endpoints of the flags. @throws CliError (exit 2) naming a bad pair */
export function readEndpointOptions(command: string, values: { endpoint?: string[]; "endpoint-token-file"?: string[] }): EndpointSpec[] {
  try {
    return parseEndpointSpecs(values.endpoint ?? [], values["endpoint-token-file"] ?? []);
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}`, 2);
  }
}
