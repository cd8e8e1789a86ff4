/**
 * Benchmark reports: the JSON kept in bench/results/<date>.json and the markdown tables
 * (bench/results/latest.md, all parts) the docs/bench-results*.md pages embed (some parts each).
 * Shared by bench/run.ts and bench/readme.ts.
 */
import { formatMs, formatRate, formatRatio, type CaseResult } from "./timing.js";

/** One part's results. */
export interface SuiteResult {
  part: string;
  /** Why some or all of its cases did not run (data absent…). */
  skipped?: string;
  /** The suite failed to load or build its cases. */
  error?: string;
  cases: CaseResult[];
  seconds: number;
}

/** Everything one `npm run bench` measured, and where. */
export interface BenchReport {
  generatedBy: string;
  command: string;
  date: string;
  commit: string | null;
  machine: { cpu: string; cores: number; memoryGB: number; platform: string; node: string; v8: string; python: string | null };
  /** Time-budget scale of this run (1 = the defaults; GROUNDWIRE_BENCH_SCALE or --quick). */
  scale: number;
  suites: SuiteResult[];
  seconds: number;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * The markdown of a report: the run's stamp, then one table per part (cases × contenders side by
 * side), notes under it. `parts`: only those parts, in the report's order (default: all).
 */
export function reportMarkdown(report: BenchReport, parts?: readonly string[]): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(
    `Measured by \`${report.command}\` on ${report.date.slice(0, 10)}${report.commit ? ` at commit \`${report.commit.slice(0, 10)}\`` : ""}: ` +
      `${m.cpu} (${m.cores} cores), ${m.platform}, Node ${m.node}${m.python ? `, ${m.python}` : ""}; whole run ${Math.round(report.seconds)} s` +
      `${report.scale !== 1 ? ` (time budgets ×${report.scale})` : ""}. ` +
      `Medians per run; every contender's output was checked before it was timed; ratios are against the case's baseline (first row).`,
  );
  for (const suite of report.suites) {
    if (parts && !parts.includes(suite.part)) continue;
    const inCases = suite.cases.reduce((t, c) => t + c.seconds, 0);
    // the heading is the part's name alone, so a page links to it (bench-results.md#stall) across runs
    out.push("", `#### ${suite.part}`, "", `${Math.round(suite.seconds)} s: ${Math.round(inCases)} s timing its cases, ${Math.round(suite.seconds - inCases)} s preparing them.`);
    if (suite.error) out.push("", `Failed: ${suite.error}`);
    if (suite.skipped) out.push("", `Skipped in part: ${suite.skipped}`);
    if (!suite.cases.length) continue;
    out.push("", "| case | size | contender | median | throughput | vs baseline |", "|---|---|---|---:|---:|---:|");
    const notes: string[] = [];
    for (const c of suite.cases) {
      c.contenders.forEach((r, i) => {
        const status = r.error ? ` (${r.error.startsWith("check failed") ? "✗ " : ""}${r.error})` : "";
        if (r.note) notes.push(`${c.name} — ${r.name}: ${r.note}`);
        out.push(
          `| ${i === 0 ? cell(c.name) : ""} | ${i === 0 ? c.size : ""} | ${cell(r.name)}${cell(status)} | ${formatMs(r.medianMs)} | ${formatRate(r.perSecond, c.units?.unit)} | ${formatRatio(r, c.baseline)} |`,
        );
      });
      if (c.extra && Object.keys(c.extra).length) {
        notes.push(`${c.name}: ${Object.entries(c.extra).map(([k, v]) => `${k} ${v}`).join(", ")}`);
      }
    }
    if (notes.length) out.push("", ...notes.map((n) => `- ${n}`));
  }
  return out.join("\n") + "\n";
}

/** The same figures as aligned plain text, for the terminal. */
export function caseText(part: string, c: CaseResult): string {
  const rows = c.contenders.map((r) => [
    r.name,
    formatMs(r.medianMs),
    formatRate(r.perSecond, c.units?.unit),
    formatRatio(r, c.baseline),
    r.kind === "external" ? `${r.samples} samples (own timing)` : `${r.samples}×${r.batch ?? 1} runs`,
    r.error ? `✗ ${r.error}` : (r.note ?? ""),
  ]);
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => "  " + row.slice(0, 5).map((v, i) => (i === 0 || i === 4 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ") + (row[5] ? `  ${row[5]}` : ""));
  const extra = c.extra && Object.keys(c.extra).length ? `\n  ${Object.entries(c.extra).map(([k, v]) => `${k}: ${v}`).join(" · ")}` : "";
  return `\n${part} — ${c.name} [${c.size}] (${c.seconds.toFixed(1)} s)\n${lines.join("\n")}${extra}`;
}
