// Reflexive-transitive closure of a "child → parent" id graph (rdfs:subClassOf,
// rdfs:subPropertyOf), cycles included. The pure-TS twin with the same contract
// is ts/kernel/closure.ts; the binding is bindings/closure.ts.
//
// Algorithm (identical in both backends):
//   1. CSR adjacency child → parents from the edge list.
//   2. Tarjan's strongly connected components, iterative (no recursion, so
//      19-deep WordNet and 1M-node DAGs never overflow a stack). Tarjan emits a
//      component only after every component reachable from it, i.e. after all
//      of its ancestors' components.
//   3. When a component is emitted, its ancestor list = its members ∪ the lists
//      of its parents' components (deduplicated with a stamp per node), sorted
//      ascending. Members of one cycle share one list.
// Output: sccOf[n] (node → component), offsets[c+1] and ancestors[S] (CSR over
// components, node ids). Memory is O(n + m + S) where S ≤ closure size, never n².
//
// One arena, one block from heap.alloc, grown with heap.realloc (the stub
// runtime grows the last block in place). Layout, all u32, offsets in words:
//
//   | child[m] | parent[m] | adjOff[n+1] | adj[m] | index[n] | low[n] | stack[n] |
//   | call[n] | iter[n] | sccOf[n] | mark[n] | markC[n] | sccOff[n+1] | anc[...grows...] |
//
// (the WASM backend unions sorted lists by merging, the TS reference by marking and
// sorting: both yield each list sorted and duplicate-free, so the arrays are identical)
//
// JS writes child/parent with one set() at closureInputPtr(), calls
// closureRun(n, m) once, then reads the outputs at the pointers it exports.

let arena: usize = 0;
let arenaBytes: usize = 0;
let nodes: u32 = 0;
let edges: u32 = 0;
let componentCount: u32 = 0;
let ancestorCount: u32 = 0;
// word offsets of the regions (see the layout above)
let oChild: usize = 0;
let oParent: usize = 0;
let oAdjOff: usize = 0;
let oAdj: usize = 0;
let oIndex: usize = 0;
let oLow: usize = 0;
let oStack: usize = 0;
let oCall: usize = 0;
let oIter: usize = 0;
let oScc: usize = 0;
let oMark: usize = 0;
let oSccOff: usize = 0;
let oMarkC: usize = 0;
let oAnc: usize = 0;
let ancCapacity: usize = 0;

const NONE: u32 = 0xffffffff;

@inline function at(word: usize): usize {
  return arena + (word << 2);
}
@inline function get(word: usize): u32 {
  return load<u32>(arena + (word << 2));
}
@inline function put(word: usize, value: u32): void {
  store<u32>(arena + (word << 2), value);
}

function ensureBytes(bytes: usize): void {
  if (bytes <= arenaBytes) return;
  let want = arenaBytes < 65536 ? <usize>65536 : arenaBytes;
  while (want < bytes) want <<= 1;
  arena = arena == 0 ? heap.alloc(want) : heap.realloc(arena, want);
  arenaBytes = want;
}

/**
 * Reserve the arena for n nodes and m edges and return the address where JS
 * writes child[m] then parent[m] (u32 each). Grows the arena when needed.
 */
export function closureInputPtr(n: u32, m: u32): usize {
  nodes = n;
  edges = m;
  oChild = 0;
  oParent = <usize>m;
  oAdjOff = oParent + <usize>m;
  oAdj = oAdjOff + <usize>n + 1;
  oIndex = oAdj + <usize>m;
  oLow = oIndex + <usize>n;
  oStack = oLow + <usize>n;
  oCall = oStack + <usize>n;
  oIter = oCall + <usize>n;
  oScc = oIter + <usize>n;
  oMark = oScc + <usize>n;
  oMarkC = oMark + <usize>n;
  oSccOff = oMarkC + <usize>n;
  oAnc = oSccOff + <usize>n + 1;
  // start the ancestor region at n + m words (a DAG's closure is at least n)
  ancCapacity = <usize>n + <usize>m + 16;
  ensureBytes((oAnc + ancCapacity) << 2);
  return at(oChild);
}

function growAncestors(need: usize): void {
  if (need <= ancCapacity) return;
  let cap = ancCapacity;
  while (cap < need) cap <<= 1;
  ensureBytes((oAnc + cap) << 2);
  ancCapacity = cap;
}

// ascending sort of words [lo, hi) of the arena: insertion sort for short runs, heapsort otherwise
function sortRange(lo: usize, hi: usize): void {
  const len = hi - lo;
  if (len < 2) return;
  if (len <= 24) {
    for (let i = lo + 1; i < hi; i++) {
      const v = get(i);
      let j = i;
      while (j > lo && get(j - 1) > v) {
        put(j, get(j - 1));
        j--;
      }
      put(j, v);
    }
    return;
  }
  // heapsort, zero extra memory
  let start = len >> 1;
  let end = len;
  while (end > 1) {
    if (start > 0) {
      start--;
    } else {
      end--;
      const t = get(lo + end);
      put(lo + end, get(lo));
      put(lo, t);
    }
    let root = start;
    while (true) {
      let child: usize = 2 * root + 1;
      if (child >= end) break;
      if (child + 1 < end && get(lo + child + 1) > get(lo + child)) child++;
      if (get(lo + root) < get(lo + child)) {
        const t = get(lo + root);
        put(lo + root, get(lo + child));
        put(lo + child, t);
        root = child;
      } else break;
    }
  }
}

/**
 * Compute the closure of the edges written at closureInputPtr(n, m).
 * Returns the number of components, or -1 when an edge names a node ≥ n.
 * Outputs: closureSccOfPtr() (n words), closureOffsetsPtr() (components+1 words),
 * closureAncestorsPtr() (closureAncestorCount() words).
 */
export function closureRun(n: u32, m: u32): i32 {
  if (n != nodes || m != edges) closureInputPtr(n, m);
  const nn = <usize>n;
  const mm = <usize>m;
  // 1. CSR child → parents (counting sort by child keeps each child's parents in input order)
  for (let i: usize = 0; i <= nn; i++) put(oAdjOff + i, 0);
  for (let e: usize = 0; e < mm; e++) {
    const c = get(oChild + e);
    const p = get(oParent + e);
    if (c >= n || p >= n) return -1;
    put(oAdjOff + <usize>c + 1, get(oAdjOff + <usize>c + 1) + 1);
  }
  for (let i: usize = 0; i < nn; i++) put(oAdjOff + i + 1, get(oAdjOff + i + 1) + get(oAdjOff + i));
  for (let i: usize = 0; i < nn; i++) put(oIter + i, get(oAdjOff + i));
  for (let e: usize = 0; e < mm; e++) {
    const c = <usize>get(oChild + e);
    const slot = <usize>get(oIter + c);
    put(oAdj + slot, get(oParent + e));
    put(oIter + c, <u32>slot + 1);
  }
  // 2. + 3. Tarjan, iterative; ancestors computed as each component is emitted
  for (let i: usize = 0; i < nn; i++) {
    put(oIndex + i, NONE);
    put(oScc + i, NONE);
    put(oMark + i, NONE);
    put(oMarkC + i, NONE);
  }
  let counter: u32 = 0;
  let sp: usize = 0;
  let cp: usize = 0;
  let scc: u32 = 0;
  let total: usize = 0;
  put(oSccOff, 0);
  for (let root: usize = 0; root < nn; root++) {
    if (get(oIndex + root) != NONE) continue;
    put(oIndex + root, counter);
    put(oLow + root, counter);
    counter++;
    put(oStack + sp++, <u32>root);
    put(oIter + root, get(oAdjOff + root));
    put(oCall + cp++, <u32>root);
    while (cp > 0) {
      const v = <usize>get(oCall + cp - 1);
      const it = get(oIter + v);
      if (it < get(oAdjOff + v + 1)) {
        put(oIter + v, it + 1);
        const w = <usize>get(oAdj + <usize>it);
        if (get(oIndex + w) == NONE) {
          put(oIndex + w, counter);
          put(oLow + w, counter);
          counter++;
          put(oStack + sp++, <u32>w);
          put(oIter + w, get(oAdjOff + w));
          put(oCall + cp++, <u32>w);
        } else if (get(oScc + w) == NONE) {
          // w is on the stack (visited, not yet in a component)
          const iw = get(oIndex + w);
          if (iw < get(oLow + v)) put(oLow + v, iw);
        }
        continue;
      }
      cp--;
      if (get(oLow + v) == get(oIndex + v)) {
        // pop the component; its members are stack[first, sp)
        let first = sp;
        while (true) {
          first--;
          const w = get(oStack + first);
          put(oScc + <usize>w, scc);
          if (<usize>w == v) break;
        }
        const start = total;
        // fast path (every class of a tree, most of a taxonomy): one member, one parent
        // component: the parent's sorted list with the member inserted in order, no marks, no sort
        if (sp - first == 1) {
          const x = <usize>get(oStack + first);
          const e0 = <usize>get(oAdjOff + x);
          const e1 = <usize>get(oAdjOff + x + 1);
          let single = e1 > e0;
          let pc: u32 = 0;
          if (single) {
            pc = get(oScc + <usize>get(oAdj + e0));
            for (let e = e0 + 1; e < e1; e++) if (get(oScc + <usize>get(oAdj + e)) != pc) { single = false; break; }
            if (pc == scc) single = false;
          }
          if (single) {
            const a0 = <usize>get(oSccOff + <usize>pc);
            const a1 = <usize>get(oSccOff + <usize>pc + 1);
            growAncestors(total + (a1 - a0) + 1);
            const self = <u32>x;
            let a = a0;
            while (a < a1 && get(oAnc + a) < self) put(oAnc + total++, get(oAnc + a++));
            put(oAnc + total++, self);
            // the rest is one block: copy it at once
            const rest = a1 - a;
            memory.copy(at(oAnc + total), at(oAnc + a), rest << 2);
            total += rest;
            put(oMark + x, scc);
            sp = first;
            scc++;
            put(oSccOff + <usize>scc, <u32>total);
            if (cp > 0) {
              const u = <usize>get(oCall + cp - 1);
              if (get(oLow + v) < get(oLow + u)) put(oLow + u, get(oLow + v));
            }
            continue;
          }
        }
        // general path: the sorted members, then one sorted merge per distinct parent
        // component (lists are sorted, so a merge replaces marking and sorting)
        for (let k = first; k < sp; k++) {
          growAncestors(total + 1);
          put(oAnc + total++, get(oStack + k));
        }
        sortRange(oAnc + start, oAnc + total);
        let r0 = start;
        let r1 = total;
        for (let k = first; k < sp; k++) {
          const x = <usize>get(oStack + k);
          const pe = <usize>get(oAdjOff + x + 1);
          for (let e = <usize>get(oAdjOff + x); e < pe; e++) {
            const pc = get(oScc + <usize>get(oAdj + e));
            if (pc == scc || get(oMarkC + <usize>pc) == scc) continue;
            put(oMarkC + <usize>pc, scc);
            const b0 = <usize>get(oSccOff + <usize>pc);
            const b1 = <usize>get(oSccOff + <usize>pc + 1);
            growAncestors(r1 + (r1 - r0) + (b1 - b0));
            let i = r0;
            let j = b0;
            let o = r1;
            while (i < r1 && j < b1) {
              const x1 = get(oAnc + i);
              const y1 = get(oAnc + j);
              if (x1 < y1) { put(oAnc + o++, x1); i++; }
              else if (y1 < x1) { put(oAnc + o++, y1); j++; }
              else { put(oAnc + o++, x1); i++; j++; }
            }
            while (i < r1) put(oAnc + o++, get(oAnc + i++));
            while (j < b1) put(oAnc + o++, get(oAnc + j++));
            r0 = r1;
            r1 = o;
          }
        }
        if (r0 != start) memory.copy(at(oAnc + start), at(oAnc + r0), (r1 - r0) << 2);
        total = start + (r1 - r0);
        sp = first;
        scc++;
        put(oSccOff + <usize>scc, <u32>total);
      }
      if (cp > 0) {
        const u = <usize>get(oCall + cp - 1);
        if (get(oLow + v) < get(oLow + u)) put(oLow + u, get(oLow + v));
      }
    }
  }
  componentCount = scc;
  ancestorCount = <u32>total;
  return <i32>scc;
}

/** Address of sccOf[n]: node id → component id. Valid until the next closureInputPtr. */
export function closureSccOfPtr(): usize {
  return at(oScc);
}
/** Address of offsets[components + 1] into the ancestor list. */
export function closureOffsetsPtr(): usize {
  return at(oSccOff);
}
/** Address of the ancestor lists (node ids, ascending per component). */
export function closureAncestorsPtr(): usize {
  return at(oAnc);
}
/** Length of the ancestor lists (sum over components, not over nodes). */
export function closureAncestorCount(): u32 {
  return ancestorCount;
}
/** Number of components of the last run. */
export function closureComponentCount(): u32 {
  return componentCount;
}
