/**
 * The parts a bundled page gets behind a dynamic import() (bindings/deferred.ts): the WASM
 * modules' bytes and bestSpan's pre-pass. Through `dist/index.js` (what bundlers and Deno load)
 * a first call runs on pure TS while they arrive and says so; `ready()` brings them; results
 * are the same either way. Through `dist/node.js` nothing is deferred. Each case runs in a fresh
 * Node process on the built package (the registry of parts is per process).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, beforeAll } from "vitest";
import { ROOT, requireBuild } from "./support.js";

const url = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, file)).href);

/** Run an ES module script in a fresh Node; its last stdout line is JSON. */
function run(script: string): { out: any } {
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  const lines = stdout.trim().split("\n");
  return { out: JSON.parse(lines[lines.length - 1]) };
}

const POOL = [
  "It was on a dreary night of November that I beheld the accomplishment of my toils.",
  "With an anxiety that almost amounted to agony, I collected the instruments of life around me.",
  "The rain pattered dismally against the panes, and my candle was nearly burnt out.",
];
const QUOTES = ["a dreary night in November when I beheld my toils", "the rain pattered against the panes", "nothing like this is written anywhere"];

describe("deferred parts through dist/index.js", () => {
  beforeAll(() => requireBuild());

  it("bestSpan's first call runs on TS while the match module arrives, says why, and gives what it gives after ready() and in Node", () => {
    const script = `
      const gw = await import(${url("dist/index.js")});
      const pool = ${JSON.stringify(POOL)}, quotes = ${JSON.stringify(QUOTES)};
      const first = quotes.map((q) => gw.bestSpan(q, pool));
      const during = gw.backendInfo();
      const matcher = gw.createQuoteMatcher(pool);
      await gw.ready();
      const after = quotes.map((q) => gw.bestSpan(q, pool));
      console.log(JSON.stringify({ first, during, matcherDuring: matcher.backend, after, backend: gw.backendInfo(), matcherAfter: gw.createQuoteMatcher(pool).backend }));`;
    const { out } = run(script);
    const node = run(`
      const gw = await import(${url("dist/node.js")});
      const pool = ${JSON.stringify(POOL)}, quotes = ${JSON.stringify(QUOTES)};
      console.log(JSON.stringify({ spans: quotes.map((q) => gw.bestSpan(q, pool)), backend: gw.backendInfo() }));`).out;
    expect(out.during.active).toBe("ts");
    expect(out.during.reason).toMatch(/^WebAssembly module \w+'s bytes is still arriving \(a dynamic import, started at its first use\); await ready\(\)/);
    expect(out.matcherDuring).toBe("ts");
    expect(out.backend).toEqual({ requested: "auto", active: "wasm", reason: null });
    expect(out.matcherAfter).toBe("wasm");
    // the same spans and ratios: TS scan without the pre-pass, WASM with it, and Node's
    expect(out.first).toEqual(out.after);
    expect(out.after).toEqual(node.spans);
    expect(node.backend).toEqual({ requested: "auto", active: "wasm", reason: null });
    // difflib (python3) gives these ratios: 0.7956… is below the pre-pass's 0.8 (the full scan
    // answers either way), 70/79 above it (the pre-pass answers once it is here)
    expect(out.after[0]).toEqual({ text: "a dreary night of November that I beheld the", ratio: 0.7956989247311828, source: 0, start: 10, end: 54 });
    expect(out.after[1]).toEqual({ text: "The rain pattered dismally against the panes", ratio: 70 / 79, source: 2, start: 0, end: 44 });
  });

  it("a pool first matched on TS while the module arrives gives the same span on WASM after ready(), the wasm backend forced", () => {
    const { out } = run(`
      const gw = await import(${url("dist/index.js")});
      const pool = ${JSON.stringify(POOL)};
      const a = gw.bestSpan(${JSON.stringify(QUOTES[0])}, pool);
      await gw.ready();
      gw.setBackend("wasm"); // throws at the call unless this call runs on WASM
      const b = gw.bestSpan(${JSON.stringify(QUOTES[0])}, pool);
      console.log(JSON.stringify({ a, b }));`);
    expect(out.a).toEqual(out.b);
  });

  it("asking for the wasm backend before the bytes are here throws, naming what to await", () => {
    const { out } = run(`
      const gw = await import(${url("dist/index.js")});
      let message = null;
      try { gw.bestSpan("a b c", ["a b c d"], { backend: "wasm" }); } catch (e) { message = e.message; }
      await gw.ready();
      const later = gw.bestSpan("a b c", ["a b c d"], { backend: "wasm" });
      console.log(JSON.stringify({ message, later }));`);
    expect(out.message).toMatch(/^the wasm backend was requested but is unavailable: WebAssembly module match's bytes is still arriving .*await ready\(\)/);
    expect(out.later).toMatchObject({ text: "a b c", ratio: 1 });
  });

  it("bestSpan's pre-pass whose chunk fails to import: the same spans by the full scan, ready() resolves, and one warning says so", () => {
    // a resolve hook refuses the pre-pass's dynamic import, as a page whose chunk 404s
    const hook = `export async function resolve(s, c, next) { if (s.endsWith("/best-window.js") && String(c.parentURL).endsWith("/match/pre-pass.js")) throw new Error("chunk best-window.js: 404"); return next(s, c); }`;
    const { out } = run(`
      const { register } = await import("node:module");
      register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
      const gw = await import(${url("dist/index.js")});
      const warnings = [];
      console.warn = (m) => warnings.push(m);
      const pool = ${JSON.stringify(POOL)}, quotes = ${JSON.stringify(QUOTES)};
      const first = quotes.map((q) => gw.bestSpan(q, pool));
      await gw.ready();
      const after = quotes.map((q) => gw.bestSpan(q, pool));
      const again = quotes.map((q) => gw.createQuoteMatcher(pool).bestSpan(q));
      console.log(JSON.stringify({ first, after, again, info: gw.backendInfo(), warnings }));`);
    expect(out.first).toEqual(out.after);
    expect(out.again).toEqual(out.after);
    expect(out.after[0]).toEqual({ text: "a dreary night of November that I beheld the", ratio: 0.7956989247311828, source: 0, start: 10, end: 54 });
    expect(out.after[1]).toEqual({ text: "The rain pattered dismally against the panes", ratio: 70 / 79, source: 2, start: 0, end: 44 });
    expect(out.after[2].ratio).toBeLessThan(0.8);
    // the match module loaded: the scans run on WASM, only the pre-pass is missing
    expect(out.info).toEqual({ requested: "auto", active: "wasm", reason: null });
    expect(out.warnings).toEqual([
      "groundwire: bestSpan runs without its pre-pass (bestSpan's pre-pass failed to load: chunk best-window.js: 404): the full scan alone gives identical results, only slower",
    ]);
  });

  it("without WebAssembly (iOS Lockdown, --jitless): the first call and ready() import no module's bytes, only the pre-pass", () => {
    // a resolve hook records every chunk the page asks for. The hook runs on Node's loader
    // thread, whose stdout is not ordered with the main thread's: it appends to a file instead,
    // before the import it resolves can settle, and the test reads that file once the process ends
    const record = join(mkdtempSync(join(tmpdir(), "gw-deferred-")), "imports.txt");
    writeFileSync(record, "");
    const hook = `import { appendFileSync } from "node:fs"; export async function resolve(s, c, next) { if (/wasm-\\w+\\.generated|best-window/.test(s)) appendFileSync(${JSON.stringify(record)}, s + "\\n"); return next(s, c); }`;
    const { out } = run(`
      const { register } = await import("node:module");
      register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
      delete globalThis.WebAssembly;
      const gw = await import(${url("dist/index.js")});
      console.warn = () => {};
      const first = gw.bestSpan(${JSON.stringify(QUOTES[1])}, ${JSON.stringify(POOL)});
      await gw.ready();
      // an import started and not awaited would still be resolving: give it time to be recorded
      await new Promise((r) => setTimeout(r, 300));
      console.log(JSON.stringify({ first, info: gw.backendInfo() }));`);
    expect(out.info).toEqual({ requested: "auto", active: "ts", reason: "WebAssembly is not available in this runtime" });
    expect(out.first).toEqual({ text: "The rain pattered dismally against the panes", ratio: 70 / 79, source: 2, start: 0, end: 44 });
    const imported = readFileSync(record, "utf8").split("\n").filter(Boolean);
    rmSync(dirname(record), { recursive: true, force: true });
    expect(imported).toEqual(["./quote-index/best-window.js"]);
  });

  it("dist/node.js defers nothing: WASM from the first call", () => {
    const { out } = run(`
      const gw = await import(${url("dist/node.js")});
      const info = gw.backendInfo();
      console.log(JSON.stringify({ info, matcher: gw.createQuoteMatcher(["a b c"]).backend }));`);
    expect(out).toEqual({ info: { requested: "auto", active: "wasm", reason: null }, matcher: "wasm" });
  });
});

describe("bindings/deferred.ts and wasmModule's lazy bytes (dist/bindings/*.js)", () => {
  beforeAll(() => requireBuild());

  it("a part: null and importing until it arrives, then the value; a failed import says why; provide() gives it at once", () => {
    const { out } = run(`
      const { deferred, loadDeferred } = await import(${url("dist/bindings/deferred.js")});
      let imports = 0;
      const ok = deferred("part ok", () => { imports++; return Promise.resolve(42); });
      const bad = deferred("part bad", () => Promise.reject(new Error("no such chunk")));
      const given = deferred("part given", () => Promise.reject(new Error("never imported")));
      // webpack's import() in a worker bundled for target "web" throws before it returns a promise
      const thrown = deferred("part thrown", () => { throw new ReferenceError("document is not defined"); });
      let thrownNow;
      try { thrownNow = thrown.now(); } catch (e) { thrownNow = "threw: " + e.message; }
      given.provide("here");
      const before = { ok: ok.now(), okReason: ok.reason(), given: given.now(), givenReason: given.reason() };
      ok.now(); // the import runs once
      const all = await loadDeferred();
      console.log(JSON.stringify({ before, imports, all, ok: ok.now(), okReason: ok.reason(), bad: bad.now(), badFailed: bad.failed(), badReason: bad.reason(), thrownNow, thrownReason: thrown.reason() }));`);
    expect(out.thrownNow).toBeNull();
    expect(out.thrownReason).toBe("part thrown failed to load: document is not defined");
    expect(out.before).toEqual({ ok: null, okReason: "part ok is still arriving (a dynamic import, started at its first use); await ready() to wait for it", given: "here", givenReason: null });
    expect(out.imports).toBe(1);
    expect(out.all).toBe(false);
    expect(out.ok).toBe(42);
    expect(out.okReason).toBeNull();
    expect(out.bad).toBeNull();
    expect(out.badFailed).toBe(true);
    expect(out.badReason).toBe("part bad failed to load: no such chunk");
  });

  it("a module whose bytes fail to import: TS with the reason, one warning, and 'wasm' refused by name", () => {
    const script = `
      const w = await import(${url("dist/bindings/wasm.js")});
      const warnings = [];
      console.warn = (m) => warnings.push(m);
      const m = w.wasmModule("probe", () => Promise.reject(new Error("chunk probe.js: 404")));
      const first = m.exportsFor();
      const loaded = await w.initWasm();
      const second = m.exportsFor();
      m.exportsFor();
      let refused = null;
      try { m.exportsFor("wasm"); } catch (e) { refused = e.message; }
      console.log(JSON.stringify({ first, loaded, second, info: w.backendInfo(), warnings, refused }));`;
    const { out } = run(script);
    expect(out.first).toBeNull();
    expect(out.loaded).toBe(false);
    expect(out.second).toBeNull();
    expect(out.info).toEqual({ requested: "auto", active: "ts", reason: "WebAssembly module probe's bytes failed to load: chunk probe.js: 404" });
    expect(out.warnings).toEqual(["groundwire: using the pure-TS backend (WebAssembly module probe's bytes failed to load: chunk probe.js: 404); results are identical, only slower"]);
    expect(out.refused).toBe("the wasm backend was requested but is unavailable: WebAssembly module probe's bytes failed to load: chunk probe.js: 404");
  });

  it("a module defined after ready() (an app's chunk imported later): 'wasm' refused with a reason that says ready() ran before it, and a second ready() loads it", () => {
    const { out } = run(`
      const w = await import(${url("dist/bindings/wasm.js")});
      const { ready } = await import(${url("dist/bindings/ready.js")});
      const early = w.wasmModule("early", () => import(${url("dist/bindings/wasm-suggest.generated.js")}).then((m) => m.SUGGEST_WASM_HEX));
      const earlyReason = w.backendInfo().reason;
      await ready();
      const late = w.wasmModule("late", () => import(${url("dist/bindings/wasm-suggest.generated.js")}).then((m) => m.SUGGEST_WASM_HEX));
      let refused = null;
      try { late.exportsFor("wasm"); } catch (e) { refused = e.message; }
      const lateReason = w.backendInfo().reason;
      await ready();
      console.log(JSON.stringify({ earlyReason, early: early.exportsFor("wasm") !== null, refused, lateReason, late: late.exportsFor("wasm") !== null, info: w.backendInfo() }));`);
    expect(out.earlyReason).toBe("WebAssembly module early's bytes is still arriving (a dynamic import, started at its first use); await ready() to wait for it");
    expect(out.early).toBe(true);
    const late = "WebAssembly module late's bytes is still arriving (a dynamic import, started at its first use; its code was loaded after ready() was called, so that call did not wait for it); await ready() again to wait for it";
    expect(out.refused).toBe(`the wasm backend was requested but is unavailable: ${late}`);
    expect(out.lateReason).toBe(late);
    expect(out.late).toBe(true);
    expect(out.info).toEqual({ requested: "auto", active: "wasm", reason: null });
  });

  it("the self-contained browser file gives every part at import: WASM from the first call, nothing imported", () => {
    const { out } = run(`
      const gw = await import(${url("dist/browser/groundwire.js")});
      const first = gw.bestSpan(${JSON.stringify(QUOTES[1])}, ${JSON.stringify(POOL)});
      console.log(JSON.stringify({ first, info: gw.backendInfo(), matcher: gw.createQuoteMatcher(["a b c"]).backend }));`);
    expect(out.info).toEqual({ requested: "auto", active: "wasm", reason: null });
    expect(out.matcher).toBe("wasm");
    expect(out.first).toEqual({ text: "The rain pattered dismally against the panes", ratio: 70 / 79, source: 2, start: 0, end: 44 });
  });
});
