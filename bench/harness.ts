/**
 * The benchmark harness contract. Each part has `bench/<part>.bench.ts` whose
 * default export is a `BenchSuite`. The runner (bench/run.ts) checks every
 * contender's output before timing it, times in-process contenders itself
 * (warm-up, then N samples, median), asks external contenders (python3) for
 * their own medians, and reports medians and ratios side by side.
 */

/** One implementation measured on one case. */
export type Contender =
  | {
      name: string;
      kind?: "inprocess";
      /** Do the work once. The return value is passed to `check`. */
      run: () => unknown;
      /** Throw if `output` (of one `run()`) is wrong. Called before any timing. */
      check: (output: unknown) => void;
    }
  | {
      name: string;
      kind: "external";
      /**
       * Run the contender out of process (e.g. python3) on the same input; it must
       * check its own output against the expectation and time itself, returning
       * its median milliseconds per run and how many samples it took. `options.budgetMs`
       * (optional to honour) is the runner's time budget for this contender.
       */
      measure: (options?: { budgetMs: number }) => Promise<{ medianMs: number; samples: number; note?: string }>;
    };

/** One input measured by several contenders. */
export interface BenchCase {
  /** e.g. "bestSpan 5–14 words, pool of 12 passages" */
  name: string;
  /** small = per-call overhead, large = throughput, pathological = worst case kept on purpose */
  size: "small" | "large" | "pathological";
  /** Work units per run, for throughput (e.g. {count: 100, unit: "quotes"} or {count: bytes, unit: "bytes"}). */
  units?: { count: number; unit: string };
  /** The contender the ratios are computed against (default: the first). */
  baseline?: string;
  /** Time budget per contender in ms, overriding the runner's default for this size (optional). */
  budgetMs?: number;
  contenders: Contender[];
  /** Extra figures to report (memory, MB/s of a sub-step…), name → value with unit in the name. */
  extra?: () => Record<string, number | string>;
}

/** A part's benchmarks. `cases()` may skip (return []) with `skipped` set when data is absent. */
export interface BenchSuite {
  part: string;
  cases(): Promise<BenchCase[]>;
  /** Set by cases() when it could not run, e.g. "../shared/data absent". */
  skipped?: string;
}
