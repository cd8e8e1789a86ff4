// Sampled allocations (including objects already collected) of fragmentMarkdown on the primer, by function.
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { fragmentMarkdown } from "../../dist/node.js";
const text = readFileSync(process.argv[2] ?? "../shared/data/markdown/system-design-primer/v039.md", "utf8");
for (let i = 0; i < 30; i++) fragmentMarkdown("bench", text);
const s = new Session(); s.connect();
await s.post("HeapProfiler.enable");
await s.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const N = 50;
for (let i = 0; i < N; i++) fragmentMarkdown("bench", text);
const { profile } = await s.post("HeapProfiler.stopSampling");
const self = new Map(); let total = 0;
(function walk(n, stack) { const cf = n.callFrame; const k = `${cf.functionName || "(anon)"} ${cf.url.split("/").slice(-1)[0]}:${cf.lineNumber + 1}`; self.set(k, (self.get(k) ?? 0) + n.selfSize); total += n.selfSize; for (const c of n.children) walk(c); })(profile.head);
console.log(`~${(total / N / 1e6).toFixed(2)} MB a run`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((100 * v / total).toFixed(1).padStart(5) + "%  " + (v / N / 1e3).toFixed(0).padStart(6) + " KB  " + k);
