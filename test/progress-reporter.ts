// The overall progress of a test run, one line per finished file, beside vitest's own reporter:
// `[37/112 files, 2:05] test/match/quote-index.test.ts`. On stderr, so a JSON report on stdout
// stays clean.
import { relative } from "node:path";
import type { Reporter, TestModule, TestSpecification } from "vitest/node";

export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private started = Date.now();

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.length;
    this.done = 0;
    this.started = Date.now();
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.done++;
    const s = Math.round((Date.now() - this.started) / 1000);
    const clock = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    process.stderr.write(`[${this.done}/${this.total} files, ${clock}] ${relative(process.cwd(), testModule.moduleId)}\n`);
  }
}
