/**
 * What runs the checks somewhere else than the caller's thread (the worker pool of pool.ts), as
 * checks.ts's context names it: in a file of its own so checks.ts and pool.ts do not import
 * each other.
 */

/** The checks a runner runs, by name (the name crosses to the worker; the function cannot). */
export type CheckName = "verifyQuotes" | "verifyBookText" | "checkSparql" | "indexGraph" | "critiqueGraph" | "renderGraph" | "fragmentDocumentBody" | "resolveCitations" | "searchBook" | "runSparql" | "prepareRunSparql" | "shapeRunSparql" | "exploreSchema" | "describeSchemaTerm" | "markQuotes" | "locateQuote" | "locateBookText";

/** Runs checks somewhere else than the caller's thread. */
export interface CheckRunner {
  /** Run check `name` on a body its schema validated; resolves to the answer's JSON text. */
  run(name: CheckName, body: unknown): Promise<string>;
  /** Checks running or queued now. */
  readonly inFlight: number;
  /** Stop the workers (running checks are abandoned). */
  close(): Promise<void>;
}
