/**
 * Applying a critic's verdict to the graph it reviewed: items cite triple ids from the
 * listing, never re-quote triples (DESIGN §1). Each item applies atomically or not at all;
 * a graph that drifted from the numbered state refuses the whole critique.
 */
import type * as RDF from "@rdfjs/types";
import { formatLimit, jsonTextTooDeep, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";
import { n3DataFactory } from "../deps/n3.js";
import { parseGraph, RdfParseError, type Graph } from "../rdf/index.js";
import { escapeIri } from "../rdf/prefixes.js";
import { fingerprintGraph, listingPrefixRecord, type TripleIndex } from "./triple-index.js";

import { critiqueItemSchema, type Critique, type CritiqueItem } from "./critique-schema.js";
import { GroundwireError } from "../errors.js";
import { checkArgs } from "../arg-kinds.js";

export type { Critique, CritiqueItem };

/** What an item does: delete the cited triples, or delete them and add `correctValue`. */
export type CritiqueOp = CritiqueItem["op"];

/** The critique is not shaped as a critique (not a list, unknown op, ids not integers…). */
export class CritiqueFormatError extends GroundwireError {
  constructor(message: string) {
    super(message, { code: "bad_request", status: 400 });
    this.name = "CritiqueFormatError";
  }
}

/** The graph is no longer the graph the index numbered: nothing was applied. */
export class TripleIndexDriftError extends GroundwireError {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`graph drifted since it was indexed: the index has fingerprint ${expected}, the graph now has ${actual}; no item was applied`, { code: "drift", status: 409 });
    this.name = "TripleIndexDriftError";
  }
}

/**
 * Optional guards a loop can switch on. Each refusal names its guard.
 * - `maxDeleteShare`: at most this share (0..1) of the listed triples may be deleted by one
 *   critique (counted cumulatively over its items, in order; replace counts its deletions).
 * - `keepSubjects`: a REMOVE may not delete the last triple of a subject.
 * - `keepSubjectOnReplace`: a REPLACE's new triples may only use subjects of the triples it
 *   replaces (no renaming the subject).
 * - `wholeBlankNodes`: a blank node's triples (with it as subject or object) go whole or not
 *   at all — an item touching a blank node must delete every triple mentioning it, or none.
 */
export interface CritiqueGuards {
  maxDeleteShare?: number;
  keepSubjects?: boolean;
  keepSubjectOnReplace?: boolean;
  wholeBlankNodes?: boolean;
}

/** A guard's name, as reported. */
export type GuardName = keyof CritiqueGuards;

/** Why an item was not applied. */
export type RejectionCode =
  | "no-ids"
  | "unknown-id"
  | "already-removed"
  | "missing-correct-value"
  | "unparsable-correct-value"
  | "guard";

/** An item that was applied: the triples it deleted and added. */
export interface AppliedItem {
  /** 1-based position in the critique. */
  item: number;
  op: CritiqueOp;
  tripleIds: number[];
  removed: RDF.Quad[];
  added: RDF.Quad[];
}

/** An item that was refused, with the reason (and the guard, when one refused it). */
export interface RejectedItem {
  item: number;
  op: CritiqueOp;
  tripleIds: number[];
  code: RejectionCode;
  reason: string;
  guard?: GuardName;
}

/** What applyCritique did. */
export interface CritiqueReport {
  /** The fingerprint the index was built on (and the graph had). */
  fingerprintBefore: string;
  /** The graph's fingerprint after the applied items. */
  fingerprintAfter: string;
  applied: AppliedItem[];
  rejected: RejectedItem[];
  removedCount: number;
  addedCount: number;
}

/**
 * Check and normalise a critique (parsed JSON or a JSON string).
 *
 * Accepts a list of items or `{items: [...]}`. `op` is "remove" or "replace" (any case);
 * `tripleIds` a list of positive integers (numeric strings such as "12" are accepted);
 * `correctValue` a string when present.
 *
 * @throws CritiqueFormatError naming the item (1-based) and the field, e.g.
 *   `critique item 2: unknown op "delete" (expected "remove" or "replace")`
 */
export function parseCritique(input: unknown): CritiqueItem[] {
  let value = input;
  if (typeof value === "string") {
    const line = jsonTextTooDeep(value);
    if (line !== null) throw new CritiqueFormatError(`critique nested deeper than ${formatLimit(MAX_JSON_DEPTH)} at line ${line}`);
    try {
      value = JSON.parse(value);
    } catch (error) {
      // one line: V8 quotes the offending text, newlines included
      throw new CritiqueFormatError(`critique is not valid JSON: ${(error as Error).message.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))}`);
    }
  }
  else if (valueTooDeep(value)) throw new CritiqueFormatError(`critique nested deeper than ${formatLimit(MAX_JSON_DEPTH)}`);
  const list =
    Array.isArray(value) ? value : value !== null && typeof value === "object" && Array.isArray((value as { items?: unknown }).items) ? (value as { items: unknown[] }).items : null;
  if (list === null) throw new CritiqueFormatError("critique must be a JSON list of items or an object with an \"items\" list");
  return list.map((raw, k) => {
    // one schema (critique-schema.ts) is the type and the check; its messages name the field
    const parsed = critiqueItemSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw new CritiqueFormatError(`critique item ${k + 1}: ${issue.message}`);
  });
}

const termKey = (t: RDF.Term) => `${t.termType}\u0000${t.value}`;

/**
 * Apply a critique to `graph` in place, resolving ids through `index`.
 *
 * 1. Drift: when the graph's fingerprint differs from `index.fingerprint`, nothing is applied
 *    and TripleIndexDriftError names both fingerprints.
 * 2. Items run in order, each atomically: unknown ids (read-only lines carry no id, so citing
 *    one shows up here), ids an earlier item already removed, a missing or unparsable
 *    `correctValue`, or a refusing guard reject that item alone, with the reason.
 * 3. "replace" deletes the cited triples and adds the triples of `correctValue`, parsed as
 *    Turtle with the graph's prefixes declared. Blank-node labels written `_:x` denote the
 *    graph's `_:x` (as the listing shows it); anonymous ones (`[]`) get fresh labels.
 *
 * The index is not updated: after any applied item the graph has a new fingerprint and the
 * index no longer `matches` it — build a new one for the next pass.
 *
 * @param graph the graph the index was built on; mutated
 * @param index from buildTripleIndex(graph)
 * @param critique items (or `{items}`, or its JSON text); see parseCritique
 * @param guards optional guards, off by default
 * @returns the report: applied and rejected items, counts, fingerprints before and after
 * @throws TripleIndexDriftError on drift; CritiqueFormatError when the critique is malformed
 *   (both before anything is changed)
 */
export function applyCritique(graph: Graph, index: TripleIndex, critique: Critique | string, guards: CritiqueGuards = {}): CritiqueReport {
  checkArgs("applyCritique", arguments, "graph:graph index:tripleIndex");
  const actual = fingerprintGraph(graph);
  if (actual !== index.fingerprint) throw new TripleIndexDriftError(index.fingerprint, actual);
  const items = parseCritique(critique);
  const store = graph.store;
  const removedBy = new Map<number, number>();
  const applied: AppliedItem[] = [];
  const rejected: RejectedItem[] = [];
  const deleteCap = guards.maxDeleteShare === undefined ? Infinity : Math.floor(guards.maxDeleteShare * index.tripleCount);
  let deleted = 0;
  let added = 0;

  items.forEach((item, k) => {
    const number = k + 1;
    const reject = (code: RejectionCode, reason: string, guard?: GuardName) => {
      rejected.push({ item: number, op: item.op, tripleIds: item.tripleIds, code, reason, ...(guard ? { guard } : {}) });
    };
    const ids = [...new Set(item.tripleIds)];
    if (ids.length === 0) return reject("no-ids", "cites no triple ids");
    const unknown = ids.filter((id) => !index.byId.has(id));
    if (unknown.length > 0) {
      return reject(
        "unknown-id",
        `unknown triple id${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: the listing has ids 1..${index.scopeSize} (read-only lines carry no id)`,
      );
    }
    const gone = ids.filter((id) => removedBy.has(id));
    if (gone.length > 0) {
      return reject("already-removed", gone.map((id) => `triple ${id} was already removed by item ${removedBy.get(id)}`).join("; "));
    }
    const toRemove = ids.map((id) => index.byId.get(id)!);
    let toAdd: RDF.Quad[] = [];
    if (item.op === "replace") {
      if (item.correctValue == null || item.correctValue.trim() === "") {
        return reject("missing-correct-value", "replace needs a correctValue (Turtle)");
      }
      const parsed = parseCorrectValue(item.correctValue, graph, number);
      if (typeof parsed === "string") return reject("unparsable-correct-value", parsed);
      toAdd = parsed;
    }

    // Guards.
    if (deleted + toRemove.length > deleteCap) {
      return reject(
        "guard",
        `maxDeleteShare: deleting ${toRemove.length} more would make ${deleted + toRemove.length} of ${index.tripleCount} triples (cap ${deleteCap}, share ${guards.maxDeleteShare})`,
        "maxDeleteShare",
      );
    }
    const removeKeys = new Set(toRemove.map(quadKey));
    if (guards.keepSubjects && item.op === "remove") {
      const perSubject = new Map<string, { term: RDF.Term; count: number }>();
      for (const q of toRemove) {
        const e = perSubject.get(termKey(q.subject)) ?? { term: q.subject, count: 0 };
        e.count++;
        perSubject.set(termKey(q.subject), e);
      }
      for (const { term, count } of perSubject.values()) {
        if (countDistinctTriples(store, term, null) <= count) {
          return reject("guard", `keepSubjects: removing would leave ${describe(term)} with no triples`, "keepSubjects");
        }
      }
    }
    if (guards.keepSubjectOnReplace && item.op === "replace") {
      const subjects = new Set(toRemove.map((q) => termKey(q.subject)));
      const renamed = toAdd.find((q) => !subjects.has(termKey(q.subject)));
      if (renamed) {
        return reject("guard", `keepSubjectOnReplace: the replacement introduces subject ${describe(renamed.subject)}, not a subject of the replaced triples`, "keepSubjectOnReplace");
      }
    }
    if (guards.wholeBlankNodes) {
      const blanks = new Map<string, RDF.Term>();
      for (const q of toRemove) {
        if (q.subject.termType === "BlankNode") blanks.set(q.subject.value, q.subject);
        if (q.object.termType === "BlankNode") blanks.set(q.object.value, q.object);
      }
      for (const b of blanks.values()) {
        const mentioning = [
          ...store.getQuads(b as never, null, null, null),
          ...store.getQuads(null, null, b as never, null),
        ] as unknown as RDF.Quad[];
        const leftDistinct = new Set(mentioning.filter((q) => !removeKeys.has(quadKey(q))).map(quadKey));
        if (leftDistinct.size > 0) {
          return reject(
            "guard",
            `wholeBlankNodes: ${describe(b)} would keep ${leftDistinct.size} of its ${new Set(mentioning.map(quadKey)).size} triples; remove all of them or none`,
            "wholeBlankNodes",
          );
        }
      }
    }

    // Apply (cannot fail from here on).
    for (const q of toRemove) {
      // Every graph's copy of the triple goes (removeMatches would be asynchronous).
      store.removeQuads(store.getQuads(q.subject as never, q.predicate as never, q.object as never, null));
    }
    const addedQuads: RDF.Quad[] = [];
    for (const q of toAdd) {
      const quad = n3DataFactory().quad(q.subject as never, q.predicate as never, q.object as never) as unknown as RDF.Quad;
      if (store.addQuad(quad as never) !== false) addedQuads.push(quad);
    }
    for (const id of ids) removedBy.set(id, number);
    deleted += toRemove.length;
    added += addedQuads.length;
    applied.push({ item: number, op: item.op, tripleIds: item.tripleIds, removed: toRemove, added: addedQuads });
  });

  return {
    fingerprintBefore: index.fingerprint,
    fingerprintAfter: applied.length > 0 ? fingerprintGraph(graph) : actual,
    applied,
    rejected,
    removedCount: deleted,
    addedCount: added,
  };
}

function quadKey(q: RDF.Quad): string {
  const o = q.object;
  const lit = o.termType === "Literal" ? `\u0000${o.language}\u0000${o.datatype.value}` : "";
  return `${termKey(q.subject)}\u0001${q.predicate.value}\u0001${termKey(o)}${lit}`;
}

function countDistinctTriples(store: Graph["store"], subject: RDF.Term, object: RDF.Term | null): number {
  const quads = store.getQuads(subject as never, null, object as never, null) as unknown as RDF.Quad[];
  return new Set(quads.map(quadKey)).size;
}

function describe(term: RDF.Term): string {
  return term.termType === "BlankNode" ? `_:${term.value}` : term.termType === "NamedNode" ? `<${term.value}>` : JSON.stringify(term.value);
}

/** Parse a correctValue: triples, or a one-line reason. Anonymous blank nodes get fresh labels. */
function parseCorrectValue(text: string, graph: Graph, item: number): RDF.Quad[] | string {
  // All declarations on line 1, so the parser's line n is the correctValue's line n - 1.
  // The prefixes the listing showed the critic, defaults included; escaped (UCHAR), never pasted
  // raw: a namespace holding ">" must not end the IRIREF and inject triples.
  const header = Object.entries(listingPrefixRecord(graph.prefixes))
    .map(([name, iri]) => `@prefix ${name}: <${escapeIri(iri)}> .`)
    .join(" ");
  let parsed: Graph;
  try {
    parsed = parseGraph(`${header}\n${text}`, { format: "turtle", source: `item ${item} correctValue` });
  } catch (error) {
    if (error instanceof RdfParseError) {
      const line = error.line !== null ? error.line - 1 : null;
      const where = line !== null && line >= 1 ? ` at line ${line}${error.column !== null ? `, column ${error.column}` : ""}` : "";
      return `correctValue is not valid Turtle${where}: ${error.detail}`;
    }
    throw error;
  }
  const quads = parsed.store.getQuads(null, null, null, null) as unknown as RDF.Quad[];
  if (quads.length === 0) return "correctValue holds no triples";
  // Labels the text writes (`_:x`) refer to the graph's nodes; anonymous ones must be new.
  const fresh = new Map<string, RDF.BlankNode>();
  const relabel = <T extends RDF.Term>(t: T): T => {
    if (t.termType !== "BlankNode" || text.includes(`_:${t.value}`)) return t;
    let b = fresh.get(t.value);
    if (!b) {
      let label = `${t.value}`;
      for (let k = 1; graph.store.countQuads(n3DataFactory().blankNode(label) as never, null, null, null) + graph.store.countQuads(null, null, n3DataFactory().blankNode(label) as never, null) > 0; k++) {
        label = `${t.value}_${k}`;
      }
      b = n3DataFactory().blankNode(label) as unknown as RDF.BlankNode;
      fresh.set(t.value, b);
    }
    return b as unknown as T;
  };
  return quads.map((q) => n3DataFactory().quad(relabel(q.subject) as never, q.predicate as never, relabel(q.object) as never) as unknown as RDF.Quad);
}
