/**
 * The store behind every Graph groundwire makes: an `N3.Store` that also keeps its quads as
 * one flat table of entity numbers (subject, predicate, object, graph per row, in insertion
 * order), so that a whole-graph scan reads one typed array instead of walking the store's
 * nested index objects.
 *
 * Why: the triple index renders and sorts every triple of a graph each time a critic is
 * shown it. Walking N3.js's subject → predicate → object index costs about 110 ms for
 * 230,000 triples here (one property-key string per triple, parsed back to a number), more
 * than sorting them; reading this table costs about a millisecond. This is the layout of
 * dictionary-encoded stores such as HDT's triples section or Oxigraph's id tables, kept
 * beside N3.js's indexes rather than replacing them: every query still runs on N3.js.
 *
 * Correctness: every change to an N3.js 2.x store goes through its `_addQuad` and
 * `_removeQuad` (addQuad, addQuads, import, addAll, removeQuad, removeQuads, remove,
 * removeMatches, deleteGraph, deleteMatches all call them). A quad the store accepts is
 * appended; a removal marks the table stale, and the next {@link GraphStore.quadRows} call
 * rebuilds it from the indexes (a compaction) — so the table never lists a quad the store
 * does not hold. Entity numbers are the store's own (`_entityIndex`), which never renumbers.
 * `n3` is pinned to an exact version in package.json; the table is compared with the
 * store's contents in test/rdf/graph-store.test.ts.
 */
import type { Store } from "n3";
import { n3Store, StoreBase } from "../deps/n3.js";
import { checkArgs } from "../arg-kinds.js";

/** The N3.js 2.x internals this module relies on (pinned `n3` version). */
interface StoreInternals {
  _addQuad(subject: number, predicate: number, object: number, graph: number): boolean;
  _removeQuad(subject: number, predicate: number, object: number, graph: number): boolean;
  _graphs: Record<string, { subjects: Record<string, Record<string, Record<string, unknown>>> }>;
}

/** N3.js's own `_addQuad`/`_removeQuad` (N3.js is loaded when the first store is made: ts/deps/n3). */
const storeProto = (): StoreInternals => n3Store().prototype as unknown as StoreInternals;

/** The quads of a store as entity numbers: row r is `rows[4r..4r+3]` = subject, predicate, object, graph. */
export interface QuadRows {
  readonly rows: Int32Array;
  readonly count: number;
}

/**
 * An N3.Store with a flat quad table (see the module note). Use it exactly as an N3.Store;
 * {@link quadRows} is the one addition.
 */
export class GraphStore extends StoreBase {
  // Not #private: N3.Store's constructor may add quads (through _addQuad) before this
  // class's fields exist, and _addQuad must then see "no table yet" instead of throwing.
  private table: Int32Array | undefined;
  private rowCount = 0;
  private stale = false;

  /** Same arguments as `new N3.Store(quads?, options?)`. */
  constructor(quads?: ConstructorParameters<typeof Store>[0], options?: ConstructorParameters<typeof Store>[1]) {
    checkArgs("GraphStore", arguments, "quads?:iterable options?:object");
    super(quads as never, options);
    this.table ??= new Int32Array(64);
    // Quads given to the constructor were added before the table existed.
    if (this.size > 0 && this.rowCount === 0) this.stale = true;
  }

  /** @internal N3.js hook: every accepted quad is appended to the table. */
  _addQuad(subject: number, predicate: number, object: number, graph: number): boolean {
    const added = storeProto()._addQuad.call(this, subject, predicate, object, graph);
    if (added) {
      const table = this.table;
      if (table === undefined || this.stale) this.stale = true;
      else {
        let rows = table;
        const at = 4 * this.rowCount;
        if (at + 4 > rows.length) {
          rows = new Int32Array(rows.length * 2);
          rows.set(table);
          this.table = rows;
        }
        rows[at] = subject;
        rows[at + 1] = predicate;
        rows[at + 2] = object;
        rows[at + 3] = graph;
        this.rowCount++;
      }
    }
    return added;
  }

  /** @internal N3.js hook: a removal makes the table stale until the next quadRows(). */
  _removeQuad(subject: number, predicate: number, object: number, graph: number): boolean {
    const removed = storeProto()._removeQuad.call(this, subject, predicate, object, graph);
    if (removed) this.stale = true;
    return removed;
  }

  /**
   * Every quad of the store as entity numbers (the store's `_entityIndex` numbers), one row
   * of four per quad: subject, predicate, object, graph. Insertion order, except after a
   * removal, when the table is rebuilt from the store's indexes (graph, subject, predicate,
   * object order) first. The returned view is valid until the store next changes; do not
   * write to it.
   *
   * Cost: O(1) when no quad was removed since the last call, else one walk of the index
   * (O(n), about 110 ms for 230,000 triples).
   */
  quadRows(): QuadRows {
    if (this.stale || this.table === undefined) this.rebuild();
    return { rows: this.table!.subarray(0, 4 * this.rowCount), count: this.rowCount };
  }

  private rebuild(): void {
    const { rows, count } = walkQuadRows(this);
    this.table = rows;
    this.rowCount = count;
    this.stale = false;
  }
}

/**
 * The quads of any N3.js 2.x store as entity-number rows (see {@link QuadRows}), read by
 * walking its graph → subject → predicate → object index (one property key per quad, parsed
 * back to a number: ≈ 110 ms for 230,000 triples). GraphStore.quadRows() answers from its
 * table instead. Reads the internal `_graphs` of the pinned `n3` version.
 */
export function walkQuadRows(store: Store): QuadRows {
  checkArgs("walkQuadRows", arguments, "store:store");
  const graphs = (store as unknown as StoreInternals)._graphs;
  let rows = new Int32Array(4 * Math.max(16, store.size));
  let at = 0;
  for (const graphKey in graphs) {
    const g = +graphKey;
    const subjects = graphs[graphKey].subjects;
    for (const subjectKey in subjects) {
      const s = +subjectKey;
      const predicates = subjects[subjectKey];
      for (const predicateKey in predicates) {
        const p = +predicateKey;
        for (const objectKey in predicates[predicateKey]) {
          if (at + 4 > rows.length) {
            const grown = new Int32Array(rows.length * 2);
            grown.set(rows);
            rows = grown;
          }
          rows[at] = s;
          rows[at + 1] = p;
          rows[at + 2] = +objectKey;
          rows[at + 3] = g;
          at += 4;
        }
      }
    }
  }
  return { rows, count: at / 4 };
}
