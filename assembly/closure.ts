// Reflexive-transitive closure of a "child → parent" id graph (rdfs:subClassOf,
// rdfs:subPropertyOf), cycles included. The pure-TS twin with the same contract
// is ts/kernel/closure.ts; the binding is bindings/closure.ts.
//
// Algorithm (same result as the TS backend, array for array):
//   1. The parents of each child, in input order (a counting sort by child).
//   2. Tarjan's strongly connected components, iterative (no recursion, so deep
//      taxonomies and 1M-node DAGs never overflow a stack), parents visited in
//      input order, so components are found and numbered exactly as in the TS
//      backend. Tarjan emits a component only after every component reachable
//      from it, i.e. after all of its ancestors' components.
//   3. When a component is emitted, its ancestor list = its members ∪ the lists
//      of its parents' components, ascending and duplicate-free. Members of one
//      cycle share one list.
// Output: sccOf[n] (node → component), offsets[c+1] and ancestors[S] (CSR over
// components, node ids). Memory is O(n + m + S) where S ≤ closure size, never n².
//
// How this differs from the TS reference (the arrays do not): the TS backend
// unions by marking and sorting; here the lists are already sorted, so a union is a
// merge. A class alone in its component with one parent (every class of a tree,
// 72,967 of WordNet's 74,401) is handled inline in the walk (emitBelow): the
// parent's list copied with the class inserted in order, straight to its final
// place. When the walk meets such a class and its parent is emitted already (as
// a root of the outer loop or as an unvisited parent), it is emitted on the spot
// without a frame or a stack entry: Tarjan would push it, find nothing new, pop
// it and emit it alone, with the same component number. One with
// two parent components (a quarter of the generated DAG) gets a two-way merge with
// itself inserted, also in place (emit). Other components (cycles, self-loops,
// three or more parent components) merge pairwise through scratch space.
//
// Why the layout below: a profile on WordNet (perf, per instruction) put about a
// third of the run in the graph walk, its hottest instruction the first read of a
// parent's state (a cache miss), and two thirds in emitting components. So each
// node has one 16-byte record holding all a visit or an emission reads about it,
// in one cache line, instead of five arrays (index, adjacency offsets, adjacency,
// component, list offsets); with the inline case above that is about 15 % faster
// on WordNet than the five arrays were (measured interleaved, same machine):
//
//   rec[v] = | index | scc | x | y |
//     index: NONE (unvisited), the DFS index while on the Tarjan stack, DONE once
//            emitted (DONE is larger than every index, so "w on the stack and
//            earlier than low" is the one test `index[w] < low`)
//     x, y before v is emitted: where v's parents are, as byte offsets from the
//            arena: one parent (72,967 of WordNet's 74,401 classes) is kept in x
//            itself (y = ONE); otherwise the parents are adj bytes [x, y)
//     x, y after v is emitted: its component's ancestor list, words [x, y) of anc
//
// Tarjan keeps each open node's parent cursor and low-link in its call frame.
//
// One arena, one block from heap.alloc, grown with heap.realloc (the stub
// runtime grows the last block in place, else it moves it: every access goes
// through the local `base`, reloaded after a growth; frames hold offsets, not
// addresses). Layout, u32 words:
//
//   | child[m] | parent[m] | adj[m] | rec[4n] | markC[n] |
//   | frame[4n]: (node, parent cursor, parents end, low) | stack[n] |
//   | sccOf[n] | sccOff[n+1] | anc[...grows...] |
//     └──────── the outputs, contiguous: JS copies them out with one slice ──┘
//
// JS writes child/parent with one set() at closureInputPtr(), calls
// closureRun(n, m) once, then reads the outputs at the pointers it exports.

let arena: usize = 0;
let arenaBytes: usize = 0;
let nodes: u32 = 0;
let edges: u32 = 0;
let componentCount: u32 = 0;
let ancestorCount: u32 = 0;
// byte offsets of the regions from `arena` (see the layout above)
let bChild: usize = 0;
let bParent: usize = 0;
let bAdj: usize = 0;
let bRec: usize = 0;
let bMarkC: usize = 0;
let bFrame: usize = 0;
let bStack: usize = 0;
let bScc: usize = 0;
let bSccOff: usize = 0;
let bAnc: usize = 0;
let ancCapacity: usize = 0; // words
let emittedFirst: usize = 0; // stack position of the last emitted component's first member

const NONE: u32 = 0xffffffff; // index of a node not yet visited; "no component"
const DONE: u32 = 0xfffffffe; // index of a node whose component was emitted: never < a low-link
const ONE: u32 = 0xffffffff; // rec.y of a node whose one parent is rec.x itself

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
  const nb = <usize>n << 2;
  const mb = <usize>m << 2;
  bChild = 0;
  bParent = mb;
  bAdj = bParent + mb;
  bRec = bAdj + mb;
  bMarkC = bRec + (nb << 2);
  bFrame = bMarkC + nb;
  bStack = bFrame + (nb << 2);
  bScc = bStack + nb;
  bSccOff = bScc + nb;
  bAnc = bSccOff + nb + 4;
  // start the ancestor region at n + m words (a DAG's closure is at least n)
  ancCapacity = <usize>n + <usize>m + 16;
  ensureBytes(bAnc + (ancCapacity << 2));
  return arena + bChild;
}

/** Make room for `need` ancestor words; the arena may move (callers reload `arena`). */
function growAncestors(need: usize): void {
  let cap = ancCapacity;
  while (cap < need) cap <<= 1;
  ensureBytes(bAnc + (cap << 2));
  ancCapacity = cap;
}

// copy `words` u32 from src to dst (dst after the end of src, or before its start):
// an inline loop, since a bulk memory.copy call costs more than the ~10 words of a typical list
@inline function copyWords(dst: usize, src: usize, words: usize): void {
  const end = src + (words << 2);
  while (src + 8 <= end) {
    store<u64>(dst, load<u64>(src));
    src += 8;
    dst += 8;
  }
  if (src < end) store<u32>(dst, load<u32>(src));
}

// ascending sort of the u32 words at [lo, hi) (byte addresses): insertion sort for
// short runs, heapsort otherwise (cycles only: the members of one component)
function sortWords(lo: usize, hi: usize): void {
  const len = (hi - lo) >> 2;
  if (len < 2) return;
  if (len <= 24) {
    for (let i = lo + 4; i < hi; i += 4) {
      const v = load<u32>(i);
      let j = i;
      while (j > lo && load<u32>(j - 4) > v) {
        store<u32>(j, load<u32>(j - 4));
        j -= 4;
      }
      store<u32>(j, v);
    }
    return;
  }
  let start = len >> 1;
  let end = len;
  while (end > 1) {
    if (start > 0) {
      start--;
    } else {
      end--;
      const t = load<u32>(lo + (end << 2));
      store<u32>(lo + (end << 2), load<u32>(lo));
      store<u32>(lo, t);
    }
    let root = start;
    while (true) {
      let child: usize = 2 * root + 1;
      if (child >= end) break;
      if (child + 1 < end && load<u32>(lo + ((child + 1) << 2)) > load<u32>(lo + (child << 2))) child++;
      const r = load<u32>(lo + (root << 2));
      const c = load<u32>(lo + (child << 2));
      if (r < c) {
        store<u32>(lo + (root << 2), c);
        store<u32>(lo + (child << 2), r);
        root = child;
      } else break;
    }
  }
}

// merge the sorted, duplicate-free u32 runs [i, i1) and [j, j1) (byte addresses) into
// `o`, equal values once; returns the end of the output
function mergeWords(o: usize, i: usize, i1: usize, j: usize, j1: usize): usize {
  while (i < i1 && j < j1) {
    const x = load<u32>(i);
    const y = load<u32>(j);
    if (x <= y) {
      store<u32>(o, x);
      i += 4;
      if (x == y) j += 4;
    } else {
      store<u32>(o, y);
      j += 4;
    }
    o += 4;
  }
  if (i < i1) {
    copyWords(o, i, (i1 - i) >> 2);
    o += i1 - i;
  }
  if (j < j1) {
    copyWords(o, j, (j1 - j) >> 2);
    o += j1 - j;
  }
  return o;
}

/**
 * Copy the sorted words [i, i1) to o with x inserted in order; returns the end of the copy.
 * x's place is looked for from the end: children mostly have larger ids than their
 * ancestors (86 % of WordNet's list entries precede the class itself).
 */
@inline function copyInserting(o: usize, i: usize, i1: usize, x: u32): usize {
  let k = i1;
  while (k > i && load<u32>(k - 4) > x) k -= 4;
  copyWords(o, i, (k - i) >> 2);
  o += k - i;
  store<u32>(o, x);
  o += 4;
  copyWords(o, k, (i1 - k) >> 2);
  return o + (i1 - k);
}

/**
 * Emit v as a component of its own whose one parent p is emitted already: p's
 * list with v inserted in order, at anc[total...]; v's record and offsets[scc + 1]
 * written. Returns the new total. The arena may move (callers reload `arena`).
 * This is most classes of a taxonomy, so it is inlined where the walk meets them.
 */
@inline function emitBelow(v: usize, p: usize, scc: u32, total: usize): usize {
  let base = arena;
  const rp = base + bRec + (p << 4);
  const a0 = <usize>load<u32>(rp, 8);
  const a1 = <usize>load<u32>(rp, 12);
  const need = total + (a1 - a0) + 1;
  if (need > ancCapacity) {
    growAncestors(need);
    base = arena;
  }
  const anc = base + bAnc;
  const i = anc + (a0 << 2);
  const i1 = anc + (a1 << 2);
  let o = anc + (total << 2);
  o = copyInserting(o, i, i1, <u32>v);
  const next = (o - anc) >> 2;
  const r = base + bRec + (v << 4);
  store<u32>(r, DONE);
  store<u32>(r, scc, 4);
  store<u32>(r, <u32>total, 8);
  store<u32>(r, <u32>next, 12);
  store<u32>(base + bSccOff + ((<usize>scc + 1) << 2), <u32>next);
  return next;
}

/**
 * Compute the closure of the edges written at closureInputPtr(n, m).
 * Returns the number of components, or -1 when an edge names a node ≥ n.
 * Outputs: closureSccOfPtr() (n words), closureOffsetsPtr() (components+1 words),
 * closureAncestorsPtr() (closureAncestorCount() words), adjacent in that order.
 */
export function closureRun(n: u32, m: u32): i32 {
  if (n != nodes || m != edges) closureInputPtr(n, m);
  const nn = <usize>n;
  const mm = <usize>m;
  let base = arena;
  // 1. Parents per child. Count each child's parents into rec.y (and keep the last
  //    one in rec.x: for a child with one parent that is the parent); then give the
  //    children with several parents their adj range [x, y), filled in input order.
  memory.fill(base + bRec, 0, nn << 4);
  for (let e: usize = 0; e < mm; e++) {
    const c = load<u32>(base + bChild + (e << 2));
    const p = load<u32>(base + bParent + (e << 2));
    if (c >= n || p >= n) return -1;
    const r = base + bRec + (<usize>c << 4);
    store<u32>(r, p, 8);
    store<u32>(r, load<u32>(r, 12) + 1, 12);
  }
  let cursor = bAdj;
  for (let v: usize = 0; v < nn; v++) {
    const r = base + bRec + (v << 4);
    store<u32>(r, NONE);
    const degree = <usize>load<u32>(r, 12);
    if (degree == 1) {
      store<u32>(r, ONE, 12);
    } else {
      store<u32>(r, <u32>cursor, 8);
      store<u32>(r, <u32>cursor, 12); // advanced to the end by the placement below
      cursor += degree << 2;
    }
  }
  for (let e: usize = 0; e < mm; e++) {
    const r = base + bRec + (<usize>load<u32>(base + bChild + (e << 2)) << 4);
    const y = load<u32>(r, 12);
    if (y == ONE) continue;
    store<u32>(base + <usize>y, load<u32>(base + bParent + (e << 2)));
    store<u32>(r, y + 4, 12);
  }
  // 2. + 3. Tarjan, iterative; ancestors computed as each component is emitted
  memory.fill(base + bMarkC, 0xff, nn << 2); // no component has marked anything yet
  let counter: u32 = 0;
  let sp: usize = 0; // Tarjan stack, words
  let fp: usize = 0; // call frames
  let scc: u32 = 0;
  let total: usize = 0; // ancestor words written
  store<u32>(base + bSccOff, 0);
  for (let root: usize = 0; root < nn; root++) {
    let r = base + bRec + (root << 4);
    if (load<u32>(r) != NONE) continue;
    if (load<u32>(r, 12) == ONE) {
      // one parent, emitted already: Tarjan would push, scan, pop and emit it alone
      const p = <usize>load<u32>(r, 8);
      if (p != root && load<u32>(base + bRec + (p << 4)) == DONE) {
        total = emitBelow(root, p, scc, total);
        scc++;
        base = arena;
        continue;
      }
    }
    let w = root;
    fp = 0;
    // push w: index it, put it on the Tarjan stack, open its frame
    while (true) {
      store<u32>(r, counter);
      store<u32>(base + bStack + (sp++ << 2), <u32>w);
      const g = base + bFrame + (fp << 4);
      store<u32>(g, <u32>w);
      if (load<u32>(r, 12) == ONE) {
        const at = <u32>(bRec + (w << 4) + 8);
        store<u32>(g, at, 4);
        store<u32>(g, at + 4, 8);
      } else {
        store<u32>(g, load<u32>(r, 8), 4);
        store<u32>(g, load<u32>(r, 12), 8);
      }
      store<u32>(g, counter, 12);
      counter++;
      fp++;
      // resume the top frame: scan its parents until one is unvisited (descend into it)
      // or all are seen (v is finished)
      let descend = false;
      while (fp > 0) {
        let f = base + bFrame + ((fp - 1) << 4);
        const v = <usize>load<u32>(f);
        let it = <usize>load<u32>(f, 4);
        const end = <usize>load<u32>(f, 8);
        let low = load<u32>(f, 12);
        while (it < end) {
          const x = <usize>load<u32>(base + it);
          it += 4;
          const rx = base + bRec + (x << 4);
          const ix = load<u32>(rx);
          if (ix == NONE) {
            if (load<u32>(rx, 12) == ONE) {
              // x has one parent, emitted already: x is a component of its own,
              // emitted at once (as Tarjan would on returning from it); v's low stays
              const q = <usize>load<u32>(rx, 8);
              if (q != x && load<u32>(base + bRec + (q << 4)) == DONE) {
                total = emitBelow(x, q, scc, total);
                scc++;
                base = arena;
                continue;
              }
            }
            w = x;
            r = base + bRec + (x << 4);
            descend = true;
            break;
          }
          if (ix < low) low = ix; // x is on the stack (DONE is never < low)
        }
        f = base + bFrame + ((fp - 1) << 4); // the arena may have moved
        if (descend) {
          store<u32>(f, <u32>it, 4);
          store<u32>(f, low, 12);
          break;
        }
        fp--;
        const rv = base + bRec + (v << 4);
        if (low != load<u32>(rv)) {
          // not a component root: hand the low-link to the caller (v is not a DFS root, so fp > 0)
          const u = base + bFrame + ((fp - 1) << 4);
          if (low < load<u32>(u, 12)) store<u32>(u, low, 12);
          continue;
        }
        if (load<u32>(base + bStack + ((sp - 1) << 2)) == <u32>v && load<u32>(rv, 12) == ONE && <usize>load<u32>(rv, 8) != v) {
          // v alone in its component with one parent (emitted already)
          total = emitBelow(v, <usize>load<u32>(rv, 8), scc, total);
          base = arena;
          sp--;
        } else {
          total = emit(v, sp, scc, total);
          base = arena; // emit may have grown (and moved) the arena
          sp = emittedFirst; // the members leave the stack
          store<u32>(base + bSccOff + ((<usize>scc + 1) << 2), <u32>total);
        }
        scc++;
      }
      if (!descend) break;
    }
  }
  // sccOf out of the records, where the walk kept it
  for (let v: usize = 0; v < nn; v++) {
    store<u32>(base + bScc + (v << 2), load<u32>(base + bRec + (v << 4), 4));
  }
  componentCount = scc;
  ancestorCount = <u32>total;
  return <i32>scc;
}

/**
 * Emit the component rooted at v: its members are stack[first, sp) with v at
 * `first`. Marks them DONE with component `scc`, writes their ancestor list at
 * anc[total...] and its range into their records, and leaves `first` in
 * emittedFirst for the caller. Returns the new total.
 */
function emit(v: usize, sp: usize, scc: u32, total: usize): usize {
  let base = arena;
  let first = sp;
  while (true) {
    first--;
    const w = <usize>load<u32>(base + bStack + (first << 2));
    const r = base + bRec + (w << 4);
    store<u32>(r, DONE);
    store<u32>(r, scc, 4);
    if (w == v) break;
  }
  emittedFirst = first;
  const start = total;
  const rv = base + bRec + (v << 4);
  if (sp - first == 1) {
    // one member x = v: find its parent components (at most two distinct, none its own)
    const x = <u32>v;
    let it: usize;
    let end: usize;
    if (load<u32>(rv, 12) == ONE) {
      it = bRec + (v << 4) + 8;
      end = it + 4;
    } else {
      it = <usize>load<u32>(rv, 8);
      end = <usize>load<u32>(rv, 12);
    }
    let pc1: u32 = NONE;
    let pc2: u32 = NONE;
    let a0: usize = 0, a1: usize = 0, b0: usize = 0, b1: usize = 0;
    let simple = true;
    for (; it < end; it += 4) {
      const rp = base + bRec + (<usize>load<u32>(base + it) << 4);
      const pc = load<u32>(rp, 4);
      if (pc == pc1 || pc == pc2) continue;
      if (pc == scc) { simple = false; break; } // self-loop
      if (pc1 == NONE) {
        pc1 = pc;
        a0 = <usize>load<u32>(rp, 8);
        a1 = <usize>load<u32>(rp, 12);
      } else if (pc2 == NONE) {
        pc2 = pc;
        b0 = <usize>load<u32>(rp, 8);
        b1 = <usize>load<u32>(rp, 12);
      } else { simple = false; break; }
    }
    if (simple) {
      const need = total + (a1 - a0) + (b1 - b0) + 1;
      if (need > ancCapacity) {
        growAncestors(need);
        base = arena;
      }
      const anc = base + bAnc;
      let o = anc + (total << 2);
      let i = anc + (a0 << 2);
      const i1 = anc + (a1 << 2);
      if (pc2 == NONE) {
        // the parent's list with x inserted in order (x is in no ancestor list yet)
        o = copyInserting(o, i, i1, x);
      } else {
        // both parents' lists merged, x inserted in order
        const j = anc + (b0 << 2);
        const j1 = anc + (b1 << 2);
        let ix = i1;
        while (ix > i && load<u32>(ix - 4) > x) ix -= 4;
        let jx = j1;
        while (jx > j && load<u32>(jx - 4) > x) jx -= 4;
        o = mergeWords(o, i, ix, j, jx);
        store<u32>(o, x);
        o = mergeWords(o + 4, ix, i1, jx, j1);
      }
      const next = (o - anc) >> 2;
      const r = base + bRec + (v << 4);
      store<u32>(r, <u32>start, 8);
      store<u32>(r, <u32>next, 12);
      return next;
    }
  }
  // general path: the sorted members, then one merge per distinct parent component
  const members = sp - first;
  if (total + members > ancCapacity) {
    growAncestors(total + members);
    base = arena;
  }
  copyWords(base + bAnc + (total << 2), base + bStack + (first << 2), members);
  total += members;
  sortWords(base + bAnc + (start << 2), base + bAnc + (total << 2));
  let r0 = start;
  let r1 = total;
  for (let k = first; k < sp; k++) {
    const x = <usize>load<u32>(base + bStack + (k << 2));
    const rx = base + bRec + (x << 4);
    let it: usize;
    let end: usize;
    if (load<u32>(rx, 12) == ONE) {
      it = bRec + (x << 4) + 8;
      end = it + 4;
    } else {
      it = <usize>load<u32>(rx, 8);
      end = <usize>load<u32>(rx, 12);
    }
    for (; it < end; it += 4) {
      const rp = base + bRec + (<usize>load<u32>(base + it) << 4);
      const pc = <usize>load<u32>(rp, 4);
      if (<u32>pc == scc || load<u32>(base + bMarkC + (pc << 2)) == scc) continue;
      store<u32>(base + bMarkC + (pc << 2), scc);
      const b0 = <usize>load<u32>(rp, 8);
      const b1 = <usize>load<u32>(rp, 12);
      const need = r1 + (r1 - r0) + (b1 - b0);
      if (need > ancCapacity) {
        growAncestors(need);
        base = arena;
      }
      const anc = base + bAnc;
      const o = mergeWords(anc + (r1 << 2), anc + (r0 << 2), anc + (r1 << 2), anc + (b0 << 2), anc + (b1 << 2));
      r0 = r1;
      r1 = (o - anc) >> 2;
    }
  }
  // the last merge result, moved down to where this component's list starts
  if (r0 != start) memory.copy(base + bAnc + (start << 2), base + bAnc + (r0 << 2), (r1 - r0) << 2);
  total = start + (r1 - r0);
  // every member's record now names the shared list (its parents are no longer needed)
  for (let k = first; k < sp; k++) {
    const r = base + bRec + (<usize>load<u32>(base + bStack + (k << 2)) << 4);
    store<u32>(r, <u32>start, 8);
    store<u32>(r, <u32>total, 12);
  }
  return total;
}

/**
 * Address of sccOf[n]: node id → component id. Valid until the next closureInputPtr.
 * The offsets and the ancestor lists follow it directly (one block to copy out).
 */
export function closureSccOfPtr(): usize {
  return arena + bScc;
}
/** Address of offsets[components + 1] into the ancestor list (right after sccOf[n]). */
export function closureOffsetsPtr(): usize {
  return arena + bSccOff;
}
/** Address of the ancestor lists (node ids, ascending per component; right after offsets[n + 1]). */
export function closureAncestorsPtr(): usize {
  return arena + bAnc;
}
/** Length of the ancestor lists (sum over components, not over nodes). */
export function closureAncestorCount(): u32 {
  return ancestorCount;
}
/** Number of components of the last run. */
export function closureComponentCount(): u32 {
  return componentCount;
}
