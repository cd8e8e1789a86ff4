/**
 * Figure blocks in README.md and docs/*.md, regenerated from a bench run (bench/results/latest.json)
 * by `npm run bench:readme`, checked by test/docs/bench-figures.test.ts.
 *
 * A block is its template, kept in the opening comment, then the text made from it:
 *
 *   <!-- bench:figures
 *   | case | figure |
 *   |---|---:|
 *   | citations, suggestions off | {{evidence :: citationStatus: 10000 :: indexed (prebuilt index) :: rate}} |
 *   -->
 *   (generated: the run's stamp line, then the template with every {{…}} filled)
 *   <!-- /bench:figures -->
 *
 * A placeholder is `{{part :: case :: contender :: field}}`: the case and contender are the first
 * whose name starts with the given text; field is `median` (1.23 ms), `rate` (345k citations/s),
 * `ratio` (278× slower, against the case's baseline), `x` (the ratio as 278×), `note` (the
 * contender's note as the run wrote it: a load's req/s and p99, say) or `extra:<key>`
 * (`{{part :: case :: extra:<key>}}`, three parts). A figure the run does not have is written
 * `— (not in this run)`. The stamp names the run: command, date, commit, machine.
 */
import { formatMs, formatRate, formatRatio, sig3 } from "./timing.js";
import type { BenchReport } from "./report.js";

export const FIGURES_OPEN = "<!-- bench:figures";
export const FIGURES_CLOSE = "<!-- /bench:figures -->";
const MISSING = "— (not in this run)";

/** The line that names the run a block's figures come from. */
export function runStamp(report: BenchReport): string {
  const m = report.machine;
  const commit = report.commit ? ` at commit \`${report.commit.slice(0, 10)}\`` : "";
  return `From \`${report.command}\` of ${report.date.slice(0, 10)}${commit} (${m.cpu}, ${m.cores} cores, Node ${m.node}${report.scale !== 1 ? `, time budgets ×${report.scale}` : ""}):`;
}

function figure(report: BenchReport, spec: string): string {
  const [part, caseName, contender, field] = spec.split("::").map((s) => s.trim());
  const c = report.suites.find((s) => s.part === part)?.cases.find((k) => k.name.startsWith(caseName));
  if (!c) return MISSING;
  if (contender?.startsWith("extra:") && field === undefined) {
    const v = c.extra?.[contender.slice("extra:".length)];
    return v === undefined ? MISSING : typeof v === "number" ? v.toLocaleString("en") : String(v);
  }
  const r = c.contenders.find((k) => k.name.startsWith(contender ?? ""));
  if (r && field === "note") return r.note ?? MISSING;
  if (!r || r.medianMs === null) return MISSING;
  switch (field) {
    case "median":
      return formatMs(r.medianMs);
    case "rate":
      return formatRate(r.perSecond, c.units?.unit);
    case "ratio":
      return formatRatio(r, c.baseline);
    case "x":
      return r.ratio === null ? MISSING : `${sig3(r.ratio)}×`;
    default:
      throw new Error(`bench figure {{${spec}}}: unknown field ${JSON.stringify(field)} (median, rate, ratio, x, note, or extra:<key> as the third part)`);
  }
}

/** One block's generated text from its template. */
export function renderTemplate(template: string, report: BenchReport): string {
  return `${runStamp(report)}\n\n${template.replace(/\{\{([^{}]*)\}\}/g, (_, spec: string) => figure(report, spec))}`;
}

/** A block found in a page: where its generated text starts and ends, and its template. */
export interface FigureBlock {
  template: string;
  /** The generated text as the page has it. */
  body: string;
  /** Offsets of the generated text in the page. */
  start: number;
  end: number;
}

export function figureBlocks(page: string, file = "page"): FigureBlock[] {
  const blocks: FigureBlock[] = [];
  let at = 0;
  for (;;) {
    const open = page.indexOf(FIGURES_OPEN, at);
    if (open < 0) return blocks;
    const closeComment = page.indexOf("-->", open);
    const close = page.indexOf(FIGURES_CLOSE, open);
    if (closeComment < 0 || close < 0 || close < closeComment) throw new Error(`${file}: a ${FIGURES_OPEN} block without its --> or ${FIGURES_CLOSE}`);
    const template = page.slice(open + FIGURES_OPEN.length, closeComment).replace(/^[ \t]*\n/, "");
    const start = closeComment + 3 + (page[closeComment + 3] === "\n" ? 1 : 0);
    blocks.push({ template, body: page.slice(start, close), start, end: close });
    at = close + FIGURES_CLOSE.length;
  }
}

/** The page with every figure block regenerated from `report`. */
export function renderFigures(page: string, report: BenchReport, file = "page"): string {
  let out = "";
  let at = 0;
  for (const b of figureBlocks(page, file)) {
    out += page.slice(at, b.start) + renderTemplate(b.template, report);
    at = b.end;
  }
  return out + page.slice(at);
}
