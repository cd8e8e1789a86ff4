/**
 * Minimal runner until the full harness lands: `npx tsx bench/run.ts [part...]`.
 * Checks each contender, then times it (median of samples) and prints a table.
 */
import { readdirSync } from "node:fs";
import { initWasm } from "../bindings/wasm.js";
import { initSha256, setSha256Backend } from "../bindings/sha256.js";
import { nodeCryptoBackend } from "../bindings/sha256-node.js";
import type { BenchCase, BenchSuite } from "./harness.js";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function timeCase(c: BenchCase) {
  const rows: { name: string; medianMs: number; samples: number; note?: string }[] = [];
  for (const k of c.contenders) {
    if (k.kind === "external") {
      rows.push({ name: k.name, ...(await k.measure()) });
      continue;
    }
    k.check(k.run());
    const samples: number[] = [];
    const budget = performance.now() + 2000;
    while (samples.length < 5 || (performance.now() < budget && samples.length < 200)) {
      const t = performance.now();
      k.run();
      samples.push(performance.now() - t);
    }
    rows.push({ name: k.name, medianMs: median(samples), samples: samples.length });
  }
  return rows;
}

const wanted = process.argv.slice(2);
await Promise.all([initWasm(), initSha256()]);
setSha256Backend(nodeCryptoBackend);
const files = readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".bench.ts"));
for (const f of files) {
  const suite = (await import(`./${f}`)).default as BenchSuite;
  if (wanted.length && !wanted.includes(suite.part)) continue;
  const cases = await suite.cases();
  if (suite.skipped) console.log(`${suite.part}: skipped (${suite.skipped})`);
  for (const c of cases) {
    const rows = await timeCase(c);
    const base = rows.find((r) => r.name === (c.baseline ?? rows[0].name))!;
    console.log(`\n${suite.part} — ${c.name} [${c.size}]`);
    for (const r of rows) {
      const ratio = r.medianMs / base.medianMs;
      console.log(`  ${r.name.padEnd(28)} ${r.medianMs.toFixed(4).padStart(12)} ms  ×${ratio.toFixed(2)} vs ${base.name}  (${r.samples} samples)${r.note ? "  " + r.note : ""}`);
    }
    if (c.extra) console.log("  ", c.extra());
  }
}
