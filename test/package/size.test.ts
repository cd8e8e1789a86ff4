/**
 * Page sizes against the budgets in docs/package.md (issue 16 item 4); how a page is
 * built and measured: test/package/sizes.ts.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { requireBuild } from "./support.js";
import { MUST_NOT_CARRY, PAGES, WASM_MODULES, browserFileClaim, browserFileSize, measurePage, sizeTable, wasmModulesOf, type PageSize } from "./sizes.js";

describe("page sizes against the budgets in docs/package.md", () => {
  const measured = new Map<string, PageSize>();
  beforeAll(async () => {
    requireBuild();
    for (const [name, code] of Object.entries(PAGES)) measured.set(name, await measurePage(code));
  }, 180_000);

  it("the table lists every page, and the budgets of the bestSpan and fingerprint pages", () => {
    const table = sizeTable();
    expect([...table.keys()].sort()).toEqual(Object.keys(PAGES).sort());
    expect(Object.keys(WASM_MODULES).sort()).toEqual(Object.keys(PAGES).sort());
    // issue 36: a bestSpan-only page of at most 20 KB (its first load; the WASM module and the
    // pre-pass arrive behind import() at the first call)
    expect(table.get("bestSpan only")!.budgetKB).toBeLessThanOrEqual(20);
    expect(table.get("fingerprint only")!.budgetKB).toBeLessThanOrEqual(80);
  });

  for (const name of Object.keys(PAGES)) {
    it(`${name}: within its budget, as the table says`, () => {
      const row = sizeTable().get(name)!;
      const m = measured.get(name)!;
      expect(m.gzipKB, `${name}: ${m.gzipKB.toFixed(1)} KB gzip, budget ${row.budgetKB} KB`).toBeLessThanOrEqual(row.budgetKB);
      // the table's figures are current (to within 1 KB)
      expect(Math.abs(m.gzipKB - row.gzipKB), `${name}: measured ${m.gzipKB.toFixed(1)} KB gzip, table says ${row.gzipKB}`).toBeLessThanOrEqual(1);
      expect(Math.abs(m.minKB - row.minKB), `${name}: measured ${m.minKB.toFixed(1)} KB minified, table says ${row.minKB}`).toBeLessThanOrEqual(3);
      expect(Math.abs(m.laterGzipKB - row.laterGzipKB), `${name}: measured ${m.laterGzipKB.toFixed(1)} KB gzip behind import(), table says ${row.laterGzipKB}`).toBeLessThanOrEqual(1);
    });
  }

  for (const [name, banned] of Object.entries(MUST_NOT_CARRY)) {
    it(`${name}: carries none of the heavy parts it does not use`, () => {
      const inputs = measured.get(name)!.inputs;
      const carried = inputs.filter((i) => banned.some((re) => re.test(i)));
      expect(carried).toEqual([]);
    });
  }

  for (const name of Object.keys(PAGES)) {
    it(`${name}: reaches the WASM modules of the kernels it calls, no other, as the table says, and none in its first load`, () => {
      const m = measured.get(name)!;
      const reached = wasmModulesOf([...m.inputs, ...m.laterInputs]);
      expect(reached).toEqual([...WASM_MODULES[name]].sort());
      expect(sizeTable().get(name)!.wasm).toEqual(reached);
      // the bytes arrive behind import() at the module's first use (bindings/deferred.ts)
      expect(wasmModulesOf(m.inputs)).toEqual([]);
    });
  }

  it("docs/package.md states the size of dist/browser/groundwire.js as built (within 2%)", () => {
    const built = browserFileSize();
    const claim = browserFileClaim();
    expect(Math.abs(claim.mb - built.mb) / built.mb, `built ${built.mb.toFixed(2)} MB, docs say ${claim.mb}`).toBeLessThanOrEqual(0.02);
    expect(Math.abs(claim.gzipKB - built.gzipKB) / built.gzipKB, `built ${built.gzipKB.toFixed(0)} KB gzipped, docs say ${claim.gzipKB}`).toBeLessThanOrEqual(0.02);
  });

  it("bestSpan's pre-pass is behind import() on the bestSpan page, not in its first load", () => {
    const m = measured.get("bestSpan only")!;
    expect(m.inputs.filter((i) => /dist\/match\/quote-index\/(best-window|search)\.js$/.test(i))).toEqual([]);
    expect(m.laterInputs.filter((i) => /dist\/match\/quote-index\/(best-window|search)\.js$/.test(i)).sort()).toEqual(["dist/match/quote-index/best-window.js", "dist/match/quote-index/search.js"]);
  });

  it("the whole package is far larger than a part (the split is what keeps pages small)", () => {
    expect(measured.get("everything")!.gzipKB).toBeGreaterThan(3 * measured.get("bestSpan only")!.gzipKB);
  });
});
