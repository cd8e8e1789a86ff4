/**
 * Kernel benchmarks (`npx tsx bench/run.ts kernel`):
 *  - closure of rdfs:subClassOf on the WordNet 3.0 noun taxonomy (74,401 classes):
 *    WASM vs the TS backend vs Python/rdflib transitive_objects;
 *  - closure on a generated DAG of 1,000,000 classes with multiple inheritance
 *    (WASM vs TS; rdflib on a 50,000-class prefix of the same DAG, reported as such,
 *    nothing extrapolated);
 *  - a small DAG (1,000 classes) for per-call overhead;
 *  - checks per second over the 408 QALD-9 train gold queries (DBpedia ontology).
 * Every contender's output is checked (pair count) before it is timed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PYTHON, pythonLacks } from "./python.js";
import type { BenchCase, BenchSuite, Contender } from "./harness.js";
import { computeClosure, closurePairCount, type Closure } from "../ts/kernel/closure.js";
import { DBPEDIA_ENDPOINT_PREFIXES, dbpediaKernel, hasShared, qaldTrain, wordnetSubclassEdges } from "../test/kernel/real-data.js";
import { mulberry32 } from "../test/prng.js";

const RDFLIB_SCRIPT = fileURLToPath(new URL("./python/closure_rdflib.py", import.meta.url));

/**
 * A DAG of n classes with multiple inheritance: class i > 0 has the parent
 * floor((i - 1) / 4) (a 4-ary tree, depth ~10 at 1M) and, with probability 1/4, a
 * second parent drawn from the classes just before the first one (another branch
 * of about the same depth). Deterministic (mulberry32, seed 42).
 */
export function generatedDag(n: number): { child: Uint32Array; parent: Uint32Array } {
  const rnd = mulberry32(42);
  const child: number[] = [];
  const parent: number[] = [];
  for (let i = 1; i < n; i++) {
    const p1 = Math.floor((i - 1) / 4);
    child.push(i);
    parent.push(p1);
    if (p1 > 0 && rnd() < 0.25) {
      const p2 = Math.max(0, p1 - 1 - Math.floor(rnd() * Math.min(p1, 64)));
      if (p2 !== p1) {
        child.push(i);
        parent.push(p2);
      }
    }
  }
  return { child: Uint32Array.from(child), parent: Uint32Array.from(parent) };
}

function closureContenders(n: number, child: Uint32Array, parent: Uint32Array, expected: number): Contender[] {
  const check = (out: unknown) => {
    const got = closurePairCount(out as Closure);
    if (got !== expected) throw new Error(`closure: ${got} pairs, expected ${expected}`);
  };
  return [
    { name: "wasm (assembly/closure.ts)", run: () => computeClosure(n, child, parent, { backend: "wasm" }), check },
    { name: "ts (ts/kernel/closure.ts)", run: () => computeClosure(n, child, parent, { backend: "ts" }), check },
  ];
}

function rdflibContender(label: string, n: number, child: Uint32Array, parent: Uint32Array, expected: number, samples: number): Contender {
  return {
    name: label,
    kind: "external",
    async measure() {
      const dir = mkdtempSync(join(tmpdir(), "groundwire-closure-"));
      const edges = join(dir, "edges.txt");
      const lines: string[] = [];
      for (let i = 0; i < child.length; i++) lines.push(`${child[i]} ${parent[i]}`);
      writeFileSync(edges, lines.join("\n") + "\n");
      const r = spawnSync(PYTHON, [RDFLIB_SCRIPT, edges, String(n), String(expected), String(samples)], { encoding: "utf8", maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`rdflib contender failed: ${r.stderr || r.error?.message}`);
      return JSON.parse(r.stdout.trim().split("\n").pop()!);
    },
  };
}

/** Keep only edges among the first m classes (a prefix of the generated DAG is itself a DAG: parents precede children). */
function prefixOf(m: number, child: Uint32Array, parent: Uint32Array) {
  const c: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < child.length; i++) if (child[i] < m && parent[i] < m) (c.push(child[i]), p.push(parent[i]));
  return { child: Uint32Array.from(c), parent: Uint32Array.from(p) };
}

const suite: BenchSuite = {
  part: "kernel",
  async cases() {
    const cases: BenchCase[] = [];
    const noRdflib = pythonLacks("rdflib");
    if (noRdflib) console.log(`  note: the rdflib contenders are left out: ${noRdflib}`);
    const small = generatedDag(1000);
    const smallPairs = closurePairCount(computeClosure(1000, small.child, small.parent, { backend: "ts" }));
    cases.push({
      name: "closure, generated DAG of 1,000 classes (per-call overhead)",
      size: "small",
      units: { count: smallPairs, unit: "pairs" },
      contenders: closureContenders(1000, small.child, small.parent, smallPairs),
    });
    const N = 1_000_000;
    const big = generatedDag(N);
    const reference = computeClosure(N, big.child, big.parent, { backend: "ts" });
    const bigPairs = closurePairCount(reference);
    const SUB = 50_000;
    const sub = prefixOf(SUB, big.child, big.parent);
    const subPairs = closurePairCount(computeClosure(SUB, sub.child, sub.parent, { backend: "ts" }));
    cases.push({
      name: `closure, generated DAG of 1,000,000 classes, ${big.child.length.toLocaleString("en")} subClassOf edges`,
      size: "large",
      units: { count: bigPairs, unit: "pairs" },
      contenders: closureContenders(N, big.child, big.parent, bigPairs),
      extra: () => ({ pairs: bigPairs, "ancestors per class (mean)": +(bigPairs / N).toFixed(2), "closure MB (u32 CSR)": +((reference.ancestors.length + reference.offsets.length + reference.sccOf.length) * 4 / 1e6).toFixed(1) }),
    });
    cases.push({
      name: `closure, first ${SUB.toLocaleString("en")} classes of that DAG (rdflib is too slow for 1M here: not extrapolated)`,
      size: "large",
      units: { count: subPairs, unit: "pairs" },
      contenders: [...closureContenders(SUB, sub.child, sub.parent, subPairs), ...(noRdflib ? [] : [rdflibContender("python rdflib transitive_objects", SUB, sub.child, sub.parent, subPairs, 1)])],
    });
    if (!hasShared) {
      suite.skipped = "../shared/data absent: WordNet and QALD-9 cases skipped";
      return cases;
    }
    const wn = wordnetSubclassEdges();
    const wnPairs = closurePairCount(computeClosure(wn.n, wn.child, wn.parent, { backend: "ts" }));
    cases.push({
      name: `closure, WordNet 3.0 nouns (${wn.n.toLocaleString("en")} classes, ${wn.child.length.toLocaleString("en")} edges)`,
      size: "large",
      units: { count: wnPairs, unit: "pairs" },
      contenders: [...closureContenders(wn.n, wn.child, wn.parent, wnPairs), ...(noRdflib ? [] : [rdflibContender("python rdflib transitive_objects", wn.n, wn.child, wn.parent, wnPairs, 1)])],
      extra: () => ({ "pairs (reflexive)": wnPairs, "pairs (strict)": wnPairs - wn.n }),
    });
    const kernel = dbpediaKernel();
    const queries = qaldTrain().map((q) => q.sparql);
    cases.push({
      name: "Kernel.check over the 408 QALD-9 train gold queries (DBpedia ontology; Traqula parse included)",
      size: "large",
      units: { count: queries.length, unit: "checks" },
      contenders: [
        {
          name: "kernel.check (parse + check)",
          run: () => {
            let errors = 0;
            for (const q of queries) {
              try {
                errors += kernel.check(q, undefined, { prefixes: DBPEDIA_ENDPOINT_PREFIXES }).errors.length ? 1 : 0;
              } catch {
                errors++;
              }
            }
            return errors;
          },
          check: (out) => {
            // strict SPARQL 1.1 with DBpedia's prefixes: 6 gold queries project an ungrouped variable
            // beside an aggregate in ORDER BY (§11.4; Virtuoso runs them, Jena and Oxigraph refuse),
            // 1 writes Virtuoso's COUNT(DISTINCT ?uri AS ?uri), 2 misspell an ontology term
            if (out !== 9) throw new Error(`expected 9 rejected gold queries, got ${out}`);
          },
        },
      ],
    });
    return cases;
  },
};
export default suite;
