/**
 * The Node start-up of the CLI, the server's check workers, the test setup and the bench
 * (ts/node-start.ts `initNodeStart`) gives bestSpan's pre-pass at once, also to code imported
 * after it ran. `initNodeBackends` alone left the pre-pass to `loadDeferred`, which loads only
 * the parts registered by then: a CLI command or a bench suite imported later got the pre-pass a
 * turn of the event loop after its first bestSpan, so a synchronous run of calls went without it
 * (the same spans, the verbatim class of the bench ~20× slower). Fresh processes on the sources.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const src = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, file)).href);

/** In a fresh Node (tsx for the sources): run `start`'s `fn`, then import the pre-pass and bestSpan and call it at once. */
function afterStart(start: string, fn: string): { now: boolean; span: unknown } {
  const script = `
    const { ${fn} } = await import(${src(start)});
    await ${fn}();
    const { prePass } = await import(${src("ts/match/pre-pass.ts")});
    const { bestSpan } = await import(${src("ts/match/best-span.ts")});
    const now = prePass.now() !== null;
    const span = bestSpan("the rain pattered against the panes", ["The rain pattered dismally against the panes, and my candle was nearly burnt out."]);
    console.log(JSON.stringify({ now, span }));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  return JSON.parse(out.trim().split("\n").pop()!);
}

describe("the Node start-up", () => {
  it("initNodeStart gives the pre-pass before any bestSpan of a module imported after it; initNodeBackends alone did not", () => {
    const started = afterStart("ts/node-start.ts", "initNodeStart");
    const bindingsOnly = afterStart("bindings/init-node.ts", "initNodeBackends");
    expect(started.now).toBe(true);
    expect(bindingsOnly.now).toBe(false);
    // with or without it, the same span (difflib: 2·35 / (44 + 35) = 70/79)
    const span = { text: "The rain pattered dismally against the panes", ratio: 70 / 79, source: 0, start: 0, end: 44 };
    expect(started.span).toEqual(span);
    expect(bindingsOnly.span).toEqual(span);
  });
});
