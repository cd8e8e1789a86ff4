// CPU profile (node:inspector) of `locate(q, {limit: 1})` for chosen bench quotes, after warm-up:
// self time by function.  npx tsx bench/scratch/s8-prof-insp.ts 6,9 300
import { Session } from "node:inspector/promises";
import { initNodeBackends } from "../../bindings/init-node.js";
import { createQuoteIndex } from "../../ts/match/quote-index/index.js";
import { targetQuotes } from "./target-quotes.js";
await initNodeBackends();
const { books, quotes } = targetQuotes();
const ix = createQuoteIndex(books, { backend: "wasm" });
const which = (process.argv[2] ?? "6,9").split(",").map(Number);
const R = Number(process.argv[3] ?? 200);
for (let w = 0; w < 20; w++) for (const i of which) ix.locate(quotes[i], { limit: 1 });
const s = new Session();
s.connect();
await s.post("Profiler.enable");
await s.post("Profiler.setSamplingInterval", { interval: 50 });
await s.post("Profiler.start");
for (let r = 0; r < R; r++) for (const i of which) ix.locate(quotes[i], { limit: 1 });
const { profile } = await s.post("Profiler.stop");
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const counts = new Map<number, number>();
for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
const self = new Map<string, number>();
let total = 0;
for (const [id, c] of counts) {
  const n: any = byId.get(id);
  const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}`;
  self.set(k, (self.get(k) ?? 0) + c);
  total += c;
}
const perCall = (profile.endTime - profile.startTime) / 1000 / (R * which.length);
console.log(`${R * which.length} calls, ${perCall.toFixed(3)} ms wall a call`);
for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(((100 * c) / total).toFixed(1).padStart(5), "%", ((perCall * c) / total).toFixed(3), "ms", k);
