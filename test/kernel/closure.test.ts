import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { closureHas, closurePairCount, closureAncestorsOf, computeClosure, type Closure } from "../../ts/kernel/closure.js";
import { ArgumentError } from "../../ts/errors.js";
import { wordnetSubclassEdges } from "./real-data.js";
import { mulberry32 } from "../prng.js";
import { firstDifference } from "../same.js";
import { depth } from "../depth.js";

const SHARED = new URL("../../../shared/data", import.meta.url);

/** The oracle: a plain DFS from every node, no SCCs, no sharing. */
function naiveClosure(n: number, child: Uint32Array, parent: Uint32Array): number[][] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < child.length; i++) adj[child[i]].push(parent[i]);
  return adj.map((_, v) => {
    const seen = new Set<number>([v]);
    const todo = [v];
    while (todo.length) for (const w of adj[todo.pop()!]) if (!seen.has(w)) (seen.add(w), todo.push(w));
    return [...seen].sort((a, b) => a - b);
  });
}

function lists(c: Closure): number[][] {
  return Array.from({ length: c.nodeCount }, (_, v) => [...closureAncestorsOf(c, v)]);
}

/** Deterministic pseudo-random graphs (mulberry32). */
function randomGraph(seed: number, n: number, m: number, acyclic: boolean) {
  const rnd = mulberry32(seed);
  const child = new Uint32Array(m);
  const parent = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    let a = Math.floor(rnd() * n);
    let b = Math.floor(rnd() * n);
    if (acyclic && a < b) [a, b] = [b, a];
    child[i] = a;
    parent[i] = b;
  }
  return { child, parent };
}

const backends = [{ name: "wasm" as const }, { name: "ts" as const }];

describe.each(backends)("closure on the $name backend", ({ name }) => {
  const run = (n: number, child: number[] | Uint32Array, parent: number[] | Uint32Array) =>
    computeClosure(n, Uint32Array.from(child), Uint32Array.from(parent), { backend: name });

  it("reports the backend it ran on", () => {
    expect(run(1, [], []).backend).toBe(name);
  });

  it("is reflexive and transitive on a chain with a diamond", () => {
    // 0 ⊑ 1 ⊑ 3, 0 ⊑ 2 ⊑ 3, 4 isolated
    const c = run(5, [0, 0, 1, 2], [1, 2, 3, 3]);
    expect(lists(c)).toEqual([[0, 1, 2, 3], [1, 3], [2, 3], [3], [4]]);
    expect(closurePairCount(c)).toBe(4 + 2 + 2 + 1 + 1);
    expect(closureHas(c, 0, 3)).toBe(true);
    expect(closureHas(c, 3, 0)).toBe(false);
  });

  it("condenses cycles: mutual subclasses share one ancestor list", () => {
    // 0 ⊑ 1 ⊑ 0 (equivalent classes), 1 ⊑ 2, 3 ⊑ 0, self-loop on 2
    const c = run(4, [0, 1, 1, 3, 2], [1, 0, 2, 0, 2]);
    expect(lists(c)).toEqual([[0, 1, 2], [0, 1, 2], [2], [0, 1, 2, 3]]);
    expect(c.sccOf[0]).toBe(c.sccOf[1]);
    expect(c.ancestors.length).toBe(3 + 1 + 4); // shared list: memory follows the condensation
  });

  it("rejects an edge naming an id outside 0..n-1", () => {
    expect(() => run(2, [0], [2])).toThrow(/outside 0\.\.1/);
    expect(() => run(2, [5], [0])).toThrow(/outside 0\.\.1/); // on the child side too
    expect(() => run(0, [0], [0])).toThrow(ArgumentError);
  });

  it("handles n = 0 and nodes without edges", () => {
    const empty = run(0, [], []);
    expect([empty.sccOf.length, empty.offsets.length, empty.ancestors.length]).toEqual([0, 1, 0]);
    expect(lists(run(3, [], []))).toEqual([[0], [1], [2]]);
  });

  it("ignores duplicate edges and self-loops (each still one pair)", () => {
    // 2 ⊑ 1 three times, 1 ⊑ 0 twice, self-loops on 0 and 2
    const c = run(3, [2, 2, 1, 2, 1, 0, 2], [1, 1, 0, 1, 0, 0, 2]);
    expect(lists(c)).toEqual([[0], [0, 1], [0, 1, 2]]);
    expect(c.offsets.length - 1).toBe(3);
  });

  it("merges two parent lists with the class itself in the middle, first or last", () => {
    // 5 ⊑ 1, 5 ⊑ 8 (lists [1,3] and [0,8]): 5 lands in the middle; 9 ⊑ 3, 9 ⊑ 2 at the end; 0 ⊑ 6, 0 ⊑ 7 first
    const c = run(10, [1, 8, 5, 5, 9, 9, 0, 0], [3, 0, 1, 8, 3, 2, 6, 7]);
    expect(closureAncestorsOf(c, 5)).toEqual(Uint32Array.from([0, 1, 3, 5, 6, 7, 8]));
    expect(closureAncestorsOf(c, 9)).toEqual(Uint32Array.from([2, 3, 9]));
    expect(closureAncestorsOf(c, 0)).toEqual(Uint32Array.from([0, 6, 7]));
  });

  it("unions three or more parent components, shared ancestors once", () => {
    // 4 ⊑ 1, 2, 3 (each ⊑ 0), and 4 ⊑ 1 again
    const c = run(5, [1, 2, 3, 4, 4, 4, 4], [0, 0, 0, 1, 2, 3, 1]);
    expect(lists(c)).toEqual([[0], [0, 1], [0, 2], [0, 3], [0, 1, 2, 3, 4]]);
  });

  it("gives a cycle reached from several sides one list, with the ancestors of every member", () => {
    // cycle 3 → 1 → 2 → 3; 1 ⊑ 0, 2 ⊑ 4, 3 ⊑ 5 ⊑ 4; 6 ⊑ 2 and 6 ⊑ 0
    const c = run(7, [3, 1, 2, 1, 2, 3, 5, 6, 6], [1, 2, 3, 0, 4, 5, 4, 2, 0]);
    expect(lists(c)).toEqual([[0], [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [4], [4, 5], [0, 1, 2, 3, 4, 5, 6]]);
    expect(c.sccOf[1]).toBe(c.sccOf[2]);
    expect(c.sccOf[2]).toBe(c.sccOf[3]);
  });

  it.each([
    [1, 50, 120, false],
    [2, 200, 600, true],
    [3, 300, 300, false],
    [4, 1000, 2500, true],
    [5, 64, 2000, false],
  ])("matches the naive DFS oracle (seed %i, n=%i, m=%i, acyclic=%s)", (seed, n, m, acyclic) => {
    const { child, parent } = randomGraph(seed, n, m, acyclic);
    expect(lists(run(n, child, parent))).toEqual(naiveClosure(n, child, parent));
  });

  it("grows its arena: a 20,000-node chain (closure 200 million pairs is avoided, lists shared)", () => {
    // a long chain with a back edge at the top is one big cycle: one shared list of 20,000
    const n = 20_000;
    const child = Uint32Array.from({ length: n }, (_, i) => i);
    const parent = Uint32Array.from({ length: n }, (_, i) => (i + 1) % n);
    const c = run(n, child, parent);
    expect(c.offsets.length).toBe(2);
    expect(c.ancestors.length).toBe(n);
    expect(closurePairCount(c)).toBe(n * n);
  });
});

describe("closure: the WASM module's exports", () => {
  it("has exactly the closure functions the binding types, and nothing else but its memory", async () => {
    const { closureWasmFor } = await import("../../bindings/closure.js");
    const exports = closureWasmFor("wasm")!;
    expect(Object.keys(exports).sort()).toEqual([
      "closureAncestorCount", "closureAncestorsPtr", "closureComponentCount", "closureInputPtr",
      "closureOffsetsPtr", "closureRun", "closureSccOfPtr", "memory",
    ]);
  });
});

describe("closure: the WASM arena", () => {
  it("gives the same result when its arena has to grow far in the middle of a run", () => {
    // a run that leaves a large arena (the module has its own memory: no other kernel
    // allocates after it), then a run whose ancestor region outgrows it
    computeClosure(20_000, new Uint32Array(0), new Uint32Array(0), { backend: "wasm" });
    // a chain of n: n(n+1)/2 pairs, far beyond the arena reserved for n + m (and the 20,000 left
    // before); npm test: 800 (320,400 pairs), npm run test:deep (test/depth.ts): 2,000 (2,001,000)
    const n = depth(800, 2000);
    const child = Uint32Array.from({ length: n - 1 }, (_, i) => i + 1);
    const parent = Uint32Array.from({ length: n - 1 }, (_, i) => i);
    const a = computeClosure(n, child, parent, { backend: "wasm" });
    const b = computeClosure(n, child, parent, { backend: "ts" });
    expect(closurePairCount(a)).toBe((n * (n + 1)) / 2);
    expect(firstDifference(a.sccOf, b.sccOf)).toBeNull();
    expect(firstDifference(a.offsets, b.offsets)).toBeNull();
    expect(firstDifference(a.ancestors, b.ancestors)).toBeNull(); // 2,001,000 items: toEqual takes ~10 s
  });

  it("hands out copies that later runs do not overwrite", () => {
    const first = computeClosure(3, Uint32Array.of(2, 1), Uint32Array.of(1, 0), { backend: "wasm" });
    const before = [...first.sccOf, ...first.offsets, ...first.ancestors];
    computeClosure(3, Uint32Array.of(0, 1), Uint32Array.of(1, 2), { backend: "wasm" });
    expect([...first.sccOf, ...first.offsets, ...first.ancestors]).toEqual(before);
  });
});

describe("closure: both backends give identical arrays", () => {
  it("on random graphs with dense cycles, duplicates and self-loops", () => {
    for (let seed = 30; seed < 60; seed++) {
      const n = 5 + (seed % 40);
      const { child, parent } = randomGraph(seed, n, n * 3, false);
      const a = computeClosure(n, child, parent, { backend: "wasm" });
      const b = computeClosure(n, child, parent, { backend: "ts" });
      expect(firstDifference(a.sccOf, b.sccOf)).toBeNull();
      expect(firstDifference(a.offsets, b.offsets)).toBeNull();
      expect(firstDifference(a.ancestors, b.ancestors)).toBeNull();
      expect(lists(a)).toEqual(naiveClosure(n, child, parent));
    }
  });

  it("on shuffled random taxonomies (mostly one parent, ids in no order, so the walk meets unvisited classes whose parent is done)", () => {
    for (let seed = 70; seed < 80; seed++) {
      const rnd = mulberry32(seed);
      const n = 3000;
      const label = Uint32Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [label[i], label[j]] = [label[j], label[i]];
      }
      const child: number[] = [];
      const parent: number[] = [];
      for (let i = 1; i < n; i++) {
        child.push(label[i]);
        parent.push(label[Math.floor(rnd() * i)]);
        if (rnd() < 0.05) (child.push(label[i]), parent.push(label[Math.floor(rnd() * i)]));
      }
      const c = Uint32Array.from(child);
      const p = Uint32Array.from(parent);
      const a = computeClosure(n, c, p, { backend: "wasm" });
      const b = computeClosure(n, c, p, { backend: "ts" });
      expect(firstDifference(a.sccOf, b.sccOf)).toBeNull();
      expect(firstDifference(a.offsets, b.offsets)).toBeNull();
      expect(firstDifference(a.ancestors, b.ancestors)).toBeNull();
      if (seed === 70) expect(lists(a)).toEqual(naiveClosure(n, c, p));
    }
  });

  it("on random graphs with cycles", () => {
    for (let seed = 10; seed < 20; seed++) {
      const { child, parent } = randomGraph(seed, 500, 900, seed % 2 === 0);
      const a = computeClosure(500, child, parent, { backend: "wasm" });
      const b = computeClosure(500, child, parent, { backend: "ts" });
      expect(firstDifference(a.sccOf, b.sccOf)).toBeNull();
      expect(firstDifference(a.offsets, b.offsets)).toBeNull();
      expect(firstDifference(a.ancestors, b.ancestors)).toBeNull();
    }
  });
});

describe.skipIf(!existsSync(SHARED))("closure on the WordNet 3.0 noun taxonomy (needs ../shared/data; skipped when it is absent)", () => {
  it("has 663,508 non-reflexive (class, ancestor) pairs, at most 28 ancestors per class, on both backends", () => {
    const { n, child, parent } = wordnetSubclassEdges();
    const ids = { size: n };
    expect(child.length).toBe(75_850);
    expect(ids.size).toBe(74_401);
    const results = backends.map(({ name }) => computeClosure(ids.size, child, parent, { backend: name }));
    for (const c of results) {
      // SOURCES.md's 663,508 counts strict pairs: the reflexive closure adds one pair per class
      expect(closurePairCount(c) - ids.size).toBe(663_508);
      let max = 0;
      for (let v = 0; v < ids.size; v++) max = Math.max(max, closureAncestorsOf(c, v).length - 1);
      expect(max).toBe(28);
      expect(c.offsets.length - 1).toBe(ids.size); // WordNet's hypernym graph has no cycles
    }
    // element-wise (a deep toEqual over 700k numbers is slow)
    const [a, b] = results;
    const same = (x: Uint32Array, y: Uint32Array) => x.length === y.length && x.every((v, i) => v === y[i]);
    expect(same(a.ancestors, b.ancestors) && same(a.offsets, b.offsets) && same(a.sccOf, b.sccOf)).toBe(true);
  });
});
