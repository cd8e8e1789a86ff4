/**
 * Test oracle: a naive, literal port of CPython's difflib.SequenceMatcher
 * (Lib/difflib.py: __chain_b, find_longest_match, get_matching_blocks, ratio),
 * junk handling and autojunk included, over arrays of code points. It keeps
 * Python's dictionaries (Map) and loops as written, so it is slow and obviously
 * faithful; the fast backends are checked against it.
 */

export function cps(text: string): number[] {
  return Array.from(text, (c) => c.codePointAt(0)!);
}

export class OracleMatcher {
  private b2j = new Map<number, number[]>();
  private bjunk = new Set<number>();
  private bpopular = new Set<number>();

  constructor(private a: number[], private b: number[], private autojunk = false) {
    this.chainB();
  }

  private chainB(): void {
    const b = this.b;
    const b2j = this.b2j;
    b.forEach((elt, i) => {
      const indices = b2j.get(elt) ?? [];
      if (!b2j.has(elt)) b2j.set(elt, indices);
      indices.push(i);
    });
    // isjunk is None: no junk elements
    const n = b.length;
    if (this.autojunk && n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [elt, idxs] of [...b2j]) {
        if (idxs.length > ntest) this.bpopular.add(elt);
      }
      for (const elt of this.bpopular) b2j.delete(elt);
    }
  }

  private isbjunk(x: number): boolean {
    return this.bjunk.has(x);
  }

  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, b2j } = this;
    let besti = alo, bestj = blo, bestsize = 0;
    let j2len = new Map<number, number>();
    const nothing: number[] = [];
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(a[i]) ?? nothing) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && !this.isbjunk(b[bestj - 1]) && a[besti - 1] === b[bestj - 1]) {
      besti--; bestj--; bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && !this.isbjunk(b[bestj + bestsize]) && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    while (besti > alo && bestj > blo && this.isbjunk(b[bestj - 1]) && a[besti - 1] === b[bestj - 1]) {
      besti--; bestj--; bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && this.isbjunk(b[bestj + bestsize]) && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  }

  getMatchingBlocks(): [number, number, number][] {
    const la = this.a.length, lb = this.b.length;
    const queue: [number, number, number, number][] = [[0, la, 0, lb]];
    const blocks: [number, number, number][] = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const x = this.findLongestMatch(alo, ahi, blo, bhi);
      const [i, j, k] = x;
      if (k) {
        blocks.push(x);
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    blocks.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
    let i1 = 0, j1 = 0, k1 = 0;
    const out: [number, number, number][] = [];
    for (const [i2, j2, k2] of blocks) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1) out.push([i1, j1, k1]);
        i1 = i2; j1 = j2; k1 = k2;
      }
    }
    if (k1) out.push([i1, j1, k1]);
    out.push([la, lb, 0]);
    return out;
  }

  ratio(): number {
    const matches = this.getMatchingBlocks().reduce((s, t) => s + t[2], 0);
    const length = this.a.length + this.b.length;
    return length ? (2.0 * matches) / length : 1.0;
  }
}

/** difflib ratio of two strings over code points; autojunk off unless asked. */
export function oracleRatio(a: string, b: string, autojunk = false): number {
  return new OracleMatcher(cps(a), cps(b), autojunk).ratio();
}
