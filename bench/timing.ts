/**
 * The measuring core of the benchmark harness, shared by `bench/run.ts` (a clone's
 * `npm run bench`) and the `groundwire bench` command (an installed package).
 *
 * For each contender of a case: run it once and `check` the output (a contender whose
 * output is wrong is reported, never timed); calibrate a batch so one sample lasts at
 * least ~1 ms (timer resolution and call overhead stay below 1 %); then take samples
 * until the time budget is spent, with at least `minSamples` (3 when one run is longer
 * than half the budget; the checked run alone when it exceeds the whole budget) and at
 * most `maxSamples`. The figure reported is the median
 * milliseconds per run; external contenders (python3) report their own median.
 * Ratios are medians divided by the baseline contender's median (lower is faster).
 */
import type { BenchCase } from "./harness.js";

/** Limits of one contender's timing. */
export interface TimingOptions {
  /** Wall-clock budget per contender, in ms (default 1500 small / 3000 large and pathological). */
  budgetMs?: number;
  minSamples?: number;
  maxSamples?: number;
}

/** One contender's figures on one case. */
export interface ContenderResult {
  name: string;
  kind: "inprocess" | "external";
  /** Median ms per run; null when the check failed or the contender threw. */
  medianMs: number | null;
  /** Fastest and slowest sample (ms per run), in-process only. */
  minMs?: number;
  maxMs?: number;
  samples: number;
  /** Runs per sample (batching of fast calls). */
  batch?: number;
  /** medianMs ÷ the baseline's medianMs (null when either is missing). */
  ratio: number | null;
  /** Work units per second (e.g. quotes/s, bytes/s), from `units`. */
  perSecond: number | null;
  /** Output checked before timing (external contenders check themselves). */
  checked: boolean;
  note?: string;
  error?: string;
}

/** One case's figures. */
export interface CaseResult {
  name: string;
  size: BenchCase["size"];
  units?: BenchCase["units"];
  baseline: string;
  contenders: ContenderResult[];
  extra?: Record<string, number | string>;
  /** Wall-clock seconds the case took, checks and calibration included. */
  seconds: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** The default budget of a case size, scaled by GROUNDWIRE_BENCH_SCALE (e.g. 0.2 for a quick run). */
export function defaultBudgetMs(size: BenchCase["size"], scale = 1): number {
  return Math.max(50, Math.round((size === "small" ? 1500 : 3000) * scale));
}

/**
 * Check, calibrate and time every contender of `c` (see the module comment).
 * Never throws for a contender's failure: it is recorded in `error` and the rest go on.
 */
export async function measureCase(c: BenchCase, options: TimingOptions & { scale?: number } = {}): Promise<CaseResult> {
  const started = performance.now();
  const budget = options.budgetMs ?? (c.budgetMs !== undefined ? Math.max(50, Math.round(c.budgetMs * (options.scale ?? 1))) : defaultBudgetMs(c.size, options.scale));
  const maxSamples = options.maxSamples ?? 500;
  const rows: ContenderResult[] = [];
  for (const k of c.contenders) {
    if (k.kind === "external") {
      try {
        const m = await k.measure({ budgetMs: budget });
        rows.push({ name: k.name, kind: "external", medianMs: m.medianMs, samples: m.samples, ratio: null, perSecond: null, checked: true, note: m.note });
      } catch (e) {
        rows.push({ name: k.name, kind: "external", medianMs: null, samples: 0, ratio: null, perSecond: null, checked: false, error: errorText(e) });
      }
      continue;
    }
    try {
      const t0 = performance.now();
      const out = k.run();
      const first = performance.now() - t0;
      try {
        k.check(out);
      } catch (e) {
        rows.push({ name: k.name, kind: "inprocess", medianMs: null, samples: 0, ratio: null, perSecond: null, checked: false, error: `check failed: ${errorText(e)}` });
        continue;
      }
      // one run longer than the whole budget: that run (checked above) is the one sample
      if (first >= budget) {
        rows.push({ name: k.name, kind: "inprocess", medianMs: first, minMs: first, maxMs: first, samples: 1, batch: 1, ratio: null, perSecond: null, checked: true, note: "one run exceeds the time budget: 1 sample" });
        continue;
      }
      // calibrate: a few warm-up runs (JIT), then a batch size so a sample lasts >= ~1 ms
      let warm = first;
      const warmUntil = performance.now() + Math.min(budget / 10, 200);
      for (let i = 0; i < 3 && performance.now() < warmUntil; i++) {
        const t = performance.now();
        k.run();
        warm = Math.min(warm, performance.now() - t);
      }
      const batch = warm >= 1 ? 1 : Math.min(10_000, Math.ceil(1 / Math.max(warm, 0.001)));
      const minSamples = options.minSamples ?? (warm * batch > budget / 2 ? 3 : 5);
      const samples: number[] = [];
      const deadline = performance.now() + budget;
      while (samples.length < minSamples || (performance.now() < deadline && samples.length < maxSamples)) {
        const t = performance.now();
        for (let i = 0; i < batch; i++) k.run();
        samples.push((performance.now() - t) / batch);
      }
      rows.push({
        name: k.name,
        kind: "inprocess",
        medianMs: median(samples),
        minMs: Math.min(...samples),
        maxMs: Math.max(...samples),
        samples: samples.length,
        batch,
        ratio: null,
        perSecond: null,
        checked: true,
      });
    } catch (e) {
      rows.push({ name: k.name, kind: "inprocess", medianMs: null, samples: 0, ratio: null, perSecond: null, checked: false, error: errorText(e) });
    }
  }
  const baselineName = c.baseline ?? c.contenders[0]?.name ?? "";
  const base = rows.find((r) => r.name === baselineName)?.medianMs ?? null;
  for (const r of rows) {
    if (r.medianMs !== null && base !== null && base > 0) r.ratio = r.medianMs / base;
    if (r.medianMs !== null && r.medianMs > 0 && c.units) r.perSecond = c.units.count / (r.medianMs / 1000);
  }
  let extra: Record<string, number | string> | undefined;
  try {
    extra = c.extra?.();
  } catch (e) {
    extra = { error: errorText(e) };
  }
  return { name: c.name, size: c.size, units: c.units, baseline: baselineName, contenders: rows, extra, seconds: (performance.now() - started) / 1000 };
}

/** Three significant figures, never in exponent form (1430, 62.6, 0.639). */
export function sig3(x: number): string {
  return Math.abs(x) >= 1000 ? Math.round(x).toLocaleString("en") : x.toPrecision(3);
}

/** `1.23 ms`, `45.6 µs`, `2.10 s`: three significant figures. */
export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms >= 1000) return `${sig3(ms / 1000)} s`;
  if (ms >= 1) return `${sig3(ms)} ms`;
  if (ms >= 0.001) return `${sig3(ms * 1000)} µs`;
  return `${sig3(ms * 1e6)} ns`;
}

/** Throughput with a readable unit: bytes become MB/s; anything else `<n> <unit>/s` (k, M suffixes). */
export function formatRate(perSecond: number | null, unit: string | undefined): string {
  if (perSecond === null || !unit) return "—";
  if (unit === "bytes") return `${sig3(perSecond / 1e6)} MB/s`;
  const [n, suffix] = perSecond >= 1e6 ? [perSecond / 1e6, "M"] : perSecond >= 1e4 ? [perSecond / 1e3, "k"] : [perSecond, ""];
  return `${sig3(n)}${suffix} ${unit}/s`;
}

/** The ratio column: `baseline`, `3.20× slower`, `12.5× faster`. */
export function formatRatio(r: ContenderResult, baseline: string): string {
  if (r.name === baseline) return "baseline";
  if (r.ratio === null) return "—";
  if (r.ratio >= 1) return `${sig3(r.ratio)}× slower`;
  return `${sig3(1 / r.ratio)}× faster`;
}
