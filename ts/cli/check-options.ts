/**
 * The flags of the checks' work bounds and worker pool, one definition for `serve` and `mcp`
 * (defaults in ts/server/defaults.ts; docs/serving.md, "Work bounds and the worker pool").
 */
import { CHECK_DEFAULTS, defaultCheckWorkers, defaultMaxChecks } from "../server/defaults.js";
import type { CheckLimits } from "../server/checks.js";
import type { CheckRunner, WorkerContextOptions } from "../server/pool.js";
import type { EndpointSpec, SparqlSettings } from "../server/endpoints.js";
import { integerOption } from "./common.js";
import { durationOption, sizeOption } from "./units.js";

export const CHECK_OPTIONS = {
  "max-triples": { type: "string" },
  "max-fragments": { type: "string" },
  "max-output-chars": { type: "string" },
  "max-query-chars": { type: "string" },
  "max-quotes": { type: "string" },
  "check-timeout": { type: "string" },
  "check-memory": { type: "string" },
  "check-workers": { type: "string" },
  "max-checks": { type: "string" },
} as const;

export const CHECK_HELP = `  --max-triples N       triples a request's graph, scope or schema may hold (default ${CHECK_DEFAULTS.maxTriples})
  --max-fragments N     fragments a document may be cut into (default ${CHECK_DEFAULTS.maxFragments})
  --max-output-chars N  characters of one check's JSON answer (default ${CHECK_DEFAULTS.maxOutputChars})
  --max-query-chars N   characters of a SPARQL query or a plan's JSON (default ${CHECK_DEFAULTS.maxQueryChars})
  --max-quotes N        quotes checked per reply, later ones unchecked (default ${CHECK_DEFAULTS.maxQuotes})
  --check-timeout T     time budget of one check, ms or with a unit (30s; default ${CHECK_DEFAULTS.checkTimeoutMs})
  --check-memory SIZE   heap of each check worker, MiB or with a unit (1GiB; default ${CHECK_DEFAULTS.checkMemoryMb})
  --check-workers N     worker threads, 0 = run the checks on the main thread (default: cores - 1, at least 2)
  --max-checks N        checks running or queued at once, more answer 503 overloaded (default: 2 × workers)`;

/** The checks' settings as read from the flags. */
export interface CheckSettings {
  limits: CheckLimits;
  workers: number;
  maxInFlight: number;
  timeoutMs: number;
  memoryMb: number;
}

/** Read and check the flags of {@link CHECK_OPTIONS}. @throws CliError (exit 2) naming a bad value */
export function readCheckOptions(command: string, values: Partial<Record<keyof typeof CHECK_OPTIONS, string | undefined>>): CheckSettings {
  const whole = (name: keyof typeof CHECK_OPTIONS, fallback: number, min: number, max: number) => integerOption(command, name, values[name], { fallback, min, max });
  const workers = whole("check-workers", defaultCheckWorkers(), 0, 64);
  return {
    limits: {
      maxTriples: whole("max-triples", CHECK_DEFAULTS.maxTriples, 1, 1e9),
      maxFragments: whole("max-fragments", CHECK_DEFAULTS.maxFragments, 1, 1e9),
      maxOutputChars: whole("max-output-chars", CHECK_DEFAULTS.maxOutputChars, 1, 2 ** 29 - 24),
      maxQueryChars: whole("max-query-chars", CHECK_DEFAULTS.maxQueryChars, 1, 1e9),
      maxQuotes: whole("max-quotes", CHECK_DEFAULTS.maxQuotes, 0, 1e6),
    },
    workers,
    maxInFlight: whole("max-checks", defaultMaxChecks(Math.max(1, workers)), 1, 100_000),
    // Node's timers are 32-bit
    timeoutMs: durationOption(command, "--check-timeout", values["check-timeout"], { fallbackMs: CHECK_DEFAULTS.checkTimeoutMs, bareUnit: "ms", maxMs: 2 ** 31 - 1 }),
    memoryMb: sizeOption(command, "check-memory", values["check-memory"], { fallback: CHECK_DEFAULTS.checkMemoryMb, unitBytes: 2 ** 20, min: 16, max: 1 << 20 }),
  };
}

/** The worker pool for these settings, or undefined with `--check-workers 0` (checks on the main thread). */
export async function startCheckPool(settings: CheckSettings, context: Omit<WorkerContextOptions, "limits">, log: (m: string) => void): Promise<CheckRunner | undefined> {
  if (settings.workers === 0) return undefined;
  const { createCheckPool } = await import("../server/pool.js");
  return createCheckPool({
    ...context,
    limits: settings.limits,
    workers: settings.workers,
    maxInFlight: settings.maxInFlight,
    timeoutMs: settings.timeoutMs,
    memoryMb: settings.memoryMb,
    log,
  });
}
