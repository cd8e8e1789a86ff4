/**
 * canonicalHash's time budget measured (not a timed test): `npm run bench:canonical -- [--n 10000]
 * [--budgets 1000,3000,10000]`.
 *
 * A ring of n indistinguishable blank nodes (each `_:bI :p _:bI+1`) has no canonical form within
 * any practical budget; for each budget it prints the whole call's wall time, how far past the
 * budget the refusal came (overshoot), the CPU time, the longest gap between two ticks of a 5 ms
 * timer (how long the event loop was held) and the resident memory.
 */
import { parseArgs } from "node:util";
import { initNodeStart } from "../ts/node-start.js";
import { parseGraph } from "../ts/rdf/index.js";
import { canonicalHash } from "../ts/triple-index/index.js";

const { values } = parseArgs({ options: { n: { type: "string", default: "10000" }, budgets: { type: "string", default: "1000,3000,10000" } } });
await initNodeStart();
const n = Number(values.n);
let text = "";
for (let i = 0; i < n; i++) text += `_:b${i} <http://e/p> _:b${(i + 1) % n} .\n`;
const graph = parseGraph(text, { format: "ntriples" });
for (const budget of values.budgets.split(",").map(Number)) {
  let maxGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const error = await canonicalHash(graph, { timeBudgetMs: budget }).then(() => null, (e: unknown) => e as { code?: string; limit?: string });
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  console.log(
    JSON.stringify({ n, budgetMs: budget, elapsedMs: Math.round(elapsed), overshootMs: Math.round(elapsed - budget), cpuMs: Math.round((cpu.user + cpu.system) / 1000), maxLoopGapMs: Math.round(maxGap), refused: error ? `${error.code}/${error.limit}` : "no", rssMB: Math.round(process.memoryUsage().rss / 1e6) }),
  );
}
