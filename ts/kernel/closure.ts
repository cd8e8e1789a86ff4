/**
 * Reflexive-transitive closure of a child → parent id graph (rdfs:subClassOf,
 * rdfs:subPropertyOf), cycles included: one contract, two backends. This file is
 * the pure-TS backend (the readable reference) and the dispatcher; the WASM
 * backend is assembly/closure.ts behind bindings/closure.ts.
 *
 * Algorithm (identical in both backends): CSR adjacency; Tarjan's strongly
 * connected components, iterative; each component, when emitted (after all of
 * its ancestors' components), gets the sorted union of its members and its
 * parents' components' lists. O(n + m + Σ list lengths) time up to the unions,
 * memory O(n + m + S) where S ≤ the closure size (members of one cycle share a
 * list), never n².
 */
import { type BackendRequest } from "../../bindings/wasm.js";
import { closureWasm, closureWasmFor as wasmFor } from "../../bindings/closure.js";
import { checkArgs } from "../arg-kinds.js";
import { ArgumentError } from "../errors.js";

/**
 * The closure, as CSR over strongly connected components.
 * The ancestors of node v (itself included) are
 * `ancestors.subarray(offsets[sccOf[v]], offsets[sccOf[v] + 1])`, ascending node ids.
 */
export interface Closure {
  /** Number of nodes (ids 0..nodeCount-1). */
  nodeCount: number;
  /** Node id → component id (components numbered in Tarjan emission order: ancestors first). */
  sccOf: Uint32Array;
  /** componentCount + 1 offsets into `ancestors`. */
  offsets: Uint32Array;
  /** Per component: ascending ids of every node reachable from it (its members included). */
  ancestors: Uint32Array;
  /** Which backend computed it. */
  backend: "wasm" | "ts";
}

const NONE = 0xffffffff;

/** Most nodes a closure takes: 2^24 (the TS backend's working arrays are ~40 bytes a node). */
export const MAX_CLOSURE_NODES = 1 << 24;
/** Most edges a closure takes: 2^26. */
export const MAX_CLOSURE_EDGES = 1 << 26;

/**
 * The input checks both backends share, done before either runs, so invalid input fails
 * the same way on WASM and TS (never "memory access out of bounds", never a 20 GB array):
 * `n` an integer in 0..MAX_CLOSURE_NODES, `child`/`parent` Uint32Arrays of one length at most
 * MAX_CLOSURE_EDGES. (Ids ≥ n are checked by each backend's own pass over the edges.)
 * @throws ArgumentError naming the argument, for a wrong type or a count out of range
 */
export function checkClosureInput(n: unknown, child: unknown, parent: unknown): void {
  if (typeof n !== "number" || !Number.isInteger(n)) throw new ArgumentError("computeClosure", "n", "an integer node count", n);
  if (n < 0 || n > MAX_CLOSURE_NODES) throw new ArgumentError("computeClosure", "n", `an integer in 0..${MAX_CLOSURE_NODES}`, n);
  if (!(child instanceof Uint32Array)) throw new ArgumentError("computeClosure", "child", "a Uint32Array of node ids", child);
  if (!(parent instanceof Uint32Array)) throw new ArgumentError("computeClosure", "parent", "a Uint32Array of node ids", parent);
  if (child.length !== parent.length) throw new ArgumentError("computeClosure", "parent", `as long as child (${child.length} edges)`, parent, `${parent.length} edges`);
  if (child.length > MAX_CLOSURE_EDGES) throw new ArgumentError("computeClosure", "child", `at most ${MAX_CLOSURE_EDGES} edges`, child, `${child.length}`);
}

/** Throw the contract's error for an edge naming a node outside 0..n-1. */
function badEdge(n: number): never {
  throw new ArgumentError("computeClosure", "child and parent", `node ids in 0..${n - 1}`, null, `an edge naming a node outside 0..${n - 1}`);
}

/**
 * Pure-TS backend. `child[i] → parent[i]` is one edge (child rdfs:subClassOf parent).
 * @param n number of nodes; ids are 0..n-1
 * @throws as {@link checkClosureInput}; RangeError when an edge names an id ≥ n
 */
export function closureTs(n: number, child: Uint32Array, parent: Uint32Array): Closure {
  checkArgs("closureTs", arguments, "n:number child:u32 parent:u32");
  checkClosureInput(n, child, parent);
  const m = child.length;
  // 1. CSR child → parents, parents kept in input order
  const adjOff = new Uint32Array(n + 1);
  for (let e = 0; e < m; e++) {
    if (child[e] >= n || parent[e] >= n) badEdge(n);
    adjOff[child[e] + 1]++;
  }
  for (let i = 0; i < n; i++) adjOff[i + 1] += adjOff[i];
  const iter = adjOff.slice(0, n);
  const adj = new Uint32Array(m);
  for (let e = 0; e < m; e++) adj[iter[child[e]]++] = parent[e];
  // 2. + 3. Tarjan, iterative, ancestors computed at emission
  const index = new Uint32Array(n).fill(NONE);
  const low = new Uint32Array(n);
  const stack = new Uint32Array(n);
  const call = new Uint32Array(n);
  const sccOf = new Uint32Array(n).fill(NONE);
  const mark = new Uint32Array(n).fill(NONE);
  const sccOff = new Uint32Array(n + 1);
  let anc = new Uint32Array(n + m + 16);
  let counter = 0;
  let sp = 0;
  let cp = 0;
  let scc = 0;
  let total = 0;
  const grow = (need: number) => {
    if (need <= anc.length) return;
    let cap = anc.length;
    while (cap < need) cap *= 2;
    const next = new Uint32Array(cap);
    next.set(anc.subarray(0, total));
    anc = next;
  };
  for (let root = 0; root < n; root++) {
    if (index[root] !== NONE) continue;
    index[root] = low[root] = counter++;
    stack[sp++] = root;
    iter[root] = adjOff[root];
    call[cp++] = root;
    while (cp > 0) {
      const v = call[cp - 1];
      const it = iter[v];
      if (it < adjOff[v + 1]) {
        iter[v] = it + 1;
        const w = adj[it];
        if (index[w] === NONE) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          iter[w] = adjOff[w];
          call[cp++] = w;
        } else if (sccOf[w] === NONE && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      cp--;
      if (low[v] === index[v]) {
        let first = sp;
        for (;;) {
          const w = stack[--first];
          sccOf[w] = scc;
          if (w === v) break;
        }
        const start = total;
        // fast path (every class of a tree, most of a taxonomy): one member, one parent
        // component: the parent's sorted list with the member inserted in order, no marks, no sort
        let single = false;
        let pc = 0;
        if (sp - first === 1) {
          const x = stack[first];
          const e0 = adjOff[x];
          const e1 = adjOff[x + 1];
          single = e1 > e0;
          if (single) {
            pc = sccOf[adj[e0]];
            for (let e = e0 + 1; e < e1; e++) if (sccOf[adj[e]] !== pc) { single = false; break; }
            if (pc === scc) single = false;
          }
        }
        if (single) {
          const x = stack[first];
          const a0 = sccOff[pc];
          const a1 = sccOff[pc + 1];
          grow(total + (a1 - a0) + 1);
          let a = a0;
          while (a < a1 && anc[a] < x) anc[total++] = anc[a++];
          anc[total++] = x;
          anc.copyWithin(total, a, a1);
          total += a1 - a;
          mark[x] = scc;
        } else {
          for (let k = first; k < sp; k++) {
            const w = stack[k];
            grow(total + 1);
            anc[total++] = w;
            mark[w] = scc;
          }
          for (let k = first; k < sp; k++) {
            const x = stack[k];
            for (let e = adjOff[x]; e < adjOff[x + 1]; e++) {
              const parent = sccOf[adj[e]];
              if (parent === scc) continue;
              const a0 = sccOff[parent];
              const a1 = sccOff[parent + 1];
              grow(total + (a1 - a0));
              for (let a = a0; a < a1; a++) {
                const y = anc[a];
                if (mark[y] !== scc) {
                  mark[y] = scc;
                  anc[total++] = y;
                }
              }
            }
          }
          anc.subarray(start, total).sort();
        }
        sp = first;
        scc++;
        sccOff[scc] = total;
      }
      if (cp > 0) {
        const u = call[cp - 1];
        if (low[v] < low[u]) low[u] = low[v];
      }
    }
  }
  return { nodeCount: n, sccOf, offsets: sccOff.slice(0, scc + 1), ancestors: anc.slice(0, total), backend: "ts" };
}

/**
 * Closure of `child[i] rdfs:subClassOf parent[i]` over node ids 0..n-1, on the
 * backend `backend` asks for ("auto": WASM when loaded, else TS, see bindings/wasm.ts).
 * Both backends return identical arrays, owned by the caller (never views of WASM
 * memory). On the WASM backend the three are views into one ArrayBuffer (one copy
 * out of the module instead of three), so use them through the views, not `.buffer`.
 * @throws ArgumentError when `n` is not an integer or an edge array is not a Uint32Array;
 *   RangeError when `n` is outside 0..MAX_CLOSURE_NODES, there are more than
 *   MAX_CLOSURE_EDGES edges, the arrays differ in length, or an edge names an id ≥ n —
 *   identically on both backends
 */
export function computeClosure(
  n: number,
  child: Uint32Array,
  parent: Uint32Array,
  options: { backend?: BackendRequest } = {},
): Closure {
  checkArgs("computeClosure", arguments, "n:number child:u32 parent:u32 options?:object");
  checkClosureInput(n, child, parent);
  const wasm = wasmFor(options.backend);
  if (!wasm) return closureTs(n, child, parent);
  const out = closureWasm(wasm, n, child, parent);
  if (!out) badEdge(n);
  return { nodeCount: n, ...out, backend: "wasm" };
}

/** The ancestors of node `v` (itself included), ascending ids. A view, not a copy. */
export function closureAncestorsOf(closure: Closure, v: number): Uint32Array {
  checkArgs("closureAncestorsOf", arguments, "closure:closure v:int");
  const c = closure.sccOf[v];
  return closure.ancestors.subarray(closure.offsets[c], closure.offsets[c + 1]);
}

/** Whether `ancestor` is reachable from `v` (or equal to it): binary search, O(log k). */
export function closureHas(closure: Closure, v: number, ancestor: number): boolean {
  // hot (every subclass test): one test, not checkArgs
  if (!(closure?.sccOf instanceof Uint32Array)) throw new ArgumentError("closureHas", "closure", "a Closure (from computeClosure)", closure);
  const c = closure.sccOf[v];
  let lo = closure.offsets[c];
  let hi = closure.offsets[c + 1];
  const list = closure.ancestors;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < ancestor) lo = mid + 1;
    else hi = mid;
  }
  return lo < closure.offsets[c + 1] && list[lo] === ancestor;
}

/** Number of (node, ancestor) pairs, reflexive pairs included (Σ over nodes of their list length). */
export function closurePairCount(closure: Closure): number {
  checkArgs("closurePairCount", arguments, "closure:closure");
  let total = 0;
  for (let v = 0; v < closure.nodeCount; v++) {
    const c = closure.sccOf[v];
    total += closure.offsets[c + 1] - closure.offsets[c];
  }
  return total;
}
